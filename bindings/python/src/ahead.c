// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Listing one directory, and the pool of threads that list ahead of the os_walk walks. */

#include "ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// After the system headers: the tools' growth helper (examples/common/grow.h).
#include "grow.h"

enum {
    POOL_THREADS_MAX = 4, // threads listing ahead, for every walk of the process
};

/** reserve_kinds(&kinds, &cap, need): a listing's entry kinds (first 256). */
TOOL_RESERVE_DEFINE(reserve_kinds, unsigned char, 256)

static atomic_long fds_held;

static struct {
    pthread_mutex_t mu;
    pthread_cond_t work;           // a job was queued, or the threads must stop
    struct ahead_job *head, *tail; // the queue: threads take from the tail (the newest)
    pthread_t threads[POOL_THREADS_MAX];
    unsigned nthreads, want, idle;
    unsigned users; // walks that use the pool
    bool stopping;  // the last user left: threads exit once the queue is empty
    bool joining;   // a thread is joining them (no other starts or joins any)
    unsigned gen;   // +1 in a child after fork(): the parent's jobs are not run here
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER, .work = PTHREAD_COND_INITIALIZER};

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

long ahead_fds_held(void)
{
    return atomic_load_explicit(&fds_held, memory_order_relaxed);
}

void ahead_fd_opened(void)
{
    atomic_fetch_add_explicit(&fds_held, 1, memory_order_relaxed);
}

void ahead_fd_close(int fd)
{
    if (fd >= 0) {
        close(fd);
        atomic_fetch_sub_explicit(&fds_held, 1, memory_order_relaxed);
    }
}

static int listing_fail(struct ahead_listing *out, int code, enum frd_op op)
{
    out->code = code;
    out->op = op;
    return code;
}

int ahead_open(struct ahead_listing *out, int parent, const char *name, bool nofollow, bool stat)
{
    out->fd = -1;
    out->code = 0;
    out->op = FRD_OP_OTHER;
    out->too_big = false;
    // O_DIRECTORY: a name that is no longer a directory fails (ENOTDIR) rather than open a
    // fifo; O_NOFOLLOW: a directory swapped for a link meanwhile is not followed (ELOOP).
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0));
    if (fd < 0) {
        return listing_fail(out, -errno, FRD_OP_OPEN);
    }
    ahead_fd_opened();
    // The identity and times before the read: a listing made ahead is used only if the
    // directory still has them when the walk reaches it (os_walk.c).
    if (stat && fstat(fd, &out->st) < 0) {
        int code = -errno;
        ahead_fd_close(fd);
        return listing_fail(out, code, FRD_OP_STAT);
    }
    out->fd = fd;
    return 0;
}

/** Whether a directory of this fstat may be listed ahead (see AHEAD_WHOLE_BYTES). */
static bool ahead_small(const struct stat *st)
{
    return st->st_size > 0 && st->st_size <= AHEAD_WHOLE_BYTES;
}

/** Sets the kinds of out->list's entries from `first` on (links stat'ed). @return 0, or
 *  FRD_ENOMEM (out->code set). */
static int classify(struct ahead_listing *out, size_t first)
{
    size_t count = frd_list_count(out->list);
    if (reserve_kinds(&out->kinds, &out->kinds_cap, count) < 0) {
        return listing_fail(out, FRD_ENOMEM, FRD_OP_ALLOC);
    }
    const struct frd_entry *e = frd_list_entries(out->list);
    for (size_t i = first; i < count; i++) {
        unsigned char kind = AHEAD_OTHER;
        if (e[i].type == FRD_TYPE_DIR) {
            kind = AHEAD_DIR;
        } else if (e[i].type == FRD_TYPE_LNK) {
            // os.walk's entry.is_dir() follows a link; one it cannot stat is no directory.
            struct stat st;
            if (fstatat(out->fd, e[i].name, &st, 0) == 0 && S_ISDIR(st.st_mode)) {
                kind = AHEAD_LINK_DIR;
            }
        }
        out->kinds[i] = kind;
    }
    return 0;
}

