// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Walks the roots on the walker's threads and hands the entries over in batches. */
#ifndef FRD_EXAMPLES_FRDINDEX_COLLECT_H
#define FRD_EXAMPLES_FRDINDEX_COLLECT_H

#include "frdindex.h"
#include "frdindex_exclude.h"
#include "frdindex_update.h"
#include "progress_line.h"

#include <frd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/** A worker's memory for directory nodes: blocks in a list. */
struct index_slab {
    struct index_slab_block *blocks;
    size_t used, size; /**< in the first block */
};

/**
 * A directory met by the walk, made on the worker that visits it and stored as its
 * per-directory state (frd_walk_entry.dir_state), so each entry below it names it instead
 * of carrying its path: the parent link of frdindex_dirs.h, in memory. Nodes live until the
 * update ends (the writer reads them after the walk has moved on).
 */
struct index_dnode {
    struct index_dnode *parent; /**< NULL: a top ("/", or a relative path's first part) */
    /** its row in `dirs`, looked up or added by the writer thread only; 0 not yet */
    int64_t dir_id;
    uint32_t name_len;
    char name[]; /**< NUL-terminated */
};

/** One entry met by the walk. */
struct index_rec {
    struct index_row row; /**< row.id is 0 */
    uint64_t digest;      /**< index_row_digest() of row, computed on the worker */
    /** the directory holding it; NULL for the root "/" and in path form */
    struct index_dnode *parent;
    struct index_dnode *self; /**< a directory's own node, or NULL */
    uint32_t name_off;        /**< offset of its name (path form: its path) in the arena */
    uint32_t name_len;
    /** The walk gave no directory state (frdmpi's walk across ranks): the arena holds the
     *  entry's whole path, which the writer splits. */
    bool path_form;
    bool failed; /**< its stat failed: metadata unknown, keep what the index had */
};

/** Entries of one worker, handed over as a unit. */
struct index_batch {
    struct index_batch *next;
    struct index_rec *recs;
    size_t count, cap;
    char *arena;
    size_t arena_len, arena_cap;
};

/**
 * The walk and the queue between it and the thread that writes the database:
 *
 *   walker workers --visit--> own batch --full--> queue --index_collect_next()--> writer
 *
 * Each worker fills a batch of its own (no lock per entry) and takes the queue's lock once
 * per few thousand entries. The queue is bounded, so a slow writer slows the walk rather
 * than holding the whole tree in memory.
 */
struct index_collect {
    const char *const *roots;
    size_t nroots;
    struct frd_walk_options options;

    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t ready;   /**< a batch was queued, or the walk ended */
    pthread_cond_t drained; /**< a batch was taken off the queue */
    struct index_batch *head, *tail;
    size_t queued;
    struct index_batch *spare; /**< emptied batches for reuse, under lock */
    bool done;
    int result; /**< frd_walk_roots()'s result, once done */
    bool out_of_memory;
    /** Each worker's current batch, indexed by frd_walk_entry.worker (no lock needed). */
    struct index_batch **batches;
    unsigned nworkers; /**< slots in batches */
    /** Per worker, the memory its directory nodes come from (freed with the collect). */
    struct index_slab *slabs;
    /** Per root, the node of the directory holding it (NULL for "/"), and its name. */
    struct index_dnode **root_parents;
    const char **root_names;

    /** Directories the walk could not read (their old rows are kept), under lock. */
    char **failed;
    size_t nfailed, failed_cap;
    atomic_uint_least64_t errors;

    const struct index_excludes *excludes; /**< NULL or no rule: no children hook */
    index_walk_fn *walk;                   /**< NULL: frd_walk_roots() */
    void *walk_arg;
    struct progress_line progress; /**< on a terminal, unless quiet */
};

/** How to walk. */
struct index_collect_options {
    unsigned workers;
    bool one_file_system;
    bool progress; /**< a progress line on stderr if it is a terminal */
    const struct index_excludes *excludes;
    index_walk_fn *walk; /**< NULL: frd_walk_roots() */
    void *walk_arg;
};

/**
 * Starts walking `roots` on a thread of its own.
 * @return 0, or -1 (message printed).
 */
int index_collect_start(struct index_collect *c, const char *const *roots, size_t nroots,
                        const struct index_collect_options *opts);

/**
 * Takes the next batch, waiting for one. @return a batch (free it with index_batch_free()),
 * or NULL when the walk has ended and every batch was taken.
 */
struct index_batch *index_collect_next(struct index_collect *c);

/**
 * Gives a batch taken with index_collect_next() back for reuse: a worker fills it again
 * instead of allocating (and page-faulting in) a new one. Thread-safe.
 */
void index_collect_recycle(struct index_collect *c, struct index_batch *batch);

/** Waits for the walk thread. @return the walk's result: 0 or a negative frd code. */
int index_collect_finish(struct index_collect *c);

/** Frees what index_collect_start() allocated (after index_collect_finish()). */
void index_collect_free(struct index_collect *c);

/** Frees a batch. */
void index_batch_free(struct index_batch *batch);

#endif // FRD_EXAMPLES_FRDINDEX_COLLECT_H
