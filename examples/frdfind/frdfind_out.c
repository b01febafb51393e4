// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's output: one large buffer per thread, flushed to stdout under a lock.
 *
 * Each walker thread appends whole records (a -print line, a -printf expansion) to its own
 * buffer with no lock and no stdio; when the buffer passes FLUSH_AT bytes at the end of a
 * record, the thread takes the output lock and write()s it. So concurrent output never
 * interleaves inside a record, and the hot path is a memcpy. The buffers are an array
 * indexed by the walker's worker index (frd_walk_entry.worker: two callbacks with one index
 * never run at once), so main() can flush what is left after the walk, when the workers are
 * gone.
 *
 * -depth with several workers: a directory's line must follow every line below it, which
 * may still sit in other workers' buffers. Its post-order evaluation first flushes every
 * buffer (ff_out_flush_each(), each under its owner's lock, which the owner holds while it
 * evaluates), so what is below it reaches stdout first; its own line then waits in its
 * buffer, which its parent's post-order flushes before the parent's line in turn.
 *
 * The state lives in the run's struct ff_out (ctx->out), made by ff_out_init(); each thread's
 * struct ff_thread points back to the run, so the hot path needs nothing but it.
 */
#define _XOPEN_SOURCE 700 // wcwidth()

#include "frdfind_out.h"

#include "frdfind_ctx.h"
#include "frdfind_msg.h"
#include "grow.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

enum {
    /** A thread flushes its buffer once it holds this many bytes at the end of a record: a
     *  pipe's buffer. Each page of it costs a page fault when first written; at 256 KiB
     *  that was ~110 more faults a walk of /tmp/ub (2 workers), more than the writes saved. */
    FLUSH_AT = 64 * 1024,
    /** Initial buffer size; it grows only for a single record longer than the slack. Below
     *  glibc's mmap threshold (128 KiB): from the heap, not an mmap and munmap a run. */
    INITIAL_CAP = FLUSH_AT + 64 * 1024 - 256,
};

struct ff_thread {
    struct ff_ctx *ctx; /**< the run */
    /** Held by the owner while it evaluates, under -depth with several workers, so that
     *  ff_out_flush_each() never takes half a record; uncontended otherwise. */
    pthread_mutex_t lock;
    char *buf;
    size_t len;
    size_t cap;
    bool oom;                  /**< an allocation failed: output was lost */
    uint64_t count;            /**< -count matches seen by this thread */
    char *scratch;             /**< for paths and link targets */
    size_t scratch_cap;        /**< bytes in scratch */
    bool to_tty;               /**< the record being made goes to a terminal */
    bool line_mode;            /**< struct ff_out's, at hand */
    FILE *file_fp;             /**< the stream of the file record being made, or NULL */
    size_t file_start;         /**< where that record starts in buf */
    char *names;               /**< ff_out_name()'s terminal form of a name */
    size_t names_cap;          /**< bytes in names */
    struct frd_lister *lister; /**< for -empty, made on first use */
    struct frd_list *list;     /**< for -empty */
};

/** The run's output: stdout, and the states of the worker indexes. */
struct ff_out {
    pthread_mutex_t stdout_lock; /**< one thread writes to stdout at a time */
    /** stdout is a terminal: each record goes out when it ends (results as they are found). */
    bool line_mode;
    /** Every evaluation runs on one thread (see ff_out_init()). */
    bool sole_writer;
    /** stdout's reader went away (EPIPE): the walk stops. */
    atomic_bool broken;
    atomic_int first_write_errno; /**< see ff_out_write_error() */
    /** One state per worker index, made on first use by that worker. */
    struct ff_thread **threads;
    unsigned nthreads;
};

int ff_out_init(struct ff_ctx *ctx, unsigned workers, bool one_writer)
{
    struct ff_out *out = calloc(1, sizeof(*out));
    struct ff_thread **threads = calloc(workers, sizeof(*threads));
    if (out == NULL || threads == NULL) {
        free(out);
        free(threads);
        return -1;
    }
    pthread_mutex_init(&out->stdout_lock, NULL);
    out->line_mode = isatty(STDOUT_FILENO) == 1;
    out->sole_writer = one_writer;
    atomic_init(&out->broken, false);
    atomic_init(&out->first_write_errno, 0);
    out->threads = threads;
    out->nthreads = workers;
    ctx->out = out;
    return 0;
}

