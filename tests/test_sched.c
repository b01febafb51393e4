// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's scheduler (walker/sched/) alone, under a made-up layer above it: tasks that
 * make tasks (a tree of them, as directories make subdirectories) are each run exactly once
 * and the walk ends exactly when none is left, at 1, 2 and 8 workers, run by the caller or
 * in the background; a stop lets no callback begin after it and none run on; a pool that
 * starts wide adds its workers through the hook and keeps callbacks to nworkers slots; a
 * consumer stands for worker 0; a task queued before the start can be taken back.
 */
#include "internal.h"
#include "sched/sched.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uv.h>

#include <cmocka.h>

/** Tasks of the made-up tree: a task at depth d < DEPTH makes FANOUT tasks at d + 1. */
#define DEPTH   6
#define FANOUT  5
#define MAX_IDS 20000
#define WORKERS 32

/** A task: its id (index in `runs`) and depth, packed into the pointer the deques hold. */
static void *task_make(uint32_t id, uint32_t depth)
{
    return (void *)(uintptr_t)(((uint64_t)id << 8 | depth) + 1);
}

static void task_split(void *t, uint32_t *id, uint32_t *depth)
{
    uint64_t v = (uint64_t)(uintptr_t)t - 1;
    *id = (uint32_t)(v >> 8);
    *depth = (uint32_t)(v & 0xff);
}

/** The made-up layer above: its workers, and what the test checks afterwards. */
static struct {
    struct frd__sched *s;
    unsigned nworkers;                         /**< the callback slots */
    struct frd__sched_worker *sw[WORKERS + 1]; /**< bound to upper[i]; [WORKERS]: consumer */
    unsigned upper[WORKERS + 1];               /**< the upper side: its index */
    atomic_uint next_id;
    atomic_uchar runs[MAX_IDS]; /**< times each task ran */
    atomic_int threads_run;     /**< hooks.run calls */
    atomic_int ran[WORKERS + 1];
    atomic_int added; /**< hooks.worker_add calls */
    atomic_int done;  /**< hooks.done calls */
    atomic_int woken; /**< hooks.wake calls */
    // Callbacks: in one, how many at once, the most, any after the stop returned.
    atomic_int in_cb;
    atomic_int most_in_cb;
    atomic_int bad_slot;
    atomic_int stop_at; /**< the task id that stops the walk (-1: none) */
    atomic_bool stop_returned;
    atomic_int after_stop;
} up;

static unsigned expected_tasks(void)
{
    unsigned n = 0;
    unsigned level = 1;
    for (unsigned d = 0; d <= DEPTH; d++) {
        n += level;
        level *= FANOUT;
    }
    return n;
}

/** A callback, as the walk makes one: under a slot, between cb_enter and cb_leave. */
static void callback(struct frd__sched_worker *sw, uint32_t id)
{
    unsigned slot = frd__sched_slot_hold(sw);
    if (slot >= up.nworkers) {
        atomic_fetch_add(&up.bad_slot, 1);
    }
    if (!frd__sched_cb_enter(sw)) {
        return;
    }
    if (atomic_load(&up.stop_returned)) {
        atomic_fetch_add(&up.after_stop, 1);
    }
    int now = atomic_fetch_add(&up.in_cb, 1) + 1;
    int most = atomic_load(&up.most_in_cb);
    while (now > most && !atomic_compare_exchange_weak(&up.most_in_cb, &most, now)) {
    }
    bool stop = (int)id == atomic_load(&up.stop_at);
    atomic_fetch_sub(&up.in_cb, 1);
    frd__sched_cb_leave(sw);
    if (stop) {
        frd__sched_stop(up.s, FRD_ESTOPPED, sw);
        atomic_store(&up.stop_returned, true);
    }
}

