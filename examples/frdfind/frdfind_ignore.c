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
#include "errtext.h"
#include "frdfind.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/** Appends arg to one of the options' lists. @return 0, or -1 (reported). */
static int ig_push(const char ***v, size_t *n, const char *arg)
{
    const char **nv = realloc(*v, (*n + 1) * sizeof(*nv));
    if (nv == NULL) {
        ff_error("out of memory");
        return -1;
    }
    nv[(*n)++] = arg;
    *v = nv;
    return 0;
}

struct ff_expr *ff_ignore_parse(struct ff_parser *fp, const char *tok, bool *handled)
{
    struct ff_options *o = ff_parser_opts(fp);
    struct ff_ignore_opts *io = &o->ignore;
    *handled = true;
    const char *arg;
    if (strcmp(tok, "-gitignore") == 0) {
        io->flags |= FRD_IGNORE_GIT;
    } else if (strcmp(tok, "-no-require-git") == 0) {
        io->flags |= FRD_IGNORE_GIT | FRD_IGNORE_NO_REQUIRE_GIT;
    } else if (strcmp(tok, "-dot-ignore") == 0) {
        io->flags |= FRD_IGNORE_DOT_IGNORE;
        io->fdignore = true;
    } else if (strcmp(tok, "-exclude-caches") == 0) {
        io->flags |= FRD_IGNORE_CACHEDIR_TAG;
    } else if (strcmp(tok, "-ignore-file") == 0) {
        if ((arg = ff_parser_arg(fp, tok)) == NULL || ig_push(&io->files, &io->nfiles, arg) < 0) {
            return NULL;
        }
    } else if (strcmp(tok, "-exclude-if-present") == 0) {
        if ((arg = ff_parser_arg(fp, tok)) == NULL) {
            return NULL;
        }
        if (*arg == '\0' || strchr(arg, '/') != NULL) {
            ff_parser_fail(fp, "-exclude-if-present takes a file name, without '/'");
            return NULL;
        }
        if (ig_push(&io->present, &io->npresent, arg) < 0) {
            return NULL;
        }
    } else {
        *handled = false;
        return NULL;
    }
    io->any = true;
    return ff_parser_node(fp, FF_TRUE);
}

int ff_ignore_build(const struct ff_options *opts, struct frd_ignore **out)
{
    const struct ff_ignore_opts *io = &opts->ignore;
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
        ff_error(tool_strerror(rc));
        frd_ignore_free(ig);
        return -1;
    }
    for (size_t i = 0; i < io->nfiles; i++) {
        rc = frd_ignore_add_file(ig, io->files[i]);
        if (rc < 0) {
            ff_error_path(io->files[i], tool_strerror(rc));
            frd_ignore_free(ig);
            return -1;
        }
    }
    *out = ig;
    return 0;
}

void ff_ignore_free(struct ff_options *opts)
{
    free(opts->ignore.files);
    free(opts->ignore.present);
    memset(&opts->ignore, 0, sizeof(opts->ignore));
}
