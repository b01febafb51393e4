// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's walks: the walk's options from the run's (the fields the expression reads and
 * no more: -name, -type and -inum make no stat at all), the walker's callbacks, which
 * evaluate the expression on each entry, and the roots walked in command-line order.
 *
 * -depth evaluates a directory in the post-order hook instead of the visit callback.
 * Errors are reported as GNU find words them and where its fts would meet them: a failed
 * stat waits for the visit that follows it (struct ff_pending), a directory loop names the
 * ancestor it leads back to. The walk goes on after an error.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_walk.h"

#include "errtext.h"
#include "frdfind_actions.h"
#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_exclude.h"
#include "frdfind_exec.h"
#include "frdfind_files0.h"
#include "frdfind_ignore.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "fts_order.h"
#include "grow.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/**
 * A failed stat of an entry below a root, as find reports it. fts stats a directory (and,
 * with -L, a link) itself and reports its failure when it meets it; any other entry is
 * stat'ed only when a test needs it, and the error reported then, once. The walker reports
 * every failed stat just before visiting the entry, on the same worker: the error waits
 * here until that visit says which it is (one slot per worker; an error that no visit
 * claims, or a second one, goes out when the next comes).
 */
struct ff_pending {
    char *path; /**< the entry's path, or NULL */
    size_t cap; /**< bytes allocated for path */
    int code;   /**< negative error code */
};

/** State shared by the callbacks (their udata). */
struct ff_walk {
    struct ff_ctx *ctx;
    const struct ff_options *opts;
    atomic_bool quit; /**< -quit was evaluated: no callback evaluates anything after it */
    /** -depth with several workers: evaluations hold their buffer's lock, and a post-order
     *  evaluation flushes every buffer first (see frdfind_out.c). */
    bool post_order_sync;
    /** -s or -find-order with an -execdir ... +: its batches run as find's (ff_exec_level()). */
    bool exec_levels;
    struct ff_pending *pending; /**< one slot per worker index */
    unsigned npending;
    struct ff_thread *const *threads; /**< the output states by worker (ff_out_threads()) */
    unsigned nthreads;
    /** The expression is one -print or -print0, written as it is (no -color, no terminal
     *  marks), with no -exec, -depth or -execdir levels: the visits write the path straight
     *  into the worker's buffer (on_visit_plain()) when nothing is pending for the entry. */
    bool plain_print;
    char print_sep;            /**< plain_print's separator: '\n' or '\0' */
    int mindepth;              /**< opts->mindepth, read at every visit */
    const atomic_bool *broken; /**< ff_out_broken_flag(), read at every visit */
};

/** -depth: is this directory's evaluation deferred to the post-order hook? Not for one whose
 *  stat failed (an unsearchable parent): the walker does not enter it, so it has no
 *  post-order call; it is evaluated at its visit. */
static bool deferred(const struct ff_options *opts, const struct frd_walk_entry *we)
{
    return opts->depth && we->entry->type == FRD_TYPE_DIR && we->entry->error >= 0 &&
           (opts->maxdepth < 0 || (int)we->depth < opts->maxdepth);
}

/** Reports the worker's pending error, if any, and forgets it. */
static void pending_flush(struct ff_walk *walk, unsigned worker)
{
    struct ff_pending *p = &walk->pending[worker];
    if (worker < walk->npending && p->code < 0) {
        ff_out_flush_worker(walk->ctx, worker);
        ff_error_path(walk->ctx, p->path, tool_strerror(p->code));
        p->code = 0;
    }
}

/** Keeps a failed stat for the visit that follows. @return false if it cannot wait. */
static bool pending_keep(struct ff_walk *walk, const struct frd_walk_error *err)
{
    if (err->worker >= walk->npending) {
        return false;
    }
    struct ff_pending *p = &walk->pending[err->worker];
    if (p->code < 0 && strcmp(p->path, err->path) == 0) {
        return true; // the same entry again (its link's target failed too): once, as find
    }
    pending_flush(walk, err->worker);
    size_t len = strlen(err->path);
    if (tool_reserve_chars(&p->path, &p->cap, len + 1) < 0) {
        return false;
    }
    memcpy(p->path, err->path, len + 1);
    p->code = err->code;
    return true;
}

