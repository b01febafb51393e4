// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Tests of listers on real temporary trees: every type, every field against lstat. */
#include "internal.h"
#include "platform.h"
#include "tree.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

// Allocation counting through frd_replace_allocator(), installed in main().
static size_t allocations;

static void *counting_malloc(size_t size)
{
    allocations++;
    return malloc(size);
}

static void *counting_realloc(void *ptr, size_t size)
{
    allocations++;
    return realloc(ptr, size);
}

static enum frd_type type_of_mode(mode_t mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG:
        return FRD_TYPE_REG;
    case S_IFDIR:
        return FRD_TYPE_DIR;
    case S_IFLNK:
        return FRD_TYPE_LNK;
    case S_IFIFO:
        return FRD_TYPE_FIFO;
    case S_IFSOCK:
        return FRD_TYPE_SOCK;
    case S_IFCHR:
        return FRD_TYPE_CHR;
    case S_IFBLK:
        return FRD_TYPE_BLK;
    default:
        return FRD_TYPE_UNKNOWN;
    }
}

/** What struct stat holds: every field but btime and attributes. */
#define STAT_FIELDS                                                                            \
    (FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_MTIME | FRD_FIELD_CTIME | FRD_FIELD_FILE_ID | \
     FRD_FIELD_DEV | FRD_FIELD_NLINK | FRD_FIELD_MODE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_UID | \
     FRD_FIELD_GID | FRD_FIELD_ATIME | FRD_FIELD_RDEV)

static int64_t ns_of(int64_t sec, int64_t nsec)
{
    return sec * 1000000000 + nsec;
}

#if FRD_TEST_STATX_BACKEND
/** The statx attribute bits and the frd_attr bits they stand for, restated from statx(2). */
static const struct {
    uint64_t statx_bit;
    uint32_t attr;
} statx_attr_map[] = {
    {0x4, FRD_ATTR_COMPRESSED},    {0x10, FRD_ATTR_IMMUTABLE},  {0x20, FRD_ATTR_APPEND},
    {0x40, FRD_ATTR_NODUMP},       {0x800, FRD_ATTR_ENCRYPTED}, {0x1000, FRD_ATTR_AUTOMOUNT},
    {0x2000, FRD_ATTR_MOUNT_ROOT}, {0x100000, FRD_ATTR_VERITY}, {0x200000, FRD_ATTR_DAX},
};

static uint32_t attrs_of(uint64_t statx_attr)
{
    uint32_t out = 0;
    for (size_t i = 0; i < sizeof(statx_attr_map) / sizeof(statx_attr_map[0]); i++) {
        if (statx_attr & statx_attr_map[i].statx_bit) {
            out |= statx_attr_map[i].attr;
        }
    }
    return out;
}
#endif

/**
 * Checks what only statx knows (btime, attributes) against statx of the same path, where the
 * backend uses statx; elsewhere checks that the entry does not claim them.
 */
static void assert_statx_only_fields(const char *path, const struct frd_entry *e)
{
#if FRD_TEST_STATX_BACKEND
    struct statx stx;
    assert_int_equal(
        statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &stx), 0);
    if (stx.stx_mask & STATX_BTIME) {
        assert_true(e->fields & FRD_FIELD_BTIME);
        assert_int_equal(e->btime_ns, ns_of(stx.stx_btime.tv_sec, stx.stx_btime.tv_nsec));
    } else {
        assert_false(e->fields & FRD_FIELD_BTIME);
    }
    assert_true(e->fields & FRD_FIELD_ATTRIBUTES);
    assert_int_equal(e->attributes_known, attrs_of(stx.stx_attributes_mask));
    assert_int_equal(e->attributes, attrs_of(stx.stx_attributes & stx.stx_attributes_mask));
#else
    (void)path;
    assert_false(e->fields & (FRD_FIELD_BTIME | FRD_FIELD_ATTRIBUTES));
#endif
}

/** Checks every field of an entry against lstat (and statx) of the same name. */
static void assert_entry_matches_lstat(const char *dir, const struct frd_entry *e)
{
    char *path = tree_path(dir, e->name);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_int_equal(e->error, 0);
    assert_int_equal(e->type, type_of_mode(st.st_mode));
    assert_int_equal(e->size, (uint64_t)st.st_size);
    assert_int_equal(e->alloc_size, (uint64_t)st.st_blocks * 512);
    assert_int_equal(e->mtime_ns, ns_of(st.st_mtim.tv_sec, st.st_mtim.tv_nsec));
    assert_int_equal(e->ctime_ns, ns_of(st.st_ctim.tv_sec, st.st_ctim.tv_nsec));
    assert_int_equal(e->atime_ns, ns_of(st.st_atim.tv_sec, st.st_atim.tv_nsec));
    assert_int_equal(e->file_id, st.st_ino);
    assert_int_equal(e->dev, st.st_dev);
    assert_int_equal(e->nlink, st.st_nlink);
    assert_int_equal(e->mode, st.st_mode); // the full mode: type bits and permissions
    assert_int_equal(e->uid, st.st_uid);
    assert_int_equal(e->gid, st.st_gid);
    assert_int_equal(e->rdev, st.st_rdev);
    assert_int_equal(e->fields & STAT_FIELDS, STAT_FIELDS);
    assert_statx_only_fields(path, e);
    assert_int_equal(strlen(e->name), e->name_len);
    free(path);
}

static const struct frd_entry *find_entry(const struct frd_list *list, const char *name)
{
    const struct frd_entry *v = frd_list_entries(list);
    for (size_t i = 0; i < frd_list_count(list); i++) {
        if (strcmp(v[i].name, name) == 0) {
            return &v[i];
        }
    }
    return NULL;
}

