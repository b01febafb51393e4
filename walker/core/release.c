// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A node's end: each ref released once; the last one adds up what batch tasks counted, runs
 * the post-order hook where the plan says so (the concurrent mode: it needs the parent's
 * descriptor, reopened by ".." when it was not kept), releases the caller's directory
 * state and the root's own descriptor pin, frees the node, and goes on to its parent.
 */
#include "release.h"

#include "open.h"
#include "report.h"

/**
 * The post-order hook for a finished directory (concurrent mode). `*carry` is a descriptor
 * of `node` this worker reopened for the hook of a child just finished, or FRD_INVALID_FD:
 * the parent is reached from it by "..", and the parent's reopened descriptor is carried on
 * the same way, so finishing a chain deeper than the budget costs a step per directory.
 */
static void wn_post_order(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *carry)
{
    struct frd_walk *walk = w->walk;
    size_t len;
    frd_os_fd pfd = FRD_INVALID_FD;
    int how = FD_NONE;
    if (frd__worker_path2(w, node, &len) == 0) {
        how = frd__parent_fd_get(w, node, *carry, &pfd);
        unsigned slot = frd__slot_hold(w);
        struct frd_walk_entry we = frd__wnode_walk_entry(node, w->path2, len, pfd, slot);
        if (frd__cb_enter(w)) {
            walk->opts.on_dir_done(&we, &node->totals, walk->hooks.udata);
            frd__cb_leave(w);
        }
    }
    frd__fd_close_owned(walk, *carry);
    *carry = FRD_INVALID_FD;
    if (how == FD_OWNED) {
        *carry = pfd; // for the parent's own post-order, if it finishes next
    } else {
        frd__parent_fd_put(w, node, how, pfd);
    }
}

void frd__wnode_release(struct frd__worker *w, struct frd__wnode *node)
{
    struct frd_walk *walk = w->walk;
    frd_os_fd carry = FRD_INVALID_FD; // a descriptor of `node`, reopened by the loop
    while (node != NULL) {
        unsigned prev = atomic_fetch_sub(&node->refs, 1);
        FRD_ASSERT(prev > 0); // a node is released once per ref: a second release is a bug
        if (prev != 1) {
            break;
        }
        // The node and everything below it are done.
        node->totals.bytes += atomic_load(&node->batch_bytes);
        if (walk->plan.post_order_on_release && node->listed && !frd__walk_stopping(walk) &&
            (int)node->depth >= walk->opts.min_depth) {
            wn_post_order(w, node, &carry);
        } else {
            frd__fd_close_owned(walk, carry);
            carry = FRD_INVALID_FD;
        }
        if (node->flags & WN_ROOT_PIN) {
            frd__fd_release(walk, node);
        }
        frd__state_free(walk, node->state);
        node->state = NULL;
        frd__state_free(walk, node->hook_state);
        node->hook_state = NULL;
        struct frd__wnode *parent = node->parent;
        frd__wnode_free(w, node);
        node = parent;
    }
    frd__fd_close_owned(walk, carry);
}

void frd__wnode_drop(struct frd__worker *w, struct frd__wnode *node)
{
    if (node->flags & WN_HOLDS_PARENT_FD) {
        node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
        frd__fd_release(w->walk, node->parent);
    }
    node->listed = false;
    frd__wnode_release(w, node);
}