/**
 * What is known of the entry (struct ff_result's no_stat, no_type, unreported): takes the
 * error the walker reported for it, reports it now where find's fts would, and otherwise
 * leaves it for the first test that needs the stat.
 */
static void known_of(struct ff_walk *walk, const struct frd_walk_entry *we, struct ff_result *res)
{
    struct ff_ctx *ctx = walk->ctx;
    int code = we->entry->error;
    if (we->worker < walk->npending && walk->pending[we->worker].code < 0) {
        struct ff_pending *p = &walk->pending[we->worker];
        if (strcmp(p->path, we->path) == 0) {
            code = p->code;
            p->code = 0;
            res->unreported = code;
        } else {
            pending_flush(walk, we->worker);
        }
    }
    if (code >= 0) {
        return;
    }
    enum frd_type type = we->entry->type;
    if (type == FRD_TYPE_LNK && we->entry->error >= 0 &&
        (code == FRD_ENOENT || code == FRD_ENOTDIR)) {
        // -L, a link whose target is missing: find takes the link itself, after its error.
        if (res->unreported < 0) {
            ff_out_flush_worker(ctx, we->worker);
            ff_error_path(ctx, we->path, tool_strerror(res->unreported));
            res->unreported = 0;
        }
        return;
    }
    res->no_stat = true;
    res->no_type = type == FRD_TYPE_DIR || type == FRD_TYPE_UNKNOWN ||
                   (type == FRD_TYPE_LNK && walk->opts->follow == FRD_FOLLOW_ALL);
    if (res->no_type && res->unreported < 0) {
        ff_out_flush_worker(ctx, we->worker);
        ff_error_path(ctx, we->path, tool_strerror(res->unreported));
        res->unreported = 0;
    }
}

/** Whether the walk stops before the next entry: -quit, or stdout's reader went away (EPIPE:
 *  nothing more can be printed); then every later call says so too. */
static bool walk_quitting(struct ff_walk *walk)
{
    if (atomic_load_explicit(&walk->quit, memory_order_relaxed) ||
        atomic_load_explicit(walk->broken, memory_order_relaxed)) {
        atomic_store(&walk->quit, true);
        return true;
    }
    return false;
}

/** The worker's state, made at its first visit (one call then, an index after).
 *  @return it, or NULL when memory ran out (reported). */
static struct ff_thread *walk_thread(struct ff_walk *walk, unsigned worker)
{
    struct ff_thread *thr = worker < walk->nthreads ? walk->threads[worker] : NULL;
    if (thr == NULL && (thr = ff_thread_get(walk->ctx, worker)) == NULL) {
        ff_error(walk->ctx, "out of memory");
    }
    return thr;
}

static enum frd_action evaluate(struct ff_walk *walk, const struct frd_walk_entry *we,
                                struct ff_result *known)
{
    struct ff_ctx *ctx = walk->ctx;
    const struct ff_options *opts = walk->opts;
    struct ff_thread *thr;
    if (walk_quitting(walk) || (thr = walk_thread(walk, we->worker)) == NULL) {
        return FRD_ACTION_STOP;
    }
    struct ff_eval st = {
        .ctx = ctx, .we = we, .thr = thr, .stat_on_demand = opts->stat_may_fail, .res = *known};
    // (ctx->execs: a run without -exec and its kin makes no call into frdfind_exec.c.)
    if (walk->post_order_sync) {
        ff_out_lock(thr);
        if (ctx->execs != NULL) {
            ff_exec_run_ready(ctx, thr);
        }
        ff_eval(opts->expr, &st);
        ff_out_unlock(thr);
    } else {
        if (ctx->execs != NULL) {
            ff_exec_run_ready(ctx, thr); // -execdir's batches of the directories done, first
        }
        ff_eval(opts->expr, &st);
    }
    if (st.res.quit) {
        atomic_store(&walk->quit, true);
        return FRD_ACTION_STOP;
    }
    if (st.res.prune && we->entry->type == FRD_TYPE_DIR) {
        return FRD_ACTION_PRUNE;
    }
    return FRD_ACTION_CONTINUE;
}

