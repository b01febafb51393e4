// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Directory nodes: allocation from per-worker slabs and free lists (handed back across
 * threads in ordered mode), their paths, and their descriptor refcount (pin and release).
 *
 * Allocation: nodes come from per-worker slabs and free lists, buffers grow by doubling and
 * are kept, so a walk allocates a number of times that grows with workers and depth, not
 * with directories.
 */
#include "walker.h"

#include <stddef.h>
#include <string.h>

/** Name capacity of the two node size classes; longer names are allocated apart. */
#define WN_SMALL_NAME 48
#define WN_LARGE_NAME 1024
/** Nodes per slab. */
#define WN_SLAB_NODES 64
/** Nodes the ordered consumer frees before it hands them to the workers. */
#define WN_HANDOFF_BATCH 64

static size_t wn_node_size(unsigned size_class)
{
    size_t name = size_class == 0 ? WN_SMALL_NAME : WN_LARGE_NAME;
    size_t size = offsetof(struct frd__wnode, name_inline) + name;
    return (size + 15) & ~(size_t)15;
}

int frd__grow(struct frd__worker *w, char **buf, size_t *cap, size_t need)
{
    int rc = FRD__RESERVE(*buf, *cap, need, 256);
    if (rc < 0) {
        return rc;
    }
    w->allocations += (size_t)rc;
    return 0;
}

static int wn_slab(struct frd__worker *w, unsigned size_class)
{
    int rc = FRD__RESERVE(w->slabs, w->slabs_cap, w->nslabs + 1, 16);
    if (rc < 0) {
        return rc;
    }
    w->allocations += (size_t)rc;
    size_t size = wn_node_size(size_class);
    char *slab = frd__malloc(size * WN_SLAB_NODES);
    if (slab == NULL) {
        return FRD_ENOMEM;
    }
    w->allocations++;
    w->slabs[w->nslabs++] = slab;
    struct frd__wnode **head = size_class == 0 ? &w->free_small : &w->free_large;
    for (size_t i = WN_SLAB_NODES; i-- > 0;) {
        struct frd__wnode *node = (struct frd__wnode *)(void *)(slab + i * size);
        node->size_class = (uint8_t)size_class;
        node->next_free = *head;
        *head = node;
    }
    return 0;
}

struct frd__wnode *frd__wnode_new(struct frd__worker *w, struct frd__wnode *parent,
                                  const char *name, size_t name_len)
{
    unsigned size_class = name_len < WN_SMALL_NAME ? 0 : 1;
    struct frd__wnode **head = size_class == 0 ? &w->free_small : &w->free_large;
    if (*head == NULL && w->walk->plan.sched.consumer) {
        // Ordered mode: the consumer frees the nodes workers made; take them back.
        struct frd_walk *walk = w->walk;
        uv_mutex_lock(&walk->ordered.node_lock);
        struct frd__wnode **shared =
            size_class == 0 ? &walk->ordered.shared_small : &walk->ordered.shared_large;
        *head = *shared;
        *shared = NULL;
        uv_mutex_unlock(&walk->ordered.node_lock);
    }
    if (*head == NULL && wn_slab(w, size_class) < 0) {
        return NULL;
    }
    struct frd__wnode *node = *head;
    char *heap_name = NULL;
    if (name_len >= WN_LARGE_NAME) {
        heap_name = frd__malloc(name_len + 1);
        if (heap_name == NULL) {
            return NULL;
        }
        w->allocations++;
    }
    *head = node->next_free;
    uint8_t cls = node->size_class;
    memset(node, 0, offsetof(struct frd__wnode, name_inline));
    node->size_class = cls;
    node->parent = parent;
    atomic_init(&node->refs, 1);
    atomic_init(&node->fd_refs, 0);
    atomic_init(&node->pruned, false);
    node->fd = FRD_INVALID_FD;
    node->depth = parent ? parent->depth + 1 : 0;
    node->root_index = parent ? parent->root_index : 0;
    node->root_dev = parent ? parent->root_dev : 0;
    node->name = heap_name ? heap_name : node->name_inline;
    if (heap_name) {
        node->flags |= WN_NAME_HEAP;
    }
    memcpy(node->name, name, name_len);
    node->name[name_len] = '\0';
    node->name_len = name_len;
    if (parent != NULL) {
        atomic_fetch_add(&parent->refs, 1);
    }
    return node;
}

