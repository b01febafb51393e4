// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Ordered mode: callbacks on one thread (the consumer), depth-first with each directory's
 * entries sorted by name in byte order, while the workers list ahead.
 *
 * Who does what:
 *
 *   workers    take the directory that comes first in pre-order from a heap of listing
 *              tasks, open and list it, sort it, resolve its entries (links, loops), make a
 *              node for each subdirectory, push those onto the heap, and publish the
 *              listing as a result on the directory's node
 *   consumer   walks the tree in order: it copies a result into its own stack (so the
 *              result goes back to the pool at once), visits the entries, and for a
 *              subdirectory it descends into, waits for that node's result; a
 *              subdirectory it does not descend into is marked pruned
 *
 * The consumer is also a lister: while the result it awaits is not there, it lists instead
 * of sleeping (the awaited directory itself if no worker took it yet, else read-ahead), and
 * it stands for worker 0, so N workers are N threads as in the concurrent mode. It sleeps
 * only while the awaited listing is in flight on a worker. Without this the consumer slept
 * and was woken once per directory (a futex round trip and a context switch each: 110,000
 * futex calls and 31,000 switches walking /usr), and N + 1 threads shared N cores.
 *
 * Order: the heap compares nodes by their position in the pre-order (ancestor first, then
 * by the index in the parent's sorted listing), so the read-ahead is always the next
 * directories the consumer will need, and output depends on nothing but the tree.
 *
 * Bounds: at most window_max results are listed and not yet taken; the node the consumer
 * waits for is always allowed past that limit, so the consumer can never starve behind
 * read-ahead it does not need yet. A huge directory is one result, never the whole tree.
 * Results of pruned subtrees are dropped by the workers when they meet them, and purged
 * by the consumer when the window is full.
 *
 * Dedupe (visit each file once) is decided by the consumer, in visit order, so that which
 * of two hard links is visited does not depend on timing.
 */
#include "walker.h"

#include <string.h>

/** One entry of a listing, resolved by a worker. Names are offsets into a name arena. */
struct o_item {
    struct frd_entry entry;        /**< name: see name_off */
    size_t name_off;               /**< in the result's list (worker) or the stack arena */
    struct frd__wnode *child;      /**< node to descend into, or NULL */
    const struct frd__wnode *loop; /**< FRD_ELOOP from a loop: the ancestor */
    struct frd__identity id;
    int err;
    const char *err_op;
    bool skip;
    bool has_id;
    bool followed;
    bool persistent;
};

enum o_state { O_FREE, O_INFLIGHT, O_READY };

/** Items and names of a listing too large for a result's own room; pooled by size class. */
struct o_buf {
    struct o_buf *next_free;
    unsigned cls; /**< holds O_BUF_ITEMS << cls items */
    char *names;
    size_t names_cap;
    struct o_item items[];
};

/** Items a result holds in its own room, and bytes of names. */
#define O_SMALL_ITEMS 24
#define O_SMALL_NAMES 512
/** Items of the smallest pooled buffer; class k holds O_BUF_ITEMS << k. */
#define O_BUF_ITEMS   1024
#define O_BUF_CLASSES 24
/** Results allocated at a time. */
#define O_RES_BLOCK 128
/** Read-ahead cap in entries (listed and not yet taken), besides the cap in results. */
#define O_WINDOW_ENTRIES 16384

/**
 * A listing handed from a worker to the consumer; pooled, never freed before the walk.
 * Most directories are small: their items and names fit the result's own room, so results
 * are allocated in blocks and a listing allocates nothing. A larger listing borrows a
 * buffer of its size class from the pool and returns it when the result is taken.
 */
struct o_result {
    struct frd__wnode *node;
    enum o_state state;
    char *names; /**< the entries' names, NUL-terminated, in sorted order */
    size_t names_len;
    size_t names_cap;
    struct o_item *items;
    size_t items_cap;
    struct o_buf *big; /**< the borrowed buffer items and names are in, or NULL */
    size_t count;
    int open_err;
    const char *open_op;
    int list_err;
    const char *list_op;
    bool listed;
    bool has_fd; /**< holds one of node's fd_refs for the consumer's frame */
    struct o_result *next_free;
    struct o_item small_items[O_SMALL_ITEMS];
    char small_names[O_SMALL_NAMES];
};

/** A directory the consumer is in. */
struct o_frame {
    struct frd__wnode *node;
    size_t first; /**< its items in the stack arena */
    size_t count;
    size_t next;
    size_t names_mark; /**< name arena size before its names */
    size_t dir_len;    /**< bytes of its path in the consumer's path buffer */
    bool has_fd;
    /** Without has_fd: the descriptor its callbacks get, reopened when first needed (from
     *  the frame above or below, or along the ancestors) and closed when the consumer moves
     *  on, so the consumer holds at most two of these at a time. */
    frd_os_fd own_fd;
    bool own_pinned; /**< own_fd is node->fd, pinned (release, do not close) */
};

struct frd__ordered {
    uv_mutex_t mu;
    uv_cond_t work_cond;  /**< workers: a task or a window slot appeared, or the end */
    uv_cond_t ready_cond; /**< consumer: the awaited result was published */
    struct frd__wnode **heap;
    size_t heap_n;
    size_t heap_cap;
    size_t window; /**< results in flight or ready, not taken */
    size_t window_max;
    size_t window_entries;             /**< entries in ready results not taken */
    struct o_buf *bufs[O_BUF_CLASSES]; /**< free buffers by size class */
    struct o_buf **all_bufs;
    size_t nbufs;
    size_t bufs_cap;
    void **blocks; /**< result blocks */
    size_t nblocks;
    size_t blocks_cap;
    struct frd__wnode *awaited;
    size_t idle;         /**< workers waiting on work_cond */
    bool consumer_waits; /**< the consumer is waiting on ready_cond */
    bool consumer_done;
    struct o_result *free_res;
    struct o_result **all;
    size_t nall;
    size_t all_cap;
    // The consumer's stack (its thread only).
    struct o_frame *frames;
    size_t nframes;
    size_t frames_cap;
    struct o_item *items;
    size_t nitems;
    size_t items_cap;
    char *names;
    size_t nnames;
    size_t names_cap;
};

int frd__ordered_init(struct frd_walk *walk)
{
    struct frd__ordered *o = frd__calloc(1, sizeof(*o));
    if (o == NULL) {
        return FRD_ENOMEM;
    }
    if (uv_mutex_init(&o->mu) != 0) {
        goto fail_mu;
    }
    if (uv_cond_init(&o->work_cond) != 0) {
        goto fail_work;
    }
    if (uv_cond_init(&o->ready_cond) != 0) {
        goto fail_ready;
    }
    // Read-ahead: 12 results (the first cap) left the workers idle behind listings of later
    // siblings while the consumer went deep; results are small now, so the cap is in
    // entries as well, which bounds memory (O_WINDOW_ENTRIES items, a few MiB at most).
    o->window_max = 64 * (size_t)walk->nworkers + 16;
    walk->ord = o;
    return 0;

fail_ready:
    uv_cond_destroy(&o->work_cond);
fail_work:
    uv_mutex_destroy(&o->mu);
fail_mu:
    frd__free(o);
    return FRD_ENOMEM;
}

void frd__ordered_wake(struct frd_walk *walk)
{
    struct frd__ordered *o = walk->ord;
    uv_mutex_lock(&o->mu);
    uv_cond_broadcast(&o->work_cond);
    uv_cond_broadcast(&o->ready_cond);
    uv_mutex_unlock(&o->mu);
}

/* ---- The heap, by pre-order position ---- */

static int pre_cmp(const struct frd__wnode *a, const struct frd__wnode *b)
{
    if (a == b) {
        return 0;
    }
    while (a->depth > b->depth) {
        a = a->parent;
        if (a == b) {
            return 1; // b is an ancestor: it comes first
        }
    }
    while (b->depth > a->depth) {
        b = b->parent;
        if (b == a) {
            return -1;
        }
    }
    while (a->parent != b->parent) {
        a = a->parent;
        b = b->parent;
    }
    return a->ord < b->ord ? -1 : 1;
}

static int heap_push(struct frd__ordered *o, struct frd__wnode *node)
{
    if (o->heap_n == o->heap_cap) {
        size_t cap = o->heap_cap ? o->heap_cap * 2 : 256;
        struct frd__wnode **heap = frd__realloc(o->heap, cap * sizeof(*heap));
        if (heap == NULL) {
            return FRD_ENOMEM;
        }
        o->heap = heap;
        o->heap_cap = cap;
    }
    size_t i = o->heap_n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (pre_cmp(o->heap[up], node) < 0) {
            break;
        }
        o->heap[i] = o->heap[up];
        i = up;
    }
    o->heap[i] = node;
    return 0;
}

