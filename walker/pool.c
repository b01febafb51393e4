// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's own threads on libuv: starting and joining them, handing out tasks
 * (own deque, then stealing), parking idle workers, ending exactly when no task is left,
 * and stopping so that no callback starts afterwards.
 *
 * Termination: `pending` counts directory tasks pushed and not yet finished; a task is
 * finished only after it has pushed its children, so pending reaches zero exactly once,
 * when the whole tree is done. The worker that brings it to zero wakes everyone.
 *
 * Parking (no lost wake-up): a worker about to sleep takes the lot's lock, adds itself to
 * `sleepers`, and checks `queued` once more; a pusher adds to `queued` and then reads
 * `sleepers`. Both are sequentially consistent, so one of the two sees the other: either the
 * sleeper finds the task, or the pusher finds the sleeper and signals under the same lock,
 * which the sleeper holds until it waits.
 *
 * Stopping: each thread sets its `in_cb` flag (seq_cst) before it checks `stop` and calls a
 * callback, and clears it after. frd__walk_stop() sets `stop` (seq_cst) and then waits for
 * every other thread's flag to clear. A thread that sets its flag after that must see
 * `stop`, so once the stop returns no callback can start, and none is running.
 */
#include "walker.h"

#include <string.h>

bool frd__cb_enter(struct frd__worker *w)
{
    atomic_store(&w->in_cb, 1);
    if (atomic_load(&w->walk->stop)) {
        atomic_store_explicit(&w->in_cb, 0, memory_order_release);
        return false;
    }
    return true;
}

void frd__cb_leave(struct frd__worker *w)
{
    atomic_store_explicit(&w->in_cb, 0, memory_order_release);
}

/** Waits until `w` is outside any callback, unless `w` is the calling thread. */
static void wait_out_of_callback(struct frd__worker *w, const uv_thread_t *self)
{
    unsigned spins = 0;
    while (atomic_load(&w->in_cb)) {
        if (uv_thread_equal(&w->tid, self)) {
            return; // called from inside that callback: it is the one returning
        }
        if (++spins > 1000) {
            uv_sleep(1);
        }
    }
}

void frd__walk_stop(struct frd_walk *walk, int code, struct frd__worker *self)
{
    int expected = 0;
    atomic_compare_exchange_strong(&walk->first_err, &expected, code);
    atomic_store(&walk->stop, true);
    uv_thread_t me = uv_thread_self();
    for (unsigned i = 0; i < walk->nworkers; i++) {
        if (&walk->workers[i] != self) {
            wait_out_of_callback(&walk->workers[i], &me);
        }
    }
    if (walk->consumer != NULL && walk->consumer != self) {
        wait_out_of_callback(walk->consumer, &me);
    }
    frd__pool_wake_all(walk);
}

void frd__pool_wake_all(struct frd_walk *walk)
{
    uv_mutex_lock(&walk->sched.lot);
    uv_cond_broadcast(&walk->sched.lot_cond);
    uv_mutex_unlock(&walk->sched.lot);
    if (walk->ordered.wake != NULL) {
        walk->ordered.wake(walk); // the ordered mode's own waiters
    }
}

int frd__pool_push(struct frd__worker *w, struct frd__wnode *node)
{
    struct frd_walk *walk = w->walk;
    // Counted before it can be stolen and finished; the pushing task is still pending, so
    // undoing it cannot end the walk.
    atomic_fetch_add(&walk->sched.pending, 1);
    if (frd__deque_push(&w->dq, node) < 0) {
        frd__pool_task_done(walk);
        return FRD_ENOMEM;
    }
    atomic_fetch_add(&walk->sched.queued, 1);
    if (atomic_load(&walk->sched.sleepers) > 0) {
        uv_mutex_lock(&walk->sched.lot);
        uv_cond_signal(&walk->sched.lot_cond);
        uv_mutex_unlock(&walk->sched.lot);
    }
    return 0;
}

void frd__pool_task_done(struct frd_walk *walk)
{
    if (atomic_fetch_sub(&walk->sched.pending, 1) == 1) {
        uv_mutex_lock(&walk->sched.lot);
        walk->sched.done = true;
        uv_cond_broadcast(&walk->sched.lot_cond);
        uv_mutex_unlock(&walk->sched.lot);
    }
}

