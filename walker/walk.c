// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frd_walk and friends: nodes and their descriptors, opening safely, and the concurrent
 * mode, where each worker lists a directory and calls back for its entries itself.
 *
 * One directory task, on a worker:
 *
 *   open     openat(parent fd, name, O_NOFOLLOW | O_DIRECTORY), the parent's descriptor
 *            borrowed through its refcount; if the parent's descriptor was not kept (the
 *            descriptor budget), reopen along the ancestors from the nearest one still
 *            open, one component at a time, each O_NOFOLLOW, checking recorded identities
 *   list     into the worker's list with the worker's lister (no allocation once grown)
 *   visit    each entry: path = directory path + "/" + name in the worker's path buffer;
 *            links followed (FRD_FOLLOW_ALL) are stat'ed and checked against the ancestor
 *            chain; then the callback, then a child node for a directory to descend
 *   release  the task's own descriptor ref and node ref; the last ref of a node runs the
 *            post-order hook and frees it into the worker's free list
 *
 * Allocation: nodes come from per-worker slabs and free lists, buffers grow by doubling and
 * are kept, so a walk allocates a number of times that grows with workers and depth, not
 * with directories.
 */
#include "walker.h"

#include <stddef.h>
#include <string.h>

/** Name capacity of the two node size classes; longer names are allocated apart. */
#define WN_SMALL_NAME 48
#define WN_LARGE_NAME 1024
/** Nodes per slab. */
#define WN_SLAB_NODES 64
/** Default cap on workers when the caller leaves it to us (bfs caps at 8 too). */
#define WALK_DEFAULT_MAX_WORKERS 8
/** Default descriptor budget when the limit is unknown or unlimited. */
#define WALK_DEFAULT_FD_BUDGET 4096u

static size_t wn_node_size(unsigned size_class)
{
    size_t name = size_class == 0 ? WN_SMALL_NAME : WN_LARGE_NAME;
    size_t size = offsetof(struct frd__wnode, name_inline) + name;
    return (size + 15) & ~(size_t)15;
}

int frd__grow(struct frd__worker *w, char **buf, size_t *cap, size_t need)
{
    if (need <= *cap) {
        return 0;
    }
    size_t capacity = *cap ? *cap : 256;
    while (capacity < need) {
        if (capacity > SIZE_MAX / 2) {
            return FRD_ENOMEM;
        }
        capacity *= 2;
    }
    char *p = frd__realloc(*buf, capacity);
    if (p == NULL) {
        return FRD_ENOMEM;
    }
    w->allocations++;
    *buf = p;
    *cap = capacity;
    return 0;
}

static int wn_slab(struct frd__worker *w, unsigned size_class)
{
    if (w->nslabs == w->slabs_cap) {
        size_t cap = w->slabs_cap ? w->slabs_cap * 2 : 16;
        void **slabs = frd__realloc(w->slabs, cap * sizeof(*slabs));
        if (slabs == NULL) {
            return FRD_ENOMEM;
        }
        w->allocations++;
        w->slabs = slabs;
        w->slabs_cap = cap;
    }
    size_t size = wn_node_size(size_class);
    char *slab = frd__malloc(size * WN_SLAB_NODES);
    if (slab == NULL) {
        return FRD_ENOMEM;
    }
    w->allocations++;
    w->slabs[w->nslabs++] = slab;
    struct frd__wnode **head = size_class == 0 ? &w->free_small : &w->free_large;
    for (size_t i = WN_SLAB_NODES; i-- > 0;) {
        struct frd__wnode *node = (struct frd__wnode *)(void *)(slab + i * size);
        node->size_class = (uint8_t)size_class;
        node->next_free = *head;
        *head = node;
    }
    return 0;
}

struct frd__wnode *frd__wnode_new(struct frd__worker *w, struct frd__wnode *parent,
                                  const char *name, size_t name_len)
{
    unsigned size_class = name_len < WN_SMALL_NAME ? 0 : 1;
    struct frd__wnode **head = size_class == 0 ? &w->free_small : &w->free_large;
    if (*head == NULL && w->walk->ord != NULL) {
        // Ordered mode: the consumer frees the nodes workers made; take them back.
        struct frd_walk *walk = w->walk;
        uv_mutex_lock(&walk->node_lock);
        struct frd__wnode **shared = size_class == 0 ? &walk->shared_small : &walk->shared_large;
        *head = *shared;
        *shared = NULL;
        uv_mutex_unlock(&walk->node_lock);
    }
    if (*head == NULL && wn_slab(w, size_class) < 0) {
        return NULL;
    }
    struct frd__wnode *node = *head;
    char *heap_name = NULL;
    if (name_len >= WN_LARGE_NAME) {
        heap_name = frd__malloc(name_len + 1);
        if (heap_name == NULL) {
            return NULL;
        }
        w->allocations++;
    }
    *head = node->next_free;
    uint8_t cls = node->size_class;
    memset(node, 0, offsetof(struct frd__wnode, name_inline));
    node->size_class = cls;
    node->parent = parent;
    atomic_init(&node->refs, 1);
    atomic_init(&node->fd_refs, 0);
    atomic_init(&node->pruned, false);
    node->fd = FRD_INVALID_FD;
    node->depth = parent ? parent->depth + 1 : 0;
    node->root_index = parent ? parent->root_index : 0;
    node->root_dev = parent ? parent->root_dev : 0;
    node->name = heap_name ? heap_name : node->name_inline;
    if (heap_name) {
        node->flags |= WN_NAME_HEAP;
    }
    memcpy(node->name, name, name_len);
    node->name[name_len] = '\0';
    node->name_len = name_len;
    if (parent != NULL) {
        atomic_fetch_add(&parent->refs, 1);
    }
    return node;
}

