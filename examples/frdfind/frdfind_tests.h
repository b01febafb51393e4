// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's tests of size, identity and access (frdfind_tests.c): -size -empty -inum -links
 * -samefile -fstype -readable -writable -executable, and the reader of find's +N, -N, N.
 */
#ifndef FRD_EXAMPLES_FRDFIND_TESTS_H
#define FRD_EXAMPLES_FRDFIND_TESTS_H

#include "frdfind_table.h"

/** -size [+-]N[cwbkMG]: the comparison, the number and the unit (find's messages). */
ff_parse_fn ff_parse_size;
/** -size: the size rounded up to whole units, compared. */
ff_eval_fn ff_eval_size;

/** -inum, -links, -uid, -gid: [+-]N into expr->cmp and expr->num, as find's get_num(). */
ff_parse_fn ff_parse_cmp;
/** -inum: the file id compared. */
ff_eval_fn ff_eval_inum;
/** -links: the link count compared. */
ff_eval_fn ff_eval_links;

/** -empty: a regular file of size 0, or a directory with no entries (listed here). */
ff_eval_fn ff_eval_empty;

/** -samefile FILE: FILE's device and inode (stat'ed as -H/-L say there). */
ff_parse_fn ff_parse_samefile;
/** -samefile: the entry is that file. */
ff_eval_fn ff_eval_samefile;

/** -fstype TYPE: the type name. */
ff_parse_fn ff_parse_fstype;
/** -fstype: the entry's device is mounted with that type (the run's mount table). */
ff_eval_fn ff_eval_fstype;

/** -readable, -writable, -executable (the row's param: R_OK, W_OK, X_OK): faccessat(). */
ff_eval_fn ff_eval_access;

#endif // FRD_EXAMPLES_FRDFIND_TESTS_H
