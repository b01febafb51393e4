// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -ls line and its output files (-fls, -fprint, -fprint0, -fprintf).
 *
 * -ls prints what GNU find 4.9 prints (its listfile.c): inode, 1 KiB blocks, mode, links,
 * owner, group, size (or "major, minor"), mtime as ls does ("Mon dd HH:MM" within six months
 * of the start, else "Mon dd  YYYY"), the path with find's backslash escapes, and " -> target"
 * for a link. Each column starts at find's minimum width and widens for good once a wider
 * value is printed, as in find; with several workers which line widens a column first
 * depends on the order the lines come in.
 *
 * Output files are opened (created, truncated) once, at parse time, as find opens them;
 * one file named twice (or by two names) shares one stream. A record is rendered into the
 * thread's buffer, cut off it and written to the stream whole with one fwrite() (stdio locks
 * the stream). Write errors are reported when the files are closed after the walk.
 *
 * The run's files and -ls's column widths are its struct ff_files and struct ff_ls (ctx),
 * made by the parse of the first primary that needs them.
 */
#define _GNU_SOURCE

#include "frdfind_file.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_owner.h"
#include "frdfind_parse.h"
#include "frdfind_printf.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<sys/sysmacros.h>)
#    include <sys/sysmacros.h> // major(), minor() with glibc; <sys/types.h> has them elsewhere
#endif

struct ff_file {
    char *name; /**< as given */
    FILE *fp;   /**< the stream (stdout, stderr or the file) */
    dev_t dev;  /**< the file's identity, to share one stream between two names */
    ino_t ino;  /**< see dev */
    bool own;   /**< fp is a file frdfind opened (closed at the end) */
    bool tty;   /**< fp is a terminal: names are written as find writes them there */
    struct ff_file *next;
};

/** The run's output files. */
struct ff_files {
    struct ff_file *list; /**< the files opened, last first */
};

/**
 * Opens (creates, truncates) the file an -fls/-fprint... names, once: a name given twice, or
 * two names of one file, share the stream. /dev/stdout and /dev/stderr are the streams.
 * @return 0, or 1 after find's message.
 */
static int file_open(struct ff_ctx *ctx, const char *name, struct ff_file **out)
{
    if (ctx->files == NULL && (ctx->files = calloc(1, sizeof(*ctx->files))) == NULL) {
        ff_error(ctx, "out of memory");
        return 1;
    }
    struct ff_files *files = ctx->files;
    for (struct ff_file *f = files->list; f != NULL; f = f->next) {
        if (strcmp(f->name, name) == 0) {
            *out = f;
            return 0;
        }
    }
    FILE *fp;
    bool own = false;
    if (strcmp(name, "/dev/stdout") == 0) {
        fp = stdout;
    } else if (strcmp(name, "/dev/stderr") == 0) {
        fp = stderr;
    } else {
        fp = fopen(name, "we"); // close-on-exec: commands do not inherit it
        if (fp == NULL) {
            ff_error_path(ctx, name, strerror(errno));
            return 1;
        }
        own = true;
    }
    struct stat st;
    if (own && fstat(fileno(fp), &st) == 0) {
        for (struct ff_file *f = files->list; f != NULL; f = f->next) {
            if (f->own && f->dev == st.st_dev && f->ino == st.st_ino) {
                fclose(fp);
                *out = f;
                return 0;
            }
        }
    }
    struct ff_file *f = calloc(1, sizeof(*f));
    char *copy = strdup(name);
    if (f == NULL || copy == NULL) {
        free(f);
        free(copy);
        if (own) {
            fclose(fp);
        }
        ff_error(ctx, "out of memory");
        return 1;
    }
    f->name = copy;
    f->fp = fp;
    f->own = own;
    if (own) {
        f->dev = st.st_dev;
        f->ino = st.st_ino;
    }
    f->tty = isatty(fileno(f->fp)) == 1;
    f->next = files->list;
    files->list = f;
    *out = f;
    return 0;
}

