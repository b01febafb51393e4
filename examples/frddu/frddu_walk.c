// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frddu's walk: totals per directory from the visit and post-order callbacks. */
#include "frddu.h"

#include <stdlib.h>
#include <string.h>

/*
 * How the totals add up while workers visit entries in any order:
 *
 *   visit(dir D)     D enters the table with its own size, pending = 1, and its parent's
 *                    pending grows by 1 (D is an unfinished subdirectory of it).
 *   visit(file F)    F's size is added to its parent directory's total at once.
 *   post-order(D)    D's own pending reference is dropped.
 *   pending hits 0   D is done: its line is printed, its total is added to its parent,
 *                    the parent's pending drops by 1 (which may finish the parent), and D
 *                    leaves the table.
 *
 * So a directory is printed after everything below it (du's post-order) and its total is
 * final when printed, whichever worker finishes last. The walker reports every directory
 * it was told to enter, readable or not; should one never be reported (a stopped walk),
 * it is finished after the walk, deepest first, so no total is lost.
 *
 * The parent of an entry is found by path: the entry's path up to its last '/', or the root
 * for depth 1. Each thread remembers the last parent it found (a worker visits a whole
 * directory's entries in a row), so the shared table is rarely consulted.
 */

/** Paths longer than this are looked up in the table every time instead of cached. */
#define PARENT_CACHE_KEY_MAX 1024

/** The last parent this thread found. Its key is a copy, so the directory may be freed. */
static _Thread_local struct {
    const struct du_state *state;
    unsigned generation;
    struct du_dir *dir;
    size_t key_len;
    char key[PARENT_CACHE_KEY_MAX];
} parent_cache;

/** Per-thread byte count for the progress line, published every few hundred entries. */
static _Thread_local struct {
    uint64_t bytes;
    unsigned entries;
} progress_batch;

static struct du_dir *find_parent(struct du_state *st, const struct frd_walk_entry *we)
{
    const char *key = we->path;
    size_t key_len;
    if (we->depth == 1) {
        key_len = st->walk_root_len;
    } else {
        key_len = we->path_len;
        while (key_len > 0 && key[key_len - 1] != '/') {
            key_len--;
        }
        // "a/b/c" -> "a/b"; the walker never ends a directory's path with '/' below the root.
        if (key_len > 0) {
            key_len--;
        }
    }
    if (parent_cache.state == st && parent_cache.generation == st->generation &&
        parent_cache.key_len == key_len && memcmp(parent_cache.key, key, key_len) == 0) {
        return parent_cache.dir;
    }
    struct du_dir *dir = du_tree_find(st->tree, key, key_len);
    if (dir != NULL && key_len <= PARENT_CACHE_KEY_MAX) {
        parent_cache.state = st;
        parent_cache.generation = st->generation;
        parent_cache.dir = dir;
        parent_cache.key_len = key_len;
        memcpy(parent_cache.key, key, key_len);
    }
    return dir;
}

/** Drops one pending reference of `dir`, finishing it and then its ancestors as they reach 0. */
static void dir_release(struct du_state *st, struct du_dir *dir)
{
    while (dir != NULL && atomic_fetch_sub_explicit(&dir->pending, 1, memory_order_acq_rel) == 1) {
        uint64_t total = atomic_load_explicit(&dir->bytes, memory_order_relaxed);
        struct du_dir *parent = dir->parent;
        if (st->opts->max_depth < 0 || (long)dir->depth <= st->opts->max_depth) {
            du_emit(st, total, dir->key, dir->key_len);
        }
        if (parent != NULL) {
            atomic_fetch_add_explicit(&parent->bytes, total, memory_order_relaxed);
        } else {
            st->root_total = total;
        }
        if (!dir->leftover) {
            du_tree_remove(st->tree, dir);
            free(dir);
        }
        dir = parent;
    }
}

static void count_progress(struct du_state *st, uint64_t bytes)
{
    progress_batch.bytes += bytes;
    if (++progress_batch.entries >= 256) {
        atomic_fetch_add_explicit(&st->counted, progress_batch.bytes, memory_order_relaxed);
        progress_batch.bytes = 0;
        progress_batch.entries = 0;
    }
}

static void report(struct du_state *st, const char *what, const char *path, int code)
{
    atomic_store(&st->status, 1);
    atomic_fetch_add(&st->errors, 1);
    progress_line_clear(&st->progress);
    fprintf(stderr, "frddu: %s '%s': %s\n", what, path, frd_strerror(code));
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
        count_progress(st, size);
        if (is_dir) {
            progress_line_set_current(&st->progress, we->path, we->path_len);
        }
    }

    struct du_dir *parent = we->depth == 0 ? NULL : find_parent(st, we);
    if (is_dir) {
        struct du_dir *dir = du_tree_add(st->tree, we->path, we->path_len, parent, we->depth, size);
        if (dir == NULL) {
            atomic_store(&st->out_of_memory, true);
            return FRD_ACTION_STOP;
        }
        if (parent != NULL) {
            atomic_fetch_add_explicit(&parent->pending, 1, memory_order_relaxed);
        }
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
    struct du_state *st = udata;
    struct du_dir *d = du_tree_find(st->tree, dir->path, dir->path_len);
    if (d == NULL || atomic_exchange(&d->listed, true)) {
        return; // pruned (another file system, a repeat), or reported twice
    }
    dir_release(st, d);
}

static enum frd_action du_error(const struct frd_walk_error *err, void *udata)
{
    struct du_state *st = udata;
    if (err->call == FRD_OP_LOOP && st->opts->hash_all) {
        // A link back to a directory above: du -L meets it as a directory already counted
        // and skips it without a word.
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

/** Finishes the directories the walker did not report finished, deepest first. */
static int finish_leftovers(struct du_state *st)
{
    struct du_dir **dirs;
    long n = du_tree_take_all(st->tree, &dirs);
    if (n < 0) {
        return FRD_ENOMEM;
    }
    for (long i = 0; i < n; i++) {
        if (!atomic_exchange(&dirs[i]->listed, true)) {
            dir_release(st, dirs[i]);
        }
    }
    for (long i = 0; i < n; i++) {
        // dir_release() never frees a leftover (dirs[i]->leftover); the analyzer cannot see it.
        free(dirs[i]); // NOLINT(clang-analyzer-unix.Malloc)
    }
    free(dirs);
    return 0;
}

int du_walk_root(struct du_state *st, const char *walk_root, const char *display_root)
{
    st->walk_root = walk_root;
    st->walk_root_len = strlen(walk_root);
    st->display_root = display_root;
    st->display_root_len = strlen(display_root);
    st->root_total = 0;
    st->generation++;

    struct frd_walk_options wo;
    frd_walk_options_init(&wo);
    wo.follow = st->opts->follow;
    wo.workers = st->opts->workers;
    if (st->opts->one_fs) {
        wo.flags |= FRD_WALK_ONE_FILE_SYSTEM;
    }
    wo.on_error = du_error;
    wo.on_dir_done = du_dir_done;
    if (progress_line_enabled(&st->progress)) {
        wo.on_progress = du_progress;
        wo.progress_interval_ms = 100;
        const char *interval = getenv("FRDDU_PROGRESS_INTERVAL_MS");
        if (interval != NULL) {
            wo.progress_interval_ms = (unsigned)strtoul(interval, NULL, 10);
        }
    }
    int rc = frd_walk(walk_root, &wo, du_visit, st);
    int left = finish_leftovers(st);
    if (atomic_load(&st->out_of_memory) || left < 0) {
        return FRD_ENOMEM;
    }
    return rc == FRD_ESTOPPED ? 0 : rc;
}