/** A worker's loop (hooks.run): each task makes its children, calls back, is done. */
static void worker_run(void *arg)
{
    unsigned i = *(unsigned *)arg;
    struct frd__sched_worker *sw = up.sw[i];
    atomic_fetch_add(&up.threads_run, 1);
    atomic_fetch_add(&up.ran[i], 1);
    if (i == WORKERS) {
        return; // the consumer takes no tasks (the ordered mode's has its own)
    }
    void *t;
    while ((t = frd__sched_next(sw)) != NULL) {
        frd__sched_probe(sw);
        frd__sched_slot_yield(sw);
        uint32_t id, depth;
        task_split(t, &id, &depth);
        atomic_fetch_add(&up.runs[id], 1);
        if (!frd__sched_stopping(up.s)) {
            for (unsigned k = 0; k < FANOUT && depth < DEPTH; k++) {
                uint32_t cid = atomic_fetch_add(&up.next_id, 1);
                if (cid >= MAX_IDS || frd__sched_push(sw, task_make(cid, depth + 1)) < 0) {
                    atomic_fetch_add(&up.bad_slot, 1000); // the test's own limit, or no memory
                }
            }
            callback(sw, id);
        }
        frd__sched_task_done(up.s);
    }
}

static int hook_worker_add(void *ctx, unsigned id)
{
    (void)ctx;
    up.upper[id] = id;
    up.sw[id] = frd__sched_worker(up.s, id);
    frd__sched_bind(up.sw[id], &up.upper[id]);
    atomic_fetch_add(&up.added, 1);
    return 0;
}

static void hook_wake(void *ctx)
{
    (void)ctx;
    atomic_fetch_add(&up.woken, 1);
}

static void hook_done(void *ctx)
{
    (void)ctx;
    atomic_fetch_add(&up.done, 1);
}

/** Makes a scheduler for `cfg` and binds its first workers (and the consumer). */
static void make(const struct frd__sched_config *cfg)
{
    memset(&up, 0, sizeof(up));
    atomic_store(&up.stop_at, -1);
    struct frd__sched_hooks hooks = {
        .ctx = &up,
        .worker_add = hook_worker_add,
        .run = worker_run,
        .wake = hook_wake,
        .done = hook_done,
    };
    assert_int_equal(frd__sched_new(&up.s, cfg, &hooks), 0);
    up.nworkers = cfg->nworkers;
    for (unsigned i = 0; i < cfg->nworkers; i++) {
        up.upper[i] = i;
        up.sw[i] = frd__sched_worker(up.s, i);
        frd__sched_bind(up.sw[i], &up.upper[i]);
    }
    struct frd__sched_worker *c = frd__sched_consumer(up.s);
    assert_true((c != NULL) == cfg->consumer);
    if (c != NULL) {
        up.upper[WORKERS] = WORKERS;
        up.sw[WORKERS] = c;
        frd__sched_bind(c, &up.upper[WORKERS]);
    }
}

/** Seeds the tree's root task. */
static void seed(void)
{
    atomic_store(&up.next_id, 1);
    assert_int_equal(frd__sched_seed(up.s, task_make(0, 0)), 0);
}

/** Every task made ran exactly once. */
static void assert_each_task_ran_once(void)
{
    unsigned made = atomic_load(&up.next_id);
    assert_int_equal(made, expected_tasks());
    for (unsigned i = 0; i < made; i++) {
        if (atomic_load(&up.runs[i]) != 1) {
            print_error("task %u ran %u times\n", i, (unsigned)atomic_load(&up.runs[i]));
        }
        assert_int_equal(atomic_load(&up.runs[i]), 1);
    }
    assert_int_equal(atomic_load(&up.bad_slot), 0);
}

