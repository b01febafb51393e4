// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A walk and its workers, as the walk core and the modes above it see them: struct frd_walk
 * (opaque to users), struct frd__worker (one thread's state), and the core's ways into the
 * scheduler below it (stopping, callbacks, slots).
 */
#ifndef FRD_WALKER_CORE_WALK_H
#define FRD_WALKER_CORE_WALK_H

#include "children.h"
#include "identity.h"
#include "internal.h"
#include "node.h"
#include "plan.h"
#include "platform.h"
#include "sched/sched.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

/** Devices a worker remembers as having no extended attributes (FRD_WALK_XATTRS). */
#define FRD__XATTR_NODEV_MAX 8
struct frd__idset;
struct frd__links;
struct frd__volcache;
/** The ordered mode's state (walker/ordered/): opaque to the core. */
struct frd__ordered;
/** The concurrent mode's state (walker/concurrent/): opaque to the core. */
struct frd__concurrent;

/** Opaque to users as struct frd_walk. */
struct frd_walk {
    struct frd_walk_options opts;
    struct frd__walk_plan plan; /**< every flag the options decide (walker/core/plan.c) */
    char **roots;
    size_t nroots;

    /** frd__sched_capacity() of them; frd__sched_created() are set up. */
    struct frd__worker *workers;
    /** Slots of workers zeroed and set up (in whole or in part), from the first: the rest
     *  are uninitialized memory. */
    unsigned workers_set;
    struct frd__worker *consumer; /**< ordered mode: the thread that runs callbacks */
    struct frd__sched *sched;     /**< threads, tasks, stopping (walker/sched/): opaque */

    atomic_int root_err; /**< first error of a root that could not be walked */
    /** Directory descriptors open now (walker/core/open.c): every worker writes it at each
     *  open and close, so it has a cache line of its own, away from opts, plan and hooks,
     *  which each visit reads. */
    char pad_before_fds[FRD__CACHE_LINE];
    atomic_int open_fds;
    char pad_after_fds[FRD__CACHE_LINE];

    /** The caller's callbacks and the progress clock (walker/core/report.c). */
    struct {
        frd_visit_fn *visit;
        void *udata;
        atomic_uint_fast64_t progress_due; /**< uv_hrtime() of the next report */
        atomic_flag progress_busy;
    } hooks;

    /** Visit-once and volume classes (walker/core/identity.c). */
    struct {
        struct frd__idset *seen; /**< unique files and directories */
        struct frd__volcache *volumes;
        struct frd__deep_dirs deep; /**< live directories past the loop check's scan depth */
        struct frd__links *links;   /**< FRD_WALK_LINK_GROUPS (walker/core/links.c) */
    } ids;

    struct frd__node_share nodes;       /**< nodes the consumer freed (walker/core/node.c) */
    struct frd__ordered *ordered;       /**< the ordered mode's state, or NULL */
    struct frd__concurrent *concurrent; /**< the concurrent mode's state, or NULL */

    /** frd_walk_start_async() (walker/api.c). */
    struct {
        uv_loop_t *loop;
        uv_async_t *handle;
        frd_walk_done_fn *done_cb;
        void *done_udata;
    } async;

    /** A pull iterator's walk (walker/iter.c): told on the last thread when every thread
     *  has ended, before they are joined. */
    struct {
        void (*fn)(void *ctx);
        void *ctx;
    } ended;

    /** frd_read_tree(): entries collected per worker instead of visit calls. */
    struct {
        bool on;
        size_t prefix; /**< bytes of root + "/" to strip from paths */
    } collect;
};

/** One thread's state: its lister, list, path buffers and nodes; its scheduler side. */
struct frd__worker {
    struct frd_walk *walk;
    /** Its scheduler side (walker/sched/): its deque, thread, callback slot. */
    struct frd__sched_worker *sw;
    const atomic_bool *stop;     /**< the walk's stop flag (frd__sched_stop_flag()) */
    struct frd_walk_name *names; /**< the names hook's run (walker/concurrent/visit.c) */
    size_t names_cap;
    struct frd_lister *lister;
    struct frd_list *list;
    struct frd_list *collect; /**< frd_read_tree() */
    char *path;
    size_t path_cap;
    struct frd__path_memo path_memo;      /**< what w->path holds (frd__worker_dir_path()) */
    const struct frd__wnode **path_chain; /**< scratch: the nodes whose names are added */
    size_t path_chain_cap;
    uint64_t serial_next; /**< node serials of its own: [serial_next, serial_end) */
    uint64_t serial_end;
    char *path2; /**< post-order and reopen paths */
    size_t path2_cap;
    struct frd__path_memo path2_memo; /**< what w->path2 holds (frd__worker_path2()) */
    struct frd__wnode **chain;        /**< scratch for reopening along the ancestors */
    size_t chain_cap;
    struct frd__node_cache nodes; /**< its free nodes and slabs (walker/core/node.c) */
    uint64_t last_dev;            /**< one-entry volume class cache */
    int last_class;               /**< -1: none */
    char *canon; /**< scratch for canonical paths, and paths the OS is asked about */
    size_t canon_cap;
    char *link; /**< FRD_WALK_LINK_TARGETS: the target of the link visited now */
    size_t link_cap;
    struct frd__xattr_buf xattr; /**< FRD_WALK_XATTRS: the attributes of the entry visited now */
    uint64_t xattr_nodev[FRD__XATTR_NODEV_MAX]; /**< devices found without xattrs */
    size_t xattr_nodev_n;
    struct frd_walk_children kids; /**< the children hook's view */
    atomic_uint batches_out;       /**< concurrent mode: batches of the listing in hand, not done */
    // Progress counters, read by whoever reports progress.
    atomic_uint_fast64_t n_dirs;
    atomic_uint_fast64_t n_entries;
    atomic_uint_fast64_t n_bytes;
    atomic_uint_fast64_t n_errors;
    /** Workers are an array: the counters above, written at each visit, stay off the cache
     *  line of the next worker's first members, which its visits read. */
    char pad_end[FRD__CACHE_LINE];
};

/** The walker's own failed calls (the listers' come from frd_lister_error()). */
#define FRD__FAIL_OPEN  ((struct frd__failure){"open", FRD_OP_OPEN})
#define FRD__FAIL_STAT  ((struct frd__failure){"stat", FRD_OP_STAT})
#define FRD__FAIL_LOOP  ((struct frd__failure){"loop", FRD_OP_LOOP})
#define FRD__FAIL_ALLOC ((struct frd__failure){"alloc", FRD_OP_ALLOC})
#define FRD__FAIL_QUEUE ((struct frd__failure){"queue", FRD_OP_ALLOC})

/** A listing's failure as its lister recorded it. */
static inline struct frd__failure frd__list_failure(const struct frd_lister *lister)
{
    struct frd_list_error le = frd_lister_error(lister);
    return (struct frd__failure){le.op, le.call};
}

/** Grows a worker-owned buffer to hold `need` bytes. @return 0 or FRD_ENOMEM. */
static inline int frd__grow(char **buf, size_t *cap, size_t need)
{
    return FRD__RESERVE(*buf, *cap, need, 256) < 0 ? FRD_ENOMEM : 0;
}

/** Records a fatal result and stops the walk (no callback starts after it returns). */
static inline void frd__walk_stop(struct frd_walk *walk, int code, struct frd__worker *self)
{
    frd__sched_stop(walk->sched, code, self != NULL ? self->sw : NULL);
}

/** Has the walk been stopped? */
static inline bool frd__walk_stopping(const struct frd_walk *walk)
{
    return frd__sched_stopping(walk->sched);
}

/** Enters a callback (walker/sched/threads.c). @return false once the walk is stopped. */
static inline bool frd__cb_enter(struct frd__worker *w)
{
    return frd__sched_cb_enter(w->sw);
}

/** Leaves a callback entered with frd__cb_enter(). */
static inline void frd__cb_leave(struct frd__worker *w)
{
    frd__sched_cb_leave(w->sw);
}

/** Holds the in-callback mark over a run of callbacks (walker/sched/threads.c). */
static inline void frd__cb_hold(struct frd__worker *w)
{
    frd__sched_cb_hold(w->sw);
}

/** Ends a run begun with frd__cb_hold(). */
static inline void frd__cb_unhold(struct frd__worker *w)
{
    frd__sched_cb_unhold(w->sw);
}

/** Holds a callback slot (walker/sched/width.c). @return the worker index callbacks see. */
static inline unsigned frd__slot_hold(struct frd__worker *w)
{
    return frd__sched_slot_hold(w->sw);
}

/** The slot held now (a fixed pool's, or after frd__slot_hold()). */
static inline unsigned frd__slot(const struct frd__worker *w)
{
    return frd__sched_slot(w->sw);
}

/** Gives the slot back before the worker may block (walker/sched/width.c). */
static inline void frd__slot_yield(struct frd__worker *w)
{
    frd__sched_slot_yield(w->sw);
}

#endif // FRD_WALKER_CORE_WALK_H
