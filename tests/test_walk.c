// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests on generated trees: agreement with GNU find, every option, prune, stop and
 * cancel, links and loops, odd names, ordered and post-order visits, background and libuv
 * starts, unreadable directories as an unprivileged user, and races with a mutating thread.
 * FRD_TEST_WORKERS sets the worker count (ctest runs this file at 1, 2 and 8).
 */
#include "core/identity.h"
#include "internal.h"
#include "platform.h"
#include "sched/deque.h"
#include "sched/sched.h"
#include "tree.h"
#include "walk_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdatomic.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <uv.h>

static char *tree; // the generated tree, made once for the group

static void make_big_fanout(const char *root, const char *dir, int dirs, int files)
{
    tree_dir(root, dir);
    char rel[512];
    for (int d = 0; d < dirs; d++) {
        snprintf(rel, sizeof(rel), "%s/d%02d", dir, d);
        tree_dir(root, rel);
        for (int f = 0; f < files; f++) {
            snprintf(rel, sizeof(rel), "%s/d%02d/f%03d", dir, d, f);
            tree_file(root, rel, (size_t)(f % 7));
        }
    }
}

static int group_setup(void **state)
{
    (void)state;
    tree = tree_make_root();
    chmod(tree, 0755);
    tree_file(tree, "regular", 1234);
    tree_file(tree, ".hidden", 3);
    tree_dir(tree, ".hiddendir");
    tree_file(tree, ".hiddendir/inside", 1);
    tree_dir(tree, "dir");
    tree_dir(tree, "dir/sub");
    tree_dir(tree, "dir/sub/deeper");
    tree_file(tree, "dir/sub/deeper/leaf", 10);
    tree_file(tree, "dir/file", 5);
    tree_symlink(tree, "regular", "link");
    tree_symlink(tree, "/nonexistent/target", "dangling");
    tree_symlink(tree, "dir", "dirlink");
    tree_fifo(tree, "fifo");
    tree_socket(tree, "socket");
    char *a = tree_path(tree, "regular");
    char *b = tree_path(tree, "dir/hardlink");
    assert_int_equal(link(a, b), 0);
    free(a);
    free(b);
    tree_file(tree, "new\nline", 1);
    tree_file(tree, "bad\xff\xfeutf8", 2);
    tree_dir(tree, "tab\tdir");
    tree_file(tree, "tab\tdir/x", 0);
    make_big_fanout(tree, "fan", 20, 30);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    tree_remove(tree);
    return 0;
}

/* ---- Agreement with find ---- */

static void test_walk_full_matches_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    assert_walk_matches_find(tree, &o, "", "");
}

static void test_walk_names_only_matches_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    assert_walk_matches_find(tree, &o, "", "");
}

static void test_walk_depth_limits_match_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    o.min_depth = 2;
    o.max_depth = 3;
    assert_walk_matches_find(tree, &o, "", "-mindepth 2 -maxdepth 3");
    o.min_depth = 0;
    o.max_depth = 0;
    assert_walk_matches_find(tree, &o, "", "-maxdepth 0");
    o.min_depth = 1;
    o.max_depth = 1;
    assert_walk_matches_find(tree, &o, "", "-mindepth 1 -maxdepth 1");
}

static void test_walk_trailing_slash_joins_like_find(void **state)
{
    (void)state;
    size_t n = strlen(tree);
    char *one = malloc(n + 3);
    assert_non_null(one);
    memcpy(one, tree, n);
    memcpy(one + n, "/", 2);
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    assert_walk_matches_find(one, &o, "", "");
    memcpy(one + n, "//", 3);
    assert_walk_matches_find(one, &o, "", "");
    free(one);
}

static void test_walk_follow_all_matches_find_L(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    o.follow = FRD_FOLLOW_ALL;
    assert_walk_matches_find(tree, &o, "-L", "");
    o.flags = 0;
    assert_walk_matches_find(tree, &o, "-L", "");
}

static void test_walk_root_link_follow_never_is_a_link(void **state)
{
    (void)state;
    char *root = tree_path(tree, "dirlink");
    struct frd_walk_options o;
    walk_opts(&o, 0);
    assert_walk_matches_find(root, &o, "-P", "");
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
    assert_int_equal(c.recs.n, 1);
    rec_ctx_free(&c);
    o.follow = FRD_FOLLOW_ROOTS;
    assert_walk_matches_find(root, &o, "-H", "");
    free(root);
}

static void test_walk_skip_hidden_leaves_dot_entries_out(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY | FRD_WALK_SKIP_HIDDEN);
    assert_walk_matches_find(tree, &o, "", "-name '.*' -prune -o");
}

static void test_walk_odd_names_are_reported_byte_exact(void **state)
{
    (void)state;
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    int n = frd_read_tree(tree, FRD_WALK_NAMES_ONLY, list);
    assert_true(n > 0);
    bool newline = false;
    bool bad = false;
    const struct frd_entry *v = frd_list_entries(list);
    for (int i = 0; i < n; i++) {
        newline |= strcmp(v[i].name, "new\nline") == 0;
        bad |= strcmp(v[i].name, "bad\xff\xfeutf8") == 0;
    }
    assert_true(newline);
    assert_true(bad);
    frd_list_free(list);
}

static void test_walk_read_tree_matches_find_relative_paths(void **state)
{
    (void)state;
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    int n = frd_read_tree(tree, 0, list);
    assert_true(n > 0);
    struct recs mine;
    recs_init(&mine);
    const struct frd_entry *v = frd_list_entries(list);
    for (int i = 0; i < n; i++) {
        char buf[4096];
        int k = snprintf(buf, sizeof(buf), "%s\t%c\t%" PRIu64, v[i].name,
                         frd_type_letter(v[i].type), v[i].size);
        recs_add(&mine, buf, (size_t)k);
    }
    struct recs f;
    recs_init(&f);
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "find '%s' -mindepth 1 -printf '%%P\\t%%y\\t%%s\\0'", tree);
    run_recs(cmd, &f);
    recs_assert_equal(&mine, &f, "read_tree");
    recs_free(&f);
    recs_free(&mine);
    assert_int_equal(frd_read_tree("/nonexistent/frd", 0, list), FRD_ENOENT);
    frd_list_free(list);
}

/* ---- Prune, stop, cancel ---- */

static enum frd_action prune_dir_visit(const struct frd_walk_entry *we, void *udata)
{
    struct rec_ctx *c = udata;
    rec_visit(we, udata);
    (void)c;
    return strcmp(we->entry->name, "dir") == 0 || strcmp(we->entry->name, "fan") == 0
               ? FRD_ACTION_PRUNE
               : FRD_ACTION_CONTINUE;
}

static void test_walk_prune_skips_children(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        struct rec_ctx c;
        rec_ctx_init(&c, REC_NAMES);
        assert_int_equal(frd_walk(tree, &o, prune_dir_visit, &c), 0);
        struct recs f;
        recs_init(&f);
        find_recs("", tree, "\\( -name dir -o -name fan \\) -prune -o -true", REC_NAMES, &f);
        // find's -prune -o -true leaves the pruned directories out of its -printf: add them.
        char buf[4096];
        snprintf(buf, sizeof(buf), "%s/dir\td", tree);
        recs_add(&f, buf, strlen(buf));
        snprintf(buf, sizeof(buf), "%s/fan\td", tree);
        recs_add(&f, buf, strlen(buf));
        recs_assert_equal(&c.recs, &f, "prune");
        recs_free(&f);
        rec_ctx_free(&c);
    }
}

struct stop_ctx {
    atomic_int visits;
    atomic_bool stopped;   /**< set when the stopping callback returns, by the next one in */
    atomic_int after_stop; /**< callbacks that started after the stop was returned */
    int stop_at;
};

static enum frd_action stop_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct stop_ctx *s = udata;
    if (atomic_load(&s->stopped)) {
        atomic_fetch_add(&s->after_stop, 1);
    }
    int n = atomic_fetch_add(&s->visits, 1) + 1;
    if (n == s->stop_at) {
        return FRD_ACTION_STOP;
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_stop_ends_walk_with_estopped(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        struct stop_ctx s = {.stop_at = 10};
        assert_int_equal(frd_walk(tree, &o, stop_visit, &s), FRD_ESTOPPED);
        // Callbacks that had already begun when the stop came may finish; no new directory
        // is listed, so the total stays far below the tree's 700 entries.
        assert_true(atomic_load(&s.visits) >= 10);
        if (ordered || o.workers == 1) {
            assert_int_equal(atomic_load(&s.visits), 10); // one thread: exactly none after
        } else {
            assert_true(atomic_load(&s.visits) < 10 + 64 * (int)o.workers);
        }
    }
}

struct cancel_ctx {
    atomic_bool cancelled; /**< set by the test thread after frd_walk_cancel() returned */
    atomic_int late;       /**< callbacks that started after that */
    atomic_int visits;
    atomic_bool started;
};

static enum frd_action cancel_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct cancel_ctx *c = udata;
    if (atomic_load(&c->cancelled)) {
        atomic_fetch_add(&c->late, 1);
    }
    atomic_fetch_add(&c->visits, 1);
    atomic_store(&c->started, true);
    uv_sleep(1); // slow the walk so that the cancel lands in the middle
    return FRD_ACTION_CONTINUE;
}

static void test_walk_cancel_from_another_thread_stops_callbacks(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        struct cancel_ctx c = {0};
        struct frd_walk *walk;
        const char *roots[] = {tree};
        assert_int_equal(frd_walk_start(&walk, roots, 1, &o, cancel_visit, &c), 0);
        while (!atomic_load(&c.started)) {
            uv_sleep(1);
        }
        frd_walk_cancel(walk);
        atomic_store(&c.cancelled, true);
        frd_walk_cancel(walk); // twice is fine
        assert_int_equal(frd_walk_join(walk), FRD_ECANCELED);
        assert_int_equal(atomic_load(&c.late), 0);
        assert_true(atomic_load(&c.visits) < 700);
    }
}

static void test_walk_start_and_join_without_cancel_finishes(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    struct frd_walk *walk;
    const char *roots[] = {tree, tree};
    assert_int_equal(frd_walk_start(&walk, roots, 2, &o, rec_visit, &c), 0);
    assert_int_equal(frd_walk_join(walk), 0);
    struct recs f;
    recs_init(&f);
    find_recs("", tree, "", REC_NAMES, &f);
    find_recs("", tree, "", REC_NAMES, &f);
    recs_assert_equal(&c.recs, &f, "two roots");
    recs_free(&f);
    rec_ctx_free(&c);
}

