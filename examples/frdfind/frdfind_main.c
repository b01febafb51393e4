// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's main(): turns the parsed options into frd walks over the roots, evaluates
 * the expression in the walker's callbacks, reports errors as GNU find words them, and
 * exits 1 if anything failed (the walk itself goes on after an error).
 *
 * -depth evaluates a directory in the post-order hook instead of the visit callback. The
 * walk asks for the fields the expression reads and no more (ff_expr_needs()): -name,
 * -type and -inum make no stat at all.
 */
#define _POSIX_C_SOURCE 200809L // fstatat, AT_SYMLINK_NOFOLLOW

#include "errtext.h"
#include "frdfind.h"
#include "fts_order.h"
#include "grow.h"
#include "toolname.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/** State shared by the callbacks. */
struct ff_walk {
    const struct ff_options *opts;
    atomic_bool quit; /**< -quit was evaluated: no callback evaluates anything after it */
    /** -depth with several workers: evaluations hold their buffer's lock, and a post-order
     *  evaluation flushes every buffer first (see frdfind_out.c). */
    bool post_order_sync;
    /** -s or -find-order with an -execdir ... +: its batches run as find's (ff_exec_level()). */
    bool exec_levels;
};

/** -depth: is this directory's evaluation deferred to the post-order hook? Not for one whose
 *  stat failed (an unsearchable parent): the walker does not enter it, so it has no
 *  post-order call; it is evaluated at its visit. */
static bool deferred(const struct ff_options *opts, const struct frd_walk_entry *we)
{
    return opts->depth && we->entry->type == FRD_TYPE_DIR && we->entry->error >= 0 &&
           (opts->maxdepth < 0 || (int)we->depth < opts->maxdepth);
}

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
static struct ff_pending *pending;
static unsigned npending;

/** Reports the worker's pending error, if any, and forgets it. */
static void pending_flush(unsigned worker)
{
    if (worker < npending && pending[worker].code < 0) {
        ff_out_flush_worker(worker);
        ff_error_path(pending[worker].path, tool_strerror(pending[worker].code));
        pending[worker].code = 0;
    }
}

