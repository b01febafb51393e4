// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of listers on Windows (run under Wine in CI): real directories made with Win32
 * calls, listed by frd, and checked against what the test created and against
 * GetFileAttributesExW for sizes and times.
 */
#include "internal.h"
#include "platform.h"
#include "tree.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include <cmocka.h>

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

static WCHAR *wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
    WCHAR *w = malloc((size_t)n * sizeof(WCHAR));
    assert_non_null(w);
    assert_int_equal(MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n), n);
    return w;
}

static int64_t unix_ns(FILETIME t)
{
    int64_t ft = (int64_t)((uint64_t)t.dwHighDateTime << 32 | t.dwLowDateTime);
    return (ft - INT64_C(116444736000000000)) * 100;
}

/** Checks size, times, mode and attributes against GetFileAttributesExW of the same name. */
static void assert_matches_win32(const char *dir, const struct frd_entry *e)
{
    char *path = tree_path(dir, e->name);
    WCHAR *w = wide(path);
    WIN32_FILE_ATTRIBUTE_DATA data;
    assert_true(GetFileAttributesExW(w, GetFileExInfoStandard, &data));
    uint64_t size = (uint64_t)data.nFileSizeHigh << 32 | data.nFileSizeLow;
    int64_t ft = (int64_t)((uint64_t)data.ftLastWriteTime.dwHighDateTime << 32 |
                           data.ftLastWriteTime.dwLowDateTime);
    if (!(data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
        assert_int_equal(e->size, size);
    }
    assert_int_equal(e->mtime_ns, (ft - INT64_C(116444736000000000)) * 100);
    assert_int_equal(e->type, (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? FRD_TYPE_DIR
                                                                                 : FRD_TYPE_REG);
    if (e->fields & FRD_FIELD_BTIME) {
        assert_int_equal(e->btime_ns, unix_ns(data.ftCreationTime));
    }
    if (e->fields & FRD_FIELD_ATIME) {
        assert_int_equal(e->atime_ns, unix_ns(data.ftLastAccessTime));
    }
    if (e->fields & FRD_FIELD_MODE) {
        bool is_dir = (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
        bool ro = (data.dwFileAttributes & FILE_ATTRIBUTE_READONLY) != 0;
        uint32_t perm = (ro ? 0444u : 0666u) | (is_dir ? 0111u : 0u);
        assert_int_equal(e->mode, (is_dir ? 0040000u : 0100000u) | perm);
    }
    if (e->fields & FRD_FIELD_ATTRIBUTES) {
        assert_int_equal(e->attributes_known, FRD_ATTR_COMPRESSED | FRD_ATTR_ENCRYPTED);
        assert_int_equal((e->attributes & FRD_ATTR_COMPRESSED) != 0,
                         (data.dwFileAttributes & FILE_ATTRIBUTE_COMPRESSED) != 0);
        assert_int_equal((e->attributes & FRD_ATTR_ENCRYPTED) != 0,
                         (data.dwFileAttributes & FILE_ATTRIBUTE_ENCRYPTED) != 0);
    }
    free(w);
    free(path);
}

/** The tree every test lists: files of several sizes, directories, non-ASCII names. */
static const struct {
    const char *name;
    long size; // -1: a directory
} tree_spec[] = {
    {"regular", 1234},
    {"empty", 0},
    {"big", 70000},
    {"directory", -1},
    {"another dir", -1},
    {"caf\xc3\xa9", 5},            // é
    {"\xe2\x82\xac uro", 6},       // €
    {"\xf0\x9f\x98\x80 smile", 7}, // U+1F600: a surrogate pair in UTF-16
    {"\xd0\x94\xd0\xbe\xd0\xba\xd1\x83\xd0\xbc\xd0\xb5\xd0\xbd\xd1\x82\xd1\x8b", 8}, // Документы
    {".hidden", 9},
};
#define TREE_N (sizeof(tree_spec) / sizeof(tree_spec[0]))

static char *make_tree(void)
{
    char *root = tree_make_root();
    for (size_t i = 0; i < TREE_N; i++) {
        if (tree_spec[i].size < 0) {
            tree_dir(root, tree_spec[i].name);
        } else {
            tree_file(root, tree_spec[i].name, (size_t)tree_spec[i].size);
        }
    }
    tree_file(root, "directory\\inside", 3);
    return root;
}

static void check_full_listing(const char *root, struct frd_list *list, bool expect_ids)
{
    assert_int_equal(frd_list_count(list), TREE_N);
    for (size_t i = 0; i < TREE_N; i++) {
        const struct frd_entry *e = find_entry(list, tree_spec[i].name);
        if (e == NULL) {
            fail_msg("'%s' not listed", tree_spec[i].name);
        }
        assert_int_equal(e->name_len, strlen(tree_spec[i].name));
        assert_int_equal(e->error, 0);
        if (tree_spec[i].size < 0) {
            assert_int_equal(e->type, FRD_TYPE_DIR);
        } else {
            assert_int_equal(e->type, FRD_TYPE_REG);
            assert_int_equal(e->size, (uint64_t)tree_spec[i].size);
            assert_true(e->alloc_size >= e->size || e->size == 0 || e->alloc_size == 0);
        }
        unsigned want = FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_MTIME |
                        FRD_FIELD_CTIME | FRD_FIELD_ATIME | FRD_FIELD_BTIME | FRD_FIELD_MODE |
                        FRD_FIELD_ATTRIBUTES | FRD_FIELD_DEV | (expect_ids ? FRD_FIELD_FILE_ID : 0);
        assert_int_equal(e->fields, want);
        assert_matches_win32(root, e);
    }
    assert_null(find_entry(list, "."));
    assert_null(find_entry(list, ".."));
    assert_null(find_entry(list, "inside"));
}

static void test_lister_win_names_types_sizes_and_times_match(void **state)
{
    (void)state;
    char *root = make_tree();
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, (int)TREE_N);
    check_full_listing(root, list, true);
    // File ids: present and distinct.
    const struct frd_entry *v = frd_list_entries(list);
    for (size_t i = 0; i < TREE_N; i++) {
        assert_int_not_equal(v[i].file_id, 0);
        for (size_t j = 0; j < i; j++) {
            assert_int_not_equal(v[i].file_id, v[j].file_id);
        }
    }
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_win_extd_class_refusal_falls_back(void **state)
{
    (void)state;
    // Ask the system directly whether it serves FILE_ID_EXTD_DIR_INFO; Wine refuses it, so
    // there the listing above and here ran through the fallback chain.
    char *root = make_tree();
    frd_os_fd fd;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, root, 0, &fd), 0);
    static uint8_t buf[65536];
    BOOL ok = GetFileInformationByHandleEx(fd, FileIdExtdDirectoryInfo, buf, sizeof(buf));
    DWORD err = ok ? 0 : GetLastError();
    print_message("FileIdExtdDirectoryInfo: %s (error %lu)\n",
                  ok ? "served" : "refused, fallback chain in use", (unsigned long)err);
    frd__plat_close_dir(fd);
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, (int)TREE_N);
    check_full_listing(root, list, true);
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_win_full_dir_info_fallback_gives_same_entries(void **state)
{
    (void)state;
    char *root = make_tree();
    assert_true(frd__plat_force_fallback(true));
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    frd__plat_force_fallback(false);
    assert_int_equal(rc, (int)TREE_N);
    check_full_listing(root, list, false); // FILE_FULL_DIR_INFO has no file id
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_win_names_only_gives_names_and_types(void **state)
{
    (void)state;
    char *root = make_tree();
    int rc;
    struct frd_list *list = list_dir(root, FRD_LIST_NAMES_ONLY, &rc);
    assert_int_equal(rc, (int)TREE_N);
    for (size_t i = 0; i < TREE_N; i++) {
        const struct frd_entry *e = find_entry(list, tree_spec[i].name);
        assert_non_null(e);
        assert_int_equal(e->type, tree_spec[i].size < 0 ? FRD_TYPE_DIR : FRD_TYPE_REG);
        assert_int_equal(e->fields, FRD_FIELD_TYPE);
        assert_int_equal(e->size, 0);
    }
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_win_many_entries_span_several_buffers(void **state)
{
    (void)state;
    char *root = tree_make_root();
    char name[64];
    const size_t n = 2000; // about 500 FILE_ID_BOTH records fill 64 KiB
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "file-with-a-longer-name-%06u", (unsigned)i);
        tree_file(root, name, i % 7);
    }
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, (int)n);
    frd_list_sort(list);
    const struct frd_entry *v = frd_list_entries(list);
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof(name), "file-with-a-longer-name-%06u", (unsigned)i);
        assert_string_equal(v[i].name, name);
        assert_int_equal(v[i].size, i % 7);
    }
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_win_errors_are_translated(void **state)
{
    (void)state;
    char *root = make_tree();
    int rc;
    char *missing = tree_path(root, "no such dir");
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_list_path(lister, list, missing), FRD_ENOENT);
    assert_string_equal(frd_lister_error(lister).op, "open");
    assert_string_equal(frd_lister_error(lister).name, missing);
    char *file = tree_path(root, "regular");
    assert_int_equal(frd_lister_list_path(lister, list, file), FRD_ENOTDIR);
    // Bytes that are not WTF-8 name nothing on Windows.
    assert_int_equal(frd_lister_list_path(lister, list, "\xff\xfe"), FRD_ENOENT);
    frd_lister_free(lister);
    frd_list_free(list);
    free(file);
    free(missing);
    (void)rc;
    tree_remove(root);
}

