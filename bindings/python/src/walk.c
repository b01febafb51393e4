// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frd.walk(): a parallel frd walk streamed to a Python iterator (Entry and Walker). */

/*
 * Design: the walk runs on frd's own threads, started from a runner thread of ours that
 * calls frd_walk_start() and frd_walk_join(). Visits (and errors) are copied into records in
 * a batch per worker (frd_walk_entry.worker: one writer per batch, no lock); a full batch is
 * pushed on a bounded queue (QUEUE_MAX batches), where a worker waits while the queue is
 * full: that is the backpressure. The Python iterator pops batches with the GIL released and
 * makes one Entry object per record. After the join, the runner pushes the partial batches
 * and marks the walk done.
 *
 * Stopping: close(), dealloc, an exception or Ctrl-C set `cancelled` and wake the workers;
 * the first callback that sees it calls frd_walk_cancel() (only one, through an atomic
 * exchange, since a cancel waits for the other callbacks) and returns FRD_ACTION_STOP; the
 * iterator then joins the runner with the GIL released, so no thread outlives the iterator.
 * The Python thread never calls frd_walk_cancel() itself: the runner may be freeing the
 * walk in frd_walk_join() at that moment.
 */

#include "frd_py.h"

#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <structmember.h>
#include <time.h>

// After Python.h, which must come first: the tools' growth helper (examples/common/grow.h).
#include "grow.h"

enum {
    BATCH_RECORDS = 512, // records per batch: one queue operation per 512 entries
    QUEUE_MAX = 16,      // batches waiting for Python before workers wait
    MAX_WORKERS = 8,     // frd_walk_options.workers is at most 8
};

/** One visited entry, or one error (kind REC_ERROR), as a worker copied it. */
struct rec {
    size_t path_off; // into the batch's arena
    size_t path_len;
    size_t name_len;
    int kind;
    int type; // enum frd_type
    unsigned fields;
    unsigned depth;
    int code; // REC_ERROR: negative frd code; REC_ENTRY: entry->error
    int op;   // REC_ERROR: enum frd_op
    uint64_t size, ino, dev;
    int64_t mtime_ns, atime_ns, ctime_ns, btime_ns;
    uint32_t mode, uid, gid, nlink;
};

enum { REC_ENTRY = 0, REC_ERROR = 1 };

struct batch {
    struct batch *next;
    size_t n;
    char *arena;
    size_t alen, acap;
    struct rec recs[BATCH_RECORDS];
};

/** batch_reserve_arena(&arena, &cap, need): a batch's path arena (first 16 KiB). */
TOOL_RESERVE_DEFINE(batch_reserve_arena, char, 16384)

/** State shared by the runner, frd's workers and the iterator. Freed by the iterator. */
struct shared {
    pthread_mutex_t mu;
    pthread_cond_t not_empty; // the iterator waits here
    pthread_cond_t not_full;  // workers wait here
    struct batch *head, *tail;
    size_t queued;
    bool done; // the runner has joined the walk and pushed the last batches
    int result;
    atomic_bool cancelled;
    atomic_bool cancel_called;
    struct frd_walk *walk;
    struct batch *cur[MAX_WORKERS];
    struct frd_walk_options opts;
    char *root;
    char **exclude;
    size_t nexclude;
    struct frd_ignore *ignore; // gitignore=True: git's rules (opts.ignore)
    atomic_int failed;         // a negative code when the binding itself had to stop the walk
};

static void batch_free(struct batch *b)
{
    if (b != NULL) {
        free(b->arena);
        free(b);
    }
}

static struct batch *batch_new(void)
{
    struct batch *b = malloc(sizeof(*b));
    if (b != NULL) {
        b->next = NULL;
        b->n = 0;
        b->arena = NULL;
        b->alen = b->acap = 0;
    }
    return b;
}

