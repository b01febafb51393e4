// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frddu's walk: totals per directory from the visit and post-order callbacks. */
#define _XOPEN_SOURCE 700

#include "errtext.h"
#include "frddu.h"
#include "fts_order.h"
#include "grow.h"
#include "toolname.h"

#include <assert.h>
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
    struct du_dir *parent;        /**< the directory holding it; NULL for a root */
    atomic_uint_least64_t bytes;  /**< its own size plus everything counted below it so far */
    atomic_uint_least64_t inodes; /**< entries counted in it so far, itself included */
    atomic_int_least64_t tmax;    /**< the latest --time counted in it so far (ns) */
    /** 1 until its post-order visit, plus 1 per unfinished subdirectory: at 0 it is done. */
    atomic_uint pending;
    atomic_uint refs;     /**< the walker's slot + one per subdirectory's du_dir */
    atomic_bool listed;   /**< its post-order visit happened (or it was released) */
    struct du_node *node; /**< its item in --export's tree; NULL without --export */
    unsigned depth;       /**< 0 for a root */
    size_t path_len;      /**< bytes in its path as the walker spells it */
    /** Bytes of name: the end of its path, after its parent's path and a separator (with no
     *  parent: the whole path). The path is made again from the names only when its line
     *  is written, so a chain of directories holds its names once, not each path again. */
    size_t name_len;
    char name[];
};

/** The path of `dir` (malloc'd, NUL-terminated), from its name and its ancestors'. */
static char *dir_path(const struct du_dir *dir)
{
    char *path = malloc(dir->path_len + 1);
    if (path == NULL) {
        return NULL;
    }
    path[dir->path_len] = '\0';
    for (const struct du_dir *d = dir; d != NULL; d = d->parent) {
        size_t start = d->path_len - d->name_len;
        memcpy(path + start, d->name, d->name_len);
        if (d->parent == NULL) {
            assert(start == 0);
            break;
        }
        assert(start == d->parent->path_len || start == d->parent->path_len + 1);
        if (start > d->parent->path_len) {
            path[d->parent->path_len] = '/';
        }
    }
    return path;
}

/** Raises *a to v if v is later. */
static void atomic_max64(atomic_int_least64_t *a, int64_t v)
{
    int64_t old = atomic_load_explicit(a, memory_order_relaxed);
    while (old < v && !atomic_compare_exchange_weak_explicit(a, &old, v, memory_order_relaxed,
                                                             memory_order_relaxed)) {
    }
}

/** Adds a sum to a directory's (or, for a root's entries, nothing). */
static void dir_add(struct du_dir *dir, const struct du_sum *sum, bool with_time)
{
    atomic_fetch_add_explicit(&dir->bytes, sum->bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&dir->inodes, sum->inodes, memory_order_relaxed);
    if (with_time) {
        atomic_max64(&dir->tmax, sum->tmax);
    }
}

static void dir_unref(struct du_dir *dir)
{
    while (dir != NULL && atomic_fetch_sub_explicit(&dir->refs, 1, memory_order_acq_rel) == 1) {
        struct du_dir *parent = dir->parent;
        free(dir);
        dir = parent;
    }
}

/**
 * Drops one pending reference of `dir`, finishing it and then its ancestors as they reach 0.
 * `walk_path` is `dir`'s path as the walker spells it (valid during the call), or NULL to
 * make it from the names. Each ancestor's path is a prefix of its child's, so a cascade (a
 * chain's, all at once) writes every line from that one path: a line costs its length, not
 * its depth.
 */