bool frd__fd_try_pin(struct frd__wnode *node)
{
    int refs = atomic_load(&node->fd_refs);
    while (refs > 0) {
        if (atomic_compare_exchange_weak(&node->fd_refs, &refs, refs + 1)) {
            return true;
        }
    }
    return false;
}

void frd__fd_release(struct frd_walk *walk, struct frd__wnode *node)
{
    if (atomic_fetch_sub(&node->fd_refs, 1) == 1) {
        frd__plat_close_dir(node->fd);
        atomic_fetch_sub(&walk->open_fds, 1);
    }
}

/** Separator between a directory's path and a name: none after a root ending in one ('/',
 *  or on Windows a backslash). */
static size_t wn_sep(const char *dir, size_t dir_len)
{
    return dir_len > 0 && frd__plat_is_sep(dir[dir_len - 1]) ? 0 : 1;
}

int frd__wnode_path(struct frd__worker *w, struct frd__wnode *node, char **buf, size_t *cap,
                    size_t *len)
{
    size_t total = 0;
    for (struct frd__wnode *n = node; n != NULL; n = n->parent) {
        total += n->name_len;
        if (n->parent != NULL) {
            total += wn_sep(n->parent->name, n->parent->name_len);
        }
    }
    // Room for a child's name too, so the entries of this directory rarely grow it.
    if (frd__grow(w, buf, cap, total + 1 + 256) < 0) {
        return FRD_ENOMEM;
    }
    char *p = *buf;
    size_t end = total;
    p[end] = '\0';
    for (struct frd__wnode *n = node; n != NULL; n = n->parent) {
        end -= n->name_len;
        memcpy(p + end, n->name, n->name_len);
        if (n->parent != NULL && wn_sep(n->parent->name, n->parent->name_len)) {
            p[--end] = '/';
        }
    }
    *len = total;
    return 0;
}

static void wn_free(struct frd__worker *w, struct frd__wnode *node)
{
    if (node->flags & WN_NAME_HEAP) {
        frd__free(node->name);
    }
    frd__free(node->canon);
    struct frd_walk *walk = w->walk;
    if (w == walk->consumer) {
        // The consumer makes few nodes and frees most: hand them back to the workers.
        uv_mutex_lock(&walk->node_lock);
        struct frd__wnode **shared =
            node->size_class == 0 ? &walk->shared_small : &walk->shared_large;
        node->next_free = *shared;
        *shared = node;
        uv_mutex_unlock(&walk->node_lock);
        return;
    }
    struct frd__wnode **head = node->size_class == 0 ? &w->free_small : &w->free_large;
    node->next_free = *head;
    *head = node;
}

/**
 * The post-order hook for a finished directory (concurrent mode). `*carry` is a descriptor
 * of `node` this worker reopened for the hook of a child just finished, or FRD_INVALID_FD:
 * the parent is reached from it by "..", and the parent's reopened descriptor is carried on
 * the same way, so finishing a chain deeper than the budget costs a step per directory.
 */
static void wn_post_order(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *carry)
{
    struct frd_walk *walk = w->walk;
    size_t len;
    frd_os_fd pfd = FRD_INVALID_FD;
    int how = FD_NONE;
    if (frd__wnode_path(w, node, &w->path2, &w->path2_cap, &len) == 0) {
        how = frd__parent_fd_get(w, node, *carry, &pfd);
        struct frd_walk_entry we = frd__wnode_walk_entry(node, w->path2, len, pfd, w->index);
        if (frd__cb_enter(w)) {
            walk->opts.on_dir_done(&we, &node->totals, walk->udata);
            frd__cb_leave(w);
        }
    }
    frd__fd_close_owned(walk, *carry);
    *carry = FRD_INVALID_FD;
    if (how == FD_OWNED) {
        *carry = pfd; // for the parent's own post-order, if it finishes next
    } else {
        frd__parent_fd_put(w, node, how, pfd);
    }
}

void frd__state_free(struct frd_walk *walk, void *state)
{
    // Not gated by a stop: a state is released exactly once, also after a stop or cancel.
    if (state != NULL && walk->opts.on_dir_state_free != NULL) {
        walk->opts.on_dir_state_free(state, walk->udata);
    }
}

void frd__wnode_release(struct frd__worker *w, struct frd__wnode *node)
{
    struct frd_walk *walk = w->walk;
    frd_os_fd carry = FRD_INVALID_FD; // a descriptor of `node`, reopened by the loop
    while (node != NULL && atomic_fetch_sub(&node->refs, 1) == 1) {
        // The node and everything below it are done.
        if (walk->ord == NULL && node->listed && walk->opts.on_dir_done != NULL &&
            !atomic_load_explicit(&walk->stop, memory_order_relaxed) &&
            (int)node->depth >= walk->opts.min_depth) {
            wn_post_order(w, node, &carry);
        } else {
            frd__fd_close_owned(walk, carry);
            carry = FRD_INVALID_FD;
        }
        if (node->flags & WN_ROOT_PIN) {
            frd__fd_release(walk, node);
        }
        frd__state_free(walk, node->state);
        node->state = NULL;
        struct frd__wnode *parent = node->parent;
        wn_free(w, node);
        node = parent;
    }
    frd__fd_close_owned(walk, carry);
}

