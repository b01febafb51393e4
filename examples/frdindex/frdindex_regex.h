// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The literal pieces of a POSIX regular expression (`find -r`, `--regex`): the runs of
 * three or more bytes every match must hold, looked up in the trigram index as a glob's
 * pieces are (frdindex_candidates.h).
 *
 * Read conservatively, so a piece is always a substring of every match: a run is ordinary
 * characters and escaped special ones at the top level; it ends at '.', a bracket
 * expression, an anchor, a back reference or GNU escape (\w, \<, ...), a group, and
 * before a character a quantifier ('*', '+', '?', an interval) makes optional or repeats;
 * a group's contents give no piece; an alternation at the top level, or what this reader
 * does not know, gives none at all (the caller scans).
 */
#ifndef FRD_EXAMPLES_FRDINDEX_REGEX_H
#define FRD_EXAMPLES_FRDINDEX_REGEX_H

#include "frdindex_candidates.h"

#include <stdbool.h>
#include <stddef.h>

/**
 * The literal pieces of regular expression `re` (extended: ERE, else BRE with GNU's
 * operators \+ \? \|), one regcomp() accepted, into `out` (room for `max`).
 * @return their number; 0 when it has none (the caller scans).
 */
size_t index_regex_pieces(const char *re, bool extended, bool ignore_case, struct index_piece *out,
                          size_t max);

#endif // FRD_EXAMPLES_FRDINDEX_REGEX_H
