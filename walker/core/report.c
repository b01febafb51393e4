// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * What the walk tells the caller: errors (through the hook, or into the walk's result for
 * a root), progress reports, and the visit callback itself (or frd_read_tree()'s copy); also
 * the ready error policies and frd_op_name().
 */
#include "report.h"

#include "links.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

bool frd__report(struct frd__worker *w, const char *path, struct frd__failure op, int code,
                 unsigned depth)
{
    return frd__report_loop(w, path, op, code, depth, NULL);
}

bool frd__report_root(struct frd__worker *w, const char *path, struct frd__failure op, int code)
{
    struct frd_walk *walk = w->walk;
    bool hook_only = (walk->opts.flags & FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY) != 0;
    if (walk->opts.on_error == NULL || !hook_only) {
        // The walk's result says it (the first root that failed), whatever the hook says:
        // a walk of nothing must not look like a walk of an empty tree.
        int expected = 0;
        atomic_compare_exchange_strong(&walk->root_err, &expected, code);
    }
    if (walk->opts.on_error == NULL) {
        atomic_fetch_add_explicit(&w->n_errors, 1, memory_order_relaxed);
        return true;
    }
    return frd__report(w, path, op, code, 0);
}

bool frd__report_loop(struct frd__worker *w, const char *path, struct frd__failure op, int code,
                      unsigned depth, const char *other)
{
    struct frd_walk *walk = w->walk;
    atomic_fetch_add_explicit(&w->n_errors, 1, memory_order_relaxed);
    if (walk->opts.on_error == NULL) {
        return true;
    }
    unsigned slot = frd__slot_hold(w);
    struct frd_walk_error err = {
        .path = path,
        .op = op.op,
        .code = code,
        .depth = depth,
        .other_path = other,
        .worker = slot,
        .call = op.call,
    };
    if (!frd__cb_enter(w)) {
        return false;
    }
    enum frd_action act = walk->opts.on_error(&err, walk->hooks.udata);
    frd__cb_leave(w);
    if (act == FRD_ACTION_STOP) {
        frd__walk_stop(walk, code, w);
        return false;
    }
    return true;
}

void frd__progress_tick(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    if (walk->opts.on_progress == NULL) {
        return;
    }
    uint64_t now = uv_hrtime();
    uint_fast64_t due = atomic_load_explicit(&walk->hooks.progress_due, memory_order_relaxed);
    if (now < due) {
        return;
    }
    // One reporter at a time, even when a report outlasts the interval.
    if (atomic_flag_test_and_set(&walk->hooks.progress_busy)) {
        return;
    }
    atomic_store_explicit(&walk->hooks.progress_due, now + walk->plan.progress_ns,
                          memory_order_relaxed);
    struct frd_walk_progress p = {0};
    unsigned created = frd__sched_created(walk->sched);
    for (unsigned i = 0; i < created; i++) {
        struct frd__worker *x = &walk->workers[i];
        p.dirs += atomic_load_explicit(&x->n_dirs, memory_order_relaxed);
        p.entries += atomic_load_explicit(&x->n_entries, memory_order_relaxed);
        p.bytes += atomic_load_explicit(&x->n_bytes, memory_order_relaxed);
        p.errors += atomic_load_explicit(&x->n_errors, memory_order_relaxed);
    }
    if (walk->consumer != NULL) {
        p.dirs += atomic_load_explicit(&walk->consumer->n_dirs, memory_order_relaxed);
        p.entries += atomic_load_explicit(&walk->consumer->n_entries, memory_order_relaxed);
        p.bytes += atomic_load_explicit(&walk->consumer->n_bytes, memory_order_relaxed);
        p.errors += atomic_load_explicit(&walk->consumer->n_errors, memory_order_relaxed);
    }
    p.queued_dirs = frd__sched_queued(walk->sched);
    // Where this thread is: its path buffer holds the last path it built (NUL-terminated).
    p.path = w->path != NULL ? w->path : "";
    p.path_len = strlen(p.path);
    frd__slot_hold(w); // callbacks run under a slot (at most `workers` at once)
    if (frd__cb_enter(w)) {
        walk->opts.on_progress(&p, walk->hooks.udata);
        frd__cb_leave(w);
    }
    atomic_flag_clear(&walk->hooks.progress_busy);
}

/** frd_read_tree(): keeps a copy of the entry, named by its path relative to the root. */
static void wn_collect(struct frd__worker *w, const struct frd_walk_entry *we)
{
    struct frd_entry copy = *we->entry;
    copy.name = we->path + w->walk->collect.prefix;
    copy.name_len = we->path_len - w->walk->collect.prefix;
    if (frd_list_append(w->collect, &copy) < 0) {
        frd__walk_stop(w->walk, FRD_ENOMEM, w);
    }
}

/**
 * FRD_WALK_LINK_TARGETS: `we` with the target of the link it visits, read relative to its
 * directory into the worker's buffer (a root by its name), into *out. @return false if the
 * walk stops (the failure's hook said so).
 */
static bool wn_link_target(struct frd__worker *w, const struct frd_walk_entry *we,
                           struct frd_walk_entry *out)
{
    *out = *we;
    const char *name = we->is_root ? we->path : we->entry->name;
    size_t hint = (we->entry->fields & FRD_FIELD_SIZE) ? (size_t)we->entry->size : 0;
    int n = frd__plat_read_link(we->parent_fd, name, hint, &w->link, &w->link_cap);
    if (n < 0) {
        return frd__report(w, we->path, (struct frd__failure){"readlinkat", FRD_OP_READLINK}, n,
                           we->depth);
    }
    out->link_target = w->link;
    out->link_target_len = (size_t)n;
    return true;
}

/** Whether the file system of `e` is one the worker found without extended attributes. */
static bool wn_xattrs_unsupported(const struct frd__worker *w, const struct frd_entry *e)
{
    if (!(e->fields & FRD_FIELD_DEV)) {
        return false;
    }
    for (size_t i = 0; i < w->xattr_nodev_n; i++) {
        if (w->xattr_nodev[i] == e->dev) {
            return true;
        }
    }
    return false;
}

/**
 * FRD_WALK_XATTRS: the extended attributes of the entry `out` visits, read relative to its
 * directory into the worker's buffers (a root by its name). @return false if the walk stops
 * (the failure's hook said so).
 */
static bool wn_xattrs(struct frd__worker *w, struct frd_walk_entry *out)
{
    const struct frd_entry *e = out->entry;
    if (e->error < 0 || wn_xattrs_unsupported(w, e)) {
        return true; // an entry whose stat failed is reported once, for that (no xattrs)
    }
    const char *name = out->is_root ? out->path : e->name;
    size_t max = w->walk->opts.xattr_value_max ? w->walk->opts.xattr_value_max : 65536;
    // A link the walk followed is visited as its target: the target's attributes, as its
    // metadata (a non-link entry is never followed: a link swapped in since is not).
    bool follow =
        e->type != FRD_TYPE_LNK && w->walk->opts.follow != FRD_FOLLOW_NEVER && out->followed_link;
    int n = frd__plat_read_xattrs(out->parent_fd, name, follow, max, &w->xattr);
    if (n == FRD_ENOTSUP) {
        if ((e->fields & FRD_FIELD_DEV) && w->xattr_nodev_n < FRD__XATTR_NODEV_MAX) {
            w->xattr_nodev[w->xattr_nodev_n++] = e->dev; // no more calls on that device
        }
        return true;
    }
    if (n < 0) {
        return frd__report(w, out->path, (struct frd__failure){"getxattrat", FRD_OP_XATTR}, n,
                           out->depth);
    }
    out->xattrs = n > 0 ? w->xattr.items : NULL;
    out->xattr_count = (size_t)n;
    return true;
}

/** Adds to a counter of the calling worker's own: one writer, so a relaxed load and store
 *  (no locked instruction per entry); progress reports read it from other threads. */
static inline void wn_count(atomic_uint_fast64_t *counter, uint64_t n)
{
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + n,
                          memory_order_relaxed);
}

