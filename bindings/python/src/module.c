// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The CPython extension frd._frd: its functions, types and constants (frd_py.h's map). */

#include "frd_py.h"

// The docstrings open with the signature in the __text_signature__ form ("name($module, /,
// ...)\n--\n\n"), so that inspect.signature() and help() show the parameters.
static PyMethodDef module_methods[] = {
    {"walk", (PyCFunction)(void (*)(void))frdpy_walk, METH_VARARGS | METH_KEYWORDS,
     "walk($module, /, path, *, stats=True, follow_links=False, max_depth=None, hidden=True,\n"
     "     exclude=None, sort=False, workers=None, onerror=None,\n"
     "     gitignore=False, link_targets=False, xattrs=False,\n"
     "     xattr_value_max=None, link_groups=False)\n--\n\n"
     "Walks the tree below path on frd's threads and returns a Walker: an iterator of Entry\n"
     "for every entry below path (not path itself). See frd.walk for the options."},
    {"os_walk", (PyCFunction)(void (*)(void))frdpy_os_walk, METH_VARARGS | METH_KEYWORDS,
     "os_walk($module, /, top, topdown=True, onerror=None, followlinks=False)\n--\n\n"
     "os.walk(): yields (dirpath, dirnames, filenames) for top and each directory below it,\n"
     "listing each directory when the walk reaches it. See frd.os_walk."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef frd_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "frd._frd",
    .m_doc = "frd's directory walks (the C part of the frd package).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__frd(void);

PyMODINIT_FUNC PyInit__frd(void)
{
    if (PyType_Ready(&frdpy_entry_type) < 0 || PyType_Ready(&frdpy_walker_type) < 0 ||
        PyType_Ready(&frdpy_os_walk_type) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&frd_module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "Entry", (PyObject *)&frdpy_entry_type) < 0 ||
        PyModule_AddObjectRef(m, "Walker", (PyObject *)&frdpy_walker_type) < 0 ||
        PyModule_AddObjectRef(m, "OsWalk", (PyObject *)&frdpy_os_walk_type) < 0 ||
        PyModule_AddStringConstant(m, "FRD_VERSION", FRD_VERSION_STRING) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