static struct frd__wnode *heap_pop(struct frd__ordered *o)
{
    struct frd__wnode *top = o->heap[0];
    struct frd__wnode *last = o->heap[--o->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= o->heap_n) {
            break;
        }
        if (c + 1 < o->heap_n && pre_cmp(o->heap[c + 1], o->heap[c]) < 0) {
            c++;
        }
        if (pre_cmp(last, o->heap[c]) < 0) {
            break;
        }
        o->heap[i] = o->heap[c];
        i = c;
    }
    if (o->heap_n > 0) {
        o->heap[i] = last;
    }
    return top;
}

/** Is the read-ahead at its cap (results or entries listed and not taken)? */
static bool window_full(const struct frd__ordered *o)
{
    return o->window >= o->window_max || o->window_entries >= O_WINDOW_ENTRIES;
}

static bool chain_pruned(const struct frd__wnode *node)
{
    for (; node != NULL; node = node->parent) {
        if (atomic_load_explicit(&node->pruned, memory_order_relaxed)) {
            return true;
        }
    }
    return false;
}

/* ---- Results ---- */

/** Appends to a pointer array of the pool (called with mu held). @return 0 or FRD_ENOMEM. */
static int ptrs_add(void ***v, size_t *n, size_t *cap, void *p)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 32;
        void **nv = frd__realloc(*v, c * sizeof(*nv));
        if (nv == NULL) {
            return FRD_ENOMEM;
        }
        *v = nv;
        *cap = c;
    }
    (*v)[(*n)++] = p;
    return 0;
}

