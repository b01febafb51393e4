// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode (walker/ordered/): callbacks on one thread, the consumer, depth-first with
 * each directory's entries sorted by name in byte order, while the workers list ahead. A
 * module above the walk core; walker/api.c starts it. The protocol is described in
 * walker/ordered/consumer.c.
 */
#ifndef FRD_WALKER_ORDERED_ORDERED_H
#define FRD_WALKER_ORDERED_ORDERED_H

struct frd_walk;
struct frd__worker;

/** Sets the mode's state up (walk->ordered). @return 0 or FRD_ENOMEM. */
int frd__ordered_init(struct frd_walk *walk);
/** Drops what is left (the walk is over: every thread joined) and frees the state. */
void frd__ordered_free(struct frd_walk *walk);
/** The consumer: walks the roots in order, calling back, until done or stopped. */
void frd__ordered_consume(struct frd__worker *consumer);
/** An ordered walk's worker: lists ahead of the consumer until it is done or stopped. */
void frd__ordered_worker_run(struct frd__worker *w);
/** Wakes the mode's own waiters (a stop: hooks.wake). */
void frd__ordered_wake(struct frd_walk *walk);

#endif // FRD_WALKER_ORDERED_ORDERED_H
