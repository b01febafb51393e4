// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A worker's own state: its lister, lists and buffers, set up and freed with the walk. */
#include "worker.h"

#include "node.h"

int frd__worker_init(struct frd_walk *walk, struct frd__worker *w, struct frd__sched_worker *sw)
{
    w->walk = walk;
    w->sw = sw;
    w->stop = frd__sched_stop_flag(walk->sched);
    frd__sched_bind(sw, w);
    w->last_class = -1;
    atomic_init(&w->batches_out, 0);
    int rc;
    if ((rc = frd_lister_new(&w->lister, walk->plan.lister_flags)) < 0 ||
        (rc = frd_lister_set_fields(w->lister, walk->plan.list_fields)) < 0 ||
        (rc = frd_list_new(&w->list)) < 0) {
        return rc;
    }
    if (walk->collect.on && (rc = frd_list_new(&w->collect)) < 0) {
        return rc;
    }
    return 0;
}

void frd__worker_free(struct frd__worker *w)
{
    frd_lister_free(w->lister);
    frd_list_free(w->list);
    frd_list_free(w->collect);
    frd__free(w->path);
    frd__free(w->names);
    frd__free(w->path_memo.levels);
    frd__free(w->path2_memo.levels);
    frd__free(w->path_chain);
    frd__free(w->path2);
    frd__free(w->chain);
    frd__free(w->canon);
    frd__free(w->link);
    frd__free(w->xattr.names);
    frd__free(w->xattr.values);
    frd__free(w->xattr.items);
    frd__children_view_free(&w->kids);
    frd__node_cache_free(&w->nodes);
}
