// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The roots of an update: given ones resolved, the last update's read back, both stored. */
#ifndef FRD_EXAMPLES_FRDINDEX_ROOTS_H
#define FRD_EXAMPLES_FRDINDEX_ROOTS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

/** @return whether `path` (`len` bytes) is `dir` or below it. */
bool index_path_under(const char *path, size_t len, const char *dir);

/**
 * Turns the roots into absolute, resolved paths and drops one inside another (its entries
 * would be met twice). @return a malloc'd array of `*nout` malloc'd paths, or NULL after a
 * message naming the root that cannot be resolved.
 */
char **index_roots_resolve(const char *const *given, size_t n, size_t *nout);

/**
 * Reads the roots the last update stored. @return a malloc'd array of `*n` malloc'd
 * strings (NULL when there are none); NULL with *failed set after a message.
 */
char **index_roots_load(sqlite3 *db, size_t *n, bool *failed);

/** Replaces the stored roots with `roots`. @return 0, or -1 after a message. */
int index_roots_store(sqlite3 *db, char **roots, size_t nroots);

/** Frees what index_roots_resolve() or index_roots_load() returned. */
void index_roots_free(char **roots, size_t n);

#endif // FRD_EXAMPLES_FRDINDEX_ROOTS_H
