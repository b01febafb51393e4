// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Which indexed paths the user running a query may see, decided at query time as plocate
 * does: a path is shown only if every directory above it can be listed (read and search
 * permission) by that user now. An index built by root thus shows another user no name
 * inside a directory that user cannot read. A directory that no longer exists is judged by
 * those above it (the removed entries `changes` lists). Results are cached per directory.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_ACCESS_H
#define FRD_EXAMPLES_FRDINDEX_ACCESS_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>

/** The cache of directories checked. Zero-initialise, then index_access_init(). */
struct index_access {
    bool everything; /**< effective uid 0: every directory may be listed, no check */
    struct tool_hash dirs;
    char *arena; /**< the directories' paths, each NUL-terminated */
    size_t arena_len, arena_cap;
    char *buf; /**< a NUL-terminated copy of the prefix being checked */
    size_t buf_cap;
};

/** Sets up the cache for the calling process's effective user. */
void index_access_init(struct index_access *a);

/**
 * @param path an indexed path (absolute), `len` bytes, not NUL-terminated necessarily.
 * @return 1 if every directory above `path` may be listed, 0 if not, -1 when out of memory.
 */
int index_access_visible(struct index_access *a, const char *path, size_t len);

/** Frees the cache. */
void index_access_free(struct index_access *a);

#endif // FRD_EXAMPLES_FRDINDEX_ACCESS_H