struct ff_thread *const *ff_out_threads(const struct ff_ctx *ctx, unsigned *n)
{
    *n = ctx->out != NULL ? ctx->out->nthreads : 0;
    return ctx->out != NULL ? ctx->out->threads : NULL;
}

struct ff_thread *ff_thread_get(struct ff_ctx *ctx, unsigned worker)
{
    struct ff_out *out = ctx->out;
    if (out == NULL || worker >= out->nthreads) {
        return NULL;
    }
    struct ff_thread *thr = out->threads[worker];
    if (thr != NULL) {
        return thr;
    }
    thr = calloc(1, sizeof(*thr));
    if (thr == NULL) {
        return NULL;
    }
    thr->buf = malloc(INITIAL_CAP);
    if (thr->buf == NULL) {
        free(thr);
        return NULL;
    }
    thr->cap = INITIAL_CAP;
    thr->ctx = ctx;
    thr->line_mode = out->line_mode;
    pthread_mutex_init(&thr->lock, NULL);
    out->threads[worker] = thr;
    return thr;
}

struct ff_ctx *ff_thread_ctx(struct ff_thread *thr)
{
    return thr->ctx;
}

/** Writes to stdout whole. Records the first error; a broken pipe stops the walk. */
static void write_stdout(struct ff_ctx *ctx, const char *data, size_t len)
{
    int err = ff_write_full(STDOUT_FILENO, data, len);
    if (err == 0) {
        return;
    }
    int expected = 0;
    atomic_compare_exchange_strong(&ctx->out->first_write_errno, &expected, err);
    ff_msg_stdout_failed(ctx);
    if (err == EPIPE) {
        // Nobody reads any more. A full disk or a bad descriptor does not stop the walk:
        // find walks on (its -exec and -delete still act), then reports it.
        atomic_store(&ctx->out->broken, true);
    }
}

static void flush_locked(struct ff_thread *thr)
{
    struct ff_out *out = thr->ctx->out;
    pthread_mutex_lock(&out->stdout_lock);
    write_stdout(thr->ctx, thr->buf, thr->len);
    pthread_mutex_unlock(&out->stdout_lock);
    thr->len = 0;
}

void ff_out_append(struct ff_thread *thr, const void *data, size_t len)
{
    if (len > SIZE_MAX - thr->len || tool_reserve_chars(&thr->buf, &thr->cap, thr->len + len) < 0) {
        thr->oom = true;
        return;
    }
    memcpy(thr->buf + thr->len, data, len);
    thr->len += len;
}

void ff_out_before_error(struct ff_thread *thr)
{
    struct ff_out *o = thr->ctx->out;
    if (!o->sole_writer) {
        return;
    }
    // (thr->lock is not taken with one writer: no one else reads thr)
    size_t out = thr->file_fp != NULL ? thr->file_start : thr->len;
    if (out > 0) {
        pthread_mutex_lock(&o->stdout_lock);
        write_stdout(thr->ctx, thr->buf, out);
        pthread_mutex_unlock(&o->stdout_lock);
    }
    if (thr->file_fp != NULL) {
        // The record half made for a file goes to its stream, where find's printf put it.
        if (thr->len > out) {
            fwrite(thr->buf + out, 1, thr->len - out, thr->file_fp);
        }
        thr->file_start = 0;
    }
    thr->len = 0;
}

void ff_out_byte(struct ff_thread *thr, char c)
{
    if (thr->len == thr->cap) {
        ff_out_append(thr, &c, 1);
        return;
    }
    thr->buf[thr->len++] = c;
}

void ff_out_fill(struct ff_thread *thr, char c, size_t n)
{
    if (n > SIZE_MAX - thr->len || tool_reserve_chars(&thr->buf, &thr->cap, thr->len + n) < 0) {
        thr->oom = true;
        return;
    }
    memset(thr->buf + thr->len, c, n);
    thr->len += n;
}

void ff_out_end_record(struct ff_thread *thr)
{
    if (thr->len >= FLUSH_AT || (thr->line_mode && thr->len > 0)) {
        flush_locked(thr);
    }
}

