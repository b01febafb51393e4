// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode's visits (walker/concurrent/visit.h): each entry of a listing, on the
 * worker that holds it, resolved, visited, and a child node pushed for each directory to
 * descend into.
 */
#include "visit.h"

#include <string.h>

/** The i-th entry to visit: the listing's own, or stat'ed late, or the hook's i-th
 *  survivor (*no_descent: marked not to be entered). @return it, or NULL if it vanished. */
static inline const struct frd_entry *cc_entry_at(struct frd_walk *walk, const struct frd_entry *v,
                                                  size_t i, frd_os_fd fd,
                                                  const struct frd_walk_children *kids,
                                                  bool late_stat, struct frd_entry *scratch,
                                                  bool *no_descent)
{
    if (late_stat) {
        return frd__entry_stat_late(walk, &v[i], fd, scratch) ? scratch : NULL;
    }
    if (kids != NULL) {
        return frd__children_entry_in(walk, kids, i, fd, scratch, no_descent) ? scratch : NULL;
    }
    return &v[i];
}

/** Reports what resolving an entry at w->path found (a loop: with the ancestor it repeats).
 *  @return false if the walk must stop. */
static bool cc_report_resolved(struct frd__worker *w, const struct frd__resolved *r, unsigned depth)
{
    const char *other = NULL;
    size_t olen;
    if (r->loop != NULL && frd__worker_path2(w, r->loop, &olen) == 0) {
        other = w->path2;
    }
    return frd__report_loop(w, w->path, r->err_op, r->err, depth, other);
}

/**
 * Queues the subdirectory `r` of `node` (open as fd) as a task, with the caller's state for
 * it, holding a ref on node's descriptor while the budget allows. @return false if the walk
 * must stop.
 */
