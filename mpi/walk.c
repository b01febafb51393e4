// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frd_mpi_walk(): the glue between frd's walker on each rank and the protocol between ranks.
 *
 * Each rank runs one loop on the thread that called it (the only thread that calls MPI):
 *
 *   held (queue.h) --batch--> walk thread: frd_walk_roots() with this file's hooks
 *        ^                          | visits divert directories while `want` > 0
 *        | MP_WORK                  v
 *   other ranks <--MP_WORK--- outbox (locked; filled by the visits)
 *
 * - A batch is up to `keep` (8 * workers + 8) directories of held at one depth (so an
 *   error's depth is base + its own), walked as roots by frd's parallel walker on a helper
 *   thread. The walk keeps at most `keep` directories in flight (entered, post-order hook
 *   not yet called); the visits set further directories aside into held, where a thief
 *   gets its share at once instead of waiting for the walker's private queue. (A batch is a
 *   new frd walk: fewer, larger batches cost less; one rank alone walks everything in one.)
 * - Start: rank 0 walks the root alone, its subdirectories set aside; every other rank
 *   starts as if it had asked rank 0, which then shares them out evenly, keeping its part.
 * - A rank with nothing held whose walk is down to `low` (2 * workers + 2) directories in
 *   flight, or idle, sends MP_REQ to a random other rank and waits for MP_WORK or
 *   MP_NOWORK (one request out at a time). A rank asked for work gives each waiting rank as
 *   many of its held as it keeps (the first, shallowest ones); if held is empty but it is
 *   walking, it sets `want` and its visits hand over the next directories they would enter
 *   (returning FRD_ACTION_PRUNE there, path plus dev/ino sent), which the loop sends to the
 *   waiting ranks; a request that waited 2 ms without a directory gets MP_NOWORK.
 * - A received directory is walked as a root: its root visit is not passed on (the sender
 *   visited it) but checks type, dev and ino against what the sender saw (FRD_ECHANGED).
 * - Termination and the drain: proto.c. Stop and errors: the rank whose walk ended with a
 *   code sends MP_ABORT to every rank; each stops its walk (visits return STOP) and ends.
 *   Every rank returns the same code (MPI_Allreduce). A message that breaks the protocol
 *   (proto.c's mp_check(), queue.c's mq_unpack()) is such a code, FRD_EMALFORMED, on the
 *   rank that received it; a request from a rank already waiting here is not counted twice.
 *
 * Test-only (environment, see mpi/README.md): FRD_MPI_TEST_LIST_DELAY_US sleeps that long in
 * every listing (a children hook), to simulate a remote metadata server in bench/;
 * FRD_MPI_TEST_STATS prints what each rank did (times, batches, messages) on stderr;
 * FRD_MPI_TEST_SCATTER=1 hands every directory at depth 1 to the other ranks in turn,
 * unasked (Safra counts such messages like any), so tests know some rank walks a share that
 * another rank listed.
 */
#include "frd_mpi.h"
#include "internal.h"
#include "proto.h"
#include "queue.h"

#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define REQUEST_WAIT_NS 2000000
#define IDLE_SLEEP_NS   50000
#define WALK_SLEEP_NS   200000

/** What a rank did, for FRD_MPI_TEST_STATS (test-only, see mpi/README.md). Loop thread. */
struct rw_stats {
    bool on;
    uint64_t start;       /**< the loop's start (ns) */
    uint64_t batch_start; /**< the running batch's */
    uint64_t walk_ns;     /**< batches running */
    uint64_t idle_since;  /**< 0 when not idle */
    uint64_t idle_ns;     /**< no batch, nothing held */
    uint64_t batches, requests, work_msgs, given;
};

