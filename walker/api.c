// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's public entry points: options, frd_walk(), background and libuv-loop walks,
 * cancellation, and frd_read_tree(). Sets a walk up, runs it in the chosen mode, tears it
 * down.
 */
#include "walker.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void frd_walk_options_init(struct frd_walk_options *opts)
{
    memset(opts, 0, sizeof(*opts));
    opts->struct_size = sizeof(*opts);
    opts->follow = FRD_FOLLOW_NEVER;
    opts->max_depth = -1;
    opts->fields = FRD_FIELDS_ALL;
    opts->children_fields = FRD_FIELD_TYPE;
}

/**
 * Copies the caller's options: the first struct_size bytes as the caller's build knows the
 * struct, every later member at its default, so a program built against an older frd.h
 * keeps working when the struct grows. @return 0, or FRD_EINVAL if struct_size is not set
 * (the options were not initialized with frd_walk_options_init()).
 */
static int walk_options_copy(struct frd_walk_options *o, const struct frd_walk_options *opts)
{
    frd_walk_options_init(o);
    if (opts == NULL) {
        return 0;
    }
    size_t n = opts->struct_size;
    if (n < offsetof(struct frd_walk_options, fields)) {
        return FRD_EINVAL; // older than the first release of the size field, or zeroed
    }
    if (n > sizeof(*o)) {
        n = sizeof(*o); // newer caller: what it added is unknown here
    }
    memcpy(o, opts, n);
    o->struct_size = sizeof(*o);
    return 0;
}

#define WALK_FLAGS_ALL                                                                          \
    (FRD_WALK_NAMES_ONLY | FRD_WALK_ONE_FILE_SYSTEM | FRD_WALK_UNIQUE_FILES |                   \
     FRD_WALK_UNIQUE_DIRS | FRD_WALK_SKIP_HIDDEN | FRD_WALK_ORDERED | FRD_WALK_CHILDREN_PARTS | \
     FRD_WALK_NO_PARENT_FD | FRD_WALK_LISTING_ORDER)

/** Default cap on workers when the caller leaves it to us (bfs caps at 8 as well). */
#define WALK_DEFAULT_MAX_WORKERS 8
/** Bound of a pool widened while its workers sit blocked on I/O (walker/pool.c): the knee
 *  of the cold-cache sweep in bench/README.md. */
#define WALK_MAX_IO_WORKERS 32
/** Hard cap: past this, more threads only contend. */
#define WALK_MAX_WORKERS 256
/** Descriptor budget when the limit is unknown or unlimited. */
#define WALK_DEFAULT_FD_BUDGET 4096u

int frd__worker_init(struct frd_walk *walk, struct frd__worker *w, struct frd__sched_worker *sw)
{
    w->walk = walk;
    w->sw = sw;
    frd__sched_bind(sw, w);
    w->last_class = -1;
    atomic_init(&w->batches_out, 0);
    int rc;
    if ((rc = frd_lister_new(&w->lister, walk->lister_flags)) < 0 ||
        (rc = frd_lister_set_fields(w->lister, walk->list_fields)) < 0 ||
        (rc = frd_list_new(&w->list)) < 0) {
        return rc;
    }
    if (walk->collect.on && (rc = frd_list_new(&w->collect)) < 0) {
        return rc;
    }
    return 0;
}

static void worker_free(struct frd__worker *w)
{
    frd_lister_free(w->lister);
    frd_list_free(w->list);
    frd_list_free(w->collect);
    frd__free(w->path);
    frd__free(w->path2);
    frd__free(w->chain);
    frd__free(w->canon);
    frd__children_free(w);
    for (size_t i = 0; i < w->nslabs; i++) {
        frd__free(w->slabs[i]);
    }
    frd__free(w->slabs);
}