/** Lists `dir` with a fresh lister and list; the caller frees the list. */
static struct frd_list *list_dir(const char *dir, unsigned flags, int *rc)
{
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, flags), 0);
    *rc = frd_lister_list_path(lister, list, dir);
    frd_lister_free(lister);
    return list;
}

static char *make_every_type_tree(void)
{
    char *root = tree_make_root();
    tree_file(root, "regular", 1234);
    tree_file(root, "empty", 0);
    tree_dir(root, "directory");
    tree_symlink(root, "regular", "link");
    tree_symlink(root, "/nonexistent/target", "dangling");
    tree_symlink(root, "directory", "dirlink");
    tree_fifo(root, "fifo");
    tree_socket(root, "socket");
    char *path = tree_path(root, "regular");
    assert_int_equal(link(path, path), -1); // sanity: EEXIST
    char *hard = tree_path(root, "hardlink");
    assert_int_equal(link(path, hard), 0);
    free(hard);
    free(path);
    return root;
}

static void test_lister_every_type_matches_lstat(void **state)
{
    (void)state;
    char *root = make_every_type_tree();
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, 9);
    assert_int_equal(frd_list_count(list), 9);
    const struct frd_entry *v = frd_list_entries(list);
    for (size_t i = 0; i < 9; i++) {
        assert_string_not_equal(v[i].name, ".");
        assert_string_not_equal(v[i].name, "..");
        assert_entry_matches_lstat(root, &v[i]);
    }
    assert_int_equal(find_entry(list, "link")->type, FRD_TYPE_LNK);
    assert_int_equal(find_entry(list, "dirlink")->type, FRD_TYPE_LNK);
    assert_int_equal(find_entry(list, "fifo")->type, FRD_TYPE_FIFO);
    assert_int_equal(find_entry(list, "socket")->type, FRD_TYPE_SOCK);
    assert_int_equal(find_entry(list, "directory")->type, FRD_TYPE_DIR);
    assert_int_equal(find_entry(list, "regular")->size, 1234);
    assert_int_equal(find_entry(list, "regular")->nlink, 2);
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_device_files_match_lstat(void **state)
{
    (void)state;
    int rc;
    struct frd_list *list = list_dir("/dev", 0, &rc);
    assert_true(rc > 0);
    const struct frd_entry *null_dev = find_entry(list, "null");
    assert_non_null(null_dev);
    assert_int_equal(null_dev->type, FRD_TYPE_CHR);
    assert_true(null_dev->fields & FRD_FIELD_RDEV);
    assert_int_equal(null_dev->rdev, makedev(1, 3)); // /dev/null is 1:3 on Linux
    assert_int_equal(null_dev->mode & S_IFMT, S_IFCHR);
    assert_entry_matches_lstat("/dev", null_dev);
    frd_list_free(list);
}

static void test_lister_empty_directory_is_empty_not_error(void **state)
{
    (void)state;
    char *root = tree_make_root();
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(frd_list_count(list), 0);
    frd_list_free(list);
    tree_remove(root);
}

static void check_many(size_t n)
{
    char *root = tree_make_root();
    char name[64];
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "file-%06zu", i);
        tree_file(root, name, i % 7);
    }
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, (int)n);
    frd_list_sort(list);
    const struct frd_entry *v = frd_list_entries(list);
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "file-%06zu", i);
        assert_string_equal(v[i].name, name);
        assert_int_equal(v[i].size, i % 7);
        assert_int_equal(v[i].type, FRD_TYPE_REG);
    }
    assert_entry_matches_lstat(root, &v[n / 2]);
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_ten_entries(void **state)
{
    (void)state;
    check_many(10);
}

static void test_lister_twenty_thousand_entries(void **state)
{
    (void)state;
    check_many(20000);
}

static void test_lister_odd_names_come_back_as_bytes(void **state)
{
    (void)state;
    char *root = tree_make_root();
    const char *names[] = {"with\nnewline", "with space",  "\xff\xfe invalid utf8 \xc3",
                           "tab\there",     "-dash",       "\\backslash",
                           "*star?",        "\xe2\x82\xac"};
    size_t n = sizeof(names) / sizeof(names[0]);
    for (size_t i = 0; i < n; i++) {
        tree_file(root, names[i], i);
    }
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, (int)n);
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = find_entry(list, names[i]);
        assert_non_null(e);
        assert_int_equal(e->name_len, strlen(names[i]));
        assert_int_equal(e->size, i);
        assert_entry_matches_lstat(root, e);
    }
    frd_list_free(list);
    tree_remove(root);
}

static int strcmp_ptr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_read_dir_sorts_in_byte_order(void **state)
{
    (void)state;
    char *root = tree_make_root();
    const char *names[] = {"b", "B", "a", "\xc3\xa9", "_", "Z9", "aa", "a b", "10", "9", "~"};
    size_t n = sizeof(names) / sizeof(names[0]);
    for (size_t i = 0; i < n; i++) {
        tree_file(root, names[i], 0);
    }
    char **ref = malloc(n * sizeof(*ref));
    memcpy(ref, names, n * sizeof(*ref));
    qsort(ref, n, sizeof(*ref), strcmp_ptr); // strcmp compares as unsigned char: byte order
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_read_dir(root, 0, list), (int)n);
    const struct frd_entry *v = frd_list_entries(list);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(v[i].name, ref[i]);
    }
    // frd_read_dir clears the list first.
    assert_int_equal(frd_read_dir(root, FRD_LIST_NAMES_ONLY, list), (int)n);
    assert_int_equal(frd_list_count(list), n);
    assert_int_equal(frd_read_dir(root, FRD_LIST_REWIND << 4, list), FRD_EINVAL);
    free(ref);
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_names_only_equals_full_names_and_types(void **state)
{
    (void)state;
    char *root = make_every_type_tree();
    int rc;
    struct frd_list *full = list_dir(root, 0, &rc);
    assert_int_equal(rc, 9);
    struct frd_list *names = list_dir(root, FRD_LIST_NAMES_ONLY, &rc);
    assert_int_equal(rc, 9);
    frd_list_sort(full);
    frd_list_sort(names);
    const struct frd_entry *a = frd_list_entries(full);
    const struct frd_entry *b = frd_list_entries(names);
    for (size_t i = 0; i < 9; i++) {
        assert_string_equal(a[i].name, b[i].name);
        assert_int_equal(a[i].type, b[i].type);
        assert_int_equal(b[i].fields, FRD_FIELD_TYPE);
        assert_int_equal(b[i].size, 0);
    }
    frd_list_free(full);
    frd_list_free(names);
    tree_remove(root);
}