/** Starts a record for `file` (NULL: stdout). A file's record is made in the thread's buffer
 *  and goes to its stream whole at put_record(); /dev/stdout's stays in the buffer, in
 *  order with -print's lines. */
static void begin_record(struct ff_file *file, struct ff_thread *thr)
{
    if (file != NULL && file->fp != stdout) {
        ff_out_file_begin(thr, file->fp);
    }
}

/** Ends the record begun by begin_record(). */
static void put_record(struct ff_file *file, struct ff_thread *thr)
{
    if (file != NULL && file->fp != stdout) {
        ff_out_file_end(thr);
    } else {
        ff_out_end_record(thr);
    }
}

int ff_parse_fprint(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    expr->sep = (char)expr->prim->param;
    return file_open(ff_parser_ctx(fp), argv[1], &expr->file) != 0 ? -1 : 0;
}

bool ff_eval_fprint(const struct ff_expr *expr, struct ff_eval *st)
{
    struct ff_thread *thr = st->thr;
    begin_record(expr->file, thr);
    ff_out_to_tty(thr, expr->file->tty && expr->sep == '\n'); // -fprint0: never marked
    ff_out_append_name(thr, st->we->path, st->we->path_len);
    ff_out_byte(thr, expr->sep);
    put_record(expr->file, thr);
    return true;
}

int ff_parse_fprintf(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    struct ff_ctx *ctx = ff_parser_ctx(fp);
    const char *name = argv[1];
    expr->sep = '\n';
    if (file_open(ctx, name, &expr->file) != 0) {
        return -1;
    }
    // (find's names for the output in its write errors)
    const char *dest = strcmp(name, "/dev/stdout") == 0   ? "standard output"
                       : strcmp(name, "/dev/stderr") == 0 ? "standard error"
                                                          : name;
    unsigned needs = 0;
    if (ff_format_compile(ctx, argv[2], dest, &expr->format, &needs) != 0) {
        return -1;
    }
    expr->needs |= needs;
    return 0;
}

bool ff_eval_fprintf(const struct ff_expr *expr, struct ff_eval *st)
{
    struct ff_thread *thr = st->thr;
    begin_record(expr->file, thr);
    ff_out_to_tty(thr, expr->file->tty);
    ff_format_render(expr->format, st);
    put_record(expr->file, thr);
    return true;
}

/** Closes every file, reporting write errors as find does if `report`, and frees them. */
static void close_all(struct ff_ctx *ctx, bool report)
{
    free(ctx->ls);
    ctx->ls = NULL;
    struct ff_files *files = ctx->files;
    if (files == NULL) {
        return;
    }
    if (report) {
        fflush(stderr);
    }
    while (files->list != NULL) {
        struct ff_file *f = files->list;
        files->list = f->next;
        if (f->own) {
            bool bad = ferror(f->fp) != 0;
            int err = errno;
            if ((fclose(f->fp) != 0 || bad) && report) {
                ff_error_path(ctx, f->name, strerror(bad ? (err != 0 ? err : EIO) : errno));
            }
        }
        free(f->name);
        free(f);
    }
    free(files);
    ctx->files = NULL;
}

void ff_file_close_all(struct ff_ctx *ctx)
{
    close_all(ctx, true);
}

void ff_file_free(struct ff_ctx *ctx)
{
    close_all(ctx, false);
}

/* ---- -ls ------------------------------------------------------------------------------- */

/** -ls's columns. */
enum ls_column {
    W_INODE,
    W_BLOCKS,
    W_MODE,
    W_NLINK,
    W_OWNER,
    W_GROUP,
    W_MAJOR,
    W_MINOR,
    W_SIZE,
    W_TIME,
    W_COUNT
};

/** Column widths: find's minimums, widened for good by a wider value (as find), by any
 *  worker. */
struct ff_ls {
    atomic_int width[W_COUNT];
};

