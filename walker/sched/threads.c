// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The scheduler's set-up and threads (walker/sched/threads.h): making it, starting and
 * joining the walk's threads on libuv, adding one when the pool widens, and stopping.
 *
 * Stopping: each thread sets its `in_cb` flag (seq_cst) before it checks `stop` and calls a
 * callback, and clears it after. frd__sched_stop() sets `stop` (seq_cst) and then waits for
 * every other thread's flag to clear. A thread that sets its flag after that must see
 * `stop`, so once the stop returns no callback can start, and none is running.
 *
 * A run of callbacks (a listing's visits) may hold the flag throughout (frd__sched_cb_hold():
 * the same seq_cst store and load once): if that load found no stop, a stopper's load of the
 * flag finds it set and waits for the run's end, and a stop set meanwhile is seen by a plain
 * load before each callback of the run (after the first that sees it, none starts); if it
 * found the stop, every later load does too. One fenced store per run instead of one per
 * callback: the store is an atomic exchange on x86, at each entry of a names-only walk.
 */
#include "platform.h"
#include "sched_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void (*frd__test_pool_done)(const struct frd__pool_stats *stats);

/**
 * Sets a worker's scheduler side up: its slot, its deque unless it is the consumer. The
 * struct is zeroed first (the array is not: see frd__sched_new()).
 */
static int sched_worker_init(struct frd__sched *s, struct frd__sched_worker *sw, unsigned id,
                             unsigned slot, bool deque)
{
    memset(sw, 0, sizeof(*sw));
    sw->sched = s;
    sw->id = id;
    sw->slot = slot;
    sw->rng = 0x9E3779B97F4A7C15u * (id + 1) | 1;
    atomic_init(&sw->in_cb, 0);
    sw->held = false;
    if (deque) {
        if (frd__deque_init(&sw->dq) < 0) {
            return FRD_ENOMEM;
        }
        sw->dq_ready = true;
    }
    return 0;
}

