// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Internal declarations of the walker above its scheduler: nodes, workers, identity, the two
 * modes.
 *
 * Who calls whom (each file calls only files below it; the scheduler calls nothing here:
 * what it needs from the walk goes through struct frd__sched_hooks, set up by api.c):
 *
 *   api.c                         public functions, options, a walk's threads' entry
 *   concurrent.c  ordered.c       the two modes (ordered.c: the consumer)
 *                 ordered_list.c  the ordered mode's heap and listing workers
 *                 ordered_pool.c  its pooled results
 *   root.c                        a root, in both modes
 *   children.c                    the children hook
 *   resolve.c                     an entry before its visit: links, loops, dedupe, descend?
 *   report.c                      errors, progress, the visit callback
 *   open.c                        opening and reopening; a node's last release
 *   node.c                        node allocation, paths, descriptor refcounts
 *   identity.c                    identities, dedupe sets, volume classes (calls table.c)
 *   table.c                       the walker's hash table
 *   sched/                        threads, deques, parking, termination, stop (sched.h)
 */
#ifndef FRD_WALKER_WALKER_H
#define FRD_WALKER_WALKER_H

#include "internal.h"
#include "plan.h"
#include "platform.h"
#include "sched/sched.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

/*
 * A node is one directory the walk will list, is listing, or has listed while something
 * below it is still in progress. Nodes form the ancestor chain (parent pointers): the path
 * of a directory is rebuilt from it, loops are found by comparing against it, and a
 * directory whose descriptor was closed is reopened along it. A node lives while its own
 * task is unfinished or any child node lives (refs), so the chain of every task is intact.
 *
 * Descriptor of a node (fd, fd_refs): open while fd_refs > 0. The worker listing it holds
 * one ref; each child pushed while the budget allows holds one more (released when the
 * child is opened or dropped); in ordered mode the consumer's frame holds one. Whoever
 * drops the count to zero closes it. Anyone else may borrow it only through
 * wk_fd_try_pin(), which never revives a count that reached zero.
 */
struct frd__wnode {
    struct frd__wnode *parent;
    atomic_uint refs;    /**< own task + live children */
    atomic_int fd_refs;  /**< the descriptor is open while > 0 */
    frd_os_fd fd;        /**< valid only while fd_refs > 0 */
    unsigned depth;      /**< 0 for a root */
    unsigned root_index; /**< index of its root in walk->roots */
    uint64_t root_dev;   /**< device of this node's root (one-file-system) */
    bool persistent_ids; /**< the directory's volume has strong ids */
    uint8_t vclass;      /**< ordered mode, roots: the volume class found when opened */
    unsigned flags;      /**< enum wnode_flag: changed only before children exist */
    /** Listed, or visited with CONTINUE and found unreadable: eligible for the post-order
     *  hook. A field of its own, because the ordered consumer sets it while workers read the
     *  flags of ancestors. */
    bool listed;
    /** Can this directory be searched (enum wnode_search)? Written by the worker listing
     *  it, from the first stat of a subdirectory, in walks that check it. */
    uint8_t search;
    uint32_t ord; /**< ordered mode: position in the parent's sorted listing */
    /** Ordered mode: the node's pre-order label, a 128-bit number (pre[0] the high half)
     *  that orders it against every labeled node of its root as pre_cmp() would: its
     *  parent's with ord + 1 in the next pre_child_bits bits of the parent. pre_used: the
     *  bits taken (0 for a root); FRD__PRE_NONE: no label (past 128 bits: a deep tree of
     *  large listings), compared by walking the ancestors. */
    uint64_t pre[2];
    uint8_t pre_used;
    /** Ordered mode: bits a child's place takes in its label (enough for ord + 1 of every
     *  entry of this directory's listing), set when it is listed, before children exist. */
    uint8_t pre_child_bits;
    atomic_bool pruned; /**< ordered mode: the consumer will not descend here */
    /** Ordered mode: the next subdirectory of the same listing, pushed onto the task heap
     *  when this one is taken off it (the heap holds one subdirectory per listing). */
    struct frd__wnode *next_sib;
    struct frd__identity id;           /**< valid with WN_HAS_ID */
    struct frd_entry entry;            /**< the directory's own entry (name: this->name) */
    struct frd_walk_dir_totals totals; /**< filled once listed */
    /** Ordered mode: the listing, once a worker has published it. Concurrent mode, a batch
     *  task (WN_BATCH): its struct frd__batch. */
    void *result;
    /** Sizes summed by batch tasks of this directory (concurrent mode), added to
     *  totals.bytes when it is finished. */
    atomic_uint_fast64_t batch_bytes;
    /** The caller's per-directory state (frd_walk_entry.dir_state), written by the thread
     *  that visits the directory before the node is published to the others (concurrent
     *  mode) or by the consumer only (ordered mode); released once with the node. */
    void *state;
    char *canon; /**< canonical path, on untrusted volumes when following links */
    struct frd__wnode *next_free;
    size_t name_len;
    char *name;         /**< name in the parent, or the root as given */
    uint8_t size_class; /**< which free list it returns to */
    char name_inline[]; /**< storage for name when it fits the size class */
};