/** Appends a path to a batch's arena. @return its offset, or SIZE_MAX out of memory. */
static size_t batch_put_path(struct batch *b, const char *path, size_t len)
{
    if (len > SIZE_MAX / 4 || b->alen > SIZE_MAX / 4) {
        return SIZE_MAX; // no path is this long; the bound also keeps the sums below exact
    }
    if (batch_reserve_arena(&b->arena, &b->acap, b->alen + len + 1) != 0) {
        return SIZE_MAX;
    }
    size_t off = b->alen;
    memcpy(b->arena + off, path, len);
    b->arena[off + len] = '\0';
    b->alen += len + 1;
    return off;
}

static void shared_cancel(struct shared *s)
{
    pthread_mutex_lock(&s->mu);
    atomic_store(&s->cancelled, true);
    pthread_cond_broadcast(&s->not_full);
    pthread_cond_broadcast(&s->not_empty);
    pthread_mutex_unlock(&s->mu);
}

/** Queues a batch; waits while the queue is full unless `wait` is false. @return 0, or -1
 *  when the walk was cancelled (the batch is freed). */
static int shared_push(struct shared *s, struct batch *b, bool wait)
{
    pthread_mutex_lock(&s->mu);
    while (wait && s->queued >= QUEUE_MAX && !atomic_load(&s->cancelled)) {
        pthread_cond_wait(&s->not_full, &s->mu);
    }
    if (atomic_load(&s->cancelled)) {
        pthread_mutex_unlock(&s->mu);
        batch_free(b);
        return -1;
    }
    if (s->tail != NULL) {
        s->tail->next = b;
    } else {
        s->head = b;
    }
    s->tail = b;
    s->queued++;
    pthread_cond_signal(&s->not_empty);
    pthread_mutex_unlock(&s->mu);
    return 0;
}

/** Called on a worker that saw `cancelled`: cancels the walk once. */
static enum frd_action worker_stop(struct shared *s)
{
    if (!atomic_exchange(&s->cancel_called, true)) {
        frd_walk_cancel(s->walk);
    }
    return FRD_ACTION_STOP;
}

/** Stops the walk for a failure of the binding (out of memory): the iterator raises it. */
static enum frd_action worker_fail(struct shared *s, int code)
{
    int none = 0;
    atomic_compare_exchange_strong(&s->failed, &none, code);
    shared_cancel(s); // wakes the workers waiting for room in the queue
    return worker_stop(s);
}

/** The record slot for the next entry of worker `w`, pushing a full batch first. NULL
 *  when the walk is cancelled or out of memory (then the walk stops). */
static struct rec *worker_slot(struct shared *s, unsigned w, const char *path, size_t len)
{
    if (w >= MAX_WORKERS) {
        worker_fail(s, FRD_EINVAL); // frd.h: worker indices are below 8
        return NULL;
    }
    struct batch *b = s->cur[w];
    if (b != NULL && b->n == BATCH_RECORDS) {
        s->cur[w] = NULL;
        if (shared_push(s, b, true) < 0) {
            return NULL;
        }
        b = NULL;
    }
    if (b == NULL) {
        b = s->cur[w] = batch_new();
        if (b == NULL) {
            worker_fail(s, FRD_ENOMEM);
            return NULL;
        }
    }
    size_t off = batch_put_path(b, path, len);
    if (off == SIZE_MAX) {
        worker_fail(s, FRD_ENOMEM);
        return NULL;
    }
    struct rec *r = &b->recs[b->n++];
    memset(r, 0, sizeof(*r));
    r->path_off = off;
    r->path_len = len;
    return r;
}

/** Queues an error record, in a batch of its own: in ordered mode the error hook may run on
 *  a listing thread whose index the consumer's visits share, so no per-worker batch here. */
static enum frd_action push_error(struct shared *s, const char *path, int code, enum frd_op op,
                                  unsigned depth)
{
    struct batch *b = batch_new();
    size_t off = b != NULL ? batch_put_path(b, path, strlen(path)) : SIZE_MAX;
    if (off == SIZE_MAX) {
        batch_free(b);
        return worker_fail(s, FRD_ENOMEM);
    }
    struct rec *r = &b->recs[b->n++];
    memset(r, 0, sizeof(*r));
    r->path_off = off;
    r->path_len = strlen(path);
    r->kind = REC_ERROR;
    r->code = code;
    r->op = (int)op;
    r->depth = depth;
    if (shared_push(s, b, true) < 0) {
        return worker_stop(s);
    }
    return FRD_ACTION_CONTINUE;
}

