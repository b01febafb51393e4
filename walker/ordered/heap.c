// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's listing tasks (walker/ordered/heap.h): each directory's pre-order label,
 * the heap that gives the workers the directory that comes first in pre-order, and the
 * consumer's prunes that let workers skip what it will not visit.
 */
#include "heap.h"

#include "ordered_int.h"

/* ---- Pre-order labels ---- */

void frd__o_label_bits(struct frd__wnode *node, size_t n)
{
    unsigned bits = 1;
    while (bits < 64 && (n >> bits) != 0) {
        bits++; // ord + 1 <= n fits in bits
    }
    node->pre_child_bits = (uint8_t)bits;
}

void frd__o_label_child(const struct frd__wnode *parent, struct frd__wnode *child, size_t ord)
{
    unsigned bits = parent->pre_child_bits;
    FRD_ASSERT(bits >= 1 && bits <= 64 && (bits == 64 || ((uint64_t)ord + 1) >> bits == 0));
    if (parent->pre_used == FRD__PRE_NONE || parent->pre_used + bits > 128) {
        child->pre_used = FRD__PRE_NONE;
        return;
    }
    // ord + 1 in bits [128 - used - bits, 128 - used) of the parent's label: the parent,
    // with 0 there, comes first; a sibling's subtree, which only adds lower bits, keeps
    // its sibling's place.
    uint64_t v = (uint64_t)ord + 1;
    unsigned shift = 128 - parent->pre_used - bits;
    child->pre[0] = parent->pre[0];
    child->pre[1] = parent->pre[1];
    if (shift >= 64) {
        child->pre[0] |= v << (shift - 64);
    } else if (shift + bits <= 64) {
        child->pre[1] |= v << shift;
    } else {
        child->pre[0] |= v >> (64 - shift);
        child->pre[1] |= v << shift;
    }
    child->pre_used = (uint8_t)(parent->pre_used + bits);
}

/* ---- The heap, by pre-order position ---- */

/** Nodes by pre-order position, walking the ancestors: <0, 0 (the same node) or >0. */
static int pre_cmp(const struct frd__wnode *a, const struct frd__wnode *b)
{
    if (a == b) {
        return 0;
    }
    while (a->depth > b->depth) {
        a = a->parent;
        if (a == b) {
            return 1; // b is an ancestor: it comes first
        }
    }
    while (b->depth > a->depth) {
        b = b->parent;
        if (b == a) {
            return -1;
        }
    }
    while (a->parent != b->parent) {
        a = a->parent;
        b = b->parent;
    }
    return a->ord < b->ord ? -1 : 1;
}

/** Is label a below label b (128-bit numbers, the high half first)? */
static bool label_less(const uint64_t a[2], const uint64_t b[2])
{
    return a[0] != b[0] ? a[0] < b[0] : a[1] < b[1];
}

/** Does task a come before task b in pre-order? By their labels where both have one. */
static bool task_less(const struct o_task *a, const struct o_task *b)
{
    if (a->labeled && b->labeled && a->root == b->root) {
        bool less = label_less(a->pre, b->pre);
        FRD_ASSERT(a->node == b->node || less || label_less(b->pre, a->pre)); // distinct
        FRD_ASSERT(less == (pre_cmp(a->node, b->node) < 0));
        return less;
    }
    return pre_cmp(a->node, b->node) < 0;
}

/** The heap's order where a task settled (Debug builds): after its parent, before its
 *  children; the count within the capacity. */
static void heap_check_at(const struct frd__ordered *o, size_t i)
{
    FRD_ASSERT(o->heap_n <= o->heap_cap && i < o->heap_n);
    FRD_ASSERT(i == 0 || task_less(&o->heap[(i - 1) / 2], &o->heap[i]));
    FRD_ASSERT(2 * i + 1 >= o->heap_n || task_less(&o->heap[i], &o->heap[2 * i + 1]));
    FRD_ASSERT(2 * i + 2 >= o->heap_n || task_less(&o->heap[i], &o->heap[2 * i + 2]));
    (void)o;
    (void)i;
}

int frd__oheap_push(struct frd__ordered *o, struct frd__wnode *node)
{
    if (FRD__RESERVE(o->heap, o->heap_cap, o->heap_n + 1, 256) < 0) {
        return FRD_ENOMEM;
    }
    struct o_task t = {
        .pre = {node->pre[0], node->pre[1]},
        .node = node,
        .root = node->root_index,
        .labeled = node->pre_used != FRD__PRE_NONE,
    };
    size_t i = o->heap_n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (task_less(&o->heap[up], &t)) {
            break;
        }
        o->heap[i] = o->heap[up];
        i = up;
    }
    o->heap[i] = t;
    heap_check_at(o, i);
    return 0;
}

/** Takes the top off the heap (its next sibling is not pushed here). */
static struct frd__wnode *oheap_take_top(struct frd__ordered *o)
{
    FRD_ASSERT(o->heap_n > 0);
    struct frd__wnode *top = o->heap[0].node;
    struct o_task last = o->heap[--o->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= o->heap_n) {
            break;
        }
        if (c + 1 < o->heap_n && task_less(&o->heap[c + 1], &o->heap[c])) {
            c++;
        }
        if (task_less(&last, &o->heap[c])) {
            break;
        }
        o->heap[i] = o->heap[c];
        i = c;
    }
    if (o->heap_n > 0) {
        o->heap[i] = last;
        heap_check_at(o, i);
    }
    return top;
}

struct frd__wnode *frd__oheap_pop(struct frd__ordered *o)
{
    struct frd__wnode *top = oheap_take_top(o);
    struct frd__wnode *next = top->next_sib;
    if (next != NULL) {
        // It comes after top and its subtree, so nothing on the heap needs it sooner; the
        // slot top left is free, so this push never allocates.
        top->next_sib = NULL;
        int rc = frd__oheap_push(o, next);
        FRD_ASSERT(rc == 0);
        (void)rc;
    }
    return top;
}

void frd__o_drop_task(struct frd__worker *w, struct frd__wnode *node)
{
    if (node->flags & WN_ROOT) {
        frd__fd_release(w->walk, node); // the listing's ref, which the consumer took for it
    }
    frd__wnode_drop(w, node);
}

void frd__o_prune(struct frd__ordered *o, struct frd__wnode *node)
{
    atomic_store_explicit(&o->any_pruned, true, memory_order_relaxed);
    atomic_store_explicit(&node->pruned, true, memory_order_relaxed);
}

bool frd__o_chain_pruned(const struct frd__ordered *o, const struct frd__wnode *node)
{
    // Relaxed: a prune seen late only costs a listing nobody visits (purged or discarded).
    if (!atomic_load_explicit(&o->any_pruned, memory_order_relaxed)) {
        return false;
    }
    for (; node != NULL; node = node->parent) {
        if (atomic_load_explicit(&node->pruned, memory_order_relaxed)) {
            return true;
        }
    }
    return false;
}
