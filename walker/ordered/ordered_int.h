// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's state, shared by its files (walker/ordered/ only): one lock (mu) over
 * the task heap, the read-ahead window, the pools and the large listings; see
 * walker/ordered/consumer.c for the protocol.
 */
#ifndef FRD_WALKER_ORDERED_ORDERED_INT_H
#define FRD_WALKER_ORDERED_ORDERED_INT_H

#include "core/core.h"
#include "heap.h"
#include "large.h"
#include "results.h"
#include "sort.h"

#include <uv.h>

/** Read-ahead cap in entries (listed and not yet taken), besides the cap in results. */
#define O_WINDOW_ENTRIES 16384

struct o_frame;

struct frd__ordered {
    uv_mutex_t mu;
    uv_cond_t work_cond;  /**< workers: a task or a window slot appeared, or the end */
    uv_cond_t ready_cond; /**< consumer: the awaited result was published */
    struct o_task *heap;
    size_t heap_n;
    size_t heap_cap;
    size_t window; /**< results in flight or ready, not taken */
    size_t window_max;
    size_t chunk_slots; /**< slots of a large listing (2 per worker, 4 to O_CHUNK_SLOTS) */
    /** The consumer pruned a node: tasks must be checked against their ancestors. */
    atomic_bool any_pruned;
    size_t window_entries;             /**< entries in ready results not taken */
    struct o_buf *bufs[O_BUF_CLASSES]; /**< free buffers by size class */
    struct o_buf **all_bufs;
    size_t nbufs;
    size_t bufs_cap;
    struct o_result **blocks; /**< result blocks */
    size_t nblocks;
    size_t blocks_cap;
    struct frd__wnode *awaited;
    size_t idle;         /**< workers waiting on work_cond */
    bool consumer_waits; /**< the consumer is waiting on ready_cond */
    bool consumer_done;
    struct o_result *free_res;
    struct o_result *fresh; /**< the newest block's results not handed out yet, */
    size_t fresh_left;      /**< and how many */
    struct o_result **all;
    size_t nall;
    size_t all_cap;
    // The consumer's stack (its thread only).
    struct o_frame *frames;
    size_t nframes;
    size_t frames_cap;
    /** Results of frames left, to go back to the pool at the consumer's next lock. */
    struct o_result *put_later;
    // Large listings: active ones (a frame is in them), free ones, all of them.
    struct o_large *large;
    struct o_large *free_large;
    struct o_large *building; /**< being listed: their runs are sorted and merged */
    struct o_large **all_large;
    size_t nlarge;
    size_t large_cap;
    /** Per thread (by worker slot): keys to sort a one-batch listing by. */
    struct o_sortbuf *sortbufs;
};

/** Tries to take mu this many times, with a pause between, before sleeping on it. */
#define O_LOCK_SPINS 256

/**
 * Takes mu, spinning a little first. The consumer and the workers take it once per listing
 * and hold it for a heap step or two: one that finds it held finds it free again within a
 * microsecond or so, where sleeping on it costs a futex wait, a wake-up futex call for the
 * holder and two context switches.
 */
static inline void frd__o_lock(struct frd__ordered *o)
{
    for (unsigned i = 0; i < O_LOCK_SPINS; i++) {
        if (uv_mutex_trylock(&o->mu) == 0) {
            return;
        }
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
        __builtin_ia32_pause();
#endif
    }
    uv_mutex_lock(&o->mu);
}

/** Is the read-ahead at its cap (results or entries listed and not taken)? */
static inline bool frd__o_window_full(const struct frd__ordered *o)
{
    return o->window >= o->window_max || o->window_entries >= O_WINDOW_ENTRIES;
}

#endif // FRD_WALKER_ORDERED_ORDERED_INT_H