void frd__wnode_drop(struct frd__worker *w, struct frd__wnode *node)
{
    if (node->flags & WN_HOLDS_PARENT_FD) {
        node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
        frd__fd_release(w->walk, node->parent);
    }
    node->listed = false;
    frd__wnode_release(w, node);
}

/** Checks an open directory against the identity recorded for it. */
static int wn_check_identity(const struct frd__wnode *node, frd_os_fd fd)
{
    if (!(node->flags & WN_HAS_ID)) {
        return 0;
    }
    struct frd__identity id;
    int rc = frd__plat_fd_identity(fd, &id);
    if (rc < 0) {
        return rc;
    }
    return frd__identity_equal(&id, &node->id) ? 0 : FRD_ECHANGED;
}

static unsigned wn_open_flags(const struct frd__wnode *node)
{
    return (node->flags & WN_VIA_LINK) ? 0 : FRD_OPEN_NOFOLLOW;
}

/**
 * Reopens a node's parent along the ancestors: from the nearest ancestor whose descriptor
 * is still open, one component at a time, never following a link the walk did not follow,
 * checking each recorded identity. Then opens the node in it.
 */
static int wn_reopen(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out,
                     const char **op)
{
    struct frd_walk *walk = w->walk;
    size_t n = 0;
    struct frd__wnode *anchor = node->parent;
    while (anchor != NULL && !frd__fd_try_pin(anchor)) {
        if (n == w->chain_cap) {
            size_t cap = w->chain_cap ? w->chain_cap * 2 : 64;
            struct frd__wnode **chain = frd__realloc(w->chain, cap * sizeof(*chain));
            if (chain == NULL) {
                *op = "open";
                return FRD_ENOMEM;
            }
            w->allocations++;
            w->chain = chain;
            w->chain_cap = cap;
        }
        w->chain[n++] = anchor;
        anchor = anchor->parent;
    }
    if (anchor == NULL) {
        // Every ancestor closed, the root included: cannot happen while the root's subtree
        // pins it; say stale rather than guess a path.
        *op = "open";
        return FRD_ESTALE;
    }
    frd_os_fd cur = anchor->fd;
    bool cur_is_anchor = true;
    int rc = 0;
    for (size_t i = n; i-- > 0;) {
        struct frd__wnode *x = w->chain[i];
        frd_os_fd next;
        rc = frd__plat_open_dir(cur, x->name, wn_open_flags(x), &next);
        if (cur_is_anchor) {
            frd__fd_release(walk, anchor);
            cur_is_anchor = false;
        } else {
            frd__plat_close_dir(cur);
        }
        if (rc < 0) {
            *op = "open";
            return rc;
        }
        rc = wn_check_identity(x, next);
        if (rc < 0) {
            frd__plat_close_dir(next);
            *op = "open";
            return rc;
        }
        cur = next;
    }
    rc = frd__plat_open_dir(cur, node->name, wn_open_flags(node), out);
    if (cur_is_anchor) {
        frd__fd_release(walk, anchor);
    } else {
        frd__plat_close_dir(cur);
    }
    if (rc < 0) {
        *op = "open";
    }
    return rc;
}

int frd__wnode_reopen(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out)
{
    const char *op;
    int rc;
    if (node->parent == NULL) {
        // A root whose descriptor was let go: by its name, as the walk opened it.
        rc = frd__plat_open_dir(FRD_INVALID_FD, node->name, 0, out);
    } else {
        rc = wn_reopen(w, node, out, &op);
    }
    if (rc < 0) {
        return rc;
    }
    rc = wn_check_identity(node, *out);
    if (rc < 0) {
        frd__plat_close_dir(*out);
        return rc;
    }
    atomic_fetch_add(&w->walk->open_fds, 1);
    return 0;
}

int frd__wnode_reopen_near(struct frd__worker *w, struct frd__wnode *node, frd_os_fd near,
                           bool near_is_child, frd_os_fd *out)
{
    if (near != FRD_INVALID_FD && (node->flags & WN_HAS_ID)) {
        // One step from a descriptor at hand: down by name (never following a link the walk
        // did not follow) or up by "..", then the identity recorded when it was listed.
        const char *name = near_is_child ? ".." : node->name;
        unsigned flags = near_is_child ? FRD_OPEN_NOFOLLOW : wn_open_flags(node);
        if (frd__plat_open_dir(near, name, flags, out) == 0) {
            if (wn_check_identity(node, *out) == 0) {
                atomic_fetch_add(&w->walk->open_fds, 1);
                return 0;
            }
            frd__plat_close_dir(*out);
        }
    }
    return frd__wnode_reopen(w, node, out);
}

void frd__fd_close_owned(struct frd_walk *walk, frd_os_fd fd)
{
    if (fd != FRD_INVALID_FD) {
        frd__plat_close_dir(fd);
        atomic_fetch_sub(&walk->open_fds, 1);
    }
}

int frd__parent_fd_get(struct frd__worker *w, struct frd__wnode *node, frd_os_fd node_fd,
                       frd_os_fd *fd)
{
    struct frd__wnode *parent = node->parent;
    *fd = FRD_INVALID_FD;
    if (parent == NULL) {
        return FD_NONE;
    }
    if (frd__fd_try_pin(parent)) {
        *fd = parent->fd;
        return FD_PINNED;
    }
    return frd__wnode_reopen_near(w, parent, node_fd, true, fd) == 0 ? FD_OWNED : FD_NONE;
}

