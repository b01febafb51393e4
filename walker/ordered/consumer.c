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
 *   consumer   walks the tree in order: a frame takes a result over (no copy: a big
 *              listing is held once; the result goes back to the pool when the frame is
 *              left), visits the entries, and for a subdirectory it descends into, waits
 *              for that node's result; a subdirectory it does not descend into is pruned
 *
 * Large listings (more than one kernel batch, walker/ordered/large.c): the worker reads the
 * later batches by name and type, each batch a run of 24-byte records and names that idle
 * threads sort (by a key of the name's first 8 bytes, then the name: the order of
 * frd_list_sort()) and merge while the directory is still read; a single 8-byte field the
 * walk wants (say the size) is stat'ed ahead there, in listing order. The runs left are
 * merged chunk by chunk of O_CHUNK entries, and each chunk's items (stat, links, child
 * nodes) made by the thread that merged it, a few chunks at a time (two per worker): the
 * chunks ahead of the consumer by whichever thread is idle (they come before read-ahead
 * listings), the one it needs by itself if nobody took it. So memory is the names, the
 * records and a bounded window of items, whatever the size of the directory, its stats
 * still run on every worker, and its first entries come as soon as it is read.
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
 * Bounds: at most window_max results are listed and not yet taken (twice that for the
 * consumer's own read-ahead, which it does only while the listing it awaits is in flight);
 * the node the consumer waits for is always allowed past that limit, so the consumer can
 * never starve behind read-ahead it does not need yet. Idle workers are woken when a
 * quarter of the window is free again, not at every result taken. A huge directory is one
 * result, never the whole tree (a large listing counts for one chunk there: its items are
 * bounded by its slots).
 * Results of pruned subtrees are dropped by the workers when they meet them, and purged
 * by the consumer when the window is full.
 *
 * Dedupe (visit each file once) is decided by the consumer, in visit order, so that which
 * of two hard links is visited does not depend on timing.
 *
 * The module's files, top down (each calls only those below it; its header in brackets):
 *
 *   consumer.c  the consumer: frames, awaiting results and chunks, visits  (ordered.h)
 *   list.c      the workers: the next task, one directory listed           (list.h)
 *   results.c   the results, pooled for the walk                           (results.h)
 *   large.c     large listings: runs sorted and merged, chunks resolved    (large.h)
 *   item.c      an entry resolved into an item; children onto the heap     (item.h)
 *   sort.c      a one-batch listing's order, by keys                       (sort.h)
 *   heap.c      pre-order labels, the task heap, prunes                    (heap.h)
 *   ordered_int.h  the mode's shared state (struct frd__ordered)
 */
#include "heap.h"
#include "item.h"
#include "large.h"
#include "list.h"
#include "ordered.h"
#include "ordered_int.h"
#include "results.h"

#include <string.h>

/** A directory the consumer is in. */
struct o_frame {
    struct frd__wnode *node;
    struct o_result *res; /**< its listing, taken over from the worker (no copy) */
    size_t count;
    size_t next;
    size_t chunk;   /**< a large listing: the chunk the consumer holds, or SIZE_MAX */
    size_t dir_len; /**< bytes of its path in the consumer's path buffer */
    bool has_fd;
    /** Without has_fd: the descriptor its callbacks get, reopened when first needed (from
     *  the frame above or below, or along the ancestors) and closed when the consumer moves
     *  on, so the consumer holds at most two of these at a time. */
    frd_os_fd own_fd;
    bool own_pinned; /**< own_fd is node->fd, pinned (release, do not close) */
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
    o->window_max = 64 * (size_t)walk->plan.sched.nworkers + 16;
    o->chunk_slots = 2 * (size_t)walk->plan.sched.nworkers;
    o->chunk_slots = o->chunk_slots < 4               ? 4
                     : o->chunk_slots > O_CHUNK_SLOTS ? O_CHUNK_SLOTS
                                                      : o->chunk_slots;
    o->sortbufs = frd__calloc(walk->plan.sched.nworkers, sizeof(o->sortbufs[0]));
    if (o->sortbufs == NULL) {
        goto fail_sortbufs;
    }
    walk->ordered = o;
    return 0;

fail_sortbufs:
    uv_cond_destroy(&o->ready_cond);
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
    struct frd__ordered *o = walk->ordered;
    uv_mutex_lock(&o->mu);
    uv_cond_broadcast(&o->work_cond);
    uv_cond_broadcast(&o->ready_cond);
    uv_mutex_unlock(&o->mu);
}

/**
 * A frame's invariants (Debug and sanitizer builds): its listing is its node's, taken by the
 * consumer; it has visited no more than it holds; the descriptor it kept is still open, and
 * one it reopened is pinned only as the node's own.
 */
static void o_frame_check(const struct o_frame *f)
{
    FRD_ASSERT(f->res != NULL && f->res->node == f->node && f->res->state == O_TAKEN);
    FRD_ASSERT(f->next <= f->count && f->count == f->res->count);
    FRD_ASSERT(f->chunk == SIZE_MAX || (f->res->lg != NULL && f->chunk * O_CHUNK < f->count));
    FRD_ASSERT(!f->has_fd || atomic_load(&f->node->fd_refs) > 0);
    FRD_ASSERT(!f->own_pinned || (f->own_fd == f->node->fd && !f->has_fd));
    (void)f;
}

/** Takes a ready result out of the read-ahead window it counted in (mu held). */
static void o_window_take(struct frd__ordered *o, struct o_result *r)
{
    FRD_ASSERT(r->state == O_READY);
    FRD_ASSERT(o->window > 0 && o->window_entries >= r->window_cost);
    o->window--;
    o->window_entries -= r->window_cost;
}

/** Purges ready results below pruned directories (called with mu held). */
static void o_purge(struct frd__worker *c, struct frd__ordered *o)
{
    for (size_t i = 0; i < o->nall; i++) {
        struct o_result *r = o->all[i];
        if (r->state == O_READY && frd__o_chain_pruned(o, r->node)) {
            o_window_take(o, r);
            frd__ores_discard(c, o, r);
        }
    }
}

/** Gives the results of the frames left since the last lock back to the pool (mu held). */
static void o_put_later_flush(struct frd__ordered *o)
{
    while (o->put_later != NULL) {
        struct o_result *r = o->put_later;
        o->put_later = r->next_free;
        frd__ores_put(o, r);
    }
}

/** Has the read-ahead drained enough (a quarter of each cap free) to wake idle workers? */
static bool o_window_low(const struct frd__ordered *o)
{
    return o->window + o->window_max / 4 <= o->window_max &&
           o->window_entries + O_WINDOW_ENTRIES / 4 <= O_WINDOW_ENTRIES;
}

/** Waits for a node's listing. @return the result (taken out of the window), or NULL if
 *  the walk stopped. */
static struct o_result *o_await(struct frd__worker *c, struct frd__wnode *node)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ordered;
    frd__o_lock(o);
    o_put_later_flush(o);
    o->awaited = node;
    while (node->result == NULL && !frd__walk_stopping(walk)) {
        // Rather than sleep, list: the awaited directory itself when no worker has taken it
        // yet (no hand-off at all), else the next read-ahead. The consumer is one of the
        // walk's listing threads (it stands for worker 0), so a walk with N workers runs N
        // threads, and the consumer sleeps only while the awaited listing is in flight.
        if (frd__o_work_one(c, o)) {
            continue;
        }
        if (frd__o_window_full(o)) {
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
    bool wake = false;
    if (r != NULL) {
        FRD_ASSERT(r->node == node);
        node->result = NULL;
        o_window_take(o, r);
        r->state = O_TAKEN;
        // Workers idle with tasks on the heap wait for read-ahead room: wake them once the
        // window has drained to its low mark, not at every slot freed (each wake is a futex
        // call, a context switch and a contended lock for the consumer, for one listing).
        wake = o->idle > 0 && o->heap_n > 0 && o_window_low(o);
    }
    uv_mutex_unlock(&o->mu);
    if (wake) {
        uv_cond_broadcast(&o->work_cond); // wakers take mu themselves: it is free now
    }
    return r;
}

/**
 * Pushes a frame for a result: the frame takes the listing over (no copy; the result goes
 * back to the pool when the frame is left), so a large listing is held once.
 */
static int o_push_frame(struct frd__worker *c, struct o_result *r, size_t dir_len)
{
    struct frd__ordered *o = c->walk->ordered;
    int a = FRD__RESERVE(o->frames, o->frames_cap, o->nframes + 1, 64);
    if (a < 0) {
        return FRD_ENOMEM;
    }
    FRD_ASSERT(r->state == O_TAKEN && r->listed);
    struct o_frame *f = &o->frames[o->nframes++];
    f->node = r->node;
    f->res = r;
    f->count = r->count;
    f->next = 0;
    f->chunk = SIZE_MAX;
    f->dir_len = dir_len;
    f->has_fd = r->has_fd;
    f->own_fd = FRD_INVALID_FD;
    f->own_pinned = false;
    o_frame_check(f);
    return 0;
}

/**
 * Item i of a frame's listing; for a large listing, its chunk resolved first (by a worker
 * or, if none took it yet, here), and the chunk before it let go of. The consumer lists or
 * resolves other work while it waits, as in o_await(). @return the item, or NULL if the
 * walk stopped.
 */
static struct o_item *o_item_get(struct frd__worker *c, struct o_frame *f, size_t i)
{
    struct o_result *r = f->res;
    struct o_large *lg = r->lg;
    FRD_ASSERT(i < f->count);
    if (lg == NULL) {
        return &r->items[i];
    }
    size_t k = i / O_CHUNK;
    FRD_ASSERT(k < lg->nchunks && k >= lg->base); // chunks are taken in order
    if (k != f->chunk) {
        struct frd_walk *walk = c->walk;
        struct frd__ordered *o = walk->ordered;
        frd__o_lock(o);
        lg->base = k; // the chunks before it are done with: their slots are free
        if (f->chunk != SIZE_MAX && o->idle > 0) {
            uv_cond_signal(&o->work_cond);
        }
        while (!frd__o_chunk_ready(lg, k) && !frd__walk_stopping(walk)) {
            if (frd__o_chunk_take(c, o, lg) || frd__o_work_one(c, o)) {
                continue;
            }
            o->consumer_waits = true;
            uv_cond_wait(&o->ready_cond, &o->mu);
            o->consumer_waits = false;
        }
        bool ready = frd__o_chunk_ready(lg, k);
        FRD_ASSERT(ready || frd__walk_stopping(walk));
        if (ready) {
            f->node->totals.entries += lg->made[k % lg->nslots];
            f->node->totals.bytes += lg->bytes[k % lg->nslots];
        }
        uv_mutex_unlock(&o->mu);
        if (!ready) {
            return NULL;
        }
        f->chunk = k;
    }
    return &lg->slots[(k % lg->nslots) * O_CHUNK + i % O_CHUNK];
}

/** Marks the subdirectories of items [from, to) not entered as pruned. */
static void o_prune_items(struct frd__ordered *o, struct o_item *items, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        if (items[i].child != NULL) {
            frd__o_prune(o, items[i].child);
        }
    }
}

/**
 * Leaves a frame's listing: a large one is closed (no more chunks claimed; the consumer
 * waits for those in flight) and the subdirectories of its resolved chunks not entered
 * are pruned; then the result goes back to the pool.
 */
static void o_frame_let_go(struct frd__worker *c, struct o_frame *f)
{
    struct frd__ordered *o = c->walk->ordered;
    struct o_result *r = f->res;
    struct o_large *lg = r->lg;
    f->res = NULL;
    if (lg == NULL) {
        // Back to the pool at the next lock the consumer takes anyway (one lock less per
        // directory; a few results wait there at most, one per frame left in a row).
        o_prune_items(o, r->items, f->next, f->count);
        r->next_free = o->put_later;
        o->put_later = r;
        return;
    }
    uv_mutex_lock(&o->mu);
    o_put_later_flush(o);
    lg->closed = true;
    while (lg->inflight > 0) {
        o->consumer_waits = true;
        uv_cond_wait(&o->ready_cond, &o->mu);
        o->consumer_waits = false;
    }
    for (size_t s = 0; s < lg->nslots; s++) {
        size_t k = lg->ready[s];
        if (k == SIZE_MAX) {
            continue;
        }
        size_t lo = k * O_CHUNK;
        size_t n = lg->nrecs - lo < O_CHUNK ? lg->nrecs - lo : O_CHUNK;
        size_t from = f->next > lo ? f->next - lo : 0;
        if (from < n) {
            o_prune_items(o, &lg->slots[s * O_CHUNK], from, n);
        }
    }
    struct o_large **p = &o->large;
    while (*p != NULL && *p != lg) {
        p = &(*p)->next;
    }
    if (*p == lg) {
        *p = lg->next;
    }
    frd__ores_put(o, r);
    uv_mutex_unlock(&o->mu);
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
        frd__walk_stopping(walk)) {
        return;
    }
    c->path[dir_len] = '\0';
    struct frd_walk_entry we =
        frd__wnode_walk_entry(node, c->path, dir_len, parent_fd, frd__slot(c));
    if (frd__cb_enter(c)) {
        walk->opts.on_dir_done(&we, &node->totals, walk->hooks.udata);
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
    struct frd__ordered *o = c->walk->ordered;
    struct o_frame *f = &o->frames[i];
    if (c->walk->opts.flags & FRD_WALK_NO_PARENT_FD) {
        return FRD_INVALID_FD; // the callbacks make no *at() call
    }
    if (f->has_fd || f->own_fd != FRD_INVALID_FD) {
        return o_frame_open_fd(f);
    }
    if (frd__fd_try_pin(f->node)) {
        f->own_fd = f->node->fd;
        f->own_pinned = true;
        return f->own_fd;
    }
    frd_os_fd nearby = FRD_INVALID_FD;
    bool nearby_is_child = false;
    if (i + 1 < o->nframes) {
        nearby = o_frame_open_fd(&o->frames[i + 1]);
        nearby_is_child = true;
    }
    if (nearby == FRD_INVALID_FD && i > 0) {
        nearby = o_frame_open_fd(&o->frames[i - 1]);
        nearby_is_child = false;
    }
    if (frd__wnode_reopen_near(c, f->node, nearby, nearby_is_child, &f->own_fd) < 0) {
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
    struct frd__ordered *o = c->walk->ordered;
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
    struct frd__ordered *o = c->walk->ordered;
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
    if (!pushed || r->lg != NULL) {
        frd__o_lock(o);
        if (!pushed) {
            frd__ores_discard(c, o, r);
        } else {
            // Its chunks may be resolved now, by any thread that is idle.
            r->lg->next = o->large;
            o->large = r->lg;
            if (o->idle > 0) {
                uv_cond_broadcast(&o->work_cond);
            }
        }
        uv_mutex_unlock(&o->mu);
    }
    return pushed; // the frame owns the result, the node ref and the fd ref now
}

/** Leaves the top frame: post-order visit, then its descriptor and node go. */
static void o_pop_frame(struct frd__worker *c, bool post)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ordered;
    FRD_ASSERT(o->nframes > 0 && o->nframes <= o->frames_cap);
    struct o_frame *f = &o->frames[o->nframes - 1];
    o_frame_check(f);
    struct frd__wnode *node = f->node;
    if (post) {
        frd_os_fd parent_fd = o->nframes > 1 ? o_frame_fd(c, o->nframes - 2) : FRD_INVALID_FD;
        o_post_visit(c, node, f->dir_len, parent_fd);
    }
    o_frame_close_own(c, f);
    // Subdirectories not entered are pruned (their nodes are on the heap or listed).
    o_frame_let_go(c, f);
    o->nframes--;
    if (f->has_fd) {
        frd__fd_release(walk, node);
    }
    frd__wnode_release(c, node);
}

/** Joins the top frame's path and `name` in the consumer's path buffer. @return the
 *  path's length, or 0 when memory ran out (the walk is stopped). */
static size_t o_path_join(struct frd__worker *c, size_t dir_len, const char *name, size_t len)
{
    size_t sep = frd__path_sep(c->path, dir_len);
    size_t path_len = dir_len + sep + len;
    if (frd__grow(&c->path, &c->path_cap, path_len + 1) < 0) {
        frd__walk_stop(c->walk, FRD_ENOMEM, c);
        return 0;
    }
    if (sep) {
        c->path[dir_len] = '/';
    }
    memcpy(c->path + dir_len + sep, name, len);
    c->path[path_len] = '\0';
    return path_len;
}

/** Reports what went wrong resolving an item (a loop with the ancestor it repeats).
 *  @return false if the walk must stop. */
static bool o_report_item(struct frd__worker *c, const struct o_full *full, unsigned depth)
{
    const char *other = NULL;
    size_t olen;
    if (full->loop != NULL && frd__worker_path2(c, full->loop, &olen) == 0) {
        other = c->path2;
    }
    return frd__report_loop(c, c->path, full->err_op, full->err, depth, other);
}

/** Visit-each-once, decided here in visit order: has an entry with the item's identity (an
 *  entry with one is kept whole, the identity beside it) been visited already? */
static bool o_is_duplicate(struct frd_walk *walk, const struct o_item *it,
                           const struct o_full *full, const struct frd_entry *entry)
{
    if (walk->ids.seen == NULL) {
        return false;
    }
    bool whole = (it->flags & O_IT_WHOLE) != 0;
    struct frd__resolved res = {.entry = entry,
                                .id = whole && full->has_id ? full->id : (struct frd__identity){0},
                                .has_id = whole && full->has_id,
                                .persistent = whole && full->persistent};
    return frd__is_duplicate(walk, &res);
}

/**
 * Visits item `it` of the top frame `f`, whose path is in the consumer's buffer (path_len
 * bytes), with the directory's descriptor `parent_fd`; enters its subdirectory or prunes it.
 * @return false if the walk stops.
 */
static bool o_visit_item(struct frd__worker *c, struct o_frame *f, struct o_item *it,
                         const struct o_full *full, const struct frd_entry *entry, size_t path_len,
                         frd_os_fd parent_fd, unsigned slot)
{
    struct frd_walk *walk = c->walk;
    bool whole = (it->flags & O_IT_WHOLE) != 0;
    struct frd_walk_entry we = {
        .path = c->path,
        .path_len = path_len,
        .entry = entry,
        .depth = f->node->depth + 1,
        .parent_fd = parent_fd,
        .is_root = false,
        .followed_link = whole && full->followed,
        .persistent_ids = whole && full->persistent,
        .root_index = f->node->root_index,
        .worker = slot,
        .parent_state = f->node->state,
    };
    void *dstate = NULL;
    if (entry->type == FRD_TYPE_DIR) {
        we.dir_state = &dstate;
    }
    enum frd_action act = frd__visit(c, &we);
    if (act != FRD_ACTION_CONTINUE || it->child == NULL) {
        frd__state_free(walk, dstate); // not entered: released at once
        if (act == FRD_ACTION_STOP) {
            return false;
        }
        if (it->child != NULL) {
            frd__o_prune(walk->ordered, it->child);
        }
        return true;
    }
    it->child->state = dstate; // released with the node
    o_enter(c, it->child, path_len);
    return true;
}

/** Visits the frames until the stack is empty or the walk stops. */
static void o_run_frames(struct frd__worker *c)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ordered;
    struct frd_entry bare; // the entries of bare items: fields they lack stay zero
    memset(&bare, 0, sizeof(bare));
    unsigned slot = frd__slot(c); // the consumer's, fixed: it stands for worker 0
    while (o->nframes > 0) {
        if (frd__walk_stopping(walk)) {
            return;
        }
        struct o_frame *f = &o->frames[o->nframes - 1];
        if (f->next == f->count) {
            o_pop_frame(c, true);
            frd__progress_tick(c);
            continue;
        }
        struct o_item *it = o_item_get(c, f, f->next);
        if (it == NULL) {
            return; // stopped
        }
        f->next++;
        if ((it->flags & (O_IT_SKIP | O_IT_ERR)) == O_IT_SKIP) {
            continue; // hidden, or gone since the listing: nothing to report or visit
        }
        struct o_large *lg = f->res->lg;
        const char *name =
            lg != NULL ? frd__o_chunk_name(lg, f->chunk, it) : f->res->names + it->name_off;
        // The frame owns its items now: the callbacks get the item's own whole entry, or
        // one rebuilt here from a bare item.
        struct o_full *full =
            lg != NULL ? &lg->slot_fulls[it - lg->slots] : &f->res->fulls[it - f->res->items];
        struct frd_entry *entry = frd__o_item_entry(it, full, name, &bare);
        size_t path_len = o_path_join(c, f->dir_len, name, entry->name_len);
        if (path_len == 0) {
            return;
        }
        // The directory's descriptor for the visit; the one the consumer reopened for the
        // frame above (if any) is not needed any more.
        frd_os_fd parent_fd = o_frame_fd(c, o->nframes - 1);
        if (o->nframes > 1) {
            o_frame_close_own(c, &o->frames[o->nframes - 2]);
        }
        if ((it->flags & O_IT_ERR) && !o_report_item(c, full, f->node->depth + 1)) {
            return;
        }
        if ((it->flags & O_IT_SKIP) || o_is_duplicate(walk, it, full, entry)) {
            if (it->child != NULL) {
                frd__o_prune(o, it->child);
            }
            continue;
        }
        if (!o_visit_item(c, f, it, full, entry, path_len, parent_fd, slot)) {
            return;
        }
    }
}