static void test_lister_win_list_at_opens_relative_to_parent(void **state)
{
    (void)state;
    char *root = make_tree();
    frd_os_fd parent;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, root, 0, &parent), 0);
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_list_at(lister, list, parent, "directory", FRD_OPEN_NOFOLLOW), 1);
    assert_string_equal(frd_list_entries(list)[0].name, "inside");
    assert_int_equal(frd_list_entries(list)[0].size, 3);
    frd_list_clear(list);
    assert_int_equal(frd_lister_list_at(lister, list, parent, "caf\xc3\xa9", 0), FRD_ENOTDIR);
    assert_int_equal(frd_lister_list_at(lister, list, parent, "absent", 0), FRD_ENOENT);
    assert_int_equal(frd_lister_list_at(lister, list, parent, "\xf0\x9f\x98\x80 smile", 0),
                     FRD_ENOTDIR);
    frd__plat_close_dir(parent);
    frd_lister_free(lister);
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_win_rewind_lists_from_the_start(void **state)
{
    (void)state;
    char *root = make_tree();
    frd_os_fd fd;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, root, 0, &fd), 0);
    struct frd_list *list;
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_list_fd(lister, list, fd, NULL), (int)TREE_N);
    frd_list_clear(list);
    assert_int_equal(frd_lister_list_fd(lister, list, fd, NULL), 0); // at the end
    assert_int_equal(frd_lister_set_flags(lister, FRD_LIST_REWIND), 0);
    assert_int_equal(frd_lister_list_fd(lister, list, fd, NULL), (int)TREE_N);
    frd_list_clear(list);
    assert_int_equal(frd_lister_set_flags(lister, FRD_LIST_REWIND | FRD_LIST_NAMES_ONLY), 0);
    assert_int_equal(frd_lister_list_fd(lister, list, fd, NULL), (int)TREE_N);
    frd__plat_close_dir(fd);
    frd_lister_free(lister);
    frd_list_free(list);
    tree_remove(root);
}

