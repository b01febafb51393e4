// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's entry points for the pull iterator (walker/iter.c), which builds on a
 * background walk: options copied as frd_walk() copies them, a walk made and then launched
 * with a hook told when its threads have ended.
 */
#ifndef FRD_WALKER_API_H
#define FRD_WALKER_API_H

#include "frd.h"

#include <stdbool.h>
#include <stddef.h>

/** Copies the caller's options as a walk does (struct_size, later members at their
 *  defaults). @return 0, or FRD_EINVAL when struct_size is not set. */
int frd__walk_options_copy(struct frd_walk_options *o, const struct frd_walk_options *opts);

/** Makes a background walk without starting it (frd__walk_launch() starts it,
 *  frd__walk_discard() frees it unstarted). @return 0 with *out set, or a negative code. */
int frd__walk_prepare(struct frd_walk **out, const char *const *roots, size_t nroots,
                      const struct frd_walk_options *opts, frd_visit_fn *visit, void *udata);

/**
 * Starts a walk made by frd__walk_prepare() as frd_walk_start() does; `ended(ctx)` runs on
 * the last walk thread once every thread has run to its end (before frd_walk_join()).
 * @return 0 with *out set, or FRD_EAGAIN (nothing ran; the walk is the caller's to discard).
 */
int frd__walk_launch(struct frd_walk *walk, struct frd_walk **out, void (*ended)(void *ctx),
                     void *ctx);

/** Whether a walk made by frd__walk_prepare() gives names and types only (no field asked
 *  beyond FRD_FIELD_TYPE, nor any that FRD_WALK_UNIQUE_* or FRD_WALK_LINK_GROUPS need). */
bool frd__walk_names_only(const struct frd_walk *walk);

/** Frees a walk that frd__walk_prepare() made and that never ran. */
void frd__walk_discard(struct frd_walk *walk);

#endif
