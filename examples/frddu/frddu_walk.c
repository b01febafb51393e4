// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frddu's walk: totals per directory from the visit and post-order callbacks. */
#include "errtext.h"
#include "frddu.h"
#include "toolname.h"

#include <stdlib.h>
#include <string.h>

/*
 * How the totals add up while workers visit entries in any order, on the walker's
 * per-directory state (frd_walk_entry.dir_state), with no table of paths:
 *
 *   visit(dir D)     D gets a struct du_dir as its state, with its own size, pending = 1;
 *                    its parent (parent_state) gets pending + 1 (an unfinished subdirectory).
 *   visit(file F)    F's size is added to its parent's total (parent_state) at once.
 *   post-order(D)    D's own pending reference is dropped.
 *   pending hits 0   D is done: its line is printed, its total is added to its parent, the
 *                    parent's pending drops by 1 (which may finish the parent).
 *
 * So a directory is printed after everything below it (du's post-order) and its total is
 * final when printed, whichever worker finishes last. A directory the walk releases without
 * its post-order visit (a stopped walk) is finished when released, so no total is lost.
 * Memory: a du_dir is referenced by the walker's slot and by each subdirectory's du_dir
 * (which adds to it); the last of them frees it.
 */

/** One directory whose total is still growing: the walker's state of that directory. */
struct du_dir {
    struct du_dir *parent;       /**< the directory holding it; NULL for a root */
    atomic_uint_least64_t bytes; /**< its own size plus everything counted below it so far */
    /** 1 until its post-order visit, plus 1 per unfinished subdirectory: at 0 it is done. */
    atomic_uint pending;
    atomic_uint refs;   /**< the walker's slot + one per subdirectory's du_dir */
    atomic_bool listed; /**< its post-order visit happened (or it was released) */
    unsigned depth;     /**< 0 for a root */
    size_t path_len;    /**< bytes in path */
    char path[];        /**< the directory's path as the walker spells it, NUL-terminated */
};

static void dir_unref(struct du_dir *dir)
{
    while (dir != NULL && atomic_fetch_sub_explicit(&dir->refs, 1, memory_order_acq_rel) == 1) {
        struct du_dir *parent = dir->parent;
        free(dir);
        dir = parent;
    }
}

/** Drops one pending reference of `dir`, finishing it and then its ancestors as they reach 0. */
static void dir_release(struct du_state *st, struct du_dir *dir)
{
    while (dir != NULL && atomic_fetch_sub_explicit(&dir->pending, 1, memory_order_acq_rel) == 1) {
        uint64_t total = atomic_load_explicit(&dir->bytes, memory_order_relaxed);
        struct du_dir *parent = dir->parent;
        if (st->opts->max_depth < 0 || (long)dir->depth <= st->opts->max_depth) {
            du_emit(st, total, dir->path, dir->path_len);
        }
        if (parent != NULL) {
            atomic_fetch_add_explicit(&parent->bytes, total, memory_order_relaxed);
        } else {
            st->root_total = total;
        }
        dir = parent;
    }
}

static void count_progress(struct du_state *st, unsigned worker, uint64_t bytes)
{
    if (worker >= st->nbatches) {
        return; // never: the walker's indexes stay below its worker count, at most nbatches
    }
    struct du_batch *b = &st->batches[worker];
    b->bytes += bytes;
    if (++b->entries >= 256) {
        atomic_fetch_add_explicit(&st->counted, b->bytes, memory_order_relaxed);
        b->bytes = 0;
        b->entries = 0;
    }
}

static void report(struct du_state *st, const char *what, const char *path, int code)
{
    atomic_store(&st->status, 1);
    atomic_fetch_add(&st->errors, 1);
    progress_line_clear(&st->progress);
    fprintf(stderr, "%s: %s '%s': %s\n", tool_name, what, path, tool_strerror(code));
}

static enum frd_action du_visit(const struct frd_walk_entry *we, void *udata)
{
    struct du_state *st = udata;
    const struct du_options *opts = st->opts;
    const struct frd_entry *e = we->entry;
    if (e->error < 0) {
        return FRD_ACTION_PRUNE; // du_error has said "cannot access" (one report per failure)
    }
    bool is_dir = e->type == FRD_TYPE_DIR;
    if (we->depth == 0) {
        st->root_dev = e->dev;
    } else if (opts->one_fs && e->dev != st->root_dev) {
        // du -x leaves out a mount point and everything on it, not only what is below it.
        return FRD_ACTION_PRUNE;
    }
    if (!opts->count_links && (opts->hash_all || (!is_dir && e->nlink > 1))) {
        int added = du_seen_add(st->seen, e->dev, e->file_id);
        if (added < 0) {
            atomic_store(&st->out_of_memory, true);
            return FRD_ACTION_STOP;
        }
        if (added == 0) {
            return FRD_ACTION_PRUNE; // a hard link (or directory) already counted
        }
    }
    uint64_t size = opts->apparent ? e->size : e->alloc_size;
    if (progress_line_enabled(&st->progress)) {
        count_progress(st, we->worker, size);
        if (is_dir) {
            progress_line_set_current(&st->progress, we->path, we->path_len);
        }
    }

