// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode: each worker lists a directory and calls back for its entries itself.
 *
 * One directory task, on a worker:
 *
 *   open     openat(parent fd, name, O_NOFOLLOW | O_DIRECTORY), the parent's descriptor
 *            borrowed through its refcount; if the parent's descriptor was not kept (the
 *            descriptor budget), reopen along the ancestors (walker/open.c)
 *   list     into the worker's list with the worker's lister (no allocation once grown)
 *   visit    each entry: path = directory path + "/" + name in the worker's path buffer;
 *            links followed (FRD_FOLLOW_ALL) are stat'ed and checked against the ancestor
 *            chain (walker/resolve.c); then the callback, then a child node for a directory
 *            to descend
 *   release  the task's own descriptor ref and node ref; the last ref of a node runs the
 *            post-order hook and frees it into the worker's free list
 */
#include "walker.h"

#include <stddef.h>
#include <string.h>

/** Batches of one directory out at once per other worker (read ahead, not yet visited). */
#define WN_BATCHES_PER_WORKER 2

/** At most this many spare batches are kept for reuse. */
#define WN_BATCHES_SPARE 64

/** Takes a spare batch (its list empty) or makes one. @return it, or NULL (no memory). */
static struct frd__batch *wn_batch_take(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    uv_mutex_lock(&walk->batches.lock);
    struct frd__batch *b = walk->batches.free;
    if (b != NULL) {
        walk->batches.free = b->next;
        walk->batches.nfree--;
    }
    uv_mutex_unlock(&walk->batches.lock);
    if (b != NULL) {
        return b;
    }
    b = frd__calloc(1, sizeof(*b));
    if (b == NULL || frd_list_new(&b->list) < 0) {
        frd__free(b);
        return NULL;
    }
    w->allocations++;
    return b;
}

/** Gives a batch back for reuse (or frees it beyond the spares kept). */
static void wn_batch_put(struct frd_walk *walk, struct frd__batch *b)
{
    frd_list_clear(b->list);
    b->hooked = false;
    uv_mutex_lock(&walk->batches.lock);
    bool keep = walk->batches.nfree < WN_BATCHES_SPARE;
    if (keep) {
        b->next = walk->batches.free;
        walk->batches.free = b;
        walk->batches.nfree++;
    }
    uv_mutex_unlock(&walk->batches.lock);
    if (!keep) {
        frd_list_free(b->list);
        frd__children_view_free(&b->kids);
        frd__free(b);
    }
}

void frd__batches_free(struct frd_walk *walk)
{
    struct frd__batch *b = walk->batches.free;
    while (b != NULL) {
        struct frd__batch *next = b->next;
        frd_list_free(b->list);
        frd__children_view_free(&b->kids);
        frd__free(b);
        b = next;
    }
    walk->batches.free = NULL;
    walk->batches.nfree = 0;
}

/**
 * Visits `count` entries of a listing of `node` (open as `fd`; its path in w->path, length
 * dir_len): the listing's own entries `v`, or with the children hook the survivors in its
 * view `kids` (the worker's or a batch's; NULL without the hook); with `late_stat`, entries
 * listed by name and type are stat'ed first.
 * Adds their sizes to *bytes. @return false when the walk stops.
 */
