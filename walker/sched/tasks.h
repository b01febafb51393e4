// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tasks (walker/sched/tasks.c): each worker pushes onto its own deque and pops its newest,
 * steals the oldest half of another's when its own is empty, and parks when no worker has
 * any; the walk ends exactly when no task is pending. A task is an opaque pointer the layer
 * above made (never NULL); it counts as pending from its push until frd__sched_task_done().
 */
#ifndef FRD_WALKER_SCHED_TASKS_H
#define FRD_WALKER_SCHED_TASKS_H

#include <stdbool.h>
#include <stddef.h>

struct frd__sched;
struct frd__sched_worker;

/**
 * Queues a task on the worker's deque, from the task the worker is running (which is still
 * pending, so a failure here cannot end the walk). @return 0, or FRD_ENOMEM (not queued).
 */
int frd__sched_push(struct frd__sched_worker *sw, void *task);
/** Before the threads start: queues a first task on worker 0's deque. @return 0 or
 *  FRD_ENOMEM (not queued). */
int frd__sched_seed(struct frd__sched *s, void *task);
/** Takes back the newest task frd__sched_seed() queued while no thread runs: before the
 *  start (a failed set-up), after a start that could start none, or after the join (none is
 *  left then). @return it, or NULL when none is left. */
void *frd__sched_unseed(struct frd__sched *s);
/**
 * The worker's next task: its own newest, else one stolen, else it parks until one is
 * pushed (a worker a narrowed pool retired waits until it widens again). @return the task,
 * or NULL once the walk is done: no task is pending. A stop does not end it: the layer
 * above drops the tasks it takes after a stop, so that each is let go of once.
 */
void *frd__sched_next(struct frd__sched_worker *sw);
/** A task taken with frd__sched_next() (or seeded) is finished: after it pushed its own. */
void frd__sched_task_done(struct frd__sched *s);
/** Tasks sitting in deques now (relaxed: progress reports). */
size_t frd__sched_queued(const struct frd__sched *s);
/** Whether a worker waits for a task now (relaxed: a hint, for sharing out work that would
 *  otherwise stay with the worker holding it). */
bool frd__sched_idle(const struct frd__sched *s);

#endif // FRD_WALKER_SCHED_TASKS_H