/**
 * FRD_WALK_LINK_GROUPS: the hard-link group of the entry `out` visits, if it is a
 * multiply-linked non-directory with ids that persist. @return false if the walk stops (no
 * memory).
 */
static bool wn_link_group(struct frd__worker *w, struct frd_walk_entry *out)
{
    const struct frd_entry *e = out->entry;
    const unsigned need = FRD_FIELD_FILE_ID | FRD_FIELD_DEV | FRD_FIELD_NLINK;
    if (e->type == FRD_TYPE_DIR || (e->fields & need) != need || e->nlink < 2 ||
        !out->persistent_ids) {
        return true;
    }
    struct frd__identity id = {.dev = e->dev, .ino = e->file_id};
    struct frd__link_group g;
    int rc = frd__links_group(w->walk->ids.links, &id, out->path, out->path_len, &g);
    if (rc < 0) {
        frd__walk_stop(w->walk, rc, w);
        return false;
    }
    out->link_group = g.group;
    out->link_first = g.first;
    out->link_first_len = g.first_len;
    return true;
}

/** What a callback answered, `act`: a stop stops the walk. @return act. */
static inline enum frd_action wn_answered(struct frd__worker *w, enum frd_action act)
{
    if (act == FRD_ACTION_STOP) {
        frd__walk_stop(w->walk, FRD_ESTOPPED, w);
    }
    return act;
}