static void dir_release(struct du_state *st, struct du_dir *dir, const char *walk_path)
{
    char *made = NULL;
    while (dir != NULL && atomic_fetch_sub_explicit(&dir->pending, 1, memory_order_acq_rel) == 1) {
        struct du_sum total = {
            .bytes = atomic_load_explicit(&dir->bytes, memory_order_relaxed),
            .inodes = atomic_load_explicit(&dir->inodes, memory_order_relaxed),
            .tmax = atomic_load_explicit(&dir->tmax, memory_order_relaxed),
        };
        struct du_dir *parent = dir->parent;
        if (st->opts->max_depth < 0 || (long)dir->depth <= st->opts->max_depth) {
            if (walk_path == NULL) {
                walk_path = made = dir_path(dir);
            }
            if (walk_path != NULL) {
                du_emit(st, &total, walk_path, dir->path_len);
            } else {
                atomic_store(&st->out_of_memory, true);
            }
        }
        // -S: a directory's line leaves out its subdirectories (their own sizes too).
        if (parent != NULL && !st->opts->separate_dirs) {
            dir_add(parent, &total, st->opts->time != DU_TIME_NONE);
        }
        dir = parent;
    }
    free(made);
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

/** @return the time --time asked for, of entry e, in ns since the epoch. */
static int64_t entry_time(const struct du_options *opts, const struct frd_entry *e)
{
    switch (opts->time) {
    case DU_TIME_ATIME:
        return e->atime_ns;
    case DU_TIME_CTIME:
        return e->ctime_ns;
    default:
        return e->mtime_ns;
    }
}

/**
 * --export: adds the entry to ncdu's tree under its directory's item (the root when
 * `parent` is NULL), with `flags` besides those its type gives. @return the item, or NULL
 * (out of memory, which is then flagged).
 */
static struct du_node *export_add(struct du_state *st, const struct frd_walk_entry *we,
                                  struct du_dir *parent, unsigned flags)
{
    const struct frd_entry *e = we->entry;
    struct du_node *pnode = parent != NULL ? parent->node : NULL;
    if (we->depth > 0 && pnode == NULL) {
        return NULL; // below a directory whose item could not be made
    }
    bool is_dir = e->type == FRD_TYPE_DIR;
    flags |= is_dir ? DU_NODE_DIR : 0;
    if (e->type != FRD_TYPE_DIR && e->type != FRD_TYPE_REG) {
        flags |= DU_NODE_NOTREG;
    }
    if (!is_dir && e->nlink > 1) {
        flags |= DU_NODE_HLNKC;
    }
    if (we->depth == 0 || (is_dir && pnode->dev != e->dev)) {
        flags |= DU_NODE_WRITE_DEV;
    }
    struct du_node *node;
    if (we->depth == 0) {
        // ncdu names the root by its absolute path.
        char *abs = realpath(we->path, NULL);
        const char *name = abs != NULL ? abs : we->path;
        node = du_export_add(&st->export, NULL, name, strlen(name), flags);
        free(abs);
    } else {
        node = du_export_add(&st->export, pnode, e->name, e->name_len, flags);
    }
    if (node == NULL) {
        atomic_store(&st->out_of_memory, true);
        return NULL;
    }
    node->asize = e->size;
    node->dsize = e->alloc_size;
    node->dev = e->dev;
    node->ino = e->file_id;
    node->nlink = e->nlink;
    return node;
}

static enum frd_action du_visit(const struct frd_walk_entry *we, void *udata)
{
    struct du_state *st = udata;
    const struct du_options *opts = st->opts;
    const struct frd_entry *e = we->entry;
    struct du_dir *parent = we->parent_state;
    if (opts->ordered && we->depth > 0 && du_excluded(&opts->exclude, we->path)) {
        // The ordered walk's children hook runs before the directory's visit, which makes
        // its export node: the patterns are tested here (du_error kept this one's stat
        // failure quiet, as du tests them before the stat).
        if (st->exporting && parent != NULL && parent->node != NULL &&
            du_export_add(&st->export, parent->node, e->name, e->name_len, DU_NODE_PATTERN) ==
                NULL) {
            atomic_store(&st->out_of_memory, true);
        }
        return FRD_ACTION_PRUNE;
    }
    if (e->error < 0) {
        if (st->exporting && parent != NULL && parent->node != NULL) {
            // ncdu marks the directory it could not read entirely.
            atomic_store(&parent->node->read_error, true);
        }
        return FRD_ACTION_PRUNE; // du_error has said "cannot access" (one report per failure)
    }
    if (e->type == FRD_TYPE_LNK &&
        (opts->follow == FRD_FOLLOW_ALL || (opts->follow == FRD_FOLLOW_ROOTS && we->depth == 0))) {
        // A link du was told to follow and could not: dangling. du says "cannot access"
        // (fts gives no errno for it) and counts nothing.
        du_report(st, "cannot access", we->path, 0);
        return FRD_ACTION_PRUNE;
    }
    bool is_dir = e->type == FRD_TYPE_DIR;
    if (we->depth == 0) {
        st->root_dev = e->dev;
    } else if (opts->one_fs && e->dev != st->root_dev) {
        // du -x leaves out a mount point and everything on it, not only what is below it.
        if (st->exporting) {
            export_add(st, we, parent, DU_NODE_OTHFS);
        }
        return FRD_ACTION_PRUNE;
    }
    if (!opts->count_links && (opts->hash_all || (!is_dir && e->nlink > 1))) {
        int added = du_seen_add(st->seen, e->dev, e->file_id);
        if (added < 0) {
            atomic_store(&st->out_of_memory, true);
            return FRD_ACTION_STOP;
        }
        if (added == 0) {
            if (st->exporting && !is_dir) {
                export_add(st, we, parent, 0); // ncdu lists every link and counts one
            }
            return FRD_ACTION_PRUNE; // a hard link (or directory) already counted
        }
    }
    uint64_t size = opts->apparent && !opts->inodes ? e->size : e->alloc_size;
    struct du_sum sum = {size, 1, opts->time != DU_TIME_NONE ? entry_time(opts, e) : 0};
    if (opts->grand_total && we->worker < st->nbatches) {
        struct du_batch *b = &st->batches[we->worker]; // this worker's alone
        b->total_bytes += size;
        b->total_inodes++;
        b->total_tmax = sum.tmax > b->total_tmax ? sum.tmax : b->total_tmax;
    }
    if (progress_line_enabled(&st->progress)) {
        count_progress(st, we->worker, size);
        if (is_dir) {
            progress_line_set_current(&st->progress, we->path, we->path_len);
        }
    }

    struct du_node *node = st->exporting ? export_add(st, we, parent, 0) : NULL;
    if (is_dir) {
        // Its name: the end of its path after the parent's (a root: the whole path).
        size_t name_len = we->path_len;
        if (parent != NULL && we->path_len > parent->path_len) {
            name_len = we->path_len - parent->path_len;
            name_len -= we->path[parent->path_len] == '/' ? 1 : 0;
        }
        struct du_dir *dir = malloc(sizeof *dir + name_len + 1);
        if (dir == NULL) {
            atomic_store(&st->out_of_memory, true);
            return FRD_ACTION_STOP;
        }
        dir->parent = parent;
        dir->node = node;
        atomic_init(&dir->bytes, size);
        atomic_init(&dir->inodes, 1);
        atomic_init(&dir->tmax, sum.tmax);
        atomic_init(&dir->pending, 1);
        atomic_init(&dir->refs, 1);
        atomic_init(&dir->listed, false);
        dir->depth = we->depth;
        dir->path_len = we->path_len;
        dir->name_len = name_len;
        memcpy(dir->name, we->path + we->path_len - name_len, name_len + 1);
        if (parent != NULL) {
            atomic_fetch_add_explicit(&parent->pending, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&parent->refs, 1, memory_order_relaxed);
        }
        *we->dir_state = dir;
        return FRD_ACTION_CONTINUE;
    }
    if (parent != NULL) {
        dir_add(parent, &sum, opts->time != DU_TIME_NONE);
    }
    if (we->depth == 0 ||
        (opts->all && (opts->max_depth < 0 || (long)we->depth <= opts->max_depth))) {
        du_emit(st, &sum, we->path, we->path_len);
    }
    return FRD_ACTION_CONTINUE;
}

static void du_dir_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *totals,
                        void *udata)
{
    (void)totals; // its bytes are apparent sizes of one level; du needs its own sums
    struct du_state *st = udata;
    struct du_dir *d = *dir->dir_state;
    if (d != NULL && d->node != NULL && du_export_failed(&st->export, dir->path)) {
        atomic_store(&d->node->read_error, true);
    }
    if (d != NULL && !atomic_exchange(&d->listed, true)) {
        assert(dir->path_len == d->path_len);
        dir_release(udata, d, dir->path);
    }
}

