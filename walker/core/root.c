// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A root, in both modes: stat it (a link as a link unless the walk follows), open it before
 * its visit (so the visit can say whether its volume's ids persist), visit it, and report
 * a root that could not be opened (it is still visited) unless the visit pruned it: a
 * pruned directory is not read, so nothing failed (find reports no pruned root). What
 * follows, listing it, is the mode's.
 */
#include "root.h"

#include "identity.h"
#include "report.h"
#include "resolve.h"

#include <string.h>

/**
 * Does the root's own path cross a symbolic link (one of its components, itself included,
 * is one)? Each component is stat'ed, once per root, in the worker's scratch.
 */
static bool wn_root_path_has_link(struct frd__worker *w, const struct frd__wnode *root)
{
    if (frd__grow(&w->canon, &w->canon_cap, root->name_len + 1) < 0) {
        return false;
    }
    memcpy(w->canon, root->name, root->name_len + 1);
    for (size_t i = 1; i <= root->name_len; i++) {
        // The end of a component: before a separator, or the end of the name.
        if (frd__plat_is_sep(w->canon[i - 1]) ||
            (i < root->name_len && !frd__plat_is_sep(w->canon[i]))) {
            continue;
        }
        char saved = w->canon[i];
        w->canon[i] = '\0';
        struct frd_entry l;
        memset(&l, 0, sizeof(l));
        bool link =
            frd__plat_stat_fields(FRD_INVALID_FD, w->canon, false, FRD_FIELD_TYPE, &l) == 0 &&
            l.type == FRD_TYPE_LNK;
        w->canon[i] = saved;
        if (link) {
            return true;
        }
    }
    return false;
}

/**
 * Stats a root (following it unless the walk follows nothing: find -P reports a root that
 * is a link as a link), into node->entry. @return 0 or the error reported.
 */
static int root_stat(struct frd__worker *w, struct frd__wnode *root)
{
    struct frd_walk *walk = w->walk;
    struct frd_entry e;
    memset(&e, 0, sizeof(e));
    bool follow = walk->opts.follow != FRD_FOLLOW_NEVER;
    // The fields the visits want, plus the ids the walk decides with (one file system,
    // loops, volume classes); names-only walks ask for the type alone.
    unsigned fields = walk->plan.names_only ? FRD_FIELD_TYPE : walk->plan.fields | FRD__ID_FIELDS;
    int rc = frd__plat_stat_fields(FRD_INVALID_FD, root->name, follow, fields, &e);
    if (rc < 0 && follow && rc == FRD_ENOENT) {
        // A dangling link as a root is still reported, as a link (find -L does); a link
        // that loops (FRD_ELOOP) is an error, as find reports it.
        memset(&e, 0, sizeof(e));
        if (frd__plat_stat_fields(FRD_INVALID_FD, root->name, false, fields, &e) == 0 &&
            e.type == FRD_TYPE_LNK) {
            rc = 0;
        }
    }
    if (rc < 0) {
        frd__report_root(w, root->name, FRD__FAIL_STAT, rc);
        return rc;
    }
    e.name = root->name;
    e.name_len = root->name_len;
    root->entry = e;
    if (follow && e.type != FRD_TYPE_LNK) {
        struct frd_entry l;
        memset(&l, 0, sizeof(l));
        if (frd__plat_stat_at(FRD_INVALID_FD, root->name, false, true, &l) == 0 &&
            l.type == FRD_TYPE_LNK) {
            root->flags |= WN_VIA_LINK;
        }
    }
    if (walk->opts.follow == FRD_FOLLOW_ALL && wn_root_path_has_link(w, root)) {
        root->flags |= WN_PATH_HAS_LINK; // every link below is checked against the limit
    }
    if ((e.fields & FRD_FIELD_DEV) && !walk->plan.names_only) {
        root->persistent_ids = frd__volcache_get(walk->ids.volumes, e.dev) == FRD__VOL_STRONG;
    }
    return 0;
}

/** Opens a root directory (the user named it: a link there is followed by the kernel only
 *  if asked, or if the name ends in '/'). */
static int root_open(struct frd__worker *w, struct frd__wnode *root, frd_os_fd *fd)
{
    struct frd_walk *walk = w->walk;
    int rc = frd__plat_open_dir(FRD_INVALID_FD, root->name, 0, fd);
    if (rc < 0) {
        *fd = FRD_INVALID_FD;
        return rc;
    }
    atomic_fetch_add(&walk->open_fds, 1);
    root->fd = *fd;
    // One ref for the listing, one that pins the root while its subtree lives: every
    // reopen along the ancestors can start from it.
    atomic_store(&root->fd_refs, 2);
    root->flags |= WN_ROOT_PIN;
    return 0;
}

enum frd__root_next frd__root_begin(struct frd__worker *w, struct frd__wnode *root,
                                    struct frd__root_start *rs)
{
    struct frd_walk *walk = w->walk;
    rs->dir_len = 0;
    rs->fd = FRD_INVALID_FD;
    rs->cls = FRD__VOL_UNTRUSTED;
    if (root_stat(w, root) < 0) {
        return FRD__ROOT_DONE;
    }
    // A root directory is opened before its visit, so that the visit can say whether its
    // volume's ids persist; a root that cannot be opened is still visited, then reported if
    // the visit wants it read.
    bool is_dir = root->entry.type == FRD_TYPE_DIR && walk->opts.max_depth != 0;
    int open_rc = 0;
    if (is_dir) {
        if (frd__worker_dir_path(w, root, &rs->dir_len) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, w);
            return FRD__ROOT_DONE;
        }
        open_rc = root_open(w, root, &rs->fd);
        if (open_rc == 0) {
            open_rc = frd__dir_opened(w, root, rs->fd, &rs->cls);
            root->vclass = (uint8_t)rs->cls;
        }
    }
    unsigned slot = frd__slot_hold(w);
    struct frd_walk_entry we =
        frd__wnode_walk_entry(root, root->name, root->name_len, FRD_INVALID_FD, slot);
    enum frd_action act = frd__visit(w, &we);
    enum frd__root_next next = FRD__ROOT_DONE;
    if (is_dir && open_rc < 0 && act == FRD_ACTION_CONTINUE &&
        frd__report_root(w, root->name, FRD__FAIL_OPEN, open_rc)) {
        next = FRD__ROOT_UNREADABLE;
    }
    if (rs->fd == FRD_INVALID_FD) {
        return next;
    }
    if (act != FRD_ACTION_CONTINUE || open_rc < 0) {
        frd__fd_release(walk, root); // the listing's ref; the subtree pin goes with the node
        return next;
    }
    return FRD__ROOT_LIST;
}