/** Calls the visit callback (the caller counted the entry). @return its action
 *  (FRD_ACTION_STOP once stopped). */
static inline enum frd_action wn_callback(struct frd__worker *w, const struct frd_walk_entry *we)
{
    struct frd_walk *walk = w->walk;
    if (!frd__cb_enter(w)) {
        return FRD_ACTION_STOP;
    }
    enum frd_action act = walk->hooks.visit(we, walk->hooks.udata);
    frd__cb_leave(w);
    return wn_answered(w, act);
}

/** frd__visit() once the entry is complete: counts it and calls the callback at or past
 *  min_depth (or collects it). @return its action (FRD_ACTION_STOP once stopped). */
static inline enum frd_action wn_visit_call(struct frd__worker *w, const struct frd_walk_entry *we)
{
    struct frd_walk *walk = w->walk;
    wn_count(&w->n_entries, 1);
    wn_count(&w->n_bytes, we->entry->size);
    if ((int)we->depth < walk->opts.min_depth) {
        return FRD_ACTION_CONTINUE;
    }
    if (walk->collect.on) {
        wn_collect(w, we);
        return FRD_ACTION_CONTINUE;
    }
    return wn_callback(w, we);
}

enum frd_action frd__visit_names(struct frd__worker *w, const struct frd_walk_names *names)
{
    wn_count(&w->n_entries, names->count);
    if (atomic_load_explicit(w->stop, memory_order_relaxed)) {
        return FRD_ACTION_STOP; // (inside a held run, as frd__visit_plain())
    }
    struct frd_walk *walk = w->walk;
    return wn_answered(w, walk->opts.on_names(names, walk->hooks.udata));
}

bool frd__visit_plain_ok(const struct frd_walk *walk, unsigned depth)
{
    const unsigned extra = FRD_WALK_LINK_TARGETS | FRD_WALK_XATTRS | FRD_WALK_LINK_GROUPS;
    return !(walk->opts.flags & extra) && (int)depth >= walk->opts.min_depth && !walk->collect.on;
}

enum frd_action frd__visit_plain(struct frd__worker *w, const struct frd_walk_entry *we)
{
    FRD_ASSERT(frd__visit_plain_ok(w->walk, we->depth) && we->entry->size == 0);
    wn_count(&w->n_entries, 1);
    // Inside a held run: entering is the stop flag's relaxed load, leaving nothing
    // (frd__sched_cb_enter(), _leave()), without the calls.
    if (atomic_load_explicit(w->stop, memory_order_relaxed)) {
        return FRD_ACTION_STOP;
    }
    struct frd_walk *walk = w->walk;
    return wn_answered(w, walk->hooks.visit(we, walk->hooks.udata));
}