static void res_reset_room(struct o_result *r)
{
    r->items = r->small_items;
    r->items_cap = O_SMALL_ITEMS;
    r->names = r->small_names;
    r->names_cap = O_SMALL_NAMES;
}

/** Takes a result from the pool (called with mu held). */
static struct o_result *res_get(struct frd__ordered *o)
{
    if (o->free_res == NULL) {
        struct o_result *block = frd__calloc(O_RES_BLOCK, sizeof(*block));
        if (block == NULL) {
            return NULL;
        }
        if (ptrs_add(&o->blocks, &o->nblocks, &o->blocks_cap, block) < 0) {
            frd__free(block);
            return NULL;
        }
        for (size_t i = 0; i < O_RES_BLOCK; i++) {
            if (ptrs_add((void ***)&o->all, &o->nall, &o->all_cap, &block[i]) < 0) {
                return NULL; // the block is freed with the walk; its results stay unused
            }
        }
        for (size_t i = O_RES_BLOCK; i-- > 0;) {
            res_reset_room(&block[i]);
            block[i].next_free = o->free_res;
            o->free_res = &block[i];
        }
    }
    struct o_result *r = o->free_res;
    o->free_res = r->next_free;
    return r;
}

static void res_put(struct frd__ordered *o, struct o_result *r)
{
    if (r->big != NULL) {
        r->big->next_free = o->bufs[r->big->cls];
        o->bufs[r->big->cls] = r->big;
        r->big = NULL;
        res_reset_room(r);
    }
    r->state = O_FREE;
    r->node = NULL;
    r->next_free = o->free_res;
    o->free_res = r;
}

/**
 * Lets go of a result nobody will consume: its frame's descriptor ref and its node's own
 * ref. Its children are on the heap, which drops them as pruned (or at the end).
 */
static void res_discard(struct frd__worker *w, struct frd__ordered *o, struct o_result *r)
{
    struct frd__wnode *node = r->node;
    node->result = NULL;
    if (r->has_fd) {
        frd__fd_release(w->walk, node);
        r->has_fd = false;
    }
    res_put(o, r);
    frd__wnode_release(w, node);
}

/* ---- Workers ---- */

/**
 * Makes room in a result for n items and `names` bytes of names: its own room, or a pooled
 * buffer of the first size class that holds n (the pool is shared: takes mu). Buffers are
 * kept for the walk, so allocations grow with the largest listings in flight at once, not
 * with directories. @return 0 or FRD_ENOMEM.
 */
static int items_reserve(struct frd__ordered *o, struct o_result *r, size_t n, size_t names)
{
    if (n > O_SMALL_ITEMS || names > O_SMALL_NAMES) {
        unsigned cls = 0;
        while (cls + 1 < O_BUF_CLASSES && ((size_t)O_BUF_ITEMS << cls) < n) {
            cls++;
        }
        size_t cap = (size_t)O_BUF_ITEMS << cls;
        if (cap < n) {
            return FRD_ENOMEM;
        }
        uv_mutex_lock(&o->mu);
        struct o_buf *b = o->bufs[cls];
        if (b != NULL) {
            o->bufs[cls] = b->next_free;
        }
        uv_mutex_unlock(&o->mu);
        if (b == NULL) {
            b = frd__malloc(sizeof(*b) + cap * sizeof(b->items[0]));
            if (b == NULL) {
                return FRD_ENOMEM;
            }
            b->cls = cls;
            b->names = NULL;
            b->names_cap = 0;
            uv_mutex_lock(&o->mu);
            int rc = ptrs_add((void ***)&o->all_bufs, &o->nbufs, &o->bufs_cap, b);
            uv_mutex_unlock(&o->mu);
            if (rc < 0) {
                frd__free(b);
                return FRD_ENOMEM;
            }
        }
        r->big = b; // from here on res_put() returns it to the pool
        if (names > b->names_cap) {
            size_t ncap = b->names_cap ? b->names_cap : cap * 32;
            while (ncap < names) {
                ncap *= 2;
            }
            char *p = frd__realloc(b->names, ncap);
            if (p == NULL) {
                return FRD_ENOMEM;
            }
            b->names = p;
            b->names_cap = ncap;
        }
        r->items = b->items;
        r->items_cap = cap;
        r->names = b->names;
        r->names_cap = b->names_cap;
    }
    return 0;
}

