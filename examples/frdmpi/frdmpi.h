// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/** frdmpi's shared parts: the subcommands' entry points and their common options. */
#ifndef FRD_EXAMPLES_FRDMPI_H
#define FRD_EXAMPLES_FRDMPI_H

#include "progress_line.h"

#include <frd_mpi.h>
#include <stdatomic.h>
#include <stdbool.h>

/** What every subcommand shares: the rank, the progress line and the error count. */
struct fm_run {
    int rank;
    int size;
    bool quiet;                    /**< -q: do not print each failure */
    struct progress_line progress; /**< rank 0 on a terminal */
    atomic_uint_least64_t errors;  /**< failures reported on this rank */
};

/* The hooks below take as udata a subcommand's state whose first member is its
 * struct fm_run pointer. */

/** Prints a walk failure on stderr ("frdmpi: 'PATH': MESSAGE (OP)") and counts it. */
enum frd_action fm_error(const struct frd_walk_error *err, void *udata);

/** The progress hook (rank 0): draws the line from the figures of every rank. */
void fm_progress(const struct frd_mpi_progress *p, void *udata);

/** @return fm_progress on every rank if rank 0 draws a progress line, else NULL
 *  (collective: every rank must set the hook for the others' figures to reach rank 0). */
frd_mpi_progress_fn *fm_progress_hook(struct fm_run *run);

/** Parses a count for -j (1..256). @return it, or 0 after a message. */
unsigned fm_workers(const char *arg);

/** @return 0 if every rank has no error and status 0, else 1 (collective). */
int fm_status(struct fm_run *run, int status);

/** The words for a code frd_mpi_walk() returned: tool_strerror()'s, but FRD_EMALFORMED's,
 *  which frdmpi's walks (error hooks set) get only for a message between ranks. */
const char *fm_strerror(int code);

/** What fm_gather() collected at rank 0: rank r's bytes are all[offset[r], +count[r]),
 *  and the byte after them is free (for a terminator). */
struct fm_gathered {
    char *all; /**< malloc'd */
    int *count;
    int *offset;
};

/**
 * Gathers every rank's `len` bytes of `buf` at rank 0 (collective; `len` below 0: this rank
 * could not make them). Rank 0 checks the sizes (none below 0, their sum, with a byte after
 * each rank's, at most INT_MAX),
 * makes room, and tells every rank whether to send (MPI_Bcast), so no rank sends into a
 * buffer rank 0 does not have. @return 0, with *out filled on rank 0 (fm_gathered_free()
 * it; zeroed on the others), or -1 on every rank.
 */
int fm_gather(struct fm_run *run, const char *buf, long len, struct fm_gathered *out);

/** Frees what fm_gather() filled (a zeroed struct too). */
void fm_gathered_free(struct fm_gathered *g);

/** The subcommands: argc/argv start at the subcommand's name. @return the exit status. */
int fm_walk_main(struct fm_run *run, int argc, char **argv);
int fm_du_main(struct fm_run *run, int argc, char **argv);
int fm_find_main(struct fm_run *run, int argc, char **argv);
int fm_index_main(struct fm_run *run, int argc, char **argv);

#endif // FRD_EXAMPLES_FRDMPI_H
