// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A thread-safe set of (device, file id) pairs: counts a hard-linked file once, as du does. */
#ifndef FRD_EXAMPLES_FRDDU_SEEN_H
#define FRD_EXAMPLES_FRDDU_SEEN_H

#include <stdbool.h>
#include <stdint.h>

/** The set. Opaque. */
struct du_seen;

/** Makes an empty set. @return the set, or NULL when out of memory. */
struct du_seen *du_seen_new(void);

/** Frees the set. NULL is allowed. */
void du_seen_free(struct du_seen *seen);

/**
 * Adds (dev, id). Thread-safe: the set is split into shards, each with its own lock.
 * @return 1 if it was not there (count the file), 0 if it was (skip it), -1 when out of
 * memory (the caller should stop: a total that counts a file twice would be wrong).
 */
int du_seen_add(struct du_seen *seen, uint64_t dev, uint64_t id);

#endif // FRD_EXAMPLES_FRDDU_SEEN_H