static void test_sched_runs_each_task_once_and_ends_at_1_2_8_workers(void **state)
{
    (void)state;
    static const unsigned counts[] = {1, 2, 8};
    for (size_t c = 0; c < 3; c++) {
        struct frd__sched_config cfg = {.nworkers = counts[c], .policy = FRD__POOL_FIXED};
        make(&cfg);
        seed();
        // The caller runs worker 0; the others get threads.
        assert_int_equal(frd__sched_start(up.s, up.sw[0]), 0);
        worker_run(&up.upper[0]);
        frd__sched_join(up.s);
        assert_each_task_ran_once();
        assert_int_equal(atomic_load(&up.threads_run), (int)counts[c]);
        assert_int_equal(atomic_load(&up.ran[0]), 1);
        assert_int_equal(frd__sched_result(up.s), 0);
        assert_int_equal(frd__sched_queued(up.s), 0);
        assert_true(atomic_load(&up.most_in_cb) <= (int)counts[c]);
        frd__sched_free(up.s);
    }
}

static void test_sched_background_start_tells_the_end_once(void **state)
{
    (void)state;
    struct frd__sched_config cfg = {.nworkers = 4, .policy = FRD__POOL_FIXED};
    make(&cfg);
    seed();
    assert_int_equal(frd__sched_start(up.s, NULL), 0); // every worker on a thread
    frd__sched_join(up.s);
    assert_each_task_ran_once();
    assert_int_equal(atomic_load(&up.threads_run), 4);
    assert_int_equal(atomic_load(&up.done), 1); // the last thread out, once
    frd__sched_free(up.s);
}

static void test_sched_stop_lets_no_callback_begin_after_it(void **state)
{
    (void)state;
    static const unsigned counts[] = {1, 2, 8};
    for (size_t c = 0; c < 3; c++) {
        struct frd__sched_config cfg = {.nworkers = counts[c], .policy = FRD__POOL_FIXED};
        make(&cfg);
        seed();
        atomic_store(&up.stop_at, 40);
        assert_int_equal(frd__sched_start(up.s, up.sw[0]), 0);
        worker_run(&up.upper[0]);
        frd__sched_join(up.s);
        assert_int_equal(frd__sched_result(up.s), FRD_ESTOPPED);
        assert_int_equal(atomic_load(&up.after_stop), 0);
        assert_true(atomic_load(&up.woken) >= 1); // the layer above's waiters too
        // Every task pushed was still taken and let go of (pending reached zero), the ones
        // after the stop made no more.
        unsigned made = atomic_load(&up.next_id);
        assert_int_equal(atomic_load(&up.bad_slot), 0);
        for (unsigned i = 0; i < made; i++) {
            assert_int_equal(atomic_load(&up.runs[i]), 1);
        }
        // Once joined, a stop changes nothing.
        frd__sched_stop(up.s, FRD_ECANCELED, NULL);
        assert_int_equal(frd__sched_result(up.s), FRD_ESTOPPED);
        frd__sched_free(up.s);
    }
}

static void test_sched_wide_pool_adds_workers_and_keeps_callbacks_to_its_slots(void **state)
{
    (void)state;
    struct frd__sched_config cfg = {.nworkers = 2, .policy = FRD__POOL_WIDE, .max_workers = 6};
    make(&cfg);
    assert_int_equal(frd__sched_capacity(up.s), 6);
    seed();
    assert_int_equal(frd__sched_start(up.s, up.sw[0]), 0);
    worker_run(&up.upper[0]);
    frd__sched_join(up.s);
    assert_each_task_ran_once();
    assert_int_equal(atomic_load(&up.added), 4); // workers 2 to 5, through the hook
    assert_int_equal(frd__sched_created(up.s), 6);
    assert_int_equal(atomic_load(&up.threads_run), 6);
    assert_true(atomic_load(&up.most_in_cb) <= 2); // callbacks: the 2 slots, never more
    frd__sched_free(up.s);
}

