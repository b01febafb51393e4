// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Hard-link groups (walker/core/links.c, FRD_WALK_LINK_GROUPS): which entries with more than
 * one link name the same file, and the path under which the walk met it first.
 */
#ifndef FRD_WALKER_CORE_LINKS_H
#define FRD_WALKER_CORE_LINKS_H

#include "platform.h"

#include <stddef.h>
#include <stdint.h>

/** The groups of one walk: a table keyed by (dev, ino) of multiply-linked files only. */
struct frd__links;

int frd__links_new(struct frd__links **out);
void frd__links_free(struct frd__links *links);

/** The group of one entry. */
struct frd__link_group {
    uint64_t group;    /**< nonzero, one per group (1, 2, ... in visit order when ordered) */
    const char *first; /**< the first-met path, NULL if it is `path` itself */
    size_t first_len;  /**< bytes in first */
};

/**
 * The group of the file `id`, met now under `path`: made (this path first) or found.
 * Thread-safe; the first path stays valid until frd__links_free(). @return 0 or FRD_ENOMEM.
 */
int frd__links_group(struct frd__links *links, const struct frd__identity *id, const char *path,
                     size_t path_len, struct frd__link_group *out);

#endif // FRD_WALKER_CORE_LINKS_H
