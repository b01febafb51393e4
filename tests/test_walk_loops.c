// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of links and loops: symlink loops, a real directory repeating an ancestor reached
 * through a link, a directory bind-mounted below itself (as root, in a mount namespace of the
 * test's own), and the volume classes that decide how loops are found.
 * FRD_TEST_WORKERS sets the worker count (ctest runs each walker suite at 1, 2 and 8).
 */
#include "internal.h"
#include "platform.h"
#include "sched/sched.h"
#include "tree.h"
#include "walk_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <uv.h>

WALK_GROUP_TREE() // tree, group_setup(), group_teardown()

/* ---- Links and loops ---- */

static void test_walk_symlink_loops_are_eloop_never_walked_twice(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "a");
    tree_dir(root, "a/b");
    tree_symlink(root, "..", "a/b/up"); // to an ancestor
    tree_symlink(root, "self", "self"); // to itself
    tree_symlink(root, "../c", "a/l1"); // mutual: a/l1 -> c, c/l2 -> a
    tree_dir(root, "c");
    tree_symlink(root, "../a", "c/l2");
    tree_symlink(root, ".", "dot"); // to the root
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        o.follow = FRD_FOLLOW_ALL;
        struct rec_ctx c;
        rec_ctx_init(&c, REC_NAMES);
        o.on_error = rec_error;
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        struct recs f;
        recs_init(&f);
        find_recs("-L", root, "", REC_NAMES, &f);
        recs_assert_equal(&c.recs, &f, "loops: visits");
        // Errors as find -L reports them: the loop's path and the ancestor it repeats.
        struct recs want;
        recs_init(&want);
        const char *loops[][2] = {{"a/b/up", "a"},
                                  {"a/l1/l2", "a"},
                                  {"c/l2/b/up", "c/l2"},
                                  {"c/l2/l1", "c"},
                                  {"dot", ""}};
        char buf[4096];
        for (size_t i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
            int n = snprintf(buf, sizeof(buf), "%s/%s\tELOOP\tloop\t%s%s%s", root, loops[i][0],
                             root, loops[i][1][0] ? "/" : "", loops[i][1]);
            recs_add(&want, buf, (size_t)n);
        }
        int n = snprintf(buf, sizeof(buf), "%s/self\tELOOP\tstat", root);
        recs_add(&want, buf, (size_t)n);
        recs_assert_equal(&c.errors, &want, "loops: errors");
        recs_free(&want);
        recs_free(&f);
        rec_ctx_free(&c);
    }
    tree_remove(root);
}

/**
 * Walks `root` (find's `find_opts`) in both modes, names only and with metadata, and checks
 * the visits against find's and the errors against the loops `loops[i][0]` ->
 * `loops[i][1]` (full paths), each reported once.
 */
static void assert_loops(const char *root, enum frd_follow follow, const char *find_opts,
                         const char *const (*loops)[2], size_t nloops)
{
    for (int mode = 0; mode < 4; mode++) {
        bool ordered = mode & 1;
        bool names = mode & 2;
        struct frd_walk_options o;
        walk_opts(&o, (ordered ? FRD_WALK_ORDERED : 0) | (names ? FRD_WALK_NAMES_ONLY : 0));
        o.follow = follow;
        o.on_error = rec_error;
        struct rec_ctx c;
        rec_ctx_init(&c, names ? REC_NAMES : REC_FULL);
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        struct recs f;
        recs_init(&f);
        find_recs(find_opts, root, "", names ? REC_NAMES : REC_FULL, &f);
        recs_assert_equal(&c.recs, &f, "loop: visits");
        struct recs want;
        recs_init(&want);
        for (size_t i = 0; i < nloops; i++) {
            char *line = NULL;
            int n = asprintf(&line, "%s\tELOOP\tloop\t%s", loops[i][0], loops[i][1]);
            assert_true(n > 0);
            recs_add(&want, line, (size_t)n);
            free(line);
        }
        recs_assert_equal(&c.errors, &want, "loop: errors");
        recs_free(&want);
        recs_free(&f);
        rec_ctx_free(&c);
    }
}

/** assert_loops() of the one loop `path` -> `ancestor`. */
static void assert_one_loop(const char *root, enum frd_follow follow, const char *find_opts,
                            const char *path, const char *ancestor)
{
    const char *const loops[1][2] = {{path, ancestor}};
    assert_loops(root, follow, find_opts, loops, 1);
}

