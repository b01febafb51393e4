// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The pool's width and its callback slots (walker/sched/width.c): how many workers may take
 * tasks (the adaptive policy widens the pool while its workers sit blocked on I/O and
 * narrows it when they idle), and the slots that keep the worker indices callbacks see
 * below nworkers however wide the pool. What the pool did is kept in struct
 * frd__pool_stats, for FRD_STATS=1 and the tests.
 */
#ifndef FRD_WALKER_SCHED_WIDTH_H
#define FRD_WALKER_SCHED_WIDTH_H

#include <stdatomic.h>
#include <stdint.h>

struct frd__sched;
struct frd__sched_worker;

/** How the pool sizes itself. */
enum frd__pool_policy {
    FRD__POOL_FIXED,    /**< nworkers threads, each with its own slot (workers asked, ordered) */
    FRD__POOL_ADAPTIVE, /**< nworkers, widened while they sit blocked on I/O, up to a bound */
    FRD__POOL_WIDE,     /**< the bound from the start (bench comparison: FRD_POOL=wide) */
};

/** One change of the pool's width, for the stats' timeline. */
struct frd__pool_event {
    uint32_t ms;    /**< since the walk started */
    uint16_t width; /**< workers allowed to take tasks after it */
};

#define FRD__POOL_EVENTS 64

/** What the pool did (FRD_STATS=1 prints it; tests read it through frd__test_pool_done). */
struct frd__pool_stats {
    unsigned base;                   /**< nworkers: the callback slots */
    unsigned max;                    /**< the bound */
    unsigned started;                /**< workers that ran, the base included */
    unsigned peak;                   /**< the widest the pool was */
    atomic_uint widenings;           /**< target raised */
    atomic_uint retirements;         /**< target lowered */
    atomic_uint windows;             /**< measurement windows closed */
    atomic_uint blocked_windows;     /**< of them, judged blocked */
    atomic_uint_fast64_t busy_ns;    /**< wall time of the windows, parked time left out */
    atomic_uint_fast64_t blocked_ns; /**< of it, off the CPU and not waiting for one */
    atomic_uint_fast64_t slot_waits; /**< times a worker waited for a callback slot */
    /** Directories opened along the ancestors, each on the way to one whose parent's
     *  descriptor was not kept (walker/core/open.c): a step per level climbed back down. */
    atomic_uint_fast64_t reopen_steps;
    struct frd__pool_event events[FRD__POOL_EVENTS]; /**< under the stats' lock */
    unsigned nevents;
};

/** Tests only: called as a walk ends with what its pool did (threads.c). NULL in normal use. */
extern void (*frd__test_pool_done)(const struct frd__pool_stats *stats);
/**
 * Tests only: when set, decides instead of the clocks whether a worker's window of tasks
 * sat blocked on I/O (1) or not (0); -1 measures as usual (width.c). NULL in normal use.
 */
extern int (*frd__test_pool_blocked)(void);

/** A worker's slot index when it has none (a widened pool, between callbacks). */
#define FRD__NO_SLOT UINT32_MAX

/**
 * Makes sure `sw` holds a callback slot before a callback's arguments are built: a no-op in
 * a fixed pool, where every worker keeps its own; in a widened one it waits for a free slot
 * if all are held. @return the slot (the `worker` index callbacks see), valid until the
 * worker yields it.
 */
unsigned frd__sched_slot_hold(struct frd__sched_worker *sw);
/** The slot `sw` holds now (FRD__NO_SLOT between callbacks in a widened pool). */
unsigned frd__sched_slot(const struct frd__sched_worker *sw);
/** Before a worker may block (a listing, parking): in a widened pool, gives its slot back
 *  so that another worker can call back meanwhile. */
void frd__sched_slot_yield(struct frd__sched_worker *sw);
/** At a task's start: closes the worker's measurement window when due, and widens or
 *  narrows the pool from it (adaptive policy only). */
void frd__sched_probe(struct frd__sched_worker *sw);
/** Workers allowed to take tasks now (the pool's width; nworkers in a fixed pool). */
unsigned frd__sched_width(const struct frd__sched *s);
/** Counts `n` reopen steps (directories opened along the ancestors) in the stats. */
void frd__sched_note_reopen_steps(struct frd__sched *s, uint64_t n);

#endif // FRD_WALKER_SCHED_WIDTH_H
