// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * An entry before its visit, in both modes (walker/core/resolve.c): a followed link's
 * target, volume classes, loops, visit-once dedupe, whether to descend, the child node; and
 * a directory's identity and class once it is opened.
 */
#ifndef FRD_WALKER_CORE_RESOLVE_H
#define FRD_WALKER_CORE_RESOLVE_H

#include "walk.h"

/** The fields the walk itself decides with (identity: loops, one file system, volumes). */
#define FRD__ID_FIELDS (FRD_FIELD_FILE_ID | FRD_FIELD_DEV)

/** An entry as the walk will report it: a followed link's target, its identity, errors. */
struct frd__resolved {
    /** What the callback sees: the listing's entry itself (valid while it is), or `own`. */
    const struct frd_entry *entry;
    /** The entry where it differs from the listing's: a followed link's target, a stat's
     *  error, a names-only view of an entry listed with more. */
    struct frd_entry own;
    struct frd__identity id; /**< with has_id */
    bool has_id;
    bool followed;      /**< a link the walk followed */
    bool persistent;    /**< strong ids on its volume */
    bool path_has_link; /**< its path crosses a link (WN_PATH_HAS_LINK) */
    int err;            /**< an error to report first (0: none) */
    struct frd__failure err_op;
    const struct frd__wnode *loop; /**< with FRD_ELOOP from a loop: the ancestor repeated */
    const char *canon;             /**< canonical path (untrusted volumes, followed links) */
};

enum { RESOLVE_VISIT = 0, RESOLVE_SKIP = 1 };

/** frd__resolve_entry() for an entry that needs a look (walker/core/resolve.c), with *r
 *  filled as for an entry that needs none. @return RESOLVE_VISIT or _SKIP. */
int frd__resolve_look(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd,
                      enum frd__vol_class dir_class, bool dedupe, struct frd__resolved *r);

/**
 * Follows a link if asked, checks loops and duplicates. An entry listed with its type alone
 * that is neither a directory nor a link to follow needs no look (no id to check or dedupe
 * by, nothing to slim for a names-only walk): it is answered here, without a call, as
 * names-only walks list most entries. @return RESOLVE_VISIT or _SKIP.
 */
static inline int frd__resolve_entry(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd,
                                     enum frd__vol_class dir_class, const struct frd_entry *e,
                                     bool dedupe, struct frd__resolved *r)
{
    r->entry = e;
    r->followed = false;
    r->has_id = false;
    r->id.subvol = 0;
    r->loop = NULL;
    r->err = 0;
    r->canon = NULL;
    r->persistent = false;
    r->path_has_link = (dir->flags & WN_PATH_HAS_LINK) != 0;
    if (e->type != FRD_TYPE_DIR && (e->fields & ~(unsigned)FRD_FIELD_TYPE) == 0 &&
        !(e->type == FRD_TYPE_LNK && w->walk->opts.follow == FRD_FOLLOW_ALL)) {
        return RESOLVE_VISIT;
    }
    return frd__resolve_look(w, dir, fd, dir_class, dedupe, r);
}

/** Visit-each-once check (inserts the id). @return true for a duplicate to skip. */
bool frd__is_duplicate(struct frd_walk *walk, const struct frd__resolved *r);
/** frd__may_descend() for a directory (walker/core/resolve.c). */
bool frd__may_descend_dir(struct frd_walk *walk, const struct frd__wnode *dir,
                          const struct frd__resolved *r);

/** May the walk descend into this entry (after a CONTINUE)? Never into a non-directory,
 *  answered without a call. */
static inline bool frd__may_descend(struct frd_walk *walk, const struct frd__wnode *dir,
                                    const struct frd__resolved *r)
{
    return r->entry->type == FRD_TYPE_DIR && frd__may_descend_dir(walk, dir, r);
}
/** Makes the node of a subdirectory to descend into. @return it, or NULL (no memory). */
struct frd__wnode *frd__child_node(struct frd__worker *w, struct frd__wnode *dir,
                                   const struct frd__resolved *r);
/**
 * After opening a directory: its identity where the walk needs it, and its volume class.
 * @return 0, or a negative code (FRD_EXDEV: another file system, FRD_ECHANGED) if it must
 * not be listed.
 */
int frd__dir_opened(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                    enum frd__vol_class *cls);

#endif // FRD_WALKER_CORE_RESOLVE_H