static enum frd_action on_visit(const struct frd_walk_entry *we, void *udata)
{
    struct shared *s = udata;
    if (atomic_load_explicit(&s->cancelled, memory_order_relaxed)) {
        return worker_stop(s);
    }
    if (we->is_root) {
        // A root that is no directory (a file, or a link to one) cannot be listed: an
        // error, as os.scandir() raises NotADirectoryError (one whose stat failed was
        // reported by the walk already).
        if (we->entry->type != FRD_TYPE_DIR && we->entry->error == 0) {
            return push_error(s, we->path, FRD_ENOTDIR, FRD_OP_OPEN, 0);
        }
        return FRD_ACTION_CONTINUE;
    }
    struct rec *r = worker_slot(s, we->worker, we->path, we->path_len);
    if (r == NULL) {
        return worker_stop(s);
    }
    const struct frd_entry *e = we->entry;
    r->kind = REC_ENTRY;
    r->name_len = e->name_len;
    r->type = (int)e->type;
    r->fields = e->fields;
    r->depth = we->depth;
    r->code = e->error;
    r->size = e->size;
    r->ino = e->file_id;
    r->dev = e->dev;
    r->mtime_ns = e->mtime_ns;
    r->atime_ns = e->atime_ns;
    r->ctime_ns = e->ctime_ns;
    r->btime_ns = e->btime_ns;
    r->mode = e->mode;
    r->uid = e->uid;
    r->gid = e->gid;
    r->nlink = e->nlink;
    return FRD_ACTION_CONTINUE;
}

static enum frd_action on_error(const struct frd_walk_error *err, void *udata)
{
    struct shared *s = udata;
    if (atomic_load_explicit(&s->cancelled, memory_order_relaxed)) {
        return worker_stop(s);
    }
    return push_error(s, err->path != NULL ? err->path : "", err->code, err->call, err->depth);
}

/** The exclude globs, matched against each name before its stat (fnmatch(3), no flags). */
static void on_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                        void *udata)
{
    (void)dir;
    struct shared *s = udata;
    size_t n = frd_walk_children_count(kids);
    bool all = atomic_load_explicit(&s->cancelled, memory_order_relaxed);
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        bool drop = all;
        for (size_t p = 0; !drop && p < s->nexclude; p++) {
            drop = fnmatch(s->exclude[p], e->name, 0) == 0;
        }
        if (drop) {
            frd_walk_children_drop(kids, i);
        }
    }
}