/** The relative path of the chain's directory at `depth` under the root: "c" then "/d"s. */
static char *chain_dir(unsigned depth)
{
    char *rel = malloc(2 * (size_t)depth);
    assert_non_null(rel);
    rel[0] = 'c';
    for (unsigned d = 2; d <= depth; d++) {
        memcpy(rel + 2 * (d - 2) + 1, "/d", 2);
    }
    rel[2 * (size_t)depth - 1] = '\0';
    return rel;
}

/** A chain of 80 directories (c/d/d/...), a file at each, under a new root. */
static char *chain_make(void)
{
    char *root = tree_make_root();
    for (unsigned d = 1; d <= 80; d++) {
        char *rel = chain_dir(d);
        tree_dir(root, rel);
        char *file = NULL;
        assert_true(asprintf(&file, "%s/f", rel) > 0);
        tree_file(root, file, d);
        free(file);
        free(rel);
    }
    return root;
}

/** A link `name` in the chain's directory at `from` to its ancestor at `to` ("../.."). */
static void chain_link_up(const char *root, unsigned from, unsigned to, const char *name,
                          char *(*loop)[2])
{
    // "." for the directory itself, else ".." and then "/.." per level further up.
    size_t ups = from - to;
    char *target = malloc(ups == 0 ? 2 : 3 * ups);
    assert_non_null(target);
    if (ups == 0) {
        memcpy(target, ".", 2);
    } else {
        for (size_t i = 0; i < ups; i++) {
            memcpy(target + 3 * i, "/..", 3);
        }
        memmove(target, target + 1, 3 * ups - 1);
        target[3 * ups - 1] = '\0';
    }
    char *dir = chain_dir(from);
    char *link = NULL;
    assert_true(asprintf(&link, "%s/%s", dir, name) > 0);
    tree_symlink(root, target, link);
    (*loop)[0] = tree_path(root, link);
    char *up = chain_dir(to);
    (*loop)[1] = tree_path(root, up);
    free(up);
    free(link);
    free(dir);
    free(target);
}

static void test_walk_loops_deep_in_a_chain_repeat_shallow_and_deep_ancestors(void **state)
{
    (void)state;
    // Past the depth where ancestors are compared one by one, the loop check looks a deep
    // directory up in the walk's set of deep ones first: links to an ancestor above that
    // depth, to one below it, to the parent and to the directory itself are loops there as
    // they are near the root (find -L's).
    char *root = chain_make();
    char *loops[5][2];
    chain_link_up(root, 70, 10, "shallow", &loops[0]); // from deep to shallow
    chain_link_up(root, 75, 50, "deep", &loops[1]);    // from deep to deep
    chain_link_up(root, 40, 39, "parent", &loops[2]);
    chain_link_up(root, 33, 33, "self", &loops[3]);
    chain_link_up(root, 12, 2, "near", &loops[4]); // near the root, as before
    const char *const(*want)[2] = (const char *const(*)[2])loops;
    assert_loops(root, FRD_FOLLOW_ALL, "-L", want, 5);
    for (size_t i = 0; i < 5; i++) {
        free(loops[i][0]);
        free(loops[i][1]);
    }
    tree_remove(root);
}

/** How many times find -L runs before a difference from it is believed. */
#define FIND_TRIES 10

/** find's stderr for `find OPTS ROOT`, each line "PATH\tELOOP\tstat" (its ELOOP messages:
 *  anything else fails the test). */
static void find_eloop_errors(const char *opts, const char *root, struct recs *out)
{
    char cmd[8192];
    int n = snprintf(cmd, sizeof(cmd), "LC_ALL=C find %s '%s' 2>&1 >/dev/null", opts, root);
    assert_true(n > 0 && (size_t)n < sizeof(cmd));
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    static const char head[] = "find: '";
    static const char tail[] = "': Too many levels of symbolic links\n";
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        size_t path_len = (size_t)len - strlen(head) - strlen(tail);
        if ((size_t)len <= strlen(head) + strlen(tail) || strncmp(line, head, strlen(head)) != 0 ||
            strcmp(line + strlen(head) + path_len, tail) != 0) {
            fail_msg("find said: %s", line);
        }
        char rec[8192];
        n = snprintf(rec, sizeof(rec), "%.*s\tELOOP\tstat", (int)path_len, line + strlen(head));
        recs_add(out, rec, (size_t)n);
    }
    free(line);
    pclose(f);
}

