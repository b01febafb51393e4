// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frd_mpi: one walk across the ranks of an MPI communicator (libfrd_mpi, a separate library
 * so libfrd's ABI does not depend on MPI). Each rank walks with frd's own parallel walker;
 * a rank that runs dry steals directories from a random other rank. Design: mpi/README.md
 * and the note atop mpi/walk.c.
 *
 * Threads: call it from the thread that initialized MPI (at least MPI_THREAD_FUNNELED: the
 * walker's threads never call MPI), or, under MPI_THREAD_SERIALIZED, from any one thread
 * while no other makes MPI calls. Every rank of the communicator calls it collectively.
 * Memory: libfrd_mpi allocates through libfrd's allocator (frd_replace_allocator()).
 */
#ifndef FRD_MPI_H
#define FRD_MPI_H

#include <frd.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Progress of the whole walk, summed over the ranks as rank 0 last heard from them. */
struct frd_mpi_progress {
    uint64_t entries; /**< entries visited on every rank */
    uint64_t dirs;    /**< directories listed on every rank */
    uint64_t bytes;   /**< sum of the sizes of the entries visited */
    uint64_t errors;  /**< errors reported */
    int ranks;        /**< ranks in the communicator */
    int idle_ranks;   /**< ranks that were waiting for work at their last report */
};

/** Progress hook: runs on the root rank (rank 0) only, on the thread that called
 *  frd_mpi_walk(), about every options.progress_interval_ms. `p` is valid during the call. */
typedef void frd_mpi_progress_fn(const struct frd_mpi_progress *p, void *udata);

/**
 * The callbacks of a distributed walk. Each rank runs them for the entries it walked, with
 * the meaning frd.h gives them (visit, error hook, post-order hook), on that rank's walker
 * threads, except on_progress (see above). Differences from a single-process walk: a
 * directory handed to another rank is visited on the rank that listed its parent, and its
 * entries, its post-order call and its errors on the rank that received it; its dir_state
 * slot is released at the handoff (its entries see parent_state NULL). `we->depth` is the
 * depth below the walk's root on every rank; `we->is_root` is true only for that root.
 */
struct frd_mpi_callbacks {
    frd_visit_fn *visit;           /**< required */
    frd_walk_error_fn *on_error;   /**< NULL: go on silently; the root's failure is returned */
    frd_walk_post_fn *on_dir_done; /**< NULL: no post-order calls */
    /** NULL: no progress reports. Set it on every rank or on none: the other ranks send
     *  their figures to rank 0 only when they have it too (only rank 0 calls it). */
    frd_mpi_progress_fn *on_progress;
};

/** Options of a distributed walk: frd_mpi_options_init() first. */
struct frd_mpi_options {
    /** The walk options each rank uses (workers, flags, follow, depths, fields,
     *  on_dir_state_free). Its hooks on_error, on_dir_done, on_progress and on_children
     *  must be NULL: the callbacks come in struct frd_mpi_callbacks. */
    struct frd_walk_options walk;
    unsigned progress_interval_ms; /**< how often progress reaches rank 0; 0 means 1000 */
};

/** Sets the defaults: frd_walk_options_init() for `walk`, 1000 ms progress. `opts` must not
 *  be NULL; the caller owns it. Returns nothing; thread-safe (touches *opts only). */
void frd_mpi_options_init(struct frd_mpi_options *opts);

/**
 * Walks the tree below `root` across every rank of `comm`. Collective: every rank calls it
 * with the same root and options and returns when the whole walk has ended (every rank idle
 * and no directory in flight). Rank 0 visits the root; the other ranks start idle and steal.
 * A directory is handed over as its path with the device and inode the sender saw; the
 * receiver checks them when it opens it (a mismatch is an FRD_OP_OPEN error FRD_ECHANGED).
 *
 * With FRD_FOLLOW_ALL, loop detection and FRD_WALK_UNIQUE_* work within each rank's share
 * only (a loop that crosses ranks is walked until max_depth or ELOOP from the kernel).
 *
 * @param comm the communicator (not freed; a duplicate is used inside).
 * @param root the path to walk, the same on every rank; the caller keeps it.
 * @param opts, cb read during the call only; the caller keeps them.
 * @param udata passed to every callback on this rank; the caller keeps it.
 * @return the same value on every rank: 0 when the walk finished; FRD_ESTOPPED when a visit
 * on any rank returned FRD_ACTION_STOP; the error's code when an error hook on any rank said
 * stop; when on_error is NULL, the root's code if it could not be walked (FRD_ENOENT, ...);
 * FRD_EINVAL for NULL arguments or hooks set in opts->walk; FRD_ENOMEM; FRD_EMALFORMED when
 * a rank received a message that breaks the protocol (a length other than its kind's, a
 * path running past its message, not below `root` or holding a NUL, a depth or flag out of
 * range: ranks of different builds, a corrupted transport), never read past its end (with
 * on_error set, a kernel's malformed buffer goes to the hook, so this code then means a
 * message); FRD_EIO when an MPI call failed. After a non-zero return every rank stopped its
 * walk.
 */
int frd_mpi_walk(MPI_Comm comm, const char *root, const struct frd_mpi_options *opts,
                 const struct frd_mpi_callbacks *cb, void *udata);

#ifdef __cplusplus
}
#endif

#endif // FRD_MPI_H
