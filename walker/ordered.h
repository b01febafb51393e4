// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's internal parts (walker/ordered.c: the consumer; walker/ordered_list.c:
 * the listing workers and the task heap; walker/ordered_pool.c: the results they hand over).
 * See walker/ordered.c for the protocol.
 */
#ifndef FRD_WALKER_ORDERED_H
#define FRD_WALKER_ORDERED_H

#include "walker.h"

#include <string.h>

/** The fields an item holds itself; an entry with others (even only the dev, which a
 *  listing without stat does not give) is kept whole (struct o_full). */
#define O_BARE_FIELDS (FRD_FIELD_TYPE | FRD_FIELD_FILE_ID)

/** What an item keeps beside it, in the slot of the same index of an array that goes with
 *  the items (a result's fulls, a large listing's slot_fulls; the item holds no pointer to
 *  it): the whole entry, where the walk wants more of it than an item holds, and what went
 *  wrong resolving it. Untouched (never faulted in) for a bare item. */
struct o_full {
    struct frd_entry entry;        /**< with O_IT_WHOLE (name: set by the consumer) */
    struct frd__identity id;       /**< with O_IT_WHOLE and has_id, for visit-once walks */
    const struct frd__wnode *loop; /**< with O_IT_ERR, FRD_ELOOP from a loop: the ancestor */
    struct frd__failure err_op;    /**< with O_IT_ERR */
    int err;                       /**< with O_IT_ERR: the failure to report */
    bool has_id;                   /**< with O_IT_WHOLE */
    bool followed;                 /**< with O_IT_WHOLE: a link the walk followed */
    bool persistent;               /**< with O_IT_WHOLE */
};

/** Item flags (o_item.flags). */
enum o_item_flag {
    O_IT_SKIP = 1u << 0,  /**< not visited (hidden, vanished, a loop not to report twice) */
    O_IT_WHOLE = 1u << 1, /**< full->entry is the entry, with id, followed, persistent */
    O_IT_ERR = 1u << 2,   /**< full->err, err_op, loop: a failure to report first */
    O_IT_TYPE = 1u << 3,  /**< a bare entry's fields: FRD_FIELD_TYPE */
    O_IT_FILE_ID = 1u << 4,
};

/**
 * One entry of a listing, resolved by a worker. Most walks want no more of an entry than
 * its name, type and inode, which the item holds itself in 24 bytes (a whole entry is 136):
 * the read-ahead is that much less memory for the workers to write and for the consumer
 * to read from their caches, the cost that grows with a second thread. An entry with more
 * (stat fields, an identity, a link followed, an error) uses its full slot as well (the
 * slot of the same index; 40-byte items that held a pointer to it and the dev took the
 * /usr walk 100 more page faults and 1% more time). The consumer rebuilds the entry for
 * its visit: frd__o_item_entry().
 */
struct o_item {
    struct frd__wnode *child; /**< node to descend into, or NULL */
    uint64_t file_id;         /**< a bare entry's file_id */
    uint32_t name_off;        /**< in the result's names (a listing of one batch: below 4 GiB) */
    uint16_t name_len;        /**< a bare entry's name_len (a longer name: O_IT_WHOLE) */
    uint8_t type;             /**< a bare entry's type */
    uint8_t flags;            /**< enum o_item_flag */
};
_Static_assert(sizeof(struct o_item) <= 24, "an item stays within 24 bytes");

/**
 * The entry of an item for its visit, named `name`: the whole one (in `full`, the item's
 * slot), or one rebuilt in `bare` from what the item holds. `bare` is zeroed once by the
 * caller and used for nothing else: only the fields an item holds are written here
 * (callbacks get it const). Consumer only. @return it.
 */
static inline struct frd_entry *frd__o_item_entry(struct o_item *it, struct o_full *full,
                                                  const char *name, struct frd_entry *bare)
{
    struct frd_entry *e;
    if (it->flags & O_IT_WHOLE) {
        e = &full->entry;
    } else {
        e = bare;
        e->name_len = it->name_len;
        e->type = (enum frd_type)it->type;
        e->fields = ((it->flags & O_IT_TYPE) ? FRD_FIELD_TYPE : 0u) |
                    ((it->flags & O_IT_FILE_ID) ? FRD_FIELD_FILE_ID : 0u);
        e->file_id = it->file_id;
    }
    e->name = name;
    return e;
}

/** A result: free, being listed, published on its node, or taken by a frame. */
enum o_state { O_FREE, O_INFLIGHT, O_READY, O_TAKEN };

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
 * name's NUL, and moves with the name (walker/ordered_big.c, rec_early()).
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
 * A sort key of one entry of a one-batch listing: 24 bytes, where the entry is 136, so the
 * sort moves little; key and key2 hold the name's first 16 bytes big-endian (zero padded),
 * so names are compared only when they share those 16 bytes.
 */
struct o_key {
    uint64_t key;
    uint64_t key2;
    uint32_t index; /**< the entry's index in the listing */
    uint32_t name_len;
};

