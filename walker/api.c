// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's public entry points: options, frd_walk(), background and libuv-loop walks,
 * cancellation, and frd_read_tree(). Sets a walk up, runs it in the chosen mode, tears it
 * down.
 */
#include "api.h"

#include "concurrent/concurrent.h"
#include "core/core.h"
#include "ordered/ordered.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void frd_walk_options_init_size(struct frd_walk_options *opts, size_t size)
{
    struct frd_walk_options d;
    memset(&d, 0, sizeof(d));
    d.follow = FRD_FOLLOW_NEVER;
    d.max_depth = -1;
    d.fields = FRD_FIELDS_ALL;
    d.children_fields = FRD_FIELD_TYPE;
    d.struct_size = size < sizeof(d) ? size : sizeof(d);
    memcpy(opts, &d, d.struct_size); // never past the caller's struct
}

/** The size of the struct in frd 0.2.0 (abi/libfrd.abi), before ignore. */
#define WALK_OPTIONS_SIZE_0_2_0 offsetof(struct frd_walk_options, ignore)

// The exported function, for programs built before frd.h made it a macro: they have the
// struct of 0.2.0.
void(frd_walk_options_init)(struct frd_walk_options *opts)
{
    frd_walk_options_init_size(opts, WALK_OPTIONS_SIZE_0_2_0);
}

/**
 * Copies the caller's options: the first struct_size bytes as the caller's build knows the
 * struct, every later member at its default, so a program built against an older frd.h
 * keeps working when the struct grows. @return 0, or FRD_EINVAL if struct_size is not set
 * (the options were not initialized with frd_walk_options_init()).
 */
int frd__walk_options_copy(struct frd_walk_options *o, const struct frd_walk_options *opts)
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

static void walk_free(struct frd_walk *walk)
{
    if (walk == NULL) {
        return;
    }
    if (walk->ordered != NULL) {
        frd__ordered_free(walk);
    }
    frd__concurrent_free(walk);
    // The slots set up (zeroed, then set up in whole or in part): the first workers and
    // those a widened pool added; the rest of the array was never touched.
    for (unsigned i = 0; i < walk->workers_set; i++) {
        frd__worker_free(&walk->workers[i]);
    }
    if (walk->consumer != NULL) {
        frd__worker_free(walk->consumer);
        frd__free(walk->consumer);
    }
    frd__free(walk->workers);
    for (size_t i = 0; walk->roots != NULL && i < walk->nroots; i++) {
        frd__free(walk->roots[i]);
    }
    frd__free(walk->roots);
    frd__idset_free(walk->ids.seen);
    frd__deep_dirs_free(&walk->ids.deep);
    frd__links_free(walk->ids.links);
    frd__volcache_free(walk->ids.volumes);
    frd__node_share_destroy(&walk->nodes);
    frd__sched_free(walk->sched);
    frd__free(walk->async.handle);
    frd__free(walk);
}

/** A walk thread (hooks.run): the ordered consumer, an ordered worker or a concurrent
 *  worker. */
static void walk_thread_main(void *arg)
{
    struct frd__worker *w = arg;
    struct frd_walk *walk = w->walk;
    if (w == walk->consumer) {
        frd__ordered_consume(w);
    } else if (walk->ordered != NULL) {
        frd__ordered_worker_run(w);
    } else {
        frd__concurrent_run(w);
    }
}

/**
 * Sets up slot `id` of walk->workers (the next one: slots are set up in order), zeroed
 * first: walk_free() frees it from then on, whether or not it was set up in whole.
 * @return 0 or a negative code.
 */
static int walk_worker_setup(struct frd_walk *walk, unsigned id)
{
    FRD_ASSERT(id == walk->workers_set);
    struct frd__worker *w = &walk->workers[id];
    memset(w, 0, sizeof(*w));
    walk->workers_set = id + 1;
    return frd__worker_init(walk, w, frd__sched_worker(walk->sched, id));
}

/** Sets up worker `id` that a widened pool adds (hooks.worker_add). */
static int walk_worker_add(void *ctx, unsigned id)
{
    return walk_worker_setup(ctx, id);
}

/** The last walk thread ended (hooks.done): a walk on the host's loop completes there. */
static void walk_threads_done(void *ctx)
{
    struct frd_walk *walk = ctx;
    if (walk->ended.fn != NULL) {
        walk->ended.fn(walk->ended.ctx);
    }
    if (walk->async.handle != NULL) {
        uv_async_send(walk->async.handle);
    }
}

/** Wakes the ordered mode's waiters on a stop (hooks.wake). */
static void walk_wake(void *ctx)
{
    struct frd_walk *walk = ctx;
    if (walk->ordered != NULL) {
        frd__ordered_wake(walk);
    }
}