static void test_walk_follow_all_stops_where_a_path_crosses_too_many_links(void **state)
{
    (void)state;
    // d1/s -> ../d2, d2/s -> ../d3, ...: d1/s/s/.../s crosses one link a level, and find -L
    // (which stats the whole path) fails where it crosses the 41st: so must the walk, which
    // reaches each level by descriptor and never meets the limit itself. d30/t -> u -> ../d31
    // crosses two at once; d44/fl -> f a link to a file; d44/dang -> nowhere leads nowhere.
    char *root = tree_make_root();
    char rel[64];
    char target[64];
    for (int i = 1; i <= 50; i++) {
        snprintf(rel, sizeof(rel), "d%d", i);
        tree_dir(root, rel);
        snprintf(rel, sizeof(rel), "d%d/s", i);
        snprintf(target, sizeof(target), "../d%d", i + 1);
        tree_symlink(root, target, rel);
        snprintf(rel, sizeof(rel), "d%d/f", i);
        tree_file(root, rel, 1);
        snprintf(rel, sizeof(rel), "d%d/fl", i);
        tree_symlink(root, "f", rel);
        snprintf(rel, sizeof(rel), "d%d/dang", i);
        tree_symlink(root, "nowhere", rel);
    }
    tree_dir(root, "d51");
    tree_symlink(root, "u", "d30/t");
    tree_symlink(root, "../d31", "d30/u");
    char *d1 = tree_path(root, "d1");
    char *deep = tree_path(root, "d1/s/s/s/s/s/s/s/s/s/s"); // a root 10 links down
    char *slash = tree_path(root, "d1/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/s/"); // 20, and a '/'
    char *roots[] = {d1, deep, slash};
    for (size_t k = 0; k < sizeof(roots) / sizeof(roots[0]); k++) {
        for (int mode = 0; mode < 4; mode++) {
            bool ordered = mode & 1;
            bool names = mode & 2;
            struct frd_walk_options o;
            walk_opts(&o, (ordered ? FRD_WALK_ORDERED : 0) | (names ? FRD_WALK_NAMES_ONLY : 0));
            o.follow = FRD_FOLLOW_ALL;
            o.on_error = rec_error;
            struct rec_ctx c;
            rec_ctx_init(&c, names ? REC_NAMES : REC_FULL);
            assert_int_equal(frd_walk(roots[k], &o, rec_visit, &c), 0);
            // find's stat of a whole path can fail early, never late, when the kernel
            // restarts the lookup (a mount elsewhere, as other tests make): the walk asks
            // again before it believes ELOOP, and find is run again while it differs.
            struct recs f;
            struct recs want;
            for (int tries = 0;; tries++) {
                recs_init(&f);
                recs_init(&want);
                find_recs("-L", roots[k], "", names ? REC_NAMES : REC_FULL, &f);
                find_eloop_errors("-L", roots[k], &want);
                if (tries == FIND_TRIES - 1 ||
                    (recs_equal(&c.recs, &f) && recs_equal(&c.errors, &want))) {
                    break;
                }
                recs_free(&want);
                recs_free(&f);
            }
            recs_assert_equal(&c.recs, &f, "link chain: visits");
            assert_true(want.n > 0);
            recs_assert_equal(&c.errors, &want, "link chain: errors");
            recs_free(&want);
            recs_free(&f);
            rec_ctx_free(&c);
        }
    }
    free(slash);
    free(deep);
    free(d1);
    tree_remove(root);
}

static void test_walk_real_dir_repeating_a_linked_ancestor_is_eloop(void **state)
{
    (void)state;
    // s -> a/b, a/b/up -> ..: s/up is a (no loop yet); s/up/b is a real directory and is
    // s itself. find -L stops there; the walk must too, not one level later.
    char *root = tree_make_root();
    tree_dir(root, "a");
    tree_dir(root, "a/b");
    tree_file(root, "a/b/f", 1);
    tree_symlink(root, "a/b", "s");
    tree_symlink(root, "..", "a/b/up");
    char *s = tree_path(root, "s");
    char *loop = tree_path(root, "s/up/b");
    assert_one_loop(s, FRD_FOLLOW_ALL, "-L", loop, s);
    free(loop);
    free(s);
    tree_remove(root);
}

/** The bind mount test's tree and mount point, undone by its teardown (also on failure;
 *  the mount is this process's own, in its own mount namespace). */
static char *bind_root;
static char *bind_target;

static int bind_teardown(void **state)
{
    (void)state;
    if (bind_target != NULL) {
        assert_int_equal(umount2(bind_target, MNT_DETACH), 0);
        free(bind_target);
        bind_target = NULL;
    }
    if (bind_root != NULL) {
        tree_remove(bind_root);
        bind_root = NULL;
    }
    return 0;
}