/** One root: stat, open, visit, then its tree. */
static void o_root(struct frd__worker *c, size_t index)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ordered;
    const char *name = walk->roots[index];
    struct frd__wnode *root = frd__wnode_new(c, NULL, name, strlen(name));
    if (root == NULL) {
        frd__walk_stop(walk, FRD_ENOMEM, c);
        return;
    }
    root->flags |= WN_ROOT;
    root->ord = (uint32_t)index;
    root->root_index = (unsigned)index;
    struct frd__root_start rs;
    enum frd__root_next next = frd__root_begin(c, root, &rs);
    if (next != FRD__ROOT_LIST) {
        if (next == FRD__ROOT_UNREADABLE) {
            o_post_visit(c, root, rs.dir_len, FRD_INVALID_FD); // unreadable, finished
        }
        frd__wnode_release(c, root);
        return;
    }
    uv_mutex_lock(&o->mu);
    int rc = frd__oheap_push(o, root);
    uv_mutex_unlock(&o->mu);
    if (rc < 0) {
        frd__fd_release(walk, root);
        frd__wnode_release(c, root);
        frd__walk_stop(walk, FRD_ENOMEM, c);
        return;
    }
    // The heap owns the root's own ref now; the frame takes it over.
    if (o_enter(c, root, rs.dir_len)) {
        o_run_frames(c);
    }
}