static void walk_free(struct frd_walk *walk)
{
    if (walk == NULL) {
        return;
    }
    if (walk->ordered.state != NULL) {
        frd__ordered_free(walk);
    }
    if (walk->workers != NULL) {
        // Every slot of the array: workers a widened pool set up included (zeroed ones are
        // safe to free).
        for (unsigned i = 0; i < frd__sched_capacity(walk->sched); i++) {
            worker_free(&walk->workers[i]);
        }
    }
    if (walk->consumer != NULL) {
        worker_free(walk->consumer);
        frd__free(walk->consumer);
    }
    frd__free(walk->workers);
    for (size_t i = 0; walk->roots != NULL && i < walk->nroots; i++) {
        frd__free(walk->roots[i]);
    }
    frd__free(walk->roots);
    frd__idset_free(walk->ids.seen);
    frd__volcache_free(walk->ids.volumes);
    if (walk->locks_ready) {
        uv_mutex_destroy(&walk->ordered.node_lock);
        frd__batches_free(walk);
        uv_mutex_destroy(&walk->batches.lock);
    }
    frd__sched_free(walk->sched);
    frd__free(walk->async.handle);
    frd__free(walk);
}

/**
 * The pool's policy at the default worker count: adaptive, unless FRD_POOL (a benchmark's
 * knob, bench/README.md "Cold cache") asks "fixed" (the CPU-sized pool alone) or "wide"
 * (the bound from the start); either may end in ":N" to set the bound (*max).
 */
static enum frd__pool_policy walk_pool_policy(unsigned *max)
{
    const char *v = getenv("FRD_POOL");
    if (v == NULL) {
        return FRD__POOL_ADAPTIVE;
    }
    const char *colon = strchr(v, ':');
    if (colon != NULL) {
        unsigned long n = strtoul(colon + 1, NULL, 10);
        if (n >= 1 && n <= WALK_MAX_WORKERS) {
            *max = (unsigned)n;
        }
    }
    size_t len = colon != NULL ? (size_t)(colon - v) : strlen(v);
    if (len == 5 && strncmp(v, "fixed", 5) == 0) {
        return FRD__POOL_FIXED;
    }
    if (len == 4 && strncmp(v, "wide", 4) == 0) {
        return FRD__POOL_WIDE;
    }
    return FRD__POOL_ADAPTIVE;
}

/** Descriptors `workers` may hold at once, apart from the kept ones: each its listing's and
 *  two while reopening along the ancestors, and two more. */
static unsigned walk_fd_reserve(unsigned workers)
{
    return 2 * workers + 2;
}

static unsigned walk_default_workers(void)
{
    unsigned n = uv_available_parallelism();
    if (n < 1) {
        n = 1;
    }
    return n > WALK_DEFAULT_MAX_WORKERS ? WALK_DEFAULT_MAX_WORKERS : n;
}

/** A walk thread (hooks.run): the ordered consumer, an ordered worker or a concurrent
 *  worker. */
static void walk_thread_main(void *arg)
{
    struct frd__worker *w = arg;
    struct frd_walk *walk = w->walk;
    if (w == walk->consumer) {
        frd__ordered_consume(w);
    } else if (walk->ordered.state != NULL) {
        frd__ordered_worker_run(w);
    } else {
        frd__worker_run(w);
    }
}

/** Sets up worker `id` that a widened pool adds (hooks.worker_add). */
static int walk_worker_add(void *ctx, unsigned id)
{
    struct frd_walk *walk = ctx;
    return frd__worker_init(walk, &walk->workers[id], frd__sched_worker(walk->sched, id));
}

/** The last walk thread ended (hooks.done): a walk on the host's loop completes there. */
static void walk_threads_done(void *ctx)
{
    struct frd_walk *walk = ctx;
    if (walk->async.handle != NULL) {
        uv_async_send(walk->async.handle);
    }
}

/** Wakes the ordered mode's waiters on a stop (hooks.wake). */
static void walk_wake(void *ctx)
{
    struct frd_walk *walk = ctx;
    if (walk->ordered.state != NULL) {
        frd__ordered_wake(walk);
    }
}