static void test_lister_fstatat_fallback_gives_identical_results(void **state)
{
    (void)state;
    if (!frd__plat_force_fallback(true)) {
        skip();
    }
    char *root = make_every_type_tree();
    int rc;
    struct frd_list *fallback = list_dir(root, 0, &rc);
    frd__plat_force_fallback(false);
    assert_int_equal(rc, 9);
    struct frd_list *normal = list_dir(root, 0, &rc);
    assert_int_equal(rc, 9);
    frd_list_sort(fallback);
    frd_list_sort(normal);
    for (size_t i = 0; i < 9; i++) {
        const struct frd_entry *f = &frd_list_entries(fallback)[i];
        const struct frd_entry *n = &frd_list_entries(normal)[i];
        // fstatat fills what struct stat has; statx that and more: compare what both fill.
        assert_int_equal(f->fields, STAT_FIELDS);
        assert_int_equal(n->fields & STAT_FIELDS, STAT_FIELDS);
        assert_string_equal(f->name, n->name);
        assert_int_equal(f->type, n->type);
        assert_int_equal(f->size, n->size);
        assert_int_equal(f->alloc_size, n->alloc_size);
        assert_int_equal(f->mtime_ns, n->mtime_ns);
        assert_int_equal(f->ctime_ns, n->ctime_ns);
        assert_int_equal(f->atime_ns, n->atime_ns);
        assert_int_equal(f->file_id, n->file_id);
        assert_int_equal(f->dev, n->dev);
        assert_int_equal(f->nlink, n->nlink);
        assert_int_equal(f->mode, n->mode);
        assert_int_equal(f->uid, n->uid);
        assert_int_equal(f->gid, n->gid);
        assert_int_equal(f->rdev, n->rdev);
        assert_false(f->fields & (FRD_FIELD_BTIME | FRD_FIELD_ATTRIBUTES));
    }
    frd_list_free(fallback);
    frd_list_free(normal);
    tree_remove(root);
}

/** sec.nsec in ns, clamped to what an int64_t holds (computed apart from the library's). */
static int64_t clamped_ns(int64_t sec, int64_t nsec)
{
    int64_t ns;
    if (__builtin_mul_overflow(sec, 1000000000, &ns) || __builtin_add_overflow(ns, nsec, &ns)) {
        return sec < 0 ? INT64_MIN : INT64_MAX;
    }
    return ns;
}

static void test_lister_times_beyond_int64_ns_saturate(void **state)
{
    (void)state;
    // An int64_t of ns holds 1677-09-21 to 2262-04-11 23:47:16.854775807: a time beyond (a
    // file stamped 2400 on ext4) reads as that limit, as the Windows and macOS decoders
    // give it, not as a wrapped value (nor, under UBSan, an overflow).
    char *root = tree_make_root();
    static const struct {
        const char *name;
        int64_t sec, nsec;
    } times[] = {{"limit", 9223372036, 854775807},
                 {"past-limit", 9223372036, 854775808},
                 {"year-2400", 13569465600, 5},
                 {"year-1901", -2147483648, 7}};
    for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
        tree_file(root, times[i].name, 0);
        char *path = tree_path(root, times[i].name);
        struct timespec ts[2] = {{(time_t)times[i].sec, (long)times[i].nsec},
                                 {(time_t)times[i].sec, (long)times[i].nsec}};
        assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
        free(path);
    }
    for (int fallback = 0; fallback < 2; fallback++) {
        if (fallback && !frd__plat_force_fallback(true)) {
            break;
        }
        int rc;
        struct frd_list *list = list_dir(root, 0, &rc);
        frd__plat_force_fallback(false);
        assert_int_equal(rc, 4);
        for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
            const struct frd_entry *e = find_entry(list, times[i].name);
            assert_non_null(e);
            char *path = tree_path(root, times[i].name);
            struct stat st;
            assert_int_equal(lstat(path, &st), 0); // the file system's own range may clamp
            free(path);
            assert_int_equal(e->mtime_ns, clamped_ns(st.st_mtim.tv_sec, st.st_mtim.tv_nsec));
            assert_int_equal(e->atime_ns, clamped_ns(st.st_atim.tv_sec, st.st_atim.tv_nsec));
            if (st.st_mtim.tv_sec > 9223372036) {
                assert_int_equal(e->mtime_ns, INT64_MAX);
            }
        }
        assert_int_equal(find_entry(list, "limit")->mtime_ns, INT64_MAX);
        assert_int_equal(find_entry(list, "past-limit")->mtime_ns, INT64_MAX);
        frd_list_free(list);
    }
    tree_remove(root);
}

static void test_lister_missing_path_is_enoent_with_op_and_name(void **state)
{
    (void)state;
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_list_path(lister, list, "/nonexistent/frd/dir"), FRD_ENOENT);
    struct frd_list_error err = frd_lister_error(lister);
    assert_int_equal(err.code, FRD_ENOENT);
    assert_string_equal(err.op, "open");
    assert_int_equal(err.call, FRD_OP_OPEN);
    assert_string_equal(err.name, "/nonexistent/frd/dir");
    assert_int_equal(frd_list_count(list), 0);
    frd_lister_free(lister);
    frd_list_free(list);
}

