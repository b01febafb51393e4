// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Identity (walker/core/identity.c): the sets that make a walk visit each file or directory
 * once, the per-device cache of volume classes, and the loop check along the ancestor
 * chain.
 */
#ifndef FRD_WALKER_CORE_IDENTITY_H
#define FRD_WALKER_CORE_IDENTITY_H

#include "platform.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct frd__wnode;

/** A set of identities, sharded by hash so workers rarely meet on one lock. */
struct frd__idset;

int frd__idset_new(struct frd__idset **out);
void frd__idset_free(struct frd__idset *set);
/** Inserts an identity. @return 1 if it was new, 0 if already present, FRD_ENOMEM. */
int frd__idset_insert(struct frd__idset *set, const struct frd__identity *id);
/**
 * Inserts an identity with `value` (not FRD__TABLE_FREE) unless present, atomically: of
 * threads that claim one identity at once, one gets 1. @return 1 if it was new (`value`
 * stored), 0 if already present (*old set to its value), FRD_ENOMEM.
 */
int frd__idset_claim(struct frd__idset *set, const struct frd__identity *id, uint64_t value,
                     uint64_t *old);
/** @return true with *value set if the identity is in the set. */
bool frd__idset_get(struct frd__idset *set, const struct frd__identity *id, uint64_t *value);

/** Per-device volume classes, cached. */
struct frd__volcache;

int frd__volcache_new(struct frd__volcache **out);
void frd__volcache_free(struct frd__volcache *vc);
/** @return the cached class of `dev`, or -1 if not known yet. */
int frd__volcache_get(struct frd__volcache *vc, uint64_t dev);
void frd__volcache_put(struct frd__volcache *vc, uint64_t dev, enum frd__vol_class cls);

/** Same identity? Subvolumes are compared only where both are known. */
bool frd__identity_equal(const struct frd__identity *a, const struct frd__identity *b);

/**
 * Ancestors shallower than this are compared one by one in the loop check; a directory at
 * this depth or deeper is counted in the walk's set of deep directories while it lives, so
 * a deep directory's check looks its identity up there first and compares one by one only
 * where it is found (a loop, or a directory seen twice): the check costs the same at any
 * depth, and a chain of directories costs its length, not its length squared.
 */
#define FRD__LOOP_SCAN_DEPTH 32

/**
 * The identities of the live directory nodes at FRD__LOOP_SCAN_DEPTH or deeper, with how
 * many nodes have each (a multiset): an idset whose values count, made when the first one
 * is counted (most walks never go that deep, and the set is 64 locks and 4 KB). Identities
 * are counted by (dev, ino) alone, so a subvolume known on one side only still matches (as
 * frd__identity_equal() does).
 */
struct frd__deep_dirs {
    _Atomic(struct frd__idset *) set; /**< NULL until a directory is counted */
    atomic_bool lost; /**< one could not be counted (no memory): every check says "maybe" */
};

/** Sets the walk's deep directories up, empty (nothing is allocated). */
void frd__deep_dirs_init(struct frd__deep_dirs *deep);
/** Frees the set, if it was made. */
void frd__deep_dirs_free(struct frd__deep_dirs *deep);
/**
 * Counts a node's identity, if it is deep enough, once it has one (WN_HAS_ID): called by
 * whoever sets WN_HAS_ID, before the node has children. Sets WN_IN_DEEP_SET; without memory
 * (for the set or its count) the set is marked lost and every deep check compares one by
 * one.
 */
void frd__deep_dirs_add(struct frd__deep_dirs *deep, struct frd__wnode *node);
/** Uncounts an identity frd__deep_dirs_add() counted (its node is freed). */
void frd__deep_dirs_remove(struct frd__deep_dirs *deep, const struct frd__identity *id);

/**
 * Loop check: is `target` the identity (or, on an untrusted volume, `target_canon` the
 * canonical path) of `from` or any ancestor? `deep` is the walk's set of deep directories.
 * @return the ancestor it repeats, or NULL.
 */
const struct frd__wnode *frd__find_loop(struct frd__deep_dirs *deep, const struct frd__wnode *from,
                                        const struct frd__identity *target,
                                        const char *target_canon);

#endif // FRD_WALKER_CORE_IDENTITY_H