void frd__parent_fd_put(struct frd__worker *w, struct frd__wnode *node, int how, frd_os_fd fd)
{
    if (how == FD_PINNED) {
        frd__fd_release(w->walk, node->parent);
    } else if (how == FD_OWNED) {
        frd__fd_close_owned(w->walk, fd);
    }
}

int frd__wnode_open(struct frd__worker *w, struct frd__wnode *node, frd_os_fd *out, const char **op)
{
    struct frd_walk *walk = w->walk;
    struct frd__wnode *parent = node->parent;
    int rc;
    *op = "open";
    if (node->flags & WN_HOLDS_PARENT_FD) {
        rc = frd__plat_open_dir(parent->fd, node->name, wn_open_flags(node), out);
        node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
        frd__fd_release(walk, parent);
    } else if (frd__fd_try_pin(parent)) {
        rc = frd__plat_open_dir(parent->fd, node->name, wn_open_flags(node), out);
        frd__fd_release(walk, parent);
    } else {
        rc = wn_reopen(w, node, out, op);
    }
    if (rc < 0) {
        return rc;
    }
    // A directory reached through a link was checked for loops by its identity before we
    // came here; make sure the link still leads to the same place.
    if (node->flags & WN_VIA_LINK) {
        rc = wn_check_identity(node, *out);
        if (rc < 0) {
            frd__plat_close_dir(*out);
            return rc;
        }
    }
    atomic_fetch_add(&walk->open_fds, 1);
    return 0;
}

bool frd__report(struct frd__worker *w, const char *path, const char *op, int code, unsigned depth)
{
    return frd__report_loop(w, path, op, code, depth, NULL);
}

/** The failed call's class, from the name the lister or the walk gives it. */
static enum frd_op wn_op(const char *op)
{
    static const struct {
        const char *name;
        enum frd_op op;
    } ops[] = {
        {"open", FRD_OP_OPEN},
        {"opendir", FRD_OP_OPEN},
        {"fdopendir", FRD_OP_OPEN},
        {"dup", FRD_OP_OPEN},
        {"getdents64", FRD_OP_READ_DIR},
        {"readdir", FRD_OP_READ_DIR},
        {"getattrlistbulk", FRD_OP_READ_DIR},
        {"getdirentries64", FRD_OP_READ_DIR},
        {"lseek", FRD_OP_READ_DIR},
        {"NtQueryDirectoryFile", FRD_OP_READ_DIR},
        {"GetFileInformationByHandleEx", FRD_OP_READ_DIR},
        {"GetFileInformationByHandle", FRD_OP_STAT},
        {"stat", FRD_OP_STAT},
        {"statx", FRD_OP_STAT},
        {"fstatat", FRD_OP_STAT},
        {"readlink", FRD_OP_READLINK},
        {"loop", FRD_OP_LOOP},
        {"alloc", FRD_OP_ALLOC},
        {"append", FRD_OP_ALLOC},
        {"queue", FRD_OP_ALLOC},
    };
    for (size_t i = 0; op != NULL && i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (strcmp(op, ops[i].name) == 0) {
            return ops[i].op;
        }
    }
    return FRD_OP_OTHER;
}

bool frd__report_root(struct frd__worker *w, const char *path, const char *op, int code)
{
    struct frd_walk *walk = w->walk;
    if (walk->opts.on_error == NULL) {
        // No hook to tell: the walk's result says it (the first root that failed).
        atomic_fetch_add_explicit(&w->n_errors, 1, memory_order_relaxed);
        int expected = 0;
        atomic_compare_exchange_strong(&walk->root_err, &expected, code);
        return true;
    }
    return frd__report(w, path, op, code, 0);
}

bool frd__report_loop(struct frd__worker *w, const char *path, const char *op, int code,
                      unsigned depth, const char *other)
{
    struct frd_walk *walk = w->walk;
    atomic_fetch_add_explicit(&w->n_errors, 1, memory_order_relaxed);
    if (walk->opts.on_error == NULL) {
        return true;
    }
    struct frd_walk_error err = {
        .path = path,
        .op = op,
        .code = code,
        .depth = depth,
        .other_path = other,
        .worker = w->index,
        .call = wn_op(op),
    };
    if (!frd__cb_enter(w)) {
        return false;
    }
    enum frd_action act = walk->opts.on_error(&err, walk->udata);
    frd__cb_leave(w);
    if (act == FRD_ACTION_STOP) {
        frd__walk_stop(walk, code, w);
        return false;
    }
    return true;
}

enum frd__vol_class frd__volume_class(struct frd__worker *w, frd_os_fd fd, uint64_t dev)
{
    if (w->last_class >= 0 && w->last_dev == dev) {
        return (enum frd__vol_class)w->last_class;
    }
    int cls = frd__volcache_get(w->walk->volumes, dev);
    if (cls < 0) {
        enum frd__vol_class c;
        if (fd == FRD_INVALID_FD || frd__plat_volume_class(fd, &c) < 0) {
            return FRD__VOL_UNTRUSTED; // cannot tell now; not cached
        }
        frd__volcache_put(w->walk->volumes, dev, c);
        cls = (int)c;
    }
    w->last_dev = dev;
    w->last_class = cls;
    return (enum frd__vol_class)cls;
}