static void *runner_main(void *arg)
{
    struct shared *s = arg;
    const char *roots[1] = {s->root};
    int r = frd_walk_start(&s->walk, roots, 1, &s->opts, on_visit, s);
    if (r == 0) {
        r = frd_walk_join(s->walk);
    }
    for (unsigned w = 0; w < MAX_WORKERS; w++) {
        struct batch *b = s->cur[w];
        s->cur[w] = NULL;
        if (b != NULL && b->n > 0) {
            shared_push(s, b, false);
        } else {
            batch_free(b);
        }
    }
    pthread_mutex_lock(&s->mu);
    s->done = true;
    int failed = atomic_load(&s->failed);
    s->result = failed != 0 ? failed : r;
    pthread_cond_broadcast(&s->not_empty);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static void shared_free(struct shared *s)
{
    if (s == NULL) {
        return;
    }
    struct batch *b = s->head;
    while (b != NULL) {
        struct batch *next = b->next;
        batch_free(b);
        b = next;
    }
    for (unsigned w = 0; w < MAX_WORKERS; w++) {
        batch_free(s->cur[w]);
    }
    for (size_t p = 0; p < s->nexclude; p++) {
        free(s->exclude[p]);
    }
    free(s->exclude);
    frd_ignore_free(s->ignore);
    free(s->root);
    pthread_cond_destroy(&s->not_full);
    pthread_cond_destroy(&s->not_empty);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* ---------------------------------------------------------------------------------------- */
/* Entry                                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD PyObject *path; // str or bytes, as the root was given
    PyObject *name;               // made on first use
    struct rec r;
} EntryObject;

static void entry_dealloc(EntryObject *self)
{
    Py_XDECREF(self->path);
    Py_XDECREF(self->name);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *entry_get_path(EntryObject *self, void *closure)
{
    (void)closure;
    return Py_NewRef(self->path);
}

static PyObject *entry_get_name(EntryObject *self, void *closure)
{
    (void)closure;
    if (self->name == NULL) {
        // Entries below the root: the name is what follows the path's last '/'.
        if (PyBytes_Check(self->path)) {
            Py_ssize_t len = PyBytes_GET_SIZE(self->path);
            self->name = PyBytes_FromStringAndSize(PyBytes_AS_STRING(self->path) + len -
                                                       (Py_ssize_t)self->r.name_len,
                                                   (Py_ssize_t)self->r.name_len);
        } else {
            Py_ssize_t len = PyUnicode_GET_LENGTH(self->path);
            Py_ssize_t slash = PyUnicode_FindChar(self->path, '/', 0, len, -1);
            if (slash == -2) {
                return NULL;
            }
            self->name = PyUnicode_Substring(self->path, slash + 1, len);
        }
    }
    return Py_XNewRef(self->name);
}

static PyObject *entry_get_depth(EntryObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLong(self->r.depth);
}

static PyObject *entry_get_type(EntryObject *self, void *closure)
{
    (void)closure;
    char c = frd_type_letter((enum frd_type)self->r.type);
    return PyUnicode_FromStringAndSize(&c, 1);
}

/** A stat field: None when the walk has no such data for this entry. */
#define ENTRY_FIELD(fname, bit, member, conv)                            \
    static PyObject *entry_get_##fname(EntryObject *self, void *closure) \
    {                                                                    \
        (void)closure;                                                   \
        if ((self->r.fields & (bit)) == 0) {                             \
            Py_RETURN_NONE;                                              \
        }                                                                \
        return conv(self->r.member);                                     \
    }

ENTRY_FIELD(size, FRD_FIELD_SIZE, size, PyLong_FromUnsignedLongLong)
ENTRY_FIELD(mtime_ns, FRD_FIELD_MTIME, mtime_ns, PyLong_FromLongLong)
ENTRY_FIELD(atime_ns, FRD_FIELD_ATIME, atime_ns, PyLong_FromLongLong)
ENTRY_FIELD(ctime_ns, FRD_FIELD_CTIME, ctime_ns, PyLong_FromLongLong)
ENTRY_FIELD(birthtime_ns, FRD_FIELD_BTIME, btime_ns, PyLong_FromLongLong)
ENTRY_FIELD(ino, FRD_FIELD_FILE_ID, ino, PyLong_FromUnsignedLongLong)
ENTRY_FIELD(dev, FRD_FIELD_DEV, dev, PyLong_FromUnsignedLongLong)
ENTRY_FIELD(mode, FRD_FIELD_MODE, mode, PyLong_FromUnsignedLong)
ENTRY_FIELD(uid, FRD_FIELD_UID, uid, PyLong_FromUnsignedLong)
ENTRY_FIELD(gid, FRD_FIELD_GID, gid, PyLong_FromUnsignedLong)
ENTRY_FIELD(nlink, FRD_FIELD_NLINK, nlink, PyLong_FromUnsignedLong)

static PyObject *entry_get_error(EntryObject *self, void *closure)
{
    (void)closure;
    if (self->r.code == 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromLong(-self->r.code);
}

static PyGetSetDef entry_getset[] = {
    {"path", (getter)entry_get_path, NULL, "full path: the root as given, then the names", NULL},
    {"name", (getter)entry_get_name, NULL, "the entry's name", NULL},
    {"depth", (getter)entry_get_depth, NULL, "1 for the root's entries, 2 below them, ...", NULL},
    {"type", (getter)entry_get_type, NULL, "type letter as find's %y: f d l p s c b U", NULL},
    {"size", (getter)entry_get_size, NULL, "st_size, or None without stats", NULL},
    {"mtime_ns", (getter)entry_get_mtime_ns, NULL, "st_mtime_ns, or None", NULL},
    {"atime_ns", (getter)entry_get_atime_ns, NULL, "st_atime_ns, or None", NULL},
    {"ctime_ns", (getter)entry_get_ctime_ns, NULL, "st_ctime_ns, or None", NULL},
    {"birthtime_ns", (getter)entry_get_birthtime_ns, NULL,
     "birth time in ns, or None where the file system does not keep it", NULL},
    {"ino", (getter)entry_get_ino, NULL, "st_ino, or None", NULL},
    {"dev", (getter)entry_get_dev, NULL, "st_dev, or None", NULL},
    {"mode", (getter)entry_get_mode, NULL, "st_mode, or None", NULL},
    {"uid", (getter)entry_get_uid, NULL, "st_uid, or None", NULL},
    {"gid", (getter)entry_get_gid, NULL, "st_gid, or None", NULL},
    {"nlink", (getter)entry_get_nlink, NULL, "st_nlink, or None", NULL},
    {"stat_errno", (getter)entry_get_error, NULL,
     "errno of a failed stat of this entry (then only name and type are known), else None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyObject *entry_is(EntryObject *self, int type)
{
    return PyBool_FromLong(self->r.type == type);
}

static PyObject *entry_is_dir(EntryObject *self, PyObject *unused)
{
    (void)unused;
    return entry_is(self, FRD_TYPE_DIR);
}

static PyObject *entry_is_file(EntryObject *self, PyObject *unused)
{
    (void)unused;
    return entry_is(self, FRD_TYPE_REG);
}

static PyObject *entry_is_symlink(EntryObject *self, PyObject *unused)
{
    (void)unused;
    return entry_is(self, FRD_TYPE_LNK);
}

static PyObject *entry_fspath(EntryObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self->path);
}

static PyMethodDef entry_methods[] = {
    {"is_dir", (PyCFunction)entry_is_dir, METH_NOARGS,
     "is_dir($self, /)\n--\n\nTrue for a directory (a link to one only when links are followed)."},
    {"is_file", (PyCFunction)entry_is_file, METH_NOARGS,
     "is_file($self, /)\n--\n\nTrue for a regular file (a link to one only when links are "
     "followed)."},
    {"is_symlink", (PyCFunction)entry_is_symlink, METH_NOARGS,
     "is_symlink($self, /)\n--\n\nTrue for a symbolic link (not followed)."},
    {"__fspath__", (PyCFunction)entry_fspath, METH_NOARGS,
     "__fspath__($self, /)\n--\n\nThe path, for os.fspath() and open()."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS,
     "Entry[str] or Entry[bytes], for type annotations."},
    {NULL, NULL, 0, NULL},
};

static PyObject *entry_repr(EntryObject *self)
{
    return PyUnicode_FromFormat("<frd.Entry %R type=%c>", self->path,
                                frd_type_letter((enum frd_type)self->r.type));
}

PyTypeObject frdpy_entry_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "frd.Entry",
    .tp_basicsize = sizeof(EntryObject),
    .tp_dealloc = (destructor)entry_dealloc,
    .tp_repr = (reprfunc)entry_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One entry of a walk (see frd.walk); made by the walk only.",
    .tp_getset = entry_getset,
    .tp_methods = entry_methods,
};

/* ---------------------------------------------------------------------------------------- */
/* Walker: the iterator                                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD struct shared *s;
    pthread_t runner;
    bool running; // the runner thread exists and is not joined yet
    bool as_bytes;
    PyObject *onerror;   // callable or NULL
    struct batch *batch; // being handed out
    size_t pos;
    bool finished;
    bool busy; // a thread is in __next__ (it may be waiting with the GIL released)
} WalkerObject;

/** Stops the walk, joins the runner (GIL released) and frees everything but the object. */
static void walker_finish(WalkerObject *self)
{
    if (self->running) {
        shared_cancel(self->s);
        Py_BEGIN_ALLOW_THREADS pthread_join(self->runner, NULL);
        Py_END_ALLOW_THREADS self->running = false;
    }
    batch_free(self->batch);
    self->batch = NULL;
    shared_free(self->s);
    self->s = NULL;
    self->finished = true;
}

static void walker_dealloc(WalkerObject *self)
{
    PyObject_GC_UnTrack(self);
    walker_finish(self);
    Py_CLEAR(self->onerror);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

// onerror may hold the walker (a closure over it): the collector must see that cycle, or a
// dropped walker waiting for room in its queue would keep its threads forever.
static int walker_traverse(WalkerObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->onerror);
    return 0;
}

static int walker_clear(WalkerObject *self)
{
    Py_CLEAR(self->onerror);
    return 0;
}

/** Takes the next batch, waiting with the GIL released; checks for signals every 50 ms.
 *  @return 1 with self->batch set, 0 at the end of the walk, -1 with an exception set. */
static int walker_next_batch(WalkerObject *self)
{
    struct shared *s = self->s;
    for (;;) {
        struct batch *b = NULL;
        bool done = false;
        Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&s->mu);
        if (s->head == NULL && !s->done) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 50 * 1000 * 1000;
            if (until.tv_nsec >= 1000000000) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&s->not_empty, &s->mu, &until);
        }
        if (s->head != NULL) {
            b = s->head;
            s->head = b->next;
            if (s->head == NULL) {
                s->tail = NULL;
            }
            s->queued--;
            pthread_cond_signal(&s->not_full);
        } else {
            done = s->done;
        }
        pthread_mutex_unlock(&s->mu);
        Py_END_ALLOW_THREADS if (b != NULL)
        {
            self->batch = b;
            self->pos = 0;
            return 1;
        }
        if (done) {
            return 0;
        }
        if (PyErr_CheckSignals() < 0) {
            return -1;
        }
    }
}

