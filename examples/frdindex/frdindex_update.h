// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex update`: walk the roots and bring the database up to date in one transaction. */
#ifndef FRD_EXAMPLES_FRDINDEX_UPDATE_H
#define FRD_EXAMPLES_FRDINDEX_UPDATE_H

#include <frd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct index_excludes;

/**
 * A walk in place of frd_walk_roots() for `update` (frdmpi's index walks across MPI ranks):
 * the same arguments and return value, plus `arg`. It runs on the update's walk thread.
 */
typedef int index_walk_fn(const char *const *roots, size_t nroots,
                          const struct frd_walk_options *opts, frd_visit_fn *visit, void *udata,
                          void *arg);

/** Options of `frdindex update`. */
struct index_update_options {
    const char *db_path;
    const char *const *roots; /**< NULL: the roots stored by the last update */
    size_t nroots;
    unsigned workers;     /**< 0: the walker's default */
    bool one_file_system; /**< -x */
    bool quiet;           /**< -q: no summary line */
    bool verbose;         /**< -v: time each phase, on stderr */
    unsigned mode;        /**< -m: a new database's mode; 0: 0600 */
    /** --exclude, --prune*: replace the stored rules if given; filled in by the update */
    struct index_excludes *excludes;
    index_walk_fn *walk; /**< NULL: frd_walk_roots() */
    void *walk_arg;      /**< passed to walk */
    int64_t entries;     /**< set by the update: the entries the index holds after it */
};

/** Runs `frdindex update`; sets opts->entries. @return the exit status. */
int index_update(struct index_update_options *opts);

#endif // FRD_EXAMPLES_FRDINDEX_UPDATE_H
