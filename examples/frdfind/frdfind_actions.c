// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's actions on standard output and on the walk: -print and -print0 (the path, as
 * find writes it to a terminal or not, or colored with -color), -printf (a compiled
 * format, frdfind_printf.c), -count (counted per worker, printed at the end), -prune (the
 * directory is not entered, unless -depth) and -quit (the walk stops).
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_actions.h"

#include "frdfind_color.h"
#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"
#include "frdfind_printf.h"

int ff_parse_print(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)fp;
    (void)argv;
    expr->sep = (char)expr->prim->param;
    return 0;
}

bool ff_eval_print(const struct ff_expr *expr, struct ff_eval *st)
{
    if (expr->sep == '\n' && st->ctx->opts.color) {
        ff_color_print(st); // bfs's -color writes names as they are, as bfs does
        return true;
    }
    struct ff_thread *thr = st->thr;
    // -print0's output is for programs: never marked (find's is not either).
    ff_out_to_tty(thr, expr->sep == '\n' && ff_out_stdout_is_tty(st->ctx));
    ff_out_append_name(thr, st->we->path, st->we->path_len);
    ff_out_byte(thr, expr->sep);
    ff_out_end_record(thr);
    return true;
}

int ff_parse_printf(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    unsigned needs = 0;
    if (ff_format_compile(ff_parser_ctx(fp), argv[1], "standard output", &expr->format, &needs) !=
        0) {
        return -1; // (its message is printed)
    }
    expr->needs |= needs;
    return 0;
}

bool ff_eval_printf(const struct ff_expr *expr, struct ff_eval *st)
{
    ff_out_to_tty(st->thr, ff_out_stdout_is_tty(st->ctx));
    ff_format_render(expr->format, st);
    ff_out_end_record(st->thr);
    return true;
}

int ff_parse_count(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    ff_parser_opts(fp)->count = true;
    return 0;
}

bool ff_eval_count(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    ff_out_count(st->thr);
    return true;
}

int ff_parse_prune(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    ff_parser_opts(fp)->prunes = true;
    return 0;
}

bool ff_eval_prune(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    if (!st->ctx->opts.depth) {
        st->res.prune = true;
    }
    return true;
}

bool ff_eval_quit(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    st->res.quit = true;
    return true;
}
