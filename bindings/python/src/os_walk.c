// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frd.os_walk(): os.walk's contract, each directory listed when the walk reaches it. */

/*
 * Design. An OsWalk is os.walk's loop (Python 3.12's, a stack instead of recursion) in C:
 *
 *   stack = [top]
 *   while stack:
 *       pop a directory; list it (onerror and skip it when that fails)
 *       topdown:   yield (dirpath, dirnames, filenames); at the next step read dirnames
 *                  as the consumer left it and push those to walk
 *       bottom-up: push "yield this directory", then its subdirectories
 *
 * so it is lazy (the first tuple comes after the first listing), pruning dirnames saves the
 * work (a pruned directory is never opened), each directory is listed when the walk reaches
 * it (renamed or removed meanwhile: onerror, as os.walk), and memory is the depth's: the
 * frames of the current path and the names waiting on the stack, as os.walk holds them.
 *
 * Frames: the directories of the current path, top first. Each keeps its descriptor while
 * subdirectories of it wait on the stack: they are opened relative to it (openat with
 * O_NOFOLLOW unless the entry was a link followed with followlinks), never by their path.
 * Above a descriptor budget (half of RLIMIT_NOFILE for all walks) the shallowest idle
 * frames are closed and reopened when needed, one name at a time from the nearest open
 * ancestor, with their device and inode checked.
 *
 * Listing ahead (ahead.h): after each step the next OS_WALK_AHEAD directories on the stack
 * (entered whatever the consumer does next: in topdown order they were pushed after the
 * consumer's pruning) go to the pool. Reaching one listed ahead, the walk checks that the
 * name still leads to the directory listed, with the same modification and change times
 * (fstatat relative to the parent); if not, it lists it again. So a tuple holds what the
 * directory held when the walk reached it, to the file system's timestamp resolution.
 *
 * Order: each directory's entries in the order the file system lists them (getdents64,
 * as os.scandir), subdirectories walked in dirnames' order: the tuples are os.walk's.
 */

#include "frd_py.h"

// After Python.h (frd_py.h), which comes before any system header: the pool's interface.
#include "ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

// After Python.h and the system headers: the tools' growth helper (examples/common/grow.h).
#include "grow.h"

enum {
    OS_WALK_AHEAD = 16, // directories of a walk's stack listed ahead by the pool, at most
    WAIT_MS = 50,       // a wait for the pool checks for signals (Ctrl-C) this often
    FD_BUDGET_MIN = 16,
};

/** A directory of the current path. */
struct frame {
    size_t path_len; // its path: the walk's path buffer up to here
    size_t name_off; // its name: the path from here (the top: all of it)
    int fd;          // -1 while closed (reopened from an ancestor when needed)
    bool followed;   // entered through a symbolic link (followlinks): reopened through it
    bool have_id;    // dev and ino known (stat'ed once it has subdirectories)
    dev_t dev;       // its identity, for loops and reopening
    ino_t ino;
    size_t pending;  // its subdirectories waiting on the stack
    size_t inflight; // of which submitted to the pool (the descriptor must stay open)
    char *names;     // its subdirectories' names, NUL-terminated (stack entries point here)
    size_t names_len, names_cap;
    PyObject *dirpath; // bottom-up: the tuple yielded once its subtree is done
    PyObject *dirs;
    PyObject *files;
};

/** A directory to reach, or (bottom-up) a frame to yield. */
struct pend {
    size_t frame;    // the parent frame (SIZE_MAX for the top); for a yield, the frame
    size_t name_off; // the name, in the parent frame's `names`
    size_t name_len;
    bool followed; // a link to a directory, walked with followlinks
    bool yield;
    struct ahead_job *job; // submitted to the pool, or NULL
};

/** A subdirectory as a topdown tuple's dirnames held it (or one to push, bottom-up). */
struct orig {
    PyObject *obj;   // the name object put in dirnames (a reference); NULL bottom-up
    size_t name_off; // its bytes, in the frame's `names`
    size_t name_len;
    bool link;
};

TOOL_RESERVE_DEFINE(reserve_frames, struct frame, 16)
TOOL_RESERVE_DEFINE(reserve_pends, struct pend, 64)
TOOL_RESERVE_DEFINE(reserve_origs, struct orig, 64)
TOOL_RESERVE_DEFINE(reserve_jobs, struct ahead_job *, 16)

typedef struct {
    PyObject_HEAD PyObject *top_arg; // as given; taken at the first step, as os.walk does
    PyObject *onerror;               // callable or NULL (after the first step)
    bool topdown;
    bool followlinks;
    bool started;
    bool finished;
    bool busy;      // a thread is in __next__ (which may wait with the GIL released)
    bool as_bytes;  // top was bytes: names and paths are bytes
    bool resume;    // topdown: the last tuple's dirnames is to be read at the next step
    bool pool;      // ahead_acquire() was called
    PyObject *top;  // os.fspath(top): the first dirpath
    char *top_path; // its bytes, NUL-terminated
    char *path;     // the current directory's path (the frames index into it)
    size_t path_cap;
    struct frame *frames;
    size_t nframes, frames_cap;
    struct pend *stack;
    size_t nstack, stack_cap;
    struct orig *origs; // topdown: the subdirectories of the last tuple
    size_t norigs, origs_cap;
    PyObject *dirs; // topdown: the last tuple's dirnames
    struct frd_lister *lister;
    struct ahead_listing own; // what this thread lists itself
    struct ahead_owner owner;
    bool owner_ok;
    struct ahead_job **jobs; // every job made (at most about OS_WALK_AHEAD + 1)
    size_t njobs, jobs_cap;
    long fd_budget;
    size_t submitted;                    // jobs in the pool, not yet taken back
    uint64_t listed, relisted, reopened; // counters, for _stats()
    uint64_t listed_ahead;               // the pool's, once the walk is over
} OsWalkObject;

