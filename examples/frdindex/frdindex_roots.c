// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The roots of an update: given ones resolved, the last update's read back, both stored. */
#define _XOPEN_SOURCE 700 // realpath

#include "frdindex_roots.h"

#include "frdindex_db.h"
#include "grow.h"
#include "toolname.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool index_path_under(const char *path, size_t len, const char *dir)
{
    size_t dlen = strlen(dir);
    if (dlen == 1 && dir[0] == '/') {
        return len > 0 && path[0] == '/';
    }
    return len >= dlen && memcmp(path, dir, dlen) == 0 && (len == dlen || path[dlen] == '/');
}

char **index_roots_load(sqlite3 *db, size_t *n, bool *failed)
{
    sqlite3_stmt *stmt;
    *n = 0;
    if (sqlite3_prepare_v2(db, "SELECT path FROM roots ORDER BY rowid", -1, &stmt, NULL) !=
        SQLITE_OK) {
        index_db_fail(db, "reading roots");
        *failed = true;
        return NULL;
    }
    char **roots = NULL;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *p = sqlite3_column_blob(stmt, 0);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 0);
        char *copy = tool_reserve_strs(&roots, &cap, *n + 1) < 0 ? NULL : malloc(len + 1);
        if (copy == NULL || p == NULL) {
            free(copy);
            fprintf(stderr, "%s: out of memory\n", tool_name);
            *failed = true;
            break;
        }
        memcpy(copy, p, len);
        copy[len] = '\0';
        roots[(*n)++] = copy;
    }
    sqlite3_finalize(stmt);
    if (!*failed && rc != SQLITE_DONE) {
        index_db_fail(db, "reading roots");
        *failed = true;
    }
    if (*failed) {
        for (size_t i = 0; i < *n; i++) {
            free(roots[i]);
        }
        free(roots);
        *n = 0;
        return NULL;
    }
    return roots;
}

char **index_roots_resolve(const char *const *given, size_t n, size_t *nout)
{
    char **roots = calloc(n ? n : 1, sizeof(*roots));
    *nout = 0;
    if (roots == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        char *resolved = realpath(given[i], NULL);
        if (resolved == NULL) {
            fprintf(stderr, "%s: cannot access '%s': %s\n", tool_name, given[i], strerror(errno));
            for (size_t j = 0; j < *nout; j++) {
                free(roots[j]);
            }
            free(roots);
            *nout = 0; // the caller frees *nout roots of the array
            return NULL;
        }
        roots[(*nout)++] = resolved;
    }
    // Decide every root against all the others first, then compact: freeing while deciding
    // left freed paths for the later comparisons to read.
    bool *inside = calloc(*nout ? *nout : 1, sizeof(*inside));
    if (inside == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        for (size_t j = 0; j < *nout; j++) {
            free(roots[j]);
        }
        free(roots);
        *nout = 0;
        return NULL;
    }
    for (size_t i = 0; i < *nout; i++) {
        for (size_t j = 0; j < *nout && !inside[i]; j++) {
            if (j != i && index_path_under(roots[i], strlen(roots[i]), roots[j]) &&
                (strcmp(roots[i], roots[j]) != 0 || j < i)) {
                inside[i] = true;
            }
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < *nout; i++) {
        if (inside[i]) {
            free(roots[i]);
        } else {
            roots[kept++] = roots[i];
        }
    }
    free(inside);
    *nout = kept;
    return roots;
}

int index_roots_store(sqlite3 *db, char **roots, size_t nroots)
{
    if (sqlite3_exec(db, "DELETE FROM roots", NULL, NULL, NULL) != SQLITE_OK) {
        return index_db_fail(db, "writing roots");
    }
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "INSERT INTO roots(path) VALUES (?)", -1, &stmt, NULL) !=
        SQLITE_OK) {
        return index_db_fail(db, "writing roots");
    }
    int rc = SQLITE_DONE;
    for (size_t i = 0; i < nroots && rc == SQLITE_DONE; i++) {
        sqlite3_bind_blob(stmt, 1, roots[i], (int)strlen(roots[i]), SQLITE_STATIC);
        rc = sqlite3_step(stmt);
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? 0 : index_db_fail(db, "writing roots");
}

void index_roots_free(char **roots, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(roots[i]);
    }
    free(roots);
}
