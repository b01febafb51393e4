// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Opening a node's directory safely (walker/core/open.c): relative to its parent's
 * descriptor, or along its ancestors from the nearest one still open, checking recorded
 * identities; reopening a directory whose descriptor was not kept; the parent's descriptor
 * for callbacks; and the keep-the-descriptor decision, within the walk's budget.
 */
#ifndef FRD_WALKER_CORE_OPEN_H
#define FRD_WALKER_CORE_OPEN_H

#include "walk.h"

/**
 * Opens a node's directory (relative to its parent, or along its ancestors). The ref on the
 * parent's descriptor it was given (WN_HOLDS_PARENT_FD) is released, except on success with
 * plan.hook_pins_parent: then the caller releases it after the children hook. Counts it in
 * open_fds. @return 0 with *out set, or a negative code.
 */
int frd__wnode_open(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out);
/**
 * Opens a node's own directory again (its descriptor was not kept): from the nearest
 * ancestor still open, one component at a time, O_NOFOLLOW except through links the walk
 * followed, checking recorded identities, the node's own included. Counts it in open_fds.
 * @return 0 with *out set (close with frd__fd_close_owned()), or a negative code.
 */
int frd__wnode_reopen(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out);
/**
 * Like frd__wnode_reopen(), trying first one step from `nearby`: the node's parent (open
 * node's name in it) or, with nearby_is_child, one of its children (open ".."), either checked
 * against the node's recorded identity.
 */
int frd__wnode_reopen_near(struct frd__worker *w, struct frd__wnode *node, frd_os_fd nearby,
                           bool nearby_is_child, frd_os_fd *out);
/** Closes a descriptor frd__wnode_reopen() gave (FRD_INVALID_FD is allowed). */
void frd__fd_close_owned(struct frd_walk *walk, frd_os_fd fd);

/** How frd__parent_fd_get() got the descriptor. */
enum { FD_NONE = 0, FD_PINNED = 1, FD_OWNED = 2 };
/**
 * A descriptor of a node's parent for a callback: pinned if it is open, else reopened (by
 * ".." from `node_fd`, the node's own descriptor, when given, else along the ancestors).
 * @return FD_NONE (a root: *fd is FRD_INVALID_FD, or the reopen failed), FD_PINNED or
 * FD_OWNED; give it back with frd__parent_fd_put().
 */
int frd__parent_fd_get(struct frd__worker *w, struct frd__wnode *node, frd_os_fd node_fd,
                       frd_os_fd *fd);
void frd__parent_fd_put(struct frd__worker *w, struct frd__wnode *node, int how, frd_os_fd fd);
/**
 * Decides once per directory whether its descriptor stays open for its children (below the
 * keep limit); one not kept records its identity for the children's reopens.
 * @return true if kept.
 */
bool frd__keep_fd(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd);

#endif // FRD_WALKER_CORE_OPEN_H