/** Lists one directory into a result. */
static void o_list(struct frd__worker *w, struct frd__wnode *node, struct o_result *r)
{
    struct frd_walk *walk = w->walk;
    r->count = 0;
    r->open_err = 0;
    r->list_err = 0;
    r->listed = false;
    r->has_fd = false;
    r->names_len = 0;
    frd_os_fd fd;
    enum frd__vol_class cls;
    if (node->flags & WN_ROOT) {
        // The consumer opened it (and holds the listing's ref for us).
        fd = node->fd;
        cls = (enum frd__vol_class)node->vclass;
    } else {
        const char *op;
        int rc = frd__wnode_open(w, node, &fd, &op);
        if (rc < 0) {
            r->open_err = rc;
            r->open_op = op;
            return;
        }
        node->fd = fd;
        atomic_store(&node->fd_refs, 1);
        rc = frd__dir_opened(w, node, fd, &cls);
        if (rc < 0) {
            if (rc != FRD_EXDEV) {
                r->open_err = rc;
                r->open_op = "open";
            }
            frd__fd_release(walk, node);
            return;
        }
    }
    frd_list_clear(w->list);
    int rc = frd_lister_list_fd(w->lister, w->list, fd, NULL);
    if (rc < 0) {
        struct frd_list_error le = frd_lister_error(w->lister);
        r->list_err = rc;
        r->list_op = le.op;
    }
    r->listed = true;
    frd_list_sort(w->list);
    size_t count = frd_list_count(w->list);
    const struct frd_entry *v = frd_list_entries(w->list);
    bool kids = walk->children;
    if (kids) {
        // The children hook, on this worker, ahead of the consumer: it sees the sorted
        // listing, and the order it leaves is the visit order.
        size_t plen;
        int krc = frd__wnode_path(w, node, &w->path2, &w->path2_cap, &plen);
        if (krc == 0) {
            frd_os_fd pfd;
            int how = frd__parent_fd_get(w, node, fd, &pfd);
            struct frd_walk_entry dir = frd__wnode_walk_entry(node, w->path2, plen, pfd, w->index);
            dir.parent_state = NULL; // set by the consumer, which has not got here yet
            dir.dir_state = NULL;
            krc = frd__children_run(w, &dir, fd);
            frd__parent_fd_put(w, node, how, pfd);
        }
        if (krc < 0) {
            r->list_err = krc;
            r->list_op = "alloc";
            w->kids.count = 0;
        }
        count = w->kids.count;
    }
    size_t names = 0;
    for (size_t i = 0; i < count; i++) {
        names += (kids ? v[w->kids.order[i]] : v[i]).name_len + 1;
    }
    if (items_reserve(walk->ord, r, count, names) < 0) {
        r->list_err = FRD_ENOMEM;
        r->list_op = "alloc";
        count = 0;
    }
    bool keep = false;
    uint64_t bytes = 0;
    size_t n = 0; // items made: an entry that vanished before its stat is left out
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
        struct o_item *it = &r->items[n++];
        bytes += e->size;
        memset(it, 0, sizeof(*it));
        it->name_off = r->names_len;
        it->entry.name_len = e->name_len;
        memcpy(r->names + r->names_len, e->name, e->name_len + 1);
        r->names_len += e->name_len + 1;
        if ((walk->opts.flags & FRD_WALK_SKIP_HIDDEN) && e->name[0] == '.') {
            it->skip = true;
            continue;
        }
        if (e->error < 0) {
            it->err = e->error;
            it->err_op = "stat";
        }
        struct frd__resolved res;
        int how = frd__resolve_entry(w, node, fd, cls, e, false, &res);
        it->entry = res.entry;
        it->followed = res.followed;
        it->persistent = res.persistent && !walk->names_only;
        it->has_id = res.has_id;
        it->id = res.id;
        if (res.err < 0) {
            it->err = res.err;
            it->err_op = res.err_op;
            it->loop = res.loop;
        }
        if (how == RESOLVE_SKIP) {
            it->skip = true;
            continue;
        }
        if (no_descent || !frd__may_descend(walk, node, &res)) {
            continue;
        }
        struct frd__wnode *c = frd__child_node(w, node, &res);
        if (c == NULL) {
            it->err = FRD_ENOMEM;
            it->err_op = "alloc";
            continue;
        }
        c->ord = (uint32_t)(n - 1);
        if (!keep && !(node->flags & WN_KEEP_DECIDED)) {
            keep = frd__keep_fd(w, node, fd);
        }
        if (keep) {
            atomic_fetch_add(&node->fd_refs, 1);
            c->flags |= WN_HOLDS_PARENT_FD;
        }
        it->child = c;
    }
    r->count = n;
    node->totals.entries = n;
    node->totals.bytes = bytes;
    atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
    // The consumer's frame keeps the descriptor (parent_fd of its visits) while at most half
    // the budget is in use: the rest stays for children to open relative to their parents,
    // so that a tree deeper than the budget never has to be reopened along its path.
    if (atomic_load_explicit(&walk->open_fds, memory_order_relaxed) < walk->keep_limit / 2) {
        atomic_fetch_add(&node->fd_refs, 1);
        r->has_fd = true;
    } else if (!(node->flags & WN_HAS_ID) && frd__plat_fd_identity(fd, &node->id) == 0) {
        // The consumer will reopen it for its callbacks: record what it must find there.
        node->flags |= WN_HAS_ID;
    }
    frd__fd_release(walk, node);
}

