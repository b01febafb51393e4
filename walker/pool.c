// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's own threads on libuv: starting and joining them, handing out tasks
 * (own deque, then stealing), parking idle workers, ending exactly when no task is left,
 * and stopping so that no callback starts afterwards.
 *
 * Termination: `pending` counts directory tasks pushed and not yet finished; a task is
 * finished only after it has pushed its children, so pending reaches zero exactly once,
 * when the whole tree is done. The worker that brings it to zero wakes everyone.
 *
 * Parking (no lost wake-up): a worker about to sleep takes the lot's lock, adds itself to
 * `sleepers`, and checks `queued` once more; a pusher adds to `queued` and then reads
 * `sleepers`. Both are sequentially consistent, so one of the two sees the other: either the
 * sleeper finds the task, or the pusher finds the sleeper and signals under the same lock,
 * which the sleeper holds until it waits.
 *
 * Stopping: each thread sets its `in_cb` flag (seq_cst) before it checks `stop` and calls a
 * callback, and clears it after. frd__walk_stop() sets `stop` (seq_cst) and then waits for
 * every other thread's flag to clear. A thread that sets its flag after that must see
 * `stop`, so once the stop returns no callback can start, and none is running.
 *
 * Widening (adaptive policy: concurrent mode at the default worker count). A cold walk
 * waits on the disk: in openat, getdents64 and the per-entry statx, the CPU-sized pool sits
 * blocked while tasks queue. Each worker keeps a window of about POOL_WINDOW_NS of its own
 * time: wall clock, less the time it parked, against its thread's CPU time, the time off the
 * CPU shared out between blocked and preempted by its voluntary and involuntary switches
 * (frd__plat_thread_times(): preempted is not blocked). A window blocked POOL_BLOCKED_PCT or
 * more, with tasks queued, raises `target` by half (at least one), creating those workers
 * the first time (lazily: a warm walk creates none); idle windows in a row lower it by one,
 * and the workers at or past `target` retire (park on retire_cond) until it rises again or
 * the walk ends. A warm walk pays one uv_hrtime() per task and one thread-times read per
 * window.
 *
 * Callback slots: callbacks see worker indices below nworkers (frd.h promises it), however
 * wide the pool. An index is a slot a worker holds while it may call back. In a fixed pool
 * worker i keeps slot i for good. Once widened, a worker gives its slot back before it may
 * block (a task's start, the next batch of a listing, parking) and takes a free one before
 * a callback's arguments are built (frd__slot_hold()), waiting when all are held: at most
 * nworkers callbacks run at once, and two with one index never do. A report and the visit
 * it precedes happen under one hold. No lost wake-up: the taker counts itself in
 * slot_waiters and rechecks free_slots under slot_lock; the giver sets its bit and then
 * reads slot_waiters (both seq_cst), as for parking above.
 */
#include "walker.h"

#include <stdio.h>
#include <string.h>

void (*frd__test_pool_done)(const struct frd__pool_stats *stats);
int (*frd__test_pool_blocked)(void);

static bool pool_spawn(struct frd_walk *walk);

/** A worker's measurement window, in wall time (parked time left out). */
#define POOL_WINDOW_NS (2u * 1000u * 1000u)
/** A window this much off the CPU (not waiting for one) is blocked: widen. */
#define POOL_BLOCKED_PCT 25
/** ... with at least this many voluntary switches (where the OS counts them). */
#define POOL_BLOCKED_SWITCHES 2
/** A window this little off the CPU is idle ... */
#define POOL_IDLE_PCT 10
/** ... and this many idle windows in a row narrow the pool by one (widen fast, narrow slow:
 *  a cold walk has stretches of cached directories). */
#define POOL_IDLE_WINDOWS 8

bool frd__cb_enter(struct frd__worker *w)
{
    FRD_ASSERT(w->index != FRD__NO_SLOT); // callbacks index per-thread state with it
    atomic_store(&w->in_cb, 1);
    if (atomic_load(&w->walk->stop)) {
        atomic_store_explicit(&w->in_cb, 0, memory_order_release);
        return false;
    }
    return true;
}

void frd__cb_leave(struct frd__worker *w)
{
    atomic_store_explicit(&w->in_cb, 0, memory_order_release);
}

/** Waits until `w` is outside any callback, unless `w` is the calling thread. */
static void wait_out_of_callback(struct frd__worker *w, const uv_thread_t *self)
{
    unsigned spins = 0;
    while (atomic_load(&w->in_cb)) {
        if (uv_thread_equal(&w->tid, self)) {
            return; // called from inside that callback: it is the one returning
        }
        if (++spins > 1000) {
            uv_sleep(1);
        }
    }
}

void frd__walk_stop(struct frd_walk *walk, int code, struct frd__worker *self)
{
    int expected = 0;
    atomic_compare_exchange_strong(&walk->first_err, &expected, code);
    atomic_store(&walk->stop, true);
    uv_thread_t me = uv_thread_self();
    unsigned created = frd__pool_created(walk);
    for (unsigned i = 0; i < created; i++) {
        if (&walk->workers[i] != self) {
            wait_out_of_callback(&walk->workers[i], &me);
        }
    }
    if (walk->consumer != NULL && walk->consumer != self) {
        wait_out_of_callback(walk->consumer, &me);
    }
    frd__pool_wake_all(walk);
}

void frd__pool_wake_all(struct frd_walk *walk)
{
    uv_mutex_lock(&walk->sched.lot);
    uv_cond_broadcast(&walk->sched.lot_cond);
    uv_cond_broadcast(&walk->sched.retire_cond);
    uv_mutex_unlock(&walk->sched.lot);
    if (walk->ordered.wake != NULL) {
        walk->ordered.wake(walk); // the ordered mode's own waiters
    }
}

int frd__pool_push(struct frd__worker *w, struct frd__wnode *node)
{
    struct frd_walk *walk = w->walk;
    // Counted before it can be stolen and finished; the pushing task is still pending, so
    // undoing it cannot end the walk.
    atomic_fetch_add(&walk->sched.pending, 1);
    if (frd__deque_push(&w->dq, node) < 0) {
        frd__pool_task_done(walk);
        return FRD_ENOMEM;
    }
    atomic_fetch_add(&walk->sched.queued, 1);
    if (atomic_load(&walk->sched.sleepers) > 0) {
        uv_mutex_lock(&walk->sched.lot);
        uv_cond_signal(&walk->sched.lot_cond);
        uv_mutex_unlock(&walk->sched.lot);
    }
    return 0;
}

void frd__pool_task_done(struct frd_walk *walk)
{
    if (atomic_fetch_sub(&walk->sched.pending, 1) == 1) {
        uv_mutex_lock(&walk->sched.lot);
        walk->sched.done = true;
        uv_cond_broadcast(&walk->sched.lot_cond);
        uv_cond_broadcast(&walk->sched.retire_cond);
        uv_mutex_unlock(&walk->sched.lot);
    }
}

static uint64_t rng_next(struct frd__worker *w)
{
    // xorshift64: cheap, per worker, good enough to spread victims.
    uint64_t x = w->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    w->rng = x;
    return x;
}

static struct frd__wnode *try_steal(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    unsigned n = frd__pool_created(walk);
    if (n < 2) {
        return NULL;
    }
    // A random start, then every other worker once.
    unsigned start = (unsigned)(rng_next(w) % n);
    for (unsigned k = 0; k < n; k++) {
        struct frd__worker *victim = &walk->workers[(start + k) % n];
        if (victim == w) {
            continue;
        }
        struct frd__wnode *node = frd__deque_steal(&victim->dq, &w->dq);
        if (node != NULL) {
            atomic_fetch_sub(&walk->sched.queued, 1);
            return node;
        }
    }
    return NULL;
}

/** Parks a worker at or past `target` until the pool widens again. @return false when the
 *  walk is over (done or stopped). */
static bool pool_retire(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    frd__slot_yield(w);
    uint64_t t0 = uv_hrtime();
    uv_mutex_lock(&walk->sched.lot);
    while (!walk->sched.done && !atomic_load(&walk->stop) &&
           w->id >= atomic_load(&walk->sched.target)) {
        uv_cond_wait(&walk->sched.retire_cond, &walk->sched.lot);
        w->win_parks++;
    }
    bool over = walk->sched.done;
    uv_mutex_unlock(&walk->sched.lot);
    w->win_parked += uv_hrtime() - t0;
    return !over;
}

struct frd__wnode *frd__pool_next(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    for (;;) {
        if (walk->sched.policy != FRD__POOL_FIXED &&
            w->id >= atomic_load_explicit(&walk->sched.target, memory_order_relaxed) &&
            !pool_retire(w)) {
            return NULL;
        }
        struct frd__wnode *node = frd__deque_pop(&w->dq);
        if (node != NULL) {
            atomic_fetch_sub(&walk->sched.queued, 1);
            return node;
        }
        node = try_steal(w);
        if (node != NULL) {
            return node;
        }
        frd__slot_yield(w); // never park holding a slot another worker may wait for
        uv_mutex_lock(&walk->sched.lot);
        if (walk->sched.done) {
            uv_mutex_unlock(&walk->sched.lot);
            return NULL;
        }
        atomic_fetch_add(&walk->sched.sleepers, 1);
        if (atomic_load(&walk->sched.queued) > 0) {
            atomic_fetch_sub(&walk->sched.sleepers, 1);
            uv_mutex_unlock(&walk->sched.lot);
            continue;
        }
        if (atomic_load(&walk->sched.pending) == 0) {
            walk->sched.done = true;
            uv_cond_broadcast(&walk->sched.lot_cond);
            atomic_fetch_sub(&walk->sched.sleepers, 1);
            uv_mutex_unlock(&walk->sched.lot);
            return NULL;
        }
        uint64_t t0 = walk->sched.policy == FRD__POOL_ADAPTIVE ? uv_hrtime() : 0;
        uv_cond_wait(&walk->sched.lot_cond, &walk->sched.lot);
        if (t0 != 0) {
            w->win_parked += uv_hrtime() - t0;
            w->win_parks++;
        }
        atomic_fetch_sub(&walk->sched.sleepers, 1);
        bool done = walk->sched.done;
        uv_mutex_unlock(&walk->sched.lot);
        if (done) {
            return NULL;
        }
    }
}

/** Last thread out of a background walk: tell the host's loop (async walks). */
void frd__pool_thread_exit(struct frd_walk *walk)
{
    if (atomic_fetch_sub(&walk->sched.running, 1) == 1 && walk->async.handle != NULL) {
        uv_async_send(walk->async.handle);
    }
}

int frd__pool_start(struct frd_walk *walk, uv_thread_cb entry)
{
    // Threads to make: every worker but worker 0 when the caller runs it, or in an ordered
    // walk, whose consumer lists too and stands for worker 0 (so N workers are N threads
    // there as well); plus the consumer of an ordered walk started in the background.
    unsigned first = walk->sched.caller_runs_worker0 || walk->consumer != NULL ? 1 : 0;
    unsigned count = walk->nworkers - first;
    bool spawn_consumer = walk->consumer != NULL && walk->sched.threads_for_consumer;
    // Room for the workers a widened pool adds as well.
    walk->sched.threads =
        frd__calloc(walk->sched.max_workers - first + 1, sizeof(*walk->sched.threads));
    if (walk->sched.threads == NULL) {
        return FRD_ENOMEM;
    }
    walk->sched.entry = entry;
    walk->sched.t_start = uv_hrtime();
    atomic_store(&walk->sched.running, count + (spawn_consumer ? 1 : 0));
    // Under `grow`: a worker started here may widen the pool (threads[], nthreads) at once.
    int rc = 0;
    uv_mutex_lock(&walk->sched.grow);
    for (unsigned i = 0; i < count && rc == 0; i++) {
        struct frd__worker *w = &walk->workers[first + i];
        if (uv_thread_create(&walk->sched.threads[walk->sched.nthreads], entry, w) != 0) {
            atomic_fetch_sub(&walk->sched.running, count - i + (spawn_consumer ? 1 : 0));
            rc = FRD_EAGAIN;
        } else {
            walk->sched.nthreads++;
        }
    }
    if (rc == 0 && spawn_consumer) {
        if (uv_thread_create(&walk->sched.threads[walk->sched.nthreads], entry, walk->consumer) !=
            0) {
            atomic_fetch_sub(&walk->sched.running, 1);
            rc = FRD_EAGAIN;
        } else {
            walk->sched.nthreads++;
        }
    }
    if (rc == 0 && walk->sched.policy == FRD__POOL_WIDE) {
        while (frd__pool_created(walk) < walk->sched.max_workers && pool_spawn(walk)) {
        }
    }
    if (rc < 0) {
        walk->sched.grow_failed = true; // the walk stops: add no threads to it
    }
    uv_mutex_unlock(&walk->sched.grow);
    return rc;
}

/** FRD_STATS=1: what the pool did, on stderr, one line. */
static void pool_print_stats(const struct frd__pool_stats *st)
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

void frd__pool_join(struct frd_walk *walk)
{
    // A worker may add threads until the walk is done; the caller joins after that, so
    // reading nthreads under `grow` each time sees every one.
    for (unsigned i = 0;; i++) {
        uv_mutex_lock(&walk->sched.grow);
        uv_thread_t *t = i < walk->sched.nthreads ? &walk->sched.threads[i] : NULL;
        uv_mutex_unlock(&walk->sched.grow);
        if (t == NULL) {
            break;
        }
        uv_thread_join(t); // the array was sized once: its slots do not move
    }
    walk->sched.nthreads = 0;
    struct frd__pool_stats *st = &walk->sched.stats;
    if (st->base != 0 && st->started == 0) { // once, after every thread is joined
        st->started = frd__pool_created(walk);
        if (walk->sched.stats_print) {
            pool_print_stats(st);
        }
        if (frd__test_pool_done != NULL) {
            frd__test_pool_done(st);
        }
    }
}

/* ---- Widening and callback slots ---- */

int frd__pool_init(struct frd_walk *walk, enum frd__pool_policy policy, unsigned max_workers)
{
    struct frd__pool_stats *st = &walk->sched.stats;
    if (uv_mutex_init(&walk->sched.grow) != 0) {
        return FRD_ENOMEM;
    }
    if (uv_mutex_init(&walk->sched.slot_lock) != 0) {
        goto no_slot_lock;
    }
    if (uv_cond_init(&walk->sched.slot_cond) != 0) {
        goto no_slot_cond;
    }
    if (uv_cond_init(&walk->sched.retire_cond) != 0) {
        goto no_retire_cond;
    }
    if (uv_mutex_init(&st->lock) != 0) {
        goto no_stats_lock;
    }
    if (policy != FRD__POOL_FIXED && (max_workers <= walk->nworkers || walk->nworkers > 32)) {
        policy = FRD__POOL_FIXED; // no room to widen, or more slots than the mask holds
    }
    if (policy == FRD__POOL_FIXED) {
        max_workers = walk->nworkers;
    }
    walk->sched.policy = policy;
    walk->sched.max_workers = max_workers;
    atomic_init(&walk->sched.created, walk->nworkers);
    atomic_init(&walk->sched.target, policy == FRD__POOL_WIDE ? max_workers : walk->nworkers);
    atomic_init(&walk->sched.wide, policy == FRD__POOL_WIDE);
    atomic_init(&walk->sched.free_slots, 0); // worker i holds slot i
    atomic_init(&walk->sched.slot_waiters, 0);
    st->base = walk->nworkers;
    st->max = max_workers;
    st->peak = atomic_load(&walk->sched.target);
    atomic_init(&st->widenings, 0);
    atomic_init(&st->retirements, 0);
    atomic_init(&st->windows, 0);
    atomic_init(&st->blocked_windows, 0);
    atomic_init(&st->busy_ns, 0);
    atomic_init(&st->blocked_ns, 0);
    atomic_init(&st->slot_waits, 0);
    atomic_init(&st->reopen_steps, 0);
    return 0;

no_stats_lock:
    uv_cond_destroy(&walk->sched.retire_cond);
no_retire_cond:
    uv_cond_destroy(&walk->sched.slot_cond);
no_slot_cond:
    uv_mutex_destroy(&walk->sched.slot_lock);
no_slot_lock:
    uv_mutex_destroy(&walk->sched.grow);
    return FRD_ENOMEM;
}

void frd__pool_destroy(struct frd_walk *walk)
{
    uv_mutex_destroy(&walk->sched.stats.lock);
    uv_cond_destroy(&walk->sched.retire_cond);
    uv_cond_destroy(&walk->sched.slot_cond);
    uv_mutex_destroy(&walk->sched.slot_lock);
    uv_mutex_destroy(&walk->sched.grow);
}

void frd__slot_take(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    for (;;) {
        unsigned m = atomic_load(&walk->sched.free_slots);
        while (m != 0) {
            unsigned bit = 0;
            while (!(m & (1u << bit))) {
                bit++;
            }
            if (atomic_compare_exchange_weak(&walk->sched.free_slots, &m, m & ~(1u << bit))) {
                w->index = bit;
                return;
            }
        }
        uint64_t t0 = uv_hrtime();
        atomic_fetch_add_explicit(&walk->sched.stats.slot_waits, 1, memory_order_relaxed);
        uv_mutex_lock(&walk->sched.slot_lock);
        atomic_fetch_add(&walk->sched.slot_waiters, 1);
        while (atomic_load(&walk->sched.free_slots) == 0) {
            uv_cond_wait(&walk->sched.slot_cond, &walk->sched.slot_lock);
            w->win_parks++;
        }
        atomic_fetch_sub(&walk->sched.slot_waiters, 1);
        uv_mutex_unlock(&walk->sched.slot_lock);
        w->win_parked += uv_hrtime() - t0;
    }
}

void frd__slot_yield(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    if (w->index == FRD__NO_SLOT ||
        !atomic_load_explicit(&walk->sched.wide, memory_order_relaxed)) {
        return;
    }
    atomic_fetch_or(&walk->sched.free_slots, 1u << w->index);
    w->index = FRD__NO_SLOT;
    if (atomic_load(&walk->sched.slot_waiters) > 0) {
        uv_mutex_lock(&walk->sched.slot_lock);
        uv_cond_signal(&walk->sched.slot_cond);
        uv_mutex_unlock(&walk->sched.slot_lock);
    }
}

/** Notes a change of width for the stats' timeline. */
static void pool_event(struct frd_walk *walk, unsigned width)
{
    struct frd__pool_stats *st = &walk->sched.stats;
    uint64_t ms = (uv_hrtime() - walk->sched.t_start) / 1000000u;
    uv_mutex_lock(&st->lock);
    if (width > st->peak) {
        st->peak = width;
    }
    if (st->nevents < FRD__POOL_EVENTS) {
        st->events[st->nevents].ms = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
        st->events[st->nevents].width = (uint16_t)width;
        st->nevents++;
    }
    uv_mutex_unlock(&st->lock);
}

/**
 * Sets up worker `created` and starts its thread (called with `grow` held).
 * @return false when it could not be (no memory, no thread): the pool stops growing.
 */
static bool pool_spawn(struct frd_walk *walk)
{
    unsigned id = atomic_load(&walk->sched.created);
    if (walk->sched.grow_failed || id >= walk->sched.max_workers) {
        return false;
    }
    struct frd__worker *w = &walk->workers[id];
    if (frd__worker_init(walk, w, id) < 0) {
        walk->sched.grow_failed = true;
        return false;
    }
    w->index = FRD__NO_SLOT;
    // Published before its thread runs: others steal from its deque, stop waits on it.
    atomic_store_explicit(&walk->sched.created, id + 1, memory_order_release);
    atomic_fetch_add(&walk->sched.running, 1);
    if (uv_thread_create(&walk->sched.threads[walk->sched.nthreads], walk->sched.entry, w) != 0) {
        atomic_fetch_sub(&walk->sched.running, 1);
        walk->sched.grow_failed = true; // the worker stays set up, idle: freed with the walk
        return false;
    }
    walk->sched.nthreads++;
    return true;
}

/**
 * More workers may take tasks, half as many again as now (at least one, up to the bound: a
 * cold walk reaches 32 in eight steps): retired ones come back, or new ones start.
 */
static void pool_widen(struct frd_walk *walk)
{
    unsigned t = atomic_load(&walk->sched.target);
    unsigned to = t + (t / 2 > 1 ? t / 2 : 1);
    if (to > walk->sched.max_workers) {
        to = walk->sched.max_workers;
    }
    if (t >= to || !atomic_compare_exchange_strong(&walk->sched.target, &t, to)) {
        return;
    }
    bool first = !atomic_exchange(&walk->sched.wide, true);
    atomic_fetch_add_explicit(&walk->sched.stats.widenings, 1, memory_order_relaxed);
    pool_event(walk, to);
    uv_mutex_lock(&walk->sched.grow);
    while (frd__pool_created(walk) < to) {
        if (!pool_spawn(walk)) {
            // Could not add them: no wider than the workers there are, and grow no more.
            unsigned have = frd__pool_created(walk);
            unsigned cur = atomic_load(&walk->sched.target);
            while (cur > have && !atomic_compare_exchange_weak(&walk->sched.target, &cur, have)) {
            }
            break;
        }
    }
    uv_mutex_unlock(&walk->sched.grow);
    uv_mutex_lock(&walk->sched.lot);
    uv_cond_broadcast(&walk->sched.retire_cond);
    if (first) {
        // Workers parked before the pool widened hold their slots: let them give them back.
        uv_cond_broadcast(&walk->sched.lot_cond);
    }
    uv_mutex_unlock(&walk->sched.lot);
}

/** One worker fewer: the last one allowed retires at its next task. */
static void pool_narrow(struct frd_walk *walk)
{
    unsigned t = atomic_load(&walk->sched.target);
    if (t <= walk->nworkers || !atomic_compare_exchange_strong(&walk->sched.target, &t, t - 1)) {
        return;
    }
    atomic_fetch_add_explicit(&walk->sched.stats.retirements, 1, memory_order_relaxed);
    pool_event(walk, t - 1);
}

/** Starts a worker's window at `now`, from the thread's times `tt`. */
static void pool_window_open(struct frd__worker *w, uint64_t now,
                             const struct frd__thread_times *tt)
{
    w->win_t0 = now;
    w->win_cpu = tt->cpu_ns;
    w->win_blocks = tt->blocks;
    w->win_preempt = tt->preemptions;
    w->win_parked = 0;
    w->win_parks = 0;
}

/**
 * Judges a worker's window closing at `now` (times `tt`): 1 blocked on I/O while a CPU could
 * run another worker, 0 idle (on the CPU), 2 neither. *wall and *blocked get its wall time
 * (parked time left out) and the part of it spent blocked.
 */
static int pool_judge(const struct frd__worker *w, uint64_t now, const struct frd__thread_times *tt,
                      uint64_t *wall, uint64_t *blocked)
{
    uint64_t span = now - w->win_t0;
    span = span > w->win_parked ? span - w->win_parked : 0;
    uint64_t cpu = tt->cpu_ns - w->win_cpu;
    uint64_t off = span > cpu ? span - cpu : 0;
    // Off the CPU: blocked (a voluntary switch: the disk, a lock) or preempted (waiting for
    // a CPU). Shared out by the switches' counts, its own parkings left out. One block is
    // not enough: under CPU load a worker waits a whole time slice for a lock whose holder
    // was preempted, while a cold listing blocks again and again. Where the OS gives no
    // counts, all of it counts as blocked.
    uint64_t nb = tt->blocks - w->win_blocks;
    nb = nb > w->win_parks ? nb - w->win_parks : 0;
    uint64_t np = tt->preemptions - w->win_preempt;
    uint64_t b = off;
    if (tt->switches) {
        b = nb >= POOL_BLOCKED_SWITCHES ? off / (nb + np) * nb : 0;
    }
    *wall = span;
    *blocked = b;
    if (b * 100 >= span * POOL_BLOCKED_PCT && b > off - b) {
        return 1; // and more blocked than preempted: a CPU sits idle
    }
    return b * 100 < span * POOL_IDLE_PCT ? 0 : 2;
}

void frd__pool_probe(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    if (walk->sched.policy != FRD__POOL_ADAPTIVE) {
        return;
    }
    uint64_t now = uv_hrtime();
    int verdict = frd__test_pool_blocked != NULL ? frd__test_pool_blocked() : -1;
    if (w->win_t0 != 0 && verdict < 0 && now - w->win_t0 < POOL_WINDOW_NS) {
        return;
    }
    struct frd__thread_times tt;
    if (frd__plat_thread_times(&tt) < 0) {
        return;
    }
    if (w->win_t0 == 0) {
        pool_window_open(w, now, &tt);
        return;
    }
    uint64_t wall;
    uint64_t off;
    int measured = pool_judge(w, now, &tt, &wall, &off);
    if (verdict < 0) {
        verdict = measured;
    } else {
        off = verdict == 1 ? wall : 0; // the test hook decides
    }
    pool_window_open(w, now, &tt);
    struct frd__pool_stats *st = &walk->sched.stats;
    atomic_fetch_add_explicit(&st->windows, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&st->busy_ns, wall, memory_order_relaxed);
    atomic_fetch_add_explicit(&st->blocked_ns, off, memory_order_relaxed);
    w->idle_windows = verdict == 0 ? w->idle_windows + 1 : 0;
    if (verdict == 1) {
        atomic_fetch_add_explicit(&st->blocked_windows, 1, memory_order_relaxed);
        if (atomic_load_explicit(&walk->sched.queued, memory_order_relaxed) > 0 &&
            !atomic_load_explicit(&walk->stop, memory_order_relaxed)) {
            pool_widen(walk);
        }
    } else if (w->idle_windows >= POOL_IDLE_WINDOWS) {
        w->idle_windows = 0;
        pool_narrow(walk);
    }
}