/** Volume class of an entry on another device than its directory (a mount point). */
static enum frd__vol_class wn_entry_class(struct frd__worker *w, frd_os_fd dirfd,
                                          const struct frd_entry *e, bool follow)
{
    int cls = frd__volcache_get(w->walk->volumes, e->dev);
    if (cls >= 0) {
        return (enum frd__vol_class)cls;
    }
    if (e->type != FRD_TYPE_DIR) {
        return FRD__VOL_UNTRUSTED;
    }
    frd_os_fd fd;
    if (frd__plat_open_dir(dirfd, e->name, follow ? 0 : FRD_OPEN_NOFOLLOW, &fd) < 0) {
        return FRD__VOL_UNTRUSTED;
    }
    enum frd__vol_class c = frd__volume_class(w, fd, e->dev);
    frd__plat_close_dir(fd);
    return c;
}

void frd__progress_tick(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    if (walk->opts.on_progress == NULL) {
        return;
    }
    uint64_t now = uv_hrtime();
    uint_fast64_t due = atomic_load_explicit(&walk->progress_due, memory_order_relaxed);
    if (now < due) {
        return;
    }
    // One reporter at a time, even when a report outlasts the interval.
    if (atomic_flag_test_and_set(&walk->progress_busy)) {
        return;
    }
    atomic_store_explicit(&walk->progress_due, now + walk->progress_ns, memory_order_relaxed);
    struct frd_walk_progress p = {0};
    for (unsigned i = 0; i < walk->nworkers; i++) {
        struct frd__worker *x = &walk->workers[i];
        p.dirs += atomic_load_explicit(&x->n_dirs, memory_order_relaxed);
        p.entries += atomic_load_explicit(&x->n_entries, memory_order_relaxed);
        p.bytes += atomic_load_explicit(&x->n_bytes, memory_order_relaxed);
        p.errors += atomic_load_explicit(&x->n_errors, memory_order_relaxed);
    }
    if (walk->consumer != NULL) {
        p.dirs += atomic_load_explicit(&walk->consumer->n_dirs, memory_order_relaxed);
        p.entries += atomic_load_explicit(&walk->consumer->n_entries, memory_order_relaxed);
        p.bytes += atomic_load_explicit(&walk->consumer->n_bytes, memory_order_relaxed);
        p.errors += atomic_load_explicit(&walk->consumer->n_errors, memory_order_relaxed);
    }
    p.queued_dirs = atomic_load_explicit(&walk->queued, memory_order_relaxed);
    if (frd__cb_enter(w)) {
        walk->opts.on_progress(&p, walk->udata);
        frd__cb_leave(w);
    }
    atomic_flag_clear(&walk->progress_busy);
}

/** frd_read_tree(): keeps a copy of the entry, named by its path relative to the root. */
static void wn_collect(struct frd__worker *w, const struct frd_walk_entry *we)
{
    struct frd_entry copy = *we->entry;
    copy.name = we->path + w->walk->collect_prefix;
    copy.name_len = we->path_len - w->walk->collect_prefix;
    if (frd_list_append(w->collect, &copy) < 0) {
        frd__walk_stop(w->walk, FRD_ENOMEM, w);
    }
}

/** Calls the visit callback. @return its action (FRD_ACTION_STOP once stopped). */
enum frd_action frd__visit(struct frd__worker *w, const struct frd_walk_entry *we)
{
    struct frd_walk *walk = w->walk;
    atomic_fetch_add_explicit(&w->n_entries, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->n_bytes, we->entry->size, memory_order_relaxed);
    if ((int)we->depth < walk->opts.min_depth) {
        return FRD_ACTION_CONTINUE;
    }
    if (walk->collect) {
        wn_collect(w, we);
        return FRD_ACTION_CONTINUE;
    }
    if (!frd__cb_enter(w)) {
        return FRD_ACTION_STOP;
    }
    enum frd_action act = walk->visit(we, walk->udata);
    frd__cb_leave(w);
    if (act == FRD_ACTION_STOP) {
        frd__walk_stop(walk, FRD_ESTOPPED, w);
    }
    return act;
}

int frd__resolve_entry(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd,
                       enum frd__vol_class dir_class, const struct frd_entry *e, bool dedupe,
                       struct frd__resolved *r)
{
    struct frd_walk *walk = w->walk;
    r->entry = *e;
    r->followed = false;
    r->has_id = false;
    r->loop = NULL;
    r->err = 0;
    r->err_op = NULL;
    r->canon = NULL;
    r->persistent = false;
    if (walk->opts.follow == FRD_FOLLOW_ALL && e->type == FRD_TYPE_LNK) {
        struct frd_entry t;
        memset(&t, 0, sizeof(t));
        int rc = frd__plat_stat_at(fd, e->name, true, false, &t);
        if (rc == 0) {
            t.name = e->name;
            t.name_len = e->name_len;
            r->entry = t;
            r->followed = true;
        } else if (rc != FRD_ENOENT) {
            // A link to itself (or a chain too long) is an error and is not visited, as
            // find -L does; any other failure leaves the link reported as a link.
            r->err = rc;
            r->err_op = "stat";
            if (rc == FRD_ELOOP) {
                return RESOLVE_SKIP;
            }
        }
    }
    const struct frd_entry *x = &r->entry;
    bool have_id =
        (x->fields & (FRD_FIELD_FILE_ID | FRD_FIELD_DEV)) == (FRD_FIELD_FILE_ID | FRD_FIELD_DEV);
    enum frd__vol_class cls = dir_class;
    if (have_id) {
        r->id.dev = x->dev;
        r->id.ino = x->file_id;
        r->id.subvol = 0;
        r->has_id = true;
        if (x->dev != dir->id.dev || !(dir->flags & WN_HAS_ID)) {
            cls = wn_entry_class(w, fd, x, r->followed);
        }
        r->persistent = cls == FRD__VOL_STRONG;
    }
    if (r->followed && x->type == FRD_TYPE_DIR) {
        if (cls == FRD__VOL_UNTRUSTED) {
            // Ids cannot be trusted here: compare canonical paths instead.
            frd_os_fd tfd;
            if (frd__plat_open_dir(fd, e->name, 0, &tfd) == 0) {
                int n;
                while ((n = frd__plat_fd_path(tfd, w->canon, w->canon_cap)) == FRD_ENAMETOOLONG) {
                    if (frd__grow(w, &w->canon, &w->canon_cap, w->canon_cap * 2 + 256) < 0) {
                        break;
                    }
                }
                frd__plat_close_dir(tfd);
                if (n >= 0) {
                    r->canon = w->canon;
                }
            }
        }
        if (r->canon != NULL || r->has_id) {
            r->loop = frd__find_loop(dir, &r->id, r->canon);
            if (r->loop != NULL) {
                r->err = FRD_ELOOP;
                r->err_op = "loop";
                return RESOLVE_SKIP;
            }
        }
    }
    if (dedupe && frd__is_duplicate(walk, r)) {
        return RESOLVE_SKIP;
    }
    if (walk->names_only) {
        // Names-only walks report names and types, also for a followed link's target.
        struct frd_entry slim = {.name = x->name, .name_len = x->name_len, .type = x->type};
        slim.fields = x->fields & FRD_FIELD_TYPE;
        slim.error = x->error;
        r->entry = slim;
    }
    return RESOLVE_VISIT;
}