/**
 * Takes the next listing task allowed now and does it: called with mu held, returns with it
 * held (dropped while listing). Used by the workers and by the consumer while it waits.
 * @return true if it did something (listed a directory or dropped a pruned one), false if
 * there is nothing it may take now.
 */
static bool o_work_one(struct frd__worker *w, struct frd__ordered *o)
{
    struct frd_walk *walk = w->walk;
    // Past the read-ahead cap only the awaited node may be listed; a pruned node at the top
    // is dropped whatever the cap, so that it never hides the awaited one below it.
    if (o->heap_n == 0 ||
        (window_full(o) && o->heap[0] != o->awaited && !chain_pruned(o->heap[0]))) {
        return false;
    }
    struct frd__wnode *node = heap_pop(o);
    if (chain_pruned(node)) {
        // Below a directory the consumer skipped: nothing to list.
        frd__wnode_drop(w, node);
        return true;
    }
    struct o_result *r = res_get(o);
    if (r == NULL) {
        heap_push(o, node); // back, so the final drain frees it (heap_pop left room)
        uv_mutex_unlock(&o->mu);
        frd__walk_stop(walk, FRD_ENOMEM, w);
        uv_mutex_lock(&o->mu);
        return true;
    }
    r->node = node;
    r->state = O_INFLIGHT;
    o->window++;
    uv_mutex_unlock(&o->mu);

    o_list(w, node, r);
    frd__progress_tick(w);

    uv_mutex_lock(&o->mu);
    bool ok = true;
    size_t pushed = 0;
    for (size_t i = 0; i < r->count; i++) {
        struct frd__wnode *c = r->items[i].child;
        if (c != NULL && ok && heap_push(o, c) < 0) {
            ok = false;
        }
        if (!ok && c != NULL) {
            r->items[i].child = NULL;
            frd__wnode_drop(w, c);
        }
        pushed += ok && c != NULL;
    }
    if (!ok) {
        r->list_err = FRD_ENOMEM;
        r->list_op = "queue";
    }
    r->state = O_READY;
    o->window_entries += r->count;
    node->result = r;
    if (node == o->awaited && o->consumer_waits) {
        uv_cond_signal(&o->ready_cond);
    }
    // New tasks: wake as many idle workers as there are tasks beyond the one this thread
    // takes next (a broadcast per listing woke every worker for one task, and mostly for
    // nothing: most directories have no subdirectory).
    if (pushed > 1 && o->idle > 0) {
        if (pushed - 1 >= o->idle) {
            uv_cond_broadcast(&o->work_cond);
        } else {
            for (size_t i = 1; i < pushed; i++) {
                uv_cond_signal(&o->work_cond);
            }
        }
    }
    return true;
}

void frd__ordered_worker_run(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    struct frd__ordered *o = walk->ord;
    uv_mutex_lock(&o->mu);
    for (;;) {
        if (o->consumer_done || atomic_load(&walk->stop)) {
            break;
        }
        if (!o_work_one(w, o)) {
            o->idle++;
            uv_cond_wait(&o->work_cond, &o->mu);
            o->idle--;
        }
    }
    uv_mutex_unlock(&o->mu);
}

/* ---- The consumer ---- */

/** Purges ready results below pruned directories (called with mu held). */
static void o_purge(struct frd__worker *c, struct frd__ordered *o)
{
    for (size_t i = 0; i < o->nall; i++) {
        struct o_result *r = o->all[i];
        if (r->state == O_READY && chain_pruned(r->node)) {
            o->window_entries -= r->count;
            res_discard(c, o, r);
            o->window--;
        }
    }
}

/** Waits for a node's listing. @return the result (taken out of the window), or NULL if
 *  the walk stopped. */
static struct o_result *o_await(struct frd__worker *c, struct frd__wnode *node)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ord;
    uv_mutex_lock(&o->mu);
    o->awaited = node;
    while (node->result == NULL && !atomic_load(&walk->stop)) {
        // Rather than sleep, list: the awaited directory itself when no worker has taken it
        // yet (no hand-off at all), else the next read-ahead. The consumer is one of the
        // walk's listing threads (it stands for worker 0), so a walk with N workers runs N
        // threads, and the consumer sleeps only while the awaited listing is in flight.
        if (o_work_one(c, o)) {
            continue;
        }
        if (window_full(o)) {
            size_t before = o->window;
            o_purge(c, o);
            if (o->window < before) {
                if (o->idle > 0) {
                    uv_cond_broadcast(&o->work_cond);
                }
                continue;
            }
        }
        o->consumer_waits = true;
        uv_cond_wait(&o->ready_cond, &o->mu);
        o->consumer_waits = false;
    }
    struct o_result *r = node->result;
    o->awaited = NULL;
    if (r != NULL) {
        node->result = NULL;
        o->window--;
        o->window_entries -= r->count;
        if (o->idle > 0 && o->heap_n > 0) {
            uv_cond_signal(&o->work_cond); // a read-ahead slot is free
        }
    }
    uv_mutex_unlock(&o->mu);
    return r;
}

