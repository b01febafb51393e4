// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frddu's shared state: the options, one root's walk, and the printed lines. */
#ifndef FRD_EXAMPLES_FRDDU_H
#define FRD_EXAMPLES_FRDDU_H

#include "frddu_seen.h"
#include "frddu_size.h"
#include "progress_line.h"

#include <frd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/** A worker's progress count, published every few hundred entries; padded to a cache line. */
struct du_batch {
    uint64_t bytes;
    unsigned entries;
    char pad[64 - sizeof(uint64_t) - sizeof(unsigned)];
};

/** What the command line asked for. */
struct du_options {
    bool apparent;          /**< --apparent-size: st_size, not allocated blocks */
    bool all;               /**< -a: print files too */
    bool count_links;       /**< -l: count hard-linked files every time they are seen */
    bool one_fs;            /**< -x: skip entries on other file systems */
    bool grand_total;       /**< -c: print a "total" line */
    bool hash_all;          /**< dedupe directories too (several roots or -L), as du does */
    enum frd_follow follow; /**< -P (default), -H/-D, -L */
    long max_depth;         /**< print nothing deeper; -1 for no limit (-s is 0) */
    size_t top;             /**< --top N: print only the N largest lines, sorted; 0 = off */
    char terminator;        /**< '\n', or '\0' with -0 */
    unsigned workers;       /**< -j N, 0 for the walker's default */
    struct du_units units;
};

/** One printed (or, with --top, remembered) line. */
struct du_line {
    uint64_t bytes;
    char *path;
};

/** Everything the walk callbacks share; one per frddu run. */
struct du_state {
    const struct du_options *opts;
    struct du_seen *seen;
    struct progress_line progress;
    atomic_uint_least64_t counted; /**< bytes counted so far, for the progress line */
    atomic_int status;             /**< exit status: 0, or 1 after any error */
    atomic_uint errors;            /**< errors reported so far */
    atomic_bool out_of_memory;

    // The root being walked: the walker's paths start with walk_root; lines print with
    // display_root in its place (GNU du trims a root's trailing slashes to one).
    const char *walk_root;
    size_t walk_root_len;
    const char *display_root;
    size_t display_root_len;
    uint64_t root_dev;        /**< the root's device, for -x */
    uint64_t root_total;      /**< the finished root's total, for -c */
    struct du_batch *batches; /**< per-worker progress counts, indexed by the worker */
    unsigned nbatches;

    pthread_mutex_t out_lock; /**< serialises output and the --top list */
    FILE *out;
    bool out_is_tty;
    struct du_line *lines; /**< --top: remembered lines */
    size_t nlines, lines_cap;
};

/**
 * Prints one line (or remembers it for --top): the size, a tab, the path as du would spell
 * it (`walk_path` is the walker's path for an entry of the current root). Thread-safe.
 */
void du_emit(struct du_state *st, uint64_t bytes, const char *walk_path, size_t walk_path_len);

/**
 * Walks one root and prints its lines. Sets st->root_total.
 * @return 0, or a negative frd code when the root could not be walked at all.
 */
int du_walk_root(struct du_state *st, const char *walk_root, const char *display_root);

#endif // FRD_EXAMPLES_FRDDU_H