/* A descriptor of a regular file: the backend's read (or its fdopendir) fails, and says
 * which kind of call that was; a listing that succeeds afterwards clears it. */
static void test_lister_failed_read_names_its_call(void **state)
{
    (void)state;
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
    }
    assert_true(fd >= 0);
    assert_true(frd_lister_list_fd(lister, list, fd, "file") < 0);
    struct frd_list_error err = frd_lister_error(lister);
    assert_true(err.code < 0);
    // Linux reads with getdents64 (FRD_OP_READ_DIR), the portable backend opens a stream
    // first (fdopendir: FRD_OP_OPEN).
    assert_true(err.call == FRD_OP_READ_DIR || err.call == FRD_OP_OPEN);
    assert_int_equal(err.call, strcmp(err.op, "fdopendir") == 0 || strcmp(err.op, "dup") == 0
                                   ? FRD_OP_OPEN
                                   : FRD_OP_READ_DIR);
    close(fd);
    assert_true(frd_lister_list_path(lister, list, "/") >= 0);
    assert_int_equal(frd_lister_error(lister).call, FRD_OP_OTHER);
    frd_lister_free(lister);
    frd_list_free(list);
}

static void test_lister_file_path_is_enotdir(void **state)
{
    (void)state;
    char *root = make_every_type_tree();
    char *file = tree_path(root, "regular");
    int rc;
    struct frd_list *list = list_dir(file, 0, &rc);
    assert_int_equal(rc, FRD_ENOTDIR);
    frd_list_free(list);
    free(file);
    tree_remove(root);
}

static void test_lister_list_at_nofollow_refuses_symlink(void **state)
{
    (void)state;
    char *root = make_every_type_tree();
    frd_os_fd parent;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, root, 0, &parent), 0);
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_list_at(lister, list, parent, "dirlink", FRD_OPEN_NOFOLLOW),
                     FRD_ELOOP);
    assert_string_equal(frd_lister_error(lister).name, "dirlink");
    assert_int_equal(frd_lister_list_at(lister, list, parent, "dirlink", 0), 0);
    assert_int_equal(frd_lister_list_at(lister, list, parent, "directory", FRD_OPEN_NOFOLLOW), 0);
    assert_int_equal(frd_lister_list_at(lister, list, parent, "x", 99), FRD_EINVAL);
    frd__plat_close_dir(parent);
    frd_lister_free(lister);
    frd_list_free(list);
    tree_remove(root);
}

static char *deleted_root;
static void delete_victim(frd_os_fd dir, const char *name)
{
    (void)dir;
    if (strcmp(name, "victim") == 0) {
        char *path = tree_path(deleted_root, "victim");
        assert_int_equal(unlink(path), 0);
        free(path);
    }
}

static void test_lister_entry_deleted_before_stat_is_left_out(void **state)
{
    (void)state;
    deleted_root = tree_make_root();
    tree_file(deleted_root, "keep1", 1);
    tree_file(deleted_root, "victim", 2);
    tree_file(deleted_root, "keep2", 3);
    frd__test_before_stat = delete_victim;
    int rc;
    struct frd_list *list = list_dir(deleted_root, 0, &rc);
    frd__test_before_stat = NULL;
    assert_int_equal(rc, 2);
    assert_null(find_entry(list, "victim"));
    assert_non_null(find_entry(list, "keep1"));
    assert_non_null(find_entry(list, "keep2"));
    frd_list_free(list);
    tree_remove(deleted_root);
}

static void test_lister_rewind_lists_half_read_descriptor_from_start(void **state)
{
    (void)state;
    char *root = tree_make_root();
    char name[32];
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof(name), "entry-%03d", i);
        tree_file(root, name, 0);
    }
    frd_os_fd fd;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, root, 0, &fd), 0);
    // Read part of the directory with a small buffer, as another reader would have.
    char small[256];
    assert_true(syscall(SYS_getdents64, fd, small, sizeof(small)) > 0);

    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    int partial = frd_lister_list_fd(lister, list, fd, "half-read");
    assert_true(partial > 0 && partial < 200);
    // Without rewind, a descriptor at its end lists nothing more.
    frd_list_clear(list);
    assert_int_equal(frd_lister_list_fd(lister, list, fd, NULL), 0);
    assert_int_equal(frd_lister_set_flags(lister, FRD_LIST_REWIND), 0);
    assert_int_equal(frd_lister_flags(lister), FRD_LIST_REWIND);
    assert_int_equal(frd_lister_list_fd(lister, list, fd, NULL), 200);
    assert_int_equal(frd_lister_set_flags(lister, 1u << 9), FRD_EINVAL);
    frd__plat_close_dir(fd);
    frd_lister_free(lister);
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_reuse_allocates_nothing_per_listing(void **state)
{
    (void)state;
    char *root = make_every_type_tree();
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    // The first listing sizes the list; every later one must reuse it.
    assert_int_equal(frd_lister_list_path(lister, list, root), 9);
    size_t before = allocations;
    for (int i = 0; i < 1000; i++) {
        frd_list_clear(list);
        assert_int_equal(frd_lister_list_path(lister, list, root), 9);
    }
    assert_int_equal(allocations - before, 0);
    assert_true(before > 0); // the counter does see frd's allocations
    frd_lister_free(lister);
    frd_list_free(list);
    tree_remove(root);
}

/** Runs fn in a child process as user nobody (65534); returns its exit status. */
static int as_nobody(void (*fn)(const char *), const char *arg)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) {
            _exit(99);
        }
        fn(arg);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

