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
    uv_mutex_lock(&walk->lot);
    uv_cond_broadcast(&walk->lot_cond);
    uv_mutex_unlock(&walk->lot);
    if (walk->ord != NULL) {
        frd__ordered_wake(walk);
    }
}

void frd__pool_push(struct frd__worker *w, struct frd__wnode *node)
{
    struct frd_walk *walk = w->walk;
    atomic_fetch_add(&walk->pending, 1);
    if (frd__deque_push(&w->dq, node) < 0) {
        // No memory to queue it: the subtree cannot be walked. Say so and let it go.
        frd__report(w, "", "queue", FRD_ENOMEM, node->depth);
        frd__wnode_drop(w, node);
        frd__pool_task_done(walk);
        return;
    }
    atomic_fetch_add(&walk->queued, 1);
    if (atomic_load(&walk->sleepers) > 0) {
        uv_mutex_lock(&walk->lot);
        uv_cond_signal(&walk->lot_cond);
        uv_mutex_unlock(&walk->lot);
    }
}

void frd__pool_task_done(struct frd_walk *walk)
{
    if (atomic_fetch_sub(&walk->pending, 1) == 1) {
        uv_mutex_lock(&walk->lot);
        walk->done = true;
        uv_cond_broadcast(&walk->lot_cond);
        uv_mutex_unlock(&walk->lot);
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
            atomic_fetch_sub(&walk->queued, 1);
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
            atomic_fetch_sub(&walk->queued, 1);
            return node;
        }
        node = try_steal(w);
        if (node != NULL) {
            return node;
        }
        uv_mutex_lock(&walk->lot);
        if (walk->done) {
            uv_mutex_unlock(&walk->lot);
            return NULL;
        }
        atomic_fetch_add(&walk->sleepers, 1);
        if (atomic_load(&walk->queued) > 0) {
            atomic_fetch_sub(&walk->sleepers, 1);
            uv_mutex_unlock(&walk->lot);
            continue;
        }
        if (atomic_load(&walk->pending) == 0) {
            walk->done = true;
            uv_cond_broadcast(&walk->lot_cond);
            atomic_fetch_sub(&walk->sleepers, 1);
            uv_mutex_unlock(&walk->lot);
            return NULL;
        }
        uv_cond_wait(&walk->lot_cond, &walk->lot);
        atomic_fetch_sub(&walk->sleepers, 1);
        bool done = walk->done;
        uv_mutex_unlock(&walk->lot);
        if (done) {
            return NULL;
        }
    }
}

void frd__worker_run(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    struct frd__wnode *node;
    while ((node = frd__pool_next(w)) != NULL) {
        if (atomic_load_explicit(&walk->stop, memory_order_relaxed)) {
            frd__wnode_drop(w, node);
        } else if (node->flags & WN_ROOT) {
            frd__concurrent_root(w, node);
        } else {
            frd__concurrent_dir(w, node);
        }
        frd__pool_task_done(walk);
    }
}

/** Last thread out of a background walk: tell the host's loop (async walks). */
static void thread_exit(struct frd_walk *walk)
{
    if (atomic_fetch_sub(&walk->running, 1) == 1 && walk->async != NULL) {
        uv_async_send(walk->async);
    }
}

void frd__thread_main(void *arg)
{
    struct frd__worker *w = arg;
    struct frd_walk *walk = w->walk;
    w->tid = uv_thread_self();
    if (w == walk->consumer) {
        frd__ordered_consume(w);
    } else if (walk->ord != NULL) {
        frd__ordered_worker_run(w);
    } else {
        frd__worker_run(w);
    }
    thread_exit(walk);
}

int frd__pool_start(struct frd_walk *walk)
{
    // Threads to make: every worker but worker 0 when the caller runs it, or in an ordered
    // walk, whose consumer lists too and stands for worker 0 (so N workers are N threads
    // there as well); plus the consumer of an ordered walk started in the background.
    unsigned first = walk->caller_runs_worker0 || walk->consumer != NULL ? 1 : 0;
    unsigned count = walk->nworkers - first;
    bool spawn_consumer = walk->consumer != NULL && walk->threads_for_consumer;
    walk->threads = frd__calloc(count + 1, sizeof(*walk->threads));
    if (walk->threads == NULL) {
        return FRD_ENOMEM;
    }
    atomic_store(&walk->running, count + (spawn_consumer ? 1 : 0));
    for (unsigned i = 0; i < count; i++) {
        struct frd__worker *w = &walk->workers[first + i];
        if (uv_thread_create(&walk->threads[walk->nthreads], frd__thread_main, w) != 0) {
            atomic_fetch_sub(&walk->running, count - i + (spawn_consumer ? 1 : 0));
            return FRD_EAGAIN;
        }
        walk->nthreads++;
    }
    if (spawn_consumer) {
        if (uv_thread_create(&walk->threads[walk->nthreads], frd__thread_main, walk->consumer) !=
            0) {
            atomic_fetch_sub(&walk->running, 1);
            return FRD_EAGAIN;
        }
        walk->nthreads++;
    }
    return 0;
}

void frd__pool_join(struct frd_walk *walk)
{
    for (unsigned i = 0; i < walk->nthreads; i++) {
        uv_thread_join(&walk->threads[i]);
    }
    walk->nthreads = 0;
}