bool frd__is_duplicate(struct frd_walk *walk, const struct frd__resolved *r)
{
    // Visit each file or directory once: only where ids are strong (weak ids may be reused
    // once unpinned, and FAT has no hard links; untrusted ids mean nothing).
    if (!r->has_id || !r->persistent || walk->seen == NULL) {
        return false;
    }
    bool is_dir = r->entry.type == FRD_TYPE_DIR;
    if ((is_dir && (walk->opts.flags & FRD_WALK_UNIQUE_DIRS)) ||
        (!is_dir && (walk->opts.flags & FRD_WALK_UNIQUE_FILES) && r->entry.nlink > 1)) {
        return frd__idset_insert(walk->seen, &r->id) == 0;
    }
    return false;
}

/** May the walk descend into this entry (after a CONTINUE)? */
bool frd__may_descend(struct frd_walk *walk, const struct frd__wnode *dir,
                      const struct frd__resolved *r)
{
    if (r->entry.type != FRD_TYPE_DIR) {
        return false;
    }
    if (walk->opts.max_depth >= 0 && (int)dir->depth + 1 >= walk->opts.max_depth) {
        return false;
    }
    if ((walk->opts.flags & FRD_WALK_ONE_FILE_SYSTEM) && r->has_id && r->id.dev != dir->root_dev) {
        return false;
    }
    return true;
}

/** Makes the node of a subdirectory to descend into. */
struct frd__wnode *frd__child_node(struct frd__worker *w, struct frd__wnode *dir,
                                   const struct frd__resolved *r)
{
    struct frd__wnode *c = frd__wnode_new(w, dir, r->entry.name, r->entry.name_len);
    if (c == NULL) {
        return NULL;
    }
    c->entry = r->entry;
    c->entry.name = c->name;
    c->persistent_ids = r->persistent;
    if (r->followed) {
        c->flags |= WN_VIA_LINK;
    }
    if (r->has_id) {
        c->id = r->id;
        c->flags |= WN_HAS_ID;
    }
    if (r->canon != NULL) {
        c->canon = frd__strdup(r->canon);
    }
    return c;
}

/** Decides once per directory whether its descriptor stays open for its children. */
bool frd__keep_fd(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd)
{
    struct frd_walk *walk = w->walk;
    if (!(dir->flags & WN_KEEP_DECIDED)) {
        dir->flags |= WN_KEEP_DECIDED;
        if (atomic_load_explicit(&walk->open_fds, memory_order_relaxed) < walk->keep_limit) {
            dir->flags |= WN_KEEP;
        } else if (!(dir->flags & WN_HAS_ID) && frd__plat_fd_identity(fd, &dir->id) == 0) {
            // Children will reopen it by path: record what they must find there.
            dir->flags |= WN_HAS_ID;
        }
    }
    return (dir->flags & WN_KEEP) != 0;
}

/**
 * After opening a directory: its identity where the walk needs it, and its volume class.
 * @return 0, or a negative code (FRD_ECHANGED) if it must not be listed.
 */
