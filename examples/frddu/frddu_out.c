// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frddu's output: the lines as du prints them, --top's list, and the messages. */
#define _POSIX_C_SOURCE 200809L

#include "errtext.h"
#include "frddu.h"
#include "frddu_time.h"
#include "gnuquote.h"
#include "grow.h"
#include "toolname.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

TOOL_RESERVE_DEFINE(lines_reserve, struct du_line, 256)

/** Remembers a line for --top. Called with out_lock held. */
static void remember_line(struct du_state *st, const struct du_sum *sum, const char *head,
                          size_t head_len, const char *tail, size_t tail_len)
{
    if (lines_reserve(&st->lines, &st->lines_cap, st->nlines + 1) < 0) {
        atomic_store(&st->out_of_memory, true);
        return;
    }
    char *copy = malloc(head_len + tail_len + 1);
    if (copy == NULL) {
        atomic_store(&st->out_of_memory, true);
        return;
    }
    memcpy(copy, head, head_len);
    memcpy(copy + head_len, tail, tail_len);
    copy[head_len + tail_len] = '\0';
    st->lines[st->nlines].sum = *sum;
    st->lines[st->nlines].path = copy;
    st->nlines++;
}

/** Prints a time (ns since the epoch) as du --time does, in --time-style's format. */
static void write_time(FILE *out, int64_t ns, const char *format)
{
    int64_t sec = ns / 1000000000;
    int64_t nsec = ns % 1000000000;
    if (nsec < 0) {
        sec--;
        nsec += 1000000000;
    }
    time_t t = (time_t)sec;
    struct tm tm;
    if (localtime_r(&t, &tm) == NULL) {
        fprintf(out, "%" PRId64, sec);
        return;
    }
    du_write_time(out, format, &tm, (long long)sec, (int)nsec);
}

void du_write_line(struct du_state *st, const struct du_sum *sum, const char *head, size_t head_len,
                   const char *tail, size_t tail_len)
{
    const struct du_options *opts = st->opts;
    char size[DU_SIZE_MAX_LEN];
    fputs(du_format_size(opts->inodes ? sum->inodes : sum->bytes, &opts->units, size), st->out);
    if (opts->time != DU_TIME_NONE) {
        fputc('\t', st->out);
        write_time(st->out, sum->tmax, opts->time_format);
    }
    fputc('\t', st->out);
    fwrite(head, 1, head_len, st->out);
    fwrite(tail, 1, tail_len, st->out);
    fputc(opts->terminator, st->out);
}

/** @return whether -t lets the line print: at least the threshold, or at most -threshold. */
static bool above_threshold(const struct du_options *opts, const struct du_sum *sum)
{
    uint64_t v = opts->inodes ? sum->inodes : sum->bytes;
    if (opts->threshold < 0) {
        return v <= (uint64_t)0 - (uint64_t)opts->threshold;
    }
    return v >= (uint64_t)opts->threshold;
}

void du_emit(struct du_state *st, const struct du_sum *sum, const char *walk_path,
             size_t walk_path_len)
{
    if (st->quiet || !above_threshold(st->opts, sum)) {
        return;
    }
    // The walker's path is walk_root followed by "/name..."; du spells it with the root as
    // given (trailing slashes trimmed to one) and never doubles a slash after it.
    const char *tail = walk_path + st->walk_root_len;
    size_t tail_len = walk_path_len - st->walk_root_len;
    if (st->display_root_len > 0 && st->display_root[st->display_root_len - 1] == '/' &&
        tail_len > 0 && tail[0] == '/') {
        tail++;
        tail_len--;
    }
    pthread_mutex_lock(&st->out_lock);
    if (st->opts->top > 0) {
        remember_line(st, sum, st->display_root, st->display_root_len, tail, tail_len);
    } else {
        if (st->out_is_tty) {
            progress_line_clear(&st->progress);
        }
        du_write_line(st, sum, st->display_root, st->display_root_len, tail, tail_len);
    }
    pthread_mutex_unlock(&st->out_lock);
}

void du_report(struct du_state *st, const char *what, const char *path, int code)
{
    atomic_store(&st->status, 1);
    atomic_fetch_add(&st->errors, 1);
    char *q = tool_quote(path, TOOL_QUOTE_SHELL_ALWAYS);
    // The lines written so far go out first, as du's error() flushes stdout: on one pipe
    // the message follows them.
    pthread_mutex_lock(&st->out_lock);
    progress_line_clear(&st->progress);
    fflush(st->out);
    if (code != 0) {
        fprintf(stderr, "%s: %s %s: %s\n", tool_name, what, q ? q : path, tool_strerror(code));
    } else {
        fprintf(stderr, "%s: %s %s\n", tool_name, what, q ? q : path);
    }
    pthread_mutex_unlock(&st->out_lock);
    free(q);
}

static int line_larger_first(const void *a, const void *b)
{
    const struct du_line *x = a;
    const struct du_line *y = b;
    if (x->sum.bytes != y->sum.bytes) {
        return x->sum.bytes > y->sum.bytes ? -1 : 1;
    }
    return strcmp(x->path, y->path);
}

void du_print_top(struct du_state *st)
{
    qsort(st->lines, st->nlines, sizeof(*st->lines), line_larger_first);
    for (size_t i = 0; i < st->nlines && i < st->opts->top; i++) {
        du_write_line(st, &st->lines[i].sum, st->lines[i].path, strlen(st->lines[i].path), "", 0);
    }
    for (size_t i = 0; i < st->nlines; i++) {
        free(st->lines[i].path);
    }
    free(st->lines);
}