/** Handles an error record: onerror(exc), or raise for a root, or ignore. @return 0 or -1. */
static int walker_error(WalkerObject *self, const struct rec *r, const char *path)
{
    if (self->onerror == NULL && r->depth > 0) {
        return 0;
    }
    PyObject *filename = frdpy_path(path, r->path_len, self->as_bytes);
    if (filename == NULL) {
        return -1;
    }
    PyObject *exc = frdpy_oserror(r->code, (enum frd_op)r->op, filename);
    Py_DECREF(filename);
    if (exc == NULL) {
        return -1;
    }
    if (self->onerror == NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
        return -1;
    }
    PyObject *res = PyObject_CallOneArg(self->onerror, exc);
    Py_DECREF(exc);
    if (res == NULL) {
        return -1;
    }
    Py_DECREF(res);
    return 0;
}

static PyObject *walker_iternext_locked(WalkerObject *self);

/** __next__: one thread at a time, as a generator (another would use the batch or the
 *  shared state the first is waiting on with the GIL released). */
static PyObject *walker_iternext(WalkerObject *self)
{
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError, "frd.Walker already executing");
        return NULL;
    }
    self->busy = true;
    PyObject *e = walker_iternext_locked(self);
    self->busy = false;
    return e;
}

static PyObject *walker_iternext_locked(WalkerObject *self)
{
    if (self->finished) {
        return NULL;
    }
    for (;;) {
        if (self->batch != NULL && self->pos < self->batch->n) {
            const struct rec *r = &self->batch->recs[self->pos++];
            const char *path = self->batch->arena + r->path_off;
            if (r->kind == REC_ERROR) {
                if (walker_error(self, r, path) < 0) {
                    walker_finish(self);
                    return NULL;
                }
                continue;
            }
            EntryObject *e = PyObject_New(EntryObject, &frdpy_entry_type);
            if (e == NULL) {
                walker_finish(self);
                return NULL;
            }
            e->name = NULL;
            e->r = *r;
            e->path = frdpy_path(path, r->path_len, self->as_bytes);
            if (e->path == NULL) {
                Py_DECREF(e);
                walker_finish(self);
                return NULL;
            }
            return (PyObject *)e;
        }
        batch_free(self->batch);
        self->batch = NULL;
        int got = walker_next_batch(self);
        if (got < 0) {
            walker_finish(self);
            return NULL;
        }
        if (got == 0) {
            int result = self->s->result;
            walker_finish(self);
            if (result < 0 && result != FRD_ECANCELED && result != FRD_ESTOPPED) {
                PyObject *exc = frdpy_oserror(result, FRD_OP_OTHER, Py_None);
                if (exc != NULL) {
                    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
                    Py_DECREF(exc);
                }
            }
            return NULL;
        }
    }
}

