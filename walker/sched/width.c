// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The pool's width and the callback slots (walker/sched/width.h).
 *
 * Widening (adaptive policy: the concurrent mode at the default worker count). A cold walk
 * waits on the disk: in openat, getdents64 and the per-entry statx, the CPU-sized pool sits
 * blocked while tasks queue. Each worker keeps a window of about WIDTH_WINDOW_NS of its own
 * time: wall clock, less the time it parked, against its thread's CPU time, the time off the
 * CPU shared out between blocked and preempted by its voluntary and involuntary switches
 * (frd__plat_thread_times(): preempted is not blocked). A window blocked WIDTH_BLOCKED_PCT
 * or more, with tasks queued, raises `target` by half (at least one), creating those
 * workers the first time (lazily: a warm walk creates none); idle windows in a row lower it
 * by one, and the workers at or past `target` retire (park on retire_cond, tasks.c) until it
 * rises again or the walk ends. A warm walk pays a uv_hrtime() every few tasks (a window not
 * yet due skips half the tasks its rate says still fit in it, at most WIDTH_SKIP_MAX) and one
 * thread-times read per window.
 *
 * Callback slots: callbacks see worker indices below nworkers (frd.h promises it), however
 * wide the pool. An index is a slot a worker holds while it may call back. In a fixed pool
 * worker i keeps slot i for good. Once widened, a worker gives its slot back before it may
 * block (a task's start, the next batch of a listing, parking) and takes a free one before
 * a callback's arguments are built (frd__sched_slot_hold()), waiting when all are held: at
 * most nworkers callbacks run at once, and two with one index never do. A report and the
 * visit it precedes happen under one hold. No lost wake-up: the taker counts itself in
 * slot_waiters and rechecks free_slots under slot_lock; the giver sets its bit and then
 * reads slot_waiters (both seq_cst), as for parking in tasks.c.
 */
#include "platform.h"
#include "sched_int.h"

int (*frd__test_pool_blocked)(void);

/** A worker's measurement window, in wall time (parked time left out). */
#define WIDTH_WINDOW_NS (2u * 1000u * 1000u)
/** A window this much off the CPU (not waiting for one) is blocked: widen. */
#define WIDTH_BLOCKED_PCT 25
/** ... with at least this many voluntary switches (where the OS counts them). */
#define WIDTH_BLOCKED_SWITCHES 2
/** A window this little off the CPU is idle ... */
#define WIDTH_IDLE_PCT 10
/** ... and this many idle windows in a row narrow the pool by one (widen fast, narrow slow:
 *  a cold walk has stretches of cached directories). */
#define WIDTH_IDLE_WINDOWS 8
/** At most this many probes in a row skip the clock (a warm task takes microseconds: the
 *  window is still read about on time; a walk turning cold is seen this many tasks late). */
#define WIDTH_SKIP_MAX 8

/** The slots' invariants: only slots below nworkers exist, and a worker holding one has it
 *  marked taken. */
static void width_check_slot(const struct frd__sched *s, unsigned slot)
{
    FRD_ASSERT(slot < s->nworkers);
    FRD_ASSERT(
        (atomic_load(&s->free_slots) & ~((s->nworkers >= 32 ? 0u : 1u << s->nworkers) - 1)) == 0);
    FRD_ASSERT(!(atomic_load(&s->free_slots) & (1u << slot)));
    (void)s;
    (void)slot;
}

/** Takes a free callback slot, waiting for one if need be. */
static void width_slot_take(struct frd__sched_worker *sw)
{
    struct frd__sched *s = sw->sched;
    for (;;) {
        unsigned m = atomic_load(&s->free_slots);
        while (m != 0) {
            unsigned bit = 0;
            while (!(m & (1u << bit))) {
                bit++;
            }
            if (atomic_compare_exchange_weak(&s->free_slots, &m, m & ~(1u << bit))) {
                sw->slot = bit;
                width_check_slot(s, bit);
                return;
            }
        }
        uint64_t t0 = uv_hrtime();
        atomic_fetch_add_explicit(&s->stats.slot_waits, 1, memory_order_relaxed);
        uv_mutex_lock(&s->slot_lock);
        atomic_fetch_add(&s->slot_waiters, 1);
        while (atomic_load(&s->free_slots) == 0) {
            uv_cond_wait(&s->slot_cond, &s->slot_lock);
            sw->win.parks++;
        }
        int before = atomic_fetch_sub(&s->slot_waiters, 1);
        FRD_ASSERT(before > 0); // counted in above
        (void)before;
        uv_mutex_unlock(&s->slot_lock);
        sw->win.parked += uv_hrtime() - t0;
    }
}

unsigned frd__sched_slot_hold(struct frd__sched_worker *sw)
{
    if (sw->slot == FRD__NO_SLOT) {
        width_slot_take(sw);
    }
    return sw->slot;
}

unsigned frd__sched_slot(const struct frd__sched_worker *sw)
{
    return sw->slot;
}

void frd__sched_slot_yield(struct frd__sched_worker *sw)
{
    struct frd__sched *s = sw->sched;
    if (sw->slot == FRD__NO_SLOT || !atomic_load_explicit(&s->wide, memory_order_relaxed)) {
        return;
    }
    FRD_ASSERT(atomic_load_explicit(&sw->in_cb, memory_order_relaxed) == 0); // not mid-callback
    width_check_slot(s, sw->slot);
    atomic_fetch_or(&s->free_slots, 1u << sw->slot);
    sw->slot = FRD__NO_SLOT;
    if (atomic_load(&s->slot_waiters) > 0) {
        uv_mutex_lock(&s->slot_lock);
        uv_cond_signal(&s->slot_cond);
        uv_mutex_unlock(&s->slot_lock);
    }
}

unsigned frd__sched_width(const struct frd__sched *s)
{
    return atomic_load_explicit(&s->target, memory_order_relaxed);
}

void frd__sched_note_reopen_steps(struct frd__sched *s, uint64_t n)
{
    atomic_fetch_add_explicit(&s->stats.reopen_steps, n, memory_order_relaxed);
}

/** Notes a change of width for the stats' timeline. */
static void width_event(struct frd__sched *s, unsigned width)
{
    struct frd__pool_stats *st = &s->stats;
    uint64_t ms = (uv_hrtime() - s->t_start) / 1000000u;
    uv_mutex_lock(&s->stats_lock);
    if (width > st->peak) {
        st->peak = width;
    }
    if (st->nevents < FRD__POOL_EVENTS) {
        st->events[st->nevents].ms = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
        st->events[st->nevents].width = (uint16_t)width;
        st->nevents++;
    }
    uv_mutex_unlock(&s->stats_lock);
}

/**
 * More workers may take tasks, half as many again as now (at least one, up to the bound: a
 * cold walk reaches 32 in eight steps): retired ones come back, or new ones start.
 */
static void width_widen(struct frd__sched *s)
{
    if (atomic_load_explicit(&s->grow_failed, memory_order_relaxed)) {
        return; // a thread could not be started: no wider than the workers that run
    }
    unsigned t = atomic_load(&s->target);
    unsigned to = t + (t / 2 > 1 ? t / 2 : 1);
    if (to > s->capacity) {
        to = s->capacity;
    }
    if (t >= to || !atomic_compare_exchange_strong(&s->target, &t, to)) {
        return;
    }
    bool first = !atomic_exchange(&s->wide, true);
    atomic_fetch_add_explicit(&s->stats.widenings, 1, memory_order_relaxed);
    width_event(s, to);
    uv_mutex_lock(&s->grow);
    unsigned have = frd__sched_grow(s, to);
    if (have < to) {
        // Could not add them: no wider than the workers there are, and grow no more.
        unsigned cur = atomic_load(&s->target);
        while (cur > have && !atomic_compare_exchange_weak(&s->target, &cur, have)) {
        }
    }
    uv_mutex_unlock(&s->grow);
    uv_mutex_lock(&s->lot);
    uv_cond_broadcast(&s->retire_cond);
    if (first) {
        // Workers parked before the pool widened hold their slots: let them give them back.
        uv_cond_broadcast(&s->lot_cond);
    }
    uv_mutex_unlock(&s->lot);
}

/** One worker fewer: the last one allowed retires at its next task. */
static void width_narrow(struct frd__sched *s)
{
    unsigned t = atomic_load(&s->target);
    if (t <= s->nworkers || !atomic_compare_exchange_strong(&s->target, &t, t - 1)) {
        return;
    }
    atomic_fetch_add_explicit(&s->stats.retirements, 1, memory_order_relaxed);
    width_event(s, t - 1);
}

/** Starts a worker's window at `now`, from the thread's times `tt`. */
static void width_window_open(struct sched_window *win, uint64_t now,
                              const struct frd__thread_times *tt)
{
    win->t0 = now;
    win->cpu = tt->cpu_ns;
    win->blocks = tt->blocks;
    win->preempt = tt->preemptions;
    win->parked = 0;
    win->parks = 0;
    win->tasks = 0;
    win->skip = 0;
}

/** A window not yet due at `now`: the probes to let pass before the clock is read again, half
 *  the tasks that still fit in it at its rate so far (each read costs about as much as a
 *  small task's bookkeeping, and a warm walk's task takes a few microseconds). */
static unsigned width_skip(const struct sched_window *win, uint64_t now)
{
    uint64_t spent = now - win->t0;
    uint64_t per_task = spent / (win->tasks > 0 ? win->tasks : 1);
    if (per_task == 0) {
        return WIDTH_SKIP_MAX;
    }
    uint64_t fit = (WIDTH_WINDOW_NS - spent) / per_task / 2;
    return fit < WIDTH_SKIP_MAX ? (unsigned)fit : WIDTH_SKIP_MAX;
}

/**
 * Judges a worker's window closing at `now` (times `tt`): 1 blocked on I/O while a CPU could
 * run another worker, 0 idle (on the CPU), 2 neither. *wall and *blocked get its wall time
 * (parked time left out) and the part of it spent blocked.
 */
static int width_judge(const struct sched_window *win, uint64_t now,
                       const struct frd__thread_times *tt, uint64_t *wall, uint64_t *blocked)
{
    uint64_t span = now - win->t0;
    span = span > win->parked ? span - win->parked : 0;
    uint64_t cpu = tt->cpu_ns - win->cpu;
    uint64_t off = span > cpu ? span - cpu : 0;
    // Off the CPU: blocked (a voluntary switch: the disk, a lock) or preempted (waiting for
    // a CPU). Shared out by the switches' counts, its own parkings left out. One block is
    // not enough: under CPU load a worker waits a whole time slice for a lock whose holder
    // was preempted, while a cold listing blocks again and again. Where the OS gives no
    // counts, all of it counts as blocked.
    uint64_t nb = tt->blocks - win->blocks;
    nb = nb > win->parks ? nb - win->parks : 0;
    uint64_t np = tt->preemptions - win->preempt;
    uint64_t b = off;
    if (tt->switches) {
        b = nb >= WIDTH_BLOCKED_SWITCHES ? off / (nb + np) * nb : 0;
    }
    FRD_ASSERT(b <= off && off <= span); // shares of the window's own time
    *wall = span;
    *blocked = b;
    if (b * 100 >= span * WIDTH_BLOCKED_PCT && b > off - b) {
        return 1; // and more blocked than preempted: a CPU sits idle
    }
    return b * 100 < span * WIDTH_IDLE_PCT ? 0 : 2;
}

void frd__sched_probe(struct frd__sched_worker *sw)
{
    struct frd__sched *s = sw->sched;
    if (s->policy != FRD__POOL_ADAPTIVE) {
        return;
    }
    sw->win.tasks++;
    if (sw->win.skip > 0 && frd__test_pool_blocked == NULL) {
        sw->win.skip--;
        return;
    }
    uint64_t now = uv_hrtime();
    int verdict = frd__test_pool_blocked != NULL ? frd__test_pool_blocked() : -1;
    if (sw->win.t0 != 0 && verdict < 0 && now - sw->win.t0 < WIDTH_WINDOW_NS) {
        sw->win.skip = width_skip(&sw->win, now);
        return;
    }
    struct frd__thread_times tt;
    if (frd__plat_thread_times(&tt) < 0) {
        return;
    }
    if (sw->win.t0 == 0) {
        width_window_open(&sw->win, now, &tt);
        return;
    }
    uint64_t wall;
    uint64_t off;
    int measured = width_judge(&sw->win, now, &tt, &wall, &off);
    if (verdict < 0) {
        verdict = measured;
    } else {
        off = verdict == 1 ? wall : 0; // the test hook decides
    }
    width_window_open(&sw->win, now, &tt);
    struct frd__pool_stats *st = &s->stats;
    atomic_fetch_add_explicit(&st->windows, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&st->busy_ns, wall, memory_order_relaxed);
    atomic_fetch_add_explicit(&st->blocked_ns, off, memory_order_relaxed);
    sw->win.idle = verdict == 0 ? sw->win.idle + 1 : 0;
    if (verdict == 1) {
        atomic_fetch_add_explicit(&st->blocked_windows, 1, memory_order_relaxed);
        if (atomic_load_explicit(&s->queued, memory_order_relaxed) > 0 &&
            !atomic_load_explicit(&s->stop, memory_order_relaxed)) {
            width_widen(s);
        }
    } else if (sw->win.idle >= WIDTH_IDLE_WINDOWS) {
        sw->win.idle = 0;
        width_narrow(s);
    }
}