bool frd__fd_try_pin(struct frd__wnode *node)
{
    int refs = atomic_load(&node->fd_refs);
    while (refs > 0) {
        if (atomic_compare_exchange_weak(&node->fd_refs, &refs, refs + 1)) {
            return true;
        }
    }
    return false;
}

void frd__fd_release(struct frd_walk *walk, struct frd__wnode *node)
{
    int prev = atomic_fetch_sub(&node->fd_refs, 1);
    FRD_ASSERT(prev > 0); // released once per ref: never below zero
    if (prev == 1) {
        frd__plat_close_dir(node->fd);
        atomic_fetch_sub(&walk->fds.open_fds, 1);
    }
}

int frd__wnode_path(struct frd__worker *w, struct frd__wnode *node, char **buf, size_t *cap,
                    size_t *len)
{
    size_t total = 0;
    for (struct frd__wnode *n = node; n != NULL; n = n->parent) {
        total += n->name_len;
        if (n->parent != NULL) {
            total += frd__path_sep(n->parent->name, n->parent->name_len);
        }
    }
    // Room for a child's name too, so the entries of this directory rarely grow it.
    if (frd__grow(w, buf, cap, total + 1 + 256) < 0) {
        return FRD_ENOMEM;
    }
    char *p = *buf;
    size_t end = total;
    p[end] = '\0';
    for (struct frd__wnode *n = node; n != NULL; n = n->parent) {
        end -= n->name_len;
        memcpy(p + end, n->name, n->name_len);
        if (n->parent != NULL && frd__path_sep(n->parent->name, n->parent->name_len)) {
            p[--end] = '/';
        }
    }
    *len = total;
    return 0;
}
void frd__wnode_free(struct frd__worker *w, struct frd__wnode *node)
{
    // Freed once, after its last ref, with its descriptor closed and its state released.
    FRD_ASSERT(atomic_load(&node->refs) == 0);
    FRD_ASSERT(atomic_load(&node->fd_refs) == 0);
    FRD_ASSERT(node->state == NULL);
    if (node->flags & WN_NAME_HEAP) {
        frd__free(node->name);
    }
    frd__free(node->canon);
    struct frd_walk *walk = w->walk;
    if (w == walk->consumer) {
        // The consumer makes few nodes and frees most: hand them back to the workers, a
        // batch at a time (nodes left in a batch at the end go with their slabs).
        unsigned cls = node->size_class;
        FRD_ASSERT(cls < 2);
        struct frd__wnode_batch *b = &walk->ordered.handoff[cls];
        node->next_free = b->head;
        b->head = node;
        if (b->n++ == 0) {
            b->tail = node;
        }
        if (b->n < WN_HANDOFF_BATCH) {
            return;
        }
        uv_mutex_lock(&walk->ordered.node_lock);
        struct frd__wnode **shared =
            cls == 0 ? &walk->ordered.shared_small : &walk->ordered.shared_large;
        b->tail->next_free = *shared;
        *shared = b->head;
        uv_mutex_unlock(&walk->ordered.node_lock);
        b->head = NULL;
        b->tail = NULL;
        b->n = 0;
        return;
    }
    struct frd__wnode **head = node->size_class == 0 ? &w->free_small : &w->free_large;
    node->next_free = *head;
    *head = node;
}
void frd__state_free(struct frd_walk *walk, void *state)
{
    // Not gated by a stop: a state is released exactly once, also after a stop or cancel.
    if (state != NULL && walk->opts.on_dir_state_free != NULL) {
        walk->opts.on_dir_state_free(state, walk->hooks.udata);
    }
}