/** One rank's walk. Fields above `lock` belong to the loop's thread. */
struct rank_walk {
    struct mp mp;
    const struct frd_mpi_options *opts;
    const struct frd_mpi_callbacks *cb;
    void *udata;
    const char *root; /**< the walk's root: every directory received is below it */
    size_t root_len;
    struct mq held;
    struct mq batch;   /**< the roots of the walk running (read-only while it runs) */
    bool batch_is_top; /**< the batch is the walk's own root (rank 0's first) */
    bool top_pending;  /**< rank 0 before its first batch */
    pthread_t thread;
    bool walking;
    int *pending; /**< ranks waiting for a reply (at most one request each: size - 1) */
    int npending;
    uint64_t pending_since;
    bool req_out;      /**< this rank waits for a reply */
    uint64_t next_req; /**< not before this time (ns) */
    uint64_t next_progress;
    uint64_t *progress; /**< rank 0: five figures per rank */
    unsigned seed;
    int root_rc; /**< the root's failure without on_error (rank 0) */
    int rc;      /**< this rank's code */
    unsigned delay_us;
    bool scatter;     /**< FRD_MPI_TEST_SCATTER */
    int scatter_next; /**< the rank the next scattered directory goes to */

    pthread_mutex_t lock; /**< guards outbox */
    /** Signalled (under lock) when the batch ends or a visit hands over a directory a
     *  waiting rank asked for: the loop wakes at once instead of at its next poll. */
    pthread_cond_t wake;
    struct mq outbox;
    atomic_int want;      /**< directories the visits should hand over */
    atomic_int in_flight; /**< directories the walk has entered and not finished */
    int keep;             /**< entered directories beyond this go to held instead */
    int low;              /**< at most this many in flight and none held: ask for more */
    atomic_bool stopping;
    atomic_bool walk_done;
    int walk_rc;
    atomic_int stop_code;
    _Atomic uint64_t root_dev;
    _Atomic uint64_t entries, dirs, bytes, errors;
    struct rw_stats stats;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(long ns)
{
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
}

/**
 * Waits for MPI messages to arrive (polled), or less when the walk thread has something for
 * the loop (the batch ended, a wanted directory is ready): WALK_SLEEP_NS while this rank
 * walks with no rank waiting on it and no request out (then only a request can come, and
 * its sender asked before running dry), IDLE_SLEEP_NS otherwise.
 */
static void rw_nap(struct rank_walk *rw)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    bool quiet = rw->walking && rw->npending == 0 && !rw->req_out;
    ts.tv_nsec += quiet ? WALK_SLEEP_NS : IDLE_SLEEP_NS;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&rw->lock);
    bool splitting = rw->walking && rw->batch_is_top && rw->mp.size > 1;
    bool ready = (rw->walking && atomic_load(&rw->walk_done)) ||
                 (rw->npending > 0 && rw->outbox.len > 0 && !splitting);
    if (!ready) {
        pthread_cond_timedwait(&rw->wake, &rw->lock, &ts);
    }
    pthread_mutex_unlock(&rw->lock);
}

static void rw_stats_idle(struct rw_stats *st, bool idle)
{
    if (idle && st->idle_since == 0) {
        st->idle_since = now_ns();
    } else if (!idle && st->idle_since != 0) {
        st->idle_ns += now_ns() - st->idle_since;
        st->idle_since = 0;
    }
}

static void rw_stats_print(struct rw_stats *st, int rank)
{
    rw_stats_idle(st, false);
    fprintf(stderr,
            "frd_mpi rank %d: %.1f ms, batches running %.1f ms, idle %.1f ms; %" PRIu64
            " batches, %" PRIu64 " requests sent, %" PRIu64 " work messages received, %" PRIu64
            " directories given\n",
            rank, (double)(now_ns() - st->start) / 1e6, (double)st->walk_ns / 1e6,
            (double)st->idle_ns / 1e6, st->batches, st->requests, st->work_msgs, st->given);
}

void frd_mpi_options_init(struct frd_mpi_options *opts)
{
    frd_walk_options_init(&opts->walk);
    opts->progress_interval_ms = 1000;
}

/** Passes an error to the caller's hook with the depth below the walk's root. */
static enum frd_action rw_report(struct rank_walk *rw, const struct frd_walk_error *err,
                                 unsigned depth)
{
    atomic_fetch_add_explicit(&rw->errors, 1, memory_order_relaxed);
    if (rw->cb->on_error == NULL) {
        if (rw->batch_is_top && depth == 0) {
            rw->root_rc = err->code; // frd_walk's rule: a root that failed is returned
        }
        return FRD_ACTION_CONTINUE;
    }
    struct frd_walk_error copy = *err;
    copy.depth = depth;
    enum frd_action a = rw->cb->on_error(&copy, rw->udata);
    if (a == FRD_ACTION_STOP) {
        int expected = 0;
        atomic_compare_exchange_strong(&rw->stop_code, &expected, err->code);
    }
    return a;
}