void ff_out_print_record(struct ff_thread *thr, const char *path, size_t len, char sep)
{
    thr->to_tty = false;
    size_t at = thr->len;
    if (len < thr->cap - at) {
        // (in locals: the stores through buf need not reload the state)
        char *p = thr->buf + at;
        memcpy(p, path, len);
        p[len] = sep;
        at += len + 1;
        thr->len = at;
        if (at >= FLUSH_AT || thr->line_mode) {
            flush_locked(thr);
        }
        return;
    }
    ff_out_append(thr, path, len);
    ff_out_byte(thr, sep);
    ff_out_end_record(thr);
}

/** ff_out_print_record() of dir, a '/' when `slash`, and name: the general way. */
static void print_joined(struct ff_thread *thr, const char *dir, size_t dir_len, bool slash,
                         const char *name, size_t name_len, char sep)
{
    ff_out_append(thr, dir, dir_len);
    if (slash) {
        ff_out_byte(thr, '/');
    }
    ff_out_append(thr, name, name_len);
    ff_out_byte(thr, sep);
    ff_out_end_record(thr);
}

void ff_out_print_names(struct ff_thread *thr, const struct frd_walk_names *names, char sep)
{
    thr->to_tty = false;
    const char *dir = names->dir_path;
    size_t dir_len = names->dir_path_len;
    bool slash = !(dir_len > 0 && dir[dir_len - 1] == '/'); // (as the walker joins them)
    for (size_t i = 0; i < names->count; i++) {
        const struct frd_walk_name *n = &names->names[i];
        size_t at = thr->len;
        size_t len = dir_len + slash + n->name_len;
        if (len >= thr->cap - at || thr->line_mode) {
            print_joined(thr, dir, dir_len, slash, n->name, n->name_len, sep);
            continue;
        }
        // (in locals: the stores through buf need not reload the state)
        char *p = thr->buf + at;
        memcpy(p, dir, dir_len);
        p[dir_len] = '/'; // (overwritten by the name when there is no slash)
        p += dir_len + slash;
        memcpy(p, n->name, n->name_len);
        p[n->name_len] = sep;
        at += len + 1;
        thr->len = at;
        if (at >= FLUSH_AT) {
            flush_locked(thr);
        }
    }
}

void ff_out_count(struct ff_thread *thr)
{
    thr->count++;
}

uint64_t ff_out_flush_all(struct ff_ctx *ctx)
{
    uint64_t total = 0;
    struct ff_out *out = ctx->out;
    for (unsigned i = 0; out != NULL && i < out->nthreads; i++) {
        struct ff_thread *thr = out->threads[i];
        if (thr == NULL) {
            continue;
        }
        if (thr->len > 0) {
            flush_locked(thr);
        }
        if (thr->oom) {
            ff_error(ctx, "out of memory: some output was lost");
            thr->oom = false;
        }
        total += thr->count;
        thr->count = 0;
    }
    return total;
}

void ff_out_exclusive_begin(struct ff_ctx *ctx, struct ff_thread *thr)
{
    pthread_mutex_lock(&ctx->out->stdout_lock);
    if (thr != NULL && thr->len > 0) {
        write_stdout(ctx, thr->buf, thr->len);
        thr->len = 0;
    }
}

void ff_out_exclusive_end(struct ff_ctx *ctx)
{
    pthread_mutex_unlock(&ctx->out->stdout_lock);
}

void ff_out_file_begin(struct ff_thread *thr, FILE *fp)
{
    thr->file_fp = fp;
    thr->file_start = thr->len;
}

void ff_out_file_end(struct ff_thread *thr)
{
    size_t len = thr->len - thr->file_start;
    if (len > 0) {
        fwrite(thr->buf + thr->file_start, 1, len, thr->file_fp); // (stdio locks the stream)
    }
    thr->len = thr->file_start;
    thr->file_fp = NULL;
}

const atomic_bool *ff_out_broken_flag(const struct ff_ctx *ctx)
{
    return &ctx->out->broken;
}

void ff_out_lock(struct ff_thread *thr)
{
    pthread_mutex_lock(&thr->lock);
}

void ff_out_unlock(struct ff_thread *thr)
{
    pthread_mutex_unlock(&thr->lock);
}

