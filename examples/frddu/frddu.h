// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frddu's shared state and its modules: the options (frddu_opts.c), one root's walk
 * (frddu_walk.c) and the printed lines (frddu_out.c); main() and the roots are in frddu.c.
 */
#ifndef FRD_EXAMPLES_FRDDU_H
#define FRD_EXAMPLES_FRDDU_H

#include "frddu_exclude.h"
#include "frddu_export.h"
#include "frddu_seen.h"
#include "frddu_size.h"
#include "progress_line.h"

#include <frd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/**
 * One worker's counts, on a cache line of its own: the progress count it publishes every
 * few hundred entries, and its share of the run's totals for -c (summed at the end, so no
 * shared counter is touched per entry).
 */
struct du_batch {
    _Alignas(64) uint64_t bytes; /**< progress: bytes not yet published */
    unsigned entries;            /**< progress: entries not yet published */
    uint64_t total_bytes;        /**< -c: bytes counted by this worker */
    uint64_t total_inodes;       /**< -c: entries counted by this worker */
    int64_t total_tmax;          /**< -c --time: the latest time it counted */
};

/** Which time --time prints: a directory's is the latest of everything counted in it. */
enum du_time {
    DU_TIME_NONE = 0, /**< no --time */
    DU_TIME_MTIME,    /**< --time */
    DU_TIME_ATIME,    /**< --time=atime, access, use */
    DU_TIME_CTIME,    /**< --time=ctime, status */
};

/** What the command line asked for. */
struct du_options {
    bool apparent;           /**< --apparent-size: st_size, not allocated blocks */
    bool all;                /**< -a: print files too */
    bool count_links;        /**< -l: count hard-linked files every time they are seen */
    bool one_fs;             /**< -x: skip entries on other file systems */
    bool grand_total;        /**< -c: print a "total" line */
    bool separate_dirs;      /**< -S: a directory's line leaves out its subdirectories */
    bool inodes;             /**< --inodes: count entries, not bytes */
    bool hash_all;           /**< dedupe directories too (several roots or -L), as du does */
    enum frd_follow follow;  /**< -P (default), -H/-D, -L */
    long max_depth;          /**< print nothing deeper; -1 for no limit (-s is 0) */
    int64_t threshold;       /**< -t: print values >= it, or <= -it when negative */
    enum du_time time;       /**< --time: which time to print */
    const char *time_format; /**< strftime format of --time (with %N for nanoseconds) */
    size_t top;              /**< --top N: print only the N largest lines, sorted; 0 = off */
    bool ordered;     /**< --sorted or --du-order: the ordered walk, lines in one order each run */
    bool du_order;    /**< --du-order: in du's order (each directory's own), not by name */
    char terminator;  /**< '\n', or '\0' with -0 */
    unsigned workers; /**< -j N, 0 for the walker's default */
    const char *files0_from; /**< --files0-from=F: the roots are read from F */
    const char *export_file; /**< --export=FILE: the tree in ncdu's format ("-": stdout) */
    struct du_units units;
    struct du_exclude exclude; /**< --exclude, -X */
    unsigned ignore_flags;     /**< --gitignore, --exclude-caches: enum frd_ignore_flag */
    const char *present[16];   /**< --exclude-if-present NAMEs */
    size_t npresent;
    struct frd_ignore *ignore; /**< the walk's ignore rules, made from the above, or NULL */
};

/** What a directory (or a whole run, for -c) adds up to. */
struct du_sum {
    uint64_t bytes;  /**< allocated or apparent bytes */
    uint64_t inodes; /**< entries counted */
    int64_t tmax;    /**< the latest time counted, ns since the epoch (--time) */
};

/** One printed (or, with --top, remembered) line. */
struct du_line {
    struct du_sum sum;
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
    struct du_batch *batches; /**< per-worker progress counts, indexed by the worker */
    unsigned nbatches;

    bool exporting;           /**< --export: build the tree */
    bool quiet;               /**< --export=-: no du lines, the JSON is the output */
    struct du_export export;  /**< --export's tree */
    pthread_mutex_t out_lock; /**< serialises output and the --top list */
    FILE *out;
    bool out_is_tty;
    struct du_line *lines; /**< --top: remembered lines */
    size_t nlines, lines_cap;
};

/**
 * Prints one line (or remembers it for --top) unless -t leaves it out: the size (or inode
 * count), the time with --time, a tab, the path as du would spell it (`walk_path` is the
 * walker's path for an entry of the current root). Thread-safe.
 */
void du_emit(struct du_state *st, const struct du_sum *sum, const char *walk_path,
             size_t walk_path_len);

/** Prints "NAME: what 'path'[: reason]" on stderr (reason left out for code 0), after the
 *  lines written so far (as du's messages follow them on one pipe); status 1. Thread-safe;
 *  not with out_lock held. */
void du_report(struct du_state *st, const char *what, const char *path, int code);

/**
 * Prints one line: the size (or inode count), the time with --time, a tab, then `head` and
 * `tail` (the path in two parts), ended by the terminator. Called with out_lock held or
 * from the main thread once the walks are over.
 */
void du_write_line(struct du_state *st, const struct du_sum *sum, const char *head, size_t head_len,
                   const char *tail, size_t tail_len);

/** --top: prints the N largest lines remembered, largest first, and frees them. */
void du_print_top(struct du_state *st);

/**
 * Parses the command line into `opts` (zeroed but for its defaults), as du 9.1 does, with
 * its messages on stderr. @return -1 to go on, or the exit status to end with.
 */
int du_parse_options(int argc, char **argv, struct du_options *opts);

/**
 * Walks one root and prints its lines.
 * @return 0, or a negative frd code when the root could not be walked at all.
 */
int du_walk_root(struct du_state *st, const char *walk_root, const char *display_root);

#endif // FRD_EXAMPLES_FRDDU_H
