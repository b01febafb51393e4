// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Opening a node's directory safely: relative to its parent's descriptor, borrowed through
 * its refcount; when that was not kept (the descriptor budget), along the ancestors from
 * the nearest one still open, one component at a time, each O_NOFOLLOW, checking recorded
 * identities. Also the parent's descriptor for callbacks, and the keep-the-descriptor
 * decision within the walk's budget.
 */
#include "open.h"

#include "identity.h"

#include <stddef.h>
#include <string.h>

/** Checks an open directory against the identity recorded for it. */
static int wn_check_identity(const struct frd__wnode *node, frd_os_fd fd)
{
    if (!(node->flags & WN_HAS_ID)) {
        return 0;
    }
    struct frd__identity id;
    int rc = frd__plat_fd_identity(fd, &id);
    if (rc < 0) {
        return rc;
    }
    return frd__identity_equal(&id, &node->id) ? 0 : FRD_ECHANGED;
}

static unsigned wn_open_flags(const struct frd__wnode *node)
{
    return (node->flags & WN_VIA_LINK) ? 0 : FRD_OPEN_NOFOLLOW;
}

/**
 * Reopens a node's parent along the ancestors: from the nearest ancestor whose descriptor
 * is still open, one component at a time, never following a link the walk did not follow,
 * checking each recorded identity. Then opens the node in it.
 */
static int wn_reopen(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out)
{
    struct frd_walk *walk = w->walk;
    size_t n = 0;
    struct frd__wnode *anchor = node->parent;
    while (anchor != NULL && !frd__fd_try_pin(anchor)) {
        int rc = FRD__RESERVE(w->chain, w->chain_cap, n + 1, 64);
        if (rc < 0) {
            return rc;
        }
        w->chain[n++] = anchor;
        anchor = anchor->parent;
    }
    if (anchor == NULL) {
        // Every ancestor closed, the root included: cannot happen while the root's subtree
        // pins it; say stale rather than guess a path.
        return FRD_ESTALE;
    }
    if (n > 0) {
        frd__sched_note_reopen_steps(walk->sched, n);
    }
    frd_os_fd cur = anchor->fd;
    bool cur_is_anchor = true;
    int rc = 0;
    for (size_t i = n; i-- > 0;) {
        struct frd__wnode *x = w->chain[i];
        frd_os_fd next;
        rc = frd__plat_open_dir(cur, x->name, wn_open_flags(x), &next);
        if (cur_is_anchor) {
            frd__fd_release(walk, anchor);
            cur_is_anchor = false;
        } else {
            frd__plat_close_dir(cur);
        }
        if (rc < 0) {
            return rc;
        }
        rc = wn_check_identity(x, next);
        if (rc < 0) {
            frd__plat_close_dir(next);
            return rc;
        }
        cur = next;
    }
    rc = frd__plat_open_dir(cur, node->name, wn_open_flags(node), out);
    if (cur_is_anchor) {
        frd__fd_release(walk, anchor);
    } else {
        frd__plat_close_dir(cur);
    }
    if (rc < 0) {
    }
    return rc;
}

int frd__wnode_reopen(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out)
{
    int rc;
    if (node->parent == NULL) {
        // A root whose descriptor was let go: by its name, as the walk opened it.
        rc = frd__plat_open_dir(FRD_INVALID_FD, node->name, 0, out);
    } else {
        rc = wn_reopen(w, node, out);
    }
    if (rc < 0) {
        return rc;
    }
    rc = wn_check_identity(node, *out);
    if (rc < 0) {
        frd__plat_close_dir(*out);
        return rc;
    }
    atomic_fetch_add(&w->walk->open_fds, 1);
    return 0;
}