/** frd__wnode.pre_used of a node with no pre-order label. */
#define FRD__PRE_NONE 0xff

/** Node search states (frd__wnode.search). */
enum wnode_search { WN_SEARCH_UNKNOWN = 0, WN_SEARCH_YES = 1, WN_SEARCH_NO = 2 };

/** Node flags. */
enum wnode_flag {
    WN_ROOT = 1u << 0,            /**< a root of the walk */
    WN_VIA_LINK = 1u << 1,        /**< reached through a followed symlink */
    WN_HAS_ID = 1u << 2,          /**< id holds the directory's identity */
    WN_HOLDS_PARENT_FD = 1u << 4, /**< holds one of the parent's fd_refs until opened */
    WN_NAME_HEAP = 1u << 5,       /**< name was allocated apart (too long for its class) */
    WN_KEEP_DECIDED = 1u << 6,    /**< the keep-the-descriptor decision was taken */
    WN_KEEP = 1u << 7,            /**< the descriptor is kept for the children */
    WN_ROOT_PIN = 1u << 8,        /**< a root: holds a ref on its own fd for its subtree */
    /** Not a directory but a batch of its parent's listing to stat and visit (concurrent
     *  mode, a big directory): holds a ref on the parent and on its descriptor. */
    WN_BATCH = 1u << 9,
};

/** Opaque to users: one worker's view of a listing for opts.on_children. */
struct frd_walk_children {
    const struct frd_entry *v; /**< the worker's listing */
    uint32_t *order;           /**< indices into v, in visit order; count of them */
    size_t count;
    uint32_t *tmp;                    /**< sort scratch */
    uint8_t *marks;                   /**< per index of v: enum kid_mark bits */
    size_t cap;                       /**< of order, tmp and marks */
    frd_os_fd fd;                     /**< the directory, during the hook */
    unsigned part;                    /**< enum frd_walk_children_part bits of this call */
    const struct frd_walk_entry *dir; /**< the directory's visit, during the hook */
    char *path;                       /**< frd_walk_children_path()'s buffer */
    size_t path_cap;
};

/**
 * A batch of a big directory's listing (concurrent mode), handed through the deques to
 * whichever worker is idle, while the worker listing the directory reads the next one.
 */
struct frd__batch {
    struct frd_list *list;     /**< names and what the records give */
    struct frd__worker *owner; /**< the worker listing the directory (counts batches out) */
    enum frd__vol_class cls;   /**< the directory's volume class */
    bool late_stat;            /**< the entries still need their stat */
    /** The children hook has run over the batch (FRD_WALK_CHILDREN_PARTS): visit the
     *  survivors in `kids` (its arrays stay with the batch for reuse). */
    bool hooked;
    struct frd_walk_children kids;
    struct frd__batch *next; /**< in walk->batches.free */
};

/**
 * The walk entry of a directory node without its states (parent_state and dir_state NULL):
 * what an ordered worker's children hook sees, since the consumer may be writing the
 * states of the node's ancestors meanwhile.
 */
static inline struct frd_walk_entry
frd__wnode_walk_entry_stateless(struct frd__wnode *node, const char *path, size_t path_len,
                                frd_os_fd parent_fd, unsigned worker)
{
    struct frd_walk_entry we = {
        .path = path,
        .path_len = path_len,
        .entry = &node->entry,
        .depth = node->depth,
        .parent_fd = parent_fd,
        .is_root = (node->flags & WN_ROOT) != 0,
        .followed_link = (node->flags & WN_VIA_LINK) != 0,
        .persistent_ids = node->persistent_ids,
        .root_index = node->root_index,
        .worker = worker,
    };
    return we;
}