static int list_ready(struct ahead_listing *out)
{
    if (out->list == NULL && frd_list_new(&out->list) < 0) {
        return listing_fail(out, FRD_ENOMEM, FRD_OP_ALLOC);
    }
    return 0;
}

/** Reads the whole directory out->fd into out->list (emptied first), with kinds.
 *  @return the number of entries, or a negative code (out->code and out->op set). */
static int ahead_read_whole(struct frd_lister *lister, struct ahead_listing *out)
{
    if (list_ready(out) < 0) {
        return out->code;
    }
    frd_list_clear(out->list);
    int n = frd_lister_list_fd(lister, out->list, out->fd, NULL);
    if (n < 0) {
        return listing_fail(out, n, frd_lister_error(lister).call);
    }
    return classify(out, 0) < 0 ? out->code : n;
}

int ahead_read_chunk(struct frd_lister *lister, struct ahead_listing *out)
{
    if (list_ready(out) < 0) {
        return out->code;
    }
    frd_list_clear(out->list);
    for (;;) {
        size_t first = frd_list_count(out->list);
        int n = frd_lister_batch_read(lister, out->list);
        if (n < 0) {
            return listing_fail(out, n, frd_lister_error(lister).call);
        }
        if (classify(out, first) < 0) {
            return out->code;
        }
        if (n == 0) {
            return 0;
        }
        if (frd_list_count(out->list) >= AHEAD_CHUNK_ENTRIES) {
            return 1;
        }
    }
}

/** Copies the names and kinds of `from`'s list into `to` (names, count, kinds). */
static int compact(const struct ahead_listing *from, struct ahead_listing *to)
{
    size_t n = frd_list_count(from->list);
    const struct frd_entry *e = frd_list_entries(from->list);
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        bytes += e[i].name_len + 1;
    }
    if (tool_reserve_chars(&to->names, &to->names_cap, bytes) < 0 ||
        reserve_kinds(&to->kinds, &to->kinds_cap, n) < 0) {
        return listing_fail(to, FRD_ENOMEM, FRD_OP_ALLOC);
    }
    char *p = to->names;
    for (size_t i = 0; i < n; i++) {
        memcpy(p, e[i].name, e[i].name_len + 1);
        p += e[i].name_len + 1;
    }
    if (n > 0) {
        memcpy(to->kinds, from->kinds, n);
    }
    to->count = n;
    return 0;
}

void ahead_list(struct frd_lister *lister, struct ahead_listing *work, struct ahead_listing *out,
                int parent, const char *name, bool nofollow)
{
    out->count = 0;
    if (lister == NULL) {
        out->fd = -1;
        out->too_big = false;
        listing_fail(out, FRD_ENOMEM, FRD_OP_ALLOC);
        return;
    }
    if (ahead_open(out, parent, name, nofollow, true) < 0) {
        return;
    }
    if (!ahead_small(&out->st)) {
        out->too_big = true; // the walk lists it in batches itself
        ahead_listing_close(out);
        return;
    }
    work->fd = out->fd; // read through `work` (its list is reused), then copied
    int n = ahead_read_whole(lister, work);
    work->fd = -1;
    if (n < 0) {
        listing_fail(out, work->code, work->op);
        ahead_listing_close(out);
    } else if (compact(work, out) < 0) {
        ahead_listing_close(out);
    }
}

void ahead_listing_close(struct ahead_listing *l)
{
    ahead_fd_close(l->fd);
    l->fd = -1;
}

void ahead_listing_done(struct ahead_listing *l)
{
    if (l->list != NULL && frd_list_count(l->list) > AHEAD_KEEP_ENTRIES) {
        ahead_listing_free(l);
    } else {
        ahead_listing_close(l);
    }
}

void ahead_listing_free(struct ahead_listing *l)
{
    ahead_listing_close(l);
    frd_list_free(l->list);
    l->list = NULL;
    free(l->names);
    l->names = NULL;
    l->names_cap = 0;
    l->count = 0;
    free(l->kinds);
    l->kinds = NULL;
    l->kinds_cap = 0;
}