static PyObject *walker_close(WalkerObject *self, PyObject *unused)
{
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_ValueError, "frd.Walker already executing");
        return NULL;
    }
    walker_finish(self);
    Py_RETURN_NONE;
}

static PyObject *walker_enter(WalkerObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self);
}

static PyObject *walker_exit(WalkerObject *self, PyObject *args)
{
    (void)args;
    PyObject *r = walker_close(self, NULL);
    if (r == NULL) {
        return NULL;
    }
    Py_DECREF(r);
    Py_RETURN_FALSE;
}

static PyMethodDef walker_methods[] = {
    {"close", (PyCFunction)walker_close, METH_NOARGS,
     "close($self, /)\n--\n\n"
     "Cancels the walk and joins its threads; the iterator then ends."},
    {"__enter__", (PyCFunction)walker_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n"},
    {"__exit__", (PyCFunction)walker_exit, METH_VARARGS,
     "__exit__($self, exc_type, exc_value, traceback, /)\n--\n\nCalls close()."},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS,
     "Walker[str] or Walker[bytes], for type annotations."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject frdpy_walker_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "frd.Walker",
    .tp_basicsize = sizeof(WalkerObject),
    .tp_dealloc = (destructor)walker_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The iterator frd.walk() returns, over a running walk; made by frd.walk only.",
    .tp_traverse = (traverseproc)walker_traverse,
    .tp_clear = (inquiry)walker_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)walker_iternext,
    .tp_methods = walker_methods,
};

