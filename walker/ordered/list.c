// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's listing side: the heap of directory tasks by pre-order position, and
 * the workers (the consumer too, while it waits) that take the first task allowed, list
 * and resolve it, and publish the result on the node (large listings: walker/ordered/large.c).
 * See walker/ordered/consumer.c for the whole protocol.
 */
#include "list.h"

#include "heap.h"
#include "item.h"
#include "large.h"
#include "ordered.h"
#include "ordered_int.h"
#include "results.h"
#include "sort.h"

#include <string.h>

/**
 * Opens a listing task's directory (a root: the consumer opened it) into *fd, its volume
 * class into *cls. @return false if it could not be (r->open_err says why, unless it is on
 * another file system, which is not listed).
 */
static bool o_open(struct frd__worker *w, struct frd__wnode *node, struct o_result *r,
                   frd_os_fd *fd, enum frd__vol_class *cls)
{
    if (node->flags & WN_ROOT) {
        // The consumer opened it (and holds the listing's ref for us).
        *fd = node->fd;
        *cls = (enum frd__vol_class)node->vclass;
        return true;
    }
    int rc = frd__wnode_open(w, node, fd);
    if (rc < 0) {
        r->open_err = rc;
        r->open_op = FRD__FAIL_OPEN;
        return false;
    }
    node->fd = *fd;
    atomic_store(&node->fd_refs, 1);
    rc = frd__dir_opened(w, node, *fd, cls);
    if (rc < 0) {
        if (rc != FRD_EXDEV) {
            r->open_err = rc;
            r->open_op = FRD__FAIL_OPEN;
        }
        frd__fd_release(w->walk, node);
        return false;
    }
    return true;
}

/**
 * The children hook over w's list, on this worker, ahead of the consumer: it sees the sorted
 * listing (or the directory's order), and the order it leaves is the visit order.
 * @return the survivors (0 when it could not run: r->list_err says why).
 */
static size_t o_hook(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                     struct o_result *r)
{
    size_t plen;
    int rc = frd__worker_path2(w, node, &plen);
    if (rc == 0) {
        frd_os_fd pfd;
        int how = frd__parent_fd_get(w, node, fd, &pfd);
        // The hooks' own states: the visits' are the consumer's, which may be setting them
        // right now. The parent's hook ran on its listing, before this node was queued.
        struct frd_walk_entry dir =
            frd__wnode_walk_entry_stateless(node, w->path2, plen, pfd, frd__slot(w));
        dir.parent_state = node->parent != NULL ? node->parent->hook_state : NULL;
        dir.dir_state = &node->hook_state;
        rc = frd__children_run(w, node, &dir, fd);
        frd__parent_fd_put(w, node, how, pfd);
    }
    if (rc < 0) {
        r->list_err = rc;
        r->list_op = FRD__FAIL_ALLOC;
        w->kids.count = 0;
    }
    return w->kids.count;
}

/**
 * Makes the items of w's listing of `node` (open as fd): `count` entries, in `order` (keys
 * of the sort), or the hook's survivors (`kids`), or as listed; their names copied into the
 * result. Sets the result's count and the directory's totals.
 */
static void o_items(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                    enum frd__vol_class cls, struct o_result *r, const struct o_key *order,
                    bool kids, size_t count)
{
    const struct frd_entry *v = frd_list_entries(w->list);
    size_t names = 0;
    for (size_t i = 0; i < count; i++) {
        names += (kids ? v[w->kids.order[i]] : v[i]).name_len + 1; // any order: a sum
    }
    // Items name their entries by 32-bit offsets: a listing of more than 4 GiB of names (a
    // children hook's whole directory, never a batch) is refused as if memory ran out.
    if (names > UINT32_MAX || frd__ores_reserve(w->walk->ordered, r, count, names) < 0) {
        r->list_err = FRD_ENOMEM;
        r->list_op = FRD__FAIL_ALLOC;
        count = 0;
    }
    frd__o_label_bits(node, count);
    bool keep = false;
    uint64_t bytes = 0;
    size_t n = 0; // items made: an entry that vanished before its stat is left out
    for (size_t i = 0; i < count; i++) {
        struct frd_entry kst;
        bool no_descent;
        const struct frd_entry *e = order != NULL
                                        ? (no_descent = false, &v[order[i].index])
                                        : frd__dir_entry_at(w, kids, v, i, fd, &kst, &no_descent);
        if (e == NULL) {
            continue; // removed since the listing: left out, as a listing leaves it out
        }
        FRD_ASSERT(n < r->items_cap && r->names_len + e->name_len < r->names_cap);
        struct o_item *it = &r->items[n++];
        bytes += e->size;
        it->name_off = (uint32_t)r->names_len;
        memcpy(r->names + r->names_len, e->name, e->name_len + 1);
        r->names_len += e->name_len + 1;
        frd__o_item_fill(w, node, fd, cls, e, no_descent, n - 1, &keep, it, &r->fulls[n - 1]);
    }
    r->count = n;
    r->window_cost = n;
    node->totals.entries = n;
    node->totals.bytes = bytes;
}

/**
 * Lets go of the listing's descriptor. The consumer's frame keeps it (parent_fd of its
 * visits) while at most half the budget is in use: the rest stays for children to open
 * relative to their parents, so that a tree deeper than the budget never has to be reopened
 * along its path. Callbacks that make no *at() call need none: the directory is closed here,
 * on the thread that listed it, as soon as its subdirectories are open.
 */
