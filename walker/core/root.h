// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A root, in both modes (walker/core/root.c): stat it, open it before its visit, visit it,
 * report it if it could not be opened. Listing it is the mode's.
 */
#ifndef FRD_WALKER_CORE_ROOT_H
#define FRD_WALKER_CORE_ROOT_H

#include "walk.h"

/** What a root's mode does after frd__root_begin(). */
enum frd__root_next {
    FRD__ROOT_DONE,       /**< nothing more (not a directory, skipped, failed, stopped) */
    FRD__ROOT_UNREADABLE, /**< visited with CONTINUE, could not be opened: post-order only */
    FRD__ROOT_LIST,       /**< open (rs->fd holds the listing's ref): list it */
};

/** A root directory opened for listing. */
struct frd__root_start {
    size_t dir_len;          /**< its path's length in w->path */
    frd_os_fd fd;            /**< with FRD__ROOT_LIST */
    enum frd__vol_class cls; /**< its volume class */
};

/**
 * Stats, opens and visits a root; reports a root that could not be opened. The node's own
 * ref stays with the caller. @return what the mode does next.
 */
enum frd__root_next frd__root_begin(struct frd__worker *w, struct frd__wnode *root,
                                    struct frd__root_start *rs);

#endif // FRD_WALKER_CORE_ROOT_H
