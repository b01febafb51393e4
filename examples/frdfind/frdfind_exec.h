// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -exec, -execdir, -ok and -okdir (frdfind_exec.c): the commands, their batches
 * for '+', and the walk's hooks that run -execdir's batches where find runs them.
 */
#ifndef FRD_EXAMPLES_FRDFIND_EXEC_H
#define FRD_EXAMPLES_FRDFIND_EXEC_H

#include "frdfind_table.h"

#include <stdbool.h>

struct ff_ctx;

/** -exec, -execdir, -ok, -okdir: the command, up to its ';' or '{}' '+' (find's messages). */
ff_parse_fn ff_parse_exec;

/** -exec and its kin on one entry: ';' runs the command (its exit status is the value), '+'
 *  adds the entry to a batch (true). */
ff_eval_fn ff_eval_exec;

/**
 * -execdir ... +: gives a directory being visited (we->dir_state not NULL) its batches, which
 * its entries fill wherever they are visited; the walk's on_dir_state_free
 * (ff_exec_dir_done()) hands them over once the directory is done. Nothing without an
 * -execdir ... + or when the slot is taken. Any thread (the directory's visit).
 */
void ff_exec_dir_visit(struct ff_ctx *ctx, const struct frd_walk_entry *we);

/** @return true if a command is -execdir ... + (its directories need states). */
bool ff_exec_wants_dir_states(const struct ff_ctx *ctx);

/**
 * For the walk's on_dir_state_free: a directory is done; its batches still pending (state)
 * go on the ready list that ff_exec_run_ready() runs (others are freed). Any walk thread.
 */
void ff_exec_dir_done(struct ff_ctx *ctx, void *state);

/**
 * Runs the batches of the directories that are done, oldest first, after thr's pending
 * lines (thr may be NULL). Any thread, before an evaluation and after a walk.
 */
void ff_exec_run_ready(struct ff_ctx *ctx, struct ff_thread *thr);

/**
 * -s and -find-order with an -execdir ... + (ff_exec_wants_dir_states()): from now on the
 * batches run where find runs them (ff_exec_level()), a root's included. Before the walks;
 * then the walk calls ff_exec_level() and ff_exec_level_unvisited(), and only then.
 */
void ff_exec_levels_begin(struct ff_ctx *ctx);

/**
 * After ff_exec_levels_begin(), for each visit (leaving false) and each directory the walk
 * leaves (its post-order call: leaving true), before anything is evaluated: where the
 * depth changes from the last call's, and at each root, runs the batches pending (find runs
 * them whenever fts goes one level down or up). thr: the caller's output, or NULL. One
 * thread (the ordered walk's).
 */
void ff_exec_level(struct ff_ctx *ctx, const struct frd_walk_entry *we, bool leaving,
                   struct ff_thread *thr);

/**
 * After ff_exec_levels_begin(), for an entry the walk reports and does not visit (a
 * directory loop), before its message: find returns it at its depth, a change of level.
 */
void ff_exec_level_unvisited(struct ff_ctx *ctx, unsigned depth, struct ff_thread *thr);

/** After a walk: runs the batches of its directories still pending (the roots' wait for
 *  the next root's visit or ff_exec_finish_all()). */
void ff_exec_walk_end(struct ff_ctx *ctx, struct ff_thread *thr);

/**
 * Runs every '+' batch still pending (after the walk, from one thread), then frees every
 * command (ff_exec_free()).
 */
void ff_exec_finish_all(struct ff_ctx *ctx);

/** Frees the commands and their batches without running them (ff_ctx_free() calls it). */
void ff_exec_free(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_EXEC_H