void frd__ordered_consume(struct frd__worker *c)
{
    struct frd_walk *walk = c->walk;
    struct frd__ordered *o = walk->ordered;
    for (size_t i = 0; i < walk->nroots; i++) {
        if (frd__walk_stopping(walk)) {
            break;
        }
        o_root(c, i);
    }
    // After a stop, frames may remain: let them go (no post-order visits).
    while (o->nframes > 0) {
        o_pop_frame(c, false);
    }
    uv_mutex_lock(&o->mu);
    o_put_later_flush(o);
    o->consumer_done = true;
    uv_cond_broadcast(&o->work_cond);
    uv_mutex_unlock(&o->mu);
}

void frd__ordered_free(struct frd_walk *walk)
{
    struct frd__ordered *o = walk->ordered;
    struct frd__worker *c = walk->consumer;
    // Every thread is gone: drop what is left on the heap and in ready results.
    if (c != NULL) {
        for (size_t i = 0; i < o->nall; i++) {
            if (o->all[i]->state == O_READY) {
                frd__ores_discard(c, o, o->all[i]);
            }
        }
        while (o->heap_n > 0) {
            frd__o_drop_task(c, frd__oheap_pop(o));
        }
    }
    FRD_ASSERT(c == NULL || o->nframes == 0); // the consumer let go of its frames
    frd__opool_free(o);
    for (size_t i = 0; i < walk->plan.sched.nworkers; i++) {
        frd__free(o->sortbufs[i].keys);
    }
    frd__free(o->sortbufs);
    frd__free(o->heap);
    frd__free(o->frames);
    uv_cond_destroy(&o->ready_cond);
    uv_cond_destroy(&o->work_cond);
    uv_mutex_destroy(&o->mu);
    frd__free(o);
    walk->ordered = NULL;
}
