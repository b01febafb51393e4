// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** What the files of the extension frd._frd share: its types and the conversions. */
#ifndef FRD_BINDINGS_PYTHON_FRD_PY_H
#define FRD_BINDINGS_PYTHON_FRD_PY_H

/*
 * The extension's files (module.c puts them together):
 *   convert.c   Python <-> C: paths in (str, bytes, os.PathLike), paths out, int options,
 *               OSError from an frd code (errno, strerror, filename)
 *   walk.c      frd.walk(): Entry and Walker, a parallel walk streamed in batches
 *   os_walk.c   frd.os_walk(): OsWalk, os.walk's contract listed directory by directory
 *   ahead.c     the threads that list the directories an OsWalk will reach next
 *   module.c    the module: its functions, types and constants
 * Python.h (this header) comes first in every file that uses Python, before any system
 * header (the C API's rule); ahead.c uses none.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <frd.h>
#include <stdbool.h>
#include <stddef.h>

/** The types (their tp_name: frd.Entry, frd.Walker, frd.OsWalk). */
extern PyTypeObject frdpy_entry_type;
extern PyTypeObject frdpy_walker_type;
extern PyTypeObject frdpy_os_walk_type;

/** frd._frd.walk(path, *, ...): the function behind frd.walk (walk.c). */
PyObject *frdpy_walk(PyObject *module, PyObject *args, PyObject *kwargs);

/** frd._frd.os_walk(top, topdown=True, onerror=None, followlinks=False) (os_walk.c). */
PyObject *frdpy_os_walk(PyObject *module, PyObject *args, PyObject *kwargs);

/**
 * The errno value of a negative frd code: -code for the codes that are errno values (all
 * but frd's own), EIO for frd's own (FRD_EMALFORMED, ...), whose text frdpy_strerror()
 * gives.
 */
int frdpy_errno(int code);

/**
 * The message of a negative frd code as Python's OSError gives it: the C library's
 * strerror() text for an errno value ("No such file or directory", as os.strerror), frd's
 * own text for frd's own codes. Call it with the GIL held (strerror's buffer).
 */
const char *frdpy_strerror(int code);

/**
 * An OSError instance for a negative frd code: the subclass its errno selects
 * (FileNotFoundError, PermissionError, ...), with errno, strerror and filename (a new
 * reference is taken), and the attribute frd_op naming the kind of call that failed
 * ("open", "read", "stat", "loop", ...).
 * @return a new reference, or NULL with an exception set.
 */
PyObject *frdpy_oserror(int code, enum frd_op op, PyObject *filename);

/**
 * A path of `len` bytes as Python gives paths back: bytes, or str decoded as os.fsdecode()
 * does (the file system encoding with surrogateescape).
 * @return a new reference, or NULL with an exception set.
 */
PyObject *frdpy_path(const char *path, size_t len, bool as_bytes);

/**
 * Takes `obj` (str, bytes or os.PathLike) as a path: *out gets a new bytes object, encoded
 * as os.fsencode() does, and *as_bytes (when not NULL) says whether the path was given as
 * bytes. Errors name the argument `name`: TypeError for another type, ValueError for a NUL
 * inside (`what` says what held it: "path", "glob").
 * @return 0, or -1 with an exception set.
 */
int frdpy_take_path(PyObject *obj, const char *name, const char *what, PyObject **out,
                    bool *as_bytes);

/**
 * Reads the int option `name` (None leaves *out untouched) into *out when
 * lo <= value <= hi; else TypeError (not an int: a bool, a float, a str...) or ValueError
 * (out of range, too large for a C long included), naming the option and saying what it
 * must be (`range`, e.g. "an int >= 0").
 * @return 0, or -1 with an exception set.
 */
int frdpy_take_int(PyObject *v, const char *name, long lo, long hi, const char *range, int *out);

#endif // FRD_BINDINGS_PYTHON_FRD_PY_H
