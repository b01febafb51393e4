// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The children hook (walker/core/children.c): the view of a listing that opts.on_children
 * receives (struct frd_walk_children, the public frd_walk_children_*() functions), running the
 * hook over a listing or a part of one, and the survivors' late stat.
 */
#ifndef FRD_WALKER_CORE_CHILDREN_H
#define FRD_WALKER_CORE_CHILDREN_H

#include "frd.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct frd_walk;
struct frd__worker;
struct frd__wnode;

/** Opaque to users: one worker's view of a listing for opts.on_children. */
struct frd_walk_children {
    const struct frd_entry *v; /**< the worker's listing */
    uint32_t *order;           /**< indices into v, in visit order; count of them */
    size_t count;
    uint32_t *tmp;                    /**< sort scratch */
    uint8_t *marks;                   /**< per index of v: enum kid_mark bits */
    size_t cap;                       /**< of order, tmp and marks */
    frd_os_fd fd;                     /**< the directory, during the hook */
    unsigned part;                    /**< enum frd_walk_children_part bits of this call */
    const struct frd_walk_entry *dir; /**< the directory's visit, during the hook */
    char *path;                       /**< frd_walk_children_path()'s buffer */
    size_t path_cap;
    char *ign_buf; /**< scratch of the ignore rules' matches */
    size_t ign_cap;
};

/**
 * Runs the ignore rules (opts.ignore) and the hook over the worker's list (names and
 * types) of `node`: sets the view up, drops what the rules ignore, calls the hook, keeps
 * the survivors in its order. `dir` is the directory as the hook sees it, `fd` its
 * descriptor. @return 0 or FRD_ENOMEM.
 */
int frd__children_run(struct frd__worker *w, struct frd__wnode *node,
                      const struct frd_walk_entry *dir, frd_os_fd fd);
/**
 * Runs the hook over one part of a listing, `list`, through the view `k` (the worker's, or a
 * batch's): as frd__children_run(), with `part` the enum frd_walk_children_part bits the
 * hook reads. @return 0 or FRD_ENOMEM.
 */
int frd__children_run_part(struct frd__worker *w, struct frd__wnode *node,
                           struct frd_walk_children *k, const struct frd_list *list,
                           const struct frd_walk_entry *dir, frd_os_fd fd, unsigned part);
/**
 * The i-th survivor, stat'ed relative to `fd` unless the walk wants names only.
 * @return false if it vanished since the listing (then it is left out).
 */
bool frd__children_entry(struct frd__worker *w, size_t i, frd_os_fd fd, struct frd_entry *out,
                         bool *no_descent);
/** frd__children_entry() through the view `k` (a batch's, on whichever worker visits it). */
bool frd__children_entry_in(struct frd_walk *walk, const struct frd_walk_children *k, size_t i,
                            frd_os_fd fd, struct frd_entry *out, bool *no_descent);
/**
 * The stat of an entry listed by name and type only, relative to `fd`, with the walk's
 * fields, into *out (the entry itself when the stat fails: then with `error` set).
 * @return false if it vanished since the listing (then it is left out).
 */
bool frd__entry_stat_late(struct frd_walk *walk, const struct frd_entry *e, frd_os_fd fd,
                          struct frd_entry *out);

/**
 * The i-th entry of a directory's loop (both modes): the listing's own `v[i]`, or with the
 * children hook (`kids`) its i-th survivor, stat'ed into *scratch; *no_descent says whether
 * the hook marked it not to be entered. @return the entry, or NULL when it vanished.
 */
static inline const struct frd_entry *frd__dir_entry_at(struct frd__worker *w, bool kids,
                                                        const struct frd_entry *v, size_t i,
                                                        frd_os_fd fd, struct frd_entry *scratch,
                                                        bool *no_descent)
{
    *no_descent = false;
    if (!kids) {
        return &v[i];
    }
    return frd__children_entry(w, i, fd, scratch, no_descent) ? scratch : NULL;
}
/** Frees a view's arrays and zeroes it. */
void frd__children_view_free(struct frd_walk_children *k);

#endif // FRD_WALKER_CORE_CHILDREN_H
