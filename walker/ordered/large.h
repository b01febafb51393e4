// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's large listings (walker/ordered/large.c): directories of more than one
 * kernel batch, read as runs of 24-byte records that idle threads sort and merge while the
 * directory is read, then merged and resolved a chunk at a time as the consumer needs them.
 */
#ifndef FRD_WALKER_ORDERED_LARGE_H
#define FRD_WALKER_ORDERED_LARGE_H

#include "item.h"

struct frd__ordered;
struct o_result;

/** What a large listing's record holds besides the directory record's name, type, inode. */
enum o_rec_state {
    O_REC_READY, /**< all the walk asks for (the field stat'ed ahead, if any, after its name) */
    O_REC_STAT,  /**< stat it when its chunk is resolved */
    O_REC_GONE,  /**< removed before its stat: left out */
    O_REC_ERR,   /**< its stat failed: the error where its early field goes */
};

/**
 * One entry of a large listing as the directory record gave it: 24 bytes and the name,
 * where a whole entry is 136. key holds the name's first 8 bytes big-endian (zero padded),
 * so most comparisons of the sort end without touching the names. In a walk that stats one
 * field ahead (o_large.early), that field (or its stat's error) takes the 8 bytes after the
 * name's NUL, and moves with the name (walker/ordered/large.c, rec_early()).
 */
struct o_rec {
    uint64_t key;
    uint64_t ino;      /**< the inode */
    uint32_t name_off; /**< in the large listing's names */
    uint16_t name_len;
    uint8_t type;  /**< enum frd_type */
    uint8_t state; /**< enum o_rec_state */
};
_Static_assert(sizeof(struct o_rec) == 24, "a record stays within 24 bytes");

/** Entries of a large listing resolved at a time, and the most chunks resolved at once
 *  (two per worker, at least 4: the chunk the consumer is in and those ahead of it; at most
 *  8: 8,192 entries). Each chunk costs a few locks and a turn of the final merge, which
 *  gives chunks out one at a time: a directory of a million names in chunks of 256 spent a
 *  sixth of its ordered walk there (0.447 s against 0.372 s in chunks of 1,024). */
#define O_CHUNK       1024
#define O_CHUNK_SLOTS 8
/** Runs of a large listing are merged while it is listed up to 2^O_RUN_LEVELS batches
 *  each; what is left is merged as the chunks are made. */
#define O_RUN_LEVELS 6

/**
 * A run of a large listing: the records of one batch (or of runs merged) and their names,
 * in one allocation; sorted by the thread that took it, merged with another run of its
 * level, and at the end merged with the others chunk by chunk (walker/ordered/large.c).
 */
struct o_run {
    struct o_run *next; /**< in its listing's runs */
    struct o_rec *recs;
    char *names;
    size_t n;
    size_t names_len;
    size_t at;      /**< the final merge: the next record to take */
    size_t seq;     /**< the batch it began with: the order of equal names across runs */
    unsigned level; /**< 2^level batches merged in it */
    bool sorted;
    bool busy; /**< a thread sorts or merges it (mu dropped) */
};

/** A run at the head of the final merge, with its next record's key. */
struct o_head {
    uint64_t key;
    struct o_run *run;
};

/**
 * A listing of more than one kernel batch (a large directory). While it is listed, each batch
 * becomes a run sorted by an idle thread, and runs of a level are merged (so the other cores
 * do the sort while one reads the directory); when it is read, the runs left are merged chunk
 * by chunk as the consumer needs them, each chunk's records and names copied to its slot and
 * resolved there into items (stat, links, child nodes) by the thread that merged it, the
 * chunks ahead of the consumer by whichever thread is idle, a few chunks at once (two per
 * worker). So memory is the names, 24 bytes per entry and a bounded window of items, not an
 * item per entry. Pooled for the walk, like results.
 */
