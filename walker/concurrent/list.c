// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode's listings (walker/concurrent/list.h): a directory read batch by batch
 * (a big one's later batches handed to idle workers), or whole through the children hook,
 * or batch by batch through a hook that takes parts; its entries visited as they come.
 */
#include "list.h"

#include "batch.h"
#include "visit.h"

/** Batches of one directory out at once per other worker (read ahead, not yet visited). */
#define WN_BATCHES_PER_WORKER 2
/** Kernel buffers of a names-only listing visited in place before the rest may be shared
 *  out: its entries cost little to visit, and each list a batch takes is pages to fault in.
 *  Past these, the rest is shared out from the first buffer read while a worker waits for
 *  work (frd__sched_idle()); while every worker has some, the listing stays in place. */
#define WN_IN_PLACE_BUFFERS 2

/** Lists a directory whole, runs the children hook, visits the survivors. */
static void wn_list_hooked(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                           size_t dir_len, enum frd__vol_class cls)
{
    struct frd_walk *walk = w->walk;
    frd_list_clear(w->list);
    int rc = frd_lister_list_fd(w->lister, w->list, fd, NULL);
    if (rc < 0) {
        if (!frd__report(w, w->path, frd__list_failure(w->lister), rc, node->depth)) {
            return;
        }
    }
    node->listed = true;
    atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
    // The children hook sees the listing before anything in it is stat'ed or visited.
    frd_os_fd pfd;
    int how = frd__parent_fd_get(w, node, fd, &pfd);
    unsigned slot = frd__slot_hold(w); // the hook and the visits after it, under one slot
    struct frd_walk_entry dir = frd__wnode_walk_entry(node, w->path, dir_len, pfd, slot);
    rc = frd__children_run(w, node, &dir, fd);
    frd__parent_fd_put(w, node, how, pfd);
    frd__cc_parent_fd_let_go(walk, node);
    if (rc < 0) {
        frd__walk_stop(walk, rc, w);
        return;
    }
    size_t count = w->kids.count;
    uint64_t bytes = 0;
    if (!frd__cc_visit_entries(w, node, fd, dir_len, cls, frd_list_entries(w->list), count,
                               &w->kids, false, &bytes)) {
        return;
    }
    node->totals.entries = count;
    node->totals.bytes = bytes;
}

/**
 * Hands a batch `b` of node's listing to an idle worker while fewer than `limit` are out,
 * or visits it here (the first, b NULL: w's own list, always here; cls: the directory's
 * volume class): `n` entries of `list`,
 * through the hook's view `kids` if it ran. A batch visited here goes back to the spares.
 * Adds the sizes visited here to *bytes. @return false when the walk stops.
 */
static bool wn_hand_or_visit(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                             size_t dir_len, enum frd__vol_class cls, struct frd__batch *b,
                             const struct frd_list *list, size_t n,
                             const struct frd_walk_children *kids, unsigned limit, uint64_t *bytes)
{
    if (b != NULL && atomic_load(&w->batches_out) < limit && frd__batch_push(w, node, b)) {
        return true;
    }
    bool ok = frd__cc_visit_entries(w, node, fd, dir_len, cls, frd_list_entries(list), n, kids,
                                    b != NULL && b->late_stat, bytes);
    if (b != NULL) {
        frd__batch_put(w->walk, b);
    }
    return ok;
}

/** Reads the next batch of the listing in hand into a spare (*next): *rc the read's result.
 *  @return false when no batch could be had (the walk is stopped). */
static bool wn_read_ahead(struct frd__worker *w, struct frd__batch **next, int *rc)
{
    if ((*next = frd__batch_take(w)) == NULL) {
        frd__walk_stop(w->walk, FRD_ENOMEM, w);
        return false;
    }
    *rc = frd_lister_batch_read(w->lister, (*next)->list);
    return true;
}

/**
 * Reads a names-only listing in place and visits its entries straight from the kernel's
 * buffers (frd__plat_names_read(), frd__cc_visit_in_place()): no list, no name copy. With
 * more than one worker, the first WN_IN_PLACE_BUFFERS buffers, and more while no worker
 * waits for work: a directory with more is a big one, whose later batches wn_list_batches()
 * reads into lists to share out. A malformed record is reported after the entries before it
 * in its buffer were visited. Adds the entries met to *entries; *ok false when the walk
 * stops or the failure's report says so.
 * @return 1 when the listing is done (to its end, or failed), 0 when the caller lists on in
 * batches, FRD_ENOTSUP when the backend cannot read in place (nothing was read).
 */
static int wn_list_in_place(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                            size_t dir_len, enum frd__vol_class cls, unsigned width,
                            uint64_t *entries, bool *ok)
{
    struct frd__names_cursor cur;
    struct frd__failure op;
    unsigned buffers = 0;
    for (bool first = true;; first = false) {
        if (!first) {
            frd__slot_yield(w); // the next read may block: a widened pool's slot goes back
        }
        int rc = frd__plat_names_read(w->lister, &cur, &op);
        if (rc == FRD_ENOTSUP && first) {
            return FRD_ENOTSUP;
        }
        if (rc < 0) {
            w->path[dir_len] = '\0';
            *ok = frd__report(w, w->path, op, rc, node->depth);
        }
        if (first && *ok) {
            node->listed = true;
            atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
        }
        if (rc <= 0 || !*ok) {
            return 1;
        }
        rc = frd__cc_visit_in_place(w, node, fd, dir_len, cls, &cur, entries, &op);
        if (rc < 0) {
            w->path[dir_len] = '\0';
            *ok = frd__report(w, w->path, op, rc, node->depth);
            return 1;
        }
        if (rc == 0) {
            *ok = false;
            return 1;
        }
        if (width > 1 && ++buffers >= WN_IN_PLACE_BUFFERS && frd__sched_idle(w->walk->sched)) {
            return 0;
        }
    }
}

/**
 * Lists an open directory batch by batch and handles its entries (concurrent mode, no
 * children hook): memory is bounded by the batches in flight, not by the directory. The
 * first batch is stat'ed as it is read and visited here: a directory that fits one kernel
 * buffer (most do) is listed and visited by one worker as before, with no hand-off. A second
 * batch shows a big directory: the later ones are read by what the records give (name and
 * type) and pushed on this worker's deque, where idle workers steal them to stat and visit
 * while this one reads on; with too many out already (or one worker), it visits one itself.
 */
static void wn_list_batches(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                            size_t dir_len, enum frd__vol_class cls)
{
    struct frd_walk *walk = w->walk;
    struct frd_lister *lister = w->lister;
    unsigned width = frd__sched_width(walk->sched);
    unsigned limit = (width - 1) * WN_BATCHES_PER_WORKER;
    unsigned record = walk->plan.list_fields & frd__plat_record_fields;
    bool late_stat = !walk->plan.names_only && record != walk->plan.list_fields;
    uint64_t entries = 0;
    uint64_t bytes = 0;
    bool first = true;
    bool split = false; // later batches go to the deque, listed by what the records give
    bool ok = true;
    bool done = false;
    int rc = frd_lister_batch_begin(lister, fd, NULL);
    if (rc >= 0 && walk->plan.names_only) {
        int how = wn_list_in_place(w, node, fd, dir_len, cls, width, &entries, &ok);
        if (how == 1) {
            done = true; // read to its end (or failed) in place
            first = false;
        } else if (how == 0) {
            first = false; // a big directory: its later batches are shared out as below
            split = true;
            frd__keep_fd(w, node, fd);
        }
    }
    while (rc >= 0 && ok && !done) {
        struct frd__batch *b = NULL;
        struct frd_list *list = w->list; // read here; a batch to hand off takes it after
        frd_list_clear(list);
        if (!first) {
            frd__slot_yield(w); // the next read may block: a widened pool's slot goes back
        }
        rc = frd_lister_batch_read(lister, list);
        if (rc < 0) {
            // Reported before the entries read ahead of the failure are visited.
            w->path[dir_len] = '\0';
            ok = frd__report(w, w->path, frd__list_failure(lister), rc, node->depth);
        }
        if (first && ok) {
            node->listed = true;
            atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
        }
        first = false;
        size_t n = frd_list_count(list);
        if (!ok || n == 0) {
            break; // (most directories: the read after the first batch finds the end)
        }
        entries += n;
        if (split) {
            // A batch for the deque, taken once there are entries for it: they trade lists
            // with the worker, so no spare is taken and given back at a directory's end.
            if ((b = frd__batch_take(w)) == NULL) {
                frd__walk_stop(walk, FRD_ENOMEM, w);
                ok = false;
                break;
            }
            w->list = b->list;
            b->list = list;
            b->owner = w;
            b->cls = cls;
            b->late_stat = late_stat;
            b->hooked = false;
        }
        ok = wn_hand_or_visit(w, node, fd, dir_len, cls, b, list, n, NULL, limit, &bytes);
        if (!ok || rc < 0 || frd__walk_stopping(walk)) {
            break;
        }
        if (!split && width > 1) {
            // More than one batch: a big directory. Spread its stats and visits.
            split = true;
            frd_lister_set_fields(lister,
                                  late_stat ? record | FRD_FIELD_TYPE : walk->plan.list_fields);
            frd__keep_fd(w, node, fd); // decided once, before any other worker sees the node
        }
    }
    if (rc < 0 && first) {
        // The name copy failed (no memory): nothing was read.
        w->path[dir_len] = '\0';
        ok = frd__report(w, w->path, FRD__FAIL_ALLOC, rc, node->depth);
    }
    if (split) {
        frd_lister_set_fields(lister, walk->plan.list_fields);
    }
    frd_lister_batch_end(lister);
    if (!ok || frd__walk_stopping(walk)) {
        return;
    }
    node->totals.entries = entries;
    node->totals.bytes = bytes;
}

/**
 * Runs the children hook over one part of node's listing (`list`, through the view `k`).
 * @return 0, or FRD_ENOMEM (then the walk is stopped).
 */
static int wn_hook_part(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                        size_t dir_len, struct frd_walk_children *k, const struct frd_list *list,
                        unsigned part)
{
    frd_os_fd pfd;
    w->path[dir_len] = '\0';
    int how = frd__parent_fd_get(w, node, fd, &pfd);
    unsigned slot = frd__slot_hold(w); // a widened pool's worker gave it back before the read
    struct frd_walk_entry dir = frd__wnode_walk_entry(node, w->path, dir_len, pfd, slot);
    int rc = frd__children_run_part(w, node, k, list, &dir, fd, part);
    frd__parent_fd_put(w, node, how, pfd);
    if (rc < 0) {
        frd__walk_stop(w->walk, rc, w);
    }
    return rc;
}

/**
 * Lists an open directory batch by batch through a children hook that takes parts
 * (FRD_WALK_CHILDREN_PARTS): each batch goes through the hook here, on the worker listing
 * the directory, in listing order, before any of its entries is stat'ed; the survivors of
 * the first batch are visited here (a directory that fits one batch: one hook call, no
 * hand-off), those of later ones are pushed for idle workers to stat and visit as
 * wn_list_batches() does. Memory is bounded by the batches in flight. The batch after the
 * one in hand is read before the hook sees it, so that the hook knows the last part. The
 * ref on the parent's descriptor the directory was opened through is held to the last part,
 * so that every call has its parent_fd at hand.
 */
static void wn_list_hooked_parts(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                                 size_t dir_len, enum frd__vol_class cls)
{
    struct frd_walk *walk = w->walk;
    struct frd_lister *lister = w->lister;
    unsigned limit = (walk->plan.sched.nworkers - 1) * WN_BATCHES_PER_WORKER;
    uint64_t entries = 0;
    uint64_t bytes = 0;
    bool ok = true;
    bool split = false;
    struct frd__batch *cur = NULL; // the part in hand; NULL: the first, in w->list
    struct frd__batch *next = NULL;
    unsigned part = FRD_CHILDREN_FIRST;
    // The flag goes now, while no child exists (children read their parent's flags); the
    // ref it stands for is released at the end.
    bool pinned = (node->flags & WN_HOLDS_PARENT_FD) != 0;
    node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
    frd_list_clear(w->list);
    int rc = frd_lister_batch_begin(lister, fd, NULL);
    if (rc < 0) {
        // The name copy failed (no memory): nothing was read.
        w->path[dir_len] = '\0';
        frd__report(w, w->path, FRD__FAIL_ALLOC, rc, node->depth);
        ok = false;
    } else {
        rc = frd_lister_batch_read(lister, w->list);
    }
    while (ok) {
        struct frd_list *list = cur != NULL ? cur->list : w->list;
        if (rc < 0) {
            // Reported before the entries read ahead of the failure are visited.
            w->path[dir_len] = '\0';
            ok = frd__report(w, w->path, frd__list_failure(lister), rc, node->depth);
        }
        if ((part & FRD_CHILDREN_FIRST) && ok) {
            node->listed = true;
            atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
        }
        if (!ok || frd__walk_stopping(walk)) {
            break;
        }
        // Read ahead: the hook is told whether a part follows.
        int rc_next = 0;
        if (rc > 0 && !wn_read_ahead(w, &next, &rc_next)) {
            ok = false;
            break;
        }
        bool more = next != NULL && frd_list_count(next->list) > 0;
        if (!more) {
            part |= FRD_CHILDREN_LAST;
        }
        struct frd_walk_children *k = cur != NULL ? &cur->kids : &w->kids;
        if (wn_hook_part(w, node, fd, dir_len, k, list, part) < 0) {
            ok = false;
            break;
        }
        entries += k->count;
        if (cur != NULL) {
            cur->owner = w;
            cur->cls = cls;
            cur->late_stat = false;
            cur->hooked = true;
        }
        ok = wn_hand_or_visit(w, node, fd, dir_len, cls, cur, list, k->count, k, limit, &bytes);
        cur = NULL;
        if (!ok || frd__walk_stopping(walk)) {
            break;
        }
        if (!more) {
            if (rc_next < 0) {
                w->path[dir_len] = '\0';
                ok = frd__report(w, w->path, frd__list_failure(lister), rc_next, node->depth);
            }
            break;
        }
        if (!split && walk->plan.sched.nworkers > 1) {
            split = true;
            frd__keep_fd(w, node, fd); // decided once, before any other worker sees the node
        }
        cur = next;
        next = NULL;
        rc = rc_next;
        part = 0;
    }
    if (cur != NULL) {
        frd__batch_put(walk, cur);
    }
    if (next != NULL) {
        frd__batch_put(walk, next);
    }
    frd_lister_batch_end(lister);
    if (pinned) {
        frd__fd_release(walk, node->parent);
    }
    if (!ok || frd__walk_stopping(walk)) {
        return;
    }
    node->totals.entries = entries;
    node->totals.bytes = bytes;
}

void frd__cc_list_and_visit(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                            size_t dir_len, enum frd__vol_class cls)
{
    if (w->walk->plan.children_parts) {
        wn_list_hooked_parts(w, node, fd, dir_len, cls);
    } else if (w->walk->plan.children) {
        wn_list_hooked(w, node, fd, dir_len, cls);
    } else {
        wn_list_batches(w, node, fd, dir_len, cls);
    }
}