static int walk_new(struct frd_walk **out, const char *const *roots, size_t nroots,
                    const struct frd_walk_options *opts, frd_visit_fn *visit, void *udata,
                    bool collect)
{
    if (out == NULL || roots == NULL || nroots == 0 || (visit == NULL && !collect)) {
        return FRD_EINVAL;
    }
    struct frd_walk_options o;
    if (walk_options_copy(&o, opts) < 0) {
        return FRD_EINVAL;
    }
    if ((o.fields & ~(unsigned)FRD_FIELDS_ALL) != 0 || (o.flags & ~(unsigned)WALK_FLAGS_ALL) != 0 ||
        o.follow > FRD_FOLLOW_ALL || o.min_depth < 0 || o.max_depth < -1 ||
        o.workers > WALK_MAX_WORKERS) {
        return FRD_EINVAL;
    }
    for (size_t i = 0; i < nroots; i++) {
        if (roots[i] == NULL) {
            return FRD_EINVAL; // an empty root is walked: its stat fails with FRD_ENOENT
        }
    }
    struct frd_walk *walk = frd__calloc(1, sizeof(*walk));
    if (walk == NULL) {
        return FRD_ENOMEM;
    }
    int rc = FRD_ENOMEM;
    walk->opts = o;
    walk->hooks.visit = visit;
    walk->hooks.udata = udata;
    walk->collect.on = collect;
    walk->nworkers = o.workers ? o.workers : walk_default_workers();
    // Visiting each file once needs the ids a full listing gives.
    // The fields the caller wants, plus what the walk itself needs to decide: ids to visit
    // each file once (and nlink for files); the lister may fill more, and entry->fields
    // says what each entry holds.
    bool unique = (o.flags & (FRD_WALK_UNIQUE_FILES | FRD_WALK_UNIQUE_DIRS)) != 0;
    unsigned wanted = (o.flags & FRD_WALK_NAMES_ONLY) ? FRD_FIELD_TYPE : o.fields | FRD_FIELD_TYPE;
    if (unique) {
        wanted |= FRD_FIELD_FILE_ID | FRD_FIELD_DEV | FRD_FIELD_NLINK;
    }
    walk->fields = wanted;
    walk->names_only = wanted == FRD_FIELD_TYPE;
    walk->children = o.on_children != NULL;
    // With the children hook, list what it asks for (names only by default: what it drops
    // is never stat'ed); the survivors are stat'ed after it if the visits need more.
    walk->list_fields = wanted;
    if (walk->children) {
        walk->list_fields = (o.children_fields | FRD_FIELD_TYPE) & FRD_FIELDS_ALL;
        walk->children_complete = (wanted & ~walk->list_fields) == 0;
        walk->children_parts =
            (o.flags & (FRD_WALK_CHILDREN_PARTS | FRD_WALK_ORDERED)) == FRD_WALK_CHILDREN_PARTS;
    }
    walk->lister_flags = walk->list_fields == FRD_FIELD_TYPE ? FRD_LIST_NAMES_ONLY : 0;
    // Without entry ids, loops and other file systems are found when a directory is opened.
    unsigned ids = FRD_FIELD_FILE_ID | FRD_FIELD_DEV;
    walk->need_dir_ids = (wanted & ids) != ids &&
                         (o.follow == FRD_FOLLOW_ALL || (o.flags & FRD_WALK_ONE_FILE_SYSTEM));
    // Every directory is checked against its ancestors before its visit; a listing without
    // ids pays a stat per directory for it only where a cycle can happen (links followed,
    // or a mount of a device below another mount of it: rare, so usually nothing).
    walk->stat_dir_ids =
        (wanted & ids) != ids && (o.follow == FRD_FOLLOW_ALL || frd__plat_mounts_may_cycle());
    walk->probe_search =
        !walk->stat_dir_ids && (wanted & ids) != ids && !frd__plat_searches_everything();
    // The post-order hook's parent_fd is often reopened by ".." (the parent's descriptor is
    // gone by then), which is checked against the identity recorded at the parent's open. The
    // children hook's is not: the directory keeps the ref on its parent's descriptor that it
    // was opened through until its hook has run (hook_pins_parent); a parent whose
    // descriptor was not kept recorded its identity then (frd__keep_fd()).
    // With FRD_WALK_NO_PARENT_FD there is no parent_fd to give, so neither is needed.
    bool parent_fds = !(o.flags & (FRD_WALK_ORDERED | FRD_WALK_NO_PARENT_FD));
    walk->need_parent_ids = parent_fds && (wanted & ids) != ids && o.on_dir_done != NULL;
    walk->hook_pins_parent = parent_fds && o.on_children != NULL;
    unsigned budget = o.fd_budget;
    if (budget == 0) {
        unsigned limit = frd__plat_fd_limit();
        budget = limit == 0 ? WALK_DEFAULT_FD_BUDGET : limit / 2;
        if (budget > WALK_DEFAULT_FD_BUDGET) {
            budget = WALK_DEFAULT_FD_BUDGET;
        }
    }
    // Each worker may hold two descriptors at once (the reserve below). A budget that leaves
    // little beyond that for the directories kept open for their children costs more than
    // threads give: a directory not kept is reopened along the ancestors by each child,
    // and a chain deeper than the budget then takes a step per level for every directory
    // (3,000 levels with a budget of 20 and 8 workers: 4.4 million reopen steps, 90 s
    // instead of 0.2 s). So the workers are as many as leave half the budget to keep, one
    // at least.
    while (walk->nworkers > 1 && walk_fd_reserve(walk->nworkers) > budget / 2) {
        walk->nworkers--;
    }
    enum frd__pool_policy policy = FRD__POOL_FIXED;
    unsigned max_workers = WALK_MAX_IO_WORKERS;
    if (o.workers == 0 && !(o.flags & FRD_WALK_ORDERED)) {
        policy = walk_pool_policy(&max_workers);
    }
    // A widened pool's workers each hold descriptors too: at most an eighth of the budget.
    if (max_workers > budget / 8) {
        max_workers = budget / 8;
    }
    walk->hooks.progress_ns =
        (uint64_t)(o.progress_interval_ms ? o.progress_interval_ms : 1000) * 1000000u;
    atomic_init(&walk->hooks.progress_due, uv_hrtime() + walk->hooks.progress_ns);
    atomic_flag_clear(&walk->hooks.progress_busy);
    atomic_init(&walk->root_err, 0);
    atomic_init(&walk->fds.open_fds, 0);
    if (uv_mutex_init(&walk->ordered.node_lock) != 0) {
        goto fail;
    }
    if (uv_mutex_init(&walk->batches.lock) != 0) {
        uv_mutex_destroy(&walk->ordered.node_lock);
        goto fail;
    }
    walk->locks_ready = true;
    bool ordered = (o.flags & FRD_WALK_ORDERED) != 0;
    struct frd__sched_config cfg = {
        .nworkers = walk->nworkers,
        .policy = policy,
        .max_workers = max_workers,
        .consumer = ordered,
    };
    struct frd__sched_hooks hooks = {
        .ctx = walk,
        .worker_add = walk_worker_add,
        .run = walk_thread_main,
        .wake = walk_wake,
        .done = walk_threads_done,
    };
    if (frd__sched_new(&walk->sched, &cfg, &hooks) < 0) {
        goto fail;
    }
    // Each worker may hold its listing's descriptor and two while reopening along the
    // ancestors (every worker a widened pool may add, too); the ordered consumer's frames
    // hold theirs out of the kept ones.
    unsigned capacity = frd__sched_capacity(walk->sched);
    unsigned reserve = walk_fd_reserve(capacity);
    walk->fds.keep_limit = budget > reserve ? (int)(budget - reserve) : 0;
    if (frd__volcache_new(&walk->ids.volumes) < 0 ||
        (unique && frd__idset_new(&walk->ids.seen) < 0)) {
        goto fail;
    }
    walk->roots = frd__calloc(nroots, sizeof(*walk->roots));
    if (walk->roots == NULL) {
        goto fail;
    }
    walk->nroots = nroots;
    for (size_t i = 0; i < nroots; i++) {
        if ((walk->roots[i] = frd__strdup(roots[i])) == NULL) {
            goto fail;
        }
    }
    walk->workers = frd__calloc(capacity, sizeof(*walk->workers));
    if (walk->workers == NULL) {
        goto fail;
    }
    for (unsigned i = 0; i < walk->nworkers; i++) {
        struct frd__sched_worker *sw = frd__sched_worker(walk->sched, i);
        if ((rc = frd__worker_init(walk, &walk->workers[i], sw)) < 0) {
            goto fail;
        }
    }
    if (ordered) {
        walk->consumer = frd__calloc(1, sizeof(*walk->consumer));
        if (walk->consumer == NULL) {
            rc = FRD_ENOMEM;
            goto fail;
        }
        struct frd__sched_worker *sw = frd__sched_consumer(walk->sched);
        if ((rc = frd__worker_init(walk, walk->consumer, sw)) < 0 ||
            (rc = frd__ordered_init(walk)) < 0) {
            goto fail;
        }
    } else {
        // Roots go on worker 0's deque, the first on top, so they start in order.
        struct frd__worker *w0 = &walk->workers[0];
        for (size_t i = nroots; i-- > 0;) {
            struct frd__wnode *root =
                frd__wnode_new(w0, NULL, walk->roots[i], strlen(walk->roots[i]));
            if (root == NULL) {
                rc = FRD_ENOMEM;
                goto fail;
            }
            root->flags |= WN_ROOT;
            root->ord = (uint32_t)i;
            root->root_index = (unsigned)i;
            if (frd__sched_seed(walk->sched, root) < 0) {
                frd__wnode_release(w0, root);
                rc = FRD_ENOMEM;
                goto fail;
            }
        }
    }
    *out = walk;
    return 0;

fail:
    if (walk->workers != NULL && walk->ordered.state == NULL) {
        // Roots already queued: free their nodes before the slabs go.
        struct frd__wnode *n;
        while ((n = frd__sched_unseed(walk->sched)) != NULL) {
            frd__wnode_release(&walk->workers[0], n);
        }
    }
    walk_free(walk);
    return rc;
}

