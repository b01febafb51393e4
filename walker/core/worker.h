// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A worker's own state (walker/core/worker.c): set up and freed with the walk. */
#ifndef FRD_WALKER_CORE_WORKER_H
#define FRD_WALKER_CORE_WORKER_H

#include "walk.h"

/**
 * Sets a worker up: its lister and lists for the walk's plan, bound to its scheduler side
 * `sw` (the scheduler runs it as that worker). @return 0 or a negative code (then free it).
 */
int frd__worker_init(struct frd_walk *walk, struct frd__worker *w, struct frd__sched_worker *sw);
/** Frees what a worker holds (a zeroed one is fine), its nodes' slabs included. */
void frd__worker_free(struct frd__worker *w);

#endif // FRD_WALKER_CORE_WORKER_H
