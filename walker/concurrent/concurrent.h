// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode: each worker lists a directory and calls back for its entries itself
 * (walker/concurrent/concurrent.c). A module above the walk core, beside the ordered mode;
 * walker/api.c starts it.
 *
 *   concurrent.c  the tasks: a root, a directory, the worker's loop   (concurrent.h)
 *   list.c        reading a directory: batches, the children hook       (list.h)
 *   batch.c       a big directory's batches, handed to idle workers     (batch.h)
 *   visit.c       visiting a listing's entries, pushing subdirectories  (visit.h)
 */
#ifndef FRD_WALKER_CONCURRENT_CONCURRENT_H
#define FRD_WALKER_CONCURRENT_CONCURRENT_H

struct frd_walk;
struct frd__worker;

/** Sets the mode's state up and queues the roots on worker 0's deque (before the threads
 *  start). @return 0 or FRD_ENOMEM (then free it). */
int frd__concurrent_init(struct frd_walk *walk);
/** Frees the mode's state (the walk is over, or was never started: the roots still queued
 *  are let go of). */
void frd__concurrent_free(struct frd_walk *walk);
/** A worker's loop: takes tasks until the walk is done (hooks.run). */
void frd__concurrent_run(struct frd__worker *w);

#endif // FRD_WALKER_CONCURRENT_CONCURRENT_H
