// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's pattern tests (frdfind_names.c): -name -iname, -path -ipath -wholename
 * -iwholename, -lname -ilname; the row's param is true for the case-insensitive ones.
 */
#ifndef FRD_EXAMPLES_FRDFIND_NAMES_H
#define FRD_EXAMPLES_FRDFIND_NAMES_H

#include "frdfind_table.h"

#include <stddef.h>

/** -name, -iname: the pattern; a matcher for its shape when it has one (no fnmatch). */
ff_parse_fn ff_parse_name;
/** -name, -iname: fnmatch() on the base name (ff_base_name()). */
ff_eval_fn ff_eval_name;

/** -path and its kin: the pattern. */
ff_parse_fn ff_parse_path;
/** -path and its kin: fnmatch() on the whole path. */
ff_eval_fn ff_eval_path;

/** -lname, -ilname: the pattern. */
ff_parse_fn ff_parse_lname;
/** -lname, -ilname: fnmatch() on a link's target (false for anything else). */
ff_eval_fn ff_eval_lname;

/**
 * The base name of an entry as -name sees it: the entry's name, or for a root its last
 * component without trailing slashes ("/" for a path of slashes only).
 * @return a NUL-terminated string (in the thread's scratch space for a root), or NULL.
 */
const char *ff_base_name(const struct frd_walk_entry *we, struct ff_thread *thr, size_t *len);

#endif // FRD_EXAMPLES_FRDFIND_NAMES_H
