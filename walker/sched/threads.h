// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The scheduler's set-up and its threads (walker/sched/threads.c): making and freeing it,
 * starting and joining the walk's threads, and stopping them so that no callback starts
 * afterwards.
 *
 * The scheduler knows nothing of the walk. It calls up only through struct
 * frd__sched_hooks, which the layer above fills: to set up a worker it adds while the walk
 * runs, to run a thread, to wake that layer's own waiters on a stop, and to say the last
 * thread ended. Each worker has a scheduler side (struct frd__sched_worker: its deque,
 * callback slot, in-callback flag, measurement window) bound to the layer above's worker,
 * an opaque pointer the hooks get back.
 */
#ifndef FRD_WALKER_SCHED_THREADS_H
#define FRD_WALKER_SCHED_THREADS_H

#include "width.h"

#include <stdbool.h>
#include <stddef.h>

/** A walk's threads and tasks: opaque outside walker/sched/. */
struct frd__sched;
/** One worker's scheduler side: opaque outside walker/sched/. */
struct frd__sched_worker;

/** What the scheduler needs from the layer above; `ctx` is passed back to each. */
struct frd__sched_hooks {
    void *ctx;
    /**
     * Sets up the upper side of worker `id` that a widened pool adds, before its thread
     * starts; binds it with frd__sched_bind(). @return 0, or a negative code (then the pool
     * stops growing).
     */
    int (*worker_add)(void *ctx, unsigned id);
    /** A walk thread's body: runs the worker `upper` (what frd__sched_bind() was given). */
    void (*run)(void *upper);
    /** Wakes the upper layer's own waiters when the walk stops, or NULL. */
    void (*wake)(void *ctx);
    /** The last thread the scheduler started has ended, or NULL (background walks). */
    void (*done)(void *ctx);
};

/** The pool to make. */
struct frd__sched_config {
    unsigned nworkers;            /**< workers, each with a callback slot (1 at least) */
    enum frd__pool_policy policy; /**< a policy that cannot widen is made FRD__POOL_FIXED */
    unsigned max_workers;         /**< the widening bound (ignored by a fixed pool) */
    /** A consumer: a thread that takes no tasks but runs callbacks in the slot of worker 0,
     *  which then runs no thread (the ordered mode). */
    bool consumer;
    /** Address space to leave free while threads start, under a limit of it (`ulimit -v`,
     *  frd__plat_room_hold()): room for the walk's own allocations once its threads took
     *  what fits. 0: none. */
    size_t room;
};

/**
 * Settles a pool's policy and bound as frd__sched_new() will: a pool that cannot widen (a
 * bound not above nworkers, more than 32 slots, a consumer) is fixed, and a fixed pool's
 * bound is nworkers. Pure: the layer above sizes what depends on the bound with it.
 */
void frd__sched_config_settle(struct frd__sched_config *cfg);
/**
 * Makes a scheduler: its locks and the scheduler side of the first nworkers workers (and
 * of the consumer). @return 0 with *out set, or FRD_ENOMEM.
 */
int frd__sched_new(struct frd__sched **out, const struct frd__sched_config *cfg,
                   const struct frd__sched_hooks *hooks);
/** Frees it, after frd__sched_join() (or when no thread was started). */
void frd__sched_free(struct frd__sched *s);
/** Workers the pool may ever have (nworkers, or the widening bound): the upper layer's
 *  worker array is this long. */
unsigned frd__sched_capacity(const struct frd__sched *s);
/** Workers set up so far, 0..n-1 (acquire: their scheduler and upper sides are ready). */
unsigned frd__sched_created(const struct frd__sched *s);
/** The scheduler side of worker `id` (below frd__sched_capacity()). */
struct frd__sched_worker *frd__sched_worker(struct frd__sched *s, unsigned id);
/** The consumer's scheduler side, or NULL when the pool has none. */
struct frd__sched_worker *frd__sched_consumer(struct frd__sched *s);
/** Binds a worker's scheduler side to the upper layer's worker (given to hooks.run). */
void frd__sched_bind(struct frd__sched_worker *sw, void *upper);

/**
 * Starts the threads. `caller` is the worker the calling thread runs itself (worker 0, or
 * the consumer), or NULL when every worker runs on a thread of its own (a background walk).
 * Worker 0 runs no thread when the caller runs it or when there is a consumer; the consumer
 * gets a thread only in a background walk, and first. A thread that cannot be started (a
 * limit of processes or of address space) ends the starting: the walk goes on with the
 * workers that run, 0..k-1 (frd__sched_created() is k: the pool shrinks to them), and
 * callbacks see indices below k.
 * @return 0 (then join), or FRD_EAGAIN when `caller` is NULL and not one thread could be
 * started: nothing runs, no callback was made, hooks.done is not called, and nothing needs
 * a join (frd__sched_free() it).
 */
int frd__sched_start(struct frd__sched *s, struct frd__sched_worker *caller);
/** Waits for every thread it started (and those a widened pool added); prints the stats
 *  with FRD_STATS=1. After it, frd__sched_stop() changes nothing. */
void frd__sched_join(struct frd__sched *s);
/**
 * Records `code` as the walk's result if none was, and stops: no callback starts after it
 * returns and none is running (but `self`'s, the caller's own), parked workers and the
 * upper layer's waiters (hooks.wake) are woken. Any thread may call it, `self` NULL for a
 * thread that is no worker. Ignored once the scheduler is joined.
 */
void frd__sched_stop(struct frd__sched *s, int code, struct frd__sched_worker *self);
/** Has the walk been stopped (relaxed: a hint for loops; callbacks check it exactly)? */
bool frd__sched_stopping(const struct frd__sched *s);
/** The first code frd__sched_stop() recorded, or 0. */
int frd__sched_result(const struct frd__sched *s);

/**
 * Enters a callback: marks the worker as in one, then checks the stop (both sequentially
 * consistent: see "Stopping" in threads.c); inside a run held with frd__sched_cb_hold(),
 * checks the stop only. @return true to call back, false once stopped. The worker must hold
 * a slot (frd__sched_slot_hold()).
 */
bool frd__sched_cb_enter(struct frd__sched_worker *sw);
/** Leaves a callback entered with frd__sched_cb_enter(). */
void frd__sched_cb_leave(struct frd__sched_worker *sw);
/**
 * Marks the worker as in a callback for a run of them (a listing's visits, and the reports
 * among them), so that each frd__sched_cb_enter() in the run costs a plain load of the stop
 * flag, not a fenced store: a stop waits for the run's end (each callback after the stop
 * sees it and does not start). Not nested; the worker holds a slot and gives it back only
 * after frd__sched_cb_unhold().
 */
void frd__sched_cb_hold(struct frd__sched_worker *sw);
/** Ends a run begun with frd__sched_cb_hold(). */
void frd__sched_cb_unhold(struct frd__sched_worker *sw);
/**
 * The walk's stop flag, for an inline frd__sched_cb_enter() inside a run held with
 * frd__sched_cb_hold(), where entering is a relaxed load of it and leaving does nothing
 * (no call per visit). Valid until the scheduler is freed; any thread.
 */
const atomic_bool *frd__sched_stop_flag(const struct frd__sched *s);

#endif // FRD_WALKER_SCHED_THREADS_H