static void child_expect_eacces(const char *dir)
{
    struct frd_list *list;
    struct frd_lister *lister;
    if (frd_list_new(&list) < 0 || frd_lister_new(&lister, 0) < 0) {
        _exit(2);
    }
    int rc = frd_lister_list_path(lister, list, dir);
    struct frd_list_error err = frd_lister_error(lister);
    _exit(rc == FRD_EACCES && strcmp(err.op, "open") == 0 && strcmp(err.name, dir) == 0 ? 0 : 3);
}

static void child_expect_entry_errors(const char *dir)
{
    struct frd_list *list;
    struct frd_lister *lister;
    if (frd_list_new(&list) < 0 || frd_lister_new(&lister, 0) < 0) {
        _exit(2);
    }
    int rc = frd_lister_list_path(lister, list, dir);
    if (rc != 2) {
        _exit(3);
    }
    const struct frd_entry *v = frd_list_entries(list);
    for (int i = 0; i < 2; i++) {
        if (v[i].error != FRD_EACCES || v[i].type != FRD_TYPE_REG ||
            v[i].fields != FRD_FIELD_TYPE) {
            _exit(4);
        }
    }
    _exit(0);
}

static void test_lister_unreadable_directory_is_eacces(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "locked");
    char *locked = tree_path(root, "locked");
    assert_int_equal(chmod(root, 0755), 0);
    assert_int_equal(chmod(locked, 0), 0);
    assert_int_equal(as_nobody(child_expect_eacces, locked), 0);
    assert_int_equal(chmod(locked, 0755), 0);
    free(locked);
    tree_remove(root);
}

static void test_lister_unsearchable_directory_keeps_entries_with_errors(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "readonly");
    tree_file(root, "readonly/a", 1);
    tree_file(root, "readonly/b", 2);
    char *dir = tree_path(root, "readonly");
    assert_int_equal(chmod(root, 0755), 0);
    assert_int_equal(chmod(dir, 0444), 0); // readable, not searchable: stat fails per entry
    assert_int_equal(as_nobody(child_expect_entry_errors, dir), 0);
    assert_int_equal(chmod(dir, 0755), 0);
    free(dir);
    tree_remove(root);
}

static void test_lister_new_rejects_bad_arguments(void **state)
{
    (void)state;
    struct frd_lister *lister;
    assert_int_equal(frd_lister_new(NULL, 0), FRD_EINVAL);
    assert_int_equal(frd_lister_new(&lister, 1u << 12), FRD_EINVAL);
    assert_int_equal(frd_lister_list_path(NULL, NULL, "/"), FRD_EINVAL);
}

/** Lists `dir` with a lister set to `wanted`; counts the stats through the test hook. */
static size_t stats_made;
static void count_stat(frd_os_fd dir, const char *name)
{
    (void)dir;
    (void)name;
    stats_made++;
}

static struct frd_list *list_wanted(const char *dir, unsigned wanted, int *rc)
{
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_set_fields(lister, wanted), 0);
    assert_int_equal(frd_lister_fields(lister), wanted);
    stats_made = 0;
    frd__test_before_stat = count_stat;
    *rc = frd_lister_list_path(lister, list, dir);
    frd__test_before_stat = NULL;
    frd_lister_free(lister);
    return list;
}

/** Whether a backend that stats fills `field` for `path` at all (btime is per file system). */
static bool field_available(const char *path, unsigned field)
{
#if FRD_TEST_STATX_BACKEND
    if (field == FRD_FIELD_BTIME) {
        struct statx stx;
        assert_int_equal(statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &stx), 0);
        return (stx.stx_mask & STATX_BTIME) != 0;
    }
    return true;
#else
    (void)path;
    return (field & STAT_FIELDS) != 0;
#endif
}

static void test_lister_each_wanted_field_is_filled(void **state)
{
    (void)state;
    char *root = make_every_type_tree();
    int rc;
    struct frd_list *full = list_dir(root, 0, &rc);
    assert_int_equal(rc, 9);
    frd_list_sort(full);
    for (unsigned field = 1; field & FRD_FIELDS_ALL; field <<= 1) {
        struct frd_list *list = list_wanted(root, field, &rc);
        assert_int_equal(rc, 9);
        frd_list_sort(list);
        for (size_t i = 0; i < 9; i++) {
            const struct frd_entry *e = &frd_list_entries(list)[i];
            const struct frd_entry *f = &frd_list_entries(full)[i];
            char *path = tree_path(root, e->name);
            assert_int_equal(e->error, 0);
            assert_true(e->fields & FRD_FIELD_TYPE);
            assert_int_equal(e->type, f->type);
            if (field_available(path, field)) {
                assert_true(e->fields & field);
            } else {
                assert_false(e->fields & field);
            }
            free(path);
        }
        // The value is the full listing's (atime aside: it is read, never changed, here).
        const struct frd_entry *e = find_entry(list, "regular");
        const struct frd_entry *f = find_entry(full, "regular");
        switch (field) {
        case FRD_FIELD_SIZE:
            assert_int_equal(e->size, 1234);
            break;
        case FRD_FIELD_MODE:
            assert_int_equal(e->mode, f->mode);
            assert_int_equal(e->mode & S_IFMT, S_IFREG);
            break;
        case FRD_FIELD_UID:
            assert_int_equal(e->uid, getuid());
            break;
        case FRD_FIELD_GID:
            assert_int_equal(e->gid, f->gid);
            break;
        case FRD_FIELD_NLINK:
            assert_int_equal(e->nlink, 2);
            break;
        case FRD_FIELD_FILE_ID:
            assert_int_equal(e->file_id, f->file_id);
            break;
        case FRD_FIELD_BTIME:
            assert_int_equal(e->btime_ns, f->btime_ns);
            break;
        default:
            break;
        }
        frd_list_free(list);
    }
    frd_list_free(full);
    tree_remove(root);
}

