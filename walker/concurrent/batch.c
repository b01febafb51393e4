// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode's batches (walker/concurrent/batch.h): a big directory's listing cut
 * into batches that idle workers take through the deques, each a task node under the
 * directory, while the worker listing it reads on; spare batches are kept for reuse.
 */
#include "batch.h"

#include "visit.h"

/** At most this many spare batches are kept for reuse. */
#define WN_BATCHES_SPARE 64

struct frd__batch *frd__batch_take(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    uv_mutex_lock(&walk->concurrent->lock);
    struct frd__batch *b = walk->concurrent->free;
    if (b != NULL) {
        walk->concurrent->free = b->next;
        walk->concurrent->nfree--;
    }
    uv_mutex_unlock(&walk->concurrent->lock);
    if (b != NULL) {
        return b;
    }
    b = frd__calloc(1, sizeof(*b));
    if (b == NULL || frd_list_new(&b->list) < 0) {
        frd__free(b);
        return NULL;
    }
    return b;
}

void frd__batch_put(struct frd_walk *walk, struct frd__batch *b)
{
    frd_list_clear(b->list);
    b->hooked = false;
    uv_mutex_lock(&walk->concurrent->lock);
    bool keep = walk->concurrent->nfree < WN_BATCHES_SPARE;
    if (keep) {
        b->next = walk->concurrent->free;
        walk->concurrent->free = b;
        walk->concurrent->nfree++;
    }
    uv_mutex_unlock(&walk->concurrent->lock);
    if (!keep) {
        frd_list_free(b->list);
        frd__children_view_free(&b->kids);
        frd__free(b);
    }
}

void frd__batches_free(struct frd__concurrent *cc)
{
    struct frd__batch *b = cc->free;
    while (b != NULL) {
        struct frd__batch *next = b->next;
        frd_list_free(b->list);
        frd__children_view_free(&b->kids);
        frd__free(b);
        b = next;
    }
    cc->free = NULL;
    cc->nfree = 0;
}

bool frd__batch_push(struct frd__worker *w, struct frd__wnode *node, struct frd__batch *b)
{
    struct frd__wnode *t = frd__wnode_new(w, node, "", 0);
    if (t == NULL) {
        return false;
    }
    t->flags |= WN_BATCH | WN_HOLDS_PARENT_FD;
    t->result = b;
    atomic_fetch_add(&node->fd_refs, 1);
    atomic_fetch_add(&w->batches_out, 1);
    if (frd__sched_push(w->sw, t) < 0) {
        atomic_fetch_sub(&w->batches_out, 1);
        t->result = NULL;
        frd__wnode_drop(w, t);
        return false;
    }
    return true;
}

void frd__batch_run(struct frd__worker *w, struct frd__wnode *t)
{
    struct frd_walk *walk = w->walk;
    struct frd__batch *b = t->result;
    struct frd__wnode *dir = t->parent;
    size_t dir_len;
    if (!frd__walk_stopping(walk)) {
        if (frd__worker_dir_path(w, dir, &dir_len) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, w);
        } else {
            uint64_t bytes = 0;
            size_t n = b->hooked ? b->kids.count : frd_list_count(b->list);
            frd__cc_visit_entries(w, dir, dir->fd, dir_len, b->cls, frd_list_entries(b->list), n,
                                  b->hooked ? &b->kids : NULL, b->late_stat, &bytes);
            atomic_fetch_add(&dir->batch_bytes, bytes);
        }
    }
    unsigned out = atomic_fetch_sub(&b->owner->batches_out, 1);
    FRD_ASSERT(out > 0); // counted when it was pushed
    (void)out;
    frd__batch_put(walk, b);
    t->result = NULL;
    frd__wnode_drop(w, t); // releases the descriptor ref and the directory's ref
}
