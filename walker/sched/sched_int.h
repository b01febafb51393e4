// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The scheduler's state, private to walker/sched/ (no other file includes this header:
 * scripts/check-layers.sh checks it). Who writes what is said per field; the protocols are
 * described in threads.c (stopping), tasks.c (termination, parking) and width.c (widening,
 * slots).
 */
#ifndef FRD_WALKER_SCHED_SCHED_INT_H
#define FRD_WALKER_SCHED_SCHED_INT_H

#include "deque.h"
#include "internal.h"
#include "sched.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

/** A worker's measurement window (width.c): its own time, against its thread's clocks. */
struct sched_window {
    uint64_t t0;      /**< uv_hrtime() at its start; 0 before the first */
    uint64_t cpu;     /**< the thread's CPU time then */
    uint64_t blocks;  /**< its voluntary switches then */
    uint64_t preempt; /**< its involuntary switches then */
    uint64_t parked;  /**< time parked since (left out of the window) */
    uint64_t parks;   /**< times parked since (switches that were not I/O) */
    unsigned idle;    /**< idle windows in a row */
    unsigned tasks;   /**< tasks probed since its start */
    unsigned skip;    /**< probes left before the clock is read again */
};

/** One worker's scheduler side (or the consumer's, which takes no tasks). */
struct frd__sched_worker {
    struct frd__sched *sched;
    void *upper; /**< the upper layer's worker (frd__sched_bind()) */
    unsigned id; /**< position in sched->workers (capacity for the consumer) */
    /** The callback slot it holds: its id in a fixed pool (the consumer: 0); in a widened one
     *  FRD__NO_SLOT between callbacks. Written by its own thread only. */
    unsigned slot;
    uv_thread_t tid;         /**< its thread, once started (stop skips its own) */
    atomic_int in_cb;        /**< 1 while it may be in a callback (stop waits) */
    bool held;               /**< in_cb is held for a run (frd__sched_cb_hold()); own thread */
    struct frd__deque dq;    /**< its tasks */
    bool dq_ready;           /**< dq was initialized (freed with the scheduler) */
    uint64_t rng;            /**< xorshift64 state: victims to steal from */
    struct sched_window win; /**< width.c, its own thread only */
    /** Workers are an array: this one's window, written at each task, stays off the cache
     *  line of the next one's in_cb, written at each callback. */
    char pad_end[FRD__CACHE_LINE];
};

struct frd__sched {
    struct frd__sched_hooks hooks;
    enum frd__pool_policy policy;
    unsigned nworkers; /**< the callback slots, and the workers at the start */
    unsigned capacity; /**< workers allocated: nworkers, or the widening bound */
    bool has_consumer;
    size_t room; /**< address space left free while threads start (the config's) */
    /** capacity + 1 of them; the last is the consumer's (set up only with has_consumer). */
    struct frd__sched_worker *workers;
    /** Worker slots zeroed and set up, in whole or in part, from the first (the rest of the
     *  array, but the consumer's, is uninitialized memory); under grow once threads run. */
    unsigned nset;

    // Stopping (threads.c).
    atomic_bool stop;
    atomic_int first_err; /**< the walk's result once stopped; 0 otherwise */
    atomic_bool finished; /**< joined: a stop now changes nothing */
    /** `stop` is read at each callback, the counters below are written at each task by
     *  every worker: not on one cache line. */
    char pad_stop[FRD__CACHE_LINE];

    // Tasks and parking (tasks.c).
    atomic_size_t pending;           /**< tasks pushed and not finished */
    atomic_size_t queued;            /**< tasks sitting in deques */
    atomic_int sleepers;             /**< workers parked on lot_cond (or about to) */
    char pad_tasks[FRD__CACHE_LINE]; /**< (the counters above apart from what follows) */
    uv_mutex_t lot;
    uv_cond_t lot_cond;
    bool done; /**< under lot: pending reached zero */

    // Threads (threads.c).
    uv_thread_t *threads; /**< capacity + 1 slots, sized once: they never move */
    unsigned nthreads;    /**< under grow */
    atomic_uint running;  /**< threads it started still running */
    /** Workers set up and running: nworkers, or fewer when a first thread could not be
     *  started (then the first `created` run), and past nworkers those a widened pool
     *  started. Workers at or past it take no task and hold none. */
    atomic_uint created;
    uv_mutex_t grow; /**< adding a worker: threads[], nthreads, created */
    /** Written under grow: a worker could not be added (or a first thread not started);
     *  add no more. Read relaxed by width.c as a hint not to widen. */
    atomic_bool grow_failed;
    bool stats_print; /**< FRD_STATS set: print the stats at the join */
    uint64_t t_start; /**< uv_hrtime() at the start, for the stats' timeline */

    // The width and the callback slots (width.c).
    atomic_uint target;      /**< workers allowed to take tasks; the rest are retired */
    atomic_bool wide;        /**< target went past nworkers once: slots move */
    uv_cond_t retire_cond;   /**< under lot: retired workers wait here */
    atomic_uint free_slots;  /**< bit i: slot i is free */
    atomic_int slot_waiters; /**< workers waiting for a slot */
    uv_mutex_t slot_lock;
    uv_cond_t slot_cond;
    uv_mutex_t stats_lock; /**< stats.events, nevents, peak */
    struct frd__pool_stats stats;
};

/** Workers set up so far (acquire: their deques are ready, and the upper side). */
static inline unsigned sched_created(const struct frd__sched *s)
{
    return atomic_load_explicit(&s->created, memory_order_acquire);
}

/* Within the module: threads.c. */
/**
 * Adds workers to a widened pool until `to` are set up, each started on its own thread
 * (called with `grow` held), `room` bytes of address space kept free meanwhile. The first that cannot be
 * (no memory, no thread, no room) stops the pool growing for good. @return the workers set
 * up now.
 */
unsigned frd__sched_grow(struct frd__sched *s, unsigned to);
/** Wakes every parked worker and the upper layer's waiters (a stop). */
void frd__sched_wake_all(struct frd__sched *s);

#endif // FRD_WALKER_SCHED_SCHED_INT_H