static int o_grow(struct frd__worker *c, void **buf, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) {
        return 0;
    }
    size_t n = *cap ? *cap : 64;
    while (n < need) {
        n *= 2;
    }
    void *p = frd__realloc(*buf, n * size);
    if (p == NULL) {
        return FRD_ENOMEM;
    }
    c->allocations++;
    *buf = p;
    *cap = n;
    return 0;
}

/** Copies a result onto the consumer's stack as a new frame and returns it to the pool. */
static int o_push_frame(struct frd__worker *c, struct o_result *r, size_t dir_len)
{
    struct frd__ordered *o = c->walk->ord;
    size_t count = r->count;
    size_t names = r->names_len;
    if (o_grow(c, (void **)&o->frames, &o->frames_cap, o->nframes + 1, sizeof(*o->frames)) < 0 ||
        o_grow(c, (void **)&o->items, &o->items_cap, o->nitems + count, sizeof(*o->items)) < 0 ||
        o_grow(c, (void **)&o->names, &o->names_cap, o->nnames + names, 1) < 0) {
        return FRD_ENOMEM;
    }
    struct o_frame *f = &o->frames[o->nframes++];
    f->node = r->node;
    f->first = o->nitems;
    f->count = count;
    f->next = 0;
    f->names_mark = o->nnames;
    f->dir_len = dir_len;
    f->has_fd = r->has_fd;
    f->own_fd = FRD_INVALID_FD;
    f->own_pinned = false;
    if (count > 0) {
        memcpy(o->names + o->nnames, r->names, names);
        for (size_t i = 0; i < count; i++) {
            struct o_item *it = &o->items[o->nitems + i];
            *it = r->items[i];
            it->name_off += o->nnames;
            it->entry.name = NULL;
        }
    }
    o->nitems += count;
    o->nnames += names;
    return 0;
}

/**
 * The post-order hook for a finished directory whose path is the first dir_len bytes of the
 * consumer's path buffer; parent_fd is the parent frame's descriptor, if it kept one.
 */
static void o_post_visit(struct frd__worker *c, struct frd__wnode *node, size_t dir_len,
                         frd_os_fd parent_fd)
{
    struct frd_walk *walk = c->walk;
    if (walk->opts.on_dir_done == NULL || (int)node->depth < walk->opts.min_depth ||
        atomic_load(&walk->stop)) {
        return;
    }
    c->path[dir_len] = '\0';
    struct frd_walk_entry we = frd__wnode_walk_entry(node, c->path, dir_len, parent_fd, c->index);
    if (frd__cb_enter(c)) {
        walk->opts.on_dir_done(&we, &node->totals, walk->udata);
        frd__cb_leave(c);
    }
}

/** Frame i's descriptor if one is open now, else FRD_INVALID_FD. */
static frd_os_fd o_frame_open_fd(const struct o_frame *f)
{
    return f->has_fd ? f->node->fd : f->own_fd;
}

/**
 * The descriptor of frame i for callbacks (the parent_fd of its entries and of its post-order
 * child): the one it kept, or one reopened for it, one step from the frame below (a child,
 * by "..") or above (its parent, by name) when that one is open, else along the ancestors;
 * always checked against the identity recorded when it was listed. FRD_INVALID_FD only if
 * the directory cannot be reached any more (removed or replaced since).
 */
static frd_os_fd o_frame_fd(struct frd__worker *c, size_t i)
{
    struct frd__ordered *o = c->walk->ord;
    struct o_frame *f = &o->frames[i];
    if (f->has_fd || f->own_fd != FRD_INVALID_FD) {
        return o_frame_open_fd(f);
    }
    if (frd__fd_try_pin(f->node)) {
        f->own_fd = f->node->fd;
        f->own_pinned = true;
        return f->own_fd;
    }
    frd_os_fd near = FRD_INVALID_FD;
    bool near_is_child = false;
    if (i + 1 < o->nframes) {
        near = o_frame_open_fd(&o->frames[i + 1]);
        near_is_child = true;
    }
    if (near == FRD_INVALID_FD && i > 0) {
        near = o_frame_open_fd(&o->frames[i - 1]);
        near_is_child = false;
    }
    if (frd__wnode_reopen_near(c, f->node, near, near_is_child, &f->own_fd) < 0) {
        f->own_fd = FRD_INVALID_FD;
    }
    return f->own_fd;
}

/** Lets go of the descriptor frame i reopened for its callbacks, if any. */
static void o_frame_close_own(struct frd__worker *c, struct o_frame *f)
{
    if (f->own_fd == FRD_INVALID_FD) {
        return;
    }
    if (f->own_pinned) {
        frd__fd_release(c->walk, f->node);
    } else {
        frd__fd_close_owned(c->walk, f->own_fd);
    }
    f->own_fd = FRD_INVALID_FD;
    f->own_pinned = false;
}

/** The descriptor of the top frame for callbacks (the parent of what is entered next). */
static frd_os_fd o_top_fd(struct frd__worker *c)
{
    struct frd__ordered *o = c->walk->ord;
    return o->nframes == 0 ? FRD_INVALID_FD : o_frame_fd(c, o->nframes - 1);
}