static enum frd_action rw_error(const struct frd_walk_error *err, void *udata)
{
    struct rank_walk *rw = udata;
    if (atomic_load_explicit(&rw->stopping, memory_order_relaxed)) {
        return FRD_ACTION_STOP;
    }
    return rw_report(rw, err, rw->batch.items[0].depth + err->depth);
}

/** The root visit of a received directory: is it still the one the sender saw? */
static enum frd_action rw_check_root(struct rank_walk *rw, const struct frd_walk_entry *we,
                                     const struct mq_item *it)
{
    const struct frd_entry *e = we->entry;
    if (e->error < 0) {
        return FRD_ACTION_PRUNE; // the walker has reported its failed stat
    }
    uint64_t dev = e->dev, ino = e->file_id;
    if ((e->fields & (FRD_FIELD_DEV | FRD_FIELD_FILE_ID)) != (FRD_FIELD_DEV | FRD_FIELD_FILE_ID)) {
        struct stat st; // a walk that reads no ids: the root's own, for the check alone
        if ((we->followed_link ? stat(we->path, &st) : lstat(we->path, &st)) == 0) {
            dev = (uint64_t)st.st_dev;
            ino = (uint64_t)st.st_ino;
        }
    }
    if (!it->check || (e->type == FRD_TYPE_DIR && dev == it->dev && ino == it->ino)) {
        return FRD_ACTION_CONTINUE;
    }
    struct frd_walk_error err = {
        .path = we->path,
        .op = "open",
        .code = FRD_ECHANGED,
        .worker = we->worker,
        .call = FRD_OP_OPEN,
    };
    return rw_report(rw, &err, it->depth) == FRD_ACTION_STOP ? FRD_ACTION_STOP : FRD_ACTION_PRUNE;
}

/**
 * Takes the directory out of the walk if a rank waits for work, or if the walk has `keep`
 * directories in flight already (then it waits in held, where a thief can take it at once).
 * @return true if it was taken.
 */
static bool rw_divert(struct rank_walk *rw, const struct frd_walk_entry *we, unsigned depth)
{
    bool scatter = rw->scatter && depth == 1;
    // Rank 0's first batch, the root: its subdirectories are shared out when it ends.
    bool aside = (rw->batch_is_top && depth == 1 && rw->mp.size > 1) ||
                 atomic_load_explicit(&rw->in_flight, memory_order_relaxed) >= rw->keep;
    if (!scatter && !aside && atomic_load_explicit(&rw->want, memory_order_relaxed) <= 0) {
        return false;
    }
    const struct frd_entry *e = we->entry;
    uint64_t root_dev = atomic_load_explicit(&rw->root_dev, memory_order_relaxed);
    uint64_t dev = e->dev, ino = e->file_id;
    if ((e->fields & (FRD_FIELD_DEV | FRD_FIELD_FILE_ID)) != (FRD_FIELD_DEV | FRD_FIELD_FILE_ID)) {
        // A walk that reads no ids (names and types only): one stat for the handoff alone,
        // so the walk stats nothing it would not (a failed stat would be a new error).
        struct stat st;
        if (we->parent_fd == FRD_INVALID_FD ||
            fstatat(we->parent_fd, e->name, &st, we->followed_link ? 0 : AT_SYMLINK_NOFOLLOW) !=
                0) {
            return false;
        }
        dev = (uint64_t)st.st_dev;
        ino = (uint64_t)st.st_ino;
    }
    if ((rw->opts->walk.flags & FRD_WALK_ONE_FILE_SYSTEM) && dev != root_dev) {
        return false; // the walker does not enter it; a receiver would
    }
    bool taken = false;
    pthread_mutex_lock(&rw->lock);
    bool wanted = atomic_load(&rw->want) > 0;
    if ((scatter || aside || wanted) &&
        mq_push(&rw->outbox, we->path, we->path_len, dev, ino, root_dev, depth, true) == 0) {
        if (wanted && !scatter) {
            atomic_fetch_sub(&rw->want, 1);
            pthread_cond_signal(&rw->wake);
        }
        taken = true;
    }
    pthread_mutex_unlock(&rw->lock);
    return taken;
}

