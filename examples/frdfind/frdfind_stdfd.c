// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's standard descriptors: 0, 1 and 2 stay taken for the whole run, so that no file
 * frdfind opens (an -fprint file, a directory of the walk) lands on one of them when the
 * caller closed it. Otherwise `frdfind DIR -fprint out -print >&-` would give "out" the
 * descriptor of standard output and every path would go into it twice, and with `2>&-`
 * the error messages would go into it.
 *
 * GNU find gets the same result differently: gnulib's fd-safer functions move every
 * descriptor it opens above 2. frdfind cannot do that for the walk's own descriptors, so
 * a closed one is taken at start by /dev/null, opened the other way round (write-only for
 * 0, read-only for 1 and 2, as gnulib's stdopen() does): every read or write on it fails
 * with EBADF, as on a closed descriptor, and so does find's close of standard output at
 * exit (ff_std_was_closed()). It is close-on-exec: commands of -exec see it closed, as
 * find's commands do.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_stdfd.h"

#include "frdfind_ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int ff_std_reserve(unsigned *closed)
{
    *closed = 0;
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) {
            continue;
        }
        // The lowest free descriptor is fd itself (those below it are open by now).
        int got = open("/dev/null", (fd == STDIN_FILENO ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
        if (got < 0) {
            return -1;
        }
        if (got != fd) { // (only if another thread closed one below fd: none runs yet)
            int moved = dup2(got, fd);
            close(got);
            if (moved < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
                return -1;
            }
        }
        *closed |= 1u << fd;
    }
    return 0;
}

bool ff_std_was_closed(const struct ff_ctx *ctx, int fd)
{
    return fd >= STDIN_FILENO && fd <= STDERR_FILENO && (ctx->std_closed & (1u << fd)) != 0;
}
