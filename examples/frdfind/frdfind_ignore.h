// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's ignore primaries, extensions of find's (frdfind_ignore.c). */
#ifndef FRD_EXAMPLES_FRDFIND_IGNORE_H
#define FRD_EXAMPLES_FRDFIND_IGNORE_H

#include "frdfind_table.h"

#include <frd.h>

struct ff_ctx;

/** What an ignore row's param says it is. */
enum ff_ignore_kind {
    FF_IGNORE_GIT,        /**< -gitignore */
    FF_IGNORE_NO_REQUIRE, /**< -no-require-git */
    FF_IGNORE_DOT,        /**< -dot-ignore */
    FF_IGNORE_CACHES,     /**< -exclude-caches */
    FF_IGNORE_FILE,       /**< -ignore-file FILE */
    FF_IGNORE_IF_PRESENT, /**< -exclude-if-present NAME */
};

/** The ignore primaries (the row's param: enum ff_ignore_kind): global options, true where
 *  they stand, gathered into the options' ignore lists. */
ff_parse_fn ff_parse_ignore;

/**
 * The walk's ignore rules from the ignore primaries: *out NULL when none was given; the
 * caller frees it with frd_ignore_free() after the walks.
 * @return 0, or -1 after reporting (an -ignore-file that cannot be read, no memory).
 */
int ff_ignore_build(struct ff_ctx *ctx, struct frd_ignore **out);

#endif // FRD_EXAMPLES_FRDFIND_IGNORE_H