/** Sets up what a walk shares: its clocks, locks, scheduler and identity sets. @return 0
 *  or FRD_ENOMEM. */
static int walk_state_init(struct frd_walk *walk)
{
    atomic_init(&walk->hooks.progress_due, uv_hrtime() + walk->plan.progress_ns);
    atomic_flag_clear(&walk->hooks.progress_busy);
    atomic_init(&walk->root_err, 0);
    atomic_init(&walk->open_fds, 0);
    frd__deep_dirs_init(&walk->ids.deep); // (made when a directory is that deep)
    if (frd__node_share_init(&walk->nodes) < 0) {
        return FRD_ENOMEM;
    }
    struct frd__sched_hooks hooks = {
        .ctx = walk,
        .worker_add = walk_worker_add,
        .run = walk_thread_main,
        .wake = walk_wake,
        .done = walk_threads_done,
    };
    if (frd__sched_new(&walk->sched, &walk->plan.sched, &hooks) < 0 ||
        frd__volcache_new(&walk->ids.volumes) < 0 ||
        (walk->plan.unique && frd__idset_new(&walk->ids.seen) < 0) ||
        ((walk->opts.flags & FRD_WALK_LINK_GROUPS) && frd__links_new(&walk->ids.links) < 0)) {
        return FRD_ENOMEM;
    }
    return 0;
}

/** Copies the roots. @return 0 or FRD_ENOMEM. */
static int walk_roots_copy(struct frd_walk *walk, const char *const *roots, size_t nroots)
{
    walk->roots = frd__calloc(nroots, sizeof(*walk->roots));
    if (walk->roots == NULL) {
        return FRD_ENOMEM;
    }
    walk->nroots = nroots;
    for (size_t i = 0; i < nroots; i++) {
        if ((walk->roots[i] = frd__strdup(roots[i])) == NULL) {
            return FRD_ENOMEM;
        }
    }
    return 0;
}

/**
 * Sets up the first workers (room for those a widened pool adds) and the ordered mode's
 * consumer. The array is not zeroed: each slot is when it is set up, so the room of a pool
 * that never widens (32 slots of about 600 bytes) costs no page faults and no memset.
 * @return 0 or a negative code.
 */
static int walk_workers_new(struct frd_walk *walk)
{
    size_t bytes;
    if (frd__mul_size(frd__sched_capacity(walk->sched), sizeof(*walk->workers), &bytes) < 0 ||
        (walk->workers = frd__malloc(bytes)) == NULL) {
        return FRD_ENOMEM;
    }
    int rc;
    for (unsigned i = 0; i < walk->plan.sched.nworkers; i++) {
        if ((rc = walk_worker_setup(walk, i)) < 0) {
            return rc;
        }
    }
    if (walk->plan.sched.consumer) {
        walk->consumer = frd__calloc(1, sizeof(*walk->consumer));
        if (walk->consumer == NULL) {
            return FRD_ENOMEM;
        }
        struct frd__sched_worker *sw = frd__sched_consumer(walk->sched);
        if ((rc = frd__worker_init(walk, walk->consumer, sw)) < 0) {
            return rc;
        }
    }
    return 0;
}

/**
 * Makes a walk: its plan, scheduler, identity sets, roots and workers; then the mode's
 * start (the ordered state, or the roots queued on worker 0). `collect`: frd_read_tree()
 * (entries collected, no visit callback). @return 0 with *out set, FRD_EINVAL, or another
 * negative code (FRD_ENOMEM).
 */