/**
 * -depth -xdev: a mount point is visited but not descended into, so the walker makes no
 * post-order call for it; it is evaluated at its visit instead. Costs one fstat of the
 * parent (and one fstatat in names-only walks) per directory, with -depth -xdev only.
 */
static bool is_mount_point(const struct ff_options *opts, const struct frd_walk_entry *we)
{
    if (!opts->xdev || we->depth == 0 || we->parent_fd == FRD_INVALID_FD) {
        return false;
    }
    struct stat parent;
    if (fstat(we->parent_fd, &parent) != 0) {
        return false;
    }
    uint64_t dev = we->entry->dev;
    if (!(we->entry->fields & FRD_FIELD_DEV)) {
        struct stat st;
        int flags = opts->follow == FRD_FOLLOW_ALL ? 0 : AT_SYMLINK_NOFOLLOW;
        if (fstatat(we->parent_fd, we->entry->name, &st, flags) != 0) {
            return false;
        }
        dev = (uint64_t)st.st_dev;
    }
    return dev != (uint64_t)parent.st_dev;
}

/**
 * The plain -print (struct ff_walk's plain_print) of an entry with no error pending: what
 * evaluate() does for it, without building the evaluation's state.
 */
static enum frd_action print_plain(struct ff_walk *walk, const struct frd_walk_entry *we)
{
    struct ff_thread *thr;
    if (walk_quitting(walk) || (thr = walk_thread(walk, we->worker)) == NULL) {
        return FRD_ACTION_STOP;
    }
    ff_out_print_record(thr, we->path, we->path_len, walk->print_sep);
    return FRD_ACTION_CONTINUE;
}

static enum frd_action on_visit(const struct frd_walk_entry *we, void *udata)
{
    struct ff_walk *walk = udata;
    if (walk->ctx->execs != NULL) {
        ff_exec_dir_visit(walk->ctx, we);
    }
    if (walk->exec_levels) {
        ff_exec_level(walk->ctx, we, false, ff_thread_get(walk->ctx, we->worker));
    }
    struct ff_result known = {.prune = false};
    known_of(walk, we, &known);
    // -mindepth is applied here, not by the walker, so that a failed stat above it is
    // reported as find reports it (see known_of()), and -execdir ... + has the states of
    // the directories above it.
    if ((int)we->depth < walk->opts->mindepth ||
        (deferred(walk->opts, we) && !is_mount_point(walk->opts, we))) {
        return atomic_load_explicit(&walk->quit, memory_order_relaxed) ? FRD_ACTION_STOP
                                                                       : FRD_ACTION_CONTINUE;
    }
    return evaluate(walk, we, &known);
}

/** The visit callback of a plain -print (struct ff_walk's plain_print): an entry with an
 *  error pending, or above -mindepth, goes the general way (on_visit()). */
static enum frd_action on_visit_plain(const struct frd_walk_entry *we, void *udata)
{
    struct ff_walk *walk = udata;
    if (we->entry->error < 0 || (int)we->depth < walk->mindepth || we->worker >= walk->npending ||
        walk->pending[we->worker].code < 0) {
        return on_visit(we, udata);
    }
    return print_plain(walk, we);
}

/**
 * The names hook of a plain -print in a concurrent walk (struct ff_walk's plain_print, at
 * -mindepth 1 or less): prints a run of a directory's entries that need nothing but their
 * path, as on_visit_plain() prints each. No error waits for them (the walker stats none of
 * them): one kept for another entry goes out first, as a visit of another path sends it.
 */
static enum frd_action on_names_plain(const struct frd_walk_names *names, void *udata)
{
    struct ff_walk *walk = udata;
    struct ff_thread *thr;
    if (walk_quitting(walk) || (thr = walk_thread(walk, names->worker)) == NULL) {
        return FRD_ACTION_STOP;
    }
    assert((int)names->depth >= walk->mindepth); // (set only at -mindepth 1 or less)
    pending_flush(walk, names->worker);
    ff_out_print_names(thr, names, walk->print_sep);
    return FRD_ACTION_CONTINUE;
}