static void test_lister_win_read_dir_sorts_in_byte_order(void **state)
{
    (void)state;
    char *root = make_tree();
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_read_dir(root, 0, list), (int)TREE_N);
    const struct frd_entry *v = frd_list_entries(list);
    for (size_t i = 1; i < TREE_N; i++) {
        assert_true(strcmp(v[i - 1].name, v[i].name) < 0);
    }
    frd_list_free(list);
    tree_remove(root);
}

/**
 * Lists a directory tests/run-windows.sh made on Linux (through Wine's Z: drive) and checks
 * every name, type and file size against the listing find made of it on Linux.
 */
static void test_lister_win_linux_tree_lists_as_linux_does(void **state)
{
    (void)state;
    const char *dir = getenv("FRD_CROSS_TREE");
    const char *listing = getenv("FRD_CROSS_LISTING");
    if (dir == NULL || listing == NULL) {
        skip(); // run outside tests/run-windows.sh
    }
    WCHAR *w = wide(listing);
    FILE *f = _wfopen(w, L"rb");
    free(w);
    assert_non_null(f);
    int rc;
    struct frd_list *list = list_dir(dir, 0, &rc);
    assert_true(rc > 0);
    char line[1024];
    size_t lines = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        char *tab1 = strchr(line, '\t');
        assert_non_null(tab1);
        char *tab2 = strchr(tab1 + 1, '\t');
        assert_non_null(tab2);
        *tab1 = '\0';
        const struct frd_entry *e = find_entry(list, line);
        if (e == NULL) {
            fail_msg("'%s' listed on Linux, not by frd under Wine", line);
        }
        if (tab1[1] == 'd') {
            assert_int_equal(e->type, FRD_TYPE_DIR);
        } else {
            assert_int_equal(tab1[1], 'f');
            assert_int_equal(e->type, FRD_TYPE_REG);
            assert_int_equal(e->size, strtoull(tab2 + 1, NULL, 10));
        }
        lines++;
    }
    fclose(f);
    assert_int_equal(frd_list_count(list), lines);
    assert_true(lines >= 8);
    frd_list_free(list);
}