/**
 * A run of a large listing: the records of one batch (or of runs merged) and their names,
 * in one allocation; sorted by the thread that took it, merged with another run of its
 * level, and at the end merged with the others chunk by chunk (walker/ordered_big.c).
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
#define O_SMALL_ITEMS 24
#define O_SMALL_NAMES 512
/** Items of the smallest pooled buffer; class k holds O_BUF_ITEMS << k. */
#define O_BUF_ITEMS   1024
#define O_BUF_CLASSES 24
/** Results allocated at a time. */
#define O_RES_BLOCK 128
/** Read-ahead cap in entries (listed and not yet taken), besides the cap in results. */
#define O_WINDOW_ENTRIES 16384

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

/** A directory the consumer is in. */
struct o_frame {
    struct frd__wnode *node;
    struct o_result *res; /**< its listing, taken over from the worker (no copy) */
    size_t count;
    size_t next;
    size_t chunk;   /**< a large listing: the chunk the consumer holds, or SIZE_MAX */
    size_t dir_len; /**< bytes of its path in the consumer's path buffer */
    bool has_fd;
    /** Without has_fd: the descriptor its callbacks get, reopened when first needed (from
     *  the frame above or below, or along the ancestors) and closed when the consumer moves
     *  on, so the consumer holds at most two of these at a time. */
    frd_os_fd own_fd;
    bool own_pinned; /**< own_fd is node->fd, pinned (release, do not close) */
};

/**
 * A listing task on the heap: the node and a copy of its pre-order label, so that the heap
 * compares tasks without reaching into nodes other threads wrote (a cache miss each, and
 * a walk up the ancestors per comparison, all of it with mu held).
 */
struct o_task {
    uint64_t pre[2];
    struct frd__wnode *node;
    unsigned root; /**< node->root_index: labels order nodes of one root */
    bool labeled;  /**< pre holds a label (else compare by walking the ancestors) */
};

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
    /** Per thread (by worker index): keys to sort a one-batch listing by. */
    struct o_sortbuf {
        struct o_key *keys;
        size_t cap;
    } * sortbufs;
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

/* walker/ordered_list.c: pre-order labels, the task heap (by pre-order position) and the
 * workers. All but the labels and frd__o_chain_pruned() are called with mu held. */
/** Pushes a task (and, behind it, its next_sib chain). @return 0 or FRD_ENOMEM. */
int frd__oheap_push(struct frd__ordered *o, struct frd__wnode *node);
/** Labels a child made from entry `ord` of its parent's listing (frd__wnode.pre). */
void frd__o_label_child(const struct frd__wnode *parent, struct frd__wnode *child, size_t ord);
/** Sets the bits a child's place takes in its label, for a listing of n entries. */
void frd__o_label_bits(struct frd__wnode *node, size_t n);
/** Takes the first task in pre-order off the heap and pushes its next sibling, if any. */
struct frd__wnode *frd__oheap_pop(struct frd__ordered *o);
/** Is the read-ahead at its cap (results or entries listed and not taken)? */
bool frd__o_window_full(const struct frd__ordered *o);
/**
 * Drops a task taken off the heap unlisted. A root holds the listing's descriptor ref the
 * consumer took when it opened it: given back here, or the descriptor would stay open.
 */
void frd__o_drop_task(struct frd__worker *w, struct frd__wnode *node);
/** Is the node or an ancestor pruned (the consumer will not descend there)? At once no
 *  while the walk has pruned nothing (most walks: no walk up the ancestors per task). */
bool frd__o_chain_pruned(const struct frd__ordered *o, const struct frd__wnode *node);
/** Prunes a node (consumer): the workers will not list it or anything below it. */
void frd__o_prune(struct frd__ordered *o, struct frd__wnode *node);
/**
 * Takes the next listing task allowed now and does it: called with mu held, returns with it
 * held (dropped while listing). Used by the workers and by the consumer while it waits.
 * @return true if it did something (listed a directory or dropped a pruned one), false if
 * there is nothing it may take now.
 */
bool frd__o_work_one(struct frd__worker *w, struct frd__ordered *o);
/**
 * Fills an item from an entry of node's listing (open as fd): resolves it (links, loops)
 * and makes the node of a subdirectory to descend into, `ord` its place in the listing.
 * *keep: children hold the descriptor (decided at the first child, if not before).
 * `full`: the item's full slot (written only for an entry an item cannot hold alone).
 */
void frd__o_item_fill(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                      enum frd__vol_class cls, const struct frd_entry *e, bool no_descent,
                      size_t ord, bool *keep, struct o_item *it, struct o_full *full);
/** Pushes the child nodes of items onto the heap and wakes workers for them (mu held);
 *  no room: *list_err and *list_op say so, those children are dropped. */
void frd__o_push_children(struct frd__worker *w, struct frd__ordered *o, struct o_item *items,
                          size_t n, int *list_err, struct frd__failure *list_op);

/* walker/ordered_big.c: sorting listings by records, and large listings. */
/**
 * The order of a one-batch listing by name (as frd_list_sort() sorts it), as keys whose
 * index says which entry. @return them (the worker's, valid until its next call), or NULL
 * (no memory, or more entries than 32-bit indexes hold): sort the list itself then.
 */
const struct o_key *frd__o_sort_order(struct frd__worker *w, const struct frd_entry *v, size_t n);
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

/* walker/ordered_pool.c: results, pooled for the walk. */
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

#endif // FRD_WALKER_ORDERED_H