/** Makes -ls's columns, unless the run has them. @return 0 or 1 (reported). */
static int ls_need(struct ff_ctx *ctx)
{
    if (ctx->ls != NULL) {
        return 0;
    }
    static const int minimum[W_COUNT] = {9, 6, 10, 3, 8, 8, 3, 3, 8, 12};
    struct ff_ls *ls = malloc(sizeof(*ls));
    if (ls == NULL) {
        ff_error(ctx, "out of memory");
        return 1;
    }
    for (int i = 0; i < W_COUNT; i++) {
        atomic_init(&ls->width[i], minimum[i]);
    }
    ctx->ls = ls;
    return 0;
}

static void widen(atomic_int *w, int n)
{
    int cur = atomic_load_explicit(w, memory_order_relaxed);
    while (n > cur && !atomic_compare_exchange_weak(w, &cur, n)) {
    }
}

/** Appends s right-aligned (left: left-aligned) in the column, widening it. */
static void column(struct ff_thread *thr, atomic_int *w, const char *s, bool left)
{
    int len = (int)strlen(s);
    int width = atomic_load_explicit(w, memory_order_relaxed);
    if (!left) {
        for (int k = len; k < width; k++) {
            ff_out_byte(thr, ' ');
        }
    }
    ff_out_append(thr, s, (size_t)len);
    if (left) {
        for (int k = len; k < width; k++) {
            ff_out_byte(thr, ' ');
        }
    }
    widen(w, len);
}

/** A name as find's -ls prints it: C-style escapes, octal for the rest, "\ " for a space. */
static void ls_name(struct ff_thread *thr, const char *p, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)p[k];
        const char *esc = NULL;
        switch (c) {
        case '\\':
            esc = "\\\\";
            break;
        case '\n':
            esc = "\\n";
            break;
        case '\b':
            esc = "\\b";
            break;
        case '\r':
            esc = "\\r";
            break;
        case '\t':
            esc = "\\t";
            break;
        case '\f':
            esc = "\\f";
            break;
        case ' ':
            esc = "\\ ";
            break;
        case '"':
            esc = "\\\"";
            break;
        default:
            break;
        }
        if (esc != NULL) {
            ff_out_append(thr, esc, 2);
        } else if (c > 040 && c < 0177) {
            ff_out_byte(thr, (char)c);
        } else {
            char oct[4] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)),
                           (char)('0' + (c & 7))};
            ff_out_append(thr, oct, 4);
        }
    }
}

int ff_parse_ls(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    return ls_need(ff_parser_ctx(fp)) != 0 ? -1 : 0;
}

int ff_parse_fls(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    struct ff_ctx *ctx = ff_parser_ctx(fp);
    expr->sep = '\n';
    return file_open(ctx, argv[1], &expr->file) != 0 || ls_need(ctx) != 0 ? -1 : 0;
}

