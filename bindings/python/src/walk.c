// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frd.walk(): a parallel frd walk streamed to a Python iterator (Entry and Walker). */

/*
 * Design: the walk is frd's pull iterator (frd_walk_iter_open(), frd.h): it runs on frd's
 * own threads, copies visits and errors into records by batches and bounds what it buffers
 * (workers wait for room: the backpressure). The Python iterator takes a batch at a time,
 * waiting with the GIL released (frd_walk_iter_wait(), in 50 ms steps so signals are seen),
 * and makes one Entry object per record; an error record becomes onerror(exc), or an
 * exception for a root.
 *
 * Stopping: close(), dealloc, an exception or Ctrl-C call frd_walk_iter_close() with the GIL
 * released: it wakes the workers, cancels the walk and joins its threads, so no thread
 * outlives the iterator.
 */

#include "frd_py.h"

#include <errno.h>
#include <fnmatch.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <structmember.h>

enum {
    MAX_WORKERS = 8, // the binding's workers= takes 1 to 8
    WAIT_MS = 50,    // how long the iterator waits for a batch between signal checks
};

/** One visited entry as an Entry keeps it (its path is a Python object of its own). */
struct rec {
    size_t path_len;
    size_t name_len;
    int type; // enum frd_type
    unsigned fields;
    unsigned depth;
    int code; // entry->error
    uint64_t size, ino, dev;
    int64_t mtime_ns, atime_ns, ctime_ns, btime_ns;
    uint32_t mode, uid, gid, nlink;
    uint64_t link_group; // link_groups=True: nonzero for a multiply-linked non-directory
};

/** What the walk's hooks read (the exclude globs), and what the walker frees. */
struct shared {
    char *root;
    struct frd_walk_options opts;
    char **exclude; // fnmatch() globs matched against names (exclude=)
    size_t nexclude;
    struct frd_ignore *ignore; // gitignore=True: git's rules (opts.ignore)
};

/** The exclude globs, matched against each name before its stat (fnmatch(3), no flags). */
static void on_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                        void *udata)
{
    (void)dir;
    struct shared *s = udata;
    size_t n = frd_walk_children_count(kids);
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        bool drop = false;
        for (size_t p = 0; !drop && p < s->nexclude; p++) {
            drop = fnmatch(s->exclude[p], e->name, 0) == 0;
        }
        if (drop) {
            frd_walk_children_drop(kids, i);
        }
    }
}

static void shared_free(struct shared *s)
{
    if (s == NULL) {
        return;
    }
    for (size_t p = 0; p < s->nexclude; p++) {
        free(s->exclude[p]);
    }
    free(s->exclude);
    frd_ignore_free(s->ignore);
    free(s->root);
    free(s);
}

/** An Entry's record of a visit (a walk of names and types gives no entry: what a listing
 *  gives is in the record, the rest is none). */
static void rec_from(struct rec *r, const struct frd_walk_iter_record *w)
{
    static const struct frd_entry none;
    const struct frd_entry *e = w->entry != NULL ? w->entry : &none;
    r->path_len = w->path_len;
    r->name_len = w->name_len;
    r->type = (int)w->type;
    r->fields = w->fields;
    r->depth = w->depth;
    r->code = w->error;
    r->size = e->size;
    r->ino = w->file_id;
    r->dev = e->dev;
    r->mtime_ns = e->mtime_ns;
    r->atime_ns = e->atime_ns;
    r->ctime_ns = e->ctime_ns;
    r->btime_ns = e->btime_ns;
    r->mode = e->mode;
    r->uid = e->uid;
    r->gid = e->gid;
    r->nlink = e->nlink;
    r->link_group = w->extra != NULL ? w->extra->link_group : 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Entry                                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD PyObject *path; // str or bytes, as the root was given
    PyObject *name;               // made on first use
    // Made as the record is taken (its memory goes with the next batch), when asked for:
    PyObject *link_target; // link_targets=True: a link's target (str or bytes), else NULL
    PyObject *xattrs;      // xattrs=True: {name: bytes or None}, else NULL
    PyObject *link_first;  // link_groups=True: the group's first path, else NULL
    struct rec r;
} EntryObject;