/** The walk's result once every thread is done. */
static int walk_result(struct frd_walk *walk)
{
    int rc = frd__sched_result(walk->sched);
    if (rc == 0) {
        rc = atomic_load(&walk->root_err);
    }
    return rc;
}

/** Starts the threads; on failure, stops the walk so whatever started drains. `caller`: the
 *  worker the calling thread runs, or NULL. */
static void walk_launch(struct frd_walk *walk, struct frd__worker *caller)
{
    int rc = frd__sched_start(walk->sched, caller != NULL ? caller->sw : NULL);
    if (rc < 0) {
        frd__walk_stop(walk, rc, NULL);
    }
}

int frd_walk_roots(const char *const *roots, size_t nroots, const struct frd_walk_options *opts,
                   frd_visit_fn *visit, void *udata)
{
    struct frd_walk *walk;
    int rc = walk_new(&walk, roots, nroots, opts, visit, udata, false);
    if (rc < 0) {
        return rc;
    }
    // The caller's thread works too: as worker 0, or as the ordered walk's consumer.
    struct frd__worker *self = walk->consumer ? walk->consumer : &walk->workers[0];
    walk_launch(walk, self);
    walk_thread_main(self);
    frd__sched_join(walk->sched);
    rc = walk_result(walk);
    walk_free(walk);
    return rc;
}