/** Reports what went wrong opening or listing a directory. @return false to stop. */
static bool o_report_result(struct frd__worker *c, struct o_result *r, const char *path)
{
    if (r->open_err < 0) {
        return frd__report(c, path, r->open_op, r->open_err, r->node->depth);
    }
    if (r->list_err < 0) {
        return frd__report(c, path, r->list_op, r->list_err, r->node->depth);
    }
    return true;
}

/** Takes a node's result and enters it. @return true if a frame was pushed. */
static bool o_enter(struct frd__worker *c, struct frd__wnode *node, size_t dir_len)
{
    struct frd__ordered *o = c->walk->ord;
    struct o_result *r = o_await(c, node);
    if (r == NULL) {
        return false;
    }
    bool ok = o_report_result(c, r, c->path);
    bool pushed = false;
    if (ok && r->listed) {
        if (o_push_frame(c, r, dir_len) < 0) {
            frd__walk_stop(c->walk, FRD_ENOMEM, c);
        } else {
            node->listed = true;
            pushed = true;
        }
    } else if (ok && r->open_err < 0) {
        // Visited with CONTINUE but unreadable: finished all the same (find -depth, du).
        o_post_visit(c, node, dir_len, o_top_fd(c));
    }
    uv_mutex_lock(&o->mu);
    if (pushed) {
        res_put(o, r); // the frame owns the node ref and the fd ref now
    } else {
        res_discard(c, o, r);
    }
    uv_mutex_unlock(&o->mu);
    return pushed;
}

/** Leaves the top frame: post-order visit, then its descriptor and node go. */
static void o_pop_frame(struct frd__worker *c, bool post)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ord;
    struct o_frame *f = &o->frames[o->nframes - 1];
    struct frd__wnode *node = f->node;
    if (post) {
        frd_os_fd parent_fd = o->nframes > 1 ? o_frame_fd(c, o->nframes - 2) : FRD_INVALID_FD;
        o_post_visit(c, node, f->dir_len, parent_fd);
    }
    o_frame_close_own(c, f);
    // Subdirectories not entered are pruned (their nodes are on the heap or listed).
    for (size_t i = f->next; i < f->count; i++) {
        struct frd__wnode *child = o->items[f->first + i].child;
        if (child != NULL) {
            atomic_store_explicit(&child->pruned, true, memory_order_relaxed);
        }
    }
    o->nitems = f->first;
    o->nnames = f->names_mark;
    o->nframes--;
    if (f->has_fd) {
        frd__fd_release(walk, node);
    }
    frd__wnode_release(c, node);
}

/** Visits the frames until the stack is empty or the walk stops. */
static void o_run_frames(struct frd__worker *c)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ord;
    while (o->nframes > 0) {
        if (atomic_load_explicit(&walk->stop, memory_order_relaxed)) {
            return;
        }
        struct o_frame *f = &o->frames[o->nframes - 1];
        if (f->next == f->count) {
            o_pop_frame(c, true);
            frd__progress_tick(c);
            continue;
        }
        struct o_item *it = &o->items[f->first + f->next++];
        const char *name = o->names + it->name_off;
        size_t dir_len = f->dir_len;
        size_t sep = frd__path_sep(c->path, dir_len);
        size_t path_len = dir_len + sep + it->entry.name_len;
        if (frd__grow(c, &c->path, &c->path_cap, path_len + 1) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, c);
            return;
        }
        f = &o->frames[o->nframes - 1];
        if (sep) {
            c->path[dir_len] = '/';
        }
        memcpy(c->path + dir_len + sep, name, it->entry.name_len);
        c->path[path_len] = '\0';
        unsigned depth = f->node->depth + 1;
        // The directory's descriptor for the visit; the one the consumer reopened for the
        // frame above (if any) is not needed any more.
        frd_os_fd parent_fd = o_frame_fd(c, o->nframes - 1);
        if (o->nframes > 1) {
            o_frame_close_own(c, &o->frames[o->nframes - 2]);
        }
        if (it->err < 0) {
            const char *other = NULL;
            size_t olen;
            if (it->loop != NULL && frd__wnode_path(c, (struct frd__wnode *)(uintptr_t)it->loop,
                                                    &c->path2, &c->path2_cap, &olen) == 0) {
                other = c->path2;
            }
            if (!frd__report_loop(c, c->path, it->err_op, it->err, depth, other)) {
                return;
            }
        }
        struct frd__resolved res = {
            .entry = it->entry, .id = it->id, .has_id = it->has_id, .persistent = it->persistent};
        res.entry.name = name;
        if (it->skip || frd__is_duplicate(walk, &res)) {
            if (it->child != NULL) {
                atomic_store_explicit(&it->child->pruned, true, memory_order_relaxed);
            }
            continue;
        }
        struct frd_walk_entry we = {
            .path = c->path,
            .path_len = path_len,
            .entry = &res.entry,
            .depth = depth,
            .parent_fd = parent_fd,
            .is_root = false,
            .followed_link = it->followed,
            .persistent_ids = it->persistent,
            .root_index = f->node->root_index,
            .worker = c->index,
            .parent_state = f->node->state,
        };
        void *dstate = NULL;
        if (res.entry.type == FRD_TYPE_DIR) {
            we.dir_state = &dstate;
        }
        enum frd_action act = frd__visit(c, &we);
        if (act != FRD_ACTION_CONTINUE || it->child == NULL) {
            frd__state_free(walk, dstate); // not entered: released at once
            if (act == FRD_ACTION_STOP) {
                return;
            }
            if (it->child != NULL) {
                atomic_store_explicit(&it->child->pruned, true, memory_order_relaxed);
            }
            continue;
        }
        it->child->state = dstate; // released with the node
        o_enter(c, it->child, path_len);
    }
}

