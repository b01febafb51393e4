// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Listing one directory, and the threads that list directories ahead of an os_walk. */
#ifndef FRD_BINDINGS_PYTHON_AHEAD_H
#define FRD_BINDINGS_PYTHON_AHEAD_H

/*
 * An OsWalk (os_walk.c) lists each directory when it reaches it, as os.walk does. So that
 * it does not wait for the kernel at every step, it hands the next few directories on its
 * stack (at most OS_WALK_AHEAD; only directories it will enter whatever the consumer does:
 * a pruned one is never among them) to a pool of threads shared by every walk of the
 * process, as jobs. When it reaches a directory it takes the job back:
 *   - still queued: it withdraws it and lists the directory itself (no wait);
 *   - being listed: it waits for it (the GIL released);
 *   - done: it uses the listing if the directory is still the one listed (os_walk.c checks).
 * The pool's threads start with the first job and are joined once no walk uses the pool,
 * so a process that walks no more keeps no thread (fork() then warns of none).
 *
 * Locking: one mutex for the queue and every job's state; a job's listing (its `out`) is
 * written by the thread running it and read by its walk only once the state says DONE.
 * After fork() the child has no pool thread: jobs of the parent's pool (an older `gen`)
 * that were not done are taken back by their walk, which lists them itself.
 */

#include <frd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

enum {
    /** A directory whose st_size is at most this (and not 0: procfs, sysfs) may be
     *  listed ahead (some 3,000 entries at most: 64 KiB of ext4 directory blocks); a
     *  bigger one is read by the walk itself, in chunks. */
    AHEAD_WHOLE_BYTES = 65536,
    /** The walk reads a directory in chunks of about this many entries (a kernel buffer at
     *  a time, until past it), each made into Python names before the next is read: a
     *  listing in memory holds that many C records (some 150 bytes each) at most. */
    AHEAD_CHUNK_ENTRIES = 2048,
    /** Listings of more entries are freed once used (each keeps what its largest
     *  directory needed otherwise). */
    AHEAD_KEEP_ENTRIES = 64,
};

/** How a listed entry is walked: os.walk's is_dir(), with links told apart. */
enum ahead_kind {
    AHEAD_OTHER = 0,    /**< not a directory (a link to one that cannot be stat'ed neither) */
    AHEAD_DIR = 1,      /**< a directory */
    AHEAD_LINK_DIR = 2, /**< a symbolic link to a directory */
};

/**
 * A directory being listed, or listed: its descriptor, kept open for its children, and
 * its entries (all of them, or the last batch read): in `list` as the lister gives them,
 * or, for a listing made ahead, only their names, one after another in `names` (each
 * NUL-terminated; `count` of them), so that a listing waiting for its walk holds its names
 * and kinds only, not a list of C records (256 at least, some 50 KB).
 */
struct ahead_listing {
    int fd;                /**< the directory, open (O_DIRECTORY); -1 after a failure */
    int code;              /**< 0, or the negative frd code of the failure */
    enum frd_op op;        /**< the kind of call that failed */
    bool too_big;          /**< listed ahead: not ahead_small(), so not read */
    struct stat st;        /**< fstat of the directory, taken before it was read */
    struct frd_list *list; /**< its entries (names and types), or NULL */
    char *names;           /**< or (listed ahead) its names, NUL-terminated, */
    size_t names_cap;      /**< `count` of them */
    size_t count;
    unsigned char *kinds; /**< enum ahead_kind of each entry */
    size_t kinds_cap;
};

/**
 * Opens the directory `name` relative to `parent` (AT_FDCWD for a path; O_NOFOLLOW when
 * `nofollow`) into out->fd, counted in ahead_fds_held(), and with `stat` stats it into
 * out->st. On failure out->code and out->op say what failed and nothing stays open.
 * @return 0 or the negative code. Runs on any thread, without the GIL.
 */
int ahead_open(struct ahead_listing *out, int parent, const char *name, bool nofollow, bool stat);

/**
 * Reads the next chunk of the directory out->fd, whose listing in batches `lister` has
 * begun (frd_lister_batch_begin): into out->list (emptied first), a kernel buffer at a
 * time, until its end or past AHEAD_CHUNK_ENTRIES entries; and stats each symbolic link
 * among them to tell links to directories (out->kinds).
 * @return 0 at the end of the directory (the chunk is its last), 1 when more may follow,
 * or a negative code (out->code and out->op set; the descriptor stays open). Without the
 * GIL.
 */