static void o_listing_fd_done(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                              struct o_result *r)
{
    struct frd_walk *walk = w->walk;
    if (walk->opts.flags & FRD_WALK_NO_PARENT_FD) {
        // Nothing to keep or reopen.
    } else if (atomic_load_explicit(&walk->open_fds, memory_order_relaxed) <
               walk->plan.keep_limit / 2) {
        atomic_fetch_add(&node->fd_refs, 1);
        r->has_fd = true;
    } else if (!(node->flags & WN_HAS_ID) && frd__plat_fd_identity(fd, &node->id) == 0) {
        // The consumer will reopen it for its callbacks: record what it must find there.
        node->flags |= WN_HAS_ID;
        frd__deep_dirs_add(&walk->ids.deep, node);
    }
    frd__fd_release(walk, node);
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
    if (!o_open(w, node, r, &fd, &cls)) {
        return;
    }
    bool kids = walk->plan.children;
    // In the directory's own order, the listing is read whole, as with the hook: the large
    // listing's runs and merges exist to sort it.
    bool as_listed = (walk->opts.flags & FRD_WALK_LISTING_ORDER) != 0;
    int rc;
    if (kids || as_listed) {
        frd_list_clear(w->list);
        rc = frd_lister_list_fd(w->lister, w->list, fd, NULL);
    } else {
        rc = frd__o_read(w, node, fd, cls, r);
    }
    if (rc < 0) {
        r->list_err = rc;
        r->list_op =
            rc == FRD_ENOMEM && r->lg != NULL ? FRD__FAIL_ALLOC : frd__list_failure(w->lister);
    }
    r->listed = true;
    atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
    if (r->lg != NULL) {
        // Items come by chunks; the listing's descriptor ref stays for them (and is the
        // frame's parent_fd for its visits).
        r->count = r->lg->nrecs;
        frd__o_label_bits(node, r->count);
        r->window_cost = O_CHUNK;
        r->has_fd = true;
        node->totals.entries = 0; // the consumer adds up the chunks
        node->totals.bytes = 0;
        return;
    }
    size_t count = frd_list_count(w->list);
    const struct o_key *order =
        kids || as_listed ? NULL : frd__o_sort_order(w, frd_list_entries(w->list), count);
    if (order == NULL && !as_listed) {
        frd_list_sort(w->list);
    }
    if (kids) {
        count = o_hook(w, node, fd, r);
    }
    o_items(w, node, fd, cls, r, order, kids, count);
    o_listing_fd_done(w, node, fd, r);
}

/**
 * Takes the next listing task allowed now and does it: called with mu held, returns with it
 * held (dropped while listing). Used by the workers and by the consumer while it waits.
 * @return true if it did something (listed a directory or dropped a pruned one), false if
 * there is nothing it may take now.
 */
bool frd__o_work_one(struct frd__worker *w, struct frd__ordered *o)
{
    struct frd_walk *walk = w->walk;
    // The chunks of the large listings the consumer is in come first: it needs them before
    // anything listed below them, and they are bounded by their slots.
    for (struct o_large *lg = o->large; lg != NULL; lg = lg->next) {
        if (frd__o_chunk_take(w, o, lg)) {
            return true;
        }
    }
    // Then the runs of a large listing being read: sorted and merged while it is.
    if (frd__o_run_task(o)) {
        return true;
    }
    // Past the read-ahead cap only the awaited node may be listed; a pruned node at the top
    // is dropped whatever the cap, so that it never hides the awaited one below it. The
    // consumer lists read-ahead only while the listing it awaits is in flight (else it lists
    // that one): it may go up to twice the cap in results then, where it would sleep (a large
    // directory in flight on a worker, with the window full of what comes after it, kept it
    // asleep 7 ms a walk of /usr).
    bool full = w == walk->consumer
                    ? o->window >= 2 * o->window_max || o->window_entries >= O_WINDOW_ENTRIES
                    : frd__o_window_full(o);
    if (o->heap_n == 0 ||
        (full && o->heap[0].node != o->awaited && !frd__o_chain_pruned(o, o->heap[0].node))) {
        return false;
    }
    struct frd__wnode *node = frd__oheap_pop(o);
    if (frd__o_chain_pruned(o, node)) {
        // Below a directory the consumer skipped: nothing to list.
        frd__o_drop_task(w, node);
        return true;
    }
    struct o_result *r = frd__ores_get(o);
    if (r == NULL) {
        if (frd__oheap_push(o, node) < 0) { // back, so the final drain frees it
            frd__o_drop_task(w, node);
        }
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

    frd__o_lock(o);
    if (r->lg == NULL) {
        frd__o_push_children(w, o, r->items, r->count, &r->list_err, &r->list_op);
    }
    FRD_ASSERT(r->state == O_INFLIGHT && r->node == node && node->result == NULL);
    r->state = O_READY;
    o->window_entries += r->window_cost;
    node->result = r;
    if (node == o->awaited && o->consumer_waits) {
        uv_cond_signal(&o->ready_cond);
    }
    return true;
}

void frd__ordered_worker_run(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    struct frd__ordered *o = walk->ordered;
    uv_mutex_lock(&o->mu);
    for (;;) {
        if (o->consumer_done || frd__walk_stopping(walk)) {
            break;
        }
        if (!frd__o_work_one(w, o)) {
            o->idle++;
            uv_cond_wait(&o->work_cond, &o->mu);
            o->idle--;
        }
    }
    uv_mutex_unlock(&o->mu);
}
