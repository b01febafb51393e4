// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode: each worker lists a directory and calls back for its entries itself.
 *
 * One directory task, on a worker:
 *
 *   open     openat(parent fd, name, O_NOFOLLOW | O_DIRECTORY), the parent's descriptor
 *            borrowed through its refcount; if the parent's descriptor was not kept (the
 *            descriptor budget), reopen along the ancestors (walker/core/open.c)
 *   list     into the worker's list with the worker's lister (no allocation once grown);
 *            a names-only walk visits from the lister's kernel buffer, with no list
 *   visit    each entry: path = directory path + "/" + name in the worker's path buffer;
 *            links followed (FRD_FOLLOW_ALL) are stat'ed and checked against the ancestor
 *            chain (walker/core/resolve.c); then the callback, then a child node for a directory
 *            to descend
 *   release  the task's own descriptor ref and node ref; the last ref of a node runs the
 *            post-order hook and frees it into the worker's free list
 */
#include "concurrent.h"

#include "batch.h"
#include "list.h"
#include "visit.h"

#include <string.h>

/** A directory task: open, list and visit it, then let go of it. */
static void cc_dir(struct frd__worker *w, struct frd__wnode *node)
{
    struct frd_walk *walk = w->walk;
    size_t dir_len;
    if (frd__worker_dir_path(w, node, &dir_len) < 0) {
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
        frd__cc_list_and_visit(w, node, fd, dir_len, cls);
    } else if (rc != FRD_EXDEV) {
        // Another file system (EXDEV) is visited and not descended into: no post-order call.
        frd__report(w, w->path, FRD__FAIL_OPEN, rc, node->depth);
        node->listed = true;
    }
    frd__cc_parent_fd_let_go(walk, node); // held for a hook that did not run (no child exists)
    frd__fd_release(walk, node);
    frd__progress_tick(w);
    frd__wnode_release(w, node);
}

/** A root task: stat, open and visit it, then list it as a directory task does. */
static void cc_root(struct frd__worker *w, struct frd__wnode *root)
{
    struct frd_walk *walk = w->walk;
    struct frd__root_start rs;
    switch (frd__root_begin(w, root, &rs)) {
    case FRD__ROOT_LIST:
        frd__cc_list_and_visit(w, root, rs.fd, rs.dir_len, rs.cls);
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

/** Lets go of the roots still queued on worker 0's deque: a set-up that failed, or a walk
 *  whose threads could not start (none when the walk ran). Before the workers' slabs go. */
static void cc_unseed(struct frd_walk *walk)
{
    struct frd__wnode *n;
    while ((n = frd__sched_unseed(walk->sched)) != NULL) {
        frd__wnode_release(&walk->workers[0], n);
    }
}

/** Queues the roots on worker 0's deque, the first on top. @return 0 or FRD_ENOMEM (none
 *  queued). */
static int cc_seed(struct frd_walk *walk)
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
            cc_unseed(walk);
            return FRD_ENOMEM;
        }
    }
    return 0;
}

int frd__concurrent_init(struct frd_walk *walk)
{
    struct frd__concurrent *cc = frd__calloc(1, sizeof(*cc));
    if (cc == NULL) {
        return FRD_ENOMEM;
    }
    if (uv_mutex_init(&cc->lock) != 0) {
        frd__free(cc);
        return FRD_ENOMEM;
    }
    walk->concurrent = cc;
    return cc_seed(walk);
}

void frd__concurrent_free(struct frd_walk *walk)
{
    struct frd__concurrent *cc = walk->concurrent;
    if (cc == NULL) {
        return;
    }
    cc_unseed(walk);
    frd__batches_free(cc);
    uv_mutex_destroy(&cc->lock);
    frd__free(cc);
    walk->concurrent = NULL;
}

void frd__concurrent_run(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    struct frd__wnode *node;
    while ((node = frd__sched_next(w->sw)) != NULL) {
        frd__sched_probe(w->sw);
        frd__slot_yield(w); // opening and listing may block (walker/sched/width.c)
        if (node->flags & WN_BATCH) {
            frd__batch_run(w, node); // also after a stop: it lets go of what it holds
        } else if (frd__walk_stopping(walk)) {
            frd__wnode_drop(w, node);
        } else if (node->flags & WN_ROOT) {
            cc_root(w, node);
        } else {
            cc_dir(w, node);
        }
        frd__sched_task_done(walk->sched);
    }
}