static void test_walk_bind_mount_cycle_is_eloop_never_walked(void **state)
{
    (void)state;
    // mkdir -p a/b; touch a/f; mount --bind a a/b: a/b is a again, links or not. find
    // visits root, a, a/f and reports a/b as a loop back to a; so must the walk, at once.
    // The mount is made in a mount namespace of this process's own (unshare -m, private
    // propagation): no other test sees it in the machine's mount table or in its walks, and
    // it goes with the process whatever happens to the teardown.
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        print_message("skip: a mount namespace needs root (CAP_SYS_ADMIN): %s\n", strerror(errno));
        skip();
        return;
    }
    bind_root = tree_make_root();
    tree_dir(bind_root, "a");
    tree_dir(bind_root, "a/b");
    tree_file(bind_root, "a/f", 3);
    char *a = tree_path(bind_root, "a");
    char *b = tree_path(bind_root, "a/b");
    if (mount(a, b, NULL, MS_BIND, NULL) != 0) {
        print_message("skip: mount --bind needs root (CAP_SYS_ADMIN): %s\n", strerror(errno));
        free(a);
        free(b);
        skip();
        return; // skip() leaves by longjmp; never go on with the freed paths
    }
    bind_target = b;
    assert_one_loop(bind_root, FRD_FOLLOW_NEVER, "", b, a);
    assert_one_loop(bind_root, FRD_FOLLOW_ALL, "-L", b, a);
    free(a);
}

/* ---- file_id at a mount point ---- */

static char *mnt_root;   // the tree holding a mount point
static char *mnt_target; // the mount point, unmounted by the teardown

static int mnt_teardown(void **state)
{
    (void)state;
    if (mnt_target != NULL) {
        umount2(mnt_target, MNT_DETACH);
        free(mnt_target);
        mnt_target = NULL;
    }
    if (mnt_root != NULL) {
        tree_remove(mnt_root);
        mnt_root = NULL;
    }
    return 0;
}

/** Records "path\tfile_id" of each visit ("path\t-" without one); udata is a struct recs. */
static enum frd_action ino_visit(const struct frd_walk_entry *we, void *udata)
{
    char buf[8192];
    int n = (we->entry->fields & FRD_FIELD_FILE_ID)
                ? snprintf(buf, sizeof(buf), "%s\t%" PRIu64, we->path, we->entry->file_id)
                : snprintf(buf, sizeof(buf), "%s\t-", we->path);
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    recs_add(udata, buf, (size_t)n);
    return FRD_ACTION_CONTINUE;
}

/** The d_ino of `name` in the directory `dir`, as its listing gives it (0: not found). */
static uint64_t listed_ino(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    uint64_t ino = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, name) == 0) {
            ino = de->d_ino;
        }
    }
    closedir(d);
    return ino;
}

static void test_walk_file_id_is_st_ino_at_a_mount_point_whatever_the_mask(void **state)
{
    (void)state;
    // The listing's d_ino of a mount point is the covered directory's inode; stat gives the
    // mounted root's. file_id is st_ino whatever else is asked: with type and file id (the
    // records could answer), file id alone, ids, every field; in both modes and in the lister.
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        print_message("skip: a mount namespace needs root (CAP_SYS_ADMIN): %s\n", strerror(errno));
        skip();
        return;
    }
    mnt_root = tree_make_root();
    tree_dir(mnt_root, "d");
    tree_dir(mnt_root, "d/m");
    tree_file(mnt_root, "d/f", 1);
    char *m = tree_path(mnt_root, "d/m");
    if (mount("frdtest", m, "tmpfs", 0, "size=1m") != 0) {
        print_message("skip: mounting tmpfs needs root (CAP_SYS_ADMIN): %s\n", strerror(errno));
        free(m);
        skip();
        return;
    }
    mnt_target = m;
    tree_dir(mnt_root, "d/m/sub");
    tree_file(mnt_root, "d/m/g", 2);
    char *d = tree_path(mnt_root, "d");
    struct stat st;
    assert_int_equal(lstat(m, &st), 0);
    // What the test is about: the record and the stat disagree here.
    assert_true(listed_ino(d, "m") != (uint64_t)st.st_ino);
    struct recs want;
    recs_init(&want);
    char cmd[8192];
    int n = snprintf(cmd, sizeof(cmd), "LC_ALL=C find '%s' -printf '%%p\\t%%i\\0'", mnt_root);
    assert_true(n > 0 && (size_t)n < sizeof(cmd));
    run_recs(cmd, &want);
    static const unsigned masks[] = {FRD_FIELD_TYPE | FRD_FIELD_FILE_ID, FRD_FIELD_FILE_ID,
                                     FRD_FIELD_FILE_ID | FRD_FIELD_DEV, FRD_FIELDS_ALL};
    for (int ordered = 0; ordered < 2; ordered++) {
        for (size_t i = 0; i < sizeof(masks) / sizeof(masks[0]); i++) {
            struct frd_walk_options o;
            walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
            o.fields = masks[i];
            struct recs got;
            recs_init(&got);
            assert_int_equal(frd_walk(mnt_root, &o, ino_visit, &got), 0);
            char what[64];
            snprintf(what, sizeof(what), "file_id, mask %#x, %s", masks[i],
                     ordered ? "ordered" : "concurrent");
            recs_assert_equal(&got, &want, what);
            recs_free(&got);
        }
    }
    // The lister, asked for type and file id: the mount point's file_id is its st_ino.
    struct frd_lister *lister;
    assert_int_equal(frd_lister_new(&lister, 0), 0);
    assert_int_equal(frd_lister_set_fields(lister, FRD_FIELD_TYPE | FRD_FIELD_FILE_ID), 0);
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    assert_true(frd_lister_list_path(lister, list, d) >= 0);
    bool seen = false;
    for (size_t i = 0; i < frd_list_count(list); i++) {
        const struct frd_entry *e = &frd_list_entries(list)[i];
        if (strcmp(e->name, "m") == 0) {
            assert_true(e->fields & FRD_FIELD_FILE_ID);
            assert_int_equal(e->file_id, st.st_ino);
            seen = true;
        }
    }
    assert_true(seen);
    frd_list_free(list);
    frd_lister_free(lister);
    recs_free(&want);
    free(d);
}

