// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -delete: removes the entry with unlinkat() relative to the descriptor of the
 * directory the walker listed it from (AT_REMOVEDIR for a directory), never by its path,
 * so a directory swapped for a symbolic link during the walk cannot lead the removal
 * outside the tree: unlinkat() acts on the name in that directory and never follows a link
 * in it. -delete turns -depth on (see ff_parse()), so a directory is removed after
 * everything below it. Messages and exit status are GNU find's.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_delete.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/** find never removes "." given as a root (it would remove the working directory). */
static bool is_dot(const struct frd_walk_entry *we)
{
    return we->depth == 0 && strcmp(we->path, ".") == 0;
}

/** unlinkat() on the entry: in its parent's descriptor, or a root by its name as given,
 *  from the current directory (as find). @return 0, or -1 with errno. */
static int remove_entry(const struct frd_walk_entry *we, int flags)
{
    if (we->depth == 0) {
        return unlinkat(AT_FDCWD, we->path, flags);
    }
    if (we->parent_fd == FRD_INVALID_FD) {
        errno = ENOENT;
        return -1;
    }
    return unlinkat((int)we->parent_fd, we->entry->name, flags);
}

int ff_parse_delete(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    struct ff_options *o = ff_parser_opts(fp);
    o->deletes = true;
    o->depth = true; // find: -delete turns -depth on
    return 0;
}

bool ff_eval_delete(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    const struct frd_walk_entry *we = st->we;
    if (is_dot(we)) {
        return true;
    }
    int flags = we->entry->type == FRD_TYPE_DIR ? AT_REMOVEDIR : 0;
    int rc = remove_entry(we, flags);
    if (rc < 0 && errno == EISDIR && flags == 0) {
        rc = remove_entry(we, AT_REMOVEDIR); // a type the listing did not know: a directory
    }
    if (rc == 0 || (errno == ENOENT && st->ctx->opts.ignore_race)) {
        return true; // with -ignore_readdir_race, one gone already counts as removed (find)
    }
    int err = errno;
    ff_out_before_error(st->thr);
    ff_error_quoted(st->ctx, "cannot delete ", we->path, err);
    return false;
}