int frd_walk(const char *root, const struct frd_walk_options *opts, frd_visit_fn *visit,
             void *udata)
{
    if (root == NULL) {
        return FRD_EINVAL;
    }
    return frd_walk_roots(&root, 1, opts, visit, udata);
}

int frd_walk_start(struct frd_walk **out, const char *const *roots, size_t nroots,
                   const struct frd_walk_options *opts, frd_visit_fn *visit, void *udata)
{
    struct frd_walk *walk;
    int rc = walk_new(&walk, roots, nroots, opts, visit, udata, false);
    if (rc < 0) {
        return rc;
    }
    *out = walk; // before any thread starts: a callback may cancel through it
    walk_launch(walk, NULL);
    return 0;
}

int frd_walk_join(struct frd_walk *walk)
{
    if (walk == NULL) {
        return FRD_EINVAL;
    }
    frd__sched_join(walk->sched);
    int rc = walk_result(walk);
    walk_free(walk);
    return rc;
}

void frd_walk_cancel(struct frd_walk *walk)
{
    if (walk == NULL) {
        return;
    }
    frd__walk_stop(walk, FRD_ECANCELED, NULL); // ignored once the walk is joined
}

static void async_closed(uv_handle_t *handle)
{
    walk_free(handle->data);
}

static void async_done(uv_async_t *async)
{
    struct frd_walk *walk = async->data;
    frd__sched_join(walk->sched);
    walk->async.done_cb(walk_result(walk), walk->async.done_udata);
    uv_close((uv_handle_t *)async, async_closed);
}

