// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Directory nodes (walker/core/node.h): allocation from per-worker slabs and free lists (handed back across
 * threads in ordered mode), their paths, and their descriptor refcount (pin and release).
 *
 * Allocation: nodes come from per-worker slabs and free lists, buffers grow by doubling and
 * are kept, so a walk allocates a number of times that grows with workers and depth, not
 * with directories.
 */
#include "node.h"

#include "identity.h"
#include "ignore/ignore.h"
#include "walk.h"

#include <stddef.h>
#include <string.h>

/** Name capacity of the two node size classes; longer names are allocated apart. */
#define WN_SMALL_NAME 48
#define WN_LARGE_NAME 1024
/** Nodes per slab. */
#define WN_SLAB_NODES 64
/** Nodes the ordered consumer frees before it hands them to the workers. */
#define WN_HANDOFF_BATCH 64
/** Node serials a worker takes at a time. */
#define WN_SERIAL_RANGE 4096

static size_t wn_node_size(unsigned size_class)
{
    size_t name = size_class == 0 ? WN_SMALL_NAME : WN_LARGE_NAME;
    size_t size = offsetof(struct frd__wnode, name_inline) + name;
    return (size + 15) & ~(size_t)15;
}

int frd__node_share_init(struct frd__node_share *share)
{
    memset(share, 0, sizeof(*share));
    if (uv_mutex_init(&share->lock) != 0) {
        return FRD_ENOMEM;
    }
    share->lock_ready = true;
    atomic_init(&share->serials, 1); // 0: no node (a worker's path levels start empty)
    return 0;
}

void frd__node_share_destroy(struct frd__node_share *share)
{
    if (share->lock_ready) {
        uv_mutex_destroy(&share->lock);
        share->lock_ready = false;
    }
}

void frd__node_cache_free(struct frd__node_cache *cache)
{
    for (size_t i = 0; i < cache->nslabs; i++) {
        frd__free(cache->slabs[i]);
    }
    frd__free(cache->slabs);
    memset(cache, 0, sizeof(*cache));
}

/**
 * Adds a slab of nodes of `size_class` to a worker's cache, handed out from its start as
 * they are needed (a walk of a few directories touches a page of it, not 25 KB).
 * @return 0 or FRD_ENOMEM.
 */
static int wn_slab(struct frd__node_cache *cache, unsigned size_class)
{
    if (FRD__RESERVE(cache->slabs, cache->slabs_cap, cache->nslabs + 1, 16) < 0) {
        return FRD_ENOMEM;
    }
    char *slab = frd__malloc(wn_node_size(size_class) * WN_SLAB_NODES);
    if (slab == NULL) {
        return FRD_ENOMEM;
    }
    cache->slabs[cache->nslabs++] = slab;
    cache->fresh[size_class] = slab;
    cache->fresh_left[size_class] = WN_SLAB_NODES;
    return 0;
}

/** Takes a node of `size_class` from the free list, else the newest slab's fresh ones
 *  (the caller saw that one of them has a node). */
static struct frd__wnode *wn_take(struct frd__node_cache *cache, unsigned size_class)
{
    struct frd__wnode *node = cache->free[size_class];
    if (node != NULL) {
        FRD_ASSERT(node->size_class == size_class); // each free list holds its own class
        cache->free[size_class] = node->next_free;
        return node;
    }
    FRD_ASSERT(cache->fresh_left[size_class] > 0);
    node = (struct frd__wnode *)(void *)cache->fresh[size_class];
    cache->fresh[size_class] += wn_node_size(size_class);
    cache->fresh_left[size_class]--;
    return node;
}

struct frd__wnode *frd__wnode_new(struct frd__worker *w, struct frd__wnode *parent,
                                  const char *name, size_t name_len)
{
    unsigned size_class = name_len < WN_SMALL_NAME ? 0 : 1;
    struct frd__node_cache *cache = &w->nodes;
    struct frd__wnode **head = &cache->free[size_class];
    if (*head == NULL && w->walk->plan.sched.consumer) {
        // Ordered mode: the consumer frees the nodes workers made; take them back.
        struct frd__node_share *share = &w->walk->nodes;
        uv_mutex_lock(&share->lock);
        *head = share->shared[size_class];
        share->shared[size_class] = NULL;
        uv_mutex_unlock(&share->lock);
    }
    if (*head == NULL && cache->fresh_left[size_class] == 0 && wn_slab(cache, size_class) < 0) {
        return NULL;
    }
    char *heap_name = NULL;
    if (name_len >= WN_LARGE_NAME) {
        heap_name = frd__malloc(name_len + 1);
        if (heap_name == NULL) {
            return NULL;
        }
    }
    struct frd__wnode *node = wn_take(cache, size_class);
    memset(node, 0, offsetof(struct frd__wnode, name_inline));
    node->size_class = (uint8_t)size_class;
    node->parent = parent;
    atomic_init(&node->refs, 1);
    atomic_init(&node->fd_refs, 0);
    atomic_init(&node->pruned, false);
    node->fd = FRD_INVALID_FD;
    node->depth = parent ? parent->depth + 1 : 0;
    if (w->serial_next == w->serial_end) {
        w->serial_next = atomic_fetch_add_explicit(&w->walk->nodes.serials, WN_SERIAL_RANGE,
                                                   memory_order_relaxed);
        w->serial_end = w->serial_next + WN_SERIAL_RANGE;
    }
    node->serial = w->serial_next++;
    if (node->depth >= FRD__LOOP_SCAN_DEPTH) {
        node->scan_top = node->depth == FRD__LOOP_SCAN_DEPTH ? parent : parent->scan_top;
    }
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
        unsigned before = atomic_fetch_add(&parent->refs, 1);
        FRD_ASSERT(before > 0); // a parent lives while it makes children
        (void)before;
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
        atomic_fetch_sub(&walk->open_fds, 1);
    }
}