static uint64_t rng_next(struct frd__worker *w)
{
    // xorshift64: cheap, per worker, good enough to spread victims.
    uint64_t x = w->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    w->rng = x;
    return x;
}

static struct frd__wnode *try_steal(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    unsigned n = walk->nworkers;
    if (n < 2) {
        return NULL;
    }
    // A random start, then every other worker once.
    unsigned start = (unsigned)(rng_next(w) % n);
    for (unsigned k = 0; k < n; k++) {
        struct frd__worker *victim = &walk->workers[(start + k) % n];
        if (victim == w) {
            continue;
        }
        struct frd__wnode *node = frd__deque_steal(&victim->dq, &w->dq);
        if (node != NULL) {
            atomic_fetch_sub(&walk->sched.queued, 1);
            return node;
        }
    }
    return NULL;
}

struct frd__wnode *frd__pool_next(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    for (;;) {
        struct frd__wnode *node = frd__deque_pop(&w->dq);
        if (node != NULL) {
            atomic_fetch_sub(&walk->sched.queued, 1);
            return node;
        }
        node = try_steal(w);
        if (node != NULL) {
            return node;
        }
        uv_mutex_lock(&walk->sched.lot);
        if (walk->sched.done) {
            uv_mutex_unlock(&walk->sched.lot);
            return NULL;
        }
        atomic_fetch_add(&walk->sched.sleepers, 1);
        if (atomic_load(&walk->sched.queued) > 0) {
            atomic_fetch_sub(&walk->sched.sleepers, 1);
            uv_mutex_unlock(&walk->sched.lot);
            continue;
        }
        if (atomic_load(&walk->sched.pending) == 0) {
            walk->sched.done = true;
            uv_cond_broadcast(&walk->sched.lot_cond);
            atomic_fetch_sub(&walk->sched.sleepers, 1);
            uv_mutex_unlock(&walk->sched.lot);
            return NULL;
        }
        uv_cond_wait(&walk->sched.lot_cond, &walk->sched.lot);
        atomic_fetch_sub(&walk->sched.sleepers, 1);
        bool done = walk->sched.done;
        uv_mutex_unlock(&walk->sched.lot);
        if (done) {
            return NULL;
        }
    }
}

/** Last thread out of a background walk: tell the host's loop (async walks). */
void frd__pool_thread_exit(struct frd_walk *walk)
{
    if (atomic_fetch_sub(&walk->sched.running, 1) == 1 && walk->async.handle != NULL) {
        uv_async_send(walk->async.handle);
    }
}

int frd__pool_start(struct frd_walk *walk, uv_thread_cb entry)
{
    // Threads to make: every worker but worker 0 when the caller runs it, or in an ordered
    // walk, whose consumer lists too and stands for worker 0 (so N workers are N threads
    // there as well); plus the consumer of an ordered walk started in the background.
    unsigned first = walk->sched.caller_runs_worker0 || walk->consumer != NULL ? 1 : 0;
    unsigned count = walk->nworkers - first;
    bool spawn_consumer = walk->consumer != NULL && walk->sched.threads_for_consumer;
    walk->sched.threads = frd__calloc(count + 1, sizeof(*walk->sched.threads));
    if (walk->sched.threads == NULL) {
        return FRD_ENOMEM;
    }
    atomic_store(&walk->sched.running, count + (spawn_consumer ? 1 : 0));
    for (unsigned i = 0; i < count; i++) {
        struct frd__worker *w = &walk->workers[first + i];
        if (uv_thread_create(&walk->sched.threads[walk->sched.nthreads], entry, w) != 0) {
            atomic_fetch_sub(&walk->sched.running, count - i + (spawn_consumer ? 1 : 0));
            return FRD_EAGAIN;
        }
        walk->sched.nthreads++;
    }
    if (spawn_consumer) {
        if (uv_thread_create(&walk->sched.threads[walk->sched.nthreads], entry, walk->consumer) !=
            0) {
            atomic_fetch_sub(&walk->sched.running, 1);
            return FRD_EAGAIN;
        }
        walk->sched.nthreads++;
    }
    return 0;
}

void frd__pool_join(struct frd_walk *walk)
{
    for (unsigned i = 0; i < walk->sched.nthreads; i++) {
        uv_thread_join(&walk->sched.threads[i]);
    }
    walk->sched.nthreads = 0;
}
