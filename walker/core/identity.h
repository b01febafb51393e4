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

#include <stdbool.h>
#include <stdint.h>

struct frd__wnode;

/** A set of identities, sharded by hash so workers rarely meet on one lock. */
struct frd__idset;

int frd__idset_new(struct frd__idset **out);
void frd__idset_free(struct frd__idset *set);
/** Inserts an identity. @return 1 if it was new, 0 if already present, FRD_ENOMEM. */
int frd__idset_insert(struct frd__idset *set, const struct frd__identity *id);

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
 * Loop check for a directory reached through a followed link: is `target` the identity (or,
 * on an untrusted volume, `target_canon` the canonical path) of `from` or any ancestor?
 * @return the ancestor it repeats, or NULL.
 */
const struct frd__wnode *frd__find_loop(const struct frd__wnode *from,
                                        const struct frd__identity *target,
                                        const char *target_canon);

#endif // FRD_WALKER_CORE_IDENTITY_H