/** The walker lets go of a directory: finish it if its post-order visit never came. */
static void du_dir_free(void *state, void *udata)
{
    struct du_dir *d = state;
    if (!atomic_exchange(&d->listed, true)) {
        dir_release(udata, d, NULL);
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
    if (st->opts->ordered && err->call == FRD_OP_STAT && err->depth > 0 &&
        du_excluded(&st->opts->exclude, err->path)) {
        return FRD_ACTION_CONTINUE; // excluded: du_visit leaves it out without a word
    }
    bool listing = err->call == FRD_OP_OPEN || err->call == FRD_OP_READ_DIR;
    if (listing && st->exporting) {
        du_export_note_failed(&st->export, err->path);
    }
    du_report(st, listing ? "cannot read directory" : "cannot access", err->path, err->code);
    return FRD_ACTION_CONTINUE;
}

/**
 * --exclude and -X: drops what matches before it is stat'ed, as du tests its patterns
 * before the stat (so an excluded entry is neither counted nor a "cannot access").
 */
static void du_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                        void *udata)
{
    struct du_state *st = udata;
    size_t n = frd_walk_children_count(kids);
    if (n == 0) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        const char *path = frd_walk_children_path(kids, i, NULL); // as its visit spells it
        if (path == NULL) {
            atomic_store(&st->out_of_memory, true);
            break;
        }
        if (du_excluded(&st->opts->exclude, path)) {
            frd_walk_children_drop(kids, i);
            struct du_dir *d = *dir->dir_state;
            if (st->exporting && d != NULL && d->node != NULL &&
                du_export_add(&st->export, d->node, e->name, e->name_len, DU_NODE_PATTERN) ==
                    NULL) {
                atomic_store(&st->out_of_memory, true);
            }
        }
    }
}

