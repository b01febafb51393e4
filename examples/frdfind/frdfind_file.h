// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -ls line and its output files: -fls, -fprint, -fprint0, -fprintf
 *  (frdfind_file.c). */
#ifndef FRD_EXAMPLES_FRDFIND_FILE_H
#define FRD_EXAMPLES_FRDFIND_FILE_H

#include "frdfind_table.h"

struct ff_ctx;

/** -fprint FILE, -fprint0 FILE (the row's param: the separator): the file opened (created,
 *  truncated) once, as find opens it: a name given twice, or two names of one file, share
 *  the stream; /dev/stdout and /dev/stderr are the streams. */
ff_parse_fn ff_parse_fprint;
/** -fprint, -fprint0: the path and the separator, as one record, to the file. */
ff_eval_fn ff_eval_fprint;
/** -fprintf FILE FORMAT: the file, and the compiled format. */
ff_parse_fn ff_parse_fprintf;
/** -fprintf: the format rendered for the entry, as one record, to the file. */
ff_eval_fn ff_eval_fprintf;
/** -ls: the run's -ls columns. */
ff_parse_fn ff_parse_ls;
/** -fls FILE: the file and the run's -ls columns. */
ff_parse_fn ff_parse_fls;
/** -ls, -fls: the `ls -dils` line of the entry, to stdout or the file. */
ff_eval_fn ff_eval_ls;

/** Flushes and closes every file, reporting write errors as find does (after the walk), and
 *  frees -ls's columns. */
void ff_file_close_all(struct ff_ctx *ctx);

/** Closes the files still open without a word, and frees -ls's columns (ff_ctx_free()). */
void ff_file_free(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_FILE_H