/* ---- Internals: volume classes ---- */

static void test_walk_volume_class_table(void **state)
{
    (void)state;
    if (!backend_classifies_volumes()) {
        skip();
    }
    static const struct {
        uint64_t type;
        enum frd__vol_class cls;
    } table[] = {
        {0xEF53, FRD__VOL_STRONG},        // ext4
        {0x58465342, FRD__VOL_STRONG},    // xfs
        {0x9123683E, FRD__VOL_STRONG},    // btrfs
        {0x01021994, FRD__VOL_STRONG},    // tmpfs
        {0x6969, FRD__VOL_STRONG},        // nfs
        {0x4d44, FRD__VOL_WEAK},          // vfat
        {0x2011BAB0, FRD__VOL_WEAK},      // exfat
        {0x794c7630, FRD__VOL_WEAK},      // overlay
        {0xFF534D42, FRD__VOL_WEAK},      // cifs
        {0x65735546, FRD__VOL_UNTRUSTED}, // fuse
        {0x12345678, FRD__VOL_UNTRUSTED}, // unknown
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        assert_int_equal(frd__plat_classify_fs_type(table[i].type), table[i].cls);
    }
    // fstatfs of a real directory goes through the same table.
    frd_os_fd fd;
    assert_int_equal(frd__plat_open_dir(FRD_INVALID_FD, tree, 0, &fd), 0);
    enum frd__vol_class cls;
    assert_int_equal(frd__plat_volume_class(fd, &cls), 0);
    struct statfs sfs;
    assert_int_equal(statfs(tree, &sfs), 0);
    assert_int_equal(cls, frd__plat_classify_fs_type((uint64_t)(unsigned long)sfs.f_type));
    struct frd__identity id;
    assert_int_equal(frd__plat_fd_identity(fd, &id), 0);
    struct stat st;
    assert_int_equal(stat(tree, &st), 0);
    assert_int_equal(id.dev, st.st_dev);
    assert_int_equal(id.ino, st.st_ino);
    char buf[4096];
    assert_true(frd__plat_fd_path(fd, buf, sizeof(buf)) > 0);
    assert_int_equal(frd__plat_fd_path(fd, buf, 2), FRD_ENAMETOOLONG);
    frd__plat_close_dir(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_symlink_loops_are_eloop_never_walked_twice),
        cmocka_unit_test(test_walk_real_dir_repeating_a_linked_ancestor_is_eloop),
        cmocka_unit_test(test_walk_loops_deep_in_a_chain_repeat_shallow_and_deep_ancestors),
        cmocka_unit_test(test_walk_follow_all_stops_where_a_path_crosses_too_many_links),
        cmocka_unit_test_teardown(test_walk_bind_mount_cycle_is_eloop_never_walked, bind_teardown),
        cmocka_unit_test_teardown(test_walk_file_id_is_st_ino_at_a_mount_point_whatever_the_mask,
                                  mnt_teardown),
        cmocka_unit_test(test_walk_volume_class_table),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_loops", tests, group_setup, group_teardown);
}
