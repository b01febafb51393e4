// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A node's end (walker/core/release.c): its refs released, the last one running the
 * post-order hook where the plan says so (the concurrent mode) and freeing it, then its
 * parent's ref, up the chain.
 */
#ifndef FRD_WALKER_CORE_RELEASE_H
#define FRD_WALKER_CORE_RELEASE_H

#include "walk.h"

/** Releases one ref of a node; the last one finishes it and releases its parent's. */
void frd__wnode_release(struct frd__worker *w, struct frd__wnode *node);
/** Drops a task that will not be listed (stop, prune): releases what it holds. */
void frd__wnode_drop(struct frd__worker *w, struct frd__wnode *node);

#endif // FRD_WALKER_CORE_RELEASE_H
