// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's output files: -fls, -fprint, -fprint0, -fprintf (frdfind_file.c). */
#ifndef FRD_EXAMPLES_FRDFIND_FILE_H
#define FRD_EXAMPLES_FRDFIND_FILE_H

#include "frdfind_table.h"

struct ff_ctx;
struct ff_file;
struct ff_thread;

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
/**
 * Opens (creates, truncates) the file an -fls/-fprint... names, once: a name given twice, or
 * two names of one file, share the stream. /dev/stdout and /dev/stderr are the streams.
 * Main thread (the parse). @return 0, or 1 after find's message.
 */
int ff_file_open(struct ff_ctx *ctx, const char *name, struct ff_file **out);

/** Starts a record for `file` (NULL: stdout). A file's record is made in the thread's buffer
 *  and goes to its stream whole at ff_file_end(); /dev/stdout's stays in the buffer, in
 *  order with -print's lines. Owner thread. */
void ff_file_begin(struct ff_file *file, struct ff_thread *thr);

/** Ends the record begun by ff_file_begin(). */
void ff_file_end(struct ff_file *file, struct ff_thread *thr);

/** Flushes and closes every file, reporting write errors as find does (after the walk). */
void ff_file_close_all(struct ff_ctx *ctx);

/** Closes the files still open without a word (ff_ctx_free()). */
void ff_file_free(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_FILE_H
