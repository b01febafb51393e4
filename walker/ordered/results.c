// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's results: what a worker hands the consumer for one listing. Pooled for
 * the walk and never freed before it ends: most listings fit a result's own room, larger
 * ones borrow a buffer of their size class, so a walk allocates a number of times that
 * grows with the largest listings in flight, not with directories.
 */
#include "results.h"

#include "large.h"
#include "ordered_int.h"

#include <string.h>

static void res_reset_room(struct o_result *r)
{
    r->items = r->small_items;
    r->fulls = r->small_fulls;
    r->items_cap = O_SMALL_ITEMS;
    r->names = r->small_names;
    r->names_cap = O_SMALL_NAMES;
}

/**
 * Takes a result from the pool (called with mu held). A new block's results are handed out
 * in turn, each touched first when it is: a block is most of a MiB, of which a walk often
 * uses a part, and memory never touched costs no page fault.
 */
struct o_result *frd__ores_get(struct frd__ordered *o)
{
    struct o_result *r = o->free_res;
    if (r != NULL) {
        FRD_ASSERT(r->state == O_FREE && r->node == NULL && r->lg == NULL && r->big == NULL);
        o->free_res = r->next_free;
        return r;
    }
    if (FRD__RESERVE(o->all, o->all_cap, o->nall + 1, 32) < 0) {
        return NULL;
    }
    if (o->fresh_left == 0) {
        // The results' full slots follow them in the same allocation (touched only where
        // an item needs its slot).
        size_t fulls = (size_t)O_RES_BLOCK * O_SMALL_ITEMS;
        struct o_result *block =
            frd__calloc(1, O_RES_BLOCK * sizeof(*block) + fulls * sizeof(struct o_full));
        if (block == NULL) {
            return NULL;
        }
        if (FRD__RESERVE(o->blocks, o->blocks_cap, o->nblocks + 1, 32) < 0) {
            frd__free(block);
            return NULL;
        }
        o->blocks[o->nblocks++] = block;
        o->fresh = block;
        o->fresh_left = O_RES_BLOCK;
    }
    r = o->fresh++;
    o->fresh_left--;
    struct o_full *fulls = (struct o_full *)(r + o->fresh_left + 1);
    r->small_fulls = fulls + (O_RES_BLOCK - 1 - o->fresh_left) * O_SMALL_ITEMS;
    res_reset_room(r);
    o->all[o->nall++] = r;
    return r;
}

void frd__ores_put(struct frd__ordered *o, struct o_result *r)
{
    FRD_ASSERT(r->state != O_FREE); // put back once
    if (r->lg != NULL) {
        frd__olarge_put(o, r->lg);
        r->lg = NULL;
        res_reset_room(r);
    }
    if (r->big != NULL) {
        r->big->next_free = o->bufs[r->big->cls];
        o->bufs[r->big->cls] = r->big;
        r->big = NULL;
        res_reset_room(r);
    }
    r->state = O_FREE;
    r->node = NULL;
    r->next_free = o->free_res;
    o->free_res = r;
}

/**
 * Lets go of a result nobody will consume: its frame's descriptor ref and its node's own
 * ref. Its children are on the heap, which drops them as pruned (or at the end).
 */
void frd__ores_discard(struct frd__worker *w, struct frd__ordered *o, struct o_result *r)
{
    struct frd__wnode *node = r->node;
    FRD_ASSERT(r->state == O_READY || r->state == O_TAKEN); // listed, not consumed
    node->result = NULL;
    if (r->has_fd) {
        frd__fd_release(w->walk, node);
        r->has_fd = false;
    }
    frd__ores_put(o, r);
    frd__wnode_release(w, node);
}

/**
 * Makes room in a result for n items and `names` bytes of names: its own room, or a pooled
 * buffer of the first size class that holds n (the pool is shared: takes mu). Buffers are
 * kept for the walk, so allocations grow with the largest listings in flight at once, not
 * with directories. @return 0 or FRD_ENOMEM.
 */
int frd__ores_reserve(struct frd__ordered *o, struct o_result *r, size_t n, size_t names)
{
    if (n > O_SMALL_ITEMS || names > O_SMALL_NAMES) {
        unsigned cls = 0;
        while (cls + 1 < O_BUF_CLASSES && ((size_t)O_BUF_ITEMS << cls) < n) {
            cls++;
        }
        size_t cap = (size_t)O_BUF_ITEMS << cls;
        if (cap < n) {
            return FRD_ENOMEM;
        }
        uv_mutex_lock(&o->mu);
        struct o_buf *b = o->bufs[cls];
        if (b != NULL) {
            o->bufs[cls] = b->next_free;
        }
        uv_mutex_unlock(&o->mu);
        if (b == NULL) {
            b = frd__malloc(sizeof(*b) + cap * sizeof(b->items[0]));
            if (b == NULL) {
                return FRD_ENOMEM;
            }
            b->fulls = frd__malloc(cap * sizeof(b->fulls[0]));
            if (b->fulls == NULL) {
                frd__free(b);
                return FRD_ENOMEM;
            }
            b->cls = cls;
            b->names = NULL;
            b->names_cap = 0;
            uv_mutex_lock(&o->mu);
            int rc = FRD__RESERVE(o->all_bufs, o->bufs_cap, o->nbufs + 1, 32);
            if (rc >= 0) {
                o->all_bufs[o->nbufs++] = b;
            }
            uv_mutex_unlock(&o->mu);
            if (rc < 0) {
                frd__free(b->fulls);
                frd__free(b);
                return FRD_ENOMEM;
            }
        }
        r->big = b; // from here on frd__ores_put() returns it to the pool
        if (FRD__RESERVE(b->names, b->names_cap, names, cap * 32) < 0) {
            return FRD_ENOMEM;
        }
        r->items = b->items;
        r->fulls = b->fulls;
        r->items_cap = cap;
        r->names = b->names;
        r->names_cap = b->names_cap;
    }
    return 0;
}

void frd__opool_free(struct frd__ordered *o)
{
    frd__olarge_free_all(o);
    for (size_t i = 0; i < o->nbufs; i++) {
        frd__free(o->all_bufs[i]->names);
        frd__free(o->all_bufs[i]->fulls);
        frd__free(o->all_bufs[i]);
    }
    frd__free(o->all_bufs);
    for (size_t i = 0; i < o->nblocks; i++) {
        frd__free(o->blocks[i]);
    }
    frd__free(o->blocks);
    frd__free(o->all);
}
