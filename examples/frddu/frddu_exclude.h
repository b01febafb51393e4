// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** du's --exclude=PATTERN and -X FILE: shell patterns matched against a path's tails. */
#ifndef FRD_EXAMPLES_FRDDU_EXCLUDE_H
#define FRD_EXAMPLES_FRDDU_EXCLUDE_H

#include <stdbool.h>
#include <stddef.h>

/** The patterns, in the order given. */
struct du_exclude {
    char **patterns;
    size_t n, cap;
};

/** Adds one pattern (copied). @return 0, or -1 when out of memory. */
int du_exclude_add(struct du_exclude *ex, const char *pattern);

/**
 * Adds the patterns of FILE ("-" for standard input), one a line, as du -X reads them:
 * trailing white space is dropped, blank lines are skipped.
 * @return 0, or -1 with errno set when the file cannot be read (or memory runs out).
 */
int du_exclude_add_file(struct du_exclude *ex, const char *file);

/**
 * Says whether `path` (as du prints it) is excluded: a pattern matches the whole path or
 * the part after any '/' (fnmatch without flags, so '*' matches '/' too), as GNU du's
 * exclude list with EXCLUDE_WILDCARDS does. Thread-safe (read-only).
 */
bool du_excluded(const struct du_exclude *ex, const char *path);

/** Frees the patterns. */
void du_exclude_free(struct du_exclude *ex);

#endif // FRD_EXAMPLES_FRDDU_EXCLUDE_H