static void entry_dealloc(EntryObject *self)
{
    Py_XDECREF(self->path);
    Py_XDECREF(self->name);
    Py_XDECREF(self->link_target);
    Py_XDECREF(self->xattrs);
    Py_XDECREF(self->link_first);
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

/** An object the walk made for this entry (the member at offset `closure`), or None. */
static PyObject *entry_get_made(EntryObject *self, void *closure)
{
    PyObject *v = *(PyObject **)(void *)((char *)self + (uintptr_t)closure);
    return v != NULL ? Py_NewRef(v) : Py_NewRef(Py_None);
}

/** entry_get_made's closure for the member `m`. */
#define ENTRY_MADE(m) ((void *)(uintptr_t)offsetof(EntryObject, m))

static PyObject *entry_get_link_group(EntryObject *self, void *closure)
{
    (void)closure;
    if (self->r.link_group == 0) {
        Py_RETURN_NONE;
    }
    return PyLong_FromUnsignedLongLong(self->r.link_group);
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
    {"link_target", (getter)entry_get_made, NULL,
     "with link_targets=True, a symbolic link's target as os.readlink gives it; else None",
     ENTRY_MADE(link_target)},
    {"xattrs", (getter)entry_get_made, NULL,
     "with xattrs=True, a dict of the entry's extended attributes: name (str or bytes, as "
     "the path) to value (bytes; None when longer than xattr_value_max); empty when it has "
     "none or could not be read (onerror is told); None without xattrs=True",
     ENTRY_MADE(xattrs)},
    {"link_group", (getter)entry_get_link_group, NULL,
     "with link_groups=True, for a non-directory with more than one link: its hard-link "
     "group, an int the same for every link to one file; else None",
     NULL},
    {"link_first", (getter)entry_get_made, NULL,
     "with link_group: the path under which the walk met that group first; None in that "
     "first entry itself",
     ENTRY_MADE(link_first)},
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
    struct frd_walk_iter *it; // NULL once closed
    bool as_bytes;
    bool want_xattrs;                 // xattrs=True: each Entry gets a dict
    PyObject *onerror;                // callable or NULL
    struct frd_walk_iter_batch batch; // being handed out
    size_t pos;
    bool finished;
    bool busy; // a thread is in __next__ (it may be waiting with the GIL released)
} WalkerObject;

/** Stops the walk, joins its threads (GIL released) and frees everything but the object. */
static void walker_finish(WalkerObject *self)
{
    if (self->it != NULL) {
        struct frd_walk_iter *it = self->it;
        self->it = NULL;
        Py_BEGIN_ALLOW_THREADS frd_walk_iter_close(it);
        Py_END_ALLOW_THREADS
    }
    self->batch.records = NULL;
    self->batch.count = 0;
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
// dropped walker whose workers wait for room would keep its threads forever.
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
 *  @return 1 with self->batch set, 0 at the end of the walk (*result: the walk's), -1 with
 *  an exception set. */
static int walker_next_batch(WalkerObject *self, int *result)
{
    for (;;) {
        int ready;
        Py_BEGIN_ALLOW_THREADS ready = frd_walk_iter_wait(self->it, WAIT_MS);
        Py_END_ALLOW_THREADS if (ready == 1)
        {
            break;
        }
        if (PyErr_CheckSignals() < 0) {
            return -1;
        }
    }
    int rc = frd_walk_iter_next(self->it, &self->batch); // ready: does not wait
    self->pos = 0;
    if (rc == 1) {
        return 1;
    }
    *result = rc;
    return 0;
}

/** Handles an error: onerror(exc), or raise for a root, or ignore. @return 0 or -1. */
static int walker_error(WalkerObject *self, const char *path, size_t path_len, int code,
                        enum frd_op op, unsigned depth)
{
    if (self->onerror == NULL && depth > 0) {
        return 0;
    }
    PyObject *filename = frdpy_path(path, path_len, self->as_bytes);
    if (filename == NULL) {
        return -1;
    }
    PyObject *exc = frdpy_oserror(code, op, filename);
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
 *  iterator the first is waiting on with the GIL released). */
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

/** The extended attributes of a record's extra part (NULL: none) as a dict: name (str or
 *  bytes, as paths) to value (bytes, or None when too long). @return a new reference, or
 *  NULL with an exception. */
static PyObject *xattrs_dict(const struct frd_walk_iter_extra *r, bool as_bytes)
{
    PyObject *d = PyDict_New();
    for (size_t i = 0; d != NULL && r != NULL && i < r->xattr_count; i++) {
        const struct frd_xattr *x = &r->xattrs[i];
        PyObject *name = frdpy_path(x->name, x->name_len, as_bytes);
        PyObject *value = x->too_long ? Py_NewRef(Py_None)
                                      : PyBytes_FromStringAndSize(x->value != NULL ? x->value : "",
                                                                  (Py_ssize_t)x->value_len);
        if (name == NULL || value == NULL || PyDict_SetItem(d, name, value) < 0) {
            Py_CLEAR(d);
        }
        Py_XDECREF(name);
        Py_XDECREF(value);
    }
    return d;
}

/** What a record yields: 1 with *out an Entry, 0 for none (a root, an error handled), -1
 *  with an exception set. */
static int walker_record(WalkerObject *self, const struct frd_walk_iter_record *r, PyObject **out)
{
    if (r->kind == FRD_WALK_ITER_ERROR) {
        return walker_error(self, r->path, r->path_len, r->extra->code, r->extra->call, r->depth);
    }
    if (r->is_root) {
        // A root that is no directory (a file, or a link to one) cannot be listed: an
        // error, as os.scandir() raises NotADirectoryError (one whose stat failed was
        // reported by the walk already).
        if (r->type != FRD_TYPE_DIR && r->error == 0) {
            return walker_error(self, r->path, r->path_len, FRD_ENOTDIR, FRD_OP_OPEN, 0);
        }
        return 0;
    }
    EntryObject *e = PyObject_New(EntryObject, &frdpy_entry_type);
    if (e == NULL) {
        return -1;
    }
    e->name = NULL;
    e->link_target = NULL;
    e->xattrs = NULL;
    e->link_first = NULL;
    rec_from(&e->r, r);
    e->path = frdpy_path(r->path, r->path_len, self->as_bytes);
    const struct frd_walk_iter_extra *x = r->extra; // NULL for a plain visit
    if (e->path == NULL ||
        (x != NULL && x->link_target != NULL &&
         (e->link_target = frdpy_path(x->link_target, x->link_target_len, self->as_bytes)) ==
             NULL) ||
        (self->want_xattrs && (e->xattrs = xattrs_dict(x, self->as_bytes)) == NULL) ||
        (x != NULL && x->link_first != NULL &&
         (e->link_first = frdpy_path(x->link_first, x->link_first_len, self->as_bytes)) == NULL)) {
        Py_DECREF(e);
        return -1;
    }
    *out = (PyObject *)e;
    return 1;
}

static PyObject *walker_iternext_locked(WalkerObject *self)
{
    if (self->finished) {
        return NULL;
    }
    for (;;) {
        while (self->pos < self->batch.count) {
            PyObject *e = NULL;
            int got = walker_record(self, &self->batch.records[self->pos++], &e);
            if (got < 0) {
                walker_finish(self);
                return NULL;
            }
            if (got > 0) {
                return e;
            }
        }
        int result = 0;
        int got = walker_next_batch(self, &result);
        if (got < 0) {
            walker_finish(self);
            return NULL;
        }
        if (got == 0) {
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
    static char k_link_targets[] = "link_targets";
    static char k_xattrs[] = "xattrs";
    static char k_xattr_value_max[] = "xattr_value_max";
    static char k_link_groups[] = "link_groups";
    static char *kwlist[] = {
        k_path,         k_stats,  k_follow_links,    k_max_depth,   k_hidden,
        k_exclude,      k_sort,   k_workers,         k_onerror,     k_gitignore,
        k_link_targets, k_xattrs, k_xattr_value_max, k_link_groups, NULL};
    PyObject *path = NULL, *max_depth = Py_None, *exclude = Py_None, *workers = Py_None;
    PyObject *onerror = Py_None, *xattr_value_max = Py_None;
    int stats = 1, follow = 0, hidden = 1, sort = 0, gitignore = 0;
    int link_targets = 0, xattrs = 0, link_groups = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs,
                                     "O|$ppOpOpOOppp"
                                     "Op",
                                     kwlist, &path, &stats, &follow, &max_depth, &hidden, &exclude,
                                     &sort, &workers, &onerror, &gitignore, &link_targets, &xattrs,
                                     &xattr_value_max, &link_groups)) {
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
    int depth = -1, nworkers = 0, value_max = 0;
    if (frdpy_take_int(max_depth, "max_depth", 0, INT32_MAX, "an int >= 0", &depth) < 0 ||
        frdpy_take_int(workers, "workers", 1, MAX_WORKERS, "an int from 1 to 8", &nworkers) < 0 ||
        frdpy_take_int(xattr_value_max, "xattr_value_max", 1, INT32_MAX, "an int >= 1",
                       &value_max) < 0) {
        Py_DECREF(encoded);
        return NULL;
    }

    struct shared *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        Py_DECREF(encoded);
        return PyErr_NoMemory();
    }
    s->root = strdup(PyBytes_AS_STRING(encoded));
    Py_DECREF(encoded);
    if (s->root == NULL) {
        shared_free(s);
        return PyErr_NoMemory();
    }
    frd_walk_options_init(&s->opts);
    // Errors come as records (a root's too): the walk's result does not repeat a root's.
    s->opts.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY;
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
    // What backup tools collect in the same pass (frd.h: FRD_WALK_LINK_TARGETS, ...).
    if (link_targets) {
        s->opts.flags |= FRD_WALK_LINK_TARGETS;
    }
    if (xattrs) {
        s->opts.flags |= FRD_WALK_XATTRS;
        s->opts.xattr_value_max = (size_t)value_max; // 0: the walk's default (64 KiB)
    }
    if (link_groups) {
        s->opts.flags |= FRD_WALK_LINK_GROUPS;
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

    struct frd_walk_iter *it;
    const char *roots[1] = {s->root};
    int rc = frd_walk_iter_open(&it, roots, 1, &s->opts, s);
    if (rc < 0) {
        shared_free(s);
        PyObject *exc = frdpy_oserror(rc, FRD_OP_OTHER, Py_None);
        if (exc != NULL) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
            Py_DECREF(exc);
        }
        return NULL;
    }
    WalkerObject *self = PyObject_GC_New(WalkerObject, &frdpy_walker_type);
    if (self == NULL) {
        Py_BEGIN_ALLOW_THREADS frd_walk_iter_close(it);
        Py_END_ALLOW_THREADS shared_free(s);
        return NULL;
    }
    self->s = s;
    self->it = it;
    self->as_bytes = as_bytes;
    self->want_xattrs = xattrs != 0;
    self->onerror = onerror != Py_None ? Py_NewRef(onerror) : NULL;
    self->batch.records = NULL;
    self->batch.count = 0;
    self->pos = 0;
    self->finished = false;
    self->busy = false;
    PyObject_GC_Track(self);
    return (PyObject *)self;
}
