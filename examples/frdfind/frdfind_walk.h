// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's walks over the roots, and the walker's callbacks (frdfind_walk.c). */
#ifndef FRD_EXAMPLES_FRDFIND_WALK_H
#define FRD_EXAMPLES_FRDFIND_WALK_H

#include <stdint.h>

struct ff_ctx;

/**
 * Walks every root of the run in command-line order (ctx->opts.paths: -s and -find-order
 * walk them together, the others one walk each), evaluating the expression on each entry,
 * reporting every error as find does. Main thread, once, after the parse.
 * @param count receives the total of -count's matches.
 * @return 0, or 1 when out of memory before any walk (reported).
 */
int ff_walk_all(struct ff_ctx *ctx, uint64_t *count);

#endif // FRD_EXAMPLES_FRDFIND_WALK_H