/** --du-order: fts's order, which du meets entries in. */
static void du_order_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                              void *udata)
{
    (void)dir;
    (void)udata;
    fts_order_sort(kids);
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

    struct frd_walk_options wo;
    frd_walk_options_init(&wo);
    wo.follow = st->opts->follow;
    wo.workers = st->opts->workers;
    if (st->opts->one_fs) {
        wo.flags |= FRD_WALK_ONE_FILE_SYSTEM;
    }
    if (st->opts->ordered) {
        // Visits and post-order calls on one thread, depth-first, each directory's entries
        // by name (or in du's order): lines in that order, and a hard link charged to the
        // first link in it.
        wo.flags |= FRD_WALK_ORDERED;
    }
    if (st->opts->du_order) {
        wo.flags |= FRD_WALK_LISTING_ORDER;
        wo.on_children = du_order_children; // sorts what fts sorts, by the listing's inodes
        wo.children_fields = FRD_FIELD_TYPE | FRD_FIELD_FILE_ID;
    }
    wo.flags |= FRD_WALK_NO_PARENT_FD; // nothing here reaches an entry through its directory
    wo.on_error = du_error;
    wo.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY; // du_error reports a root and sets the status
    wo.on_dir_done = du_dir_done;
    wo.on_dir_state_free = du_dir_free;
    if (st->opts->exclude.n > 0 && !st->opts->ordered) {
        wo.on_children = du_children;        // only then: a children hook costs a stat per entry
        wo.flags |= FRD_WALK_CHILDREN_PARTS; // entry by entry: a big directory in parts
    }
    // What du reads of an entry: nothing else is asked of the kernel.
    wo.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_DEV |
                FRD_FIELD_FILE_ID | FRD_FIELD_NLINK;
    static const unsigned time_fields[] = {0, FRD_FIELD_MTIME, FRD_FIELD_ATIME, FRD_FIELD_CTIME};
    wo.fields |= time_fields[st->opts->time];
    if (progress_line_enabled(&st->progress)) {
        wo.on_progress = du_progress;
        wo.progress_interval_ms = 100;
        const char *interval = getenv("FRDDU_PROGRESS_INTERVAL_MS");
        if (interval != NULL) {
            wo.progress_interval_ms = (unsigned)strtoul(interval, NULL, 10);
        }
    }
    wo.ignore = st->opts->ignore; // --gitignore, --exclude-caches, --exclude-if-present
    int rc = frd_walk(walk_root, &wo, du_visit, st);
    if (atomic_load(&st->out_of_memory)) {
        return FRD_ENOMEM;
    }
    return rc == FRD_ESTOPPED ? 0 : rc;
}