static int walk_new(struct frd_walk **out, const char *const *roots, size_t nroots,
                    const struct frd_walk_options *opts, frd_visit_fn *visit, void *udata,
                    bool collect)
{
    if (out == NULL || roots == NULL || nroots == 0 || (visit == NULL && !collect)) {
        return FRD_EINVAL;
    }
    for (size_t i = 0; i < nroots; i++) {
        if (roots[i] == NULL) {
            return FRD_EINVAL; // an empty root is walked: its stat fails with FRD_ENOENT
        }
    }
    struct frd_walk_options o;
    struct frd__walk_env env;
    frd__walk_env_host(&env);
    struct frd__walk_plan plan;
    if (frd__walk_options_copy(&o, opts) < 0 || frd__walk_plan(&plan, &o, &env) < 0) {
        return FRD_EINVAL;
    }
    struct frd_walk *walk = frd__calloc(1, sizeof(*walk));
    if (walk == NULL) {
        return FRD_ENOMEM;
    }
    if (o.flags & (FRD_WALK_LINK_TARGETS | FRD_WALK_XATTRS)) {
        o.flags &= ~(unsigned)FRD_WALK_NO_PARENT_FD; // read through parent_fd
    }
    walk->opts = o;
    walk->plan = plan;
    walk->hooks.visit = visit;
    walk->hooks.udata = udata;
    walk->collect.on = collect;
    int rc = walk_state_init(walk);
    if (rc == 0) {
        rc = walk_roots_copy(walk, roots, nroots);
    }
    if (rc == 0) {
        rc = walk_workers_new(walk);
    }
    if (rc == 0) {
        rc = plan.sched.consumer ? frd__ordered_init(walk) : frd__concurrent_init(walk);
    }
    if (rc < 0) {
        walk_free(walk);
        return rc;
    }
    *out = walk;
    return 0;
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

/**
 * Starts a background walk's threads, *out set to it before (a callback may cancel through
 * it). The walk goes on with the threads that could be started. @return 0, or FRD_EAGAIN
 * when not one could: then nothing ran, and *out is as it was (the walk is the caller's to
 * free).
 */
static int walk_launch(struct frd_walk *walk, struct frd_walk **out)
{
    struct frd_walk *was = *out;
    *out = walk;
    int rc = frd__sched_start(walk->sched, NULL);
    if (rc < 0) {
        *out = was;
    }
    return rc;
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
    rc = frd__sched_start(walk->sched, self->sw); // with fewer threads if not all start
    FRD_ASSERT(rc == 0);                          // the caller's thread is one
    (void)rc;
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
    rc = walk_launch(walk, out);
    if (rc < 0) {
        walk_free(walk); // nothing ran
    }
    return rc;
}

int frd__walk_prepare(struct frd_walk **out, const char *const *roots, size_t nroots,
                      const struct frd_walk_options *opts, frd_visit_fn *visit, void *udata)
{
    return walk_new(out, roots, nroots, opts, visit, udata, false);
}

int frd__walk_launch(struct frd_walk *walk, struct frd_walk **out, void (*ended)(void *ctx),
                     void *ctx)
{
    walk->ended.fn = ended;
    walk->ended.ctx = ctx;
    return walk_launch(walk, out);
}

bool frd__walk_names_only(const struct frd_walk *walk)
{
    return walk->plan.names_only;
}

void frd__walk_discard(struct frd_walk *walk)
{
    walk_free(walk);
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
    rc = walk_launch(walk, out);
    if (rc < 0) {
        // Nothing ran and done is not called; the handle is the loop's until it is closed.
        uv_close((uv_handle_t *)walk->async.handle, async_closed);
    }
    return rc;
}

/** The walk's handle on the host's loop, or NULL when it is not an async walk. */
static uv_handle_t *walk_async_handle(struct frd_walk *walk)
{
    return walk != NULL ? (uv_handle_t *)walk->async.handle : NULL;
}

int frd_walk_unref(struct frd_walk *walk)
{
    uv_handle_t *h = walk_async_handle(walk);
    if (h == NULL) {
        return FRD_EINVAL;
    }
    uv_unref(h); // the handle is active until the walk ends: it alone keeps the loop alive
    return 0;
}

int frd_walk_ref(struct frd_walk *walk)
{
    uv_handle_t *h = walk_async_handle(walk);
    if (h == NULL) {
        return FRD_EINVAL;
    }
    uv_ref(h);
    return 0;
}

/** A plan's answer that the worker count does not depend on (frd_walk_options_workers()). */
static bool walk_env_any(void)
{
    return true;
}

int frd_walk_options_workers(const struct frd_walk_options *opts)
{
    struct frd_walk_options o;
    struct frd__walk_env env;
    frd__walk_env_host(&env);
    // The pool is planned from the CPUs, the descriptor limit and the options alone: the
    // mount table (/proc/self/mountinfo read and parsed) and the user's ids are not asked.
    env.mounts_may_cycle = walk_env_any;
    env.searches_everything = walk_env_any;
    struct frd__walk_plan plan;
    if (frd__walk_options_copy(&o, opts) < 0 || frd__walk_plan(&plan, &o, &env) < 0) {
        return FRD_EINVAL;
    }
    return (int)plan.sched.nworkers;
}

unsigned frd_walk_workers(const struct frd_walk *walk)
{
    return walk != NULL ? walk->plan.sched.nworkers : 0;
}

int frd_read_tree(const char *root, unsigned flags, struct frd_list *out)
{
    if (root == NULL || out == NULL ||
        (flags & ~(unsigned)(FRD__WALK_FLAGS_ALL & ~(unsigned)FRD_WALK_ORDERED)) != 0) {
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
    rc = frd__sched_start(walk->sched, walk->workers[0].sw); // the caller's thread is one
    FRD_ASSERT(rc == 0);
    (void)rc;
    frd__concurrent_run(&walk->workers[0]);
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