/** One root: stat, open, visit, then its tree. */
static void o_root(struct frd__worker *c, size_t index)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ord;
    const char *name = walk->roots[index];
    struct frd__wnode *root = frd__wnode_new(c, NULL, name, strlen(name));
    if (root == NULL) {
        frd__walk_stop(walk, FRD_ENOMEM, c);
        return;
    }
    root->flags |= WN_ROOT;
    root->ord = (uint32_t)index;
    root->root_index = (unsigned)index;
    if (frd__root_stat(c, root) < 0) {
        frd__wnode_release(c, root);
        return;
    }
    bool is_dir = root->entry.type == FRD_TYPE_DIR && walk->opts.max_depth != 0;
    size_t dir_len = 0;
    int open_rc = 0;
    frd_os_fd fd = FRD_INVALID_FD;
    if (is_dir) {
        if (frd__wnode_path(c, root, &c->path, &c->path_cap, &dir_len) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, c);
            frd__wnode_release(c, root);
            return;
        }
        open_rc = frd__root_open(c, root, &fd);
        if (open_rc == 0) {
            enum frd__vol_class cls;
            open_rc = frd__dir_opened(c, root, fd, &cls);
            root->vclass = (uint8_t)cls;
        }
    }
    struct frd_walk_entry we =
        frd__wnode_walk_entry(root, root->name, root->name_len, FRD_INVALID_FD, c->index);
    enum frd_action act = frd__visit(c, &we);
    if (is_dir && open_rc < 0 && act != FRD_ACTION_STOP) {
        if (frd__report_root(c, root->name, "open", open_rc) && act == FRD_ACTION_CONTINUE) {
            o_post_visit(c, root, dir_len, FRD_INVALID_FD); // unreadable, finished
        }
    }
    if (fd == FRD_INVALID_FD) {
        frd__wnode_release(c, root);
        return;
    }
    if (act != FRD_ACTION_CONTINUE || open_rc < 0) {
        frd__fd_release(walk, root); // the listing's ref; the subtree pin goes with the node
        frd__wnode_release(c, root);
        return;
    }
    uv_mutex_lock(&o->mu);
    int rc = heap_push(o, root);
    uv_mutex_unlock(&o->mu);
    if (rc < 0) {
        frd__fd_release(walk, root);
        frd__wnode_release(c, root);
        frd__walk_stop(walk, FRD_ENOMEM, c);
        return;
    }
    // The heap owns the root's own ref now; the frame takes it over.
    if (o_enter(c, root, dir_len)) {
        o_run_frames(c);
    }
}

void frd__ordered_consume(struct frd__worker *c)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ord;
    for (size_t i = 0; i < walk->nroots; i++) {
        if (atomic_load(&walk->stop)) {
            break;
        }
        o_root(c, i);
    }
    // After a stop, frames may remain: let them go (no post-order visits).
    while (o->nframes > 0) {
        o_pop_frame(c, false);
    }
    uv_mutex_lock(&o->mu);
    o->consumer_done = true;
    uv_cond_broadcast(&o->work_cond);
    uv_mutex_unlock(&o->mu);
}

void frd__ordered_free(struct frd_walk *walk)
{
    struct frd__ordered *o = walk->ord;
    struct frd__worker *c = walk->consumer;
    // Every thread is gone: drop what is left on the heap and in ready results.
    if (c != NULL) {
        for (size_t i = 0; i < o->nall; i++) {
            if (o->all[i]->state == O_READY) {
                res_discard(c, o, o->all[i]);
            }
        }
        while (o->heap_n > 0) {
            frd__wnode_drop(c, heap_pop(o));
        }
    }
    for (size_t i = 0; i < o->nbufs; i++) {
        frd__free(o->all_bufs[i]->names);
        frd__free(o->all_bufs[i]);
    }
    frd__free(o->all_bufs);
    for (size_t i = 0; i < o->nblocks; i++) {
        frd__free(o->blocks[i]);
    }
    frd__free(o->blocks);
    frd__free(o->all);
    frd__free(o->heap);
    frd__free(o->frames);
    frd__free(o->items);
    frd__free(o->names);
    uv_cond_destroy(&o->ready_cond);
    uv_cond_destroy(&o->work_cond);
    uv_mutex_destroy(&o->mu);
    frd__free(o);
    walk->ord = NULL;
}
