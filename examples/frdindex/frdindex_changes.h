// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex changes`: what changed after a generation, folded per path. */
#ifndef FRD_EXAMPLES_FRDINDEX_CHANGES_H
#define FRD_EXAMPLES_FRDINDEX_CHANGES_H

#include <stdbool.h>

/** Options of `frdindex changes`. */
struct index_changes_options {
    const char *db_path;
    const char *since; /**< --since: a generation or a time; NULL: the last update's */
    bool json;         /**< --json */
    bool all;          /**< --all */
    bool null;         /**< -0: only the paths that exist, each ended by NUL */
};

/** Runs `frdindex changes`. @return the exit status. */
int index_changes(const struct index_changes_options *opts);

#endif // FRD_EXAMPLES_FRDINDEX_CHANGES_H