struct o_large {
    struct o_large *next; /**< in the list of active, building or free listings */
    struct frd__wnode *node;
    struct o_run *runs; /**< while it is listed: every run */
    size_t nruns;
    size_t nrecs;
    unsigned busy;        /**< runs being sorted or merged */
    bool listed;          /**< the listing ended: no more merges while listing */
    bool no_merges;       /**< a merge found no memory: the runs stay as they are */
    uv_cond_t cond;       /**< a run task ended, or a chunk left the final merge */
    struct o_head *heads; /**< the final merge: a heap of the runs not exhausted */
    size_t nheads;
    size_t heads_cap;
    size_t nheads_recs;      /**< records left in them */
    int merge_err;           /**< FRD_ENOMEM: the final merge failed, the walk stops */
    size_t merged;           /**< chunks out of the final merge */
    struct o_rec *slot_recs; /**< nslots * O_CHUNK records: chunk k's in slot k % nslots */
    struct o_slot_names {
        char *p;
        size_t cap;
    } slot_names[O_CHUNK_SLOTS]; /**< chunk k's names (items' name_off) in slot k % nslots */
    struct o_item *slots;        /**< nslots * O_CHUNK items: chunk k in slot k % nslots */
    struct o_full *slot_fulls;   /**< their full slots */
    size_t nslots;
    size_t ready[O_CHUNK_SLOTS];   /**< the chunk each slot holds resolved, or SIZE_MAX */
    size_t made[O_CHUNK_SLOTS];    /**< entries of it that were still there when stat'ed */
    uint64_t bytes[O_CHUNK_SLOTS]; /**< their sizes */
    size_t nchunks;
    size_t base;       /**< the first chunk the consumer has not let go of */
    size_t next_claim; /**< the first chunk no thread took */
    unsigned inflight; /**< chunks being resolved */
    unsigned fields;   /**< the records' fields (what the listing gave besides the name) */
    frd_os_fd fd;      /**< the directory, held by the result's has_fd ref */
    enum frd__vol_class cls;
    bool keep;      /**< children hold the directory's descriptor */
    bool late_stat; /**< the records lack fields the walk wants: stat each entry */
    /** The one 8-byte field the walk wants beyond the records' (say FRD_FIELD_SIZE), stat'ed
     *  in listing order while it is listed (a stat in the directory's order is cheaper than
     *  in name order) and kept after the record's name; 0: none, or more than one. */
    unsigned early;
    struct frd_walk *walk;
    bool closed; /**< the consumer left: nothing more is claimed */
};

/**
 * Lists an open directory in batches (no children hook). One batch (most directories) stays
 * in w->list, as a whole listing would. More make it a large listing in r->lg.
 * @return 0, or the listing's failure (its entries read before it are kept).
 */
int frd__o_read(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                enum frd__vol_class cls, struct o_result *r);
/**
 * Sorts or merges a run of a listing being read, if one may be taken now: called with mu
 * held, returns with it held (dropped while working). @return true if it did.
 */
bool frd__o_run_task(struct frd__ordered *o);
/** Is chunk k of a large listing resolved (called with mu held)? */
bool frd__o_chunk_ready(const struct o_large *lg, size_t k);
/**
 * Merges and resolves the next unclaimed chunk of a large listing if one may be taken now:
 * called with mu held, returns with it held (dropped while resolving). @return true if it
 * did.
 */
bool frd__o_chunk_take(struct frd__worker *w, struct frd__ordered *o, struct o_large *lg);
/** The name of an item of chunk k of a large listing (the consumer holds the chunk). */
const char *frd__o_chunk_name(const struct o_large *lg, size_t k, const struct o_item *it);
/** Takes a large listing from the pool (called with mu held). @return it, or NULL. */
struct o_large *frd__olarge_get(struct frd__ordered *o);
/** Returns a large listing to the pool, its runs freed (called with mu held). */
void frd__olarge_put(struct frd__ordered *o, struct o_large *lg);
/** Frees every large listing (the walk is over). */
void frd__olarge_free_all(struct frd__ordered *o);

#endif // FRD_WALKER_ORDERED_LARGE_H