int frd__wnode_reopen_near(struct frd__worker *w, struct frd__wnode *node, frd_os_fd nearby,
                           bool nearby_is_child, frd_os_fd *out)
{
    if (nearby != FRD_INVALID_FD && (node->flags & WN_HAS_ID)) {
        // One step from a descriptor at hand: down by name (never following a link the walk
        // did not follow) or up by "..", then the identity recorded when it was listed.
        const char *name = nearby_is_child ? ".." : node->name;
        unsigned flags = nearby_is_child ? FRD_OPEN_NOFOLLOW : wn_open_flags(node);
        if (frd__plat_open_dir(nearby, name, flags, out) == 0) {
            if (wn_check_identity(node, *out) == 0) {
                atomic_fetch_add(&w->walk->open_fds, 1);
                return 0;
            }
            frd__plat_close_dir(*out);
        }
    }
    return frd__wnode_reopen(w, node, out);
}

void frd__fd_close_owned(struct frd_walk *walk, frd_os_fd fd)
{
    if (fd != FRD_INVALID_FD) {
        frd__plat_close_dir(fd);
        atomic_fetch_sub(&walk->open_fds, 1);
    }
}

int frd__parent_fd_get(struct frd__worker *w, struct frd__wnode *node, frd_os_fd node_fd,
                       frd_os_fd *fd)
{
    struct frd__wnode *parent = node->parent;
    *fd = FRD_INVALID_FD;
    if (parent == NULL || (w->walk->opts.flags & FRD_WALK_NO_PARENT_FD)) {
        return FD_NONE;
    }
    if (frd__fd_try_pin(parent)) {
        *fd = parent->fd;
        return FD_PINNED;
    }
    return frd__wnode_reopen_near(w, parent, node_fd, true, fd) == 0 ? FD_OWNED : FD_NONE;
}

void frd__parent_fd_put(struct frd__worker *w, struct frd__wnode *node, int how, frd_os_fd fd)
{
    if (how == FD_PINNED) {
        frd__fd_release(w->walk, node->parent);
    } else if (how == FD_OWNED) {
        frd__fd_close_owned(w->walk, fd);
    }
}

int frd__wnode_open(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out)
{
    struct frd_walk *walk = w->walk;
    struct frd__wnode *parent = node->parent;
    int rc;
    if (node->flags & WN_HOLDS_PARENT_FD) {
        rc = frd__plat_open_dir(parent->fd, node->name, wn_open_flags(node), out);
        if (rc < 0 || !walk->plan.hook_pins_parent) {
            node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
            frd__fd_release(walk, parent);
        }
    } else if (frd__fd_try_pin(parent)) {
        rc = frd__plat_open_dir(parent->fd, node->name, wn_open_flags(node), out);
        frd__fd_release(walk, parent);
    } else {
        rc = wn_reopen(w, node, out);
    }
    if (rc < 0) {
        return rc;
    }
    // A directory reached through a link was checked for loops by its identity before we
    // came here; make sure the link still leads to the same place.
    if (node->flags & WN_VIA_LINK) {
        rc = wn_check_identity(node, *out);
        if (rc < 0) {
            frd__plat_close_dir(*out);
            if (node->flags & WN_HOLDS_PARENT_FD) { // kept for a children hook: not now
                node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
                frd__fd_release(walk, parent);
            }
            return rc;
        }
    }
    atomic_fetch_add(&walk->open_fds, 1);
    return 0;
}

/** Decides once per directory whether its descriptor stays open for its children. */
bool frd__keep_fd(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd)
{
    struct frd_walk *walk = w->walk;
    if (!(dir->flags & WN_KEEP_DECIDED)) {
        dir->flags |= WN_KEEP_DECIDED;
        if (atomic_load_explicit(&walk->open_fds, memory_order_relaxed) < walk->plan.keep_limit) {
            dir->flags |= WN_KEEP;
        } else if (!(dir->flags & WN_HAS_ID) && frd__plat_fd_identity(fd, &dir->id) == 0) {
            // Children will reopen it by path: record what they must find there.
            dir->flags |= WN_HAS_ID;
        }
    }
    return (dir->flags & WN_KEEP) != 0;
}
