// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's messages on stderr and the run's outcome (frdfind_msg.c). */
#ifndef FRD_EXAMPLES_FRDFIND_MSG_H
#define FRD_EXAMPLES_FRDFIND_MSG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct ff_ctx;

/** Messages on stderr and the run's outcome (frdfind_msg.c): any thread. */
struct ff_msgs {
    atomic_bool failed;        /**< an error was reported: the exit status is 1 */
    atomic_bool stderr_failed; /**< a write to stderr failed (see ff_stderr_failed()) */
    /** The last write to stdout failed, and no message went out since: its lines were still
     *  pending when the message came (see ff_out_unflushed_failure()). */
    atomic_bool stdout_unflushed;
};

/**
 * Writes s quoted as GNU find quotes names and arguments in its messages (gnulib's locale
 * style: 'x' in the C locale, \u2018x\u2019 in a UTF-8 one, C escapes inside; gnuquote.h) to
 * buf as a string, cut to cap - 1 bytes (cap > 0). Thread-safe; errno kept. @return buf.
 */
const char *ff_quoted(char *buf, size_t cap, const char *s);

/**
 * before, s quoted as ff_quoted() quotes it (whole, however long), then after: a message
 * part with a name in it. Thread-safe; errno kept.
 * @return a malloc'd string the caller frees, or NULL when out of memory.
 */
char *ff_quoted_in(const char *before, const char *s, const char *after);

/** "frdfind: BEFORE'path': strerror(err)" on stderr (find's "cannot delete 'x': ..."); the
 *  run fails. Any thread. */
void ff_error_quoted(struct ff_ctx *ctx, const char *before, const char *path, int err);

/**
 * Prints "frdfind: 'path': message" to stderr (path quoted as ff_quoted() quotes it) in one
 * write, and marks the run as failed.
 */
void ff_error_path(struct ff_ctx *ctx, const char *path, const char *message);

/** Prints "frdfind: " + text + "\n" to stderr in one write and marks the run as failed. */
void ff_error(struct ff_ctx *ctx, const char *text);

/** Prints "frdfind: " + text + "\n" to stderr in one write without failing the run. */
void ff_note(struct ff_ctx *ctx, const char *text);

/** Prints "frdfind: " + the n bytes of text (a NUL among them included, as find writes it)
 *  + "\n" to stderr in one write, without failing the run: find's warnings. */
void ff_warning(struct ff_ctx *ctx, const char *text, size_t n);

/** "frdfind: 'path': message" as ff_error_path() prints it, without failing the run (find's
 *  exit status stays as it was). Any thread. */
void ff_note_path(struct ff_ctx *ctx, const char *path, const char *message);

/** @return true once any error was reported (exit status 1). */
bool ff_failed(struct ff_ctx *ctx);

/** Writes the len bytes to stderr (whole, retrying short writes), noting a failure for
 *  ff_stderr_failed(). Any thread. */
void ff_write_stderr(struct ff_ctx *ctx, const void *data, size_t len);

/**
 * @return whether a write to stderr failed (a message, an -ok question, -fprint
 * /dev/stderr): find's exit status is then 1, as gnulib's close_stdout() makes it, though
 * nothing else failed. Flushes stdio's stderr first. Main thread, at the end.
 */
bool ff_stderr_failed(struct ff_ctx *ctx);

/** Marks the run as failed without printing. */
void ff_set_failed(struct ff_ctx *ctx);

/**
 * Writes the len bytes to fd whole, retrying on EINTR and short writes.
 * @return 0, or the errno of the write that failed.
 */
int ff_write_full(int fd, const void *data, size_t len);

/** A write to stdout failed (frdfind_out.c): see ff_out_unflushed_failure(). */
void ff_msg_stdout_failed(struct ff_ctx *ctx);

/**
 * @return whether the last write to stdout failed after the last message on stderr: the
 * lines that were still pending at the end could not be written. find names the failure
 * ("'standard output': No space left on device") only then: its error() flushes stdout
 * before each message, so a failure before the last message left nothing pending at exit.
 */
bool ff_out_unflushed_failure(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_MSG_H
