// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walks whose threads cannot all be started (walker/sched/threads.c), under a real limit:
 * RLIMIT_NPROC in a child process that has become a uid of its own (no other process has
 * it, so only its own threads count, whatever else runs on the machine), set to its threads
 * now plus the few it may add. At 1, 2 and 8 workers, concurrent and ordered, with
 * frd_walk_roots(), frd_walk_start() and frd_walk_start_async(): each walk visits what a
 * walk without a limit visits (in the same order when ordered) and returns 0, on as many
 * workers as threads could start (the pool's own count, frd__test_pool_done), callbacks'
 * indices below that; a background walk with not one thread to start returns FRD_EAGAIN and
 * calls nothing. Then frd_walk_unref() and frd_walk_ref(): the loop is not kept alive by an
 * unreferenced walk that still runs. Needs root (to become another uid): skipped otherwise.
 */
#include "internal.h"
#include "sched/sched.h"
#include "support/walk_common.h"

#include <dirent.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <uv.h>

static char *tree;

/** How a walk is started. */
enum kind {
    KIND_SYNC,  /**< frd_walk_roots(): the caller's thread is a worker (or the consumer) */
    KIND_START, /**< frd_walk_start() and frd_walk_join() */
    KIND_ASYNC, /**< frd_walk_start_async() on a libuv loop */
};

static const char *const kind_names[] = {"sync", "start", "async"};

/** What one walk saw. */
struct seen {
    struct recs paths;
    atomic_uint max_index;
    atomic_uint visits;
    int done_calls; /**< an async walk's done (the loop's thread) */
    int done_result;
};

static enum frd_action seen_visit(const struct frd_walk_entry *we, void *udata)
{
    struct seen *s = udata;
    recs_add(&s->paths, we->path, strlen(we->path));
    unsigned m = atomic_load(&s->max_index);
    while (we->worker > m && !atomic_compare_exchange_weak(&s->max_index, &m, we->worker)) {
    }
    atomic_fetch_add(&s->visits, 1);
    return FRD_ACTION_CONTINUE;
}

static void seen_init(struct seen *s)
{
    recs_init(&s->paths);
    atomic_init(&s->max_index, 0);
    atomic_init(&s->visits, 0);
    s->done_calls = 0;
    s->done_result = 1;
}

static void options(struct frd_walk_options *o, bool ordered, unsigned workers)
{
    frd_walk_options_init(o);
    o->workers = workers;
    o->flags = ordered ? FRD_WALK_ORDERED : 0;
    o->on_error = frd_walk_continue_on_errors;
}

/** Workers that ran in the last walk (its pool's stats, as it was joined). */
static atomic_uint started;

static void on_pool_done(const struct frd__pool_stats *st)
{
    atomic_store(&started, st->started);
}

/** An async walk's done: udata is the walk's (struct seen). */
static void on_async_done(int result, void *udata)
{
    struct seen *s = udata;
    s->done_calls++;
    s->done_result = result;
}

/** The threads of this process now (/proc/self/task). */
static unsigned threads_now(void)
{
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) {
        return 0;
    }
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n;
}

static void *noop_thread(void *arg)
{
    return arg;
}

/** In the child: a failure, said on stderr; the exit status is its line. */
#define CHILD_CHECK(cond)                                                                 \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "test_walk_threads: child: %s (line %d)\n", #cond, __LINE__); \
            fflush(stderr);                                                               \
            _exit(__LINE__ % 250 + 5);                                                    \
        }                                                                                 \
    } while (0)

/**
 * In a child process: becomes a uid of its own, lets itself start `spare` more threads,
 * walks the tree and checks what it saw against `want` (sorted unless ordered).
 */
static void child_walk(enum kind kind, bool ordered, unsigned workers, unsigned spare,
                       struct recs *want)
{
    // A thread started and joined first: a sanitizer's runtime starts its own helper
    // thread with the first one (ThreadSanitizer's), which must not take the room given.
    pthread_t t;
    CHILD_CHECK(pthread_create(&t, NULL, noop_thread, NULL) == 0);
    CHILD_CHECK(pthread_join(t, NULL) == 0);
    uid_t uid = 2000000000u + (uid_t)getpid(); // no other process has it
    CHILD_CHECK(setgroups(0, NULL) == 0 && setgid(uid) == 0 && setuid(uid) == 0);
    unsigned now = threads_now();
    CHILD_CHECK(now >= 1);
    struct rlimit rl = {.rlim_cur = now + spare, .rlim_max = now + spare};
    CHILD_CHECK(setrlimit(RLIMIT_NPROC, &rl) == 0);
    if (spare == 0) { // the limit is real: not one thread more
        CHILD_CHECK(pthread_create(&t, NULL, noop_thread, NULL) != 0);
    }

