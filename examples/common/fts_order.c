// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A directory's entries in the order GNU find and du meet them. Both walk with gnulib's fts
 * and no comparison function: each directory in the order it lists its entries, read
 * 100,000 entries at a time, and a batch of more than 10,000 sorted by inode number (the
 * d_ino of the listing), which fts skips on tmpfs, NFS and CIFS (on Linux, where it can
 * tell; elsewhere it always sorts).
 */

#include "fts_order.h"

#if defined(__linux__)
#    include <sys/vfs.h>
#endif

/** fts reads this many entries of a directory at a time (FTS_MAX_READDIR_ENTRIES). */
#define FTS_BATCH 100000
/** ... and sorts a batch of more than this many by inode number. */
#define FTS_INODE_SORT_ABOVE 10000

static int by_inode(const struct frd_entry *a, const struct frd_entry *b, void *arg)
{
    (void)arg;
    return (a->file_id > b->file_id) - (a->file_id < b->file_id);
}

/** Would fts sort a large batch of this directory by inode? */
static bool fts_sorts_here(frd_os_fd fd)
{
#if defined(__linux__)
    struct statfs fs;
    if (fstatfs(fd, &fs) == 0) {
        switch ((unsigned long)fs.f_type) {
        case 0x01021994: // tmpfs
        case 0x6969:     // NFS
        case 0xFF534D42: // CIFS
            return false;
        default:
            break;
        }
    }
#else
    (void)fd;
#endif
    return true;
}

void fts_order_sort(struct frd_walk_children *kids)
{
    size_t n = frd_walk_children_count(kids);
    if (n <= FTS_INODE_SORT_ABOVE || !fts_sorts_here(frd_walk_children_fd(kids))) {
        return;
    }
    for (size_t first = 0; first < n; first += FTS_BATCH) {
        size_t count = n - first < FTS_BATCH ? n - first : FTS_BATCH;
        if (count > FTS_INODE_SORT_ABOVE) {
            frd_walk_children_sort_range(kids, first, count, by_inode, NULL);
        }
    }
}
