// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's global options in the expression, as GNU find has them: each sets an option
 * for the whole run and is a node that is true where it stands (-depth, -d, -maxdepth,
 * -mindepth, -xdev, -mount, -follow, -ignore_readdir_race, -noignore_readdir_race, and
 * bfs's -color, -nocolor); and the options' release.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_options.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_parse.h"

#include <stdlib.h>
#include <string.h>

int ff_parse_depth(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    struct ff_options *o = ff_parser_opts(fp);
    o->depth = true;
    o->depth_given = true;
    return 0;
}

int ff_parse_depth_limit(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    // find: digits only, then safe_atoi() (its own message for a number past INT_MAX).
    const char *arg = argv[1];
    size_t digits = strspn(arg, "0123456789");
    if (digits == 0 || arg[digits] != '\0') {
        char quoted[400];
        ff_parser_failf(fp, "Expected a positive decimal integer argument to %s, but got %s",
                        argv[0], ff_quoted(quoted, sizeof(quoted), arg));
        return -1;
    }
    struct ff_options *o = ff_parser_opts(fp);
    return ff_parser_int(fp, arg, expr->prim->param == 'x' ? &o->maxdepth : &o->mindepth) ? 0 : -1;
}

int ff_parse_xdev(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    ff_parser_opts(fp)->xdev = true;
    return 0;
}

int ff_parse_follow(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    ff_parser_opts(fp)->follow = FRD_FOLLOW_ALL;
    return 0;
}

int ff_parse_color(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)argv;
    // bfs's: colors on a terminal only (see ff_parse()).
    ff_parser_opts(fp)->color = expr->prim->param;
    return 0;
}

int ff_parse_race(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)argv;
    // The last of -ignore_readdir_race and -noignore_readdir_race wins, as in find.
    ff_parser_opts(fp)->ignore_race = expr->prim->param;
    return 0;
}

void ff_options_free(struct ff_options *opts)
{
    ff_expr_free(opts->expr);
    ff_expr_free(opts->exclude);
    opts->exclude = NULL;
    opts->expr = NULL;
    free(opts->paths);
    opts->paths = NULL;
    free(opts->files0_buf);
    opts->files0_buf = NULL;
    free(opts->ignore.files);
    free(opts->ignore.present);
    memset(&opts->ignore, 0, sizeof(opts->ignore));
}