/**
 * The walk entry a directory node's own callbacks see (its root visit and its post-order
 * visit, in both modes): the node's entry, depth and flags at `path`, with `parent_fd`.
 */
static inline struct frd_walk_entry frd__wnode_walk_entry(struct frd__wnode *node, const char *path,
                                                          size_t path_len, frd_os_fd parent_fd,
                                                          unsigned worker)
{
    struct frd_walk_entry we =
        frd__wnode_walk_entry_stateless(node, path, path_len, parent_fd, worker);
    we.parent_state = node->parent != NULL ? node->parent->state : NULL;
    we.dir_state = node->entry.type == FRD_TYPE_DIR ? (void **)&node->state : NULL;
    return we;
}

/** Separator between a directory's path and a name: none after a root ending in one ('/',
 *  or on Windows a backslash). @return 0 or 1. */
static inline size_t frd__path_sep(const char *dir, size_t dir_len)
{
    return dir_len > 0 && frd__plat_is_sep(dir[dir_len - 1]) ? 0 : 1;
}

/* ---- Identity (walker/identity.c) ---- */

/** A set of identities, sharded by hash so workers rarely meet on one lock. */
struct frd__idset;

int frd__idset_new(struct frd__idset **out);
void frd__idset_free(struct frd__idset *set);
/** Inserts an identity. @return 1 if it was new, 0 if already present, FRD_ENOMEM. */
int frd__idset_insert(struct frd__idset *set, const struct frd__identity *id);

/** Per-device volume classes, cached (walker/identity.c). */
struct frd__volcache;

int frd__volcache_new(struct frd__volcache **out);
void frd__volcache_free(struct frd__volcache *vc);
/** @return the cached class of `dev`, or -1 if not known yet. */
int frd__volcache_get(struct frd__volcache *vc, uint64_t dev);
void frd__volcache_put(struct frd__volcache *vc, uint64_t dev, enum frd__vol_class cls);

/** Same identity? Subvolumes are compared only where both are known. */
bool frd__identity_equal(const struct frd__identity *a, const struct frd__identity *b);

/**
 * Loop check for a directory reached through a followed link: is `target` the identity (or,
 * on an untrusted volume, `target_canon` the canonical path) of `from` or any ancestor?
 * @return the ancestor it repeats, or NULL.
 */
const struct frd__wnode *frd__find_loop(const struct frd__wnode *from,
                                        const struct frd__identity *target,
                                        const char *target_canon);

/* ---- The children hook (walker/children.c) ---- */

struct frd__worker;

/**
 * Runs the hook over the worker's list (names and types): sets the view up, calls it, keeps
 * the survivors in its order. `dir` is the directory as the hook sees it, `fd` its
 * descriptor. @return 0 or FRD_ENOMEM.
 */
int frd__children_run(struct frd__worker *w, const struct frd_walk_entry *dir, frd_os_fd fd);
/**
 * Runs the hook over one part of a listing, `list`, through the view `k` (the worker's, or a
 * batch's): as frd__children_run(), with `part` the enum frd_walk_children_part bits the
 * hook reads. @return 0 or FRD_ENOMEM.
 */
int frd__children_run_part(struct frd__worker *w, struct frd_walk_children *k,
                           const struct frd_list *list, const struct frd_walk_entry *dir,
                           frd_os_fd fd, unsigned part);
/**
 * The i-th survivor, stat'ed relative to `fd` unless the walk wants names only.
 * @return false if it vanished since the listing (then it is left out).
 */
bool frd__children_entry(struct frd__worker *w, size_t i, frd_os_fd fd, struct frd_entry *out,
                         bool *no_descent);
/** frd__children_entry() through the view `k` (a batch's, on whichever worker visits it). */
bool frd__children_entry_in(struct frd_walk *walk, const struct frd_walk_children *k, size_t i,
                            frd_os_fd fd, struct frd_entry *out, bool *no_descent);
/**
 * The stat of an entry listed by name and type only, relative to `fd`, with the walk's
 * fields, into *out (the entry itself when the stat fails: then with `error` set).
 * @return false if it vanished since the listing (then it is left out).
 */
bool frd__entry_stat_late(struct frd_walk *walk, const struct frd_entry *e, frd_os_fd fd,
                          struct frd_entry *out);

/**
 * The i-th entry of a directory's loop (both modes): the listing's own `v[i]`, or with the
 * children hook (`kids`) its i-th survivor, stat'ed into *scratch; *no_descent says whether
 * the hook marked it not to be entered. @return the entry, or NULL when it vanished.
 */