static enum frd_action rw_visit(const struct frd_walk_entry *we, void *udata)
{
    struct rank_walk *rw = udata;
    if (atomic_load_explicit(&rw->stopping, memory_order_relaxed)) {
        return FRD_ACTION_STOP;
    }
    const struct mq_item *it = &rw->batch.items[we->root_index];
    unsigned depth = it->depth + we->depth;
    const struct frd_entry *e = we->entry;
    if (we->is_root && !rw->batch_is_top) {
        enum frd_action a = rw_check_root(rw, we, it);
        if (a != FRD_ACTION_CONTINUE) {
            atomic_fetch_sub_explicit(&rw->in_flight, 1, memory_order_relaxed); // rw_start's
        }
        return a;
    }
    if (we->is_root) {
        atomic_store_explicit(&rw->root_dev, e->dev, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&rw->entries, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&rw->bytes, e->size, memory_order_relaxed);
    enum frd_action a = FRD_ACTION_CONTINUE;
    if ((int)depth >= rw->opts->walk.min_depth) {
        struct frd_walk_entry copy = *we;
        copy.depth = depth;
        copy.root_index = 0;
        a = rw->cb->visit(&copy, rw->udata);
    }
    if (a == FRD_ACTION_CONTINUE && e->type == FRD_TYPE_DIR && e->error >= 0 &&
        rw->opts->walk.max_depth >= 0 && (int)depth >= rw->opts->walk.max_depth) {
        a = FRD_ACTION_PRUNE; // what the walker's own max_depth does
    }
    if (a != FRD_ACTION_CONTINUE || e->type != FRD_TYPE_DIR || e->error < 0) {
        if (we->is_root) {
            atomic_fetch_sub_explicit(&rw->in_flight, 1, memory_order_relaxed); // rw_start's
        }
        return a;
    }
    if (!we->is_root) {
        if (rw_divert(rw, we, depth)) {
            return FRD_ACTION_PRUNE;
        }
        atomic_fetch_add_explicit(&rw->in_flight, 1, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&rw->dirs, 1, memory_order_relaxed);
    return FRD_ACTION_CONTINUE;
}

static void rw_post(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *totals,
                    void *udata)
{
    struct rank_walk *rw = udata;
    atomic_fetch_sub_explicit(&rw->in_flight, 1, memory_order_relaxed);
    if (rw->cb->on_dir_done == NULL) {
        return;
    }
    const struct mq_item *it = &rw->batch.items[dir->root_index];
    struct frd_walk_entry copy = *dir;
    copy.depth = it->depth + dir->depth;
    copy.is_root = dir->is_root && rw->batch_is_top;
    copy.root_index = 0;
    rw->cb->on_dir_done(&copy, totals, rw->udata);
}

/** The test-only listing delay (FRD_MPI_TEST_LIST_DELAY_US). */
static void rw_delay(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    (void)dir;
    (void)kids;
    struct rank_walk *rw = udata;
    sleep_ns((long)rw->delay_us * 1000);
}

static void *rw_thread(void *arg)
{
    struct rank_walk *rw = arg;
    struct frd_walk_options w = rw->opts->walk;
    w.on_error = rw_error;
    w.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY; // rw_error keeps a root's code itself
    w.on_dir_done = rw_post;                      // counts in_flight down, calls the caller's hook
    w.on_children = rw->delay_us ? rw_delay : NULL;
    w.on_progress = NULL;
    w.min_depth = 0;
    w.max_depth = -1;
    if (!rw->batch_is_top && w.follow == FRD_FOLLOW_ROOTS) {
        w.follow = FRD_FOLLOW_NEVER; // only the walk's own root is followed
    }
    const char **roots = frd__malloc(rw->batch.len * sizeof(*roots));
    if (roots == NULL) {
        rw->walk_rc = FRD_ENOMEM;
    } else {
        for (size_t i = 0; i < rw->batch.len; i++) {
            roots[i] = rw->batch.items[i].path;
        }
        rw->walk_rc = frd_walk_roots(roots, rw->batch.len, &w, rw_visit, rw);
        frd__free(roots);
    }
    pthread_mutex_lock(&rw->lock);
    atomic_store(&rw->walk_done, true);
    pthread_cond_signal(&rw->wake);
    pthread_mutex_unlock(&rw->lock);
    return NULL;
}

/** Starts a batch: every directory of held at the depth of its last one. @return 0 or code. */
static int rw_start(struct rank_walk *rw)
{
    uint32_t depth = rw->held.items[rw->held.len - 1].depth;
    size_t kept = 0, first = 0, taken = 0;
    for (size_t i = rw->held.len; i-- > 0 && taken < (size_t)rw->keep;) {
        if (rw->held.items[i].depth == depth) {
            first = i;
            taken++;
        }
    }
    mq_drop_tail(&rw->batch, rw->batch.len);
    for (size_t i = 0; i < rw->held.len; i++) {
        struct mq_item *it = &rw->held.items[i];
        if (it->depth == depth && i >= first) {
            struct mq one = {it, 1, 1};
            if (mq_move_all(&rw->batch, &one) != 0) {
                return FRD_ENOMEM; // (the items left in held are freed with it)
            }
        } else {
            rw->held.items[kept++] = *it;
        }
    }
    rw->held.len = kept;
    rw->batch_is_top = rw->top_pending;
    rw->top_pending = false;
    atomic_store(&rw->root_dev, rw->batch.items[0].root_dev);
    atomic_store(&rw->walk_done, false);
    atomic_store(&rw->in_flight, (int)rw->batch.len); // each root: until its post hook
    rw->walk_rc = 0;
    rw->stats.batch_start = now_ns();
    rw->stats.batches++;
    if (pthread_create(&rw->thread, NULL, rw_thread, rw) != 0) {
        return FRD_ENOMEM;
    }
    rw->walking = true;
    return 0;
}

/** Sends items [0, n) of q to rank dst as one MP_WORK and drops them. @return 0 or
 *  mp_send()'s code. */
static int rw_give(struct rank_walk *rw, struct mq *q, size_t n, int dst)
{
    size_t len;
    char *buf = mq_pack(q, 0, n, &len);
    rw->stats.given += n;
    if (buf == NULL) {
        return FRD_ENOMEM;
    }
    int rc = mp_send(&rw->mp, dst, MP_WORK, buf, len);
    frd__free(buf);
    mq_drop_head(q, n);
    return rc;
}

/** Answers the waiting ranks from the outbox, or MP_NOWORK when `all_nowork`.
 *  @return 0, or mp_send()'s code. */
static int rw_serve(struct rank_walk *rw, bool all_nowork)
{
    int rc = 0;
    if (rw->scatter && rw->mp.size > 1) {
        pthread_mutex_lock(&rw->lock);
        while (rw->outbox.len > 0 && rc == 0) {
            rw->scatter_next = (rw->scatter_next + 1) % rw->mp.size;
            rw->scatter_next += rw->scatter_next == rw->mp.rank ? 1 : 0;
            rw->scatter_next %= rw->mp.size;
            rc = rw_give(rw, &rw->outbox, 1, rw->scatter_next);
        }
        pthread_mutex_unlock(&rw->lock);
    }
    if (rc != 0) {
        return rc;
    }
    // Each waiting rank gets as many of held as this rank keeps (the first, shallowest ones);
    // the last one goes only when a walk is running here.
    size_t parts = (size_t)rw->npending + 1;
    while (rw->npending > 0 && rw->held.len > 0 && rc == 0) {
        size_t n = rw->held.len / parts--;
        if (n == 0 && rw->held.len == 1 && !rw->walking) {
            break;
        }
        rc = rw_give(rw, &rw->held, n > 0 ? n : 1, rw->pending[--rw->npending]);
    }
    // The root's subdirectories wait for the end of the root's batch (then in held).
    bool splitting = rw->walking && rw->batch_is_top && rw->mp.size > 1;
    pthread_mutex_lock(&rw->lock);
    while (!splitting && rw->npending > 0 && rw->outbox.len > 0 && rc == 0) {
        size_t n = (rw->outbox.len + (size_t)rw->npending - 1) / (size_t)rw->npending;
        rc = rw_give(rw, &rw->outbox, n, rw->pending[--rw->npending]);
    }
    bool late = !splitting && now_ns() - rw->pending_since > REQUEST_WAIT_NS;
    if (all_nowork || late) {
        while (rw->npending > 0 && rc == 0) {
            rc = mp_send(&rw->mp, rw->pending[--rw->npending], MP_NOWORK, NULL, 0);
        }
    }
    atomic_store(&rw->want, rw->npending > 0 ? 8 * rw->npending : 0);
    if (rw->npending == 0 && !rw->scatter && rc == 0) {
        rc = mq_move_all(&rw->held, &rw->outbox); // in held, thieves get them without waiting
    }
    pthread_mutex_unlock(&rw->lock);
    return rc;
}

/** Has rank `src` a request waiting for a reply here? */
static bool rw_is_pending(const struct rank_walk *rw, int src)
{
    for (int i = 0; i < rw->npending; i++) {
        if (rw->pending[i] == src) {
            return true;
        }
    }
    return false;
}

/** Handles one message (mp_check() passed). @return 1 when the walk has ended for this rank,
 *  0, FRD_EMALFORMED (WORK whose items break the protocol), or mp_send()'s code. */
static int rw_handle(struct rank_walk *rw, struct mp_msg *msg)
{
    switch (msg->tag) {
    case MP_REQ:
        if (rw_is_pending(rw, msg->src)) {
            // Waiting already: answered once. (A rank asks again only after a reply, but a
            // scattered directory, test-only, reaches it as if it were one.)
            return 0;
        }
        if ((rw->walking || rw->held.len > 0) && rw->npending < rw->mp.size) {
            if (rw->npending == 0) {
                rw->pending_since = now_ns();
            }
            rw->pending[rw->npending++] = msg->src; // answered by rw_serve()
            atomic_store(&rw->want, 8 * rw->npending);
            return 0;
        }
        return mp_send(&rw->mp, msg->src, MP_NOWORK, NULL, 0);
    case MP_WORK:
        rw->stats.work_msgs++;
        rw->req_out = false;
        return mq_unpack(&rw->held, msg->buf, msg->len, rw->root, rw->root_len);
    case MP_NOWORK:
        rw->req_out = false;
        rw->next_req = now_ns() + IDLE_SLEEP_NS;
        return 0;
    case MP_DONE:
        return 1;
    case MP_ABORT:
        if (rw->rc == 0) {
            int32_t code;
            memcpy(&code, msg->buf, sizeof code);
            rw->rc = code;
        }
        return 1;
    case MP_PROGRESS:
        if (rw->progress != NULL) {
            memcpy(rw->progress + 5 * msg->src, msg->buf, 5 * sizeof(uint64_t));
        }
        return 0;
    default:
        return FRD_EMALFORMED;
    }
}

/** Sends this rank's figures to rank 0 and, on rank 0, calls the progress hook.
 *  @return 0, or mp_send()'s code. */
static int rw_progress(struct rank_walk *rw, bool idle)
{
    uint64_t now = now_ns();
    if (now < rw->next_progress) {
        return 0;
    }
    unsigned ms = rw->opts->progress_interval_ms ? rw->opts->progress_interval_ms : 1000;
    rw->next_progress = now + (uint64_t)ms * 1000000u;
    uint64_t mine[5] = {atomic_load(&rw->entries), atomic_load(&rw->dirs), atomic_load(&rw->bytes),
                        atomic_load(&rw->errors), idle};
    if (rw->mp.rank != 0) {
        return rw->cb->on_progress ? mp_send(&rw->mp, 0, MP_PROGRESS, mine, sizeof mine) : 0;
    }
    if (rw->progress == NULL) {
        return 0;
    }
    memcpy(rw->progress, mine, sizeof mine);
    struct frd_mpi_progress p = {.ranks = rw->mp.size};
    for (int r = 0; r < rw->mp.size; r++) {
        const uint64_t *f = rw->progress + 5 * r;
        p.entries += f[0];
        p.dirs += f[1];
        p.bytes += f[2];
        p.errors += f[3];
        p.idle_ranks += f[4] ? 1 : 0;
    }
    rw->cb->on_progress(&p, rw->udata);
    return 0;
}

/** Waits for the running batch; a code it ended with (not our own stop) becomes rw->rc. */
static void rw_join(struct rank_walk *rw)
{
    pthread_join(rw->thread, NULL);
    rw->walking = false;
    rw->stats.walk_ns += now_ns() - rw->stats.batch_start;
    if (rw->batch_is_top) {
        rw->pending_since = now_ns(); // the ranks waiting from the start: served from now
    }
    pthread_mutex_lock(&rw->lock);
    int moved = mq_move_all(&rw->held, &rw->outbox); // diverted, never asked for in the end
    pthread_mutex_unlock(&rw->lock);
    int code = rw->walk_rc;
    int stop_code = atomic_load(&rw->stop_code);
    if (code == FRD_ESTOPPED && stop_code != 0) {
        code = stop_code; // an error hook said stop inside a visit (identity check)
    }
    if (rw->rc == 0 && !atomic_load(&rw->stopping)) {
        rw->rc = moved != 0 ? FRD_ENOMEM : code;
    }
}

/**
 * Ends this rank's loop after a failure that is not MPI's own (a message that broke the
 * protocol, no memory, the walk's code): every rank is told to stop, and all return the code.
 * @return 0, or -1 when MPI failed (then frd_mpi_walk() returns FRD_EIO).
 */
static int rw_fail(struct rank_walk *rw, int code)
{
    if (code == FRD_EIO) {
        return -1;
    }
    if (rw->rc == 0) {
        rw->rc = code;
    }
    int32_t c = rw->rc;
    return mp_send_all(&rw->mp, MP_ABORT, &c, sizeof c) == 0 ? 0 : -1;
}

/** The rank's loop. @return 0, or -1 when MPI failed. */
static int rw_loop(struct rank_walk *rw)
{
    int size = rw->mp.size;
    for (;;) {
        bool busy = false;
        struct mp_msg msg;
        int got;
        while ((got = mp_poll(&rw->mp, &msg)) > 0) {
            busy = true;
            int end = rw_handle(rw, &msg);
            frd__free(msg.buf);
            if (end != 0) {
                return end < 0 ? rw_fail(rw, end) : 0;
            }
        }
        if (got < 0) {
            return rw_fail(rw, got);
        }
        if (rw->walking && atomic_load(&rw->walk_done)) {
            rw_join(rw);
            busy = true;
            if (rw->rc != 0) {
                return rw_fail(rw, rw->rc);
            }
        }
        // Waiting ranks first (they get as much as this rank keeps), then a new batch.
        int rc = rw_serve(rw, !rw->walking && rw->held.len == 0);
        if (rc == 0 && !rw->walking && rw->held.len > 0) {
            rc = rw_start(rw);
            busy = true;
        }
        bool idle = !rw->walking && rw->held.len == 0;
        rw_stats_idle(&rw->stats, idle);
        if (rc == 0) {
            rc = rw_progress(rw, idle);
        }
        if (rc == 0 && idle) {
            rc = mp_idle_token(&rw->mp);
            if (rc == 1) {
                rc = mp_send_all(&rw->mp, MP_DONE, NULL, 0);
                return rc == 0 ? 0 : rw_fail(rw, rc);
            }
        }
        if (rc != 0) {
            return rw_fail(rw, rc);
        }
        bool low = rw->walking && rw->held.len == 0 && !atomic_load(&rw->walk_done) &&
                   atomic_load(&rw->in_flight) <= rw->low && !rw->batch_is_top;
        if ((idle || low) && !rw->req_out && size > 1 && now_ns() >= rw->next_req) {
            int dst = (int)(rand_r(&rw->seed) % (unsigned)(size - 1));
            dst += dst >= rw->mp.rank ? 1 : 0;
            rc = mp_send(&rw->mp, dst, MP_REQ, NULL, 0);
            if (rc != 0) {
                return rw_fail(rw, rc);
            }
            rw->req_out = true;
            rw->stats.requests++;
        }
        if (!busy) {
            rw_nap(rw);
        }
    }
}

int frd_mpi_walk(MPI_Comm comm, const char *root, const struct frd_mpi_options *opts,
                 const struct frd_mpi_callbacks *cb, void *udata)
{
    if (root == NULL || opts == NULL || cb == NULL || cb->visit == NULL ||
        opts->walk.on_error != NULL || opts->walk.on_dir_done != NULL ||
        opts->walk.on_progress != NULL || opts->walk.on_children != NULL) {
        return FRD_EINVAL;
    }
    struct rank_walk *rw = frd__calloc(1, sizeof(*rw));
    MPI_Comm dup;
    if (rw == NULL) {
        return FRD_ENOMEM;
    }
    if (MPI_Comm_dup(comm, &dup) != MPI_SUCCESS) {
        frd__free(rw);
        return FRD_EIO;
    }
    rw->opts = opts;
    rw->root = root;
    rw->root_len = strlen(root);
    rw->cb = cb;
    rw->udata = udata;
    pthread_mutex_init(&rw->lock, NULL);
    pthread_condattr_t cattr;
    pthread_condattr_init(&cattr);
    pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
    pthread_cond_init(&rw->wake, &cattr);
    pthread_condattr_destroy(&cattr);
    const char *delay = getenv("FRD_MPI_TEST_LIST_DELAY_US");
    rw->delay_us = delay != NULL ? (unsigned)strtoul(delay, NULL, 10) : 0;
    const char *scatter = getenv("FRD_MPI_TEST_SCATTER");
    rw->scatter = scatter != NULL && strcmp(scatter, "1") == 0;
    int mpi_failed = mp_init(&rw->mp, dup) != 0;
    unsigned workers = opts->walk.workers ? opts->walk.workers : 8;
    // One rank alone has no thieves: one walk. Otherwise 8 directories per worker in flight,
    // and a request for more once 2 per worker are left (and none held).
    rw->keep = rw->scatter || rw->mp.size == 1 ? INT32_MAX : (int)(8 * workers + 8);
    rw->low = (int)(2 * workers + 2);
    rw->seed = (unsigned)rw->mp.rank * 2654435761u + (unsigned)now_ns();
    rw->pending = frd__calloc((size_t)(rw->mp.size > 0 ? rw->mp.size : 1), sizeof(int));
    if (rw->pending == NULL) {
        rw->rc = FRD_ENOMEM;
    }
    // Every other rank waits for rank 0's reply from the start, as if it had asked: rank 0
    // shares the root's subdirectories out once it has listed the root.
    rw->req_out = rw->mp.rank != 0;
    if (!mpi_failed && rw->mp.rank == 0) {
        rw->top_pending = true;
        if (cb->on_progress != NULL) {
            rw->progress = frd__calloc((size_t)rw->mp.size * 5, sizeof(uint64_t));
        }
        if (mq_push(&rw->held, root, rw->root_len, 0, 0, 0, 0, false) != 0) {
            rw->rc = FRD_ENOMEM;
        }
        for (int r = rw->mp.size - 1; r > 0 && rw->pending != NULL; r--) {
            rw->pending[rw->npending++] = r;
        }
        rw->pending_since = now_ns();
    }
    rw->stats.on = getenv("FRD_MPI_TEST_STATS") != NULL;
    rw->stats.start = now_ns();
    if (!mpi_failed) {
        // A rank that cannot start still tells the others, which would wait for it.
        mpi_failed = (rw->rc == 0 ? rw_loop(rw) : rw_fail(rw, rw->rc)) != 0;
    }
    if (rw->stats.on) {
        rw_stats_print(&rw->stats, rw->mp.rank);
    }
    if (rw->walking) {
        atomic_store(&rw->stopping, true);
        rw_join(rw);
    }
    int finished = mpi_failed ? FRD_EIO : mp_finish(&rw->mp);
    int local = rw->rc != 0 ? rw->rc : rw->root_rc;
    if (finished != 0) {
        local = finished == FRD_EMALFORMED && rw->rc != 0 ? rw->rc : finished;
    }
    int result = local;
    MPI_Allreduce(&local, &result, 1, MPI_INT, MPI_MIN, dup);
    mq_free(&rw->held);
    mq_free(&rw->batch);
    mq_free(&rw->outbox);
    frd__free(rw->progress);
    frd__free(rw->pending);
    pthread_cond_destroy(&rw->wake);
    pthread_mutex_destroy(&rw->lock);
    frd__free(rw);
    MPI_Comm_free(&dup);
    return result;
}
