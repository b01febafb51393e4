// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tasks (walker/sched/tasks.h): each worker's own deque first, then stealing, then parking;
 * ending exactly when no task is left.
 *
 * Termination: `pending` counts tasks pushed and not yet finished; a task is finished only
 * after it has pushed its children, so pending reaches zero exactly once, when the whole
 * tree is done. The worker that brings it to zero wakes everyone.
 *
 * Parking (no lost wake-up): a worker about to sleep takes the lot's lock, adds itself to
 * `sleepers`, and checks `queued` once more; a pusher adds to `queued` and then reads
 * `sleepers`. Both are sequentially consistent, so one of the two sees the other: either the
 * sleeper finds the task, or the pusher finds the sleeper and signals under the same lock,
 * which the sleeper holds until it waits. `queued` is raised before the task enters a deque
 * and lowered after it left one, so it never counts fewer tasks than the deques hold (a
 * sleeper that sees it raised before the push retries until the task is there).
 */
#include "sched_int.h"

/** Counts a task taken out of a deque. */
static void tasks_unqueue(struct frd__sched *s)
{
    size_t before = atomic_fetch_sub(&s->queued, 1);
    FRD_ASSERT(before > 0); // raised before the task entered its deque
    (void)before;
}

/** Counts a task whose deque could not take it (queued and pending were raised for it). */
static void tasks_unpush(struct frd__sched *s)
{
    tasks_unqueue(s);
    frd__sched_task_done(s);
}

int frd__sched_push(struct frd__sched_worker *sw, void *task)
{
    struct frd__sched *s = sw->sched;
    // Counted before it can be stolen and finished; the pushing task is still pending, so
    // undoing it cannot end the walk.
    FRD_ASSERT(sw->id < sched_created(s)); // a worker that runs (threads.c)
    size_t before = atomic_fetch_add(&s->pending, 1);
    FRD_ASSERT(before > 0); // the pusher's own task
    (void)before;
    atomic_fetch_add(&s->queued, 1);
    if (frd__deque_push(&sw->dq, task) < 0) {
        tasks_unpush(s);
        return FRD_ENOMEM;
    }
    if (atomic_load(&s->sleepers) > 0) {
        uv_mutex_lock(&s->lot);
        uv_cond_signal(&s->lot_cond);
        uv_mutex_unlock(&s->lot);
    }
    return 0;
}

int frd__sched_seed(struct frd__sched *s, void *task)
{
    FRD_ASSERT(s->nthreads == 0 && atomic_load(&s->running) == 0); // before the start
    atomic_fetch_add(&s->pending, 1);
    atomic_fetch_add(&s->queued, 1);
    if (frd__deque_push(&s->workers[0].dq, task) < 0) {
        tasks_unpush(s);
        return FRD_ENOMEM;
    }
    return 0;
}

void *frd__sched_unseed(struct frd__sched *s)
{
    // Before the start, after a start that started nothing, or after the join.
    FRD_ASSERT(s->nthreads == 0 && atomic_load(&s->running) == 0);
    void *task = frd__deque_pop(&s->workers[0].dq);
    if (task != NULL) {
        tasks_unqueue(s);
        frd__sched_task_done(s);
    }
    return task;
}

void frd__sched_task_done(struct frd__sched *s)
{
    size_t before = atomic_fetch_sub(&s->pending, 1);
    FRD_ASSERT(before > 0); // finished once per task pushed or seeded
    if (before == 1) {
        uv_mutex_lock(&s->lot);
        s->done = true;
        uv_cond_broadcast(&s->lot_cond);
        uv_cond_broadcast(&s->retire_cond);
        uv_mutex_unlock(&s->lot);
    }
}

size_t frd__sched_queued(const struct frd__sched *s)
{
    return atomic_load_explicit(&s->queued, memory_order_relaxed);
}

bool frd__sched_idle(const struct frd__sched *s)
{
    return atomic_load_explicit(&s->sleepers, memory_order_relaxed) > 0;
}

