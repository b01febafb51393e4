// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A test shim for tests/cli/walk_loops.sh, loaded with LD_PRELOAD into du and frddu alike:
 * renames $SHIM_FROM to $SHIM_TO just before the first openat() of a name equal to $SHIM_AT,
 * so that a directory moves at one exact point of a walk (between listing its parent and
 * opening it, or while the walk is below it), the same point for both tools.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int openat_fn(int, const char *, int, ...);

int openat(int dirfd, const char *name, int flags, ...)
{
    static int done;
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    openat_fn *real = (openat_fn *)dlsym(RTLD_NEXT, "openat");
    const char *at = getenv("SHIM_AT");
    if (at != NULL && strcmp(name, at) == 0 && !__atomic_exchange_n(&done, 1, __ATOMIC_SEQ_CST)) {
        if (rename(getenv("SHIM_FROM"), getenv("SHIM_TO")) != 0) {
            perror("rename_shim");
        }
    }
    return real(dirfd, name, flags, mode);
}

int openat64(int dirfd, const char *name, int flags, ...) __attribute__((alias("openat")));
