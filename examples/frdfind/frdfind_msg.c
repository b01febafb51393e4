// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's messages: errors, notes and warnings on stderr, each in one write(), worded and
 * quoted as GNU find does (in the locale's quotes: ff_quoted()), and the run's outcome: an
 * error makes the exit status 1, and so does a write to stderr that failed (gnulib's
 * close_stdout()). The state is the run's struct ff_msgs, atomics any thread may set.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_msg.h"

#include "frdfind_ctx.h"
#include "gnuquote.h"
#include "toolname.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ff_write_full(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

const char *ff_quoted(char *buf, size_t cap, const char *s)
{
    assert(cap > 0);
    size_t n = tool_quote_locale_to(buf, cap - 1, s);
    buf[n < cap - 1 ? n : cap - 1] = '\0';
    return buf;
}

char *ff_quoted_in(const char *before, const char *s, const char *after)
{
    int err = errno;
    size_t b = strlen(before);
    size_t q = tool_quote_locale_to(NULL, 0, s);
    size_t a = strlen(after);
    char *msg = malloc(b + q + a + 1);
    if (msg != NULL) {
        memcpy(msg, before, b);
        tool_quote_locale_to(msg + b, q, s);
        memcpy(msg + b + q, after, a + 1);
    }
    errno = err;
    return msg;
}

void ff_write_stderr(struct ff_ctx *ctx, const void *data, size_t len)
{
    if (ff_write_full(STDERR_FILENO, data, len) != 0) {
        atomic_store(&ctx->msgs.stderr_failed, true); // nowhere left to say it
    }
}

/**
 * Writes tool_name + ": " + the quoted path and ": " + the n bytes of text + "\n" to stderr
 * in one write(). An error or a note says that stdout's lines before it went out (find's
 * error() flushes stdout first, see ff_out_unflushed_failure()); a warning (find's, at parse
 * time, before any line) leaves that as it is.
 */
static void write_message(struct ff_ctx *ctx, const char *quoted_path, const char *text,
                          size_t text_len, bool after_stdout)
{
    size_t path_len = 0;
    if (quoted_path != NULL) {
        path_len = tool_quote_locale_to(NULL, 0, quoted_path);
    }
    size_t name_len = strlen(tool_name);
    size_t total = name_len + 2 + path_len + 2 + text_len + 1;
    char stack[1024];
    char *msg = total <= sizeof(stack) ? stack : malloc(total);
    if (msg == NULL) {
        return;
    }
    size_t n = 0;
    memcpy(msg, tool_name, name_len);
    memcpy(msg + name_len, ": ", 2);
    n = name_len + 2;
    if (quoted_path != NULL) {
        n += tool_quote_locale_to(msg + n, path_len, quoted_path);
        memcpy(msg + n, ": ", 2);
        n += 2;
    }
    memcpy(msg + n, text, text_len);
    n += text_len;
    msg[n++] = '\n';
    if (after_stdout) {
        atomic_store(&ctx->msgs.stdout_unflushed, false);
    }
    ff_write_stderr(ctx, msg, n);
    if (msg != stack) {
        free(msg);
    }
}

void ff_error_path(struct ff_ctx *ctx, const char *path, const char *message)
{
    atomic_store(&ctx->msgs.failed, true);
    write_message(ctx, path, message, strlen(message), true);
}

void ff_error(struct ff_ctx *ctx, const char *text)
{
    atomic_store(&ctx->msgs.failed, true);
    write_message(ctx, NULL, text, strlen(text), true);
}

void ff_error_quoted(struct ff_ctx *ctx, const char *before, const char *path, int err)
{
    char reason[256];
    snprintf(reason, sizeof(reason), ": %s", strerror(err));
    char *msg = ff_quoted_in(before, path, reason);
    if (msg != NULL) {
        ff_error(ctx, msg);
        free(msg);
    } else {
        ff_set_failed(ctx); // (no memory for the message: the exit status still says it)
    }
}

void ff_note(struct ff_ctx *ctx, const char *text)
{
    write_message(ctx, NULL, text, strlen(text), true);
}

void ff_note_path(struct ff_ctx *ctx, const char *path, const char *message)
{
    write_message(ctx, path, message, strlen(message), true);
}

void ff_warning(struct ff_ctx *ctx, const char *text, size_t n)
{
    write_message(ctx, NULL, text, n, false);
}

bool ff_stderr_failed(struct ff_ctx *ctx)
{
    // (-fprint /dev/stderr and a few messages of the shared tool code go through stdio.)
    return fflush(stderr) != 0 || ferror(stderr) != 0 || atomic_load(&ctx->msgs.stderr_failed);
}

bool ff_failed(struct ff_ctx *ctx)
{
    return atomic_load(&ctx->msgs.failed);
}

void ff_set_failed(struct ff_ctx *ctx)
{
    atomic_store(&ctx->msgs.failed, true);
}

void ff_msg_stdout_failed(struct ff_ctx *ctx)
{
    atomic_store(&ctx->msgs.stdout_unflushed, true);
}

bool ff_out_unflushed_failure(struct ff_ctx *ctx)
{
    return atomic_load(&ctx->msgs.stdout_unflushed);
}
