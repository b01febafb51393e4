// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -files0-from FILE, as GNU find 4.9 reads it: the roots are the NUL-separated
 * names in FILE ("-": standard input), read after the whole command line is parsed; the
 * names read before a read error are walked, then the error is reported; an empty name is
 * reported in its turn (find reads the list as it walks). With -ok or -okdir the list may
 * not come from standard input, where their answers are read.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_files0.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_parse.h"
#include "frdfind_stdfd.h"
#include "grow.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ff_parse_files0(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    ff_parser_opts(fp)->files0_from = argv[1];
    return 0;
}

/**
 * Reads fd to its end, or to a read error (*err: its errno, else 0), into a malloc'd
 * NUL-terminated buffer: find walks the names read before an error, the last one even
 * without its NUL, then reports it. @return the buffer, or NULL (errno ENOMEM).
 */
static char *read_all(int fd, size_t *len, int *err)
{
    size_t cap = 0;
    size_t n = 0;
    char *buf = NULL;
    *err = 0;
    for (;;) {
        if (tool_reserve_chars(&buf, &cap, n + 2) < 0) { // a byte to read, and the NUL
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            *err = got < 0 ? errno : 0;
            buf[n] = '\0';
            *len = n;
            return buf;
        }
        n += (size_t)got;
    }
}

/** find's name for the list in its messages: FILE, or "(standard input)" for "-". */
static const char *files0_shown(const char *file)
{
    return strcmp(file, "-") == 0 ? "(standard input)" : file;
}

/**
 * -ok and -okdir read their answers from stdin, so find refuses a list read from it too
 * (its message ends in an empty line). A list on the same file as stdin counts as stdin,
 * and so does any list when stdin was closed at start: find opens FILE on descriptor 0
 * then, frdfind leaves it taken (frdfind_stdfd.c) and says what find says.
 * @return 0, or 1 after the error.
 */
static int files0_check_ok(struct ff_ctx *ctx, bool std_in, int fd)
{
    const struct ff_options *opts = &ctx->opts;
    if (!opts->ok_prompt) {
        return 0;
    }
    if (std_in) {
        ff_error(ctx, "option -files0-from reading from standard input cannot be combined with "
                      "-ok, -okdir\n");
        return 1;
    }
    struct stat a;
    struct stat b;
    if (ff_std_was_closed(ctx, STDIN_FILENO) ||
        (fstat(fd, &a) == 0 && fstat(STDIN_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino)) {
        char *line = ff_quoted_in("option -files0-from: standard input must not refer to the "
                                  "same file when combined with -ok, -okdir: ",
                                  opts->files0_from, "\n");
        ff_error(ctx, line != NULL ? line : "out of memory");
        free(line);
        return 1;
    }
    return 0;
}

int ff_files0_read(struct ff_ctx *ctx, bool paths_given)
{
    struct ff_options *opts = &ctx->opts;
    const char *file = opts->files0_from;
    char msg[512];
    if (paths_given) {
        char quoted[400];
        snprintf(msg, sizeof(msg), "extra operand %s",
                 ff_quoted(quoted, sizeof(quoted), opts->paths[0]));
        ff_error(ctx, msg);
        ff_error(ctx, "file operands cannot be combined with -files0-from");
        return 1;
    }
    bool std_in = strcmp(file, "-") == 0;
    int fd = std_in ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(msg, sizeof(msg), " for reading: %s", strerror(errno));
        char *line = ff_quoted_in("cannot open ", file, msg);
        ff_error(ctx, line != NULL ? line : "out of memory");
        free(line);
        return 1;
    }
    if (files0_check_ok(ctx, std_in, fd) != 0) {
        if (!std_in) {
            close(fd);
        }
        return 1;
    }
    size_t len = 0;
    char *buf = read_all(fd, &len, &opts->files0_error);
    if (!std_in) {
        close(fd);
    }
    if (buf == NULL) {
        ff_error(ctx, "out of memory");
        return 1;
    }
    size_t count = 1; // a last name without its NUL
    for (size_t i = 0; i < len; i++) {
        count += buf[i] == '\0';
    }
    const char **paths = calloc(count + 1, sizeof(*paths));
    if (paths == NULL) {
        free(buf);
        ff_error(ctx, "out of memory");
        return 1;
    }
    size_t n = 0;
    for (size_t start = 0; start < len;) { // an empty name stays: reported in its turn
        paths[n++] = buf + start;
        start += strlen(buf + start) + 1;
    }
    free(opts->paths);
    opts->paths = paths;
    opts->npaths = n;
    opts->files0_buf = buf;
    return 0;
}

void ff_files0_report_read_error(struct ff_ctx *ctx)
{
    const struct ff_options *opts = &ctx->opts;
    if (opts->files0_from == NULL || opts->files0_error == 0) {
        return;
    }
    char text[256];
    snprintf(text, sizeof(text), "read error: %s", strerror(opts->files0_error));
    ff_error_path(ctx, files0_shown(opts->files0_from), text);
}

void ff_files0_report_empty(struct ff_ctx *ctx, size_t index)
{
    const struct ff_options *opts = &ctx->opts;
    assert(opts->files0_from != NULL && index < opts->npaths && opts->paths[index][0] == '\0');
    const char *shown = files0_shown(opts->files0_from);
    char line[64];
    snprintf(line, sizeof(line), ":%zu: invalid zero-length file name", index + 1);
    char *text = ff_quoted_in("", shown, line);
    ff_error(ctx, text != NULL ? text : "out of memory");
    free(text);
}