struct async_ctx {
    struct rec_ctx rec;
    int result;
    int done_calls;
    uv_thread_t loop_thread;
    bool done_on_loop_thread;
};

static void async_done(int result, void *udata)
{
    struct async_ctx *a = udata;
    a->result = result;
    a->done_calls++;
    uv_thread_t self = uv_thread_self();
    a->done_on_loop_thread = uv_thread_equal(&self, &a->loop_thread) != 0;
}

static void test_walk_async_start_reports_on_libuv_loop(void **state)
{
    (void)state;
    uv_loop_t loop;
    assert_int_equal(uv_loop_init(&loop), 0);
    struct async_ctx a = {.result = 1};
    rec_ctx_init(&a.rec, REC_NAMES);
    a.loop_thread = uv_thread_self();
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    struct frd_walk *walk;
    const char *roots[] = {tree};
    assert_int_equal(frd_walk_start_async(&walk, (struct uv_loop_s *)&loop, roots, 1, &o, rec_visit,
                                          &a.rec, async_done),
                     0);
    assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
    assert_int_equal(a.done_calls, 1);
    assert_int_equal(a.result, 0);
    assert_true(a.done_on_loop_thread);
    struct recs f;
    recs_init(&f);
    find_recs("", tree, "", REC_NAMES, &f);
    recs_assert_equal(&a.rec.recs, &f, "async");
    recs_free(&f);
    rec_ctx_free(&a.rec);
    assert_int_equal(uv_loop_close(&loop), 0);
}

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
 * the visits against find's and the errors against the one loop `path` -> `ancestor`.
 */
static void assert_one_loop(const char *root, enum frd_follow follow, const char *find_opts,
                            const char *path, const char *ancestor)
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
        char buf[4096];
        int n = snprintf(buf, sizeof(buf), "%s\tELOOP\tloop\t%s", path, ancestor);
        recs_add(&want, buf, (size_t)n);
        recs_assert_equal(&c.errors, &want, "loop: errors");
        recs_free(&want);
        recs_free(&f);
        rec_ctx_free(&c);
    }
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

/** The bind mount test's tree and mount point, undone by its teardown (also on failure). */
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

/** The portable backend (FRD_BACKEND=posix) cannot tell file system types: every volume is
 *  untrusted there, so nothing is deduplicated and the Linux table does not apply. */
static bool backend_classifies_volumes(void)
{
    return frd__plat_classify_fs_type(0xEF53) != FRD__VOL_UNTRUSTED;
}

static void test_walk_unique_visits_each_file_and_dir_once(void **state)
{
    (void)state;
    if (!backend_classifies_volumes()) {
        skip();
    }
    char *root = tree_make_root();
    tree_dir(root, "d");
    tree_file(root, "d/f", 3);
    char *a = tree_path(root, "d/f");
    char *b = tree_path(root, "g");
    assert_int_equal(link(a, b), 0);
    free(a);
    free(b);
    tree_symlink(root, "d", "dl");
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o,
                  FRD_WALK_UNIQUE_FILES | FRD_WALK_UNIQUE_DIRS | (ordered ? FRD_WALK_ORDERED : 0));
        o.follow = FRD_FOLLOW_ALL;
        struct rec_ctx c;
        rec_ctx_init(&c, REC_NAMES);
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        // root, d (or dl), f (or g): one of each identity.
        assert_int_equal(c.recs.n, 3);
        rec_ctx_free(&c);
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        o.follow = FRD_FOLLOW_ALL;
        rec_ctx_init(&c, REC_NAMES);
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        assert_int_equal(c.recs.n, 6); // root d d/f g dl dl/f
        rec_ctx_free(&c);
    }
    tree_remove(root);
}

static void test_walk_one_file_system_matches_find_xdev(void **state)
{
    (void)state;
    // /dev is a devtmpfs with /dev/pts and /dev/shm mounted inside it on Linux hosts, and
    // its contents hold still while the tests run.
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY | FRD_WALK_ONE_FILE_SYSTEM);
    assert_walk_matches_find("/dev", &o, "", "-xdev");
    o.flags = FRD_WALK_ONE_FILE_SYSTEM;
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    assert_int_equal(frd_walk("/dev", &o, rec_visit, &c), 0);
    struct recs f;
    recs_init(&f);
    find_recs("", "/dev", "-xdev", REC_NAMES, &f);
    recs_assert_equal(&c.recs, &f, "xdev full");
    recs_free(&f);
    rec_ctx_free(&c);
}

/* ---- Ordered and post-order ---- */

static enum frd_action path_visit(const struct frd_walk_entry *we, void *udata)
{
    struct recs *r = udata;
    recs_add(r, we->path, we->path_len);
    return FRD_ACTION_CONTINUE;
}

/** Compares two paths component by component in byte order (find -s order). */
static int path_order(const char *a, const char *b)
{
    for (;;) {
        size_t la = strcspn(a, "/");
        size_t lb = strcspn(b, "/");
        size_t n = la < lb ? la : lb;
        int c = memcmp(a, b, n);
        if (c != 0) {
            return c;
        }
        if (la != lb) {
            return la < lb ? -1 : 1;
        }
        if (a[la] == '\0' || b[lb] == '\0') {
            return (a[la] != '\0') - (b[lb] != '\0');
        }
        a += la + 1;
        b += lb + 1;
    }
}

static int path_order_qsort(const void *a, const void *b)
{
    return path_order(*(char *const *)a, *(char *const *)b);
}

/** The reference for ordered walks: find's output under root, sorted component by
 *  component (find -s order), into r (initialized here). */
static void find_in_s_order(const char *root, struct recs *r)
{
    recs_init(r);
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "find '%s' -print0", root);
    run_recs(cmd, r);
    qsort(r->v, r->n, sizeof(*r->v), path_order_qsort);
}

static void test_walk_ordered_output_identical_at_1_2_8_workers(void **state)
{
    (void)state;
    struct recs runs[4];
    unsigned workers[] = {1, 2, 8, test_workers()};
    for (int i = 0; i < 4; i++) {
        recs_init(&runs[i]);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY);
        o.workers = workers[i];
        assert_int_equal(frd_walk(tree, &o, path_visit, &runs[i]), 0);
    }
    struct recs f;
    find_in_s_order(tree, &f);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(runs[i].n, f.n);
        for (size_t j = 0; j < f.n; j++) {
            assert_string_equal(runs[i].v[j], f.v[j]);
        }
        recs_free(&runs[i]);
    }
    recs_free(&f);
}

/** A large directory (many kernel batches) whose names share their first 17 bytes, differ
 *  in length, and some hold bytes past 0x7f: made in an order unlike the names'. */
#define PREFIX_N 30000

/** Name i of that directory into buf; its size is i % 5. */
static void prefix_name(char *buf, size_t cap, size_t i)
{
    static const char *const tails[] = {"", "_z", "\xc3\xa9", "-"};
    snprintf(buf, cap, "same-first-bytes-%zu%s", (i * 7919) % PREFIX_N, tails[i % 4]);
}

struct prefix_seen {
    struct recs names; // the entries directly in the directory, in visit order
    size_t bad_size;
    const size_t *index_of; // the number in a name -> its i
    size_t sized;           // entries that came with their size
};

static enum frd_action prefix_visit(const struct frd_walk_entry *we, void *udata)
{
    struct prefix_seen *s = udata;
    if (we->depth != 1) {
        return FRD_ACTION_CONTINUE;
    }
    const struct frd_entry *e = we->entry;
    recs_add(&s->names, e->name, e->name_len);
    if (e->fields & FRD_FIELD_SIZE) {
        size_t num = strtoul(e->name + 17, NULL, 10);
        s->sized++;
        s->bad_size += num >= PREFIX_N || e->size != s->index_of[num] % 5;
    }
    return FRD_ACTION_CONTINUE;
}

/** The ordered mode on a directory read in many batches: its runs are sorted and merged
 *  while it is read and merged again chunk by chunk; names that tie on their first bytes
 *  and names that are prefixes of others come in byte order, each once, with every field,
 *  names only, and with the size alone (stat'ed ahead), at 1, 2 and 8 workers. */
static void test_walk_ordered_large_directory_shared_prefixes_in_byte_order(void **state)
{
    (void)state;
    char *root = tree_make_root();
    char name[64];
    struct recs want;
    recs_init(&want);
    size_t *index_of = calloc(PREFIX_N, sizeof(*index_of));
    assert_non_null(index_of);
    int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dfd >= 0);
    for (size_t i = 0; i < PREFIX_N; i++) {
        prefix_name(name, sizeof(name), i);
        int f = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        assert_int_equal(ftruncate(f, (off_t)(i % 5)), 0);
        close(f);
        recs_add(&want, name, strlen(name));
        index_of[(i * 7919) % PREFIX_N] = i;
    }
    close(dfd);
    recs_sort(&want); // strcmp: byte order
    unsigned workers[] = {1, 2, 8};
    for (int w = 0; w < 3; w++) {
        // Every field; names only; type and size only (the size stat'ed ahead, while listed).
        for (int mode = 0; mode < 3; mode++) {
            struct prefix_seen s = {.index_of = index_of};
            recs_init(&s.names);
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_ORDERED | (mode == 1 ? FRD_WALK_NAMES_ONLY : 0));
            if (mode == 2) {
                o.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE;
            }
            o.workers = workers[w];
            assert_int_equal(frd_walk(root, &o, prefix_visit, &s), 0);
            assert_int_equal(s.names.n, want.n);
            for (size_t i = 0; i < want.n; i++) {
                assert_string_equal(s.names.v[i], want.v[i]);
            }
            assert_int_equal(s.bad_size, 0);
            assert_int_equal(s.sized, mode == 1 ? 0 : PREFIX_N);
            recs_free(&s.names);
        }
    }
    recs_free(&want);
    free(index_of);
    tree_remove(root);
}

/** The reference for FRD_WALK_LISTING_ORDER: `path` and below, depth first, each directory's
 *  entries in readdir()'s order (the kernel's, as getdents64 gives it), into r. */
static void readdir_order(const char *path, struct recs *r)
{
    recs_add(r, path, strlen(path));
    DIR *d = opendir(path);
    if (d == NULL) {
        return; // not a directory (or a link to one: not followed)
    }
    struct dirent *de;
    char sub[4096];
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        int n = snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
        assert_true(n > 0 && (size_t)n < sizeof(sub));
        if (de->d_type == DT_DIR) {
            readdir_order(sub, r);
        } else {
            recs_add(r, sub, (size_t)n);
        }
    }
    closedir(d);
}