FRD__NOINLINE enum frd_action frd__visit_added(struct frd__worker *w,
                                               const struct frd_walk_entry *we)
{
    struct frd_walk *walk = w->walk;
    struct frd_walk_entry with_link;
    if ((walk->opts.flags & FRD_WALK_LINK_TARGETS) && we->entry->type == FRD_TYPE_LNK &&
        we->entry->error >= 0 && (int)we->depth >= walk->opts.min_depth && !walk->collect.on) {
        if (!wn_link_target(w, we, &with_link)) {
            return FRD_ACTION_STOP;
        }
        we = &with_link;
    }
    if ((walk->opts.flags & FRD_WALK_XATTRS) && (int)we->depth >= walk->opts.min_depth &&
        !walk->collect.on) {
        if (we != &with_link) {
            with_link = *we;
            we = &with_link;
        }
        if (!wn_xattrs(w, &with_link)) {
            return FRD_ACTION_STOP;
        }
    }
    if ((walk->opts.flags & FRD_WALK_LINK_GROUPS) && (int)we->depth >= walk->opts.min_depth &&
        !walk->collect.on) {
        if (we != &with_link) {
            with_link = *we;
            we = &with_link;
        }
        if (!wn_link_group(w, &with_link)) {
            return FRD_ACTION_STOP;
        }
    }
    return wn_visit_call(w, we);
}

/** Calls the visit callback. @return its action (FRD_ACTION_STOP once stopped). */
enum frd_action frd__visit(struct frd__worker *w, const struct frd_walk_entry *we)
{
    const unsigned added = FRD_WALK_LINK_TARGETS | FRD_WALK_XATTRS | FRD_WALK_LINK_GROUPS;
    if (w->walk->opts.flags & added) {
        return frd__visit_added(w, we);
    }
    return wn_visit_call(w, we);
}

void frd__state_free(struct frd_walk *walk, void *state)
{
    // Not gated by a stop: a state is released exactly once, also after a stop or cancel.
    if (state != NULL && walk->opts.on_dir_state_free != NULL) {
        walk->opts.on_dir_state_free(state, walk->hooks.udata);
    }
}

/* ---- The ready error policies, and the names of failed calls (public) ---- */

enum frd_action frd_walk_ignore_denied_and_vanished(const struct frd_walk_error *err, void *udata)
{
    (void)udata;
    switch (err->code) {
    case FRD_EACCES:
    case FRD_EPERM:
    // What a live tree does under a walk: entries vanish, are replaced, loop.
    case FRD_ENOENT:
    case FRD_ENOTDIR:
    case FRD_ELOOP:
    case FRD_ECHANGED:
        return FRD_ACTION_CONTINUE;
    default:
        return FRD_ACTION_STOP;
    }
}

enum frd_action frd_walk_ignore_permission_errors(const struct frd_walk_error *err, void *udata)
{
    return frd_walk_ignore_denied_and_vanished(err, udata); // the deprecated name
}

enum frd_action frd_walk_print_errors_and_continue(const struct frd_walk_error *err, void *udata)
{
    (void)udata;
    // One line, one write: lines of several workers never interleave.
    char line[4096];
    const char *other = err->other_path;
    int n = snprintf(line, sizeof(line), "frd: %s: %s: %s%s%s%s\n", err->path, err->op,
                     frd_strerror(err->code), other != NULL ? " (ancestor " : "",
                     other != NULL ? other : "", other != NULL ? ")" : "");
    if (n > 0) {
        size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
        line[len - 1] = '\n'; // a path longer than the line: cut, still one line
        fwrite(line, 1, len, stderr);
    }
    return FRD_ACTION_CONTINUE;
}

enum frd_action frd_walk_continue_on_errors(const struct frd_walk_error *err, void *udata)
{
    (void)err;
    (void)udata;
    return FRD_ACTION_CONTINUE;
}

enum frd_action frd_walk_stop_on_error(const struct frd_walk_error *err, void *udata)
{
    (void)err;
    (void)udata;
    return FRD_ACTION_STOP;
}

const char *frd_op_name(enum frd_op op)
{
    switch (op) {
    case FRD_OP_OPEN:
        return "open";
    case FRD_OP_READ_DIR:
        return "read";
    case FRD_OP_STAT:
        return "stat";
    case FRD_OP_READLINK:
        return "readlink";
    case FRD_OP_LOOP:
        return "loop";
    case FRD_OP_ALLOC:
        return "alloc";
    case FRD_OP_XATTR:
        return "xattr";
    case FRD_OP_OTHER:
        break;
    }
    return "other";
}
