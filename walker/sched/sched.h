// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The scheduler: the walk's own threads on libuv, their work-stealing deques, parking,
 * termination, stopping, callback slots and the pool's adaptive width. The lowest of the
 * walker's modules: it calls nothing of the walk (tasks and workers are opaque pointers to
 * it; what it needs from above comes through struct frd__sched_hooks), and its state is
 * opaque to the walk (walker/sched/sched_int.h, included by walker/sched/ files only).
 * bfs's ioq.c under its bftw.c is the model: the queue knows nothing of the walk.
 *
 *   sched.h      this header: the module's contract, the three below
 *   threads.c    set-up, start, join, stop, entering and leaving callbacks  (threads.h)
 *   width.c      the adaptive width: measurement windows, widening, slots    (width.h)
 *   tasks.c      push, next (pop, steal, park), termination                  (tasks.h)
 *   deque.c      the work-stealing deque                                     (deque.h)
 *   sched_int.h  the scheduler's state, shared by the files above
 *
 * Within the module, tasks.c calls width.c (a worker yields its slot before it parks),
 * width.c calls threads.c (widening starts threads), and each calls deque.c.
 */
#ifndef FRD_WALKER_SCHED_SCHED_H
#define FRD_WALKER_SCHED_SCHED_H

#include "tasks.h"
#include "threads.h"
#include "width.h"

#endif // FRD_WALKER_SCHED_SCHED_H
