// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * What the walk tells the caller: errors (through the hook, or into the walk's result for
 * a root), progress reports, and the visit callback itself (or frd_read_tree()'s copy).
 */
#include "walker.h"

#include <stddef.h>
#include <string.h>

bool frd__report(struct frd__worker *w, const char *path, const char *op, int code, unsigned depth)
{
    return frd__report_loop(w, path, op, code, depth, NULL);
}

/** The failed call's class, from the name the lister or the walk gives it. */
static enum frd_op wn_op(const char *op)
{
    static const struct {
        const char *name;
        enum frd_op op;
    } ops[] = {
        {"open", FRD_OP_OPEN},
        {"opendir", FRD_OP_OPEN},
        {"fdopendir", FRD_OP_OPEN},
        {"dup", FRD_OP_OPEN},
        {"getdents64", FRD_OP_READ_DIR},
        {"readdir", FRD_OP_READ_DIR},
        {"getattrlistbulk", FRD_OP_READ_DIR},
        {"getdirentries64", FRD_OP_READ_DIR},
        {"lseek", FRD_OP_READ_DIR},
        {"NtQueryDirectoryFile", FRD_OP_READ_DIR},
        {"GetFileInformationByHandleEx", FRD_OP_READ_DIR},
        {"GetFileInformationByHandle", FRD_OP_STAT},
        {"stat", FRD_OP_STAT},
        {"statx", FRD_OP_STAT},
        {"fstatat", FRD_OP_STAT},
        {"readlink", FRD_OP_READLINK},
        {"loop", FRD_OP_LOOP},
        {"alloc", FRD_OP_ALLOC},
        {"append", FRD_OP_ALLOC},
        {"queue", FRD_OP_ALLOC},
    };
    for (size_t i = 0; op != NULL && i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (strcmp(op, ops[i].name) == 0) {
            return ops[i].op;
        }
    }
    return FRD_OP_OTHER;
}

bool frd__report_root(struct frd__worker *w, const char *path, const char *op, int code)
{
    struct frd_walk *walk = w->walk;
    if (walk->opts.on_error == NULL) {
        // No hook to tell: the walk's result says it (the first root that failed).
        atomic_fetch_add_explicit(&w->n_errors, 1, memory_order_relaxed);
        int expected = 0;
        atomic_compare_exchange_strong(&walk->root_err, &expected, code);
        return true;
    }
    return frd__report(w, path, op, code, 0);
}

bool frd__report_loop(struct frd__worker *w, const char *path, const char *op, int code,
                      unsigned depth, const char *other)
{
    struct frd_walk *walk = w->walk;
    atomic_fetch_add_explicit(&w->n_errors, 1, memory_order_relaxed);
    if (walk->opts.on_error == NULL) {
        return true;
    }
    struct frd_walk_error err = {
        .path = path,
        .op = op,
        .code = code,
        .depth = depth,
        .other_path = other,
        .worker = w->index,
        .call = wn_op(op),
    };
    if (!frd__cb_enter(w)) {
        return false;
    }
    enum frd_action act = walk->opts.on_error(&err, walk->udata);
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
    uint_fast64_t due = atomic_load_explicit(&walk->progress_due, memory_order_relaxed);
    if (now < due) {
        return;
    }
    // One reporter at a time, even when a report outlasts the interval.
    if (atomic_flag_test_and_set(&walk->progress_busy)) {
        return;
    }
    atomic_store_explicit(&walk->progress_due, now + walk->progress_ns, memory_order_relaxed);
    struct frd_walk_progress p = {0};
    for (unsigned i = 0; i < walk->nworkers; i++) {
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
    p.queued_dirs = atomic_load_explicit(&walk->queued, memory_order_relaxed);
    if (frd__cb_enter(w)) {
        walk->opts.on_progress(&p, walk->udata);
        frd__cb_leave(w);
    }
    atomic_flag_clear(&walk->progress_busy);
}

/** frd_read_tree(): keeps a copy of the entry, named by its path relative to the root. */
static void wn_collect(struct frd__worker *w, const struct frd_walk_entry *we)
{
    struct frd_entry copy = *we->entry;
    copy.name = we->path + w->walk->collect_prefix;
    copy.name_len = we->path_len - w->walk->collect_prefix;
    if (frd_list_append(w->collect, &copy) < 0) {
        frd__walk_stop(w->walk, FRD_ENOMEM, w);
    }
}

/** Calls the visit callback. @return its action (FRD_ACTION_STOP once stopped). */
enum frd_action frd__visit(struct frd__worker *w, const struct frd_walk_entry *we)
{
    struct frd_walk *walk = w->walk;
    atomic_fetch_add_explicit(&w->n_entries, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->n_bytes, we->entry->size, memory_order_relaxed);
    if ((int)we->depth < walk->opts.min_depth) {
        return FRD_ACTION_CONTINUE;
    }
    if (walk->collect) {
        wn_collect(w, we);
        return FRD_ACTION_CONTINUE;
    }
    if (!frd__cb_enter(w)) {
        return FRD_ACTION_STOP;
    }
    enum frd_action act = walk->visit(we, walk->udata);
    frd__cb_leave(w);
    if (act == FRD_ACTION_STOP) {
        frd__walk_stop(walk, FRD_ESTOPPED, w);
    }
    return act;
}