TOOL_RESERVE_DEFINE(reserve_path, char, 4096)

/* ---------------------------------------------------------------------------------------- */
/* Frames and descriptors                                                                   */
/* ---------------------------------------------------------------------------------------- */

static void frame_clear(struct frame *f)
{
    ahead_fd_close(f->fd);
    f->fd = -1;
    free(f->names);
    f->names = NULL;
    f->names_len = f->names_cap = 0;
    Py_CLEAR(f->dirpath);
    Py_CLEAR(f->dirs);
    Py_CLEAR(f->files);
}

/** Ends the frames from `n` on (their subtrees are done). */
static void frames_truncate(OsWalkObject *self, size_t n)
{
    while (self->nframes > n) {
        frame_clear(&self->frames[--self->nframes]);
    }
}

/** Closes a frame's descriptor once no subdirectory of it waits (bottom-up at once,
 *  topdown after the consumer's dirnames has been read). */
static void frame_release_fd(struct frame *f)
{
    if (f->pending == 0 && f->fd >= 0) {
        ahead_fd_close(f->fd);
        f->fd = -1;
    }
}

/** Appends `len` bytes and a NUL to a frame's names. @return their offset, or SIZE_MAX. */
static size_t frame_add_name(struct frame *f, const char *name, size_t len)
{
    if (len > SIZE_MAX / 2 - f->names_len ||
        tool_reserve_chars(&f->names, &f->names_cap, f->names_len + len + 1) < 0) {
        return SIZE_MAX;
    }
    size_t off = f->names_len;
    memcpy(f->names + off, name, len);
    f->names[off + len] = '\0';
    f->names_len += len + 1;
    return off;
}

/** Opens `name` in `parent` as a directory, checking its identity. @return the descriptor
 *  (not counted), or a negative code (FRD_ENOENT when another directory has the name). */
static int open_checked(int parent, const char *name, bool follow, dev_t dev, ino_t ino)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        return -errno;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_dev != dev || st.st_ino != ino) {
        close(fd);
        return FRD_ENOENT; // what os.walk meets at that path: not the directory it listed
    }
    return fd;
}

/**
 * The descriptor of frame k, reopened if the budget closed it: from the nearest open
 * ancestor (the top, opened by its path as os.walk opens it, if none), one name at a time.
 * @return the descriptor, or a negative code.
 */
static int frame_fd(OsWalkObject *self, size_t k)
{
    struct frame *fr = self->frames;
    if (fr[k].fd >= 0) {
        return fr[k].fd;
    }
    size_t j = k;
    while (j > 0 && fr[j - 1].fd < 0) {
        j--;
    }
    int prev;
    bool prev_own; // prev was opened here, and is closed once the next one is open
    if (j == 0) {
        prev = open_checked(AT_FDCWD, self->top_path, true, fr[0].dev, fr[0].ino);
        if (prev < 0) {
            return prev;
        }
        j = 1;
    } else {
        prev = fr[j - 1].fd;
    }
    prev_own = fr[j - 1].fd < 0;
    for (size_t i = j; i <= k; i++) {
        size_t len = fr[i].path_len - fr[i].name_off;
        char *name = malloc(len + 1);
        int fd = FRD_ENOMEM;
        if (name != NULL) {
            memcpy(name, self->path + fr[i].name_off, len);
            name[len] = '\0';
            fd = open_checked(prev, name, fr[i].followed, fr[i].dev, fr[i].ino);
            free(name);
        }
        if (prev_own) {
            close(prev);
        }
        if (fd < 0) {
            return fd;
        }
        prev = fd;
        prev_own = true;
    }
    fr[k].fd = prev;
    ahead_fd_opened();
    self->reopened++;
    return prev;
}

/** Stats frame k for its identity (dev, ino), if not known yet. @return 0 or a code. */
static int frame_id(OsWalkObject *self, size_t k, int fd)
{
    struct frame *f = &self->frames[k];
    struct stat st;
    if (f->have_id) {
        return 0;
    }
    if (fstat(fd, &st) < 0) {
        return -errno;
    }
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->have_id = true;
    return 0;
}

/** Over the descriptor budget: closes the shallowest frames that nothing in the pool uses
 *  (not the top, nor the last two: the directory just listed and its parent). */