static bool cc_descend(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                       const struct frd__resolved *r, void *state, unsigned depth)
{
    struct frd__wnode *c = frd__child_node(w, node, r);
    if (c == NULL) {
        frd__state_free(w->walk, state);
        return frd__report(w, w->path, FRD__FAIL_ALLOC, FRD_ENOMEM, depth);
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
    return true;
}

/** What the visits of one listing share: its directory. (The visit record is apart: its
 *  address goes to the callback, this one's stays here, in registers.) */
struct cc_visits {
    struct frd__worker *w;
    struct frd__wnode *node;
    frd_os_fd fd;
    size_t dir_len;
    size_t sep; /**< 1 when a '/' goes between the directory's path and a name */
    enum frd__vol_class cls;
};

/** Begins the visits of a listing of `node` (open as fd, its path in w->path, dir_len
 *  bytes): one callback slot held for the reports and visits that follow (sched/width.c),
 *  and the in-callback mark over them (sched/threads.c; cc_visits_end() lets both go), and
 *  what is the same in every visit record filled once, in *we. */
static FRD__ALWAYS_INLINE void cc_visits_begin(struct cc_visits *v, struct frd_walk_entry *we,
                                               struct frd__worker *w, struct frd__wnode *node,
                                               frd_os_fd fd, size_t dir_len,
                                               enum frd__vol_class cls)
{
    struct frd_walk *walk = w->walk;
    v->w = w;
    v->node = node;
    v->fd = fd;
    v->dir_len = dir_len;
    v->sep = frd__path_sep(w->path, dir_len);
    v->cls = cls;
    unsigned slot = frd__slot_hold(w);
    frd__cb_hold(w);
    *we = (struct frd_walk_entry){
        .depth = node->depth + 1,
        .parent_fd = walk->opts.flags & FRD_WALK_NO_PARENT_FD ? FRD_INVALID_FD : fd,
        .is_root = false,
        .root_index = node->root_index,
        .worker = slot,
        .parent_state = node->state,
    };
}

/** Ends the visits cc_visits_begin() began. */
static FRD__ALWAYS_INLINE void cc_visits_end(const struct cc_visits *v)
{
    frd__cb_unhold(v->w);
}

/** Visits one entry `e` of the listing (no_descent: the children hook marked it not to be
 *  entered), adding its size to *bytes. @return false if the walk must stop. */
static FRD__ALWAYS_INLINE bool cc_visit_one(const struct cc_visits *v, struct frd_walk_entry *we,
                                            const struct frd_entry *e, bool no_descent,
                                            uint64_t *bytes)
{
    struct frd__worker *w = v->w;
    struct frd_walk *walk = w->walk;
    struct frd__wnode *node = v->node;
    unsigned depth = we->depth;
    size_t dir_len = v->dir_len;
    *bytes += e->size;
    if ((walk->opts.flags & FRD_WALK_SKIP_HIDDEN) && e->name[0] == '.') {
        return true;
    }
    if (frd__grow(&w->path, &w->path_cap, dir_len + v->sep + e->name_len + 1) < 0) {
        frd__walk_stop(walk, FRD_ENOMEM, w);
        return false;
    }
    char *p = w->path + dir_len;
    if (v->sep) {
        *p++ = '/';
    }
    memcpy(p, e->name, e->name_len + 1);
    size_t path_len = dir_len + v->sep + e->name_len;
    if (e->error < 0 && !frd__report(w, w->path, FRD__FAIL_STAT, e->error, depth)) {
        return false;
    }
    struct frd__resolved r;
    int how = frd__resolve_entry(w, node, v->fd, v->cls, e, true, &r);
    if (r.err < 0 && !cc_report_resolved(w, &r, depth)) {
        return false;
    }
    if (how == RESOLVE_SKIP) {
        return true;
    }
    we->path = w->path; // (moves when it grows)
    we->path_len = path_len;
    we->entry = r.entry;
    we->followed_link = r.followed;
    we->persistent_ids = r.persistent && !walk->plan.names_only;
    void *state = NULL;
    we->dir_state = r.entry->type == FRD_TYPE_DIR ? &state : NULL;
    enum frd_action act = frd__visit(w, we);
    we->dir_state = NULL; // (pointed into this frame)
    if (act != FRD_ACTION_CONTINUE || no_descent || !frd__may_descend(walk, node, &r)) {
        if (state != NULL) {
            frd__state_free(walk, state); // not entered: released at once
        }
        return act != FRD_ACTION_STOP;
    }
    return cc_descend(w, node, v->fd, &r, state, depth);
}

/** The names hook's array grows by at least this many entries. */
enum { CC_NAMES_MIN = 256 };

/** Whether the visits of a listing at depth `depth` (its entries') may be plain: no hidden
 *  name skipped, nothing added to a visit (frd__visit_plain_ok()). */
static FRD__ALWAYS_INLINE bool cc_plain_listing(const struct frd_walk *walk, unsigned depth)
{
    return !(walk->opts.flags & FRD_WALK_SKIP_HIDDEN) && frd__visit_plain_ok(walk, depth);
}

/** Whether an entry of a names-only listing needs nothing but its visit: with its type
 *  alone (known) and no error, neither a directory nor a link the walk follows, so resolving
 *  it finds nothing (frd__resolve_entry() answers it without a look) and no child comes of
 *  it. */
static FRD__ALWAYS_INLINE bool cc_plain_entry(const struct frd_walk *walk,
                                              const struct frd_entry *e)
{
    return e->type != FRD_TYPE_DIR && e->type != FRD_TYPE_UNKNOWN && e->fields == FRD_FIELD_TYPE &&
           e->error >= 0 && !(e->type == FRD_TYPE_LNK && walk->opts.follow == FRD_FOLLOW_ALL);
}

/** cc_visit_one() of an entry cc_plain_entry() takes, in a listing whose visits are plain
 *  (no hidden name skipped, frd__visit_plain_ok()): its path, then its callback. @return
 *  false if the walk must stop. */
static FRD__ALWAYS_INLINE bool cc_visit_plain(const struct cc_visits *v, struct frd_walk_entry *we,
                                              const struct frd_entry *e)
{
    struct frd__worker *w = v->w;
    size_t dir_len = v->dir_len;
    if (frd__grow(&w->path, &w->path_cap, dir_len + v->sep + e->name_len + 1) < 0) {
        frd__walk_stop(w->walk, FRD_ENOMEM, w);
        return false;
    }
    char *p = w->path + dir_len;
    if (v->sep) {
        *p++ = '/';
    }
    memcpy(p, e->name, e->name_len + 1);
    we->path = w->path; // (moves when it grows)
    we->path_len = dir_len + v->sep + e->name_len;
    we->entry = e;
    we->followed_link = false;
    we->persistent_ids = false;
    FRD_ASSERT(we->dir_state == NULL);                 // (cleared after each visit of a directory)
    return frd__visit_plain(w, we) != FRD_ACTION_STOP; // (a prune: nothing to enter)
}

/** Adds an entry cc_plain_entry() takes to the names hook's run (the worker's array), *n
 *  long. @return false if the walk must stop (no memory). */
static FRD__ALWAYS_INLINE bool cc_names_add(struct frd__worker *w, size_t *n,
                                            const struct frd_entry *e)
{
    if (*n == w->names_cap && FRD__RESERVE(w->names, w->names_cap, *n + 1, CC_NAMES_MIN) < 0) {
        frd__walk_stop(w->walk, FRD_ENOMEM, w);
        return false;
    }
    FRD_ASSERT(e->name_len <= UINT32_MAX); // a name is at most a few hundred bytes
    w->names[(*n)++] = (struct frd_walk_name){e->name, (uint32_t)e->name_len, (uint8_t)e->type};
    return true;
}

/** Hands the names hook the n entries cc_names_add() gathered (none: no call), with the
 *  directory's path and what its visits share (*we). @return false if the walk must stop. */
static bool cc_names_flush(const struct cc_visits *v, const struct frd_walk_entry *we, size_t n)
{
    if (n == 0) {
        return true;
    }
    struct frd__worker *w = v->w;
    FRD_ASSERT(v->dir_len < w->path_cap); // the directory's path has room past it
    w->path[v->dir_len] = '\0';           // (visits in between wrote their names past it)
    struct frd_walk_names names = {
        .dir_path = w->path,
        .dir_path_len = v->dir_len,
        .names = w->names,
        .count = n,
        .depth = we->depth,
        .root_index = we->root_index,
        .worker = we->worker,
        .parent_fd = we->parent_fd,
        .parent_state = we->parent_state,
    };
    return frd__visit_names(w, &names) != FRD_ACTION_STOP;
}

bool frd__cc_visit_entries(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                           size_t dir_len, enum frd__vol_class cls, const struct frd_entry *v,
                           size_t count, const struct frd_walk_children *kids, bool late_stat,
                           uint64_t *bytes)
{
    struct frd_walk *walk = w->walk;
    struct cc_visits vs;
    struct frd_walk_entry we;
    cc_visits_begin(&vs, &we, w, node, fd, dir_len, cls);
    bool ok = true;
    // A names hook takes the entries that need no look (names-only walks: no late stat).
    const bool by_names = walk->opts.on_names != NULL && walk->plan.names_only && kids == NULL &&
                          !late_stat && cc_plain_listing(walk, we.depth);
    size_t named = 0;
    for (size_t i = 0; i < count && ok; i++) {
        struct frd_entry kst;
        bool no_descent = false;
        const struct frd_entry *e = cc_entry_at(walk, v, i, fd, kids, late_stat, &kst, &no_descent);
        if (e == NULL) {
            continue; // removed since the listing: left out, as a listing leaves it out
        }
        if (by_names && cc_plain_entry(walk, e)) {
            ok = cc_names_add(w, &named, e);
        } else {
            ok = cc_visit_one(&vs, &we, e, no_descent, bytes);
        }
    }
    if (ok) {
        ok = cc_names_flush(&vs, &we, named);
    }
    cc_visits_end(&vs);
    return ok && !frd__walk_stopping(walk);
}

int frd__cc_visit_in_place(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                           size_t dir_len, enum frd__vol_class cls, struct frd__names_cursor *cur,
                           uint64_t *count, struct frd__failure *op)
{
    struct cc_visits vs;
    struct frd_walk_entry we;
    cc_visits_begin(&vs, &we, w, node, fd, dir_len, cls);
    struct frd_entry e; // one record for the buffer (frd__plat_names_next())
    uint64_t bytes = 0; // (names only: no sizes)
    int rc;
    bool ok = true;
    // The entries that need no look take the plain way, or go to the names hook, in a run
    // the hook is handed at the end of this read (the names stay in the lister's buffer).
    const bool plain_ok = cc_plain_listing(w->walk, we.depth);
    const bool by_names = plain_ok && w->walk->opts.on_names != NULL;
    size_t named = 0;
    while (ok && (rc = frd__plat_names_next(w->lister, cur, &e, op)) > 0) {
        ++*count;
        if (plain_ok && cc_plain_entry(w->walk, &e)) {
            ok = by_names ? cc_names_add(w, &named, &e) : cc_visit_plain(&vs, &we, &e);
        } else {
            ok = cc_visit_one(&vs, &we, &e, false, &bytes);
        }
    }
    if (ok) {
        ok = cc_names_flush(&vs, &we, named);
    }
    cc_visits_end(&vs);
    if (!ok) {
        return 0;
    }
    return rc < 0 ? rc : !frd__walk_stopping(w->walk);
}

void frd__cc_parent_fd_let_go(struct frd_walk *walk, struct frd__wnode *node)
{
    if (node->flags & WN_HOLDS_PARENT_FD) {
        node->flags &= ~(unsigned)WN_HOLDS_PARENT_FD;
        frd__fd_release(walk, node->parent);
    }
}
