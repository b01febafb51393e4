// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's results (walker/ordered/results.c): what a worker hands the consumer
 * for one listing, pooled for the walk.
 */
#ifndef FRD_WALKER_ORDERED_RESULTS_H
#define FRD_WALKER_ORDERED_RESULTS_H

#include "item.h"

struct frd__ordered;
struct o_large;

/** A result: free, being listed, published on its node, or taken by a frame. */
enum o_state { O_FREE, O_INFLIGHT, O_READY, O_TAKEN };

/** Items and names of a listing too large for a result's own room; pooled by size class. */
struct o_buf {
    struct o_buf *next_free;
    unsigned cls; /**< holds O_BUF_ITEMS << cls items */
    char *names;
    size_t names_cap;
    struct o_full *fulls; /**< as many as items */
    struct o_item items[];
};

/** Items a result holds in its own room, and bytes of names. */
#define O_SMALL_ITEMS 16
#define O_SMALL_NAMES 384
/** Items of the smallest pooled buffer; class k holds O_BUF_ITEMS << k. */
#define O_BUF_ITEMS   1024
#define O_BUF_CLASSES 24
/** Results allocated at a time. */
#define O_RES_BLOCK 128

/**
 * A listing handed from a worker to the consumer; pooled, never freed before the walk.
 * Most directories are small: their items and names fit the result's own room, so results
 * are allocated in blocks and a listing allocates nothing. A larger listing borrows a
 * buffer of its size class from the pool and returns it when the result is taken.
 */
struct o_result {
    struct frd__wnode *node;
    enum o_state state;
    char *names; /**< the entries' names, NUL-terminated, in sorted order */
    size_t names_len;
    size_t names_cap;
    struct o_item *items;
    struct o_full *fulls; /**< a full slot per item */
    size_t items_cap;
    struct o_buf *big; /**< the borrowed buffer items and names are in, or NULL */
    /** A large listing (items resolved by chunks, names in it), or NULL. */
    struct o_large *lg;
    size_t window_cost; /**< what it counts for in window_entries */
    size_t count;
    int open_err;
    struct frd__failure open_op;
    int list_err;
    struct frd__failure list_op;
    bool listed;
    bool has_fd; /**< holds one of node's fd_refs for the consumer's frame */
    struct o_result *next_free;
    struct o_full *small_fulls; /**< O_SMALL_ITEMS of them, after its block */
    struct o_item small_items[O_SMALL_ITEMS];
    char small_names[O_SMALL_NAMES];
};

/** Takes a result from the pool (called with mu held). @return it, or NULL (no memory). */
struct o_result *frd__ores_get(struct frd__ordered *o);
/** Returns a result to the pool, and its borrowed buffer (called with mu held). */
void frd__ores_put(struct frd__ordered *o, struct o_result *r);
/**
 * Lets go of a result nobody will consume: its frame's descriptor ref and its node's own
 * ref (called with mu held). Its children are on the heap, which drops them as pruned.
 */
void frd__ores_discard(struct frd__worker *w, struct frd__ordered *o, struct o_result *r);
/**
 * Makes room in a result for n items and `names` bytes of names (takes mu).
 * @return 0 or FRD_ENOMEM.
 */
int frd__ores_reserve(struct frd__ordered *o, struct o_result *r, size_t n, size_t names);
/** Frees every result block and pooled buffer (the walk is over). */
void frd__opool_free(struct frd__ordered *o);

#endif // FRD_WALKER_ORDERED_RESULTS_H
