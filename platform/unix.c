// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * What the Linux, macOS and portable Unix backends do alike: open and close directories
 * with openat, read files and links by descriptor, read the descriptor limit and a thread's
 * times, hold address space while threads start. Compiled with platform/linux.c,
 * platform/posix.c or platform/darwin.c.
 */
#include "internal.h"
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int frd__plat_open_dir(frd_os_fd parent, const char *name, unsigned open_flags, frd_os_fd *out)
{
    int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    if (open_flags & FRD_OPEN_NOFOLLOW) {
        flags |= O_NOFOLLOW;
    }
    int fd;
    do {
        fd = openat(parent == FRD_INVALID_FD ? AT_FDCWD : parent, name, flags);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        int err = errno;
        // With O_DIRECTORY, Linux (and some macOS file systems) answer ENOTDIR, not ELOOP, for
        // a symlink: tell them apart here, on the error path only, so callers see one code
        // for "a link, not followed".
        struct stat st;
        if (err == ENOTDIR && (open_flags & FRD_OPEN_NOFOLLOW) &&
            fstatat(parent == FRD_INVALID_FD ? AT_FDCWD : parent, name, &st, AT_SYMLINK_NOFOLLOW) ==
                0 &&
            S_ISLNK(st.st_mode)) {
            err = ELOOP;
        }
        return -err;
    }
    *out = fd;
    return 0;
}

void frd__plat_close_dir(frd_os_fd fd)
{
    // Linux (and POSIX.1-2024) close the descriptor even when close() reports EINTR:
    // never retry.
    close(fd);
}

int frd__plat_read_file_at(frd_os_fd dir, const char *name, bool follow, size_t max, char **buf,
                           size_t *len)
{
    int fd;
    do {
        fd = openat(dir == FRD_INVALID_FD ? AT_FDCWD : dir, name,
                    O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        return (errno == ELOOP || errno == ENOTDIR || errno == ENXIO) ? FRD_ENOENT : -errno;
    }
    struct stat st;
    int rc = 0;
    char *b = NULL;
    size_t n = 0;
    if (fstat(fd, &st) < 0) {
        rc = -errno;
    } else if (!S_ISREG(st.st_mode)) {
        rc = FRD_ENOENT;
    } else if ((uint64_t)st.st_size > max) {
        rc = FRD_EOVERFLOW;
    } else if ((b = frd__malloc((size_t)st.st_size + 1)) == NULL) {
        rc = FRD_ENOMEM;
    }
    while (rc == 0 && n < (size_t)st.st_size) {
        ssize_t r = read(fd, b + n, (size_t)st.st_size - n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            rc = -errno;
        } else if (r == 0) {
            break; // shrunk since the fstat: what is there
        } else {
            n += (size_t)r;
        }
    }
    close(fd);
    if (rc < 0 || b == NULL) { // (b is set whenever rc is 0: said for the analyzer)
        frd__free(b);
        return rc < 0 ? rc : FRD_ENOMEM;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

const void *frd__plat_memmem(const void *hay, size_t hlen, const void *needle, size_t nlen)
{
    return memmem(hay, hlen, needle, nlen);
}

char *frd__plat_real_path(const char *path)
{
    return realpath(path, NULL);
}

unsigned frd__plat_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
        return 0;
    }
    return rl.rlim_cur > UINT32_MAX ? UINT32_MAX : (unsigned)rl.rlim_cur;
}

int frd__plat_room_hold(struct frd__plat_room *room, size_t len)
{
    room->base = NULL;
    room->len = 0;
    struct rlimit rl;
    if (len == 0 || getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
        return 0;
    }
    // PROT_NONE and MAP_NORESERVE: address space only, no memory committed.
    void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        return FRD_ENOMEM;
    }
    room->base = p;
    room->len = len;
    return 0;
}

void frd__plat_room_free(struct frd__plat_room *room)
{
    if (room->base != NULL) {
        munmap(room->base, room->len);
        room->base = NULL;
    }
}

bool frd__plat_searches_everything(void)
{
    return geteuid() == 0; // root is not held back by a directory's search bit
}

int frd__plat_thread_times(struct frd__thread_times *out)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) {
        return -errno;
    }
    out->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    out->blocks = 0;
    out->preemptions = 0;
    out->switches = false;
#ifdef RUSAGE_THREAD
    // Where the thread's own counts exist (Linux). Reading /proc/thread-self/schedstat for
    // the run-queue wait instead was measured at up to 3 ms a read here.
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
        out->blocks = (uint64_t)ru.ru_nvcsw;
        out->preemptions = (uint64_t)ru.ru_nivcsw;
        out->switches = true;
    }
#endif
    return 0;
}

int frd__plat_read_link(frd_os_fd dir, const char *name, size_t hint, char **buf, size_t *cap)
{
    size_t want = hint + 1 > 64 ? hint + 1 : 64;
    for (;;) {
        if (FRD__RESERVE(*buf, *cap, want, 64) < 0) {
            return FRD_ENOMEM;
        }
        ssize_t n = readlinkat(dir == FRD_INVALID_FD ? AT_FDCWD : dir, name, *buf, *cap);
        if (n < 0) {
            return -errno;
        }
        if ((size_t)n < *cap) {
            (*buf)[n] = '\0';
            return n > INT32_MAX ? FRD_EOVERFLOW : (int)n;
        }
        want = *cap * 2; // it filled the buffer: the target may be longer (it grew meanwhile)
    }
}
