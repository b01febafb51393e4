// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode's batches (walker/concurrent/batch.c): a big directory's listing cut
 * into batches, each handed to an idle worker as a task node under the directory while the
 * worker listing it reads on; and the mode's state, the spare batches kept for reuse.
 */
#ifndef FRD_WALKER_CONCURRENT_BATCH_H
#define FRD_WALKER_CONCURRENT_BATCH_H

#include "core/core.h"

/**
 * A batch of a big directory's listing, handed through the deques to whichever worker is
 * idle, while the worker listing the directory reads the next one.
 */
struct frd__batch {
    struct frd_list *list;     /**< names and what the records give */
    struct frd__worker *owner; /**< the worker listing the directory (counts batches out) */
    enum frd__vol_class cls;   /**< the directory's volume class */
    bool late_stat;            /**< the entries still need their stat */
    /** The children hook has run over the batch (FRD_WALK_CHILDREN_PARTS): visit the
     *  survivors in `kids` (its arrays stay with the batch for reuse). */
    bool hooked;
    struct frd_walk_children kids;
    struct frd__batch *next; /**< in the spares */
};

/** The concurrent mode's state (walk->concurrent): spare batches. */
struct frd__concurrent {
    uv_mutex_t lock;
    struct frd__batch *free; /**< under lock */
    size_t nfree;
};

/** Takes a spare batch (its list empty) or makes one. @return it, or NULL (no memory). */
struct frd__batch *frd__batch_take(struct frd__worker *w);
/** Gives a batch back for reuse (or frees it beyond the spares kept). */
void frd__batch_put(struct frd_walk *walk, struct frd__batch *b);
/** Frees the spare batches. */
void frd__batches_free(struct frd__concurrent *cc);
/**
 * Hands a batch of a big directory to the other workers: a task node under the directory,
 * holding a ref on it and on its descriptor. @return false if it could not be queued (the
 * caller visits the batch itself).
 */
bool frd__batch_push(struct frd__worker *w, struct frd__wnode *node, struct frd__batch *b);
/** A batch task, on whichever worker took it: stat and visit its entries, then let go. */
void frd__batch_run(struct frd__worker *w, struct frd__wnode *t);

#endif // FRD_WALKER_CONCURRENT_BATCH_H
