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

/** Lists an open directory and handles its entries (concurrent mode). */
static void wn_list_and_visit(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
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
    size_t sep = frd__path_sep(w->path, dir_len);
    unsigned depth = node->depth + 1;
    uint64_t bytes = 0;
    for (size_t i = 0; i < count; i++) {
        struct frd_entry kst;
        bool no_descent;
        const struct frd_entry *e = frd__dir_entry_at(w, kids, v, i, fd, &kst, &no_descent);
        if (e == NULL) {
            continue; // removed since the listing: left out, as a listing leaves it out
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
        if (e->error < 0 && !frd__report(w, w->path, FRD__FAIL_STAT, e->error, depth)) {
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
            if (!frd__report(w, w->path, FRD__FAIL_ALLOC, FRD_ENOMEM, depth)) {
                return;
            }
            continue;
        }
        c->state = state;
        if (frd__keep_fd(w, node, fd)) {
            atomic_fetch_add(&node->fd_refs, 1);
            c->flags |= WN_HOLDS_PARENT_FD;
        }
        if (frd__pool_push(w, c) < 0) {
            // No memory to queue it: the subtree cannot be walked. Say so and let it go.
            frd__report(w, "", FRD__FAIL_QUEUE, FRD_ENOMEM, c->depth);
            frd__wnode_drop(w, c);
        }
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

void frd__worker_run(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    struct frd__wnode *node;
    while ((node = frd__pool_next(w)) != NULL) {
        if (atomic_load_explicit(&walk->stop, memory_order_relaxed)) {
            frd__wnode_drop(w, node);
        } else if (node->flags & WN_ROOT) {
            frd__concurrent_root(w, node);
        } else {
            frd__concurrent_dir(w, node);
        }
        frd__pool_task_done(walk);
    }
}
