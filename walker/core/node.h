// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Directory nodes (walker/core/node.c): what a node holds, its allocation from per-worker
 * slabs and free lists (handed back across threads when the ordered mode's consumer frees
 * nodes the workers made), its path, its descriptor's refcount, and the walk entry its own
 * callbacks see.
 */
#ifndef FRD_WALKER_CORE_NODE_H
#define FRD_WALKER_CORE_NODE_H

#include "frd.h"
#include "platform.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct frd_walk;
struct frd__worker;
struct frd__ign_level;

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
 * frd__fd_try_pin(), which never revives a count that reached zero.
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
    bool ign_own;        /**< ign is this node's own level */
    bool ign_drop_all;   /**< a cache tag or exclude-if-present name: no child survives */
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
    /** Ignore rules (opts.ignore) for its children: its own level (ign_own: freed with the
     *  node) or its parent's, set by the worker listing it before any child exists. */
    struct frd__ign_level *ign;
    /** Ordered mode: the state the children hook stored for this directory (its dir_state
     *  there; its subdirectories' hooks see it as parent_state), written by the worker that
     *  lists it before any subdirectory is queued; released once with the node. */
    void *hook_state;
    char *canon; /**< canonical path, on untrusted volumes when following links */
    struct frd__wnode *next_free;
    /** Tells this node from another made later at the same address: unique in the walk
     *  (workers take them in ranges from frd__node_share.serials). */
    uint64_t serial;
    /** Depth FRD__LOOP_SCAN_DEPTH and below: the ancestor at depth FRD__LOOP_SCAN_DEPTH - 1,
     *  where the loop check's one-by-one comparison starts (walker/core/identity.c). */
    struct frd__wnode *scan_top;
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
    /** Its path crosses a symbolic link (FRD_FOLLOW_ALL: the root's own path does, or a link
     *  the walk followed is on it): a link below is checked against the OS's limit of links
     *  in one path (core/resolve.c). */
    WN_PATH_HAS_LINK = 1u << 10,
    /** Its identity is counted in the walk's set of deep directories (identity.c). */
    WN_IN_DEEP_SET = 1u << 11,
};

/**
 * What a worker's path buffer holds: at each depth below `n`, the node whose path is the
 * buffer's first levels[depth].len bytes (frd__worker_dir_path(), frd__worker_path2()).
 */
struct frd__path_memo {
    struct frd__path_level {
        const struct frd__wnode *node;
        uint64_t serial; /**< the node's, so a later node at its address does not match */
        size_t len;
    } * levels;
    size_t cap;
    size_t n;
};

/** A worker's nodes: free lists by size class, and the slabs it allocated (freed with it). */
struct frd__node_cache {
    struct frd__wnode *free[2]; /**< by size class: small names, then large */
    /** By size class: the newest slab's nodes never handed out, from `fresh` on (a slab's
     *  pages are touched as its nodes are first used, not all when it is allocated). */
    char *fresh[2];
    unsigned fresh_left[2];
    void **slabs;
    size_t nslabs;
    size_t slabs_cap;
};

/**
 * Nodes freed by a thread that made few of them (the ordered mode's consumer), handed back
 * to the workers that make them: batches of the consumer's own, and shared lists the
 * workers take whole under `lock`.
 */
struct frd__node_share {
    uv_mutex_t lock;
    bool lock_ready;
    struct frd__wnode *shared[2]; /**< under lock, by size class */
    /** The consumer's thread only: nodes it freed, by size class, handed to the shared
     *  lists a batch at a time (one lock per batch, not per node). */
    struct frd__wnode_batch {
        struct frd__wnode *head;
        struct frd__wnode *tail;
        unsigned n;
    } handoff[2];
    /** The next range of node serials a worker takes (frd__wnode.serial). */
    atomic_uint_fast64_t serials;
};

/** Sets the share up. @return 0 or FRD_ENOMEM. */
int frd__node_share_init(struct frd__node_share *share);
/** Destroys its lock (its nodes go with the slabs they came from). */
void frd__node_share_destroy(struct frd__node_share *share);
/** Frees a worker's slabs, and with them every node they held. */
void frd__node_cache_free(struct frd__node_cache *cache);

/**
 * A node for directory `name` (name_len bytes) under `parent` (NULL for a root, else it
 * gains a ref), from w's free lists: one ref (its own task), no descriptor, depth, root and
 * root device inherited. @return it, or NULL (no memory).
 */
struct frd__wnode *frd__wnode_new(struct frd__worker *w, struct frd__wnode *parent,
                                  const char *name, size_t name_len);
/** Returns a node whose refs are gone to a free list (the consumer's go to the workers). */
void frd__wnode_free(struct frd__worker *w, struct frd__wnode *node);
/** Takes a ref on a node's open descriptor, never reviving a count that reached zero.
 *  @return true if pinned (release it with frd__fd_release()). */
bool frd__fd_try_pin(struct frd__wnode *node);
/** Drops a ref on a node's descriptor; the last closes it. */
void frd__fd_release(struct frd_walk *walk, struct frd__wnode *node);
/** Writes a node's path into *buf (grown as needed), its length into *len. @return 0 or
 *  FRD_ENOMEM. */
int frd__wnode_path(const struct frd__wnode *node, char **buf, size_t *cap, size_t *len);
/**
 * Writes the path of the directory a worker lists next into its w->path, its length into
 * *len: from the path the buffer already holds for the nearest ancestor the worker built
 * before (a child after its parent, a sibling after a sibling: one name), so a chain of
 * directories costs its names once, not its depth again at every level. What lies past the
 * returned length is the caller's (the entries' names). @return 0 or FRD_ENOMEM.
 */
int frd__worker_dir_path(struct frd__worker *w, const struct frd__wnode *node, size_t *len);
/** The same into w->path2, for the paths of post-order calls (a child's, then its parent's:
 *  a prefix of it) and of reports. @return 0 or FRD_ENOMEM. */
int frd__worker_path2(struct frd__worker *w, const struct frd__wnode *node, size_t *len);

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

#endif // FRD_WALKER_CORE_NODE_H