static void on_dir_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *totals,
                        void *udata)
{
    (void)totals;
    struct ff_walk *walk = udata;
    if (walk->exec_levels) {
        ff_exec_level(walk->ctx, dir, true, ff_thread_get(walk->ctx, dir->worker));
    }
    // The walker calls this for directories it listed and for those it could not read
    // (after their error, as find -depth prints them), never for a mount point under -xdev
    // or a directory at -maxdepth: both are evaluated at their visit.
    if (deferred(walk->opts, dir) && (int)dir->depth >= walk->opts->mindepth) {
        // The hook cannot stop the walk; a -quit here is honoured by the next visit.
        // Everything below the directory has been evaluated; its lines may still wait in
        // other workers' buffers: they go out before this one's.
        if (walk->post_order_sync) {
            ff_out_flush_each(walk->ctx);
        }
        struct ff_result known = {.prune = false};
        evaluate(walk, dir, &known);
    }
}

/** Prints find's loop message: "File system loop detected; 'X' is part of the same file
 *  system loop as 'Y'." */
static void print_loop(struct ff_ctx *ctx, const char *path, const char *ancestor)
{
    char *first = ff_quoted_in("File system loop detected; ", path,
                               " is part of the same file system loop as ");
    char *msg = first != NULL ? ff_quoted_in(first, ancestor, ".") : NULL;
    if (msg == NULL) {
        ff_error_path(ctx, path, tool_strerror(FRD_ELOOP));
    } else {
        ff_error(ctx, msg);
    }
    free(first);
    free(msg);
}

/**
 * find words a directory loop (a link followed back, a bind mount of an ancestor below
 * itself, a real directory repeating an ancestor reached through a link) as
 * "File system loop detected; 'X' is part of the same file system loop as 'Y'." where Y
 * is the ancestor X leads back to. The walker reports it as FRD_OP_LOOP on X with Y in
 * err->other_path; without Y, Y is found by comparing X with each ancestor path (the error
 * is rare, so a few stat calls are fine).
 */
static void report_loop(struct ff_ctx *ctx, const struct frd_walk_error *err)
{
    if (err->other_path != NULL) {
        print_loop(ctx, err->path, err->other_path);
        return;
    }
    struct stat target;
    if (stat(err->path, &target) != 0) {
        // A link that resolves to itself: stat fails with ELOOP.
        ff_error_path(ctx, err->path, strerror(errno));
        return;
    }
    size_t len = strlen(err->path);
    char *anc = malloc(len + 1);
    if (anc == NULL) {
        ff_error_path(ctx, err->path, tool_strerror(err->code));
        return;
    }
    memcpy(anc, err->path, len + 1);
    for (unsigned up = 0; up < err->depth; up++) {
        char *slash = strrchr(anc, '/');
        if (slash == NULL) {
            break;
        }
        *slash = '\0';
        struct stat st;
        const char *probe = anc[0] != '\0' ? anc : "/";
        if (stat(probe, &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino) {
            print_loop(ctx, err->path, probe);
            free(anc);
            return;
        }
    }
    free(anc);
    ff_error_path(ctx, err->path, tool_strerror(err->code));
}

/** -find-order: fts's order (which counts every entry, so it comes first); -exclude: drops
 *  what EXPR matches from each listing, before any stat. */
static void on_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                        void *udata)
{
    struct ff_walk *walk = udata;
    if (walk->opts->find_order) {
        fts_order_sort(kids);
    }
    if (walk->opts->exclude != NULL) {
        ff_exclude_children(walk->ctx, dir, kids);
    }
}

