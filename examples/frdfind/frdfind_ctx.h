// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** One run of frdfind: its options and each module's state (frdfind_ctx.c). */
#ifndef FRD_EXAMPLES_FRDFIND_CTX_H
#define FRD_EXAMPLES_FRDFIND_CTX_H

#include "frdfind_msg.h"
#include "frdfind_options.h"

struct ff_out;
struct ff_execs;
struct ff_files;
struct ff_ls;
struct ff_colors;
struct ff_owners;
struct ff_mounts;
struct ff_matcher;

/**
 * One run of frdfind: the command line as parsed, and the state of each module that keeps
 * any (each owns its own: only its file touches it), made on the main thread before the
 * walk and freed after it. Nothing of a run lives in a file-scope variable, so that a
 * process can make several runs (the fuzz target makes one per input) and each starts clean.
 */
struct ff_ctx {
    struct ff_options opts;   /**< the command line (frdfind_parse.c) */
    struct ff_msgs msgs;      /**< messages and exit status (frdfind_msg.c) */
    struct ff_out *out;       /**< output buffers (frdfind_out.c): ff_out_init() */
    struct ff_execs *execs;   /**< the commands of -exec and its kin, or NULL (frdfind_exec.c) */
    struct ff_files *files;   /**< the output files, or NULL (frdfind_file.c) */
    struct ff_ls *ls;         /**< -ls's columns, or NULL without -ls, -fls (frdfind_ls.c) */
    struct ff_colors *colors; /**< -color's LS_COLORS, or NULL (frdfind_color.c) */
    /** Names by user and group id, made on first use by any thread (frdfind_owner.c). */
    _Atomic(struct ff_owners *) owners;
    struct ff_mounts *mounts; /**< the mount table, read on first use (frdfind_mounts.c) */
    struct ff_matcher *match; /**< fnmatch in the locale, or NULL (frdfind_match.c) */
    unsigned std_closed;      /**< bit fd for each of 0-2 closed at start (frdfind_stdfd.c) */
};

/**
 * Sets up a run: no option given, nothing failed; messages can be printed from here on.
 * Makes the states every run has (allocations only: no file is opened).
 * @return 0, or -1 when out of memory (ctx can still print and be freed).
 */
int ff_ctx_init(struct ff_ctx *ctx);

/** Frees everything of the run (after ff_exec_finish_all() and ff_file_close_all()). */
void ff_ctx_free(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_CTX_H
