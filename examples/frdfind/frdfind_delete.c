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

#include "frdfind.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/** find never removes "." given as a root (it would remove the working directory). */
static bool is_dot(const struct frd_walk_entry *we)
{
    return we->depth == 0 && strcmp(we->path, ".") == 0;
}

bool ff_delete_eval(const struct frd_walk_entry *we, struct ff_thread *thr)
{
    if (is_dot(we)) {
        return true;
    }
    int flags = we->entry->type == FRD_TYPE_DIR ? AT_REMOVEDIR : 0;
    int rc;
    if (we->depth > 0) {
        if (we->parent_fd == FRD_INVALID_FD) {
            errno = ENOENT;
            rc = -1;
        } else {
            rc = unlinkat((int)we->parent_fd, we->entry->name, flags);
        }
    } else {
        // A root: by its name as given, from the current directory (as find).
        rc = unlinkat(AT_FDCWD, we->path, flags);
    }
    if (rc == 0) {
        return true;
    }
    int err = errno;
    ff_out_before_error(thr);
    ff_error_quoted("cannot delete ", we->path, err);
    return false;
}
