// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frddu --du-order: the order du meets a directory's entries in (gnulib's fts). */
#ifndef FRDDU_ORDER_H
#define FRDDU_ORDER_H

#include <frd.h>

/**
 * The children hook of --du-order, for an ordered walk in listing order
 * (FRD_WALK_ORDERED | FRD_WALK_LISTING_ORDER, children_fields with FRD_FIELD_FILE_ID):
 * leaves a directory's entries in the order the directory lists them, as fts reads them,
 * except that it sorts a directory of more than 10,000 entries by inode number, as fts does
 * there to spare a disk's seeks (on Linux not on tmpfs, NFS and CIFS, where fts does not),
 * each batch of 100,000 entries fts reads at a time on its own. Runs on the walk's listing
 * threads, several at once; udata is unused.
 */
void du_order_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                       void *udata);

#endif // FRDDU_ORDER_H