/** A children hook that leaves the listing as it is (the walk then stats after it). */
static void keep_all_hook(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    (void)dir;
    (void)kids;
    (void)udata;
}

/** The paths of a walk, and how many of its entries came without their size. */
struct listed_ctx {
    struct recs paths;
    size_t unsized;
};

static enum frd_action listed_visit(const struct frd_walk_entry *we, void *udata)
{
    struct listed_ctx *x = udata;
    recs_add(&x->paths, we->path, we->path_len);
    x->unsized += !(we->entry->fields & FRD_FIELD_SIZE);
    return FRD_ACTION_CONTINUE;
}

/** FRD_WALK_LISTING_ORDER: the ordered walk in each directory's own order (on this file
 *  system unlike the names', one directory read in many batches), the same as readdir's
 *  depth first, at 1, 2 and 8 workers, names only, with every field (each entry stat'ed),
 *  and through a children hook. */
static void test_walk_ordered_listing_order_is_readdir_order(void **state)
{
    (void)state;
    char *root = tree_make_root();
    char rel[64];
    tree_dir(root, "big");
    for (int i = 0; i < 3000; i++) {
        snprintf(rel, sizeof(rel), "big/entry-with-a-longish-name-%04d", (i * 7919) % 3000);
        tree_file(root, rel, 0);
    }
    for (int i = 0; i < 40; i++) {
        snprintf(rel, sizeof(rel), "d%02d", (i * 17) % 40);
        tree_dir(root, rel);
        snprintf(rel, sizeof(rel), "d%02d/f%02d", (i * 17) % 40, i);
        tree_file(root, rel, 1);
        snprintf(rel, sizeof(rel), "d%02d/g", (i * 17) % 40);
        tree_dir(root, rel);
    }
    struct recs want, by_name;
    recs_init(&want);
    readdir_order(root, &want);
    find_in_s_order(root, &by_name);
    size_t same_as_names = 0;
    for (size_t j = 0; j < want.n; j++) {
        same_as_names += strcmp(want.v[j], by_name.v[j]) == 0;
    }
    assert_true(same_as_names < want.n); // else the test could not tell the orders apart
    unsigned workers[] = {1, 2, 8};
    for (int w = 0; w < 3; w++) {
        for (int mode = 0; mode < 3; mode++) {
            struct listed_ctx x = {.unsized = 0};
            recs_init(&x.paths);
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_ORDERED | FRD_WALK_LISTING_ORDER |
                              (mode == 0 ? FRD_WALK_NAMES_ONLY : 0));
            o.workers = workers[w];
            if (mode == 2) {
                o.on_children = keep_all_hook;
            }
            assert_int_equal(frd_walk(root, &o, listed_visit, &x), 0);
            assert_int_equal(x.paths.n, want.n);
            for (size_t j = 0; j < want.n; j++) {
                assert_string_equal(x.paths.v[j], want.v[j]);
            }
            // Every entry stat'ed where the walk wants fields: names only, none.
            assert_int_equal(x.unsized, mode == 0 ? want.n : 0);
            recs_free(&x.paths);
        }
    }
    recs_free(&by_name);
    recs_free(&want);
    tree_remove(root);
}

/** Levels of the deep tree below, and entries in each of its directories. */
#define LABEL_LEVELS  48
#define LABEL_ENTRIES 40

/**
 * The ordered mode past the end of its pre-order labels: a chain 48 deep whose directories
 * hold 40 entries each (6 bits of label a level, so labels run out near depth 21 and nodes
 * below compare by their ancestors), two of them subdirectories (the chain, a sibling with a
 * file), the others files whose names share their first 8 or 16 bytes, are 8 or 16 bytes
 * long, or a prefix of another. At 1, 2 and 8 workers, names only and with every field:
 * find's output, sorted component by component, every time. (The output's order is the
 * consumer's; the labels order the listing work: Debug builds check each comparison of two
 * labels against the order of the nodes' ancestors.)
 */
static void test_walk_ordered_deep_tree_past_its_labels_in_find_s_order(void **state)
{
    (void)state;
    static const char *const names[] = {
        "abcdefgh",
        "abcdefg",
        "abcdefghi",
        "abcdefgh-same16",
        "abcdefgh-same16!",
        "abcdefgh-same16",
        "abcdefgh-same17x",
        "abcdefgh-same16z",
        "\xc3\xa9t\xc3\xa9",
        "z",
        "Z",
        "0",
    };
    char *root = tree_make_root();
    int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dfd >= 0);
    char name[64];
    for (int level = 0; level < LABEL_LEVELS; level++) {
        for (int i = 0; i < LABEL_ENTRIES - 2; i++) {
            size_t nnames = sizeof(names) / sizeof(names[0]);
            if ((size_t)i < nnames) {
                snprintf(name, sizeof(name), "%s", names[i]);
            } else {
                snprintf(name, sizeof(name), "%s%02d", names[(size_t)i % nnames], i);
            }
            int f = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
            if (f < 0 && errno == EEXIST) {
                continue;
            }
            assert_true(f >= 0);
            close(f);
        }
        assert_int_equal(mkdirat(dfd, "abcdefgh-side", 0755), 0);
        int side = openat(dfd, "abcdefgh-side", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(side >= 0);
        int f = openat(side, "leaf", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        close(f);
        close(side);
        assert_int_equal(mkdirat(dfd, "abcdefgh-down", 0755), 0);
        int down = openat(dfd, "abcdefgh-down", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(down >= 0);
        close(dfd);
        dfd = down;
    }
    close(dfd);
    struct recs want;
    find_in_s_order(root, &want);
    assert_true(want.n > (size_t)LABEL_LEVELS * LABEL_ENTRIES / 2);
    unsigned workers[] = {1, 2, 8};
    for (int w = 0; w < 3; w++) {
        for (int names_only = 0; names_only < 2; names_only++) {
            struct recs got;
            recs_init(&got);
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_ORDERED | (names_only ? FRD_WALK_NAMES_ONLY : 0));
            o.workers = workers[w];
            assert_int_equal(frd_walk(root, &o, path_visit, &got), 0);
            assert_int_equal(got.n, want.n);
            for (size_t i = 0; i < want.n; i++) {
                assert_string_equal(got.v[i], want.v[i]);
            }
            recs_free(&got);
        }
    }
    recs_free(&want);
    tree_remove(root);
}

struct post_ctx {
    pthread_mutex_t lock;
    atomic_long seq;
    struct recs events; /**< "V path" and "D path", in the order they happened */
    bool ordered;
    bool prune;        /**< post_visit prunes every directory */
    atomic_int errors; /**< failures post_error saw */
};

static enum frd_action post_visit(const struct frd_walk_entry *we, void *udata)
{
    struct post_ctx *p = udata;
    char buf[4096];
    pthread_mutex_lock(&p->lock);
    int n = snprintf(buf, sizeof(buf), "V %s", we->path);
    recs_add(&p->events, buf, (size_t)n);
    pthread_mutex_unlock(&p->lock);
    return p->prune ? FRD_ACTION_PRUNE : FRD_ACTION_CONTINUE;
}

static enum frd_action post_error(const struct frd_walk_error *err, void *udata)
{
    (void)err;
    atomic_fetch_add(&((struct post_ctx *)udata)->errors, 1);
    return FRD_ACTION_CONTINUE;
}

static void post_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *t,
                      void *udata)
{
    struct post_ctx *p = udata;
    char buf[4096];
    assert_int_equal(dir->entry->type, FRD_TYPE_DIR);
    pthread_mutex_lock(&p->lock);
    int n = snprintf(buf, sizeof(buf), "D %s %" PRIu64, dir->path, t->entries);
    recs_add(&p->events, buf, (size_t)n);
    pthread_mutex_unlock(&p->lock);
}

static void test_walk_post_order_after_all_descendants(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct post_ctx p = {.ordered = ordered};
        pthread_mutex_init(&p.lock, NULL);
        recs_init(&p.events);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        o.on_dir_done = post_done;
        assert_int_equal(frd_walk(tree, &o, post_visit, &p), 0);
        // Every directory is done once, after every visit below it.
        size_t dirs = 0;
        for (size_t i = 0; i < p.events.n; i++) {
            const char *e = p.events.v[i];
            if (e[0] != 'D') {
                continue;
            }
            dirs++;
            char path[4096];
            const char *sp = strrchr(e, ' ');
            size_t len = (size_t)(sp - (e + 2));
            memcpy(path, e + 2, len);
            path[len] = '\0';
            for (size_t j = i + 1; j < p.events.n; j++) {
                const char *x = p.events.v[j] + 2;
                bool below = strncmp(x, path, len) == 0 && (x[len] == '/' || x[len] == ' ');
                bool same_dir_again =
                    p.events.v[j][0] == 'D' && strncmp(x, path, len) == 0 && x[len] == ' ';
                assert_false(below || same_dir_again);
            }
        }
        struct recs f;
        recs_init(&f);
        find_recs("", tree, "-type d", REC_NAMES, &f);
        assert_int_equal(dirs, f.n);
        recs_free(&f);
        recs_free(&p.events);
        pthread_mutex_destroy(&p.lock);
    }
}

/** Descriptors this process has open now (those of /proc/self/fd's own listing not counted). */
static int open_fd_count(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n - 1;
}

/** A chain of `depth` directories "d" below root, with a file "f" in each. */
static void make_chain(const char *root, unsigned depth)
{
    char rel[1024] = "c";
    size_t len = 1;
    tree_dir(root, rel);
    for (unsigned i = 0; i < depth; i++) {
        memcpy(rel + len, "/d", 3);
        len += 2;
        tree_dir(root, rel);
        memcpy(rel + len, "/f", 3);
        tree_file(root, rel, 1);
        rel[len] = '\0';
    }
}

struct nofd_ctx {
    struct recs events; /**< "V path" and "D path" in the order of the calls */
    int baseline;       /**< descriptors open before the walk */
    int max_open;       /**< most descriptors open at any call, beyond the baseline */
    bool any_parent_fd; /**< a callback below a root got a valid parent_fd */
};