static void test_sched_consumer_stands_for_worker_0(void **state)
{
    (void)state;
    struct frd__sched_config cfg = {.nworkers = 3, .policy = FRD__POOL_FIXED, .consumer = true};
    make(&cfg);
    assert_int_equal(frd__sched_slot(up.sw[WORKERS]), 0); // the consumer calls back as 0
    seed();
    // In the background: workers 1 and 2 and the consumer get threads, worker 0 none. The
    // consumer takes no tasks: here it returns at once, and workers 1 and 2 steal the root.
    assert_int_equal(frd__sched_start(up.s, NULL), 0);
    frd__sched_join(up.s);
    assert_int_equal(atomic_load(&up.ran[0]), 0);
    assert_int_equal(atomic_load(&up.ran[1]), 1);
    assert_int_equal(atomic_load(&up.ran[2]), 1);
    assert_int_equal(atomic_load(&up.ran[WORKERS]), 1);
    assert_int_equal(atomic_load(&up.done), 1);
    frd__sched_free(up.s);
}

static void test_sched_seeds_can_be_taken_back_before_the_start(void **state)
{
    (void)state;
    struct frd__sched_config cfg = {.nworkers = 2, .policy = FRD__POOL_FIXED};
    make(&cfg);
    for (uint32_t i = 0; i < 5; i++) {
        assert_int_equal(frd__sched_seed(up.s, task_make(i, DEPTH)), 0);
    }
    assert_int_equal(frd__sched_queued(up.s), 5);
    for (uint32_t i = 5; i-- > 0;) {
        assert_ptr_equal(frd__sched_unseed(up.s), task_make(i, DEPTH)); // newest first
    }
    assert_null(frd__sched_unseed(up.s));
    assert_int_equal(frd__sched_queued(up.s), 0);
    frd__sched_free(up.s);
}

static void test_sched_config_settles_to_what_can_widen(void **state)
{
    (void)state;
    struct frd__sched_config c = {.nworkers = 4, .policy = FRD__POOL_ADAPTIVE, .max_workers = 32};
    frd__sched_config_settle(&c);
    assert_int_equal(c.policy, FRD__POOL_ADAPTIVE);
    assert_int_equal(c.max_workers, 32);
    c = (struct frd__sched_config){.nworkers = 4, .policy = FRD__POOL_ADAPTIVE, .max_workers = 4};
    frd__sched_config_settle(&c); // no room to widen
    assert_int_equal(c.policy, FRD__POOL_FIXED);
    assert_int_equal(c.max_workers, 4);
    c = (struct frd__sched_config){.nworkers = 33, .policy = FRD__POOL_WIDE, .max_workers = 64};
    frd__sched_config_settle(&c); // more slots than the mask holds
    assert_int_equal(c.policy, FRD__POOL_FIXED);
    assert_int_equal(c.max_workers, 33);
    c = (struct frd__sched_config){
        .nworkers = 2, .policy = FRD__POOL_ADAPTIVE, .max_workers = 8, .consumer = true};
    frd__sched_config_settle(&c); // a consumer's pool is fixed
    assert_int_equal(c.policy, FRD__POOL_FIXED);
    assert_int_equal(c.max_workers, 2);
    c = (struct frd__sched_config){.nworkers = 3, .policy = FRD__POOL_FIXED, .max_workers = 99};
    frd__sched_config_settle(&c);
    assert_int_equal(c.max_workers, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sched_runs_each_task_once_and_ends_at_1_2_8_workers),
        cmocka_unit_test(test_sched_background_start_tells_the_end_once),
        cmocka_unit_test(test_sched_stop_lets_no_callback_begin_after_it),
        cmocka_unit_test(test_sched_wide_pool_adds_workers_and_keeps_callbacks_to_its_slots),
        cmocka_unit_test(test_sched_consumer_stands_for_worker_0),
        cmocka_unit_test(test_sched_seeds_can_be_taken_back_before_the_start),
        cmocka_unit_test(test_sched_config_settles_to_what_can_widen),
    };
    return cmocka_run_group_tests_name("sched", tests, NULL, NULL);
}
