// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The work-stealing deque (walker/sched/deque.h): one per worker, a ring of task pointers
 * behind a mutex.
 *
 * The owner pushes and pops at the newest end (depth-first, which bounds memory); a thief
 * takes the oldest half, which holds the biggest subtrees, so one steal feeds it for long.
 * A directory task costs tens of microseconds and an uncontended lock tens of nanoseconds
 * (platform-facts.md section 2), so a lock is not the bottleneck; push, pop and steal are
 * the whole interface, so a Chase-Lev deque can replace this if a profile ever says so.
 *
 *     head                    head + count
 *      v                          v
 *   [ oldest ... ... ... newest ][ free ... ]   (indices modulo capacity)
 *     ^ thieves take from here       ^ the owner pushes and pops here
 */
#include "deque.h"

#include "internal.h"

#include <string.h>

int frd__deque_init(struct frd__deque *dq)
{
    memset(dq, 0, sizeof(*dq));
    if (uv_mutex_init(&dq->lock) != 0) {
        return FRD_ENOMEM;
    }
    return 0;
}

void frd__deque_destroy(struct frd__deque *dq)
{
    uv_mutex_destroy(&dq->lock);
    frd__free(dq->ring);
    dq->ring = NULL;
}

/** The ring's invariants (Debug builds): a power-of-two capacity, count within it, head in
 *  range. Called with the lock held. */
static void deque_check(const struct frd__deque *dq)
{
    FRD_ASSERT((dq->capacity & (dq->capacity - 1)) == 0);
    FRD_ASSERT(dq->count <= dq->capacity);
    FRD_ASSERT(dq->capacity == 0 ? dq->head == 0 : dq->head < dq->capacity);
    (void)dq;
}

/** Doubles the ring, keeping the order. Called with the lock held. */
static int deque_grow(struct frd__deque *dq)
{
    size_t capacity;
    if (frd__grow_cap(dq->capacity, dq->capacity + 1, 64, sizeof(*dq->ring), &capacity) < 0) {
        return FRD_ENOMEM;
    }
    // A fresh ring rather than a realloc: the oldest moves to index 0 on the way.
    void **ring = frd__malloc(capacity * sizeof(*ring));
    if (ring == NULL) {
        return FRD_ENOMEM;
    }
    for (size_t i = 0; i < dq->count; i++) {
        ring[i] = dq->ring[(dq->head + i) & (dq->capacity - 1)];
    }
    frd__free(dq->ring);
    dq->ring = ring;
    dq->capacity = capacity;
    dq->head = 0;
    return 0;
}

int frd__deque_push(struct frd__deque *dq, void *task)
{
    uv_mutex_lock(&dq->lock);
    if (dq->count == dq->capacity && deque_grow(dq) < 0) {
        uv_mutex_unlock(&dq->lock);
        return FRD_ENOMEM;
    }
    FRD_ASSERT(task != NULL); // NULL is what pop and steal return for "none"
    dq->ring[(dq->head + dq->count) & (dq->capacity - 1)] = task;
    dq->count++;
    deque_check(dq);
    uv_mutex_unlock(&dq->lock);
    return 0;
}

size_t frd__deque_size(struct frd__deque *dq)
{
    uv_mutex_lock(&dq->lock);
    size_t n = dq->count;
    uv_mutex_unlock(&dq->lock);
    return n;
}

void *frd__deque_pop(struct frd__deque *dq)
{
    void *task = NULL;
    uv_mutex_lock(&dq->lock);
    if (dq->count > 0) {
        dq->count--;
        task = dq->ring[(dq->head + dq->count) & (dq->capacity - 1)];
    }
    deque_check(dq);
    uv_mutex_unlock(&dq->lock);
    return task;
}

void *frd__deque_steal(struct frd__deque *victim, struct frd__deque *own)
{
    // An empty victim first, under its lock alone: most tries of an idle worker find
    // nothing, and cost one lock, not two and the room below (a worker that never found a
    // task allocates nothing: no ring, and no malloc arena for its thread).
    uv_mutex_lock(&victim->lock);
    bool empty = victim->count == 0;
    uv_mutex_unlock(&victim->lock);
    if (empty) {
        return NULL;
    }
    // Room first: only the owner adds to its own deque, so once reserved the pushes below
    // cannot fail, and no stolen task can be lost to a failed allocation.
    uv_mutex_lock(&own->lock);
    while (own->capacity - own->count < FRD__DEQUE_STEAL_MAX) {
        if (deque_grow(own) < 0) {
            uv_mutex_unlock(&own->lock);
            return NULL;
        }
    }
    uv_mutex_unlock(&own->lock);

    // Copy out under the victim's lock only, then push under ours: never two locks at once,
    // so two workers stealing from each other cannot deadlock.
    void *batch[FRD__DEQUE_STEAL_MAX];
    size_t n = 0;
    uv_mutex_lock(&victim->lock);
    if (victim->count > 0) {
        n = (victim->count + 1) / 2;
        if (n > FRD__DEQUE_STEAL_MAX) {
            n = FRD__DEQUE_STEAL_MAX;
        }
        for (size_t i = 0; i < n; i++) {
            batch[i] = victim->ring[(victim->head + i) & (victim->capacity - 1)];
        }
        victim->head = (victim->head + n) & (victim->capacity - 1);
        victim->count -= n;
    }
    deque_check(victim);
    uv_mutex_unlock(&victim->lock);
    // The oldest stolen is returned; the rest go to our deque oldest first, so that we,
    // too, work through them newest first.
    for (size_t i = 1; i < n; i++) {
        FRD_VERIFY(frd__deque_push(own, batch[i]) == 0);
    }
    return n > 0 ? batch[0] : NULL;
}
