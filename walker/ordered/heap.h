// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's listing tasks (walker/ordered/heap.c): pre-order labels, the heap of
 * directories to list by their position in the pre-order, and pruning. Called with the
 * mode's mu held, but for the labels and frd__o_chain_pruned().
 */
#ifndef FRD_WALKER_ORDERED_HEAP_H
#define FRD_WALKER_ORDERED_HEAP_H

#include "core/core.h"

struct frd__ordered;

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

/** Pushes a task (and, behind it, its next_sib chain). @return 0 or FRD_ENOMEM. */
int frd__oheap_push(struct frd__ordered *o, struct frd__wnode *node);
/** Labels a child made from entry `ord` of its parent's listing (frd__wnode.pre). */
void frd__o_label_child(const struct frd__wnode *parent, struct frd__wnode *child, size_t ord);
/** Sets the bits a child's place takes in its label, for a listing of n entries. */
void frd__o_label_bits(struct frd__wnode *node, size_t n);
/** Takes the first task in pre-order off the heap and pushes its next sibling, if any. */
struct frd__wnode *frd__oheap_pop(struct frd__ordered *o);
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
#endif // FRD_WALKER_ORDERED_HEAP_H
