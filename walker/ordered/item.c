// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's items (walker/ordered/item.h): an entry of a listing resolved into an
 * item (links, loops, a child node to descend into), and the child nodes of a listing
 * pushed onto the task heap.
 */
#include "item.h"

#include "heap.h"
#include "ordered_int.h"

/** Keeps a resolved entry in an item: the bare fields, or the whole entry in its full slot
 *  (more fields than an item holds, an identity, a link followed, an error, a long name). */
static void o_item_keep(struct o_item *it, struct o_full *full, const struct frd__resolved *res,
                        bool persistent)
{
    const struct frd_entry *e = res->entry;
    if ((e->fields & ~O_BARE_FIELDS) != 0 || res->has_id || res->followed || persistent ||
        e->error != 0 || e->name_len > UINT16_MAX) {
        full->entry = *e;
        full->id = res->id;
        full->has_id = res->has_id;
        full->followed = res->followed;
        full->persistent = persistent;
        it->flags |= O_IT_WHOLE;
        return;
    }
    it->name_len = (uint16_t)e->name_len;
    it->type = (uint8_t)e->type;
    it->file_id = e->file_id;
    it->flags |= ((e->fields & FRD_FIELD_TYPE) ? O_IT_TYPE : 0u) |
                 ((e->fields & FRD_FIELD_FILE_ID) ? O_IT_FILE_ID : 0u);
}

/** Records a failure to report at the item's visit (in its full slot). */
static void o_item_fail(struct o_item *it, struct o_full *full, int err, struct frd__failure op,
                        const struct frd__wnode *loop)
{
    full->err = err;
    full->err_op = op;
    full->loop = loop;
    it->flags |= O_IT_ERR;
}

void frd__o_item_fill(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                      enum frd__vol_class cls, const struct frd_entry *e, bool no_descent,
                      size_t ord, bool *keep, struct o_item *it, struct o_full *full)
{
    struct frd_walk *walk = w->walk;
    it->child = NULL;
    it->flags = 0;
    if ((walk->opts.flags & FRD_WALK_SKIP_HIDDEN) && e->name[0] == '.') {
        it->flags = O_IT_SKIP;
        return;
    }
    struct frd__resolved res;
    int how = frd__resolve_entry(w, node, fd, cls, e, false, &res);
    o_item_keep(it, full, &res, res.persistent && !walk->plan.names_only);
    if (res.err < 0) {
        o_item_fail(it, full, res.err, res.err_op, res.loop);
    } else if (e->error < 0) {
        o_item_fail(it, full, e->error, FRD__FAIL_STAT, NULL);
    }
    if (how == RESOLVE_SKIP) {
        it->flags |= O_IT_SKIP;
        return;
    }
    if (no_descent || !frd__may_descend(walk, node, &res)) {
        return;
    }
    struct frd__wnode *c = frd__child_node(w, node, &res);
    if (c == NULL) {
        o_item_fail(it, full, FRD_ENOMEM, FRD__FAIL_ALLOC, NULL);
        return;
    }
    c->ord = (uint32_t)ord;
    frd__o_label_child(node, c, ord);
    if (!*keep && !(node->flags & WN_KEEP_DECIDED)) {
        *keep = frd__keep_fd(w, node, fd);
    }
    if (*keep) {
        atomic_fetch_add(&node->fd_refs, 1);
        c->flags |= WN_HOLDS_PARENT_FD;
    }
    it->child = c;
}

void frd__o_push_children(struct frd__worker *w, struct frd__ordered *o, struct o_item *items,
                          size_t n, int *list_err, struct frd__failure *list_op)
{
    // The first subdirectory goes onto the heap, each of the others behind the one before
    // it (next_sib), pushed when that one is taken off: a smaller heap, a shorter hold of mu.
    struct frd__wnode *first = NULL;
    struct frd__wnode **link = &first;
    size_t pushed = 0;
    for (size_t i = 0; i < n; i++) {
        struct frd__wnode *c = items[i].child;
        if (c != NULL) {
            *link = c;
            link = &c->next_sib;
            pushed++;
        }
    }
    if (first != NULL && frd__oheap_push(o, first) < 0) {
        for (size_t i = 0; i < n; i++) {
            struct frd__wnode *c = items[i].child;
            if (c != NULL) {
                items[i].child = NULL;
                c->next_sib = NULL;
                frd__wnode_drop(w, c);
            }
        }
        *list_err = FRD_ENOMEM;
        *list_op = FRD__FAIL_QUEUE;
        return;
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
}
