// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The order GNU find and du meet a directory's entries in (gnulib's fts), for -find-order
 *  and --du-order. */
#ifndef FRD_TOOL_FTS_ORDER_H
#define FRD_TOOL_FTS_ORDER_H

#include <frd.h>

/**
 * For a children hook of an ordered walk in listing order (FRD_WALK_ORDERED |
 * FRD_WALK_LISTING_ORDER, children_fields with FRD_FIELD_FILE_ID): leaves a directory's
 * entries in the order the directory lists them, as fts reads them, except that it sorts a
 * directory of more than 10,000 entries by inode number, as fts does there to spare a
 * disk's seeks (on Linux not on tmpfs, NFS and CIFS, where fts does not), each batch of
 * 100,000 entries fts reads at a time on its own. Call it before dropping entries (fts
 * counts them all). Thread-safe: hooks run on several listing threads at once.
 */
void fts_order_sort(struct frd_walk_children *kids);

#endif // FRD_TOOL_FTS_ORDER_H
