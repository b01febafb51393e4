// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ignore primaries, frdfind's extensions (the library's opts.ignore, frd_ignore(3)):
 * -gitignore (git's rules), -no-require-git (those rules outside a work tree too),
 * -dot-ignore (.ignore and .fdignore files, with ripgrep's and fd's precedence),
 * -ignore-file FILE (rules relative to each root), -exclude-caches (CACHEDIR.TAG with the
 * specification's signature) and -exclude-if-present NAME. Like -xdev they act on the whole
 * walk wherever they stand and are true there; what they skip is never stat'ed, and an
 * ignored directory is not opened.
 */
#include "frdfind_ignore.h"

#include "errtext.h"
#include "frdfind_ctx.h"
#include "frdfind_msg.h"
#include "frdfind_options.h"
#include "frdfind_parse.h"
#include "grow.h"

#include <string.h>

TOOL_RESERVE_DEFINE(ig_reserve, const char *, 4)

/** Appends arg to one of the options' lists. @return 0, or -1 (reported). */
static int ig_push(struct ff_parser *fp, const char ***v, size_t *n, size_t *cap, const char *arg)
{
    if (ig_reserve(v, cap, *n + 1) < 0) {
        ff_error(ff_parser_ctx(fp), "out of memory");
        return -1;
    }
    (*v)[(*n)++] = arg;
    return 0;
}

int ff_parse_ignore(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    struct ff_ignore_opts *io = &ff_parser_opts(fp)->ignore;
    io->any = true;
    switch ((enum ff_ignore_kind)expr->prim->param) {
    case FF_IGNORE_GIT:
        io->flags |= FRD_IGNORE_GIT;
        return 0;
    case FF_IGNORE_NO_REQUIRE:
        io->flags |= FRD_IGNORE_GIT | FRD_IGNORE_NO_REQUIRE_GIT;
        return 0;
    case FF_IGNORE_DOT:
        io->flags |= FRD_IGNORE_DOT_IGNORE;
        io->fdignore = true;
        return 0;
    case FF_IGNORE_CACHES:
        io->flags |= FRD_IGNORE_CACHEDIR_TAG;
        return 0;
    case FF_IGNORE_FILE:
        return ig_push(fp, &io->files, &io->nfiles, &io->files_cap, argv[1]);
    case FF_IGNORE_IF_PRESENT:
        if (argv[1][0] == '\0' || strchr(argv[1], '/') != NULL) {
            ff_parser_fail(fp, "-exclude-if-present takes a file name, without '/'");
            return -1;
        }
        return ig_push(fp, &io->present, &io->npresent, &io->present_cap, argv[1]);
    }
    return 0;
}

int ff_ignore_build(struct ff_ctx *ctx, struct frd_ignore **out)
{
    const struct ff_ignore_opts *io = &ctx->opts.ignore;
    *out = NULL;
    if (!io->any) {
        return 0;
    }
    struct frd_ignore *ig;
    int rc = frd_ignore_new(&ig, io->flags);
    if (rc == 0 && io->fdignore) {
        rc = frd_ignore_add_name(ig, ".fdignore");
    }
    for (size_t i = 0; rc == 0 && i < io->npresent; i++) {
        rc = frd_ignore_add_if_present(ig, io->present[i]);
    }
    if (rc < 0) {
        ff_error(ctx, tool_strerror(rc));
        frd_ignore_free(ig);
        return -1;
    }
    for (size_t i = 0; i < io->nfiles; i++) {
        rc = frd_ignore_add_file(ig, io->files[i]);
        if (rc < 0) {
            ff_error_path(ctx, io->files[i], tool_strerror(rc));
            frd_ignore_free(ig);
            return -1;
        }
    }
    *out = ig;
    return 0;
}