int frd_walk_start_async(struct frd_walk **out, struct uv_loop_s *loop, const char *const *roots,
                         size_t nroots, const struct frd_walk_options *opts, frd_visit_fn *visit,
                         void *udata, frd_walk_done_fn *done)
{
    if (out == NULL || loop == NULL || done == NULL) {
        return FRD_EINVAL;
    }
    struct frd_walk *walk;
    int rc = walk_new(&walk, roots, nroots, opts, visit, udata, false);
    if (rc < 0) {
        return rc;
    }
    walk->async.handle = frd__malloc(sizeof(*walk->async.handle));
    if (walk->async.handle == NULL) {
        walk_free(walk);
        return FRD_ENOMEM;
    }
    if (uv_async_init(loop, walk->async.handle, async_done) != 0) {
        walk_free(walk);
        return FRD_ENOMEM;
    }
    walk->async.handle->data = walk;
    walk->async.loop = loop;
    walk->async.done_cb = done;
    walk->async.done_udata = udata;
    *out = walk; // before any thread starts: a callback may cancel through it
    walk_launch(walk, NULL);
    return 0;
}

int frd_read_tree(const char *root, unsigned flags, struct frd_list *out)
{
    if (root == NULL || out == NULL ||
        (flags & ~(unsigned)(WALK_FLAGS_ALL & ~(unsigned)FRD_WALK_ORDERED)) != 0) {
        return FRD_EINVAL;
    }
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = flags;
    o.min_depth = 1;
    struct frd_walk *walk;
    int rc = walk_new(&walk, &root, 1, &o, NULL, NULL, true);
    if (rc < 0) {
        return rc;
    }
    size_t len = strlen(root);
    walk->collect.prefix = len + (len > 0 && frd__plat_is_sep(root[len - 1]) ? 0 : 1);
    walk_launch(walk, &walk->workers[0]);
    frd__worker_run(&walk->workers[0]);
    frd__sched_join(walk->sched);
    rc = walk_result(walk);
    frd_list_clear(out);
    for (unsigned i = 0; i < frd__sched_created(walk->sched) && rc == 0; i++) {
        const struct frd_list *l = walk->workers[i].collect;
        const struct frd_entry *v = frd_list_entries(l);
        for (size_t j = 0; j < frd_list_count(l) && rc == 0; j++) {
            rc = frd_list_append(out, &v[j]);
        }
    }
    walk_free(walk);
    if (rc < 0) {
        return rc;
    }
    size_t count = frd_list_count(out);
    return count > INT32_MAX ? FRD_EOVERFLOW : (int)count;
}