static void nofd_call(struct nofd_ctx *x, char tag, const struct frd_walk_entry *we)
{
    char buf[1200];
    int n = snprintf(buf, sizeof(buf), "%c %s", tag, we->path);
    recs_add(&x->events, buf, (size_t)n);
    int open = open_fd_count() - x->baseline;
    x->max_open = open > x->max_open ? open : x->max_open;
    x->any_parent_fd |= !we->is_root && we->parent_fd != FRD_INVALID_FD;
}

static enum frd_action nofd_visit(const struct frd_walk_entry *we, void *udata)
{
    nofd_call(udata, 'V', we);
    return FRD_ACTION_CONTINUE;
}

static void nofd_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *t,
                      void *udata)
{
    (void)t;
    nofd_call(udata, 'D', dir);
}

static void nofd_walk(const char *root, unsigned flags, unsigned workers, struct nofd_ctx *x)
{
    recs_init(&x->events);
    x->baseline = open_fd_count();
    x->max_open = 0;
    x->any_parent_fd = false;
    struct frd_walk_options o;
    walk_opts(&o, flags);
    o.workers = workers;
    o.on_dir_done = nofd_done;
    assert_int_equal(frd_walk(root, &o, nofd_visit, x), 0);
}

/*
 * FRD_WALK_NO_PARENT_FD: the same calls in the same order as without it, no valid parent_fd
 * in any of them, and in ordered mode no directory held open for them: on a chain 200 deep
 * the walk without the flag holds a descriptor per level at the bottom (its frames keep
 * them for the visits' parent_fd), with it a few per thread at most.
 */
static void test_walk_ordered_no_parent_fd_keeps_no_directory_open(void **state)
{
    (void)state;
    char *root = tree_make_root();
    make_chain(root, 200);
    unsigned workers[] = {1, 2, 8};
    for (size_t k = 0; k < sizeof(workers) / sizeof(workers[0]); k++) {
        struct nofd_ctx with, without;
        nofd_walk(root, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY, workers[k], &without);
        nofd_walk(root, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY | FRD_WALK_NO_PARENT_FD, workers[k],
                  &with);
        assert_int_equal(with.events.n, without.events.n);
        assert_int_equal(with.events.n,
                         2 * 2 + 3 * 200); // root and c, V and D; d, f, D d per level
        for (size_t i = 0; i < with.events.n; i++) {
            assert_string_equal(with.events.v[i], without.events.v[i]);
        }
        assert_true(without.any_parent_fd);
        assert_false(with.any_parent_fd);
        assert_true(without.max_open > 150);
        assert_true(with.max_open <= 2 * (int)workers[k] + 2);
        recs_free(&with.events);
        recs_free(&without.events);
    }
    // Concurrent mode: the same entries, none with a parent_fd.
    struct nofd_ctx with, without;
    nofd_walk(root, FRD_WALK_NAMES_ONLY, 2, &without);
    nofd_walk(root, FRD_WALK_NAMES_ONLY | FRD_WALK_NO_PARENT_FD, 2, &with);
    assert_int_equal(with.events.n, without.events.n);
    assert_true(without.any_parent_fd);
    assert_false(with.any_parent_fd);
    recs_free(&with.events);
    recs_free(&without.events);
    tree_remove(root);
}

static atomic_int progress_calls;
static uint64_t progress_last_entries;
static atomic_bool progress_went_back;

static void on_progress(const struct frd_walk_progress *p, void *udata)
{
    (void)udata;
    // One thread at a time: plain variables are safe here if the walker keeps its word.
    if (p->entries < progress_last_entries) {
        atomic_store(&progress_went_back, true);
    }
    progress_last_entries = p->entries;
    atomic_fetch_add(&progress_calls, 1);
}

static enum frd_action slow_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    (void)udata;
    uv_sleep(1);
    return FRD_ACTION_CONTINUE;
}

static void test_walk_progress_hook_runs_at_interval(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    o.on_progress = on_progress;
    o.progress_interval_ms = 1;
    o.max_depth = 2;
    atomic_store(&progress_calls, 0);
    char *fan = tree_path(tree, "fan");
    assert_int_equal(frd_walk(fan, &o, slow_visit, NULL), 0);
    free(fan);
    assert_true(atomic_load(&progress_calls) > 0);
    assert_false(atomic_load(&progress_went_back));
    assert_true(progress_last_entries > 0);
}

/* ---- Errors ---- */

static enum frd_action rec_visit_count(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    (void)udata;
    return FRD_ACTION_CONTINUE;
}

static void test_walk_bad_arguments_are_einval(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    assert_int_equal(frd_walk(NULL, &o, rec_visit, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk(tree, &o, NULL, NULL), FRD_EINVAL);
    o.flags = 1u << 30;
    assert_int_equal(frd_walk(tree, &o, rec_visit, NULL), FRD_EINVAL);
    walk_opts(&o, 0);
    o.min_depth = -1;
    assert_int_equal(frd_walk(tree, &o, rec_visit, NULL), FRD_EINVAL);
    walk_opts(&o, 0);
    o.follow = (enum frd_follow)7;
    assert_int_equal(frd_walk(tree, &o, rec_visit, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_roots(NULL, 0, NULL, rec_visit, NULL), FRD_EINVAL);
    assert_int_equal(frd_read_tree(tree, FRD_WALK_ORDERED, NULL), FRD_EINVAL);
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    walk_opts(&o, 0);
    o.on_error = rec_error;
    // A missing root reaches the caller once: through the hook when there is one...
    assert_int_equal(frd_walk("/nonexistent/frd/root", &o, rec_visit, &c), 0);
    assert_int_equal(c.recs.n, 0);
    assert_int_equal(c.errors.n, 1);
    rec_ctx_free(&c);
    // ... else as the result.
    walk_opts(&o, 0);
    rec_ctx_init(&c, REC_NAMES);
    assert_int_equal(frd_walk("/nonexistent/frd/root", &o, rec_visit, &c), FRD_ENOENT);
    assert_int_equal(c.recs.n, 0);
    rec_ctx_free(&c);
}

/** Every failure in a call to the error hook: path, code and kind of call. */
struct err_ctx {
    struct recs errs;
    atomic_int visits_with_error;
};

static enum frd_action err_record(const struct frd_walk_error *err, void *udata)
{
    struct err_ctx *x = udata;
    char buf[8192];
    int n = snprintf(buf, sizeof(buf), "%s\t%s\t%s", err->path, frd_err_name(err->code),
                     frd_op_name(err->call));
    recs_add(&x->errs, buf, (size_t)n);
    return FRD_ACTION_CONTINUE;
}

static enum frd_action err_visit(const struct frd_walk_entry *we, void *udata)
{
    struct err_ctx *x = udata;
    if (we->entry->error < 0) {
        atomic_fetch_add(&x->visits_with_error, 1);
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_missing_and_empty_roots_reported_once_with_path(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        o.on_error = err_record;
        struct err_ctx x = {0};
        recs_init(&x.errs);
        const char *roots[] = {"", "/nonexistent/frd/root", tree};
        assert_int_equal(frd_walk_roots(roots, 3, &o, err_visit, &x), 0);
        assert_int_equal(x.errs.n, 2);
        recs_sort(&x.errs);
        assert_string_equal(x.errs.v[0], "\tENOENT\tstat"); // path "", as find names it
        assert_string_equal(x.errs.v[1], "/nonexistent/frd/root\tENOENT\tstat");
        recs_free(&x.errs);
        // Without a hook: the tree is walked all the same, the first failed root returned.
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        assert_int_equal(frd_walk_roots(roots, 3, &o, rec_visit_count, NULL), FRD_ENOENT);
        struct frd_list *l;
        assert_int_equal(frd_list_new(&l), 0);
        assert_int_equal(frd_read_tree("", 0, l), FRD_ENOENT);
        frd_list_free(l);
    }
}

static void test_walk_ready_error_policies(void **state)
{
    (void)state;
    struct frd_walk_error e = {.path = "x", .op = "open", .code = FRD_EACCES, .call = FRD_OP_OPEN};
    static const int live[] = {FRD_EACCES,  FRD_EPERM, FRD_ENOENT,
                               FRD_ENOTDIR, FRD_ELOOP, FRD_ECHANGED};
    for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
        e.code = live[i];
        assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_CONTINUE);
        assert_int_equal(frd_walk_continue_on_errors(&e, NULL), FRD_ACTION_CONTINUE);
        assert_int_equal(frd_walk_stop_on_error(&e, NULL), FRD_ACTION_STOP);
    }
    e.code = FRD_EIO;
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_STOP);
    assert_int_equal(frd_walk_continue_on_errors(&e, NULL), FRD_ACTION_CONTINUE);
    assert_string_equal(frd_op_name(FRD_OP_OPEN), "open");
    assert_string_equal(frd_op_name(FRD_OP_LOOP), "loop");
    assert_string_equal(frd_op_name((enum frd_op)99), "other");
    // A dangling entry of a live tree under the policy: the walk goes on to its end.
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.on_error = frd_walk_ignore_permission_errors;
    const char *roots[] = {"/nonexistent/frd/root", tree};
    assert_int_equal(frd_walk_roots(roots, 2, &o, rec_visit_count, NULL), 0);
    o.on_error = frd_walk_stop_on_error;
    assert_int_equal(frd_walk_roots(roots, 2, &o, rec_visit_count, NULL), FRD_ENOENT);
}

static void test_walk_ignore_permission_errors_policy(void **state)
{
    (void)state;
    struct frd_walk_error e = {.path = "x", .op = "open", .code = FRD_EACCES};
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_CONTINUE);
    e.code = FRD_EPERM;
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_CONTINUE);
    e.code = FRD_EIO;
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_STOP);
}

/** In a child process: becomes uid and gid 65534 with no groups, or exits with status 3. */
static void become_nobody(void)
{
    if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0 || getuid() != 65534) {
        _exit(3);
    }
}