static enum frd_action on_error(const struct frd_walk_error *err, void *udata)
{
    struct ff_walk *walk = udata;
    if (atomic_load_explicit(&walk->quit, memory_order_relaxed)) {
        // -quit in a post-order evaluation (which cannot stop the walk): find reads
        // nothing after it, so it meets no error either.
        return FRD_ACTION_STOP;
    }
    // Each message follows the lines of this worker before it, as find's follow its output.
    struct ff_ctx *ctx = walk->ctx;
    if (err->call == FRD_OP_LOOP) {
        if (walk->exec_levels) {
            ff_exec_level_unvisited(ctx, err->depth, ff_thread_get(ctx, err->worker));
        }
        pending_flush(walk, err->worker);
        ff_out_flush_worker(ctx, err->worker);
        report_loop(ctx, err);
    } else if (err->call == FRD_OP_STAT && err->depth > 0 && err->code != FRD_ELOOP &&
               pending_keep(walk, err)) {
        // Reported at the visit, or when a test needs the stat (see known_of()).
    } else {
        pending_flush(walk, err->worker);
        ff_out_flush_worker(ctx, err->worker);
        ff_error_path(ctx, err->path, tool_strerror(err->code));
    }
    return FRD_ACTION_CONTINUE;
}

/** -execdir ... +: a directory's batches, once the walk is done with it. */
static void on_dir_state_free(void *state, void *udata)
{
    struct ff_walk *walk = udata;
    ff_exec_dir_done(walk->ctx, state);
}

/** The walk's options for the run's. */
static void walk_options(struct ff_ctx *ctx, struct frd_walk_options *wo, bool exec_levels)
{
    struct ff_options *o = &ctx->opts;
    frd_walk_options_init(wo);
    wo->follow = o->follow;
    wo->workers = o->workers; // the walk runs with the threads it can start
    wo->min_depth = 0;        // applied in on_visit()
    wo->max_depth = o->maxdepth;
    wo->on_error = on_error;
    wo->flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY; // on_error prints a root's message, as find
    if (ff_exec_wants_dir_states(ctx)) {
        // -execdir ... + gathers each directory's entries in the directory's state.
        wo->on_dir_state_free = on_dir_state_free;
    }
    // Exactly the fields the expression reads: -type, -name and -inum need no stat.
    wo->fields = FRD_FIELD_TYPE | (o->needs & FRD_FIELDS_ALL);
    if (o->xdev) {
        wo->flags |= FRD_WALK_ONE_FILE_SYSTEM;
    }
    if (o->ordered) {
        wo->flags |= FRD_WALK_ORDERED;
    }
    // In find's order (-s, -find-order), -execdir ... + runs its batches where find does,
    // which takes the walk's leaving of each directory too.
    if (o->depth || exec_levels) {
        wo->on_dir_done = on_dir_done;
    }
    if (o->exclude != NULL) {
        wo->on_children = on_children;
        wo->flags |= FRD_WALK_CHILDREN_PARTS; // entry by entry: a big directory in parts
        wo->children_fields = FRD_FIELD_TYPE | (ff_expr_needs(o->exclude) & FRD_FIELDS_ALL);
    }
    if (o->find_order) {
        // Each directory in its own order, as find's fts meets it, and what fts sorts
        // sorted by the listing's inode numbers.
        wo->flags |= FRD_WALK_LISTING_ORDER;
        wo->on_children = on_children;
        wo->children_fields |= FRD_FIELD_TYPE | FRD_FIELD_FILE_ID;
    }
    // No test reaches an entry through its directory's descriptor: the walk need not hold
    // one for the visits (ordered: each directory is closed as soon as it is listed).
    // (-exclude is evaluated in the children hook, on the descriptor of the directory.)
    if (!o->xdev && !o->color && !ff_expr_uses_dir_fd(o->expr, o->stat_may_fail)) {
        wo->flags |= FRD_WALK_NO_PARENT_FD;
    }
}

/**
 * The callbacks' state, and the output states of every worker index.
 * @return 0, or 1 after "out of memory" was reported (nothing to free then).
 */
