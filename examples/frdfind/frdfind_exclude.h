// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** bfs's -exclude EXPR in frdfind (frdfind_exclude.c; the option's parse: frdfind_parse.c). */
#ifndef FRD_EXAMPLES_FRDFIND_EXCLUDE_H
#define FRD_EXAMPLES_FRDFIND_EXCLUDE_H

struct ff_ctx;
struct frd_walk_children;
struct frd_walk_entry;

/**
 * -exclude, after the parse: puts the test that leaves out an excluded root in front of
 * opts->expr. @return 0, or 1 after an error (out of memory) was reported.
 */
int ff_exclude_finish(struct ff_ctx *ctx);

/**
 * The walk's children hook under -exclude: drops every entry EXPR matches (never stat'ed
 * unless EXPR reads metadata, never visited, never entered), and all the entries of an
 * excluded root. Runs on the listing worker (see frd_walk_children_fn).
 */
void ff_exclude_children(struct ff_ctx *ctx, const struct frd_walk_entry *dir,
                         struct frd_walk_children *kids);

#endif // FRD_EXAMPLES_FRDFIND_EXCLUDE_H
