// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A test shim for tests/cli/frdindex_dbfile.sh, loaded with LD_PRELOAD into frdindex (and
 * so into SQLite): just before the first open() that may create a file whose name ends in
 * $SHIM_SUFFIX, it makes that file itself, owned by uid $SHIM_UID with mode 0666, and keeps
 * a hard link to it at NAME.planted, as another user would who made the file between
 * frdindex's check of the name and the open (the race a check alone cannot close). The test
 * then reads NAME.planted: whatever frdindex or SQLite wrote into the file is there.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int open_fn(const char *, int, ...);
typedef int openat_fn(int, const char *, int, ...);

/** Plants the file if `name` is the one to race for (once). */
static void plant(int dirfd, const char *name, int flags)
{
    static int done;
    const char *suffix = getenv("SHIM_SUFFIX");
    size_t len = strlen(name), slen = suffix != NULL ? strlen(suffix) : 0;
    if (suffix == NULL || !(flags & O_CREAT) || len < slen ||
        strcmp(name + len - slen, suffix) != 0 || __atomic_exchange_n(&done, 1, __ATOMIC_SEQ_CST)) {
        return;
    }
    openat_fn *real = (openat_fn *)dlsym(RTLD_NEXT, "openat");
    int fd = real(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        perror("sidefile_shim: plant");
        return;
    }
    const char *owner = getenv("SHIM_UID");
    uid_t uid = owner != NULL ? (uid_t)strtoul(owner, NULL, 10) : 65534;
    char keep[4096];
    snprintf(keep, sizeof(keep), "%s.planted", name);
    if (fchown(fd, uid, uid) != 0 || fchmod(fd, 0666) != 0 || linkat(dirfd, name, dirfd, keep, 0)) {
        perror("sidefile_shim: plant");
    }
    close(fd);
}

int open(const char *name, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    plant(AT_FDCWD, name, flags);
    open_fn *real = (open_fn *)dlsym(RTLD_NEXT, "open");
    return real(name, flags, mode);
}

int openat(int dirfd, const char *name, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    plant(dirfd, name, flags);
    openat_fn *real = (openat_fn *)dlsym(RTLD_NEXT, "openat");
    return real(dirfd, name, flags, mode);
}

int open64(const char *name, int flags, ...) __attribute__((alias("open")));
int openat64(int dirfd, const char *name, int flags, ...) __attribute__((alias("openat")));