static inline const struct frd_entry *frd__dir_entry_at(struct frd__worker *w, bool kids,
                                                        const struct frd_entry *v, size_t i,
                                                        frd_os_fd fd, struct frd_entry *scratch,
                                                        bool *no_descent)
{
    *no_descent = false;
    if (!kids) {
        return &v[i];
    }
    return frd__children_entry(w, i, fd, scratch, no_descent) ? scratch : NULL;
}
void frd__children_free(struct frd__worker *w);
/** Frees a view's arrays and zeroes it. */
void frd__children_view_free(struct frd_walk_children *k);

/* ---- The walk ---- */

struct frd__worker;

/** Opaque to users as struct frd_walk. */
struct frd_walk {
    struct frd_walk_options opts;
    struct frd__walk_plan plan; /**< every flag the options decide (walker/plan.c) */
    char **roots;
    size_t nroots;

    struct frd__worker *workers;  /**< nworkers of them */
    struct frd__worker *consumer; /**< ordered mode: the thread that runs callbacks */

    /** Threads, tasks, stopping (walker/sched/): opaque. */
    struct frd__sched *sched;
    bool locks_ready;    /**< ordered.node_lock and batches.lock were initialized */
    atomic_int root_err; /**< first error of a root that could not be walked */

    /** The caller's callbacks and the progress clock (walker/report.c). */
    struct {
        frd_visit_fn *visit;
        void *udata;
        atomic_uint_fast64_t progress_due; /**< uv_hrtime() of the next report */
        atomic_flag progress_busy;
    } hooks;

    /** The descriptor budget (walker/open.c). */
    struct {
        atomic_int open_fds;
    } fds;

    /** Visit-once and volume classes (walker/identity.c). */
    struct {
        struct frd__idset *seen; /**< unique files and directories */
        struct frd__volcache *volumes;
    } ids;

    /** The ordered mode (walker/ordered*.c); state is NULL in the concurrent mode. */
    struct {
        struct frd__ordered *state;
        uv_mutex_t node_lock; /**< nodes the consumer freed, for the workers */
        struct frd__wnode *shared_small;
        struct frd__wnode *shared_large;
        /** The consumer's thread only: nodes it freed, by size class, handed to the shared
         *  lists a batch at a time (one lock per batch, not per node). */
        struct frd__wnode_batch {
            struct frd__wnode *head;
            struct frd__wnode *tail;
            unsigned n;
        } handoff[2];
    } ordered;

    /** Spare batches of big directories' listings (walker/concurrent.c). */
    struct {
        uv_mutex_t lock;
        struct frd__batch *free;
        size_t nfree;
    } batches;

    /** frd_walk_start_async(). */
    struct {
        uv_loop_t *loop;
        uv_async_t *handle;
        frd_walk_done_fn *done_cb;
        void *done_udata;
    } async;

    /** frd_read_tree(): entries collected per worker instead of visit calls. */
    struct {
        bool on;
        size_t prefix; /**< bytes of root + "/" to strip from paths */
    } collect;
};

/** One thread's state: its deque, lister, list, path buffers and node free lists. */
struct frd__worker {
    struct frd_walk *walk;
    /** Its scheduler side (walker/sched/): its deque, thread, callback slot. */
    struct frd__sched_worker *sw;
    struct frd_lister *lister;
    struct frd_list *list;
    struct frd_list *collect; /**< frd_read_tree() */
    char *path;
    size_t path_cap;
    char *path2; /**< post-order and reopen paths */
    size_t path2_cap;
    struct frd__wnode **chain; /**< scratch for reopening along the ancestors */
    size_t chain_cap;
    struct frd__wnode *free_small;
    struct frd__wnode *free_large;
    void **slabs; /**< node slabs this worker allocated */
    size_t nslabs;
    size_t slabs_cap;
    uint64_t last_dev; /**< one-entry volume class cache */
    int last_class;    /**< -1: none */
    char *canon;       /**< scratch for canonical paths */
    size_t canon_cap;
    struct frd_walk_children kids; /**< the children hook's view */
    bool kids_on;                  /**< the current listing went through the hook */
    atomic_uint batches_out;       /**< batches of the directory it lists, pushed, not finished */
    // Progress counters, read by whoever reports progress.
    atomic_uint_fast64_t n_dirs;
    atomic_uint_fast64_t n_entries;
    atomic_uint_fast64_t n_bytes;
    atomic_uint_fast64_t n_errors;
    size_t allocations; /**< slabs and buffers this worker asked for */
};