int frd__wnode_path(const struct frd__wnode *node, char **buf, size_t *cap, size_t *len)
{
    size_t total = 0;
    for (const struct frd__wnode *n = node; n != NULL; n = n->parent) {
        total += n->name_len;
        if (n->parent != NULL) {
            total += frd__path_sep(n->parent->name, n->parent->name_len);
        }
    }
    // Room for a child's name too, so the entries of this directory rarely grow it.
    if (frd__grow(buf, cap, total + 1 + 256) < 0) {
        return FRD_ENOMEM;
    }
    char *p = *buf;
    size_t end = total;
    p[end] = '\0';
    for (const struct frd__wnode *n = node; n != NULL; n = n->parent) {
        end -= n->name_len;
        memcpy(p + end, n->name, n->name_len);
        if (n->parent != NULL && frd__path_sep(n->parent->name, n->parent->name_len)) {
            p[--end] = '/';
        }
    }
    *len = total;
    return 0;
}

/** Is the path a buffer holds at `node`'s depth (memo) that of `node` itself? */
static bool wn_memo_has(const struct frd__path_memo *memo, const struct frd__wnode *node)
{
    return node->depth < memo->n && memo->levels[node->depth].node == node &&
           memo->levels[node->depth].serial == node->serial;
}

/** Writes `node`'s path into *buf, from the nearest ancestor `memo` says it holds. */
static int wn_path_memo(struct frd__worker *w, const struct frd__wnode *node, char **buf,
                        size_t *cap, struct frd__path_memo *memo, size_t *len)
{
    // Up to the nearest ancestor (the node itself, at best) whose path the buffer holds:
    // it and its ancestors are alive (a node holds a ref on its parent), so the comparison
    // reads only live nodes, and a serial tells a node from an earlier one at its address.
    const size_t depth = node->depth;
    size_t n = 0;
    const struct frd__wnode *a = node;
    for (; a != NULL && !wn_memo_has(memo, a); a = a->parent) {
        if (FRD__RESERVE(w->path_chain, w->path_chain_cap, n + 1, 64) < 0) {
            return FRD_ENOMEM;
        }
        w->path_chain[n++] = a;
    }
    size_t end = a != NULL ? memo->levels[a->depth].len : 0;
    size_t total = end;
    for (size_t i = 0; i < n; i++) {
        const struct frd__wnode *c = w->path_chain[i];
        total += c->name_len;
        if (c->parent != NULL) {
            total += frd__path_sep(c->parent->name, c->parent->name_len);
        }
    }
    // Room for a child's name too, so the entries of this directory rarely grow it.
    if (frd__grow(buf, cap, total + 1 + 256) < 0 ||
        FRD__RESERVE(memo->levels, memo->cap, (size_t)depth + 1, 64) < 0) {
        memo->n = 0; // the buffer may have moved; what it holds is still right, but be plain
        return FRD_ENOMEM;
    }
    char *p = *buf;
    for (size_t i = n; i-- > 0;) {
        const struct frd__wnode *c = w->path_chain[i];
        if (c->parent != NULL && frd__path_sep(c->parent->name, c->parent->name_len)) {
            p[end++] = '/';
        }
        memcpy(p + end, c->name, c->name_len);
        end += c->name_len;
        memo->levels[c->depth] = (struct frd__path_level){c, c->serial, end};
    }
    FRD_ASSERT(end == total);
    p[end] = '\0';
    // Deeper levels go: what lies past `end` is the caller's (its entries' names).
    memo->n = (size_t)depth + 1;
    *len = end;
    return 0;
}

int frd__worker_dir_path(struct frd__worker *w, const struct frd__wnode *node, size_t *len)
{
    return wn_path_memo(w, node, &w->path, &w->path_cap, &w->path_memo, len);
}

int frd__worker_path2(struct frd__worker *w, const struct frd__wnode *node, size_t *len)
{
    return wn_path_memo(w, node, &w->path2, &w->path2_cap, &w->path2_memo, len);
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
    if (node->ign_own) {
        frd__ign_level_free(node->ign);
    }
    struct frd_walk *walk = w->walk;
    if (node->flags & WN_IN_DEEP_SET) {
        frd__deep_dirs_remove(&walk->ids.deep, &node->id);
    }
    if (w == walk->consumer) {
        // The consumer makes few nodes and frees most: hand them back to the workers, a
        // batch at a time (nodes left in a batch at the end go with their slabs).
        unsigned cls = node->size_class;
        FRD_ASSERT(cls < 2);
        struct frd__node_share *share = &walk->nodes;
        struct frd__wnode_batch *b = &share->handoff[cls];
        node->next_free = b->head;
        b->head = node;
        if (b->n++ == 0) {
            b->tail = node;
        }
        if (b->n < WN_HANDOFF_BATCH) {
            return;
        }
        uv_mutex_lock(&share->lock);
        b->tail->next_free = share->shared[cls];
        share->shared[cls] = b->head;
        uv_mutex_unlock(&share->lock);
        b->head = NULL;
        b->tail = NULL;
        b->n = 0;
        return;
    }
    struct frd__wnode **head = &w->nodes.free[node->size_class];
    node->next_free = *head;
    *head = node;
}