int ahead_owner_init(struct ahead_owner *owner)
{
    owner->waiting = false;
    owner->listed = 0;
    return pthread_cond_init(&owner->done, NULL) == 0 ? 0 : -1;
}

void ahead_owner_destroy(struct ahead_owner *owner)
{
    pthread_cond_destroy(&owner->done);
}

uint64_t ahead_owner_listed(struct ahead_owner *owner)
{
    pthread_mutex_lock(&pool.mu);
    uint64_t n = owner->listed;
    pthread_mutex_unlock(&pool.mu);
    return n;
}

static void queue_unlink(struct ahead_job *job)
{
    if (job->prev != NULL) {
        job->prev->next = job->next;
    } else {
        pool.head = job->next;
    }
    if (job->next != NULL) {
        job->next->prev = job->prev;
    } else {
        pool.tail = job->prev;
    }
    job->prev = job->next = NULL;
}

static void *pool_main(void *arg)
{
    (void)arg;
    struct frd_lister *lister = NULL;
    if (frd_lister_new(&lister, FRD_LIST_NAMES_ONLY) < 0) {
        lister = NULL; // each job then fails with FRD_ENOMEM, and its walk lists it again
    }
    struct ahead_listing work = {.fd = -1}; // this thread's list, reused for every job
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        // The newest job first: each walk submits its next directories nearest first,
        // and takes the nearest ones back to list them itself when it gets there first,
        // so the pool and the walk meet in the middle and rarely wait for each other.
        struct ahead_job *job = pool.tail;
        if (job == NULL) {
            if (pool.stopping) {
                break;
            }
            pool.idle++;
            pthread_cond_wait(&pool.work, &pool.mu);
            pool.idle--;
            continue;
        }
        queue_unlink(job);
        job->state = AHEAD_RUNNING;
        pthread_mutex_unlock(&pool.mu);
        ahead_list(lister, &work, &job->out, job->parent, job->name, job->nofollow);
        ahead_listing_done(&work); // keeps the list unless it grew big
        pthread_mutex_lock(&pool.mu);
        job->state = AHEAD_DONE;
        job->owner->listed += job->out.code == 0 && !job->out.too_big;
        if (job->owner->waiting) {
            pthread_cond_broadcast(&job->owner->done);
        }
    }
    pthread_mutex_unlock(&pool.mu);
    ahead_listing_free(&work);
    frd_lister_free(lister);
    return NULL;
}

/** Starts the threads that are missing, with the lock held (none while others are joined). */
static void pool_start_locked(void)
{
    while (!pool.joining && pool.nthreads < pool.want) {
        if (pthread_create(&pool.threads[pool.nthreads], NULL, pool_main, NULL) != 0) {
            break; // the walks list what stays queued themselves
        }
        pool.nthreads++;
    }
}

static void pool_before_fork(void)
{
    pthread_mutex_lock(&pool.mu);
}

static void pool_after_fork_parent(void)
{
    pthread_mutex_unlock(&pool.mu);
}

static void pool_after_fork_child(void)
{
    // Only the forking thread lives on: no pool thread, an empty queue. The jobs that
    // were queued or running keep their old generation; their walks take them back.
    pthread_mutex_init(&pool.mu, NULL);
    pthread_cond_init(&pool.work, NULL);
    pool.head = pool.tail = NULL;
    pool.nthreads = pool.idle = 0;
    pool.stopping = pool.joining = false;
    pool.gen++;
}

static void pool_init_once(void)
{
    // One CPU stays the walks' own (they list what the pool has not started), the others
    // list ahead.
    long cpus = sysconf(_SC_NPROCESSORS_ONLN) - 1;
    pool.want = cpus < 1 ? 1 : cpus > POOL_THREADS_MAX ? POOL_THREADS_MAX : (unsigned)cpus;
    pthread_atfork(pool_before_fork, pool_after_fork_parent, pool_after_fork_child);
}

void ahead_acquire(void)
{
    pthread_once(&pool_once, pool_init_once);
    pthread_mutex_lock(&pool.mu);
    pool.users++;
    pthread_mutex_unlock(&pool.mu);
}