static bool wn_visit_entries(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                             size_t dir_len, enum frd__vol_class cls, const struct frd_entry *v,
                             size_t count, const struct frd_walk_children *kids, bool late_stat,
                             uint64_t *bytes)
{
    struct frd_walk *walk = w->walk;
    size_t sep = frd__path_sep(w->path, dir_len);
    unsigned depth = node->depth + 1;
    unsigned slot = frd__slot_hold(w); // reports and visits below, under one (sched/width.c)
    for (size_t i = 0; i < count; i++) {
        struct frd_entry kst;
        bool no_descent = false;
        const struct frd_entry *e;
        if (late_stat) {
            e = frd__entry_stat_late(walk, &v[i], fd, &kst) ? &kst : NULL;
        } else if (kids != NULL) {
            e = frd__children_entry_in(walk, kids, i, fd, &kst, &no_descent) ? &kst : NULL;
        } else {
            e = &v[i];
        }
        if (e == NULL) {
            continue; // removed since the listing: left out, as a listing leaves it out
        }
        *bytes += e->size;
        if ((walk->opts.flags & FRD_WALK_SKIP_HIDDEN) && e->name[0] == '.') {
            continue;
        }
        if (frd__grow(w, &w->path, &w->path_cap, dir_len + sep + e->name_len + 1) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, w);
            return false;
        }
        char *p = w->path + dir_len;
        if (sep) {
            *p++ = '/';
        }
        memcpy(p, e->name, e->name_len + 1);
        size_t path_len = dir_len + sep + e->name_len;
        if (e->error < 0 && !frd__report(w, w->path, FRD__FAIL_STAT, e->error, depth)) {
            return false;
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
                return false;
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
            .parent_fd = walk->opts.flags & FRD_WALK_NO_PARENT_FD ? FRD_INVALID_FD : fd,
            .is_root = false,
            .followed_link = r.followed,
            .persistent_ids = r.persistent && !walk->plan.names_only,
            .root_index = node->root_index,
            .worker = slot,
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
                return false;
            }
            continue;
        }
        struct frd__wnode *c = frd__child_node(w, node, &r);
        if (c == NULL) {
            frd__state_free(walk, state);
            if (!frd__report(w, w->path, FRD__FAIL_ALLOC, FRD_ENOMEM, depth)) {
                return false;
            }
            continue;
        }
        c->state = state;
        if (frd__keep_fd(w, node, fd)) {
            atomic_fetch_add(&node->fd_refs, 1);
            c->flags |= WN_HOLDS_PARENT_FD;
        }
        if (frd__sched_push(w->sw, c) < 0) {
            // No memory to queue it: the subtree cannot be walked. Say so and let it go.
            frd__report(w, "", FRD__FAIL_QUEUE, FRD_ENOMEM, c->depth);
            frd__wnode_drop(w, c);
        }
    }
    return !frd__walk_stopping(walk);
}

/**
 * Lets go of the ref on the parent's descriptor a directory was opened through, which it
 * held for its children hook (hook_pins_parent): before any child of it exists.
 */
static void wn_parent_fd_let_go(struct frd_walk *walk, struct frd__wnode *node)
{
    if (node->flags & WN_HOLDS_PARENT_FD) {
        node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
        frd__fd_release(walk, node->parent);
    }
}

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
    rc = frd__children_run(w, &dir, fd);
    frd__parent_fd_put(w, node, how, pfd);
    wn_parent_fd_let_go(walk, node);
    if (rc < 0) {
        frd__walk_stop(walk, rc, w);
        return;
    }
    size_t count = w->kids.count;
    uint64_t bytes = 0;
    if (!wn_visit_entries(w, node, fd, dir_len, cls, frd_list_entries(w->list), count, &w->kids,
                          false, &bytes)) {
        return;
    }
    node->totals.entries = count;
    node->totals.bytes = bytes;
}

/**
 * Hands a batch of a big directory to the other workers: a task node under the directory,
 * holding a ref on it and on its descriptor. @return false if it could not be queued (the
 * caller visits the batch itself).
 */
static bool wn_batch_push(struct frd__worker *w, struct frd__wnode *node, struct frd__batch *b)
{
    struct frd__wnode *t = frd__wnode_new(w, node, "", 0);
    if (t == NULL) {
        return false;
    }
    t->flags |= WN_BATCH | WN_HOLDS_PARENT_FD;
    t->result = b;
    atomic_fetch_add(&node->fd_refs, 1);
    atomic_fetch_add(&w->batches_out, 1);
    if (frd__sched_push(w->sw, t) < 0) {
        atomic_fetch_sub(&w->batches_out, 1);
        t->result = NULL;
        frd__wnode_drop(w, t);
        return false;
    }
    return true;
}

