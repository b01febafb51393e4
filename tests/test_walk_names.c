// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of the names hook (opts.on_names): what it is handed and what is visited are
 * together what a walk of visits alone gives, each entry once, with the paths, depths and
 * descriptors the visits would have; what it is never handed (directories, entries the walk
 * stats, followed links, ordered walks, walks with more fields, hidden names skipped,
 * entries above min_depth); a stop from it. The tree has a directory bigger than one read
 * of its listing, whose later reads other workers visit.
 * FRD_TEST_WORKERS sets the worker count (ctest runs each walker suite at 1, 2 and 8).
 */
#include "tree.h"
#include "walk_common.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <sys/stat.h>

/** Files in the big directory: more than one 64 KiB read of its listing. */
enum { BIG_FILES = 4000 };

static char *root;

static int group_setup(void **state)
{
    (void)state;
    root = tree_make_root();
    tree_file(root, "top", 1);
    tree_dir(root, "a");
    tree_file(root, "a/f1", 10);
    tree_file(root, "a/.hidden", 1);
    tree_dir(root, "a/b");
    tree_dir(root, "a/b/c");
    tree_file(root, "a/b/c/deep", 3);
    tree_dir(root, "a/empty");
    tree_symlink(root, "f1", "a/link_to_file");
    tree_symlink(root, "b", "a/link_to_dir");
    tree_symlink(root, "nowhere", "a/dangling");
    tree_fifo(root, "a/fifo");
    tree_dir(root, "big");
    for (int i = 0; i < BIG_FILES; i++) {
        char rel[64];
        snprintf(rel, sizeof(rel), "big/file-with-a-longish-name-%05d", i);
        tree_file(root, rel, 0);
    }
    tree_dir(root, "big/sub");
    tree_file(root, "big/sub/inner", 1);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    tree_remove(root);
    return 0;
}

struct names_ctx {
    struct recs paths;      /**< every path, from visits and from the names hook */
    struct recs from_names; /**< the paths the names hook was handed */
    atomic_int calls;
    atomic_int bad; /**< what the hook must never be handed, counted */
    unsigned workers;
    size_t root_len;
    int min_depth;    /**< the walk's: no entry of the hook is shallower */
    bool check_fd;    /**< parent_fd must be the directory's (no FRD_WALK_NO_PARENT_FD) */
    int stop_at_call; /**< > 0: the hook's call of this number stops the walk */
};

static void names_ctx_init(struct names_ctx *c, int min_depth, bool check_fd)
{
    memset(c, 0, sizeof(*c));
    recs_init(&c->paths);
    recs_init(&c->from_names);
    atomic_init(&c->calls, 0);
    atomic_init(&c->bad, 0);
    c->workers = test_workers();
    c->root_len = strlen(root);
    c->min_depth = min_depth;
    c->check_fd = check_fd;
}

static void names_ctx_free(struct names_ctx *c)
{
    recs_free(&c->paths);
    recs_free(&c->from_names);
}

static enum frd_action nv_visit(const struct frd_walk_entry *we, void *udata)
{
    struct names_ctx *c = udata;
    recs_add(&c->paths, we->path, we->path_len);
    return FRD_ACTION_CONTINUE;
}

/** The depth of the entries of the directory `dir`: one more than its '/'s past the root. */
static unsigned entries_depth(const struct names_ctx *c, const char *dir)
{
    unsigned depth = 1;
    for (const char *p = dir + c->root_len; *p != '\0'; p++) {
        depth += *p == '/';
    }
    return depth;
}

