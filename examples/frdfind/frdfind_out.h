// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's output (frdfind_out.c): one buffer per worker index, whole records flushed to
 * stdout under a lock; names as find writes them to a terminal.
 */
#ifndef FRD_EXAMPLES_FRDFIND_OUT_H
#define FRD_EXAMPLES_FRDFIND_OUT_H

#include <frd.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ff_ctx;

/** Per-worker state: the output buffer, the match count and scratch space. */
struct ff_thread;

/**
 * Makes room for the states of `workers` worker indexes (call it before the walk).
 * @param one_writer whether every evaluation runs on one thread (an ordered walk, or one
 * worker): an error met during an evaluation then flushes the lines before it, even a
 * record half made, as find's error() flushes stdout (ff_out_before_error()).
 * @return 0, or -1 when out of memory.
 */
int ff_out_init(struct ff_ctx *ctx, unsigned workers, bool one_writer);

/**
 * Called by an evaluation on thr before it reports an error: with one writer, writes out
 * what thr holds, so that the message follows on stderr what came before it on stdout, as
 * in find (and a record half made for a file to that file: see ff_out_file_begin()). With
 * several writers it does nothing (a half-made record must not go out between another
 * thread's lines; the walk's order is not find's then anyway). Owner only.
 */
void ff_out_before_error(struct ff_thread *thr);

/**
 * @return the state of worker index `worker` (frd_walk_entry.worker; main() uses 0 after
 * the walk), made on first use. NULL when out of memory or worker is out of range.
 */
struct ff_thread *ff_thread_get(struct ff_ctx *ctx, unsigned worker);

/**
 * @return the states by worker index (ff_thread_get()'s, NULL where not made yet), `*n` of
 * them: an array that stays where it is for the run, which a visit indexes without a call.
 */
struct ff_thread *const *ff_out_threads(const struct ff_ctx *ctx, unsigned *n);

/** @return the run thr belongs to. */
struct ff_ctx *ff_thread_ctx(struct ff_thread *thr);

/** Appends bytes to the thread's pending record. */
void ff_out_append(struct ff_thread *thr, const void *data, size_t len);

/** @return whether standard output is a terminal (set by ff_out_init()). */
bool ff_out_stdout_is_tty(const struct ff_ctx *ctx);

/** Says whether the record thr makes next goes to a terminal: its names are then written
 *  as GNU find writes them there (ff_qmark()). Owner thread only. */
void ff_out_to_tty(struct ff_thread *thr, bool to_tty);

/**
 * A name (path, base name, link target) as GNU find prints it to a terminal (its
 * qmark_chars(), which -print, -fprint and -printf's %p %P %f %h %H %l go through there):
 * each character the locale cannot print (wcwidth() < 0: control characters, DEL) becomes
 * one '?', each invalid byte one '?', an incomplete character at the end one '?'. In a
 * single-byte locale, each byte that is not isprint(). So a name cannot move the cursor or
 * send escape sequences to the terminal. Writes to dst (room for len bytes).
 * @return the length written, at most len.
 */
size_t ff_qmark(char *dst, const char *s, size_t len);

/**
 * s as the record being made shows it: itself, or its ff_qmark() form (in a buffer of thr's,
 * valid until the next call) when the record goes to a terminal; *len is updated.
 * @return the text to write (empty if no memory: the output is marked as lost).
 */
const char *ff_out_name(struct ff_thread *thr, const char *s, size_t *len);

/** Appends name s through ff_out_name(). */
void ff_out_append_name(struct ff_thread *thr, const char *s, size_t len);

/** Appends one byte. */
void ff_out_byte(struct ff_thread *thr, char c);

/** Appends n copies of byte c (a -printf width's padding: any size memory allows). */
void ff_out_fill(struct ff_thread *thr, char c, size_t n);

/** Ends a record: the buffer may now be flushed (whole records only reach stdout). */
void ff_out_end_record(struct ff_thread *thr);

