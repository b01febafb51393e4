// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of the hooks: post-order visits (unreadable directories included, as an
 * unprivileged user), per-directory state, the children hook, and a valid parent_fd in every
 * callback beyond the descriptor budget and PATH_MAX.
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
        // Not pruned, it is reported once (the hook's count is what it saw), and returned
        // though the hook said go on: a root that cannot be walked is the walk's failure.
        p.prune = false;
        recs_free(&p.events);
        recs_init(&p.events);
        if (frd_walk(closed, &o, post_visit, &p) != FRD_EACCES || atomic_load(&p.errors) != 1) {
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_post_order_runs_for_unreadable_dir),
        cmocka_unit_test(test_walk_dir_state_seen_by_children_and_post_order_freed_once),
        cmocka_unit_test(test_walk_children_hook_drops_reorders_and_skips_descent),
        cmocka_unit_test(test_walk_children_fields_sort_by_size_in_ordered_mode),
        cmocka_unit_test(test_walk_parent_fd_valid_in_every_callback_3000_deep_budget_20),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_hooks", tests, group_setup, group_teardown);
}