/* walker/node.c: nodes, their paths and descriptor refs (both modes). */
struct frd__wnode *frd__wnode_new(struct frd__worker *w, struct frd__wnode *parent,
                                  const char *name, size_t name_len);
/** Returns a node whose refs are gone to a free list (the consumer's go to the workers). */
void frd__wnode_free(struct frd__worker *w, struct frd__wnode *node);
void frd__wnode_release(struct frd__worker *w, struct frd__wnode *node);
/** Drops a task that will not be listed (stop, prune): releases what it holds. */
void frd__wnode_drop(struct frd__worker *w, struct frd__wnode *node);
bool frd__fd_try_pin(struct frd__wnode *node);
/** Releases a directory state the caller stored (opts.on_dir_state_free), if any. */
void frd__state_free(struct frd_walk *walk, void *state);
void frd__fd_release(struct frd_walk *walk, struct frd__wnode *node);
/**
 * Opens a node's directory (relative to its parent, or along its ancestors). The ref on the
 * parent's descriptor it was given (WN_HOLDS_PARENT_FD) is released, except on success with
 * walk->hook_pins_parent: then the caller releases it after the children hook.
 */
int frd__wnode_open(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out);
/**
 * Opens a node's own directory again (its descriptor was not kept): from the nearest
 * ancestor still open, one component at a time, O_NOFOLLOW except through links the walk
 * followed, checking recorded identities, the node's own included. Counts it in open_fds.
 * @return 0 with *out set (close with frd__fd_close_owned()), or a negative code.
 */
int frd__wnode_reopen(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out);
/**
 * Like frd__wnode_reopen(), trying first one step from `nearby`: the node's parent (open
 * node's name in it) or, with nearby_is_child, one of its children (open ".."), either checked
 * against the node's recorded identity.
 */
int frd__wnode_reopen_near(struct frd__worker *w, struct frd__wnode *node, frd_os_fd nearby,
                           bool nearby_is_child, frd_os_fd *out);
/** Closes a descriptor frd__wnode_reopen() gave (FRD_INVALID_FD is allowed). */
void frd__fd_close_owned(struct frd_walk *walk, frd_os_fd fd);
enum { FD_NONE = 0, FD_PINNED = 1, FD_OWNED = 2 };
/**
 * A descriptor of a node's parent for a callback: pinned if it is open, else reopened (by
 * ".." from `node_fd`, the node's own descriptor, when given, else along the ancestors).
 * @return FD_NONE (a root: *fd is FRD_INVALID_FD, or the reopen failed), FD_PINNED or
 * FD_OWNED; give it back with frd__parent_fd_put().
 */
int frd__parent_fd_get(struct frd__worker *w, struct frd__wnode *node, frd_os_fd node_fd,
                       frd_os_fd *fd);
void frd__parent_fd_put(struct frd__worker *w, struct frd__wnode *node, int how, frd_os_fd fd);
/** Writes a node's path into *buf (grown as needed), its length into *len. @return 0 or
 *  FRD_ENOMEM. */
int frd__wnode_path(struct frd__worker *w, struct frd__wnode *node, char **buf, size_t *cap,
                    size_t *len);