/** Keeps a failed stat for the visit that follows. @return false if it cannot wait. */
static bool pending_keep(const struct frd_walk_error *err)
{
    if (err->worker >= npending) {
        return false;
    }
    struct ff_pending *p = &pending[err->worker];
    if (p->code < 0 && strcmp(p->path, err->path) == 0) {
        return true; // the same entry again (its link's target failed too): once, as find
    }
    pending_flush(err->worker);
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
static void known_of(const struct ff_options *opts, const struct frd_walk_entry *we,
                     struct ff_result *res)
{
    int code = we->entry->error;
    if (we->worker < npending && pending[we->worker].code < 0) {
        struct ff_pending *p = &pending[we->worker];
        if (strcmp(p->path, we->path) == 0) {
            code = p->code;
            p->code = 0;
            res->unreported = code;
        } else {
            pending_flush(we->worker);
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
            ff_out_flush_worker(we->worker);
            ff_error_path(we->path, tool_strerror(res->unreported));
            res->unreported = 0;
        }
        return;
    }
    res->no_stat = true;
    res->no_type = type == FRD_TYPE_DIR || type == FRD_TYPE_UNKNOWN ||
                   (type == FRD_TYPE_LNK && opts->follow == FRD_FOLLOW_ALL);
    if (res->no_type && res->unreported < 0) {
        ff_out_flush_worker(we->worker);
        ff_error_path(we->path, tool_strerror(res->unreported));
        res->unreported = 0;
    }
}

static enum frd_action evaluate(struct ff_walk *walk, const struct frd_walk_entry *we,
                                struct ff_result *known)
{
    const struct ff_options *opts = walk->opts;
    if (atomic_load_explicit(&walk->quit, memory_order_relaxed) || ff_out_broken()) {
        // -quit, or stdout's reader went away (EPIPE): nothing more can be printed.
        atomic_store(&walk->quit, true);
        return FRD_ACTION_STOP;
    }
    struct ff_thread *thr = ff_thread_get(we->worker);
    if (thr == NULL) {
        ff_error("out of memory");
        return FRD_ACTION_STOP;
    }
    struct ff_result res = *known;
    if (walk->post_order_sync) {
        ff_out_lock(thr);
        ff_exec_run_ready(thr);
        ff_eval(opts->expr, opts, we, thr, &res);
        ff_out_unlock(thr);
    } else {
        ff_exec_run_ready(thr); // -execdir's batches of the directories done, before this
        ff_eval(opts->expr, opts, we, thr, &res);
    }
    if (res.quit) {
        atomic_store(&walk->quit, true);
        return FRD_ACTION_STOP;
    }
    if (res.prune && we->entry->type == FRD_TYPE_DIR) {
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

static enum frd_action on_visit(const struct frd_walk_entry *we, void *udata)
{
    struct ff_walk *walk = udata;
    ff_exec_dir_visit(we);
    if (walk->exec_levels) {
        ff_exec_level(we, false, ff_thread_get(we->worker));
    }
    struct ff_result known = {.prune = false};
    known_of(walk->opts, we, &known);
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

static void on_dir_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *totals,
                        void *udata)
{
    (void)totals;
    struct ff_walk *walk = udata;
    if (walk->exec_levels) {
        ff_exec_level(dir, true, ff_thread_get(dir->worker));
    }
    // The walker calls this for directories it listed and for those it could not read
    // (after their error, as find -depth prints them), never for a mount point under -xdev
    // or a directory at -maxdepth: both are evaluated at their visit.
    if (deferred(walk->opts, dir) && (int)dir->depth >= walk->opts->mindepth) {
        // The hook cannot stop the walk; a -quit here is honoured by the next visit.
        // Everything below the directory has been evaluated; its lines may still wait in
        // other workers' buffers: they go out before this one's.
        if (walk->post_order_sync) {
            ff_out_flush_each();
        }
        struct ff_result known = {.prune = false};
        evaluate(walk, dir, &known);
    }
}

/** Prints find's loop message: "File system loop detected; 'X' is part of the same file
 *  system loop as 'Y'." */
static void print_loop(const char *path, const char *ancestor)
{
    char *first = ff_quoted_in("File system loop detected; ", path,
                               " is part of the same file system loop as ");
    char *msg = first != NULL ? ff_quoted_in(first, ancestor, ".") : NULL;
    if (msg == NULL) {
        ff_error_path(path, tool_strerror(FRD_ELOOP));
    } else {
        ff_error(msg);
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
static void report_loop(const struct frd_walk_error *err)
{
    if (err->other_path != NULL) {
        print_loop(err->path, err->other_path);
        return;
    }
    struct stat target;
    if (stat(err->path, &target) != 0) {
        // A link that resolves to itself: stat fails with ELOOP.
        ff_error_path(err->path, strerror(errno));
        return;
    }
    size_t len = strlen(err->path);
    char *anc = malloc(len + 1);
    if (anc == NULL) {
        ff_error_path(err->path, tool_strerror(err->code));
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
            print_loop(err->path, probe);
            free(anc);
            return;
        }
    }
    free(anc);
    ff_error_path(err->path, tool_strerror(err->code));
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
        ff_exclude_children(walk->opts, dir, kids);
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
    if (err->call == FRD_OP_LOOP) {
        if (walk->exec_levels) {
            ff_exec_level_unvisited(err->depth, ff_thread_get(err->worker));
        }
        pending_flush(err->worker);
        ff_out_flush_worker(err->worker);
        report_loop(err);
    } else if (err->call == FRD_OP_STAT && err->depth > 0 && err->code != FRD_ELOOP &&
               pending_keep(err)) {
        // Reported at the visit, or when a test needs the stat (see known_of()).
    } else {
        pending_flush(err->worker);
        ff_out_flush_worker(err->worker);
        ff_error_path(err->path, tool_strerror(err->code));
    }
    return FRD_ACTION_CONTINUE;
}

int main(int argc, char **argv)
{
    tool_name_init(argv, "frdfind");
    // Before anything is opened (the locale's files included): a closed 0, 1 or 2 is taken.
    if (ff_std_reserve() < 0) {
        ff_error_path("/dev/null", strerror(errno));
        return 1;
    }
    // Matching (-name, -regex...) and -printf's times follow the locale, as in find.
    setlocale(LC_ALL, "");
    struct ff_options opts;
    int rc = ff_parse(argc, argv, &opts);
    if (rc != 0) {
        ff_exec_finish_all(); // frees the commands parsed (no batch has an argument)
        ff_file_close_all();
        ff_options_free(&opts);
        return rc < 0 ? 0 : 1;
    }
    if (opts.npaths == 0) { // -files0-from an empty list: nothing to walk, as find
        ff_files0_report_read_error(&opts);
        ff_options_free(&opts);
        return ff_failed() || ff_stderr_failed() ? 1 : 0;
    }

    struct frd_walk_options wo;
    frd_walk_options_init(&wo);
    wo.follow = opts.follow;
    wo.workers = opts.workers; // the walk runs with the threads it can start
    wo.min_depth = 0;          // applied in on_visit()
    wo.max_depth = opts.maxdepth;
    wo.on_error = on_error;
    if (ff_exec_wants_dir_states()) {
        // -execdir ... + gathers each directory's entries in the directory's state.
        wo.on_dir_state_free = ff_exec_dir_done;
    }
    // Exactly the fields the expression reads: -type, -name and -inum need no stat.
    wo.fields = FRD_FIELD_TYPE | (opts.needs & FRD_FIELDS_ALL);
    if (opts.xdev) {
        wo.flags |= FRD_WALK_ONE_FILE_SYSTEM;
    }
    if (opts.ordered) {
        wo.flags |= FRD_WALK_ORDERED;
    }
    // In find's order (-s, -find-order) -execdir ... + runs its batches where find does,
    // which takes the walk's leaving of each directory too.
    bool exec_levels = opts.ordered && ff_exec_wants_dir_states();
    if (opts.depth || exec_levels) {
        wo.on_dir_done = on_dir_done;
    }
    if (opts.exclude != NULL) {
        wo.on_children = on_children;
        wo.flags |= FRD_WALK_CHILDREN_PARTS; // entry by entry: a big directory in parts
        wo.children_fields = FRD_FIELD_TYPE | (ff_expr_needs(opts.exclude) & FRD_FIELDS_ALL);
    }
    if (opts.find_order) {
        // Each directory in its own order, as find's fts meets it, and what fts sorts
        // sorted by the listing's inode numbers.
        wo.flags |= FRD_WALK_LISTING_ORDER;
        wo.on_children = on_children;
        wo.children_fields |= FRD_FIELD_TYPE | FRD_FIELD_FILE_ID;
    }

    struct frd_ignore *ignore = NULL;
    if (ff_ignore_build(&opts, &ignore) < 0) {
        ff_options_free(&opts);
        return 1;
    }
    wo.ignore = ignore;

    opts.stat_may_fail = geteuid() != 0;
    // No test reaches an entry through its directory's descriptor: the walk need not hold
    // one for the visits (ordered: each directory is closed as soon as it is listed).
    // (-exclude is evaluated in the children hook, on the descriptor of the directory.)
    if (!opts.xdev && !opts.color && !ff_expr_uses_dir_fd(opts.expr, opts.stat_may_fail)) {
        wo.flags |= FRD_WALK_NO_PARENT_FD;
    }
    struct ff_walk walk = {.opts = &opts, .exec_levels = exec_levels};
    if (exec_levels) {
        ff_exec_levels_begin();
    }
    atomic_init(&walk.quit, false);
    // One output state per worker index: the walker runs at most 8 workers (or the -j asked).
    unsigned nstates = opts.workers > 8 ? opts.workers : 8;
    if (ff_out_init(nstates, opts.ordered || opts.workers == 1) < 0) {
        ff_error("out of memory");
        ff_options_free(&opts);
        return 1;
    }
    pending = calloc(nstates, sizeof(*pending));
    npending = pending != NULL ? nstates : 0;
    walk.post_order_sync = opts.depth && !opts.ordered && opts.workers != 1;
    for (unsigned i = 0; walk.post_order_sync && i < nstates; i++) {
        // ff_out_flush_each() reads every state: all are made before the walk.
        if (ff_thread_get(i) == NULL) {
            ff_error("out of memory");
            ff_out_free_all();
            ff_options_free(&opts);
            return 1;
        }
    }
    // Every root is walked: one that is missing, empty or unreadable is reported by the
    // walk, once, with its path (find's message), and the others are walked all the same.
    // find (and POSIX) take the roots in command-line order: the results of a root come
    // after everything of the roots before it. The ordered walk keeps that itself; a
    // concurrent walk over several roots would interleave them, so each root is then a
    // walk of its own, its output flushed before the next starts (-quit ends them all).
    // An empty name from -files0-from is reported in its turn, between the walks of the
    // names around it, as find reads its list while it walks.
    uint64_t count = 0;
    for (size_t i = 0; i < opts.npaths && !atomic_load(&walk.quit);) {
        if (opts.files0_from != NULL && opts.paths[i][0] == '\0') {
            count += ff_out_flush_all();
            ff_files0_report_empty(&opts, i++);
            continue;
        }
        size_t end = i + 1;
        while (opts.ordered && end < opts.npaths &&
               !(opts.files0_from != NULL && opts.paths[end][0] == '\0')) {
            end++;
        }
        opts.roots = &opts.paths[i];
        opts.nroots = end - i;
        rc = frd_walk_roots(opts.roots, opts.nroots, &wo, on_visit, &walk);
        if (rc < 0 && rc != FRD_ESTOPPED && !atomic_load(&walk.quit)) {
            ff_error(tool_strerror(rc));
        }
        count += ff_out_flush_all();
        ff_exec_walk_end(ff_thread_get(0)); // the last -execdir batches of these roots' trees
        i = end;
    }
    count += ff_out_flush_all();
    if (!atomic_load(&walk.quit)) {
        ff_files0_report_read_error(&opts); // after the names read before it, as find
    }
    for (unsigned i = 0; i < npending; i++) {
        pending_flush(i); // an error no visit claimed
        free(pending[i].path);
    }
    free(pending);
    if (opts.count) {
        char line[32];
        int n = snprintf(line, sizeof(line), "%" PRIu64 "\n", count);
        struct ff_thread *thr = ff_thread_get(0);
        if (thr != NULL && n > 0) {
            ff_out_append(thr, line, (size_t)n);
            ff_out_flush_all();
        }
    }
    // The '+' batches still pending run last, after every line printed (as find's do).
    ff_out_flush_all();
    ff_exec_finish_all();
    ff_out_flush_all();
    ff_file_close_all();
    int werr = ff_out_write_error();
    // find closes stdout at exit (gnulib's close_stdout): a close that fails says why, after
    // "write error" (a closed stdout: "Bad file descriptor"), unless nothing was written.
    int cerr = close(STDOUT_FILENO) == 0 ? 0 : errno;
    if (ff_std_was_closed(STDOUT_FILENO)) {
        cerr = EBADF; // (what stood for it was /dev/null, see frdfind_stdfd.c)
    }
    if (werr != 0 || (cerr != 0 && cerr != EBADF)) {
        // find's two lines: "'standard output': Broken pipe", then "write error"; the first
        // only when the lines pending at the end failed (see ff_out_unflushed_failure()).
        // frdfind stops at a broken pipe, where find walks on and fails at the end.
        if (werr != 0 && (werr == EPIPE || ff_out_unflushed_failure())) {
            ff_error_path("standard output", strerror(werr));
        }
        char text[128] = "write error";
        if (cerr != 0) {
            snprintf(text, sizeof(text), "write error: %s", strerror(cerr));
        }
        ff_error(text);
    }
    ff_out_free_all();
    ff_color_free();
    frd_ignore_free(ignore);
    ff_options_free(&opts);
    return ff_failed() || ff_stderr_failed() ? 1 : 0;
}