void ahead_release(void)
{
    pthread_mutex_lock(&pool.mu);
    pool.users--;
    if (pool.users > 0 || pool.nthreads == 0 || pool.joining) {
        pthread_mutex_unlock(&pool.mu);
        return;
    }
    pool.joining = pool.stopping = true;
    pthread_cond_broadcast(&pool.work);
    unsigned n = pool.nthreads;
    pthread_t threads[POOL_THREADS_MAX];
    memcpy(threads, pool.threads, sizeof(threads));
    pthread_mutex_unlock(&pool.mu);
    for (unsigned i = 0; i < n; i++) {
        pthread_join(threads[i], NULL);
    }
    pthread_mutex_lock(&pool.mu);
    pool.nthreads = 0;
    pool.joining = pool.stopping = false;
    if (pool.users > 0 && pool.head != NULL) {
        pool_start_locked(); // a walk queued jobs while the threads were being joined
    }
    pthread_mutex_unlock(&pool.mu);
}

void ahead_submit(struct ahead_job *const *jobs, size_t n)
{
    pthread_mutex_lock(&pool.mu);
    for (size_t i = 0; i < n; i++) {
        struct ahead_job *job = jobs[i];
        job->state = AHEAD_QUEUED;
        job->gen = pool.gen;
        job->next = NULL;
        job->prev = pool.tail;
        if (pool.tail != NULL) {
            pool.tail->next = job;
        } else {
            pool.head = job;
        }
        pool.tail = job;
    }
    pool_start_locked();
    // A thread woken lists jobs until the queue is empty: wake one per 8 jobs queued.
    for (size_t woken = 0; woken < pool.idle && woken * 8 < n; woken++) {
        pthread_cond_signal(&pool.work);
    }
    pthread_mutex_unlock(&pool.mu);
}

/** The job is out of the pool: queued in a pool that fork() replaced, or taken back. */
static bool take_back_locked(struct ahead_job *job)
{
    if (job->gen != pool.gen && job->state != AHEAD_DONE && job->state != AHEAD_IDLE) {
        // Submitted before fork(): no thread of this process runs it. A thread of the
        // parent may have been filling its listing: abandon that memory (never reused).
        ahead_listing_close(&job->out);
        job->out.names = NULL;
        job->out.names_cap = 0;
        job->out.kinds = NULL;
        job->out.kinds_cap = 0;
        job->state = AHEAD_IDLE;
        return true;
    }
    if (job->state == AHEAD_QUEUED) {
        queue_unlink(job);
        job->state = AHEAD_IDLE;
        return true;
    }
    return false;
}

enum ahead_take ahead_take(struct ahead_job *job, int wait_ms)
{
    pthread_mutex_lock(&pool.mu);
    if (take_back_locked(job)) {
        pthread_mutex_unlock(&pool.mu);
        return AHEAD_TAKE_MINE;
    }
    if (job->state == AHEAD_RUNNING) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)wait_ms * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        job->owner->waiting = true;
        while (job->state == AHEAD_RUNNING &&
               pthread_cond_timedwait(&job->owner->done, &pool.mu, &until) == 0) {
        }
        job->owner->waiting = false;
    }
    enum ahead_take got = job->state == AHEAD_DONE ? AHEAD_TAKE_DONE : AHEAD_TAKE_BUSY;
    if (got == AHEAD_TAKE_DONE) {
        job->state = AHEAD_IDLE;
    }
    pthread_mutex_unlock(&pool.mu);
    return got;
}

void ahead_withdraw(struct ahead_owner *owner, struct ahead_job *const *jobs, size_t n)
{
    pthread_mutex_lock(&pool.mu);
    for (;;) {
        bool running = false;
        for (size_t i = 0; i < n; i++) {
            struct ahead_job *job = jobs[i];
            take_back_locked(job);
            if (job->state == AHEAD_DONE) {
                job->state = AHEAD_IDLE;
            }
            running = running || job->state == AHEAD_RUNNING;
        }
        if (!running) {
            break;
        }
        owner->waiting = true;
        pthread_cond_wait(&owner->done, &pool.mu);
        owner->waiting = false;
    }
    pthread_mutex_unlock(&pool.mu);
}