/** Waits for a child process. @return its wait status. */
static int wait_child(pid_t pid)
{
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

/**
 * Unreadable directories, as the unprivileged user 65534 (root reads everything): the walk
 * reports each once, goes on, and visits exactly what find (as the same user) prints.
 * Runs in a forked child that drops its privileges; never skipped.
 */
static void test_walk_unreadable_dirs_as_unprivileged_user(void **state)
{
    (void)state;
    char *root = tree_make_root();
    assert_int_equal(chmod(root, 0755), 0);
    tree_dir(root, "open");
    tree_file(root, "open/f", 1);
    tree_dir(root, "closed");
    tree_file(root, "closed/secret", 1);
    tree_dir(root, "noexec");
    tree_file(root, "noexec/g", 1);
    tree_dir(root, "deep");
    tree_dir(root, "deep/closed2");
    char *p = tree_path(root, "closed");
    assert_int_equal(chmod(p, 0000), 0);
    free(p);
    p = tree_path(root, "noexec");
    assert_int_equal(chmod(p, 0644), 0); // readable, not searchable: names, no stat
    free(p);
    p = tree_path(root, "deep/closed2");
    assert_int_equal(chmod(p, 0000), 0);
    free(p);
    // The group must be able to reach the root too.
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        become_nobody();
        if (access(root, R_OK) != 0) {
            _exit(4);
        }
        for (int ordered = 0; ordered < 2; ordered++) {
            struct frd_walk_options o;
            walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
            struct rec_ctx c;
            rec_ctx_init(&c, REC_NAMES);
            o.on_error = rec_error;
            if (frd_walk(root, &o, rec_visit, &c) != 0) {
                _exit(5);
            }
            struct recs f;
            recs_init(&f);
            find_recs("", root, "", REC_NAMES, &f);
            recs_assert_equal(&c.recs, &f, "unprivileged");
            // closed and deep/closed2 cannot be opened; noexec/g cannot be stat'ed.
            size_t eacces = 0;
            for (size_t i = 0; i < c.errors.n; i++) {
                eacces += strstr(c.errors.v[i], "\tEACCES\t") != NULL;
            }
            if (eacces != 3 || c.errors.n != 3) {
                _exit(6);
            }
            recs_free(&f);
            rec_ctx_free(&c);
            // The ready policy goes on after permission errors.
            o.on_error = frd_walk_ignore_permission_errors;
            rec_ctx_init(&c, REC_NAMES);
            if (frd_walk(root, &o, rec_visit, &c) != 0) {
                _exit(7);
            }
            rec_ctx_free(&c);
        }
        _exit(0);
    }
    int st = wait_child(pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    p = tree_path(root, "closed");
    chmod(p, 0755);
    free(p);
    p = tree_path(root, "noexec");
    chmod(p, 0755);
    free(p);
    p = tree_path(root, "deep/closed2");
    chmod(p, 0755);
    free(p);
    tree_remove(root);
}

/** Child of the test below: @return 0, or which check failed (the exit status). */
static int post_order_unreadable_child(const char *root, const char *closed)
{
    for (int ordered = 0; ordered < 2; ordered++) {
        // The whole tree: every directory, the unreadable ones included, is finished once,
        // after its error and its visit; an unreadable one with zero totals.
        struct post_ctx p = {.ordered = ordered};
        pthread_mutex_init(&p.lock, NULL);
        recs_init(&p.events);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        o.on_dir_done = post_done;
        if (frd_walk(root, &o, post_visit, &p) != 0) {
            return 10;
        }
        size_t dirs = 0;
        bool closed_done = false;
        char want[4200];
        snprintf(want, sizeof(want), "D %s 0", closed);
        for (size_t i = 0; i < p.events.n; i++) {
            dirs += p.events.v[i][0] == 'D';
            closed_done |= strcmp(p.events.v[i], want) == 0;
        }
        struct recs f;
        recs_init(&f);
        find_recs("", root, "-type d", REC_NAMES, &f);
        if (dirs != f.n) {
            return 11;
        }
        if (!closed_done) {
            return 12;
        }
        recs_free(&f);
        recs_free(&p.events);
        // An unreadable root: visited, then finished; without an error hook the walk's
        // result is how the failure reaches the caller.
        recs_init(&p.events);
        if (frd_walk(closed, &o, post_visit, &p) != FRD_EACCES || p.events.n != 2 ||
            strcmp(p.events.v[1], want) != 0) {
            return 13;
        }
        recs_free(&p.events);
        // A pruned unreadable root: visited, not read, so nothing failed (find reports no
        // pruned root): the walk returns 0, the error hook is not called, it is not finished.
        p.prune = true;
        recs_init(&p.events);
        o.on_error = post_error;
        if (frd_walk(closed, &o, post_visit, &p) != 0 || p.events.n != 1 ||
            p.events.v[0][0] != 'V' || atomic_load(&p.errors) != 0) {
            return 16;
        }
        // Not pruned, it is reported once (the hook's count is what it saw).
        p.prune = false;
        recs_free(&p.events);
        recs_init(&p.events);
        if (frd_walk(closed, &o, post_visit, &p) != 0 || atomic_load(&p.errors) != 1) {
            return 17;
        }
        o.on_error = NULL;
        atomic_store(&p.errors, 0);
        recs_free(&p.events);
        // Not descended into (max_depth): not finished, readable or not; the root is.
        o.max_depth = 1;
        recs_init(&p.events);
        if (frd_walk(root, &o, post_visit, &p) != 0) {
            return 14;
        }
        size_t done = 0;
        for (size_t i = 0; i < p.events.n; i++) {
            done += p.events.v[i][0] == 'D';
        }
        if (done != 1 || p.events.v[p.events.n - 1][0] != 'D') {
            return 15;
        }
        recs_free(&p.events);
        pthread_mutex_destroy(&p.lock);
    }
    return 0;
}

/**
 * The post-order hook also finishes a directory that was visited with CONTINUE but could
 * not be opened (find -depth prints it after the error), in both modes, as uid 65534.
 */
static void test_walk_post_order_runs_for_unreadable_dir(void **state)
{
    (void)state;
    char *root = tree_make_root();
    assert_int_equal(chmod(root, 0755), 0);
    tree_dir(root, "open");
    tree_file(root, "open/f", 1);
    tree_dir(root, "closed");
    tree_file(root, "closed/secret", 1);
    char *closed = tree_path(root, "closed");
    assert_int_equal(chmod(closed, 0000), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        become_nobody();
        _exit(post_order_unreadable_child(root, closed));
    }
    int st = wait_child(pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    chmod(closed, 0755);
    free(closed);
    tree_remove(root);
}

/* ---- Races ---- */

struct churn {
    char *root;
    atomic_bool stop;
};

static void *churn_main(void *arg)
{
    struct churn *c = arg;
    char path[4096];
    unsigned i = 0;
    while (!atomic_load(&c->stop)) {
        snprintf(path, sizeof(path), "%s/churn/c%u", c->root, i % 50);
        if (i % 3 == 0) {
            mkdir(path, 0755);
        } else if (i % 3 == 1) {
            char f[4200];
            snprintf(f, sizeof(f), "%s/f", path);
            int fd = open(f, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
            if (fd >= 0) {
                close(fd);
            }
        } else {
            char f[4200];
            snprintf(f, sizeof(f), "%s/f", path);
            unlink(f);
            rmdir(path);
        }
        i++;
    }
    return NULL;
}

static void test_walk_tree_mutated_during_walk_reports_stable_entries_once(void **state)
{
    (void)state;
    char *root = tree_make_root();
    make_big_fanout(root, "stable", 10, 20);
    tree_dir(root, "churn");
    struct churn ch = {.root = root};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, churn_main, &ch), 0);
    struct recs want;
    recs_init(&want);
    char sroot[4096];
    snprintf(sroot, sizeof(sroot), "%s/stable", root);
    find_recs("", sroot, "", REC_NAMES, &want);
    recs_sort(&want);
    for (int round = 0; round < 20; round++) {
        struct frd_walk_options o;
        walk_opts(&o, round % 2 ? FRD_WALK_NAMES_ONLY : 0);
        struct rec_ctx c;
        rec_ctx_init(&c, REC_NAMES);
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        recs_sort(&c.recs);
        // Every stable entry exactly once (the churning ones may or may not appear).
        size_t j = 0;
        for (size_t i = 0; i < want.n; i++) {
            while (j < c.recs.n && strcmp(c.recs.v[j], want.v[i]) < 0) {
                j++;
            }
            assert_true(j < c.recs.n);
            assert_string_equal(c.recs.v[j], want.v[i]);
            assert_true(j + 1 == c.recs.n || strcmp(c.recs.v[j + 1], want.v[i]) != 0);
        }
        rec_ctx_free(&c);
    }
    atomic_store(&ch.stop, true);
    pthread_join(t, NULL);
    recs_free(&want);
    tree_remove(root);
}

struct swapper {
    char *root;
    atomic_bool stop;
};

/** Swaps root/s/d (a directory) with a symlink to "/" over and over, atomically. */
static void *swap_main(void *arg)
{
    struct swapper *s = arg;
    char d[4096], dsave[4096], lnk[4096];
    snprintf(d, sizeof(d), "%s/s/d", s->root);
    snprintf(dsave, sizeof(dsave), "%s/s/dsave", s->root);
    snprintf(lnk, sizeof(lnk), "%s/s/lnk", s->root);
    while (!atomic_load(&s->stop)) {
        if (rename(d, dsave) == 0) {
            rename(lnk, d); // d is now a link to /
            rename(d, lnk);
            rename(dsave, d);
        }
    }
    return NULL;
}

struct escape_ctx {
    const char *root;
    size_t root_len;
    atomic_int escapes;
};

static enum frd_action escape_visit(const struct frd_walk_entry *we, void *udata)
{
    struct escape_ctx *e = udata;
    // Everything under root/s/d is named x*, y* or d itself; a name of "/" would be an
    // escape (usr, proc, etc, ...).
    const char *rel = we->path + e->root_len;
    if (strncmp(we->path, e->root, e->root_len) != 0) {
        atomic_fetch_add(&e->escapes, 1);
    } else if (strncmp(rel, "/s/d/", 5) == 0) {
        const char *last = strrchr(rel, '/') + 1;
        if (last[0] != 'x' && last[0] != 'y') {
            atomic_fetch_add(&e->escapes, 1);
        }
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_swapped_dir_symlink_race_never_escapes_root(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "s");
    tree_dir(root, "s/d");
    for (int i = 0; i < 8; i++) {
        char rel[64];
        snprintf(rel, sizeof(rel), "s/d/x%d", i);
        tree_dir(root, rel);
        snprintf(rel, sizeof(rel), "s/d/x%d/y", i);
        tree_file(root, rel, 1);
    }
    tree_symlink(root, "/", "s/lnk");
    struct swapper sw = {.root = root};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, swap_main, &sw), 0);
    struct escape_ctx e = {.root = root, .root_len = strlen(root)};
    for (int i = 0; i < 1000; i++) {
        struct frd_walk_options o;
        walk_opts(&o, (i % 2 ? FRD_WALK_NAMES_ONLY : 0) | (i % 3 == 0 ? FRD_WALK_ORDERED : 0));
        o.fd_budget = i % 5 == 0 ? 1 : 0; // also through the reopen-by-path fallback
        assert_int_equal(frd_walk(root, &o, escape_visit, &e), 0);
    }
    atomic_store(&sw.stop, true);
    pthread_join(t, NULL);
    assert_int_equal(atomic_load(&e.escapes), 0);
    tree_remove(root);
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

/* ---- API v1: options growth, fields, worker index, handles ---- */

static void test_walk_options_without_struct_size_are_einval(void **state)
{
    (void)state;
    struct frd_walk_options o;
    memset(&o, 0, sizeof(o)); // never initialized: refused, not misread
    o.max_depth = -1;
    assert_int_equal(frd_walk(tree, &o, rec_visit, NULL), FRD_EINVAL);
    walk_opts(&o, 0);
    o.fields = 1u << 30;
    assert_int_equal(frd_walk(tree, &o, rec_visit, NULL), FRD_EINVAL);
}

static void test_walk_options_of_an_older_caller_get_defaults(void **state)
{
    (void)state;
    // A caller built when the struct ended before `fields`: its bytes beyond struct_size
    // are garbage here, and must be ignored (fields defaults to every field).
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.struct_size = offsetof(struct frd_walk_options, fields);
    o.fields = FRD_FIELD_TYPE; // beyond what this caller knows: not read
    assert_walk_matches_find(tree, &o, "", "");
}

static void test_walk_fields_type_only_is_names_only(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.fields = FRD_FIELD_TYPE;
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    assert_int_equal(frd_walk(tree, &o, rec_visit, &c), 0);
    struct recs f;
    recs_init(&f);
    find_recs("", tree, "", REC_NAMES, &f);
    recs_assert_equal(&c.recs, &f, "fields=type");
    recs_free(&f);
    rec_ctx_free(&c);
}

/** Checks that callbacks with one worker index never overlap, and that the index is in range. */
struct worker_ctx {
    unsigned workers;
    bool ordered;
    atomic_int busy[256];
    atomic_int calls[256];
    atomic_int bad; /**< out of range, overlapping, or not 0 on an ordered consumer */
};

static void worker_enter(struct worker_ctx *x, unsigned worker, bool consumer)
{
    if (worker >= x->workers || (x->ordered && consumer && worker != 0)) {
        atomic_fetch_add(&x->bad, 1);
        return;
    }
    if (atomic_exchange(&x->busy[worker], 1) != 0) {
        atomic_fetch_add(&x->bad, 1);
    }
    atomic_fetch_add(&x->calls[worker], 1);
}

static void worker_leave(struct worker_ctx *x, unsigned worker)
{
    if (worker < x->workers) {
        atomic_store(&x->busy[worker], 0);
    }
}

static enum frd_action worker_visit(const struct frd_walk_entry *we, void *udata)
{
    struct worker_ctx *x = udata;
    worker_enter(x, we->worker, true);
    uv_sleep(0);
    worker_leave(x, we->worker);
    return FRD_ACTION_CONTINUE;
}

static void worker_post(const struct frd_walk_entry *we, const struct frd_walk_dir_totals *t,
                        void *udata)
{
    (void)t;
    struct worker_ctx *x = udata;
    worker_enter(x, we->worker, true);
    worker_leave(x, we->worker);
}

static void test_walk_worker_index_in_range_and_never_shared(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct worker_ctx *x = calloc(1, sizeof(*x));
        assert_non_null(x);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        o.on_dir_done = worker_post;
        x->workers = o.workers;
        x->ordered = ordered;
        assert_int_equal(frd_walk(tree, &o, worker_visit, x), 0);
        assert_int_equal(atomic_load(&x->bad), 0);
        int total = 0;
        for (unsigned i = 0; i < x->workers; i++) {
            total += atomic_load(&x->calls[i]);
        }
        struct recs f;
        recs_init(&f);
        find_recs("", tree, "", REC_NAMES, &f);
        find_recs("", tree, "-type d", REC_NAMES, &f);
        assert_int_equal((size_t)total, f.n); // every visit and every post-order call
        recs_free(&f);
        free(x);
    }
}