/**
 * -print's record written whole, as ff_out_append_name(), ff_out_byte() and
 * ff_out_end_record() write it when the name is shown as it is (no terminal marks): `path`
 * (`len` bytes), then `sep`. The plain -print's fast path (frdfind_walk.c).
 */
void ff_out_print_record(struct ff_thread *thr, const char *path, size_t len, char sep);

/**
 * ff_out_print_record() of each of the names hook's entries (frdfind_walk.c): the path
 * names->dir_path, a '/' unless it ends with one, the name, as the walker joins them.
 */
void ff_out_print_names(struct ff_thread *thr, const struct frd_walk_names *names, char sep);

/** Counts one -count match on the thread. */
void ff_out_count(struct ff_thread *thr);

/**
 * Flushes every thread's buffer (call after the walk, from one thread).
 * @return the total of -count matches over all threads.
 */
uint64_t ff_out_flush_all(struct ff_ctx *ctx);

/**
 * Locks / unlocks the thread's buffer against ff_out_flush_each(): the owner holds it while
 * it writes records, when another thread may flush them (-depth with several workers).
 */
void ff_out_lock(struct ff_thread *thr);

/** See ff_out_lock(). */
void ff_out_unlock(struct ff_thread *thr);

/**
 * Flushes every thread's buffer during the walk, each under its lock (see ff_out_lock()).
 * Every state must exist before the walk (ff_thread_get() for each index), so no thread
 * adds one meanwhile.
 */
void ff_out_flush_each(struct ff_ctx *ctx);

/**
 * Flushes the lines the worker's state holds (complete records), under its lock: called on
 * that worker between two evaluations, before an error message, so that the message comes
 * after the lines printed before it, as find's do (its error() flushes stdout first).
 */
void ff_out_flush_worker(struct ff_ctx *ctx, unsigned worker);

/** Frees every thread's state (after ff_out_flush_all()). */
void ff_out_free_all(struct ff_ctx *ctx);

/**
 * Takes the output lock for a command's run: writes the thread's pending records first, so
 * a command's output follows the lines printed before it, and nothing else reaches stdout
 * until ff_out_exclusive_end(). thr may be NULL (no pending records).
 */
void ff_out_exclusive_begin(struct ff_ctx *ctx, struct ff_thread *thr);

/** See ff_out_exclusive_begin(). */
void ff_out_exclusive_end(struct ff_ctx *ctx);

/**
 * The record thr makes next goes to the stream fp (an output file, or stderr), not stdout:
 * it is made in thr's buffer after the lines pending there and written to fp whole by
 * ff_out_file_end(). An error before then (ff_out_before_error()) writes the part made so
 * far to fp, as find's printf had. Owner thread only.
 */
void ff_out_file_begin(struct ff_thread *thr, FILE *fp);

/** Writes the record begun by ff_out_file_begin() to its stream and takes it off thr. */
void ff_out_file_end(struct ff_thread *thr);

/**
 * The flag set once stdout's reader went away (EPIPE): stop the walk. Other write errors (a
 * full disk, a closed descriptor) do not stop it, as they do not stop find. A caller checks
 * it at every entry with a relaxed load. Valid from ff_out_init() until the output states
 * are freed; any thread.
 */
const atomic_bool *ff_out_broken_flag(const struct ff_ctx *ctx);

/** @return 0 if every write to stdout succeeded, else the errno of the first failure. */
int ff_out_write_error(const struct ff_ctx *ctx);

/** @return a scratch buffer of at least `size` bytes owned by the thread, or NULL. */
char *ff_thread_scratch(struct ff_thread *thr, size_t size);

/** @return the thread's lister and list, for -empty (made on first use), or -1. */
int ff_thread_lister(struct ff_thread *thr, struct frd_lister **lister, struct frd_list **list);

#endif // FRD_EXAMPLES_FRDFIND_OUT_H