/** Copies the exclude globs (str, bytes or os.PathLike each) into s. @return 0 or -1. */
static int take_excludes(struct shared *s, PyObject *exclude)
{
    if (!PySequence_Check(exclude)) {
        PyErr_Format(PyExc_TypeError, "exclude must be a sequence of globs or None, not %.200s",
                     Py_TYPE(exclude)->tp_name);
        return -1;
    }
    PyObject *seq = PySequence_Fast(exclude, "exclude must be a sequence of globs or None");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    s->exclude = calloc((size_t)n + 1, sizeof(char *));
    if (s->exclude == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *b = NULL;
        char name[48];
        snprintf(name, sizeof(name), "exclude[%zd]", i);
        if (frdpy_take_path(PySequence_Fast_GET_ITEM(seq, i), name, "glob", &b, NULL) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        s->exclude[i] = strdup(PyBytes_AS_STRING(b));
        Py_DECREF(b);
        if (s->exclude[i] == NULL) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        s->nexclude++;
    }
    Py_DECREF(seq);
    return 0;
}

PyObject *frdpy_walk(PyObject *module, PyObject *args, PyObject *kwargs)
{
    (void)module;
    // Python 3.11 takes char *kwlist[]: arrays, since string literals are const here.
    static char k_path[] = "path";
    static char k_stats[] = "stats";
    static char k_follow_links[] = "follow_links";
    static char k_max_depth[] = "max_depth";
    static char k_hidden[] = "hidden";
    static char k_exclude[] = "exclude";
    static char k_sort[] = "sort";
    static char k_workers[] = "workers";
    static char k_onerror[] = "onerror";
    static char k_gitignore[] = "gitignore";
    static char *kwlist[] = {k_path, k_stats,   k_follow_links, k_max_depth, k_hidden, k_exclude,
                             k_sort, k_workers, k_onerror,      k_gitignore, NULL};
    PyObject *path = NULL, *max_depth = Py_None, *exclude = Py_None, *workers = Py_None;
    PyObject *onerror = Py_None;
    int stats = 1, follow = 0, hidden = 1, sort = 0, gitignore = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$ppOpOpOOp", kwlist, &path, &stats, &follow,
                                     &max_depth, &hidden, &exclude, &sort, &workers, &onerror,
                                     &gitignore)) {
        return NULL;
    }
    PyObject *encoded = NULL;
    bool as_bytes = false; // paths are given back as the root was given: str or bytes
    if (frdpy_take_path(path, "path", "path", &encoded, &as_bytes) < 0) {
        return NULL;
    }
    if (onerror != Py_None && !PyCallable_Check(onerror)) {
        Py_DECREF(encoded);
        PyErr_Format(PyExc_TypeError, "onerror must be callable or None, not %.200s",
                     Py_TYPE(onerror)->tp_name);
        return NULL;
    }
    int depth = -1, nworkers = 0;
    if (frdpy_take_int(max_depth, "max_depth", 0, INT32_MAX, "an int >= 0", &depth) < 0 ||
        frdpy_take_int(workers, "workers", 1, MAX_WORKERS, "an int from 1 to 8", &nworkers) < 0) {
        Py_DECREF(encoded);
        return NULL;
    }

    struct shared *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        Py_DECREF(encoded);
        return PyErr_NoMemory();
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->not_empty, NULL);
    pthread_cond_init(&s->not_full, NULL);
    s->root = strdup(PyBytes_AS_STRING(encoded));
    Py_DECREF(encoded);
    if (s->root == NULL) {
        shared_free(s);
        return PyErr_NoMemory();
    }
    frd_walk_options_init(&s->opts);
    s->opts.on_error = on_error;
    s->opts.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY; // on_error passes roots' errors on
    // A root given as a link is followed, as os.walk and os.scandir do (find -H).
    s->opts.follow = follow ? FRD_FOLLOW_ALL : FRD_FOLLOW_ROOTS;
    // Entries are handed out by path: no callback reaches one through its directory.
    s->opts.flags |= FRD_WALK_NO_PARENT_FD;
    if (!stats) {
        s->opts.flags |= FRD_WALK_NAMES_ONLY;
    } else {
        s->opts.fields = FRD_FIELDS_ALL & ~(unsigned)(FRD_FIELD_ATTRIBUTES | FRD_FIELD_ALLOC_SIZE);
    }
    if (!hidden) {
        s->opts.flags |= FRD_WALK_SKIP_HIDDEN;
    }
    if (sort) {
        s->opts.flags |= FRD_WALK_ORDERED;
    }
    if (max_depth != Py_None) {
        s->opts.max_depth = depth;
    }
    if (workers != Py_None) {
        s->opts.workers = (unsigned)nworkers;
    }
    if (exclude != Py_None) {
        if (PyUnicode_Check(exclude) || PyBytes_Check(exclude)) {
            PyErr_SetString(PyExc_TypeError, "exclude must be a sequence of globs, not one");
            shared_free(s);
            return NULL;
        }
        if (take_excludes(s, exclude) < 0) {
            shared_free(s);
            return NULL;
        }
        if (s->nexclude > 0) {
            s->opts.on_children = on_children;
        }
    }

    if (gitignore) {
        // git's rules, as frdfind -gitignore: what git ignores is neither stat'ed nor yielded.
        if (frd_ignore_new(&s->ignore, FRD_IGNORE_GIT) < 0) {
            shared_free(s);
            return PyErr_NoMemory();
        }
        s->opts.ignore = s->ignore;
    }

    WalkerObject *self = PyObject_GC_New(WalkerObject, &frdpy_walker_type);
    if (self == NULL) {
        shared_free(s);
        return NULL;
    }
    self->s = s;
    self->running = false;
    self->as_bytes = as_bytes;
    self->onerror = onerror != Py_None ? Py_NewRef(onerror) : NULL;
    self->batch = NULL;
    self->pos = 0;
    self->finished = false;
    self->busy = false;
    PyObject_GC_Track(self);
    int err = pthread_create(&self->runner, NULL, runner_main, s);
    if (err != 0) {
        PyObject *exc = frdpy_oserror(-err, FRD_OP_OTHER, Py_None);
        if (exc != NULL) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
            Py_DECREF(exc);
        }
        Py_DECREF(self);
        return NULL;
    }
    self->running = true;
    return (PyObject *)self;
}