int ahead_read_chunk(struct frd_lister *lister, struct ahead_listing *out);

/**
 * Lists the directory `name` relative to `parent` whole into `out` (names only), as the
 * pool does ahead: ahead_open(), then, if ahead_small(), ahead_read_whole() into `work`
 * (a listing the caller reuses), whose names and kinds are copied into out->names and
 * out->kinds (otherwise out->too_big, and the descriptor is closed). On success out->fd is
 * the open directory; on failure out->code and out->op say what failed and nothing stays
 * open. `lister` may be NULL (out of memory: FRD_ENOMEM). Without the GIL.
 */
void ahead_list(struct frd_lister *lister, struct ahead_listing *work, struct ahead_listing *out,
                int parent, const char *name, bool nofollow);

/** Closes the listing's descriptor, if open; the memory is kept for the next listing. */
void ahead_listing_close(struct ahead_listing *l);

/** Closes the listing's descriptor and, when it held a big directory (over
 *  AHEAD_KEEP_ENTRIES entries), frees its memory: each listing in flight keeps what its
 *  largest directory needed otherwise (some 150 bytes an entry), 17 of them per walk. */
void ahead_listing_done(struct ahead_listing *l);

/** Closes and frees what a listing holds. */
void ahead_listing_free(struct ahead_listing *l);

/** Closes a descriptor counted in ahead_fds_held(). */
void ahead_fd_close(int fd);

/** Counts a descriptor opened elsewhere (a reopened directory) in ahead_fds_held(). */
void ahead_fd_opened(void);

/** Descriptors the walks of this process hold open (directories listed, and kept). */
long ahead_fds_held(void);

/** A walk that has jobs in the pool: where it waits for them. */
struct ahead_owner {
    pthread_cond_t done; /**< broadcast when one of its jobs is done while it waits */
    bool waiting;
    uint64_t listed; /**< directories the pool read for it (under the pool's lock) */
};

/** The state of a job (under the pool's lock). */
enum ahead_state {
    AHEAD_IDLE = 0, /**< not in the pool (never submitted, or taken back) */
    AHEAD_QUEUED,   /**< waiting for a pool thread */
    AHEAD_RUNNING,  /**< being listed by a pool thread */
    AHEAD_DONE,     /**< listed: `out` is the owner's to read */
};

/** One directory to list ahead. */
struct ahead_job {
    struct ahead_listing out; /**< the result */
    int parent;               /**< set before submitting: the directory holding `name`, */
    const char *name;         /**< which the owner keeps open and valid until it takes */
    bool nofollow;            /**< the job back */
    struct ahead_owner *owner;
    enum ahead_state state;
    unsigned gen; /**< the pool's generation when submitted (fork() starts a new one) */
    struct ahead_job *prev, *next;
};

/** Makes an owner (its condition variable). @return 0, or -1 (no resources). */
int ahead_owner_init(struct ahead_owner *owner);

/** Destroys an owner that has no job in the pool (after ahead_withdraw()). */
void ahead_owner_destroy(struct ahead_owner *owner);

/** Directories the pool has read for `owner` so far (failures not counted). */
uint64_t ahead_owner_listed(struct ahead_owner *owner);

/** Says a walk uses the pool (its threads start with the first job). */
void ahead_acquire(void);

/** Says a walk no longer uses the pool, after ahead_withdraw(); the last one joins the
 *  pool's threads: call it without the GIL. */
void ahead_release(void);

/** Queues jobs (each IDLE, with parent, name, nofollow and owner set), the nearest first:
 *  the pool takes the newest job first, the walk the nearest when it gets there; starts the
 *  pool's threads if none runs. */
void ahead_submit(struct ahead_job *const *jobs, size_t n);

/** What ahead_take() found. */
enum ahead_take {
    AHEAD_TAKE_DONE, /**< listed: job->out holds the listing */
    AHEAD_TAKE_MINE, /**< taken back before any thread listed it: list it yourself */
    AHEAD_TAKE_BUSY, /**< still being listed after `wait_ms`: call again */
};

/** Takes a submitted job back (it is then IDLE, unless BUSY). Call it without the GIL. */
enum ahead_take ahead_take(struct ahead_job *job, int wait_ms);

/** Takes back every job of `owner` among `jobs` (IDLE ones are skipped), waiting for those
 *  being listed. Call it without the GIL. */
void ahead_withdraw(struct ahead_owner *owner, struct ahead_job *const *jobs, size_t n);

#endif // FRD_BINDINGS_PYTHON_AHEAD_H