bool ff_eval_ls(const struct ff_expr *expr, struct ff_eval *st)
{
    struct ff_file *file = expr->file;
    struct ff_ctx *ctx = st->ctx;
    const struct frd_walk_entry *we = st->we;
    struct ff_thread *thr = st->thr;
    atomic_int *w = ctx->ls->width;
    const struct frd_entry *e = we->entry;
    begin_record(file, thr);
    char num[32];
    snprintf(num, sizeof(num), "%llu", (unsigned long long)e->file_id);
    column(thr, &w[W_INODE], num, false);
    ff_out_byte(thr, ' ');
    uint64_t blocks512 = e->alloc_size / 512;
    snprintf(num, sizeof(num), "%llu", (unsigned long long)((blocks512 + 1) / 2));
    column(thr, &w[W_BLOCKS], num, false);
    ff_out_byte(thr, ' ');
    char mode[11];
    ff_mode_string(mode, e->type, e->mode);
    column(thr, &w[W_MODE], mode, true);
    ff_out_byte(thr, ' ');
    snprintf(num, sizeof(num), "%lu", (unsigned long)e->nlink);
    column(thr, &w[W_NLINK], num, false);
    ff_out_byte(thr, ' ');
    const char *user = ff_user_name(ctx, e->uid, we->worker);
    if (user != NULL) {
        column(thr, &w[W_OWNER], user, true);
    } else {
        // find 4.9: a numeric owner is "%-8lu" whatever the column's width, and widens the
        // column by one more than it printed.
        int n = snprintf(num, sizeof(num), "%-8lu", (unsigned long)e->uid);
        ff_out_append(thr, num, (size_t)n);
        widen(&w[W_OWNER], n + 1);
    }
    ff_out_byte(thr, ' ');
    const char *group = ff_group_name(ctx, e->gid, we->worker);
    if (group == NULL) {
        snprintf(num, sizeof(num), "%lu", (unsigned long)e->gid);
    }
    column(thr, &w[W_GROUP], group != NULL ? group : num, true);
    ff_out_byte(thr, ' ');
    if (e->type == FRD_TYPE_CHR || e->type == FRD_TYPE_BLK) {
        char maj[24];
        char min[24];
        snprintf(maj, sizeof(maj), "%lu", (unsigned long)major((dev_t)e->rdev));
        snprintf(min, sizeof(min), "%lu", (unsigned long)minor((dev_t)e->rdev));
        widen(&w[W_MAJOR], (int)strlen(maj));
        widen(&w[W_MINOR], (int)strlen(min));
        // "major, minor" in their own columns; find neither pads it to the size column nor
        // widens that.
        char dev[64];
        int n = snprintf(dev, sizeof(dev), "%*s%-2s%*s", atomic_load(&w[W_MAJOR]), maj, ",",
                         atomic_load(&w[W_MINOR]), min);
        ff_out_append(thr, dev, (size_t)n);
    } else {
        snprintf(num, sizeof(num), "%llu", (unsigned long long)e->size);
        column(thr, &w[W_SIZE], num, false);
    }
    ff_out_byte(thr, ' ');
    time_t now = (time_t)(ctx->opts.start_ns / 1000000000LL);
    int64_t sec = e->mtime_ns / 1000000000LL - (e->mtime_ns % 1000000000LL < 0);
    time_t t = (time_t)sec;
    struct tm tm;
    char when[64];
    if (localtime_r(&t, &tm) != NULL) {
        bool recent = now - 6 * 30 * 24 * 60 * 60 <= t && t <= now + 60 * 60;
        size_t n = recent ? strftime(when, sizeof(when), "%b %e %H:%M", &tm)
                          : strftime(when, sizeof(when), "%b %e  %Y", &tm);
        if (n == 0) {
            when[0] = '\0';
        }
        column(thr, &w[W_TIME], when, false);
    } else {
        snprintf(when, sizeof(when), "%lld", (long long)sec);
        ff_out_append(thr, when, strlen(when));
        widen(&w[W_TIME], (int)strlen(when));
    }
    ff_out_byte(thr, ' ');
    ls_name(thr, we->path, we->path_len);
    if (e->type == FRD_TYPE_LNK) {
        char target[4096];
        ssize_t n = -1;
        if (we->depth > 0 && we->parent_fd != FRD_INVALID_FD) {
            n = readlinkat((int)we->parent_fd, e->name, target, sizeof(target));
        } else if (we->depth == 0) {
            n = readlink(we->path, target, sizeof(target));
        }
        if (n >= 0) {
            ff_out_append(thr, " -> ", 4);
            ls_name(thr, target, (size_t)n);
        } else {
            // find: error(0, errno, "%s", name), unquoted, and the exit status stays.
            char msg[512];
            snprintf(msg, sizeof(msg), "%.300s: %s", we->path, strerror(errno));
            ff_note(ctx, msg);
        }
    }
    ff_out_byte(thr, '\n');
    put_record(file, thr);
    return true;
}