/** Writes out what thr holds, under its lock (another thread may be flushing it). */
static void flush_under_lock(struct ff_thread *thr)
{
    pthread_mutex_lock(&thr->lock);
    if (thr->len > 0) {
        flush_locked(thr);
    }
    pthread_mutex_unlock(&thr->lock);
}

void ff_out_flush_each(struct ff_ctx *ctx)
{
    struct ff_out *out = ctx->out;
    for (unsigned i = 0; i < out->nthreads; i++) {
        if (out->threads[i] != NULL) {
            flush_under_lock(out->threads[i]);
        }
    }
}

void ff_out_flush_worker(struct ff_ctx *ctx, unsigned worker)
{
    struct ff_out *out = ctx->out;
    if (out != NULL && worker < out->nthreads && out->threads[worker] != NULL) {
        flush_under_lock(out->threads[worker]);
    }
}

void ff_out_free_all(struct ff_ctx *ctx)
{
    struct ff_out *out = ctx->out;
    if (out == NULL) {
        return;
    }
    for (unsigned i = 0; i < out->nthreads; i++) {
        struct ff_thread *thr = out->threads[i];
        if (thr != NULL) {
            frd_lister_free(thr->lister);
            frd_list_free(thr->list);
            free(thr->scratch);
            free(thr->names);
            free(thr->buf);
            pthread_mutex_destroy(&thr->lock);
            free(thr);
        }
    }
    free(out->threads);
    pthread_mutex_destroy(&out->stdout_lock);
    free(out);
    ctx->out = NULL;
}

bool ff_out_stdout_is_tty(const struct ff_ctx *ctx)
{
    return ctx->out->line_mode;
}

void ff_out_to_tty(struct ff_thread *thr, bool to_tty)
{
    thr->to_tty = to_tty;
}

size_t ff_qmark(char *dst, const char *s, size_t len)
{
    size_t n = 0;
    if (MB_CUR_MAX == 1) {
        for (size_t i = 0; i < len; i++) {
            dst[n++] = isprint((unsigned char)s[i]) ? s[i] : '?';
        }
        return n;
    }
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f) {
            dst[n++] = s[i++];
            continue;
        }
        mbstate_t st;
        memset(&st, 0, sizeof(st));
        wchar_t wc;
        size_t bytes = mbrtowc(&wc, s + i, len - i, &st);
        if (bytes == (size_t)-2) {
            dst[n++] = '?'; // an incomplete character ends the name: one mark for it
            break;
        }
        if (bytes == (size_t)-1) {
            dst[n++] = '?'; // an invalid byte: one mark each
            i++;
            continue;
        }
        if (bytes == 0) {
            bytes = 1; // an embedded NUL (names have none; a link target read whole might)
        }
        if (wcwidth(wc) >= 0) {
            memcpy(dst + n, s + i, bytes);
            n += bytes;
        } else {
            dst[n++] = '?';
        }
        i += bytes;
    }
    return n;
}

const char *ff_out_name(struct ff_thread *thr, const char *s, size_t *len)
{
    if (!thr->to_tty) {
        return s;
    }
    if (tool_reserve_chars(&thr->names, &thr->names_cap, *len + 1) < 0) {
        thr->oom = true;
        *len = 0;
        return "";
    }
    *len = ff_qmark(thr->names, s, *len);
    return thr->names;
}

void ff_out_append_name(struct ff_thread *thr, const char *s, size_t len)
{
    const char *shown = ff_out_name(thr, s, &len);
    ff_out_append(thr, shown, len);
}

char *ff_thread_scratch(struct ff_thread *thr, size_t size)
{
    return tool_reserve_chars(&thr->scratch, &thr->scratch_cap, size) < 0 ? NULL : thr->scratch;
}

int ff_thread_lister(struct ff_thread *thr, struct frd_lister **lister, struct frd_list **list)
{
    if (thr->lister == NULL && frd_lister_new(&thr->lister, FRD_LIST_NAMES_ONLY) < 0) {
        return -1;
    }
    if (thr->list == NULL && frd_list_new(&thr->list) < 0) {
        return -1;
    }
    frd_list_clear(thr->list);
    *lister = thr->lister;
    *list = thr->list;
    return 0;
}

int ff_out_write_error(const struct ff_ctx *ctx)
{
    return ctx->out != NULL ? atomic_load(&ctx->out->first_write_errno) : 0;
}