/** A visit that cancels its own walk through the handle frd_walk_start() wrote. */
struct self_cancel_ctx {
    struct frd_walk *walk;
    atomic_int unset; /**< visits that found the handle not yet written */
    atomic_int visits;
    int result; /**< async: what done received */
};

static enum frd_action self_cancel_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct self_cancel_ctx *s = udata;
    atomic_fetch_add(&s->visits, 1);
    if (s->walk == NULL) {
        atomic_fetch_add(&s->unset, 1);
        return FRD_ACTION_CONTINUE;
    }
    frd_walk_cancel(s->walk);
    return FRD_ACTION_CONTINUE;
}

static void self_cancel_done(int result, void *udata)
{
    ((struct self_cancel_ctx *)udata)->result = result;
}

static void test_walk_handle_is_set_before_any_callback(void **state)
{
    (void)state;
    const char *roots[] = {tree};
    for (int i = 0; i < 200; i++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (i % 2 ? FRD_WALK_ORDERED : 0));
        struct self_cancel_ctx s = {0};
        assert_int_equal(frd_walk_start(&s.walk, roots, 1, &o, self_cancel_visit, &s), 0);
        assert_int_equal(frd_walk_join(s.walk), FRD_ECANCELED);
        assert_int_equal(atomic_load(&s.unset), 0);
        assert_true(atomic_load(&s.visits) >= 1);
    }
    for (int i = 0; i < 20; i++) {
        uv_loop_t loop;
        assert_int_equal(uv_loop_init(&loop), 0);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (i % 2 ? FRD_WALK_ORDERED : 0));
        struct self_cancel_ctx s = {.result = 1};
        assert_int_equal(frd_walk_start_async(&s.walk, (struct uv_loop_s *)&loop, roots, 1, &o,
                                              self_cancel_visit, &s, self_cancel_done),
                         0);
        assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
        assert_int_equal(atomic_load(&s.unset), 0);
        assert_int_equal(s.result, FRD_ECANCELED);
        assert_int_equal(uv_loop_close(&loop), 0);
    }
}

/** Per-directory state: each directory visit stores its path; children and post-order check it. */
struct dstate_ctx {
    atomic_int made;
    atomic_int freed;
    atomic_int bad;
    atomic_int visits;
    int stop_at; /**< 0: never stop */
};

struct dstate {
    unsigned magic;
    char path[4096];
};

#define DSTATE_MAGIC 0xd1500du

static bool dstate_is_parent(const struct dstate *st, const struct frd_walk_entry *we)
{
    size_t n = strlen(st->path);
    return st->magic == DSTATE_MAGIC && we->path_len > n + 1 &&
           memcmp(we->path, st->path, n) == 0 && we->path[n] == '/' &&
           strchr(we->path + n + 1, '/') == NULL;
}

static enum frd_action dstate_visit(const struct frd_walk_entry *we, void *udata)
{
    struct dstate_ctx *x = udata;
    int n = atomic_fetch_add(&x->visits, 1) + 1;
    if (!we->is_root && (we->parent_state == NULL || !dstate_is_parent(we->parent_state, we))) {
        atomic_fetch_add(&x->bad, 1);
    }
    if (we->is_root && we->parent_state != NULL) {
        atomic_fetch_add(&x->bad, 1);
    }
    if ((we->dir_state != NULL) != (we->entry->type == FRD_TYPE_DIR)) {
        atomic_fetch_add(&x->bad, 1);
    }
    if (we->dir_state != NULL) {
        if (*we->dir_state != NULL) {
            atomic_fetch_add(&x->bad, 1);
        }
        struct dstate *st = malloc(sizeof(*st));
        assert_non_null(st);
        st->magic = DSTATE_MAGIC;
        snprintf(st->path, sizeof(st->path), "%s", we->path);
        *we->dir_state = st;
        atomic_fetch_add(&x->made, 1);
    }
    if (x->stop_at != 0 && n == x->stop_at) {
        return FRD_ACTION_STOP;
    }
    // Prune one directory that has a state: it must be released all the same.
    const char *slash = strrchr(we->path, '/');
    if (slash != NULL && strcmp(slash, "/d03") == 0) {
        return FRD_ACTION_PRUNE;
    }
    return FRD_ACTION_CONTINUE;
}

static void dstate_post(const struct frd_walk_entry *we, const struct frd_walk_dir_totals *t,
                        void *udata)
{
    (void)t;
    struct dstate_ctx *x = udata;
    const struct dstate *st = we->dir_state != NULL ? *we->dir_state : NULL;
    if (st == NULL || st->magic != DSTATE_MAGIC || strcmp(st->path, we->path) != 0) {
        atomic_fetch_add(&x->bad, 1);
    }
    if (!we->is_root && (we->parent_state == NULL || !dstate_is_parent(we->parent_state, we))) {
        atomic_fetch_add(&x->bad, 1);
    }
}

static void dstate_free(void *state, void *udata)
{
    struct dstate_ctx *x = udata;
    struct dstate *st = state;
    if (st->magic != DSTATE_MAGIC) {
        atomic_fetch_add(&x->bad, 1); // freed twice, or not ours
    }
    st->magic = 0;
    free(st);
    atomic_fetch_add(&x->freed, 1);
}

static void test_walk_dir_state_seen_by_children_and_post_order_freed_once(void **state)
{
    (void)state;
    for (int run = 0; run < 6; run++) {
        bool ordered = run % 2;
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        o.on_dir_done = dstate_post;
        o.on_dir_state_free = dstate_free;
        if (run >= 4) {
            o.max_depth = 2; // directories at depth 2 are visited, not entered
        }
        struct dstate_ctx x = {.stop_at = run >= 2 && run < 4 ? 40 : 0};
        int rc = frd_walk(tree, &o, dstate_visit, &x);
        assert_int_equal(rc, x.stop_at ? FRD_ESTOPPED : 0);
        assert_int_equal(atomic_load(&x.bad), 0);
        assert_true(atomic_load(&x.made) > 0);
        assert_int_equal(atomic_load(&x.made), atomic_load(&x.freed));
    }
}