    struct frd_walk_options o;
    options(&o, ordered, workers);
    struct seen s;
    seen_init(&s);
    frd__test_pool_done = on_pool_done;
    atomic_store(&started, 0);
    const char *roots[] = {tree};
    // Workers that run: the caller's thread (or the consumer, standing for worker 0), and
    // one per thread started.
    unsigned expect = (kind == KIND_SYNC ? 1 : 0) + spare;
    expect = expect < workers ? expect : workers;
    int rc;
    struct frd_walk *const sentinel = (struct frd_walk *)&s;
    struct frd_walk *w = sentinel;
    if (kind == KIND_SYNC) {
        rc = frd_walk_roots(roots, 1, &o, seen_visit, &s);
    } else if (kind == KIND_START) {
        rc = frd_walk_start(&w, roots, 1, &o, seen_visit, &s);
        if (rc == 0) {
            rc = frd_walk_join(w);
        }
    } else {
        uv_loop_t loop;
        CHILD_CHECK(uv_loop_init(&loop) == 0);
        rc = frd_walk_start_async(&w, &loop, roots, 1, &o, seen_visit, &s, on_async_done);
        CHILD_CHECK(uv_run(&loop, UV_RUN_DEFAULT) == 0);
        CHILD_CHECK(s.done_calls == (rc == 0 ? 1 : 0)); // done once, or never
        if (rc == 0) {
            rc = s.done_result;
        }
        CHILD_CHECK(uv_loop_close(&loop) == 0); // the walk closed its handle: nothing left
    }
    if (expect == 0) {
        // No thread for a background walk: it fails before any callback, *out untouched.
        CHILD_CHECK(rc == FRD_EAGAIN);
        CHILD_CHECK(w == sentinel);
        CHILD_CHECK(atomic_load(&s.visits) == 0);
        CHILD_CHECK(atomic_load(&started) == 0); // no pool ran
        _exit(0);
    }
    CHILD_CHECK(rc == 0);
    CHILD_CHECK(atomic_load(&started) == expect);
    CHILD_CHECK(atomic_load(&s.max_index) < expect);
    if (!ordered) {
        recs_sort(&s.paths);
    }
    CHILD_CHECK(s.paths.n == want->n);
    for (size_t i = 0; i < want->n; i++) {
        CHILD_CHECK(strcmp(s.paths.v[i], want->v[i]) == 0);
    }
    _exit(0);
}

/** The paths a walk without a limit visits (sorted unless ordered). */
static void reference(bool ordered, unsigned workers, struct recs *out)
{
    struct frd_walk_options o;
    options(&o, ordered, workers);
    struct seen s;
    seen_init(&s);
    assert_int_equal(frd_walk(tree, &o, seen_visit, &s), 0);
    if (!ordered) {
        recs_sort(&s.paths);
    }
    *out = s.paths;
}

/** Every case of a kind of walk: both modes, 1, 2 and 8 workers, 0 to 8 threads to spare. */
static void run_kind(enum kind kind)
{
    if (geteuid() != 0) {
        skip(); // a uid of its own takes root
    }
    static const unsigned counts[] = {1, 2, 8};
    static const unsigned spares[] = {0, 1, 2, 8};
    for (int ordered = 0; ordered < 2; ordered++) {
        for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            struct recs want;
            reference(ordered, counts[c], &want);
            assert_true(want.n > 1000);
            for (size_t k = 0; k < sizeof(spares) / sizeof(spares[0]); k++) {
                fflush(NULL);
                pid_t pid = fork();
                assert_true(pid >= 0);
                if (pid == 0) {
                    child_walk(kind, ordered, counts[c], spares[k], &want);
                }
                int st = wait_child(pid);
                if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
                    fail_msg("%s walk, %s, %u workers, %u threads to spare: status %#x",
                             kind_names[kind], ordered ? "ordered" : "concurrent", counts[c],
                             spares[k], (unsigned)st);
                }
            }
            recs_free(&want);
        }
    }
}

/** frd_walk_roots() with fewer threads than workers: the caller's own at least. */
static void test_walk_threads_sync_runs_on_the_threads_that_start(void **state)
{
    (void)state;
    run_kind(KIND_SYNC);
}

/** frd_walk_start(): one thread at least, else FRD_EAGAIN and nothing called. */
static void test_walk_threads_start_runs_on_the_threads_that_start(void **state)
{
    (void)state;
    run_kind(KIND_START);
}