static int walk_begin(struct ff_ctx *ctx, struct ff_walk *walk, bool exec_levels)
{
    struct ff_options *o = &ctx->opts;
    *walk = (struct ff_walk){.ctx = ctx, .opts = o, .exec_levels = exec_levels};
    atomic_init(&walk->quit, false);
    if (exec_levels) {
        ff_exec_levels_begin(ctx);
    }
    // One output state per worker index: the walker runs at most 8 workers (or the -j asked).
    unsigned nstates = o->workers > 8 ? o->workers : 8;
    if (ff_out_init(ctx, nstates, o->ordered || o->workers == 1) < 0) {
        ff_error(ctx, "out of memory");
        return 1;
    }
    walk->threads = ff_out_threads(ctx, &walk->nthreads);
    walk->broken = ff_out_broken_flag(ctx);
    walk->mindepth = o->mindepth;
    walk->pending = calloc(nstates, sizeof(*walk->pending));
    walk->npending = walk->pending != NULL ? nstates : 0;
    walk->post_order_sync = o->depth && !o->ordered && o->workers != 1;
    const struct ff_expr *e = o->expr;
    walk->print_sep = e->sep;
    walk->plain_print = e->eval == ff_eval_print && (e->needs & FF_NEED_STAT) == 0 &&
                        (e->sep == '\0' || (!o->color && !ff_out_stdout_is_tty(ctx))) &&
                        ctx->execs == NULL && !exec_levels && !o->depth;
    for (unsigned i = 0; walk->post_order_sync && i < nstates; i++) {
        // ff_out_flush_each() reads every state: all are made before the walk.
        if (ff_thread_get(ctx, i) == NULL) {
            ff_error(ctx, "out of memory");
            free(walk->pending);
            return 1;
        }
    }
    return 0;
}

/** After the walks: the stat errors no visit claimed. */
static void walk_end(struct ff_walk *walk)
{
    for (unsigned i = 0; i < walk->npending; i++) {
        pending_flush(walk, i);
        free(walk->pending[i].path);
    }
    free(walk->pending);
}

int ff_walk_all(struct ff_ctx *ctx, uint64_t *count)
{
    struct ff_options *o = &ctx->opts;
    o->stat_may_fail = geteuid() != 0;
    bool exec_levels = o->ordered && ff_exec_wants_dir_states(ctx);
    struct frd_walk_options wo;
    walk_options(ctx, &wo, exec_levels);
    struct frd_ignore *ignore; // -gitignore and its kin (frdfind_ignore.c), or NULL
    if (ff_ignore_build(ctx, &ignore) < 0) {
        return 1;
    }
    wo.ignore = ignore;
    struct ff_walk walk;
    if (walk_begin(ctx, &walk, exec_levels) != 0) {
        frd_ignore_free(ignore);
        return 1;
    }
    if (walk.plain_print && !o->ordered && o->mindepth <= 1) {
        wo.on_names = on_names_plain; // (its entries are at depth 1 or deeper)
    }
    // Every root is walked: one that is missing, empty or unreadable is reported by the
    // walk, once, with its path (find's message), and the others are walked all the same.
    // find (and POSIX) take the roots in command-line order: the results of a root come
    // after everything of the roots before it. The ordered walk keeps that itself; a
    // concurrent walk over several roots would interleave them, so each root is then a
    // walk of its own, its output flushed before the next starts (-quit ends them all).
    // An empty name from -files0-from is reported in its turn, between the walks of the
    // names around it, as find reads its list while it walks.
    *count = 0;
    for (size_t i = 0; i < o->npaths && !atomic_load(&walk.quit);) {
        if (o->files0_from != NULL && o->paths[i][0] == '\0') {
            *count += ff_out_flush_all(ctx);
            ff_files0_report_empty(ctx, i++);
            continue;
        }
        size_t end = i + 1;
        while (o->ordered && end < o->npaths &&
               !(o->files0_from != NULL && o->paths[end][0] == '\0')) {
            end++;
        }
        o->roots = &o->paths[i];
        o->nroots = end - i;
        int rc = frd_walk_roots(o->roots, o->nroots, &wo,
                                walk.plain_print ? on_visit_plain : on_visit, &walk);
        if (rc < 0 && rc != FRD_ESTOPPED && !atomic_load(&walk.quit)) {
            ff_error(ctx, tool_strerror(rc));
        }
        *count += ff_out_flush_all(ctx);
        // The last -execdir batches of these roots' trees.
        ff_exec_walk_end(ctx, ff_thread_get(ctx, 0));
        i = end;
    }
    *count += ff_out_flush_all(ctx);
    if (!atomic_load(&walk.quit)) {
        ff_files0_report_read_error(ctx); // after the names read before it, as find
    }
    walk_end(&walk);
    frd_ignore_free(ignore);
    return 0;
}
