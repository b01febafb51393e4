// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ascending runs of an update's trigram lists merged into one run each, on two threads.
 *
 * An update appends a list's ids in ascending runs (frdindex_trigram.h: two workers'
 * directories interleave, so each chunk of pending trigrams starts a new run); a list is
 * stored as one ascending run. Merging them happens after the walk, when no other work
 * keeps the second core busy: the lists are shared between the caller's thread and a
 * helper, and each list's runs are merged straight from their encoding into the stored
 * one (a heap of the runs' next ids: one pass, no decoded copy), repeats dropped.
 *
 * On the 2,078,300-entry tree: 17,383 lists of 230,479 runs, 0.52 s on one thread when
 * each list was decoded, sorted by merging pairs of runs and encoded again.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_RUNS_H
#define FRD_EXAMPLES_FRDINDEX_RUNS_H

#include "frdindex_trigram.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/** The merge of a set of lists' runs, running beside the caller. */
struct index_runs_merge {
    struct index_posting_list *lists;
    size_t count;
    atomic_size_t next; /**< the next list to take */
    atomic_bool failed; /**< out of memory in some list */
    pthread_t helper;
    bool helper_running;
};

/**
 * Starts merging the runs of `count` lists (each list's `runs` and `enc` are replaced; the
 * lists must not be touched until index_runs_merge_finish()): a helper thread begins at
 * once, so the caller may do other work (with no list) and then join in. Without a thread
 * the caller does it all in index_runs_merge_finish().
 */
void index_runs_merge_start(struct index_runs_merge *m, struct index_posting_list *lists,
                            size_t count);

/**
 * Merges the lists left on the caller's thread, then waits for the helper.
 * @return 0, or -1 when out of memory (a list may then be left as it was or merged).
 */
int index_runs_merge_finish(struct index_runs_merge *m);

/** Merges one list's runs into one (done by the two above). @return 0, or -1 (memory). */
int index_runs_merge_list(struct index_posting_list *l);

#endif // FRD_EXAMPLES_FRDINDEX_RUNS_H