int frd__dir_opened(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                    enum frd__vol_class *cls)
{
    struct frd_walk *walk = w->walk;
    if (!(node->flags & WN_HAS_ID) &&
        (walk->need_dir_ids || walk->need_parent_ids || (node->flags & WN_ROOT))) {
        int rc = frd__plat_fd_identity(fd, &node->id);
        if (rc < 0) {
            return rc;
        }
        node->flags |= WN_HAS_ID;
    }
    if (node->flags & WN_ROOT) {
        node->root_dev = node->id.dev;
    }
    *cls = FRD__VOL_UNTRUSTED;
    if (node->flags & WN_HAS_ID) {
        *cls = frd__volume_class(w, fd, node->id.dev);
        if (node->flags & WN_ROOT) {
            node->persistent_ids = *cls == FRD__VOL_STRONG && !walk->names_only;
        }
        if (*cls == FRD__VOL_UNTRUSTED && walk->opts.follow == FRD_FOLLOW_ALL &&
            node->canon == NULL) {
            // Loops on this volume are found by path: remember this directory's.
            int n;
            while ((n = frd__plat_fd_path(fd, w->canon, w->canon_cap)) == FRD_ENAMETOOLONG) {
                if (frd__grow(w, &w->canon, &w->canon_cap, w->canon_cap * 2 + 256) < 0) {
                    break;
                }
            }
            if (n >= 0) {
                node->canon = frd__strdup(w->canon);
            }
        }
        if ((walk->opts.flags & FRD_WALK_ONE_FILE_SYSTEM) && node->id.dev != node->root_dev) {
            return FRD_EXDEV; // names-only: seen only now; visited, not descended
        }
    }
    return 0;
}

/** Lists an open directory and handles its entries (concurrent mode). */
static void wn_list_and_visit(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                              size_t dir_len, enum frd__vol_class cls)
{
    struct frd_walk *walk = w->walk;
    frd_list_clear(w->list);
    int rc = frd_lister_list_fd(w->lister, w->list, fd, NULL);
    if (rc < 0) {
        struct frd_list_error le = frd_lister_error(w->lister);
        if (!frd__report(w, w->path, le.op, rc, node->depth)) {
            return;
        }
    }
    node->listed = true;
    atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
    size_t count = frd_list_count(w->list);
    const struct frd_entry *v = frd_list_entries(w->list);
    bool kids = walk->children;
    if (kids) {
        // The children hook sees the listing before anything in it is stat'ed or visited.
        frd_os_fd pfd;
        int how = frd__parent_fd_get(w, node, fd, &pfd);
        struct frd_walk_entry dir = frd__wnode_walk_entry(node, w->path, dir_len, pfd, w->index);
        rc = frd__children_run(w, &dir, fd);
        frd__parent_fd_put(w, node, how, pfd);
        if (rc < 0) {
            frd__walk_stop(walk, rc, w);
            return;
        }
        count = w->kids.count;
    }
    size_t sep = wn_sep(w->path, dir_len);
    unsigned depth = node->depth + 1;
    uint64_t bytes = 0;
    for (size_t i = 0; i < count; i++) {
        const struct frd_entry *e = &v[i];
        struct frd_entry kst;
        bool no_descent = false;
        if (kids) {
            if (!frd__children_entry(w, i, fd, &kst, &no_descent)) {
                continue;
            }
            e = &kst;
        }
        bytes += e->size;
        if ((walk->opts.flags & FRD_WALK_SKIP_HIDDEN) && e->name[0] == '.') {
            continue;
        }
        if (frd__grow(w, &w->path, &w->path_cap, dir_len + sep + e->name_len + 1) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, w);
            return;
        }
        char *p = w->path + dir_len;
        if (sep) {
            *p++ = '/';
        }
        memcpy(p, e->name, e->name_len + 1);
        size_t path_len = dir_len + sep + e->name_len;
        if (e->error < 0 && !frd__report(w, w->path, "stat", e->error, depth)) {
            return;
        }
        struct frd__resolved r;
        int how = frd__resolve_entry(w, node, fd, cls, e, true, &r);
        if (r.err < 0) {
            const char *other = NULL;
            size_t olen;
            if (r.loop != NULL && frd__wnode_path(w, (struct frd__wnode *)(uintptr_t)r.loop,
                                                  &w->path2, &w->path2_cap, &olen) == 0) {
                other = w->path2;
            }
            if (!frd__report_loop(w, w->path, r.err_op, r.err, depth, other)) {
                return;
            }
        }
        if (how == RESOLVE_SKIP) {
            continue;
        }
        struct frd_walk_entry we = {
            .path = w->path,
            .path_len = path_len,
            .entry = &r.entry,
            .depth = depth,
            .parent_fd = fd,
            .is_root = false,
            .followed_link = r.followed,
            .persistent_ids = r.persistent && !walk->names_only,
            .root_index = node->root_index,
            .worker = w->index,
            .parent_state = node->state,
        };
        void *state = NULL;
        if (r.entry.type == FRD_TYPE_DIR) {
            we.dir_state = &state;
        }
        enum frd_action act = frd__visit(w, &we);
        if (act != FRD_ACTION_CONTINUE || no_descent || !frd__may_descend(walk, node, &r)) {
            frd__state_free(walk, state); // not entered: released at once
            if (act == FRD_ACTION_STOP) {
                return;
            }
            continue;
        }
        struct frd__wnode *c = frd__child_node(w, node, &r);
        if (c == NULL) {
            frd__state_free(walk, state);
            if (!frd__report(w, w->path, "alloc", FRD_ENOMEM, depth)) {
                return;
            }
            continue;
        }
        c->state = state;
        if (frd__keep_fd(w, node, fd)) {
            atomic_fetch_add(&node->fd_refs, 1);
            c->flags |= WN_HOLDS_PARENT_FD;
        }
        frd__pool_push(w, c);
    }
    node->totals.entries = count;
    node->totals.bytes = bytes;
}

