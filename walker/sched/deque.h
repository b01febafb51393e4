// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A work-stealing deque of tasks (walker/sched/deque.c): one per worker, behind a mutex. A
 * task is an opaque pointer (never NULL) the scheduler hands on without looking at it.
 * Scheduler-internal: only walker/sched/ (and the deque's unit test) include this.
 */
#ifndef FRD_WALKER_SCHED_DEQUE_H
#define FRD_WALKER_SCHED_DEQUE_H

#include <stddef.h>
#include <uv.h>

/** A ring of task pointers; capacity slots, a power of two (0 before the first push). */
struct frd__deque {
    uv_mutex_t lock;
    void **ring;
    size_t capacity;
    size_t head; /**< index of the oldest */
    size_t count;
};

/** Batch limit of one steal: half the victim's tasks, at most this many. */
#define FRD__DEQUE_STEAL_MAX 32

/** An empty deque. @return 0 or FRD_ENOMEM (no mutex). */
int frd__deque_init(struct frd__deque *dq);
/** Frees the ring (the tasks in it are the caller's). */
void frd__deque_destroy(struct frd__deque *dq);
/** Owner: pushes its newest (`task` not NULL). @return 0 or FRD_ENOMEM (not pushed). */
int frd__deque_push(struct frd__deque *dq, void *task);
/** Owner: pops its newest. @return the task, or NULL when empty. */
void *frd__deque_pop(struct frd__deque *dq);
/** Tasks in the deque now (under its lock; for assertions). */
size_t frd__deque_size(struct frd__deque *dq);
/**
 * Thief: takes the oldest half (at least one, at most FRD__DEQUE_STEAL_MAX) of `victim`,
 * moves all but the first into `own`, oldest first, and returns that first. Never holds
 * both locks at once, and loses no task: room in `own` is made before anything is taken.
 * @return the task, or NULL if the victim was empty or `own` could not grow.
 */
void *frd__deque_steal(struct frd__deque *victim, struct frd__deque *own);

#endif // FRD_WALKER_SCHED_DEQUE_H