    struct du_dir *parent = we->parent_state;
    if (is_dir) {
        struct du_dir *dir = malloc(sizeof *dir + we->path_len + 1);
        if (dir == NULL) {
            atomic_store(&st->out_of_memory, true);
            return FRD_ACTION_STOP;
        }
        dir->parent = parent;
        atomic_init(&dir->bytes, size);
        atomic_init(&dir->pending, 1);
        atomic_init(&dir->refs, 1);
        atomic_init(&dir->listed, false);
        dir->depth = we->depth;
        dir->path_len = we->path_len;
        memcpy(dir->path, we->path, we->path_len + 1);
        if (parent != NULL) {
            atomic_fetch_add_explicit(&parent->pending, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&parent->refs, 1, memory_order_relaxed);
        }
        *we->dir_state = dir;
        return FRD_ACTION_CONTINUE;
    }
    if (parent != NULL) {
        atomic_fetch_add_explicit(&parent->bytes, size, memory_order_relaxed);
    } else {
        st->root_total = size; // a root that is not a directory
    }
    if (we->depth == 0 ||
        (opts->all && (opts->max_depth < 0 || (long)we->depth <= opts->max_depth))) {
        du_emit(st, size, we->path, we->path_len);
    }
    return FRD_ACTION_CONTINUE;
}

static void du_dir_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *totals,
                        void *udata)
{
    (void)totals; // its bytes are apparent sizes of one level; du needs its own sums
    struct du_dir *d = *dir->dir_state;
    if (d != NULL && !atomic_exchange(&d->listed, true)) {
        dir_release(udata, d);
    }
}

/** The walker lets go of a directory: finish it if its post-order visit never came. */
static void du_dir_free(void *state, void *udata)
{
    struct du_dir *d = state;
    if (!atomic_exchange(&d->listed, true)) {
        dir_release(udata, d);
    }
    dir_unref(d);
}

static enum frd_action du_error(const struct frd_walk_error *err, void *udata)
{
    struct du_state *st = udata;
    if (err->call == FRD_OP_LOOP) {
        // A directory that repeats an ancestor: du meets a link back to one (-L), or a bind
        // mount of one below itself, as a directory already counted, and skips it without a
        // word and without failing (du prints its "Circular directory structure" warning only
        // for a cycle through no mount point and no followed link: a corrupt file system).
        return FRD_ACTION_CONTINUE;
    }
    bool listing = err->call == FRD_OP_OPEN || err->call == FRD_OP_READ_DIR;
    report(st, listing ? "cannot read directory" : "cannot access", err->path, err->code);
    return FRD_ACTION_CONTINUE;
}

static void du_progress(const struct frd_walk_progress *progress, void *udata)
{
    struct du_state *st = udata;
    progress_line_draw(&st->progress, progress->entries,
                       atomic_load_explicit(&st->counted, memory_order_relaxed));
}

int du_walk_root(struct du_state *st, const char *walk_root, const char *display_root)
{
    st->walk_root = walk_root;
    st->walk_root_len = strlen(walk_root);
    st->display_root = display_root;
    st->display_root_len = strlen(display_root);
    st->root_total = 0;

    struct frd_walk_options wo;
    frd_walk_options_init(&wo);
    wo.follow = st->opts->follow;
    wo.workers = st->opts->workers;
    if (st->opts->one_fs) {
        wo.flags |= FRD_WALK_ONE_FILE_SYSTEM;
    }
    wo.on_error = du_error;
    wo.on_dir_done = du_dir_done;
    wo.on_dir_state_free = du_dir_free;
    // What du reads of an entry: nothing else is asked of the kernel.
    wo.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_DEV |
                FRD_FIELD_FILE_ID | FRD_FIELD_NLINK;
    if (progress_line_enabled(&st->progress)) {
        wo.on_progress = du_progress;
        wo.progress_interval_ms = 100;
        const char *interval = getenv("FRDDU_PROGRESS_INTERVAL_MS");
        if (interval != NULL) {
            wo.progress_interval_ms = (unsigned)strtoul(interval, NULL, 10);
        }
    }
    int rc = frd_walk(walk_root, &wo, du_visit, st);
    if (atomic_load(&st->out_of_memory)) {
        return FRD_ENOMEM;
    }
    return rc == FRD_ESTOPPED ? 0 : rc;
}