static void test_lister_type_and_file_id_stat_directories_only(void **state)
{
    (void)state;
    char *root = make_every_type_tree();
    int rc;
    struct frd_list *list = list_wanted(root, FRD_FIELD_TYPE | FRD_FIELD_FILE_ID, &rc);
    assert_int_equal(rc, 9);
    const struct frd_entry *v = frd_list_entries(list);
    size_t dirs = 0;
    for (size_t i = 0; i < 9; i++) {
        char *path = tree_path(root, v[i].name);
        struct stat st;
        assert_int_equal(lstat(path, &st), 0);
        assert_int_equal(v[i].type, type_of_mode(st.st_mode));
        // file_id is st_ino: a record's d_ino for all but a directory (whose d_ino is the
        // covered directory's on a mount point), which is stat'ed; the stat may fill more.
        assert_int_equal(v[i].file_id, st.st_ino);
        if (v[i].type == FRD_TYPE_DIR) {
            dirs++;
            assert_int_equal(v[i].fields & (FRD_FIELD_TYPE | FRD_FIELD_FILE_ID),
                             FRD_FIELD_TYPE | FRD_FIELD_FILE_ID);
        } else {
            assert_int_equal(v[i].fields, FRD_FIELD_TYPE | FRD_FIELD_FILE_ID);
        }
        free(path);
    }
    assert_true(dirs > 0);
    assert_int_equal(stats_made, dirs);
    frd_list_free(list);
    list = list_wanted(root, FRD_FIELD_TYPE, &rc);
    assert_int_equal(rc, 9);
    assert_int_equal(stats_made, 0);
    frd_list_free(list);
    // One more field than the records hold: one stat per entry.
    list = list_wanted(root, FRD_FIELD_TYPE | FRD_FIELD_SIZE, &rc);
    assert_int_equal(rc, 9);
    assert_int_equal(stats_made, 9);
    assert_int_equal(find_entry(list, "regular")->size, 1234);
    frd_list_free(list);
    list = list_dir(root, FRD_LIST_NAMES_ONLY, &rc);
    assert_int_equal(rc, 9);
    for (size_t i = 0; i < 9; i++) {
        assert_int_equal(frd_list_entries(list)[i].fields, FRD_FIELD_TYPE);
    }
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_chowned_file_has_its_owner(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        skip(); // only root can give a file away
    }
    char *root = tree_make_root();
    tree_file(root, "owned", 3);
    char *path = tree_path(root, "owned");
    assert_int_equal(lchown(path, 1234, 5678), 0);
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, 1);
    const struct frd_entry *e = find_entry(list, "owned");
    assert_int_equal(e->uid, 1234);
    assert_int_equal(e->gid, 5678);
    assert_entry_matches_lstat(root, e);
    frd_list_free(list);
    free(path);
    tree_remove(root);
}

static void test_lister_set_fields_rejects_unknown_bits(void **state)
{
    (void)state;
    struct frd_lister *lister;
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_fields(lister), FRD_FIELDS_ALL);
    assert_int_equal(frd_lister_set_fields(lister, FRD_FIELDS_ALL + 1), FRD_EINVAL);
    assert_int_equal(frd_lister_set_fields(NULL, 0), FRD_EINVAL);
    assert_int_equal(frd_lister_fields(lister), FRD_FIELDS_ALL);
    frd_lister_free(lister);
}

/* ---- Listing in batches (frd_lister_batch_*), on one directory of 200,000 entries ---- */

#define BIG_N 200000

static char *big_root; // made once (big_dir()), removed by the group teardown

static void big_name(char *buf, size_t cap, size_t i)
{
    snprintf(buf, cap, "f%06zu", i);
}

/** The 200,000-entry directory: empty files f000000..f199999, made with openat in a loop. */
static const char *big_dir(void)
{
    if (big_root != NULL) {
        return big_root;
    }
    big_root = tree_make_root();
    int dfd = open(big_root, O_RDONLY | O_DIRECTORY);
    assert_true(dfd >= 0);
    char name[32];
    for (size_t i = 0; i < BIG_N; i++) {
        big_name(name, sizeof(name), i);
        int fd = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(fd >= 0);
        close(fd);
    }
    close(dfd);
    return big_root;
}

static int big_teardown(void **state)
{
    (void)state;
    if (big_root != NULL) {
        tree_remove(big_root);
        big_root = NULL;
    }
    return 0;
}

/** The index of a name f%06zu, or BIG_N when it is not one. */
static size_t big_index(const char *name)
{
    if (name[0] != 'f' || strlen(name) != 7) {
        return BIG_N;
    }
    char *end;
    unsigned long v = strtoul(name + 1, &end, 10);
    return *end == '\0' && v < BIG_N ? (size_t)v : BIG_N;
}

/** What reading a directory in batches saw. */
struct batch_run {
    size_t batches;      // batches read (calls that returned > 0)
    size_t entries;      // entries over all batches
    size_t largest;      // entries in the largest batch
    size_t later_alloc;  // allocations while reading the batches after the first two
    size_t errors;       // entries with error set (counted, and checked == want_error)
    int want_error;      // the error every entry must carry (0: none)
    unsigned char *seen; // BIG_N flags: each name at most once
    int rc;              // the last return of frd_lister_batch_read()
};

/** Reads `dir` in batches through `lister` (clearing the list between batches) and checks
 *  every entry: a name of the set, seen once, a regular file, its error as asked. */