/** frd_walk_start_async(): the same, done called once or never, the loop left empty. */
static void test_walk_threads_async_runs_on_the_threads_that_start(void **state)
{
    (void)state;
    run_kind(KIND_ASYNC);
}

/** A walk held in its first visit until the test lets it go. */
struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool open;
    bool entered;
    int done_calls; /**< done (the loop's thread) */
    int done_result;
};

static enum frd_action gate_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct gate *g = udata;
    pthread_mutex_lock(&g->lock);
    g->entered = true;
    pthread_cond_broadcast(&g->cond);
    while (!g->open) {
        pthread_cond_wait(&g->cond, &g->lock);
    }
    pthread_mutex_unlock(&g->lock);
    return FRD_ACTION_CONTINUE;
}

static void gate_done(int result, void *udata)
{
    struct gate *g = udata;
    g->done_calls++;
    g->done_result = result;
}

/**
 * frd_walk_unref(): a loop whose only handle is an unreferenced walk is not alive, and
 * uv_run() returns while the walk still runs (held in a visit); frd_walk_ref() makes it
 * alive again, and the loop then runs until done.
 */
static void test_walk_unref_lets_the_loop_end_while_the_walk_runs(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        uv_loop_t loop;
        assert_int_equal(uv_loop_init(&loop), 0);
        struct gate g = {.open = false, .entered = false, .done_calls = 0, .done_result = 1};
        pthread_mutex_init(&g.lock, NULL);
        pthread_cond_init(&g.cond, NULL);
        struct frd_walk_options o;
        options(&o, ordered, test_workers());
        const char *roots[] = {tree};
        struct frd_walk *w;
        assert_int_equal(frd_walk_start_async(&w, &loop, roots, 1, &o, gate_visit, &g, gate_done),
                         0);
        pthread_mutex_lock(&g.lock);
        while (!g.entered) {
            pthread_cond_wait(&g.cond, &g.lock);
        }
        pthread_mutex_unlock(&g.lock);
        assert_true(uv_loop_alive(&loop)); // referenced: the walk keeps it alive
        assert_int_equal(frd_walk_unref(w), 0);
        assert_int_equal(frd_walk_unref(w), 0); // idempotent
        assert_false(uv_loop_alive(&loop));
        assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0); // returns: the walk is held
        assert_int_equal(g.done_calls, 0);
        assert_int_equal(frd_walk_ref(w), 0);
        assert_true(uv_loop_alive(&loop));
        pthread_mutex_lock(&g.lock);
        g.open = true;
        pthread_cond_broadcast(&g.cond);
        pthread_mutex_unlock(&g.lock);
        assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0); // until done, the handle closed
        assert_int_equal(g.done_calls, 1);
        assert_int_equal(g.done_result, 0);
        assert_int_equal(uv_loop_close(&loop), 0);
        pthread_cond_destroy(&g.cond);
        pthread_mutex_destroy(&g.lock);
    }
}

/** frd_walk_unref() and frd_walk_ref() take an async walk only. */
static void test_walk_unref_of_no_async_walk_is_einval(void **state)
{
    (void)state;
    assert_int_equal(frd_walk_unref(NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_ref(NULL), FRD_EINVAL);
    struct frd_walk_options o;
    options(&o, false, test_workers());
    struct seen s;
    seen_init(&s);
    const char *roots[] = {tree};
    struct frd_walk *w;
    assert_int_equal(frd_walk_start(&w, roots, 1, &o, seen_visit, &s), 0);
    assert_int_equal(frd_walk_unref(w), FRD_EINVAL);
    assert_int_equal(frd_walk_ref(w), FRD_EINVAL);
    assert_int_equal(frd_walk_join(w), 0);
    assert_true(atomic_load(&s.visits) > 1000);
    recs_free(&s.paths);
}

static int group_setup(void **state)
{
    (void)state;
    tree = walk_tree_make();
    // A directory over one kernel batch: handed out in batches (concurrent), a large
    // listing (ordered), with fewer workers than asked.
    make_big_fanout(tree, "big", 1, 3000);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    tree_remove(tree);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_threads_sync_runs_on_the_threads_that_start),
        cmocka_unit_test(test_walk_threads_start_runs_on_the_threads_that_start),
        cmocka_unit_test(test_walk_threads_async_runs_on_the_threads_that_start),
        cmocka_unit_test(test_walk_unref_lets_the_loop_end_while_the_walk_runs),
        cmocka_unit_test(test_walk_unref_of_no_async_walk_is_einval),
    };
    return cmocka_run_group_tests_name("walk_threads", tests, group_setup, group_teardown);
}