static uint64_t tasks_rng_next(struct frd__sched_worker *sw)
{
    // xorshift64: cheap, per worker, good enough to spread victims.
    uint64_t x = sw->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sw->rng = x;
    return x;
}

static void *tasks_steal(struct frd__sched_worker *sw)
{
    struct frd__sched *s = sw->sched;
    unsigned n = sched_created(s);
    if (n < 2) {
        return NULL;
    }
    // A random start, then every other worker once.
    unsigned start = (unsigned)(tasks_rng_next(sw) % n);
    for (unsigned k = 0; k < n; k++) {
        struct frd__sched_worker *victim = &s->workers[(start + k) % n];
        if (victim == sw) {
            continue;
        }
        void *task = frd__deque_steal(&victim->dq, &sw->dq);
        if (task != NULL) {
            tasks_unqueue(s); // the others it took moved from one deque to another
            return task;
        }
    }
    return NULL;
}

/** Parks a worker at or past `target` until the pool widens again. @return false when the
 *  walk is over (done). */
static bool tasks_retire(struct frd__sched_worker *sw)
{
    struct frd__sched *s = sw->sched;
    frd__sched_slot_yield(sw);
    uint64_t t0 = uv_hrtime();
    uv_mutex_lock(&s->lot);
    while (!s->done && !atomic_load(&s->stop) && sw->id >= atomic_load(&s->target)) {
        uv_cond_wait(&s->retire_cond, &s->lot);
        sw->win.parks++;
    }
    bool over = s->done;
    uv_mutex_unlock(&s->lot);
    sw->win.parked += uv_hrtime() - t0;
    return !over;
}

/**
 * Parks the worker until a task may be there or the walk is done. @return false when it is
 * done.
 */
static bool tasks_park(struct frd__sched_worker *sw)
{
    struct frd__sched *s = sw->sched;
    frd__sched_slot_yield(sw); // never park holding a slot another worker may wait for
    uv_mutex_lock(&s->lot);
    if (s->done) {
        uv_mutex_unlock(&s->lot);
        return false;
    }
    int before = atomic_fetch_add(&s->sleepers, 1);
    FRD_ASSERT(before >= 0 && (unsigned)before < sched_created(s)); // not this one yet
    (void)before;
    bool more = true;
    if (atomic_load(&s->queued) > 0) {
        // A task was pushed since this worker looked: take it rather than sleep.
    } else if (atomic_load(&s->pending) == 0) {
        s->done = true;
        uv_cond_broadcast(&s->lot_cond);
        more = false;
    } else {
        uint64_t t0 = s->policy == FRD__POOL_ADAPTIVE ? uv_hrtime() : 0;
        uv_cond_wait(&s->lot_cond, &s->lot);
        if (t0 != 0) {
            sw->win.parked += uv_hrtime() - t0;
            sw->win.parks++;
        }
        more = !s->done;
    }
    int after = atomic_fetch_sub(&s->sleepers, 1);
    FRD_ASSERT(after > 0); // counted in above
    (void)after;
    uv_mutex_unlock(&s->lot);
    return more;
}

void *frd__sched_next(struct frd__sched_worker *sw)
{
    struct frd__sched *s = sw->sched;
    FRD_ASSERT(sw->id < s->capacity);      // a worker: the consumer takes no tasks
    FRD_ASSERT(sw->id < sched_created(s)); // one that runs: the pool shrinks to those
    for (;;) {
        if (s->policy != FRD__POOL_FIXED &&
            sw->id >= atomic_load_explicit(&s->target, memory_order_relaxed) && !tasks_retire(sw)) {
            return NULL;
        }
        void *task = frd__deque_pop(&sw->dq);
        if (task != NULL) {
            tasks_unqueue(s);
            return task;
        }
        task = tasks_steal(sw);
        if (task != NULL) {
            return task;
        }
        if (!tasks_park(sw)) {
            return NULL;
        }
    }
}