static void read_batches(struct frd_lister *lister, const char *dir, struct batch_run *r)
{
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    frd_os_fd fd;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, dir, 0, &fd), 0);
    assert_int_equal(frd_lister_batch_begin(lister, fd, dir), 0);
    r->seen = calloc(BIG_N, 1);
    assert_non_null(r->seen);
    size_t before = 0;
    int rc;
    while ((rc = frd_lister_batch_read(lister, list)) > 0) {
        if (r->batches == 2) {
            before = allocations;
        }
        assert_int_equal((size_t)rc, frd_list_count(list));
        const struct frd_entry *v = frd_list_entries(list);
        for (size_t i = 0; i < (size_t)rc; i++) {
            size_t k = big_index(v[i].name);
            assert_true(k < BIG_N);
            assert_int_equal(r->seen[k], 0);
            r->seen[k] = 1;
            assert_int_equal(v[i].type, FRD_TYPE_REG);
            assert_int_equal(v[i].error, r->want_error);
            r->errors += v[i].error != 0;
        }
        r->batches++;
        r->entries += (size_t)rc;
        r->largest = (size_t)rc > r->largest ? (size_t)rc : r->largest;
        frd_list_clear(list);
    }
    r->later_alloc = r->batches > 2 ? allocations - before : 0;
    r->rc = rc;
    // After the end, every further read says end again.
    assert_int_equal(frd_lister_batch_read(lister, list), 0);
    frd_lister_batch_end(lister);
    frd__plat_close_dir(fd);
    frd_list_free(list);
}

static void test_lister_batches_cover_big_directory_once_each(void **state)
{
    (void)state;
    const char *dir = big_dir();
    struct frd_lister *lister;
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    struct batch_run r = {0};
    read_batches(lister, dir, &r);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.entries, BIG_N);
    assert_int_equal(r.errors, 0);
    // A batch is one kernel buffer, not the directory: many batches, each small.
    assert_true(r.batches >= BIG_N / 4096);
    assert_true(r.largest <= 4096);
    // Memory is bounded by the batch: once sized, a cleared list takes the next batches
    // without allocating (a few growths at most, for a batch larger than the first two).
    assert_true(r.later_alloc <= 4);
    // A sample of entries carries the metadata lstat gives.
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    frd_os_fd fd;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, dir, 0, &fd), 0);
    assert_int_equal(frd_lister_batch_begin(lister, fd, NULL), 0);
    int rc = frd_lister_batch_read(lister, list);
    assert_true(rc > 0);
    assert_entry_matches_lstat(dir, &frd_list_entries(list)[rc / 2]);
    frd_lister_batch_end(lister);
    frd_lister_batch_end(lister); // twice is allowed
    frd__plat_close_dir(fd);
    frd_list_free(list);
    free(r.seen);
    frd_lister_free(lister);
}

static void test_lister_batches_names_only_match_one_call_listing(void **state)
{
    (void)state;
    const char *dir = big_dir();
    struct frd_lister *lister;
    assert_int_equal(frd_lister_new(&lister, FRD_LIST_NAMES_ONLY), 0);
    struct batch_run r = {0};
    stats_made = 0;
    frd__test_before_stat = count_stat;
    read_batches(lister, dir, &r);
    frd__test_before_stat = NULL;
    assert_int_equal(r.entries, BIG_N);
    int rc;
    struct frd_list *all = list_dir(dir, FRD_LIST_NAMES_ONLY, &rc);
    assert_int_equal(rc, BIG_N);
    const struct frd_entry *v = frd_list_entries(all);
    for (size_t i = 0; i < BIG_N; i++) {
        assert_int_equal(r.seen[big_index(v[i].name)], 1);
    }
#if FRD_TEST_STATX_BACKEND
    assert_int_equal(stats_made, 0); // the records answer names only (ext4, tmpfs: d_type)
#endif
    frd_list_free(all);
    free(r.seen);
    frd_lister_free(lister);
}

/** Deletes every tenth entry (the names ending in 7) just before its stat. */
static size_t vanished;
static void delete_sevens(frd_os_fd dir, const char *name)
{
    size_t len = strlen(name);
    if (len > 0 && name[len - 1] == '7') {
        assert_int_equal(unlinkat(dir, name, 0), 0);
        vanished++;
    }
}

static void test_lister_batches_leave_out_entries_vanished_before_stat(void **state)
{
    (void)state;
    const char *dir = big_dir();
    struct frd_lister *lister;
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    struct batch_run r = {0};
    vanished = 0;
    frd__test_before_stat = delete_sevens;
    read_batches(lister, dir, &r);
    frd__test_before_stat = NULL;
    assert_int_equal(r.rc, 0);
    assert_int_equal(vanished, BIG_N / 10);
    assert_int_equal(r.entries, BIG_N - BIG_N / 10);
    for (size_t i = 0; i < BIG_N; i++) {
        assert_int_equal(r.seen[i], i % 10 != 7);
    }
    // Put them back for the other tests.
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dfd >= 0);
    char name[32];
    for (size_t i = 7; i < BIG_N; i += 10) {
        big_name(name, sizeof(name), i);
        int fd = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(fd >= 0);
        close(fd);
    }
    close(dfd);
    free(r.seen);
    frd_lister_free(lister);
}

/** As nobody: every entry of the unsearchable big directory comes, with FRD_EACCES. */
static void child_batches_with_stat_errors(const char *dir)
{
    struct frd_lister *lister;
    if (frd_lister_new(&lister, 0) < 0) {
        _exit(2);
    }
    struct batch_run r = {0};
    r.want_error = FRD_EACCES;
    read_batches(lister, dir, &r); // cmocka's asserts end the child with a failure status
    _exit(r.rc == 0 && r.entries == BIG_N && r.errors == BIG_N ? 0 : 3);
}

static void test_lister_batches_keep_entries_whose_stat_fails(void **state)
{
    (void)state;
    const char *dir = big_dir();
    char *parent = strdup(dir);
    assert_non_null(parent);
    *strrchr(parent, '/') = '\0';
    struct stat pst;
    assert_int_equal(stat(parent, &pst), 0);
    assert_int_equal(chmod(parent, 0755), 0);
    assert_int_equal(chmod(dir, 0444), 0); // readable, not searchable: each stat fails
    int status = as_nobody(child_batches_with_stat_errors, dir);
    assert_int_equal(chmod(dir, 0755), 0);
    assert_int_equal(chmod(parent, pst.st_mode & 07777), 0);
    free(parent);
    assert_int_equal(status, 0);
}