/** A batch task, on whichever worker took it: stat and visit its entries, then let go. */
static void wn_batch_run(struct frd__worker *w, struct frd__wnode *t)
{
    struct frd_walk *walk = w->walk;
    struct frd__batch *b = t->result;
    struct frd__wnode *dir = t->parent;
    size_t dir_len;
    if (!frd__walk_stopping(walk)) {
        if (frd__wnode_path(w, dir, &w->path, &w->path_cap, &dir_len) < 0) {
            frd__walk_stop(walk, FRD_ENOMEM, w);
        } else {
            uint64_t bytes = 0;
            size_t n = b->hooked ? b->kids.count : frd_list_count(b->list);
            wn_visit_entries(w, dir, dir->fd, dir_len, b->cls, frd_list_entries(b->list), n,
                             b->hooked ? &b->kids : NULL, b->late_stat, &bytes);
            atomic_fetch_add(&dir->batch_bytes, bytes);
        }
    }
    atomic_fetch_sub(&b->owner->batches_out, 1);
    wn_batch_put(walk, b);
    t->result = NULL;
    frd__wnode_drop(w, t); // releases the descriptor ref and the directory's ref
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
    int rc = frd_lister_batch_begin(lister, fd, NULL);
    while (rc >= 0) {
        struct frd__batch *b = NULL;
        struct frd_list *list = w->list;
        if (split) {
            if ((b = wn_batch_take(w)) == NULL) {
                frd__walk_stop(walk, FRD_ENOMEM, w);
                ok = false;
                break;
            }
            list = b->list;
        } else {
            frd_list_clear(list);
        }
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
            if (b != NULL) {
                wn_batch_put(walk, b);
            }
            break;
        }
        entries += n;
        if (b != NULL) {
            b->owner = w;
            b->cls = cls;
            b->late_stat = late_stat;
        }
        if (b == NULL || atomic_load(&w->batches_out) >= limit || !wn_batch_push(w, node, b)) {
            ok = wn_visit_entries(w, node, fd, dir_len, cls, frd_list_entries(list), n, NULL,
                                  b != NULL && late_stat, &bytes);
            if (b != NULL) {
                wn_batch_put(walk, b);
            }
        }
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
    int rc = frd__children_run_part(w, k, list, &dir, fd, part);
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
        if (rc > 0) {
            if ((next = wn_batch_take(w)) == NULL) {
                frd__walk_stop(walk, FRD_ENOMEM, w);
                ok = false;
                break;
            }
            rc_next = frd_lister_batch_read(lister, next->list);
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
        if (cur == NULL || atomic_load(&w->batches_out) >= limit || !wn_batch_push(w, node, cur)) {
            ok = wn_visit_entries(w, node, fd, dir_len, cls, frd_list_entries(list), k->count, k,
                                  false, &bytes);
            if (cur != NULL) {
                wn_batch_put(walk, cur);
            }
        }
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
        wn_batch_put(walk, cur);
    }
    if (next != NULL) {
        wn_batch_put(walk, next);
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

/** Lists an open directory and handles its entries (concurrent mode). */
static void wn_list_and_visit(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
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
    int rc = frd__wnode_open(w, node, &fd);
    if (rc < 0) {
        frd__report(w, w->path, FRD__FAIL_OPEN, rc, node->depth);
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
        frd__report(w, w->path, FRD__FAIL_OPEN, rc, node->depth);
        node->listed = true;
    }
    wn_parent_fd_let_go(walk, node); // held for a hook that did not run (no child exists)
    frd__fd_release(walk, node);
    frd__progress_tick(w);
    frd__wnode_release(w, node);
}
void frd__concurrent_root(struct frd__worker *w, struct frd__wnode *root)
{
    struct frd_walk *walk = w->walk;
    struct frd__root_start rs;
    switch (frd__root_begin(w, root, &rs)) {
    case FRD__ROOT_LIST:
        wn_list_and_visit(w, root, rs.fd, rs.dir_len, rs.cls);
        frd__fd_release(walk, root);
        break;
    case FRD__ROOT_UNREADABLE:
        root->listed = true; // an unreadable root is finished too (post-order hook)
        break;
    case FRD__ROOT_DONE:
        break;
    }
    frd__progress_tick(w);
    frd__wnode_release(w, root);
}

int frd__concurrent_seed(struct frd_walk *walk)
{
    // Roots go on worker 0's deque, the first on top, so they start in order.
    struct frd__worker *w0 = &walk->workers[0];
    for (size_t i = walk->nroots; i-- > 0;) {
        struct frd__wnode *root = frd__wnode_new(w0, NULL, walk->roots[i], strlen(walk->roots[i]));
        if (root != NULL) {
            root->flags |= WN_ROOT;
            root->ord = (uint32_t)i;
            root->root_index = (unsigned)i;
        }
        if (root == NULL || frd__sched_seed(walk->sched, root) < 0) {
            if (root != NULL) {
                frd__wnode_release(w0, root);
            }
            // Those queued go before the workers' slabs do.
            struct frd__wnode *n;
            while ((n = frd__sched_unseed(walk->sched)) != NULL) {
                frd__wnode_release(w0, n);
            }
            return FRD_ENOMEM;
        }
    }
    return 0;
}

void frd__worker_run(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    struct frd__wnode *node;
    while ((node = frd__sched_next(w->sw)) != NULL) {
        frd__sched_probe(w->sw);
        frd__slot_yield(w); // opening and listing may block (walker/pool.c)
        if (node->flags & WN_BATCH) {
            wn_batch_run(w, node); // also after a stop: it lets go of what it holds
        } else if (frd__walk_stopping(walk)) {
            frd__wnode_drop(w, node);
        } else if (node->flags & WN_ROOT) {
            frd__concurrent_root(w, node);
        } else {
            frd__concurrent_dir(w, node);
        }
        frd__sched_task_done(walk->sched);
    }
}
