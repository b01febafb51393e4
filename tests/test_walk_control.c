// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of the walk's control: prune, stop, cancel, background and libuv-loop starts,
 * the handle, progress reports, the options' size, the worker index callbacks see.
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

/* ---- Background and libuv-loop walks (prune, stop and cancel: test_walk_portable.c) ---- */

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_start_and_join_without_cancel_finishes),
        cmocka_unit_test(test_walk_async_start_reports_on_libuv_loop),
        cmocka_unit_test(test_walk_progress_hook_runs_at_interval),
        cmocka_unit_test(test_walk_options_without_struct_size_are_einval),
        cmocka_unit_test(test_walk_options_of_an_older_caller_get_defaults),
        cmocka_unit_test(test_walk_worker_index_in_range_and_never_shared),
        cmocka_unit_test(test_walk_handle_is_set_before_any_callback),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_control", tests, group_setup, group_teardown);
}