static void test_lister_batches_rewind_and_bad_arguments(void **state)
{
    (void)state;
    const char *dir = big_dir();
    struct frd_lister *lister;
    struct frd_list *list;
    assert_int_equal(frd_lister_new(&lister, FRD_LIST_NAMES_ONLY), 0);
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_batch_read(lister, list), FRD_EINVAL); // nothing begun
    assert_int_equal(frd_lister_batch_begin(NULL, 0, NULL), FRD_EINVAL);
    assert_int_equal(frd_lister_batch_begin(lister, FRD_INVALID_FD, NULL), FRD_EINVAL);
    frd_lister_batch_end(NULL);
    frd_lister_batch_end(lister); // none open: nothing happens

    // A descriptor read to its end lists nothing; with FRD_LIST_REWIND, everything.
    frd_os_fd fd;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, dir, 0, &fd), 0);
    assert_int_equal(frd_lister_list_fd(lister, list, fd, NULL), BIG_N);
    frd_list_clear(list);
    assert_int_equal(frd_lister_batch_begin(lister, fd, "x"), 0);
    assert_int_equal(frd_lister_batch_read(lister, list), 0);
    assert_int_equal(frd_lister_set_flags(lister, FRD_LIST_NAMES_ONLY | FRD_LIST_REWIND), 0);
    assert_int_equal(frd_lister_batch_begin(lister, fd, "x"), 0);
    size_t total = 0;
    int rc;
    while ((rc = frd_lister_batch_read(lister, list)) > 0) {
        total += (size_t)rc;
        // A whole listing of another directory between two batches leaves the cursor be.
        if (total == (size_t)rc) {
            struct frd_list *other;
            assert_int_equal(frd_list_new(&other), 0);
            assert_true(frd_lister_list_path(lister, other, "/") > 0);
            frd_list_free(other);
        }
    }
    assert_int_equal(rc, 0);
    assert_int_equal(total, BIG_N);
    assert_int_equal(frd_list_count(list), BIG_N);
    frd_lister_batch_end(lister);
    frd__plat_close_dir(fd);

    // A descriptor that is not a directory: the read fails, named as given, then ends.
    int file = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(file >= 0);
    char *path = tree_path(dir, "f000001");
    int ffd = open(path, O_RDONLY);
    assert_true(ffd >= 0);
    assert_int_equal(frd_lister_batch_begin(lister, ffd, "a-file"), 0);
    frd_list_clear(list);
    rc = frd_lister_batch_read(lister, list);
    assert_int_equal(rc, FRD_ENOTDIR);
    struct frd_list_error err = frd_lister_error(lister);
    assert_int_equal(err.code, FRD_ENOTDIR);
    // Linux fails in getdents64 (a read), the portable backend in fdopendir (an open).
    assert_true(err.call == FRD_OP_READ_DIR || err.call == FRD_OP_OPEN);
    assert_string_equal(err.name, "a-file");
    assert_int_equal(frd_lister_batch_read(lister, list), 0);
    frd_lister_free(lister); // ends the listing still open
    close(ffd);
    close(file);
    free(path);
    frd_list_free(list);
}

int main(void)
{
    frd_replace_allocator(counting_malloc, counting_realloc, free);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lister_every_type_matches_lstat),
        cmocka_unit_test(test_lister_device_files_match_lstat),
        cmocka_unit_test(test_lister_empty_directory_is_empty_not_error),
        cmocka_unit_test(test_lister_ten_entries),
        cmocka_unit_test(test_lister_twenty_thousand_entries),
        cmocka_unit_test(test_lister_odd_names_come_back_as_bytes),
        cmocka_unit_test(test_read_dir_sorts_in_byte_order),
        cmocka_unit_test(test_lister_names_only_equals_full_names_and_types),
        cmocka_unit_test(test_lister_fstatat_fallback_gives_identical_results),
        cmocka_unit_test(test_lister_times_beyond_int64_ns_saturate),
        cmocka_unit_test(test_lister_missing_path_is_enoent_with_op_and_name),
        cmocka_unit_test(test_lister_failed_read_names_its_call),
        cmocka_unit_test(test_lister_file_path_is_enotdir),
        cmocka_unit_test(test_lister_list_at_nofollow_refuses_symlink),
        cmocka_unit_test(test_lister_entry_deleted_before_stat_is_left_out),
        cmocka_unit_test(test_lister_rewind_lists_half_read_descriptor_from_start),
        cmocka_unit_test(test_lister_reuse_allocates_nothing_per_listing),
        cmocka_unit_test(test_lister_unreadable_directory_is_eacces),
        cmocka_unit_test(test_lister_unsearchable_directory_keeps_entries_with_errors),
        cmocka_unit_test(test_lister_new_rejects_bad_arguments),
        cmocka_unit_test(test_lister_each_wanted_field_is_filled),
        cmocka_unit_test(test_lister_type_and_file_id_stat_directories_only),
        cmocka_unit_test(test_lister_chowned_file_has_its_owner),
        cmocka_unit_test(test_lister_set_fields_rejects_unknown_bits),
        cmocka_unit_test(test_lister_batches_cover_big_directory_once_each),
        cmocka_unit_test(test_lister_batches_names_only_match_one_call_listing),
        cmocka_unit_test(test_lister_batches_leave_out_entries_vanished_before_stat),
        cmocka_unit_test(test_lister_batches_keep_entries_whose_stat_fails),
        cmocka_unit_test(test_lister_batches_rewind_and_bad_arguments),
    };
    return cmocka_run_group_tests_name("lister", tests, NULL, big_teardown);
}