static void frames_trim(OsWalkObject *self)
{
    for (size_t i = 1; i + 2 < self->nframes && ahead_fds_held() > self->fd_budget; i++) {
        struct frame *f = &self->frames[i];
        if (f->fd >= 0 && f->inflight == 0) {
            ahead_fd_close(f->fd);
            f->fd = -1;
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Listing                                                                                  */
/* ---------------------------------------------------------------------------------------- */

static struct ahead_job *job_get(OsWalkObject *self)
{
    for (size_t i = 0; i < self->njobs; i++) {
        struct ahead_job *job = self->jobs[i];
        if (job->owner == NULL) {
            job->owner = &self->owner;
            return job;
        }
    }
    if (reserve_jobs(&self->jobs, &self->jobs_cap, self->njobs + 1) < 0) {
        return NULL;
    }
    struct ahead_job *job = calloc(1, sizeof(*job));
    if (job == NULL) {
        return NULL;
    }
    job->out.fd = -1;
    job->owner = &self->owner;
    self->jobs[self->njobs++] = job;
    return job;
}

/** Gives a job back (taken back from the pool, its listing used or dropped), and frees
 *  its listing's memory (a list holds 256 entries at least, some 50 KB): few jobs are
 *  listed by the pool at once, so that memory is not kept for each of them. */
static void job_put(struct ahead_job *job)
{
    ahead_listing_free(&job->out);
    job->owner = NULL; // free for the next job_get()
}

static bool same_times(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/** Whether a listing made ahead is still what listing the name now would give. */
static bool still_current(OsWalkObject *self, const struct pend *p, const struct stat *was)
{
    int parent = frame_fd(self, p->frame);
    struct stat st;
    return parent >= 0 &&
           fstatat(parent, self->frames[p->frame].names + p->name_off, &st,
                   p->followed ? 0 : AT_SYMLINK_NOFOLLOW) == 0 &&
           st.st_dev == was->st_dev && st.st_ino == was->st_ino &&
           same_times(&st.st_mtim, &was->st_mtim) && same_times(&st.st_ctim, &was->st_ctim);
}

/**
 * Takes pending directory p's job back from the pool (waiting, GIL released, if a thread
 * is listing it). @return 1 when its listing is to be used (made, whole, and the
 * directory unchanged since), 0 when the walk lists the directory itself (no thread had
 * started it; it failed, was too big, or changed since: listed again now), -1 with an
 * exception set (a signal while waiting: the job stays in the pool, finishing the walk
 * takes it back).
 */
static int take_job(OsWalkObject *self, struct pend *p)
{
    struct ahead_job *job = p->job;
    enum ahead_take got;
    for (;;) {
        PyThreadState *ts = PyEval_SaveThread();
        got = ahead_take(job, WAIT_MS);
        PyEval_RestoreThread(ts);
        if (got != AHEAD_TAKE_BUSY) {
            break;
        }
        if (PyErr_CheckSignals() < 0) {
            p->job = NULL;
            return -1;
        }
    }
    self->frames[p->frame].inflight--;
    self->submitted--;
    if (got == AHEAD_TAKE_MINE || job->out.code != 0 || job->out.too_big) {
        return 0;
    }
    if (!still_current(self, p, &job->out.st)) {
        self->relisted++;
        ahead_listing_close(&job->out);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* Steps                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/** Submits the next directories on the stack to the pool (all but the top one when the
 *  walk is about to take it itself). */
static void list_ahead(OsWalkObject *self, bool skip_top)
{
    struct ahead_job *batch[OS_WALK_AHEAD];
    size_t n = 0, seen = 0;
    // Submitting wakes a pool thread, which costs about a listing: so a batch, once half
    // the window is taken back.
    if (self->submitted > OS_WALK_AHEAD / 2) {
        return;
    }
    size_t i = self->nstack - (skip_top && self->nstack > 0 ? 1 : 0);
    while (i-- > 0 && seen < OS_WALK_AHEAD) {
        struct pend *p = &self->stack[i];
        if (p->yield || p->frame == SIZE_MAX) {
            continue;
        }
        seen++;
        struct frame *f = &self->frames[p->frame];
        if (p->job != NULL || f->fd < 0) {
            continue; // submitted already; or its parent is closed (listed here, later)
        }
        if (ahead_fds_held() + (long)n >= self->fd_budget - self->fd_budget / 4) {
            break; // listings hold descriptors: keep a quarter of the budget for the frames
        }
        struct ahead_job *job = job_get(self);
        if (job == NULL) {
            break;
        }
        job->parent = f->fd;
        job->name = f->names + p->name_off;
        job->nofollow = !p->followed;
        p->job = job;
        f->inflight++;
        batch[n++] = job;
    }
    if (n > 0) {
        if (!self->pool) {
            ahead_acquire();
            self->pool = true;
        }
        ahead_submit(batch, n);
        self->submitted += n;
    }
}

/** Calls onerror with the OSError of code for the current path (up to len). @return 0, or
 *  -1 when onerror raised. */
static int report(OsWalkObject *self, int code, enum frd_op op, size_t len)
{
    if (self->onerror == NULL) {
        return 0;
    }
    PyObject *filename =
        len == SIZE_MAX ? Py_NewRef(self->top) : frdpy_path(self->path, len, self->as_bytes);
    if (filename == NULL) {
        return -1;
    }
    PyObject *exc = frdpy_oserror(code, op, filename);
    Py_DECREF(filename);
    if (exc == NULL) {
        return -1;
    }
    PyObject *res = PyObject_CallOneArg(self->onerror, exc);
    Py_DECREF(exc);
    Py_XDECREF(res);
    return res == NULL ? -1 : 0;
}

/**
 * Adds the entries of a listing (a whole directory, or one batch of it) to dirnames and
 * filenames (*dirs and *files, made at the first batch), in its order. The subdirectories'
 * names go in frame f's names, and in self->origs: with their objects (topdown, for the
 * consumer's edits) or only those to walk (bottom-up: not links, unless followlinks).
 * @return 0, or -1 with an exception set.
 */
static int add_batch(OsWalkObject *self, struct frame *f, const struct ahead_listing *l,
                     PyObject **dirs, PyObject **files)
{
    // Entries from the lister's list, or (listed ahead) names one after another.
    bool packed = l->list == NULL;
    size_t n = packed ? l->count : frd_list_count(l->list);
    const struct frd_entry *e = packed ? NULL : frd_list_entries(l->list);
    const char *next = l->names;
    size_t ndirs = 0;
    for (size_t i = 0; i < n; i++) {
        ndirs += l->kinds[i] != AHEAD_OTHER;
    }
    if (reserve_origs(&self->origs, &self->origs_cap, self->norigs + ndirs) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    // The batch's names in lists of their size, which are the results for a first batch
    // (most directories come in one) and are appended to them otherwise.
    PyObject *bdirs = PyList_New((Py_ssize_t)ndirs);
    PyObject *bfiles = PyList_New((Py_ssize_t)(n - ndirs));
    if (bdirs == NULL || bfiles == NULL) {
        goto fail;
    }
    Py_ssize_t di = 0, fi = 0;
    for (size_t i = 0; i < n; i++) {
        const char *ename = e != NULL ? e[i].name : next;
        size_t elen = e != NULL ? e[i].name_len : strlen(next);
        if (e == NULL) {
            next += elen + 1;
        }
        PyObject *name = frdpy_path(ename, elen, self->as_bytes);
        if (name == NULL) {
            goto fail;
        }
        if (l->kinds[i] == AHEAD_OTHER) {
            PyList_SET_ITEM(bfiles, fi++, name);
            continue;
        }
        PyList_SET_ITEM(bdirs, di++, name);
        bool link = l->kinds[i] == AHEAD_LINK_DIR;
        if (!self->topdown && link && !self->followlinks) {
            continue;
        }
        size_t off = frame_add_name(f, ename, elen);
        if (off == SIZE_MAX) {
            PyErr_NoMemory();
            goto fail;
        }
        self->origs[self->norigs++] = (struct orig){
            .obj = self->topdown ? Py_NewRef(name) : NULL,
            .name_off = off,
            .name_len = elen,
            .link = link,
        };
    }
    PyObject **outs[2] = {dirs, files};
    PyObject *batch[2] = {bdirs, bfiles};
    for (int k = 0; k < 2; k++) {
        if (*outs[k] == NULL) {
            *outs[k] = batch[k];
            batch[k] = NULL;
        } else if (PyList_SetSlice(*outs[k], PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, batch[k]) < 0) {
            Py_XDECREF(batch[0]);
            Py_XDECREF(batch[1]);
            return -1;
        }
        Py_XDECREF(batch[k]);
        batch[k] = NULL;
    }
    return 0;
fail:
    Py_XDECREF(bdirs);
    Py_XDECREF(bfiles);
    return -1;
}

static void origs_clear(OsWalkObject *self)
{
    for (size_t i = 0; i < self->norigs; i++) {
        Py_CLEAR(self->origs[i].obj);
    }
    self->norigs = 0;
}

/** Pushes the subdirectories in self->origs that are to be walked, the first on top. */
static int push_children(OsWalkObject *self, size_t k)
{
    if (reserve_pends(&self->stack, &self->stack_cap, self->nstack + self->norigs) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    struct frame *f = &self->frames[k];
    for (size_t i = self->norigs; i-- > 0;) {
        const struct orig *o = &self->origs[i];
        if (o->link && !self->followlinks) {
            continue;
        }
        self->stack[self->nstack++] = (struct pend){
            .frame = k,
            .name_off = o->name_off,
            .name_len = o->name_len,
            .followed = o->link,
        };
        f->pending++;
    }
    return 0;
}

/** An orig entry's object address and position, sorted by address (resume()'s index). */
struct orig_ref {
    uintptr_t obj;
    size_t i;
};

static int orig_ref_cmp(const void *a, const void *b)
{
    uintptr_t x = ((const struct orig_ref *)a)->obj, y = ((const struct orig_ref *)b)->obj;
    return x < y ? -1 : x > y;
}

/**
 * The orig entry holding `obj` (the same object) at position `at` of dirnames, or NULL.
 * Where dirnames was left as it was, or cut, the object is at its place; otherwise (sorted,
 * reordered) it is found in *index, sorted by address, made at the first miss.
 * @return 0, or -1 out of memory.
 */
static int find_orig(const OsWalkObject *self, PyObject *obj, Py_ssize_t at,
                     struct orig_ref **index, const struct orig **found)
{
    *found = NULL;
    if ((size_t)at < self->norigs && self->origs[at].obj == obj) {
        *found = &self->origs[at];
        return 0;
    }
    if (self->norigs == 0) {
        return 0;
    }
    if (*index == NULL) {
        *index = malloc(self->norigs * sizeof(**index));
        if (*index == NULL) {
            return -1;
        }
        for (size_t i = 0; i < self->norigs; i++) {
            (*index)[i] = (struct orig_ref){(uintptr_t)self->origs[i].obj, i};
        }
        qsort(*index, self->norigs, sizeof(**index), orig_ref_cmp);
    }
    struct orig_ref key = {(uintptr_t)obj, 0};
    const struct orig_ref *hit = bsearch(&key, *index, self->norigs, sizeof(**index), orig_ref_cmp);
    if (hit != NULL) {
        *found = &self->origs[hit->i];
    }
    return 0;
}

/**
 * A name the consumer put in dirnames that the listing did not give: its bytes (added to
 * frame k's names, offset in *off) and whether it is a link, which os.walk asks
 * os.path.islink() at this point. @return 0, or -1 with an exception set (a type os.walk's
 * path join refuses).
 */
static int take_new_name(OsWalkObject *self, size_t k, PyObject *obj, struct orig *out)
{
    PyObject *fspath = PyOS_FSPath(obj);
    if (fspath == NULL) {
        return -1;
    }
    if (PyBytes_Check(fspath) != self->as_bytes) {
        Py_DECREF(fspath);
        PyErr_SetString(PyExc_TypeError, "Can't mix strings and bytes in path components");
        return -1;
    }
    PyObject *bytes = NULL;
    int ok = PyUnicode_FSConverter(fspath, &bytes);
    Py_DECREF(fspath);
    if (!ok) {
        return -1;
    }
    const char *name = PyBytes_AS_STRING(bytes);
    size_t len = (size_t)PyBytes_GET_SIZE(bytes);
    if (memchr(name, 0, len) != NULL) {
        Py_DECREF(bytes);
        PyErr_SetString(PyExc_ValueError, "os_walk: embedded null character in path");
        return -1;
    }
    size_t off = frame_add_name(&self->frames[k], name, len);
    Py_DECREF(bytes);
    if (off == SIZE_MAX) {
        PyErr_NoMemory();
        return -1;
    }
    int fd = frame_fd(self, k);
    struct stat st;
    out->obj = NULL;
    out->name_off = off;
    out->name_len = len;
    out->link = fd >= 0 &&
                fstatat(fd, self->frames[k].names + off, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                S_ISLNK(st.st_mode);
    return 0;
}

/** Topdown: reads the dirnames of the last tuple (frame k) as the consumer left it and
 *  pushes the subdirectories to walk, in its order. @return 0, or -1 with an exception. */
static int resume(OsWalkObject *self)
{
    self->resume = false;
    size_t k = self->nframes - 1;
    PyObject *snapshot = PyList_GetSlice(self->dirs, 0, PY_SSIZE_T_MAX);
    Py_CLEAR(self->dirs);
    if (snapshot == NULL) {
        origs_clear(self);
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(snapshot);
    struct orig *walk = n > 0 ? malloc((size_t)n * sizeof(*walk)) : NULL;
    struct orig_ref *index = NULL;
    int rc = -1;
    if (n > 0 && walk == NULL) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const struct orig *o;
        if (find_orig(self, PyList_GET_ITEM(snapshot, i), i, &index, &o) < 0) {
            PyErr_NoMemory();
            goto out;
        }
        if (o != NULL) {
            walk[i] = *o;
            walk[i].obj = NULL;
        } else if (take_new_name(self, k, PyList_GET_ITEM(snapshot, i), &walk[i]) < 0) {
            goto out;
        }
    }
    origs_clear(self);
    if (reserve_origs(&self->origs, &self->origs_cap, (size_t)n) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    if (n > 0) {
        memcpy(self->origs, walk, (size_t)n * sizeof(*walk));
    }
    self->norigs = (size_t)n;
    // A directory listed without subdirectories, given some now: its identity, for the
    // loops they might make (best effort: without it they are compared with the others).
    if (n > 0 && !self->frames[k].have_id) {
        int fd = frame_fd(self, k);
        if (fd >= 0) {
            frame_id(self, k, fd);
        }
    }
    rc = push_children(self, k);
    self->norigs = 0;
out:
    free(index);
    free(walk);
    origs_clear(self);
    Py_DECREF(snapshot);
    frame_release_fd(&self->frames[k]);
    return rc;
}

/** Whether the directory of the last frame repeats one of its ancestors (a link followed
 *  back up, a bind mount of a directory below itself). */
static bool is_loop(const OsWalkObject *self)
{
    const struct frame *last = &self->frames[self->nframes - 1];
    for (size_t i = 0; i + 1 < self->nframes; i++) {
        if (self->frames[i].have_id && self->frames[i].dev == last->dev &&
            self->frames[i].ino == last->ino) {
            return true;
        }
    }
    return false;
}

/**
 * Reaches pending directory p: lists it (or takes the listing made ahead) and makes its
 * frame, or reports why not. @return 1 with the frame made (and, topdown, *tuple set to
 * what to yield), 0 when it was reported (or skipped), -1 with an exception set.
 */
static int reach(OsWalkObject *self, struct pend *p, PyObject **tuple)
{
    size_t parent = p->frame;
    frames_truncate(self, parent == SIZE_MAX ? 0 : parent + 1);
    // The path: the parent's, a '/' unless it ends with one (os.path.join), the name.
    size_t start = 0, len = strlen(self->top_path);
    const char *name = self->top_path;
    if (parent != SIZE_MAX) {
        start = self->frames[parent].path_len;
        name = self->frames[parent].names + p->name_off;
        len = p->name_len + (start > 0 && self->path[start - 1] != '/');
    }
    if (reserve_path(&self->path, &self->path_cap, start + len + 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    if (parent != SIZE_MAX && len > p->name_len) {
        self->path[start++] = '/';
        len--;
    }
    memcpy(self->path + start, name, len);
    size_t path_len = start + len;
    size_t report_len = parent == SIZE_MAX ? SIZE_MAX : path_len;

    int made_ahead = p->job != NULL ? take_job(self, p) : 0;
    int more = 0; // read here: 1 while the directory has more to read, or a code
    bool began = false;
    if (made_ahead < 0) {
        return -1;
    }
    struct ahead_listing *l = made_ahead ? &p->job->out : &self->own;
    if (!made_ahead) {
        // Opened here: the top as os.scandir opens it, following a link; the others
        // relative to their parent, with O_NOFOLLOW unless a link followed (followlinks).
        int parent_fd = parent == SIZE_MAX ? AT_FDCWD : frame_fd(self, parent);
        if (parent_fd < 0 && parent != SIZE_MAX) {
            l->fd = -1;
            l->code = parent_fd;
            l->op = FRD_OP_OPEN;
        } else {
            // Opened and read with the GIL released once: most directories fit one chunk;
            // a bigger one is read chunk by chunk once its frame is made. No stat: only a
            // directory with subdirectories needs its identity (a leaf repeats no
            // ancestor: a directory that does has the next one on the path below it).
            bool nofollow = parent != SIZE_MAX && !p->followed;
            PyThreadState *ts = PyEval_SaveThread();
            if (ahead_open(l, parent_fd, name, nofollow, false) == 0) {
                began = frd_lister_batch_begin(self->lister, l->fd, NULL) == 0;
                more = began ? ahead_read_chunk(self->lister, l) : FRD_ENOMEM;
            }
            PyEval_RestoreThread(ts);
            if (more == FRD_ENOMEM && !began) {
                l->code = FRD_ENOMEM;
                l->op = FRD_OP_ALLOC;
            }
        }
    }
    if (parent != SIZE_MAX) {
        self->frames[parent].pending--;
        frame_release_fd(&self->frames[parent]);
    }
    PyObject *dirs = NULL, *files = NULL, *dirpath = NULL;
    int rc = 0;
    if (l->code != 0) {
        rc = report(self, l->code, l->op, report_len) < 0 ? -1 : 0;
        goto out;
    }
    if (reserve_frames(&self->frames, &self->frames_cap, self->nframes + 1) < 0) {
        PyErr_NoMemory();
        rc = -1;
        goto out;
    }
    size_t k = self->nframes++;
    self->frames[k] = (struct frame){
        .path_len = path_len,
        .name_off = start,
        .fd = -1, // l->fd until the listing is done
        .followed = parent != SIZE_MAX && p->followed,
        .have_id = made_ahead, // the pool stat'ed it
        .dev = made_ahead ? l->st.st_dev : 0,
        .ino = made_ahead ? l->st.st_ino : 0,
    };
    self->norigs = 0;
    // The chunks (one for most directories), each made into names before the next is read.
    int read = more < 0 ? more : 0;
    if (read == 0 && add_batch(self, &self->frames[k], l, &dirs, &files) < 0) {
        read = INT_MIN;
    }
    while (read == 0 && more > 0) {
        PyThreadState *ts = PyEval_SaveThread();
        more = ahead_read_chunk(self->lister, l);
        PyEval_RestoreThread(ts);
        if (more < 0) {
            read = more;
        } else if (add_batch(self, &self->frames[k], l, &dirs, &files) < 0) {
            read = INT_MIN;
        }
    }
    if (began) {
        frd_lister_batch_end(self->lister);
        self->listed += read == 0;
    }
    // A directory with subdirectories: its identity, and whether it repeats an ancestor.
    int loop = 0;
    if (read == 0 && self->norigs > 0) {
        loop = frame_id(self, k, l->fd);
        if (loop == 0 && is_loop(self)) {
            loop = FRD_ELOOP;
        }
    }
    if (read < 0 || loop < 0) {
        // A failed read: os.walk reports it and yields nothing of the directory; a loop
        // the same way.
        origs_clear(self);
        Py_CLEAR(dirs);
        Py_CLEAR(files);
        frames_truncate(self, k);
        if (read == INT_MIN) {
            rc = -1;
        } else if (read < 0) {
            rc = report(self, l->code, l->op, report_len) < 0 ? -1 : 0;
        } else {
            rc = report(self, loop, loop == FRD_ELOOP ? FRD_OP_LOOP : FRD_OP_STAT, report_len) < 0
                     ? -1
                     : 0;
        }
        goto out;
    }
    if (dirs == NULL) { // an empty directory
        dirs = PyList_New(0);
        files = PyList_New(0);
        if (dirs == NULL || files == NULL) {
            rc = -1;
            goto out;
        }
    }
    struct frame *f = &self->frames[k];
    f->fd = l->fd; // the frame's now
    l->fd = -1;
    frames_trim(self);
    dirpath = parent == SIZE_MAX ? Py_NewRef(self->top)
                                 : frdpy_path(self->path, path_len, self->as_bytes);
    if (dirpath == NULL) {
        rc = -1;
        goto out;
    }
    if (self->topdown) {
        *tuple = PyTuple_Pack(3, dirpath, dirs, files);
        if (*tuple == NULL) {
            origs_clear(self);
            rc = -1;
            goto out;
        }
        self->dirs = Py_NewRef(dirs);
        self->resume = true;
        rc = 1;
        goto out;
    }
    f->dirpath = Py_NewRef(dirpath);
    f->dirs = Py_NewRef(dirs);
    f->files = Py_NewRef(files);
    if (reserve_pends(&self->stack, &self->stack_cap, self->nstack + 1) < 0) {
        PyErr_NoMemory();
        rc = -1;
        goto out;
    }
    self->stack[self->nstack++] = (struct pend){.frame = k, .yield = true};
    rc = push_children(self, k) < 0 ? -1 : 1;
    self->norigs = 0;
    frame_release_fd(f);
out:
    Py_XDECREF(dirpath);
    Py_XDECREF(dirs);
    Py_XDECREF(files);
    if (p->job != NULL) {
        job_put(p->job);
        p->job = NULL;
    }
    ahead_listing_done(&self->own);
    return rc;
}

/** Bottom-up: yields frame k, whose subtree is done, and ends it. */
static PyObject *yield_frame(OsWalkObject *self, size_t k)
{
    frames_truncate(self, k + 1);
    struct frame *f = &self->frames[k];
    PyObject *t = PyTuple_Pack(3, f->dirpath, f->dirs, f->files);
    frames_truncate(self, k);
    return t;
}

/* ---------------------------------------------------------------------------------------- */
/* The iterator                                                                             */
/* ---------------------------------------------------------------------------------------- */

/** Takes every job back from the pool, closes every descriptor and drops every reference
 *  but onerror and top_arg; the iterator then ends. */
static void os_walk_finish(OsWalkObject *self)
{
    self->finished = true;
    if (self->pool) {
        struct ahead_job **jobs = self->jobs;
        size_t n = self->njobs;
        PyThreadState *ts = PyEval_SaveThread();
        ahead_withdraw(&self->owner, jobs, n);
        ahead_release();
        PyEval_RestoreThread(ts);
        self->pool = false;
    }
    for (size_t i = 0; i < self->njobs; i++) {
        ahead_listing_free(&self->jobs[i]->out);
        free(self->jobs[i]);
    }
    free(self->jobs);
    self->jobs = NULL;
    self->njobs = self->jobs_cap = 0;
    if (self->owner_ok) {
        self->listed_ahead = ahead_owner_listed(&self->owner);
        ahead_owner_destroy(&self->owner);
        self->owner_ok = false;
    }
    frames_truncate(self, 0);
    free(self->frames);
    self->frames = NULL;
    self->frames_cap = 0;
    free(self->stack);
    self->stack = NULL;
    self->nstack = self->stack_cap = 0;
    origs_clear(self);
    free(self->origs);
    self->origs = NULL;
    self->origs_cap = 0;
    Py_CLEAR(self->dirs);
    Py_CLEAR(self->top);
    free(self->top_path);
    self->top_path = NULL;
    free(self->path);
    self->path = NULL;
    self->path_cap = 0;
    ahead_listing_free(&self->own);
    frd_lister_free(self->lister);
    self->lister = NULL;
}

/** The first step: takes the arguments as os.walk does (at its first step) and pushes top. */
static int os_walk_start(OsWalkObject *self)
{
    self->started = true;
    PyObject *encoded = NULL;
    if (frdpy_take_path(self->top_arg, "top", "path", &encoded, &self->as_bytes) < 0) {
        return -1;
    }
    self->top = PyOS_FSPath(self->top_arg);
    self->top_path = strdup(PyBytes_AS_STRING(encoded));
    Py_DECREF(encoded);
    if (self->top == NULL || self->top_path == NULL) {
        return self->top == NULL ? -1 : (PyErr_NoMemory(), -1);
    }
    if (self->onerror == Py_None) {
        Py_CLEAR(self->onerror);
    } else if (!PyCallable_Check(self->onerror)) {
        PyErr_Format(PyExc_TypeError, "onerror must be callable or None, not %.200s",
                     Py_TYPE(self->onerror)->tp_name);
        return -1;
    }
    if (frd_lister_new(&self->lister, FRD_LIST_NAMES_ONLY) < 0 ||
        ahead_owner_init(&self->owner) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->owner_ok = true;
    // Half the descriptors the process may open, for all walks (listings ahead included):
    // the other half stays the program's.
    struct rlimit rl;
    self->fd_budget = 512;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        self->fd_budget = (long)(rl.rlim_cur / 2);
    }
    if (self->fd_budget < FD_BUDGET_MIN) {
        self->fd_budget = FD_BUDGET_MIN;
    }
    if (reserve_pends(&self->stack, &self->stack_cap, 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->stack[self->nstack++] = (struct pend){.frame = SIZE_MAX};
    return 0;
}

static PyObject *os_walk_step(OsWalkObject *self)
{
    if (!self->started && os_walk_start(self) < 0) {
        return NULL;
    }
    if (self->resume) {
        if (resume(self) < 0) {
            return NULL;
        }
        list_ahead(self, true);
    }
    while (self->nstack > 0) {
        struct pend *top = &self->stack[self->nstack - 1];
        if (top->yield) {
            self->nstack--;
            PyObject *t = yield_frame(self, top->frame);
            list_ahead(self, false); // the consumer's loop body runs meanwhile
            return t;
        }
        struct pend p = *top;
        self->nstack--;
        PyObject *tuple = NULL;
        int r = reach(self, &p, &tuple);
        if (r < 0) {
            return NULL;
        }
        if (r > 0 && tuple != NULL) {
            list_ahead(self, false); // the consumer's loop body runs meanwhile
            return tuple;
        }
        list_ahead(self, true);
    }
    return NULL;
}

static PyObject *os_walk_next(OsWalkObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError, "frd.OsWalk already executing");
        return NULL;
    }
    if (self->finished) {
        return NULL;
    }
    self->busy = true;
    PyObject *t = os_walk_step(self);
    self->busy = false;
    if (t == NULL) {
        os_walk_finish(self); // the end, or an exception: os.walk's generator ends too
    }
    return t;
}

static PyObject *os_walk_close(OsWalkObject *self, PyObject *unused)
{
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError, "frd.OsWalk already executing");
        return NULL;
    }
    if (!self->finished) {
        os_walk_finish(self);
    }
    Py_RETURN_NONE;
}

static PyObject *os_walk_enter(OsWalkObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self);
}

static PyObject *os_walk_exit(OsWalkObject *self, PyObject *args)
{
    (void)args;
    PyObject *r = os_walk_close(self, NULL);
    if (r == NULL) {
        return NULL;
    }
    Py_DECREF(r);
    Py_RETURN_FALSE;
}

static PyObject *os_walk_stats(OsWalkObject *self, PyObject *unused)
{
    (void)unused;
    uint64_t ahead = self->owner_ok ? ahead_owner_listed(&self->owner) : self->listed_ahead;
    uint64_t listed = self->listed + ahead;
    return Py_BuildValue("{sKsKsKsKsi}", "dirs_listed", (unsigned long long)listed,
                         "dirs_listed_ahead", (unsigned long long)ahead, "dirs_relisted",
                         (unsigned long long)self->relisted, "dirs_reopened",
                         (unsigned long long)self->reopened, "ahead", (int)OS_WALK_AHEAD);
}

static int os_walk_traverse(OsWalkObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->top_arg);
    Py_VISIT(self->onerror);
    Py_VISIT(self->top);
    Py_VISIT(self->dirs);
    for (size_t i = 0; i < self->norigs; i++) {
        Py_VISIT(self->origs[i].obj);
    }
    for (size_t i = 0; i < self->nframes; i++) {
        Py_VISIT(self->frames[i].dirpath);
        Py_VISIT(self->frames[i].dirs);
        Py_VISIT(self->frames[i].files);
    }
    return 0;
}

static int os_walk_clear(OsWalkObject *self)
{
    if (!self->finished && !self->busy) {
        os_walk_finish(self);
    }
    Py_CLEAR(self->top_arg);
    Py_CLEAR(self->onerror);
    return 0;
}

static void os_walk_dealloc(OsWalkObject *self)
{
    PyObject_GC_UnTrack(self);
    if (!self->finished) {
        os_walk_finish(self);
    }
    Py_CLEAR(self->top_arg);
    Py_CLEAR(self->onerror);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyObject *frdpy_os_walk(PyObject *module, PyObject *args, PyObject *kwargs)
{
    (void)module;
    static char k_top[] = "top";
    static char k_topdown[] = "topdown";
    static char k_onerror[] = "onerror";
    static char k_followlinks[] = "followlinks";
    static char *kwlist[] = {k_top, k_topdown, k_onerror, k_followlinks, NULL};
    PyObject *top = NULL, *onerror = Py_None;
    int topdown = 1, followlinks = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pOp:os_walk", kwlist, &top, &topdown,
                                     &onerror, &followlinks)) {
        return NULL;
    }
    OsWalkObject *self = PyObject_GC_New(OsWalkObject, &frdpy_os_walk_type);
    if (self == NULL) {
        return NULL;
    }
    // Every field zero, then what is not: the object's head stays as PyObject_GC_New set it.
    memset((char *)self + sizeof(PyObject), 0, sizeof(*self) - sizeof(PyObject));
    self->own.fd = -1;
    self->top_arg = Py_NewRef(top);
    self->onerror = Py_NewRef(onerror);
    self->topdown = topdown;
    self->followlinks = followlinks;
    PyObject_GC_Track(self);
    return (PyObject *)self;
}

static PyMethodDef os_walk_methods[] = {
    {"close", (PyCFunction)os_walk_close, METH_NOARGS,
     "close($self, /)\n--\n\n"
     "Ends the walk: takes its listings back from the threads listing ahead and closes the\n"
     "directories it holds open; the iterator then ends."},
    {"_stats", (PyCFunction)os_walk_stats, METH_NOARGS,
     "_stats($self, /)\n--\n\n"
     "Counters of this walk, for tests and tuning: dirs_listed (directories read, ahead or\n"
     "not), dirs_listed_ahead (read by the threads listing ahead), dirs_relisted (read\n"
     "ahead, then changed before the walk reached them, so listed again), dirs_reopened\n"
     "(closed for the descriptor budget, then reopened), and ahead (the look-ahead bound)."},
    {"__enter__", (PyCFunction)os_walk_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n"},
    {"__exit__", (PyCFunction)os_walk_exit, METH_VARARGS,
     "__exit__($self, exc_type, exc_value, traceback, /)\n--\n\nCalls close()."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS,
     "OsWalk[str] or OsWalk[bytes], for type annotations."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject frdpy_os_walk_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "frd.OsWalk",
    .tp_basicsize = sizeof(OsWalkObject),
    .tp_dealloc = (destructor)os_walk_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The iterator frd.os_walk() returns: (dirpath, dirnames, filenames) tuples.",
    .tp_traverse = (traverseproc)os_walk_traverse,
    .tp_clear = (inquiry)os_walk_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)os_walk_next,
    .tp_methods = os_walk_methods,
};
