// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -ls and -fls: the line GNU find 4.9 prints (its listfile.c): inode, 1 KiB
 * blocks, mode, links, owner, group, size (or "major, minor"), mtime as ls does ("Mon dd
 * HH:MM" within six months of the start, else "Mon dd  YYYY"), the path with find's
 * backslash escapes, and " -> target" for a link. Each column starts at find's minimum
 * width and widens for good once a wider value is printed, as in find; with several
 * workers which line widens a column first depends on the order the lines come in.
 */
#define _GNU_SOURCE // readlinkat, localtime_r

#include "frdfind_ls.h"

#include "frdfind_ctx.h"
#include "frdfind_file.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_owner.h"
#include "frdfind_parse.h"
#include "frdfind_printf.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<sys/sysmacros.h>)
#    include <sys/sysmacros.h> // major(), minor() with glibc; <sys/types.h> has them elsewhere
#endif

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
    return ff_file_open(ctx, argv[1], &expr->file) != 0 || ls_need(ctx) != 0 ? -1 : 0;
}

void ff_ls_free(struct ff_ctx *ctx)
{
    free(ctx->ls);
    ctx->ls = NULL;
}

/** Appends a number right-aligned in its column (%llu). */
static void number_column(struct ff_thread *thr, atomic_int *w, unsigned long long v)
{
    char num[32];
    snprintf(num, sizeof(num), "%llu", v);
    column(thr, w, num, false);
}

/** The owner and group columns: names, or numbers as find 4.9 prints them. */
static void owners(struct ff_eval *st, atomic_int *w)
{
    const struct frd_entry *e = st->we->entry;
    struct ff_thread *thr = st->thr;
    char num[32];
    const char *user = ff_user_name(st->ctx, e->uid, st->we->worker);
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
    const char *group = ff_group_name(st->ctx, e->gid, st->we->worker);
    if (group == NULL) {
        snprintf(num, sizeof(num), "%lu", (unsigned long)e->gid);
    }
    column(thr, &w[W_GROUP], group != NULL ? group : num, true);
}

/** The size column, or a device's "major, minor" in columns of their own. */
static void size_or_device(struct ff_thread *thr, atomic_int *w, const struct frd_entry *e)
{
    if (e->type != FRD_TYPE_CHR && e->type != FRD_TYPE_BLK) {
        number_column(thr, &w[W_SIZE], (unsigned long long)e->size);
        return;
    }
    char maj[24];
    char min[24];
    snprintf(maj, sizeof(maj), "%lu", (unsigned long)major((dev_t)e->rdev));
    snprintf(min, sizeof(min), "%lu", (unsigned long)minor((dev_t)e->rdev));
    widen(&w[W_MAJOR], (int)strlen(maj));
    widen(&w[W_MINOR], (int)strlen(min));
    // find neither pads "major, minor" to the size column nor widens that.
    char dev[64];
    int n = snprintf(dev, sizeof(dev), "%*s%-2s%*s", atomic_load(&w[W_MAJOR]), maj, ",",
                     atomic_load(&w[W_MINOR]), min);
    ff_out_append(thr, dev, (size_t)n);
}

/** The mtime column as ls prints it, against the run's start (seconds past the range of
 *  struct tm: the number). */
static void mtime(struct ff_eval *st, atomic_int *w)
{
    const struct frd_entry *e = st->we->entry;
    struct ff_thread *thr = st->thr;
    time_t now = (time_t)(st->ctx->opts.start_ns / 1000000000LL);
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
}

/** " -> target" for a link, read through the parent's descriptor (a root: its path). */
static void link_target(struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    char target[4096];
    ssize_t n = -1;
    if (we->depth > 0 && we->parent_fd != FRD_INVALID_FD) {
        n = readlinkat((int)we->parent_fd, we->entry->name, target, sizeof(target));
    } else if (we->depth == 0) {
        n = readlink(we->path, target, sizeof(target));
    }
    if (n >= 0) {
        ff_out_append(st->thr, " -> ", 4);
        ls_name(st->thr, target, (size_t)n);
    } else {
        // find: error(0, errno, "%s", name), unquoted, and the exit status stays.
        char msg[512];
        snprintf(msg, sizeof(msg), "%.300s: %s", we->path, strerror(errno));
        ff_note(st->ctx, msg);
    }
}

bool ff_eval_ls(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    const struct frd_entry *e = we->entry;
    struct ff_thread *thr = st->thr;
    atomic_int *w = st->ctx->ls->width;
    ff_file_begin(expr->file, thr);
    number_column(thr, &w[W_INODE], (unsigned long long)e->file_id);
    ff_out_byte(thr, ' ');
    number_column(thr, &w[W_BLOCKS], (unsigned long long)((e->alloc_size / 512 + 1) / 2));
    ff_out_byte(thr, ' ');
    char mode[11];
    ff_mode_string(mode, e->type, e->mode);
    column(thr, &w[W_MODE], mode, true);
    ff_out_byte(thr, ' ');
    number_column(thr, &w[W_NLINK], (unsigned long long)e->nlink);
    ff_out_byte(thr, ' ');
    owners(st, w);
    ff_out_byte(thr, ' ');
    size_or_device(thr, w, e);
    ff_out_byte(thr, ' ');
    mtime(st, w);
    ff_out_byte(thr, ' ');
    ls_name(thr, we->path, we->path_len);
    if (e->type == FRD_TYPE_LNK) {
        link_target(st);
    }
    ff_out_byte(thr, '\n');
    ff_file_end(expr->file, thr);
    return true;
}
