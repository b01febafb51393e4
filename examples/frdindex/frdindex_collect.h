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

/** One entry met by the walk. */
struct index_rec {
    struct index_row row; /**< row.id is 0 */
    uint64_t path_hash;   /**< index_path_hash() of the path, computed on the worker */
    uint64_t digest;      /**< index_row_digest() of row, computed on the worker */
    uint32_t path_off;    /**< offset of its path in the batch's arena */
    uint32_t path_len;
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