/** Is the environment variable `name` set, non-empty and not "0"? */
static bool sched_env_on(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/** Initializes the scheduler's locks. @return 0 or FRD_ENOMEM (none left initialized). */
static int sched_locks_init(struct frd__sched *s)
{
    if (uv_mutex_init(&s->lot) != 0) {
        return FRD_ENOMEM;
    }
    if (uv_cond_init(&s->lot_cond) != 0) {
        goto no_lot_cond;
    }
    if (uv_mutex_init(&s->grow) != 0) {
        goto no_grow;
    }
    if (uv_mutex_init(&s->slot_lock) != 0) {
        goto no_slot_lock;
    }
    if (uv_cond_init(&s->slot_cond) != 0) {
        goto no_slot_cond;
    }
    if (uv_cond_init(&s->retire_cond) != 0) {
        goto no_retire_cond;
    }
    if (uv_mutex_init(&s->stats_lock) != 0) {
        goto no_stats_lock;
    }
    return 0;

no_stats_lock:
    uv_cond_destroy(&s->retire_cond);
no_retire_cond:
    uv_cond_destroy(&s->slot_cond);
no_slot_cond:
    uv_mutex_destroy(&s->slot_lock);
no_slot_lock:
    uv_mutex_destroy(&s->grow);
no_grow:
    uv_cond_destroy(&s->lot_cond);
no_lot_cond:
    uv_mutex_destroy(&s->lot);
    return FRD_ENOMEM;
}

static void sched_locks_destroy(struct frd__sched *s)
{
    uv_mutex_destroy(&s->stats_lock);
    uv_cond_destroy(&s->retire_cond);
    uv_cond_destroy(&s->slot_cond);
    uv_mutex_destroy(&s->slot_lock);
    uv_mutex_destroy(&s->grow);
    uv_cond_destroy(&s->lot_cond);
    uv_mutex_destroy(&s->lot);
}

void frd__sched_config_settle(struct frd__sched_config *cfg)
{
    FRD_ASSERT(cfg->nworkers >= 1);
    if (cfg->policy != FRD__POOL_FIXED &&
        (cfg->max_workers <= cfg->nworkers || cfg->nworkers > 32 || cfg->consumer)) {
        cfg->policy = FRD__POOL_FIXED; // no room to widen, or more slots than the mask holds
    }
    if (cfg->policy == FRD__POOL_FIXED) {
        cfg->max_workers = cfg->nworkers;
    }
}

int frd__sched_new(struct frd__sched **out, const struct frd__sched_config *config,
                   const struct frd__sched_hooks *hooks)
{
    struct frd__sched_config cfg = *config;
    frd__sched_config_settle(&cfg);
    struct frd__sched *s = frd__calloc(1, sizeof(*s));
    if (s == NULL) {
        return FRD_ENOMEM;
    }
    if (sched_locks_init(s) < 0) {
        frd__free(s);
        return FRD_ENOMEM;
    }
    s->hooks = *hooks;
    s->policy = cfg.policy;
    s->nworkers = cfg.nworkers;
    s->capacity = cfg.max_workers;
    s->has_consumer = cfg.consumer;
    s->room = cfg.room;
    s->stats_print = sched_env_on("FRD_STATS");
    atomic_init(&s->stop, false);
    atomic_init(&s->first_err, 0);
    atomic_init(&s->finished, false);
    atomic_init(&s->pending, 0);
    atomic_init(&s->queued, 0);
    atomic_init(&s->sleepers, 0);
    atomic_init(&s->running, 0);
    atomic_init(&s->created, cfg.nworkers);
    atomic_init(&s->grow_failed, false);
    atomic_init(&s->target, cfg.policy == FRD__POOL_WIDE ? cfg.max_workers : cfg.nworkers);
    atomic_init(&s->wide, cfg.policy == FRD__POOL_WIDE);
    atomic_init(&s->free_slots, 0); // worker i holds slot i
    atomic_init(&s->slot_waiters, 0);
    struct frd__pool_stats *st = &s->stats;
    st->base = cfg.nworkers;
    st->max = cfg.max_workers;
    st->peak = atomic_load(&s->target);
    atomic_init(&st->widenings, 0);
    atomic_init(&st->retirements, 0);
    atomic_init(&st->windows, 0);
    atomic_init(&st->blocked_windows, 0);
    atomic_init(&st->busy_ns, 0);
    atomic_init(&st->blocked_ns, 0);
    atomic_init(&st->slot_waits, 0);
    atomic_init(&st->reopen_steps, 0);
    // Not zeroed: room for the workers a widened pool may add (32 slots of a cache line
    // or more each) that are touched only if it does; each slot is zeroed when set up, and
    // `nset` says how many are, from the first.
    size_t bytes;
    if (frd__mul_size((size_t)s->capacity + 1, sizeof(*s->workers), &bytes) == 0) {
        s->workers = frd__malloc(bytes);
    }
    s->threads = frd__calloc((size_t)s->capacity + 1, sizeof(*s->threads));
    if (s->workers == NULL || s->threads == NULL) {
        goto fail;
    }
    for (unsigned i = 0; i < s->nworkers; i++) {
        s->nset = i + 1; // freed from now on, its deque if it was set up
        if (sched_worker_init(s, &s->workers[i], i, i, true) < 0) {
            goto fail;
        }
    }
    if (s->has_consumer) {
        // The consumer stands for worker 0 (which runs no thread then), so callbacks see
        // indices 0..nworkers-1 in this mode too.
        sched_worker_init(s, &s->workers[s->capacity], s->capacity, 0, false);
    }
    *out = s;
    return 0;

fail:
    frd__sched_free(s);
    return FRD_ENOMEM;
}

void frd__sched_free(struct frd__sched *s)
{
    if (s == NULL) {
        return;
    }
    for (unsigned i = 0; s->workers != NULL && i < s->nset; i++) {
        if (s->workers[i].dq_ready) {
            frd__deque_destroy(&s->workers[i].dq); // (the consumer's slot has none)
        }
    }
    frd__free(s->workers);
    frd__free(s->threads);
    sched_locks_destroy(s);
    frd__free(s);
}

unsigned frd__sched_capacity(const struct frd__sched *s)
{
    return s->capacity;
}

unsigned frd__sched_created(const struct frd__sched *s)
{
    return sched_created(s);
}

struct frd__sched_worker *frd__sched_worker(struct frd__sched *s, unsigned id)
{
    FRD_ASSERT(id < s->capacity);
    return &s->workers[id];
}

struct frd__sched_worker *frd__sched_consumer(struct frd__sched *s)
{
    return s->has_consumer ? &s->workers[s->capacity] : NULL;
}

void frd__sched_bind(struct frd__sched_worker *sw, void *upper)
{
    sw->upper = upper;
}

/** A walk thread: runs its worker, then the last one out tells the upper layer. */
static void sched_thread_main(void *arg)
{
    struct frd__sched_worker *sw = arg;
    struct frd__sched *s = sw->sched;
    sw->tid = uv_thread_self();
    s->hooks.run(sw->upper);
    unsigned before = atomic_fetch_sub(&s->running, 1);
    FRD_ASSERT(before > 0); // each started thread ends once
    if (before == 1 && s->hooks.done != NULL) {
        s->hooks.done(s->hooks.ctx);
    }
}

/** Starts a thread for `sw` (called with `grow` held). @return 0 or FRD_EAGAIN. */
static int sched_thread_start(struct frd__sched *s, struct frd__sched_worker *sw)
{
    FRD_ASSERT(s->nthreads <= s->capacity); // threads[] holds capacity + 1
    atomic_fetch_add(&s->running, 1);
    if (uv_thread_create(&s->threads[s->nthreads], sched_thread_main, sw) != 0) {
        atomic_fetch_sub(&s->running, 1);
        return FRD_EAGAIN;
    }
    s->nthreads++;
    return 0;
}

/**
 * The pool keeps the first `ran` workers, those that run (called with `grow` held, when a
 * thread could not be started): the others were set up and never ran, so their deques are
 * empty (a worker pushes onto its own deque only, and the roots are seeded on worker 0's,
 * which runs), and no task waits for them. `created` comes down to `ran`, so that stealing,
 * stopping, the stats and the upper layer (progress, frd_read_tree()) see only those;
 * `target` comes down too (a list's batches are handed out by it), and the pool grows no
 * more: under a limit of threads or of address space another thread would fail as well.
 */
static void sched_shrink(struct frd__sched *s, unsigned ran)
{
    FRD_ASSERT(ran >= 1 && ran < s->nworkers && sched_created(s) == s->nworkers);
    for (unsigned i = ran; i < s->nworkers; i++) {
        FRD_ASSERT(frd__deque_size(&s->workers[i].dq) == 0); // never ran, never stolen into
        FRD_ASSERT(atomic_load(&s->workers[i].in_cb) == 0);
    }
    atomic_store(&s->grow_failed, true);
    atomic_store_explicit(&s->created, ran, memory_order_release);
    unsigned cur = atomic_load(&s->target);
    while (cur > ran && !atomic_compare_exchange_weak(&s->target, &cur, ran)) {
    }
}

int frd__sched_start(struct frd__sched *s, struct frd__sched_worker *caller)
{
    // Threads to make: every worker but worker 0 when the caller runs it, or when a consumer
    // stands for it (so N workers are N threads there as well); plus the consumer when the
    // caller does not run it, first: it alone can walk (it lists what no worker takes).
    FRD_ASSERT(caller == NULL || caller == frd__sched_consumer(s) || caller == &s->workers[0]);
    if (caller != NULL) {
        caller->tid = uv_thread_self();
    }
    s->t_start = uv_hrtime();
    // Under `grow`: a worker started here may widen the pool (threads[], nthreads) at once;
    // `running` counts each thread before it starts, so the first to end is not the last.
    uv_mutex_lock(&s->grow);
    atomic_fetch_add(&s->running, 1); // held until every first thread is started
    // Workers below `ran` run: worker 0 on the caller's thread, or the consumer standing for
    // it, or on a thread of its own, started first and with no room kept (the walk cannot do
    // without it); then each started. The first failure ends the starting (a limit of
    // threads or of address space fails the next one too): the workers that run are
    // 0..ran-1.
    unsigned ran = 1;
    if (caller == NULL) {
        struct frd__sched_worker *sw = s->has_consumer ? frd__sched_consumer(s) : &s->workers[0];
        if (sched_thread_start(s, sw) < 0) {
            // Not one thread: nothing runs, nothing is left to join.
            FRD_ASSERT(s->nthreads == 0);
            atomic_store(&s->grow_failed, true);
            atomic_fetch_sub(&s->running, 1);
            uv_mutex_unlock(&s->grow);
            return FRD_EAGAIN;
        }
    }
    struct frd__plat_room room;
    if (frd__plat_room_hold(&room, s->room) == 0) {
        while (ran < s->nworkers && sched_thread_start(s, &s->workers[ran]) == 0) {
            ran++;
        }
        frd__plat_room_free(&room);
    }
    if (ran < s->nworkers) {
        sched_shrink(s, ran);
    } else if (s->policy == FRD__POOL_WIDE) {
        frd__sched_grow(s, s->capacity);
    }
    uv_mutex_unlock(&s->grow);
    if (atomic_fetch_sub(&s->running, 1) == 1 && s->hooks.done != NULL) {
        s->hooks.done(s->hooks.ctx); // every thread ended already
    }
    return 0;
}

/** Sets up worker `created` and starts its thread (called with `grow` held). @return false
 *  when it could not be (no memory, no thread): the pool stops growing. */
static bool sched_spawn(struct frd__sched *s)
{
    unsigned id = atomic_load(&s->created);
    if (atomic_load_explicit(&s->grow_failed, memory_order_relaxed) || id >= s->capacity) {
        return false;
    }
    struct frd__sched_worker *sw = &s->workers[id];
    FRD_ASSERT(s->nset == id); // slots are set up in order, and a failure ends the growing
    s->nset = id + 1;
    if (sched_worker_init(s, sw, id, FRD__NO_SLOT, true) < 0 ||
        s->hooks.worker_add(s->hooks.ctx, id) < 0) {
        atomic_store(&s->grow_failed, true); // set up in part: freed with the walk
        return false;
    }
    // Published before its thread runs: others steal from its deque, stop waits on it.
    atomic_store_explicit(&s->created, id + 1, memory_order_release);
    if (sched_thread_start(s, sw) < 0) {
        atomic_store(&s->grow_failed, true); // the worker stays set up, idle: freed with the walk
        return false;
    }
    return true;
}

unsigned frd__sched_grow(struct frd__sched *s, unsigned to)
{
    struct frd__plat_room room;
    if (frd__plat_room_hold(&room, s->room) < 0) {
        atomic_store(&s->grow_failed, true); // the room is not there: no thread would fit
        return sched_created(s);
    }
    while (sched_created(s) < to && sched_spawn(s)) {
    }
    frd__plat_room_free(&room);
    return sched_created(s);
}

/** FRD_STATS=1: what the pool did, on stderr, one line. */
static void sched_print_stats(const struct frd__pool_stats *st)
{
    uint64_t busy = atomic_load(&st->busy_ns);
    uint64_t blocked = atomic_load(&st->blocked_ns);
    fprintf(stderr,
            "frd pool: base %u, bound %u, started %u, peak %u, widenings %u, retirements %u, "
            "windows %u (%u blocked), off-CPU %.1f%% of %.3f s busy, slot waits %llu, reopen "
            "steps %llu; width by ms:",
            st->base, st->max, st->started, st->peak, atomic_load(&st->widenings),
            atomic_load(&st->retirements), atomic_load(&st->windows),
            atomic_load(&st->blocked_windows), busy ? 100.0 * (double)blocked / (double)busy : 0.0,
            (double)busy / 1e9, (unsigned long long)atomic_load(&st->slot_waits),
            (unsigned long long)atomic_load(&st->reopen_steps));
    for (unsigned i = 0; i < st->nevents; i++) {
        fprintf(stderr, " %u:%u", (unsigned)st->events[i].ms, (unsigned)st->events[i].width);
    }
    fputc('\n', stderr);
}

void frd__sched_join(struct frd__sched *s)
{
    // A worker may add threads until the walk is done; the caller joins after that, so
    // reading nthreads under `grow` each time sees every one.
    for (unsigned i = 0;; i++) {
        uv_mutex_lock(&s->grow);
        uv_thread_t *t = i < s->nthreads ? &s->threads[i] : NULL;
        uv_mutex_unlock(&s->grow);
        if (t == NULL) {
            break;
        }
        uv_thread_join(t); // the array was sized once: its slots do not move
    }
    s->nthreads = 0;
    struct frd__pool_stats *st = &s->stats;
    if (st->started == 0) { // once, after every thread is joined
        st->started = sched_created(s);
        if (s->stats_print) {
            sched_print_stats(st);
        }
        if (frd__test_pool_done != NULL) {
            frd__test_pool_done(st);
        }
    }
    atomic_store(&s->finished, true);
}

/* ---- Stopping and callbacks ---- */

bool frd__sched_cb_enter(struct frd__sched_worker *sw)
{
    FRD_ASSERT(sw->slot != FRD__NO_SLOT); // callbacks index per-thread state with it
    if (sw->held) {
        // The run's first load ordered the flag before it (see "Stopping" above).
        return !atomic_load_explicit(&sw->sched->stop, memory_order_relaxed);
    }
    FRD_ASSERT(atomic_load_explicit(&sw->in_cb, memory_order_relaxed) == 0); // not nested
    atomic_store(&sw->in_cb, 1);
    if (atomic_load(&sw->sched->stop)) {
        atomic_store_explicit(&sw->in_cb, 0, memory_order_release);
        return false;
    }
    return true;
}

void frd__sched_cb_leave(struct frd__sched_worker *sw)
{
    if (!sw->held) {
        FRD_ASSERT(atomic_load_explicit(&sw->in_cb, memory_order_relaxed) == 1); // entered
        atomic_store_explicit(&sw->in_cb, 0, memory_order_release);
    }
}

void frd__sched_cb_hold(struct frd__sched_worker *sw)
{
    FRD_ASSERT(sw->slot != FRD__NO_SLOT); // kept until the run ends
    FRD_ASSERT(!sw->held && atomic_load_explicit(&sw->in_cb, memory_order_relaxed) == 0);
    atomic_store(&sw->in_cb, 1);
    sw->held = true;
    // Sequentially consistent, as in frd__sched_cb_enter(): the plain loads of the run come
    // after this one, which a stopper's load of the flag is ordered with.
    (void)atomic_load(&sw->sched->stop);
}

void frd__sched_cb_unhold(struct frd__sched_worker *sw)
{
    FRD_ASSERT(sw->held); // (in_cb may be clear already: a stop from inside the run)
    sw->held = false;
    atomic_store_explicit(&sw->in_cb, 0, memory_order_release);
}

/** Waits until `sw` is outside any callback, unless it is the calling thread's. */
static void sched_wait_out_of_callback(struct frd__sched_worker *sw, const uv_thread_t *self)
{
    unsigned spins = 0;
    while (atomic_load(&sw->in_cb)) {
        if (uv_thread_equal(&sw->tid, self)) {
            return; // called from inside that callback: it is the one returning
        }
        if (++spins > 1000) {
            uv_sleep(1);
        }
    }
}

void frd__sched_wake_all(struct frd__sched *s)
{
    uv_mutex_lock(&s->lot);
    uv_cond_broadcast(&s->lot_cond);
    uv_cond_broadcast(&s->retire_cond);
    uv_mutex_unlock(&s->lot);
    if (s->hooks.wake != NULL) {
        s->hooks.wake(s->hooks.ctx); // the upper layer's own waiters
    }
}

void frd__sched_stop(struct frd__sched *s, int code, struct frd__sched_worker *self)
{
    if (atomic_load(&s->finished)) {
        return; // joined: nothing runs any more
    }
    int expected = 0;
    atomic_compare_exchange_strong(&s->first_err, &expected, code);
    atomic_store(&s->stop, true);
    if (self != NULL && self->held) {
        // Stopping from inside its own run: no callback of the run starts from now on (each
        // sees the stop), and two workers stopping at once must not wait for each other.
        atomic_store_explicit(&self->in_cb, 0, memory_order_release);
    }
    uv_thread_t me = uv_thread_self();
    unsigned created = sched_created(s);
    for (unsigned i = 0; i < created; i++) {
        if (&s->workers[i] != self) {
            sched_wait_out_of_callback(&s->workers[i], &me);
        }
    }
    struct frd__sched_worker *consumer = frd__sched_consumer(s);
    if (consumer != NULL && consumer != self) {
        sched_wait_out_of_callback(consumer, &me);
    }
    frd__sched_wake_all(s);
}

const atomic_bool *frd__sched_stop_flag(const struct frd__sched *s)
{
    return &s->stop;
}

bool frd__sched_stopping(const struct frd__sched *s)
{
    return atomic_load_explicit(&s->stop, memory_order_relaxed);
}

int frd__sched_result(const struct frd__sched *s)
{
    return atomic_load(&s->first_err);
}
