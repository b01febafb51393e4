// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's output files: -fprint, -fprint0, -fprintf, and -fls's (its line:
 * frdfind_ls.c).
 *
 * Output files are opened (created, truncated) once, at parse time, as find opens them;
 * one file named twice (or by two names) shares one stream. A record is rendered into the
 * thread's buffer, cut off it and written to the stream whole with one fwrite() (stdio locks
 * the stream). Write errors are reported when the files are closed after the walk. The
 * run's files are its struct ff_files (ctx->files), made by the parse of the first one.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_file.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"
#include "frdfind_printf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int ff_file_open(struct ff_ctx *ctx, const char *name, struct ff_file **out)
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

void ff_file_begin(struct ff_file *file, struct ff_thread *thr)
{
    if (file != NULL && file->fp != stdout) {
        ff_out_file_begin(thr, file->fp);
    }
}

void ff_file_end(struct ff_file *file, struct ff_thread *thr)
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
    return ff_file_open(ff_parser_ctx(fp), argv[1], &expr->file) != 0 ? -1 : 0;
}

bool ff_eval_fprint(const struct ff_expr *expr, struct ff_eval *st)
{
    struct ff_thread *thr = st->thr;
    ff_file_begin(expr->file, thr);
    ff_out_to_tty(thr, expr->file->tty && expr->sep == '\n'); // -fprint0: never marked
    ff_out_append_name(thr, st->we->path, st->we->path_len);
    ff_out_byte(thr, expr->sep);
    ff_file_end(expr->file, thr);
    return true;
}

int ff_parse_fprintf(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    struct ff_ctx *ctx = ff_parser_ctx(fp);
    const char *name = argv[1];
    expr->sep = '\n';
    if (ff_file_open(ctx, name, &expr->file) != 0) {
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
    ff_file_begin(expr->file, thr);
    ff_out_to_tty(thr, expr->file->tty);
    ff_format_render(expr->format, st);
    ff_file_end(expr->file, thr);
    return true;
}

/** Closes every file, reporting write errors as find does if `report`, and frees them. */
static void close_all(struct ff_ctx *ctx, bool report)
{
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
