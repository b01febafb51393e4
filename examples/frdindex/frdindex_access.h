// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Which indexed paths the user running a query may see, decided at query time as plocate
 * does, and failing closed: a path is shown only if every directory above it can be listed
 * (read and search permission) by that user now, each opened below the one above it
 * (openat with O_NOFOLLOW, so a directory replaced by a symbolic link fails). A directory
 * that is gone, no longer a directory, or cannot be opened for any reason hides what is
 * below it. Results are cached per directory; the directories open now form one chain
 * from "/", so paths in order cost one openat per directory.
 *
 * This hides names in the output only: it protects nothing from a user who may read the
 * database file itself (sqlite3 reads every row). Root, and the user who owns the database
 * (who made it, and may read it whole), see every path.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_ACCESS_H
#define FRD_EXAMPLES_FRDINDEX_ACCESS_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>

/** An open directory of the chain: its path is the first `len` bytes of `chain_path`. */
struct index_access_dir {
    int fd;
    size_t len;
};

/** The cache of directories checked. index_access_init(), then index_access_for_db(). */
struct index_access {
    bool everything; /**< root, or the database's owner: no check */
    struct tool_hash dirs;
    char *arena; /**< the directories' paths, each NUL-terminated */
    size_t arena_len, arena_cap;
    char *buf; /**< a NUL-terminated copy of the name being opened */
    size_t buf_cap;
    struct index_access_dir *chain; /**< "/" first, each the parent of the next */
    size_t depth, chain_cap;
    char *chain_path; /**< the deepest open directory's path */
    size_t chain_path_cap;
};

/** Sets up the cache for the calling process's effective user. */
void index_access_init(struct index_access *a);

/**
 * Says which database the next paths come from: paths of a database the effective user
 * owns (or any, for root) are all visible. The cache of directories is kept.
 */
void index_access_for_db(struct index_access *a, const char *db_path);

/**
 * @param path an indexed path (absolute), `len` bytes, not NUL-terminated necessarily.
 * @return 1 if every directory above `path` may be listed, 0 if not (or if `path` is not
 * absolute), -1 when out of memory.
 */
int index_access_visible(struct index_access *a, const char *path, size_t len);

/** Frees the cache and closes its directories. */
void index_access_free(struct index_access *a);

#endif // FRD_EXAMPLES_FRDINDEX_ACCESS_H