/** Grows a worker-owned buffer. @return 0 or FRD_ENOMEM. */
int frd__grow(struct frd__worker *w, char **buf, size_t *cap, size_t need);
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
/** Enters and leaves a callback (walker/sched/threads.c). */
static inline bool frd__cb_enter(struct frd__worker *w)
{
    return frd__sched_cb_enter(w->sw);
}
static inline void frd__cb_leave(struct frd__worker *w)
{
    frd__sched_cb_leave(w->sw);
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
/** Reports an error through the hook. @return false if the walk must stop. */
bool frd__report(struct frd__worker *w, const char *path, struct frd__failure op, int code,
                 unsigned depth);
/**
 * Reports an error of a root (it could not be stat'ed or opened): to the hook if there is
 * one, else into the walk's result (never both). @return false if the walk must stop.
 */
bool frd__report_root(struct frd__worker *w, const char *path, struct frd__failure op, int code);
/** Like frd__report(), for a loop: `other` is the path of the ancestor it repeats. */
bool frd__report_loop(struct frd__worker *w, const char *path, struct frd__failure op, int code,
                      unsigned depth, const char *other);
/** Volume class of the directory `fd` on device `dev` (cached per worker and per walk). */
enum frd__vol_class frd__volume_class(struct frd__worker *w, frd_os_fd fd, uint64_t dev);
/** Progress report if due. */
void frd__progress_tick(struct frd__worker *w);

/** The fields the walk itself decides with (identity: loops, one file system, volumes). */
#define FRD__ID_FIELDS (FRD_FIELD_FILE_ID | FRD_FIELD_DEV)

/** An entry as the walk will report it: a followed link's target, its identity, errors. */
struct frd__resolved {
    struct frd_entry entry;  /**< what the callback sees */
    struct frd__identity id; /**< with has_id */
    bool has_id;
    bool followed;   /**< a link the walk followed */
    bool persistent; /**< strong ids on its volume */
    int err;         /**< an error to report first (0: none) */
    struct frd__failure err_op;
    const struct frd__wnode *loop; /**< with FRD_ELOOP from a loop: the ancestor repeated */
    const char *canon;             /**< canonical path (untrusted volumes, followed links) */
};

enum { RESOLVE_VISIT = 0, RESOLVE_SKIP = 1 };

/** Follows a link if asked, checks loops and duplicates. @return RESOLVE_VISIT or _SKIP. */
int frd__resolve_entry(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd,
                       enum frd__vol_class dir_class, const struct frd_entry *e, bool dedupe,
                       struct frd__resolved *r);
/** Visit-each-once check (inserts the id). @return true for a duplicate to skip. */
bool frd__is_duplicate(struct frd_walk *walk, const struct frd__resolved *r);
/** Counts an entry and calls the visit callback. @return its action. */
enum frd_action frd__visit(struct frd__worker *w, const struct frd_walk_entry *we);
bool frd__may_descend(struct frd_walk *walk, const struct frd__wnode *dir,
                      const struct frd__resolved *r);
struct frd__wnode *frd__child_node(struct frd__worker *w, struct frd__wnode *dir,
                                   const struct frd__resolved *r);
bool frd__keep_fd(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd);
int frd__dir_opened(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                    enum frd__vol_class *cls);

/* walker/root.c: a root, in both modes. */
int frd__root_stat(struct frd__worker *w, struct frd__wnode *root);
int frd__root_open(struct frd__worker *w, struct frd__wnode *root, frd_os_fd *fd);
/** What a root's mode does after frd__root_begin(). */
enum frd__root_next {
    FRD__ROOT_DONE,       /**< nothing more (not a directory, skipped, failed, stopped) */
    FRD__ROOT_UNREADABLE, /**< visited with CONTINUE, could not be opened: post-order only */
    FRD__ROOT_LIST,       /**< open (rs->fd holds the listing's ref): list it */
};
/** A root directory opened for listing. */
struct frd__root_start {
    size_t dir_len;          /**< its path's length in w->path */
    frd_os_fd fd;            /**< with FRD__ROOT_LIST */
    enum frd__vol_class cls; /**< its volume class */
};
/**
 * Stats, opens and visits a root; reports a root that could not be opened. The node's own
 * ref stays with the caller. @return what the mode does next.
 */
enum frd__root_next frd__root_begin(struct frd__worker *w, struct frd__wnode *root,
                                    struct frd__root_start *rs);

/** Sets a worker up (walker/api.c): its lister, list and scheduler side; `sw` the latter. */
int frd__worker_init(struct frd_walk *walk, struct frd__worker *w, struct frd__sched_worker *sw);

/* walker/ordered.c. */
int frd__ordered_init(struct frd_walk *walk);
void frd__ordered_free(struct frd_walk *walk);
void frd__ordered_consume(struct frd__worker *consumer);
void frd__ordered_worker_run(struct frd__worker *w);
void frd__ordered_wake(struct frd_walk *walk);

/* walker/concurrent.c: the per-directory work of the concurrent mode. */
void frd__concurrent_root(struct frd__worker *w, struct frd__wnode *root);
void frd__concurrent_dir(struct frd__worker *w, struct frd__wnode *node);
/** Frees the walk's spare batches. */
void frd__batches_free(struct frd_walk *walk);
/** Queues the roots on worker 0's deque, the first on top. @return 0 or FRD_ENOMEM (none
 *  queued). */
int frd__concurrent_seed(struct frd_walk *walk);
/** A concurrent worker: takes tasks until the walk is done. */
void frd__worker_run(struct frd__worker *w);

#endif // FRD_WALKER_WALKER_H
