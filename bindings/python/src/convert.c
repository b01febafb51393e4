// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Conversions between Python and C: paths, int options, and OSError from frd codes. */

#include "frd_py.h"

#include <errno.h>
#include <string.h>

enum {
    // frd's own codes (FRD_EMALFORMED ...) sit below -5000, the stand-ins for errno values a
    // platform lacks at -4000: neither is an errno value.
    OWN_CODES = -4000,
};

int frdpy_errno(int code)
{
    return code > OWN_CODES && code < 0 ? -code : EIO;
}

const char *frdpy_strerror(int code)
{
    return code > OWN_CODES && code < 0 ? strerror(-code) : frd_strerror(code);
}

PyObject *frdpy_oserror(int code, enum frd_op op, PyObject *filename)
{
    // OSError(errno, strerror, filename) returns the subclass errno selects, as os does.
    PyObject *exc = PyObject_CallFunction(PyExc_OSError, "isO", frdpy_errno(code),
                                          frdpy_strerror(code), filename);
    if (exc == NULL) {
        return NULL;
    }
    PyObject *name = PyUnicode_FromString(frd_op_name(op));
    if (name == NULL || PyObject_SetAttrString(exc, "frd_op", name) < 0) {
        Py_XDECREF(name);
        Py_DECREF(exc);
        return NULL;
    }
    Py_DECREF(name);
    return exc;
}

PyObject *frdpy_path(const char *path, size_t len, bool as_bytes)
{
    if (as_bytes) {
        return PyBytes_FromStringAndSize(path, (Py_ssize_t)len);
    }
    return PyUnicode_DecodeFSDefaultAndSize(path, (Py_ssize_t)len);
}

int frdpy_take_path(PyObject *obj, const char *name, const char *what, PyObject **out,
                    bool *as_bytes)
{
    PyObject *fspath = PyOS_FSPath(obj);
    if (fspath == NULL) {
        PyErr_Format(PyExc_TypeError, "%s must be str, bytes or os.PathLike, not %.200s", name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    bool bytes = PyBytes_Check(fspath);
    bool nul = bytes
                   ? memchr(PyBytes_AS_STRING(fspath), 0, (size_t)PyBytes_GET_SIZE(fspath)) != NULL
                   : PyUnicode_FindChar(fspath, 0, 0, PyUnicode_GET_LENGTH(fspath), 1) != -1;
    if (nul) {
        Py_DECREF(fspath);
        PyErr_Format(PyExc_ValueError, "%s: embedded null character in %s", name, what);
        return -1;
    }
    int ok = PyUnicode_FSConverter(fspath, out);
    Py_DECREF(fspath);
    if (!ok) {
        return -1; // (a str the file system encoding cannot encode: its own error)
    }
    if (as_bytes != NULL) {
        *as_bytes = bytes;
    }
    return 0;
}

int frdpy_take_int(PyObject *v, const char *name, long lo, long hi, const char *range, int *out)
{
    if (v == Py_None) {
        return 0;
    }
    if (PyBool_Check(v) || !PyIndex_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int or None, not %.200s", name,
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    PyObject *i = PyNumber_Index(v);
    if (i == NULL) {
        return -1;
    }
    int overflow = 0;
    long n = PyLong_AsLongAndOverflow(i, &overflow);
    if (n == -1 && PyErr_Occurred()) {
        Py_DECREF(i);
        return -1;
    }
    if (overflow != 0 || n < lo || n > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be %s or None, not %R", name, range, i);
        Py_DECREF(i);
        return -1;
    }
    Py_DECREF(i);
    *out = (int)n;
    return 0;
}
