// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** fnmatch() in the locale, as GNU find matches, with the C locale's speed for ASCII
 *  (frdfind_match.c). */
#ifndef FRD_EXAMPLES_FRDFIND_MATCH_H
#define FRD_EXAMPLES_FRDFIND_MATCH_H

#include <stdbool.h>
#include <stddef.h>

struct ff_ctx;

/** @return whether the len bytes of s are all ASCII. */
bool ff_is_ascii(const char *s, size_t len);

/**
 * Makes the run's matcher for the locale set now, unless it has one: the parse of a
 * pattern test calls it (main thread, after setlocale()). @return 0, or 1 (reported).
 */
int ff_matcher_need(struct ff_ctx *ctx);

/** Frees the matcher. */
void ff_matcher_free(struct ff_ctx *ctx);

/**
 * fnmatch(pattern, s, flags) == 0 in the locale (characters in UTF-8, bytes in C), with the
 * C locale's byte matcher when pattern (pattern_ascii) and s are both ASCII. Thread-safe.
 * The run has a matcher (ff_matcher_need()).
 */
bool ff_fnmatch(const struct ff_ctx *ctx, const char *pattern, bool pattern_ascii, const char *s,
                size_t len, int flags);

#endif // FRD_EXAMPLES_FRDFIND_MATCH_H