/** Children hook: drops f01*, keeps dir/sub from being entered, sorts in reverse. */
struct kids_ctx {
    struct rec_ctx rec;
    atomic_int hooks;
    atomic_int bad;
    pthread_mutex_t lock;
    char last_parent[4096]; /**< ordered: the directory of the previous visit */
    char last_name[4096];
    bool ordered;
};

static int kids_reverse(const struct frd_entry *a, const struct frd_entry *b, void *arg)
{
    (void)arg;
    return -strcmp(a->name, b->name);
}

static void kids_hook(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    struct kids_ctx *x = udata;
    atomic_fetch_add(&x->hooks, 1);
    if (dir->entry->type != FRD_TYPE_DIR || frd_walk_children_fd(kids) == FRD_INVALID_FD) {
        atomic_fetch_add(&x->bad, 1);
    }
    size_t n = frd_walk_children_count(kids);
    if (n >= 3) {
        // A range sorted alone: reverse order inside it, the ends where they were.
        const struct frd_entry *first = frd_walk_children_entry(kids, 0);
        const struct frd_entry *last = frd_walk_children_entry(kids, n - 1);
        assert_int_equal(frd_walk_children_sort_range(kids, 1, n - 2, kids_reverse, NULL), 0);
        for (size_t i = 2; i + 1 < n; i++) {
            if (strcmp(frd_walk_children_entry(kids, i - 1)->name,
                       frd_walk_children_entry(kids, i)->name) < 0) {
                atomic_fetch_add(&x->bad, 1);
            }
        }
        if (frd_walk_children_entry(kids, 0) != first ||
            frd_walk_children_entry(kids, n - 1) != last) {
            atomic_fetch_add(&x->bad, 1);
        }
    }
    assert_int_equal(frd_walk_children_sort_range(kids, n, 0, kids_reverse, NULL), 0);
    assert_int_equal(frd_walk_children_sort_range(kids, n, 1, kids_reverse, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_children_sort_range(kids, 0, n + 1, kids_reverse, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_children_sort_range(kids, 1, SIZE_MAX, kids_reverse, NULL),
                     FRD_EINVAL);
    assert_int_equal(frd_walk_children_sort_range(kids, 0, n, NULL, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_children_sort_range(NULL, 0, 0, kids_reverse, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_children_sort(kids, kids_reverse, NULL), 0);
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        if (i > 0 && strcmp(frd_walk_children_entry(kids, i - 1)->name, e->name) < 0) {
            atomic_fetch_add(&x->bad, 1); // not sorted as asked
        }
        if ((e->fields & ~(unsigned)FRD_FIELD_TYPE) != 0) {
            atomic_fetch_add(&x->bad, 1); // stat'ed before the hook
        }
        // The path its visit will have: the directory's, a slash, the name.
        size_t len = 0;
        const char *path = frd_walk_children_path(kids, i, &len);
        char want[8192];
        int wlen = snprintf(want, sizeof(want), "%s/%s", dir->path, e->name);
        if (path == NULL || strcmp(path, want) != 0 || len != (size_t)wlen) {
            atomic_fetch_add(&x->bad, 1);
        }
        if (strncmp(e->name, "f01", 3) == 0) {
            assert_int_equal(frd_walk_children_drop(kids, i), 0);
        }
        if (strcmp(e->name, "sub") == 0) {
            assert_int_equal(frd_walk_children_skip_descent(kids, i), 0);
        }
    }
    assert_null(frd_walk_children_entry(kids, n));
    assert_null(frd_walk_children_path(kids, n, NULL));
    assert_int_equal(frd_walk_children_drop(kids, n), FRD_EINVAL);
}

static enum frd_action kids_visit(const struct frd_walk_entry *we, void *udata)
{
    struct kids_ctx *x = udata;
    if (x->ordered && !we->is_root) {
        // Within one directory, names come in the hook's (reverse) order.
        const char *slash = strrchr(we->path, '/');
        size_t plen = (size_t)(slash - we->path);
        if (plen == strlen(x->last_parent) && memcmp(we->path, x->last_parent, plen) == 0 &&
            strcmp(slash + 1, x->last_name) > 0) {
            atomic_fetch_add(&x->bad, 1);
        }
        snprintf(x->last_parent, sizeof(x->last_parent), "%.*s", (int)plen, we->path);
        snprintf(x->last_name, sizeof(x->last_name), "%s", slash + 1);
    }
    return rec_visit(we, &x->rec);
}

static void test_walk_children_hook_drops_reorders_and_skips_descent(void **state)
{
    (void)state;
    for (int run = 0; run < 4; run++) {
        bool ordered = run & 1;
        bool names = run & 2;
        struct kids_ctx *x = calloc(1, sizeof(*x));
        assert_non_null(x);
        x->ordered = ordered;
        rec_ctx_init(&x->rec, names ? REC_NAMES : REC_FULL);
        struct frd_walk_options o;
        walk_opts(&o, (names ? FRD_WALK_NAMES_ONLY : 0) | (ordered ? FRD_WALK_ORDERED : 0));
        o.on_children = kids_hook;
        assert_int_equal(frd_walk(tree, &o, kids_visit, x), 0);
        assert_int_equal(atomic_load(&x->bad), 0);
        struct recs f;
        recs_init(&f);
        find_recs("", tree, "-name 'f01*' -prune -o -path '*/dir/sub/*' -prune -o -true",
                  names ? REC_NAMES : REC_FULL, &f);
        recs_assert_equal(&x->rec.recs, &f, "children hook");
        // One hook per directory listed: every directory but dir/sub and those below it.
        struct recs d;
        recs_init(&d);
        find_recs("", tree, "-path '*/dir/sub/*' -prune -o -type d -not -name sub", REC_NAMES, &d);
        assert_int_equal((size_t)atomic_load(&x->hooks), d.n);
        recs_free(&d);
        recs_free(&f);
        rec_ctx_free(&x->rec);
        free(x);
    }
}

/* ---- The children hook with fields: sort by size ---- */

#define BYSIZE_FILES 10

struct bysize_ctx {
    char dir[4096]; /**< the directory whose files are checked */
    uint64_t sizes[BYSIZE_FILES + 4];
    size_t n;
    atomic_int bad;
};

static int bysize_desc(const struct frd_entry *a, const struct frd_entry *b, void *arg)
{
    (void)arg;
    return a->size > b->size ? -1 : a->size < b->size ? 1 : 0;
}

static void bysize_hook(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                        void *udata)
{
    (void)dir;
    struct bysize_ctx *x = udata;
    size_t n = frd_walk_children_count(kids);
    for (size_t i = 0; i < n; i++) {
        if (!(frd_walk_children_entry(kids, i)->fields & FRD_FIELD_SIZE)) {
            atomic_fetch_add(&x->bad, 1); // the size was asked for before the hook
        }
    }
    assert_int_equal(frd_walk_children_sort(kids, bysize_desc, NULL), 0);
}

static enum frd_action bysize_visit(const struct frd_walk_entry *we, void *udata)
{
    struct bysize_ctx *x = udata;
    size_t dlen = strlen(x->dir);
    if (we->entry->type == FRD_TYPE_REG && strncmp(we->path, x->dir, dlen) == 0 &&
        we->path[dlen] == '/' && strchr(we->path + dlen + 1, '/') == NULL) {
        if (!(we->entry->fields & FRD_FIELD_SIZE) || x->n == BYSIZE_FILES + 4) {
            atomic_fetch_add(&x->bad, 1);
            return FRD_ACTION_CONTINUE;
        }
        x->sizes[x->n++] = we->entry->size;
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_children_fields_sort_by_size_in_ordered_mode(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "d");
    tree_dir(root, "d/sub");
    char rel[64];
    for (int i = 0; i < BYSIZE_FILES; i++) {
        // Sizes in another order than the names.
        snprintf(rel, sizeof(rel), "d/f%02d", i);
        tree_file(root, rel, (size_t)((i * 7) % BYSIZE_FILES + 1) * 100);
    }
    tree_file(root, "d/sub/inner", 5);
    // Visits that need only the size (no stat after the hook) and all fields (a stat after).
    unsigned visit_fields[] = {FRD_FIELD_TYPE | FRD_FIELD_SIZE, FRD_FIELDS_ALL};
    for (size_t run = 0; run < 2; run++) {
        struct bysize_ctx x;
        memset(&x, 0, sizeof(x));
        snprintf(x.dir, sizeof(x.dir), "%s/d", root);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_ORDERED);
        o.fields = visit_fields[run];
        o.on_children = bysize_hook;
        o.children_fields = FRD_FIELD_SIZE;
        assert_int_equal(frd_walk(root, &o, bysize_visit, &x), 0);
        assert_int_equal(atomic_load(&x.bad), 0);
        assert_int_equal(x.n, BYSIZE_FILES);
        for (size_t i = 0; i < x.n; i++) {
            // Every size made once, largest first.
            assert_int_equal(x.sizes[i], (BYSIZE_FILES - i) * 100);
        }
    }
    tree_remove(root);
}

/* ---- parent_fd in every callback, beyond the descriptor budget and PATH_MAX ---- */

#define DEEP_LEVELS 3000

struct deep_ctx {
    atomic_int checked;
    atomic_int bad;
    atomic_int visits;
    atomic_int posts;
    atomic_int hooks;
};

static void deep_check(struct deep_ctx *x, const struct frd_walk_entry *we)
{
    if (we->is_root) {
        return; // a root has no parent directory in the walk
    }
    struct stat st;
    if (we->parent_fd == FRD_INVALID_FD ||
        fstatat(we->parent_fd, we->entry->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        atomic_fetch_add(&x->bad, 1);
        return;
    }
    atomic_fetch_add(&x->checked, 1);
}

static enum frd_action deep_visit(const struct frd_walk_entry *we, void *udata)
{
    struct deep_ctx *x = udata;
    atomic_fetch_add(&x->visits, 1);
    deep_check(x, we);
    return FRD_ACTION_CONTINUE;
}

static void deep_post(const struct frd_walk_entry *we, const struct frd_walk_dir_totals *t,
                      void *udata)
{
    (void)t;
    struct deep_ctx *x = udata;
    atomic_fetch_add(&x->posts, 1);
    deep_check(x, we);
}

static void deep_hook(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    (void)kids;
    struct deep_ctx *x = udata;
    atomic_fetch_add(&x->hooks, 1);
    deep_check(x, dir);
}

/** The pool's reopen steps of the walk that just ended (frd__test_pool_done). */
static uint64_t deep_reopen_steps;

static void deep_pool_done(const struct frd__pool_stats *stats)
{
    deep_reopen_steps = atomic_load(&stats->reopen_steps);
}

/**
 * A chain of 3,000 directories under a budget of 20 descriptors, at each worker count: every
 * callback gets a valid parent_fd, and the directories are reached without reopening the
 * chain along its path over and over (a step per level per directory: millions of opens,
 * quadratic; with the budget shared well, a few per directory at most).
 */
static void test_walk_parent_fd_valid_in_every_callback_3000_deep_budget_20(void **state)
{
    (void)state;
    char *root = tree_make_root();
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    for (int i = 0; i < DEEP_LEVELS; i++) {
        assert_int_equal(mkdirat(fd, "d", 0755), 0);
        int f = openat(fd, "f", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        close(f);
        int next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(next >= 0);
        close(fd);
        fd = next;
    }
    close(fd);
    for (int run = 0; run < 4; run++) {
        bool ordered = run & 1;
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        o.fd_budget = 20;
        o.on_dir_done = deep_post;
        if (run & 2) {
            o.on_children = deep_hook;
        }
        struct deep_ctx x = {0};
        frd__test_pool_done = deep_pool_done;
        deep_reopen_steps = UINT64_MAX;
        int rc = frd_walk(root, &o, deep_visit, &x);
        frd__test_pool_done = NULL;
        assert_int_equal(rc, 0);
        assert_true(deep_reopen_steps <= 4 * DEEP_LEVELS);
        assert_int_equal(atomic_load(&x.bad), 0);
        // root + DEEP_LEVELS directories and files; every directory finished.
        assert_int_equal(atomic_load(&x.visits), 1 + 2 * DEEP_LEVELS);
        assert_int_equal(atomic_load(&x.posts), 1 + DEEP_LEVELS);
        int hooks = run & 2 ? 1 + DEEP_LEVELS : 0;
        assert_int_equal(atomic_load(&x.hooks), hooks);
        // Every callback but those of the root: its visit, its post-order and its hook.
        assert_int_equal(atomic_load(&x.checked), 3 * DEEP_LEVELS + (hooks ? hooks - 1 : 0));
    }
    char cmd[4200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
    free(root);
}

static void kids_keep_all(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    (void)dir;
    (void)kids;
    (void)udata;
}

/**
 * As uid 65534, names only: nothing is stat'ed, yet a directory listed in a directory that
 * cannot be searched is reported as find reports it (its stat fails: once, by its stat,
 * visited with the error, not entered), also at the depth limit where nothing is opened.
 * @return 0 or a step.
 */
static int names_only_unsearchable_child(const char *root)
{
    char want_open[4200];
    char want_sub[4200];
    snprintf(want_open, sizeof(want_open), "%s/closed\tEACCES\topen", root);
    snprintf(want_sub, sizeof(want_sub), "%s/noexec/sub\tEACCES\tstat", root);
    for (int run = 0; run < 8; run++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (run & 1 ? FRD_WALK_ORDERED : 0));
        o.on_error = err_record;
        if (run & 2) {
            o.on_children = kids_keep_all;
        }
        if (run & 4) {
            o.max_depth = 2; // noexec/sub is visited, never opened
        }
        struct err_ctx x = {0};
        recs_init(&x.errs);
        if (frd_walk(root, &o, err_visit, &x) != 0) {
            return 20 + run;
        }
        recs_sort(&x.errs);
        if (x.errs.n != 2 || strcmp(x.errs.v[0], want_open) != 0 ||
            strcmp(x.errs.v[1], want_sub) != 0) {
            for (size_t i = 0; i < x.errs.n; i++) {
                fprintf(stderr, "error: %s\n", x.errs.v[i]);
            }
            return 30 + run;
        }
        if (atomic_load(&x.visits_with_error) != 1) {
            return 40 + run;
        }
        recs_free(&x.errs);
    }
    return 0;
}

/** As uid 65534: each failure once in the hook, with its kind of call. @return 0 or a step. */
static int errors_once_child(const char *root)
{
    char want_open[4200];
    char want_stat[4200];
    char want_sub[4200];
    snprintf(want_open, sizeof(want_open), "%s/closed\tEACCES\topen", root);
    snprintf(want_stat, sizeof(want_stat), "%s/noexec/f\tEACCES\tstat", root);
    // A directory whose stat failed is reported once, by its stat, and not entered.
    snprintf(want_sub, sizeof(want_sub), "%s/noexec/sub\tEACCES\tstat", root);
    for (int run = 0; run < 4; run++) {
        struct frd_walk_options o;
        walk_opts(&o, run & 1 ? FRD_WALK_ORDERED : 0);
        o.on_error = err_record;
        if (run & 2) {
            o.on_children = kids_keep_all; // stat after the hook: the same failures, once
        }
        struct err_ctx x = {0};
        recs_init(&x.errs);
        if (frd_walk(root, &o, err_visit, &x) != 0) {
            return 20 + run;
        }
        recs_sort(&x.errs);
        if (x.errs.n != 3 || strcmp(x.errs.v[0], want_open) != 0 ||
            strcmp(x.errs.v[1], want_stat) != 0 || strcmp(x.errs.v[2], want_sub) != 0) {
            for (size_t i = 0; i < x.errs.n; i++) {
                fprintf(stderr, "error: %s\n", x.errs.v[i]);
            }
            return 30 + run;
        }
        // The entries whose stat failed are visited, once each, with their error as data.
        if (atomic_load(&x.visits_with_error) != 2) {
            return 40 + run;
        }
        recs_free(&x.errs);
    }
    return 0;
}

/**
 * One failure, one report: an unreadable directory (open), an entry that cannot be stat'ed
 * (stat) and a directory that cannot be stat'ed (stat, not entered) reach the hook once
 * each, in both modes and with the children hook.
 */
static void test_walk_each_failure_reported_once_as_unprivileged_user(void **state)
{
    (void)state;
    char *root = tree_make_root();
    assert_int_equal(chmod(root, 0755), 0);
    tree_dir(root, "closed");
    tree_file(root, "closed/x", 1);
    tree_dir(root, "noexec");
    tree_file(root, "noexec/f", 1);
    tree_dir(root, "noexec/sub");
    tree_file(root, "noexec/sub/g", 1);
    char *closed = tree_path(root, "closed");
    char *noexec = tree_path(root, "noexec");
    assert_int_equal(chmod(closed, 0000), 0);
    assert_int_equal(chmod(noexec, 0644), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        become_nobody();
        int rc = errors_once_child(root);
        _exit(rc != 0 ? rc : names_only_unsearchable_child(root));
    }
    int st = wait_child(pid);
    chmod(closed, 0755);
    chmod(noexec, 0755);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    free(closed);
    free(noexec);
    tree_remove(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_full_matches_find),
        cmocka_unit_test(test_walk_names_only_matches_find),
        cmocka_unit_test(test_walk_depth_limits_match_find),
        cmocka_unit_test(test_walk_trailing_slash_joins_like_find),
        cmocka_unit_test(test_walk_follow_all_matches_find_L),
        cmocka_unit_test(test_walk_real_dir_repeating_a_linked_ancestor_is_eloop),
        cmocka_unit_test_teardown(test_walk_bind_mount_cycle_is_eloop_never_walked, bind_teardown),
        cmocka_unit_test(test_walk_root_link_follow_never_is_a_link),
        cmocka_unit_test(test_walk_skip_hidden_leaves_dot_entries_out),
        cmocka_unit_test(test_walk_odd_names_are_reported_byte_exact),
        cmocka_unit_test(test_walk_read_tree_matches_find_relative_paths),
        cmocka_unit_test(test_walk_prune_skips_children),
        cmocka_unit_test(test_walk_stop_ends_walk_with_estopped),
        cmocka_unit_test(test_walk_cancel_from_another_thread_stops_callbacks),
        cmocka_unit_test(test_walk_start_and_join_without_cancel_finishes),
        cmocka_unit_test(test_walk_async_start_reports_on_libuv_loop),
        cmocka_unit_test(test_walk_symlink_loops_are_eloop_never_walked_twice),
        cmocka_unit_test(test_walk_unique_visits_each_file_and_dir_once),
        cmocka_unit_test(test_walk_one_file_system_matches_find_xdev),
        cmocka_unit_test(test_walk_ordered_output_identical_at_1_2_8_workers),
        cmocka_unit_test(test_walk_ordered_large_directory_shared_prefixes_in_byte_order),
        cmocka_unit_test(test_walk_ordered_deep_tree_past_its_labels_in_find_s_order),
        cmocka_unit_test(test_walk_ordered_listing_order_is_readdir_order),
        cmocka_unit_test(test_walk_ordered_no_parent_fd_keeps_no_directory_open),
        cmocka_unit_test(test_walk_post_order_after_all_descendants),
        cmocka_unit_test(test_walk_progress_hook_runs_at_interval),
        cmocka_unit_test(test_walk_bad_arguments_are_einval),
        cmocka_unit_test(test_walk_ignore_permission_errors_policy),
        cmocka_unit_test(test_walk_unreadable_dirs_as_unprivileged_user),
        cmocka_unit_test(test_walk_post_order_runs_for_unreadable_dir),
        cmocka_unit_test(test_walk_tree_mutated_during_walk_reports_stable_entries_once),
        cmocka_unit_test(test_walk_swapped_dir_symlink_race_never_escapes_root),
        cmocka_unit_test(test_walk_volume_class_table),
        cmocka_unit_test(test_walk_options_without_struct_size_are_einval),
        cmocka_unit_test(test_walk_options_of_an_older_caller_get_defaults),
        cmocka_unit_test(test_walk_fields_type_only_is_names_only),
        cmocka_unit_test(test_walk_worker_index_in_range_and_never_shared),
        cmocka_unit_test(test_walk_handle_is_set_before_any_callback),
        cmocka_unit_test(test_walk_dir_state_seen_by_children_and_post_order_freed_once),
        cmocka_unit_test(test_walk_children_hook_drops_reorders_and_skips_descent),
        cmocka_unit_test(test_walk_children_fields_sort_by_size_in_ordered_mode),
        cmocka_unit_test(test_walk_missing_and_empty_roots_reported_once_with_path),
        cmocka_unit_test(test_walk_ready_error_policies),
        cmocka_unit_test(test_walk_each_failure_reported_once_as_unprivileged_user),
        cmocka_unit_test(test_walk_parent_fd_valid_in_every_callback_3000_deep_budget_20),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk", tests, group_setup, group_teardown);
}