void frd__concurrent_dir(struct frd__worker *w, struct frd__wnode *node)
{
    struct frd_walk *walk = w->walk;
    size_t dir_len;
    if (frd__wnode_path(w, node, &w->path, &w->path_cap, &dir_len) < 0) {
        frd__walk_stop(walk, FRD_ENOMEM, w);
        frd__wnode_drop(w, node);
        return;
    }
    frd_os_fd fd;
    const char *op;
    int rc = frd__wnode_open(w, node, &fd, &op);
    if (rc < 0) {
        frd__report(w, w->path, op, rc, node->depth);
        node->listed = true; // unreadable, but finished: the post-order hook runs for it
        frd__wnode_release(w, node);
        return;
    }
    node->fd = fd;
    atomic_store(&node->fd_refs, 1);
    enum frd__vol_class cls;
    rc = frd__dir_opened(w, node, fd, &cls);
    if (rc == 0) {
        wn_list_and_visit(w, node, fd, dir_len, cls);
    } else if (rc != FRD_EXDEV) {
        // Another file system (EXDEV) is visited and not descended into: no post-order call.
        frd__report(w, w->path, "open", rc, node->depth);
        node->listed = true;
    }
    frd__fd_release(walk, node);
    frd__progress_tick(w);
    frd__wnode_release(w, node);
}

/**
 * Stats a root (following it unless the walk follows nothing: find -P reports a root that
 * is a link as a link), into node->entry. @return 0 or the error reported.
 */
int frd__root_stat(struct frd__worker *w, struct frd__wnode *root)
{
    struct frd_walk *walk = w->walk;
    struct frd_entry e;
    memset(&e, 0, sizeof(e));
    bool follow = walk->opts.follow != FRD_FOLLOW_NEVER;
    int rc = frd__plat_stat_at(FRD_INVALID_FD, root->name, follow, walk->names_only, &e);
    if (rc < 0 && follow && (rc == FRD_ENOENT || rc == FRD_ELOOP)) {
        // A dangling link as a root is still reported, as a link (find -L does).
        memset(&e, 0, sizeof(e));
        if (frd__plat_stat_at(FRD_INVALID_FD, root->name, false, walk->names_only, &e) == 0 &&
            e.type == FRD_TYPE_LNK) {
            rc = 0;
        }
    }
    if (rc < 0) {
        frd__report_root(w, root->name, "stat", rc);
        return rc;
    }
    e.name = root->name;
    e.name_len = root->name_len;
    root->entry = e;
    if (follow && e.type != FRD_TYPE_LNK) {
        struct frd_entry l;
        memset(&l, 0, sizeof(l));
        if (frd__plat_stat_at(FRD_INVALID_FD, root->name, false, true, &l) == 0 &&
            l.type == FRD_TYPE_LNK) {
            root->flags |= WN_VIA_LINK;
        }
    }
    if ((e.fields & FRD_FIELD_DEV) && !walk->names_only) {
        root->persistent_ids = frd__volcache_get(walk->volumes, e.dev) == FRD__VOL_STRONG;
    }
    return 0;
}

/** Opens a root directory (the user named it: a link there is followed by the kernel only
 *  if asked, or if the name ends in '/'). */
int frd__root_open(struct frd__worker *w, struct frd__wnode *root, frd_os_fd *fd)
{
    struct frd_walk *walk = w->walk;
    int rc = frd__plat_open_dir(FRD_INVALID_FD, root->name, 0, fd);
    if (rc < 0) {
        *fd = FRD_INVALID_FD;
        return rc;
    }
    atomic_fetch_add(&walk->open_fds, 1);
    root->fd = *fd;
    // One ref for the listing, one that pins the root while its subtree lives: every
    // reopen along the ancestors can start from it.
    atomic_store(&root->fd_refs, 2);
    root->flags |= WN_ROOT_PIN;
    return 0;
}

void frd__concurrent_root(struct frd__worker *w, struct frd__wnode *root)
{
    struct frd_walk *walk = w->walk;
    if (frd__root_stat(w, root) < 0) {
        frd__wnode_release(w, root);
        return;
    }
    // A root directory is opened before its visit, so that the visit can say whether its
    // volume's ids persist; a root that cannot be opened is still visited, then reported.
    bool is_dir = root->entry.type == FRD_TYPE_DIR && walk->opts.max_depth != 0;
    size_t dir_len = 0;
    frd_os_fd fd = FRD_INVALID_FD;
    int open_rc = 0;
    enum frd__vol_class cls = FRD__VOL_UNTRUSTED;
    if (is_dir) {
        if (frd__wnode_path(w, root, &w->path, &w->path_cap, &dir_len) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, w);
            frd__wnode_release(w, root);
            return;
        }
        open_rc = frd__root_open(w, root, &fd);
        if (open_rc == 0) {
            open_rc = frd__dir_opened(w, root, fd, &cls);
        }
    }
    struct frd_walk_entry we =
        frd__wnode_walk_entry(root, root->name, root->name_len, FRD_INVALID_FD, w->index);
    enum frd_action act = frd__visit(w, &we);
    if (is_dir && open_rc < 0 && fd == FRD_INVALID_FD && act != FRD_ACTION_STOP) {
        frd__report_root(w, root->name, "open", open_rc);
    }
    if (is_dir && open_rc < 0 && act == FRD_ACTION_CONTINUE) {
        root->listed = true; // an unreadable root is finished too (post-order hook)
    }
    if (fd != FRD_INVALID_FD) {
        if (act == FRD_ACTION_CONTINUE && open_rc == 0) {
            wn_list_and_visit(w, root, fd, dir_len, cls);
        } else if (open_rc < 0) {
            frd__report_root(w, root->name, "open", open_rc);
        }
        frd__fd_release(walk, root);
    }
    frd__progress_tick(w);
    frd__wnode_release(w, root);
}