static void test_lister_win_read_only_file_mode_and_wanted_fields(void **state)
{
    (void)state;
    char *root = make_tree();
    char *path = tree_path(root, "regular");
    WCHAR *w = wide(path);
    assert_true(SetFileAttributesW(w, FILE_ATTRIBUTE_READONLY));
    int rc;
    struct frd_list *list = list_dir(root, 0, &rc);
    assert_int_equal(rc, (int)TREE_N);
    const struct frd_entry *e = find_entry(list, "regular");
    assert_int_equal(e->mode, 0100444);
    assert_int_equal(find_entry(list, "empty")->mode, 0100666);
    assert_int_equal(find_entry(list, "directory")->mode, 0040777);
    assert_false(e->fields & (FRD_FIELD_UID | FRD_FIELD_GID | FRD_FIELD_RDEV | FRD_FIELD_NLINK));
    frd_list_free(list);
    // Size alone wanted: no file id and no device (neither the id classes nor the serial).
    struct frd_lister *lister;
    assert_int_equal(frd_list_new(&list), 0);
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_set_fields(lister, FRD_FIELD_SIZE), 0);
    assert_int_equal(frd_lister_list_path(lister, list, root), (int)TREE_N);
    e = find_entry(list, "regular");
    assert_int_equal(e->size, 1234);
    assert_true(e->fields & FRD_FIELD_SIZE);
    assert_false(e->fields & (FRD_FIELD_FILE_ID | FRD_FIELD_DEV));
    frd_lister_free(lister);
    frd_list_free(list);
    assert_true(SetFileAttributesW(w, FILE_ATTRIBUTE_NORMAL));
    free(w);
    free(path);
    tree_remove(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lister_win_names_types_sizes_and_times_match),
        cmocka_unit_test(test_lister_win_extd_class_refusal_falls_back),
        cmocka_unit_test(test_lister_win_full_dir_info_fallback_gives_same_entries),
        cmocka_unit_test(test_lister_win_names_only_gives_names_and_types),
        cmocka_unit_test(test_lister_win_many_entries_span_several_buffers),
        cmocka_unit_test(test_lister_win_errors_are_translated),
        cmocka_unit_test(test_lister_win_list_at_opens_relative_to_parent),
        cmocka_unit_test(test_lister_win_rewind_lists_from_the_start),
        cmocka_unit_test(test_lister_win_read_dir_sorts_in_byte_order),
        cmocka_unit_test(test_lister_win_linux_tree_lists_as_linux_does),
        cmocka_unit_test(test_lister_win_read_only_file_mode_and_wanted_fields),
    };
    return cmocka_run_group_tests_name("lister_win", tests, NULL, NULL);
}