static enum frd_action nv_names(const struct frd_walk_names *n, void *udata)
{
    struct names_ctx *c = udata;
    int call = atomic_fetch_add(&c->calls, 1) + 1;
    bool ok = n->count > 0 && n->worker < c->workers && strlen(n->dir_path) == n->dir_path_len &&
              strncmp(n->dir_path, root, c->root_len) == 0 &&
              n->depth == entries_depth(c, n->dir_path) && (int)n->depth >= c->min_depth &&
              (c->check_fd ? n->parent_fd != FRD_INVALID_FD : n->parent_fd == FRD_INVALID_FD);
    bool slash = !(n->dir_path_len > 0 && n->dir_path[n->dir_path_len - 1] == '/');
    for (size_t i = 0; i < n->count; i++) {
        const struct frd_walk_name *e = &n->names[i];
        ok = ok && e->type != FRD_TYPE_DIR && e->type != FRD_TYPE_UNKNOWN &&
             strlen(e->name) == e->name_len;
        char path[4096];
        int len = snprintf(path, sizeof(path), "%s%s%s", n->dir_path, slash ? "/" : "", e->name);
        assert_true(len > 0 && (size_t)len < sizeof(path));
        recs_add(&c->paths, path, (size_t)len);
        recs_add(&c->from_names, path, (size_t)len);
        struct stat st;
        if (c->check_fd && fstatat(n->parent_fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            ok = false; // the descriptor is the directory's
        }
    }
    if (!ok) {
        atomic_fetch_add(&c->bad, 1);
    }
    return c->stop_at_call > 0 && call >= c->stop_at_call ? FRD_ACTION_STOP : FRD_ACTION_CONTINUE;
}

/** Walks the tree with `flags` and min_depth, the visits alone (*plain) and with the names
 *  hook too (*c, which the caller made). @return the second walk's result. */
static int walk_both(unsigned flags, unsigned fields, enum frd_follow follow, int min_depth,
                     struct recs *plain, struct names_ctx *c)
{
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = flags;
    o.fields = fields;
    o.follow = follow;
    o.min_depth = min_depth;
    o.workers = test_workers();
    struct names_ctx p;
    names_ctx_init(&p, min_depth, false);
    assert_int_equal(frd_walk(root, &o, nv_visit, &p), 0);
    *plain = p.paths;
    p.paths = (struct recs){0};
    recs_init(&p.paths);
    names_ctx_free(&p);
    o.on_names = nv_names;
    return frd_walk(root, &o, nv_visit, c);
}

static void test_names_and_visits_are_the_walk_of_visits(void **state)
{
    (void)state;
    const unsigned flag_sets[] = {FRD_WALK_NAMES_ONLY, FRD_WALK_NAMES_ONLY | FRD_WALK_NO_PARENT_FD};
    for (size_t k = 0; k < sizeof(flag_sets) / sizeof(flag_sets[0]); k++) {
        struct recs plain;
        struct names_ctx c;
        names_ctx_init(&c, 0, !(flag_sets[k] & FRD_WALK_NO_PARENT_FD));
        assert_int_equal(walk_both(flag_sets[k], 0, FRD_FOLLOW_NEVER, 0, &plain, &c), 0);
        recs_assert_equal(&plain, &c.paths, "visits and names against visits alone");
        assert_int_equal(atomic_load(&c.bad), 0);
        // Every file, link and fifo went to the hook: the big directory's 4,000 files too,
        // across reads (and, with several workers, read by others).
        assert_true(c.from_names.n >= BIG_FILES + 7);
        assert_true(atomic_load(&c.calls) >= 2);
        recs_free(&plain);
        names_ctx_free(&c);
    }
    // fields = FRD_FIELD_TYPE is a walk of names too.
    struct recs plain;
    struct names_ctx c;
    names_ctx_init(&c, 0, true);
    assert_int_equal(walk_both(0, FRD_FIELD_TYPE, FRD_FOLLOW_NEVER, 0, &plain, &c), 0);
    recs_assert_equal(&plain, &c.paths, "fields = FRD_FIELD_TYPE");
    assert_int_equal(atomic_load(&c.bad), 0);
    assert_true(c.from_names.n >= BIG_FILES + 7);
    recs_free(&plain);
    names_ctx_free(&c);
}

static void test_names_hook_not_handed_what_needs_more(void **state)
{
    (void)state;
    struct {
        unsigned flags;
        unsigned fields;
        enum frd_follow follow;
        int min_depth;
        bool never_called;
    } cases[] = {
        {FRD_WALK_NAMES_ONLY | FRD_WALK_ORDERED, 0, FRD_FOLLOW_NEVER, 0, true},
        {0, FRD_FIELD_TYPE | FRD_FIELD_SIZE, FRD_FOLLOW_NEVER, 0, true},
        {FRD_WALK_NAMES_ONLY | FRD_WALK_SKIP_HIDDEN, 0, FRD_FOLLOW_NEVER, 0, true},
        {FRD_WALK_NAMES_ONLY | FRD_WALK_LINK_TARGETS, 0, FRD_FOLLOW_NEVER, 0, true},
        {FRD_WALK_NAMES_ONLY, 0, FRD_FOLLOW_ALL, 0, false},
        {FRD_WALK_NAMES_ONLY, 0, FRD_FOLLOW_NEVER, 2, false},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct recs plain;
        struct names_ctx c;
        names_ctx_init(&c, cases[k].min_depth, true);
        assert_int_equal(walk_both(cases[k].flags, cases[k].fields, cases[k].follow,
                                   cases[k].min_depth, &plain, &c),
                         0);
        recs_assert_equal(&plain, &c.paths, "visits and names against visits alone");
        assert_int_equal(atomic_load(&c.bad), 0);
        if (cases[k].never_called) {
            assert_int_equal(atomic_load(&c.calls), 0);
        } else {
            assert_true(atomic_load(&c.calls) > 0);
        }
        if (cases[k].follow == FRD_FOLLOW_ALL) {
            // Links the walk follows are visited as their targets, never handed over.
            for (size_t i = 0; i < c.from_names.n; i++) {
                const char *base = strrchr(c.from_names.v[i], '/');
                assert_non_null(base);
                assert_int_not_equal(strncmp(base + 1, "link_to_", 8), 0);
            }
        }
        recs_free(&plain);
        names_ctx_free(&c);
    }
}

static void test_names_hook_stops_the_walk(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = FRD_WALK_NAMES_ONLY;
    o.workers = test_workers();
    o.on_names = nv_names;
    struct names_ctx c;
    names_ctx_init(&c, 0, true);
    c.stop_at_call = 1;
    assert_int_equal(frd_walk(root, &o, nv_visit, &c), FRD_ESTOPPED);
    // Calls that began before the stop end; none begins after it (one per worker at most).
    assert_true(atomic_load(&c.calls) >= 1);
    assert_true((unsigned)atomic_load(&c.calls) <= c.workers);
    names_ctx_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_visits_are_the_walk_of_visits),
        cmocka_unit_test(test_names_hook_not_handed_what_needs_more),
        cmocka_unit_test(test_names_hook_stops_the_walk),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_names", tests, group_setup, group_teardown);
}
