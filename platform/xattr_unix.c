/*
 * Extended attributes of one entry, named relative to its directory's descriptor
 * (FRD_WALK_XATTRS): listxattrat()/getxattrat() on Linux 6.13+ (raw syscalls: glibc has no
 * wrappers yet), else the entry opened O_PATH|O_NOFOLLOW and read through /proc/self/fd/N
 * (never its path, never following the entry if it is a link, never opening a FIFO or a
 * device for I/O). Other Unix backends (macOS included: it has no *at calls for them):
 * FRD_ENOTSUP (frd.h says so).
 */
#include "internal.h"
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#    include <sys/syscall.h>
#    include <sys/xattr.h>

/* The syscalls' numbers, the same on every architecture since 6.13 (unified table). */
#    ifndef __NR_getxattrat
#        define __NR_getxattrat 464
#    endif
#    ifndef __NR_listxattrat
#        define __NR_listxattrat 465
#    endif

/** The kernel's struct xattr_args (linux/xattr.h, 6.13). */
struct frd__xattr_args {
    uint64_t value;
    uint32_t size;
    uint32_t flags;
};

/** -1: not known yet, 0: the *at calls are missing (ENOSYS), 1: they work. */
static atomic_int have_at = -1;

/** How to reach the entry: by (dir, name) with the *at calls, or by an O_PATH descriptor. */
struct xa_target {
    int dir;
    const char *name;
    unsigned at_flags; /**< AT_SYMLINK_NOFOLLOW, or 0 to follow a link */
    int fd;            /**< -1: the *at calls are used */
    char proc[32];
};

static ssize_t xa_list(struct xa_target *t, char *buf, size_t size)
{
    if (t->fd < 0) {
        return syscall(__NR_listxattrat, t->dir, t->name, t->at_flags, buf, size);
    }
    return listxattr(t->proc, buf, size); // follows the magic link to the fd's own inode
}

static ssize_t xa_get(struct xa_target *t, const char *attr, void *buf, size_t size)
{
    if (t->fd < 0) {
        struct frd__xattr_args args = {.value = (uint64_t)(uintptr_t)buf, .size = (uint32_t)size};
        return syscall(__NR_getxattrat, t->dir, t->name, t->at_flags, attr, &args, sizeof(args));
    }
    return getxattr(t->proc, attr, buf, size);
}

/** The list of names into b->names. @return its length in bytes, or -errno. */
static ssize_t xa_names(struct xa_target *t, struct frd__xattr_buf *b)
{
    for (;;) {
        if (FRD__RESERVE(b->names, b->names_cap, 256, 256) < 0) {
            return FRD_ENOMEM;
        }
        ssize_t n = xa_list(t, b->names, b->names_cap);
        if (n >= 0) {
            return n;
        }
        if (errno != ERANGE) {
            return -errno;
        }
        ssize_t need = xa_list(t, NULL, 0); // the list grew meanwhile, or the buffer is small
        if (need < 0) {
            return -errno;
        }
        if (FRD__RESERVE(b->names, b->names_cap, (size_t)need + 1, 256) < 0) {
            return FRD_ENOMEM;
        }
    }
}

/** The value of `attr` at b->values + off, at most `max` bytes. @return its size, -errno. */
static ssize_t xa_value(struct xa_target *t, struct frd__xattr_buf *b, size_t off, const char *attr,
                        size_t max, bool *too_long)
{
    *too_long = false;
    for (;;) {
        size_t room = b->values_cap - off;
        ssize_t n = xa_get(t, attr, b->values + off, room < max ? room : max);
        if (n >= 0) {
            return n;
        }
        if (errno != ERANGE) {
            return -errno;
        }
        ssize_t need = xa_get(t, attr, NULL, 0);
        if (need < 0) {
            return -errno;
        }
        if ((size_t)need > max) {
            *too_long = true; // reported with its real size, no bytes
            return need;
        }
        if (FRD__RESERVE(b->values, b->values_cap, off + (size_t)need, 256) < 0) {
            return FRD_ENOMEM;
        }
    }
}

static int xa_read(struct xa_target *t, size_t value_max, struct frd__xattr_buf *b)
{
    ssize_t len = xa_names(t, b);
    if (len <= 0) {
        return (int)len; // 0: no xattrs
    }
    size_t count = 0;
    for (ssize_t i = 0; i < len; i += (ssize_t)strlen(b->names + i) + 1) {
        count++;
    }
    if (FRD__RESERVE(b->items, b->items_cap, count, 8) < 0) {
        return FRD_ENOMEM;
    }
    size_t off = 0, k = 0;
    for (ssize_t i = 0; i < len && k < count; i += (ssize_t)strlen(b->names + i) + 1) {
        const char *attr = b->names + i;
        if (FRD__RESERVE(b->values, b->values_cap, off + 256, 256) < 0) {
            return FRD_ENOMEM;
        }
        bool too_long;
        ssize_t n = xa_value(t, b, off, attr, value_max, &too_long);
        if (n == -ENODATA) {
            continue; // removed since it was listed
        }
        if (n < 0) {
            return (int)n;
        }
        b->items[k] = (struct frd_xattr){.name = attr,
                                         .name_len = strlen(attr),
                                         .value = (const void *)(uintptr_t)off,
                                         .value_len = (size_t)n,
                                         .too_long = too_long};
        off += too_long ? 0 : (size_t)n;
        k++;
    }
    for (size_t j = 0; j < k; j++) { // the values' buffer may have moved: offsets to pointers
        b->items[j].value =
            b->items[j].too_long ? NULL : b->values + (size_t)(uintptr_t)b->items[j].value;
    }
    return (int)k;
}

int frd__plat_read_xattrs(frd_os_fd dir, const char *name, bool follow, size_t value_max,
                          struct frd__xattr_buf *b)
{
    struct xa_target t = {.dir = dir == FRD_INVALID_FD ? AT_FDCWD : dir,
                          .name = name,
                          .at_flags = follow ? 0 : AT_SYMLINK_NOFOLLOW,
                          .fd = -1};
    int at = atomic_load_explicit(&have_at, memory_order_relaxed);
    if (at < 0 && getenv("FRD_XATTR_NO_AT") != NULL) {
        at = 0; // the tests' way to run the fallback on a kernel that has the *at calls
        atomic_store_explicit(&have_at, 0, memory_order_relaxed);
    }
    if (at != 0) {
        int r = xa_read(&t, value_max, b);
        if (r != -ENOSYS) {
            if (at < 0) {
                atomic_store_explicit(&have_at, 1, memory_order_relaxed);
            }
            return r == -EOPNOTSUPP ? FRD_ENOTSUP : r;
        }
        atomic_store_explicit(&have_at, 0, memory_order_relaxed); // a kernel before 6.13
    }
    t.fd = openat(t.dir, name, O_PATH | (follow ? 0 : O_NOFOLLOW) | O_CLOEXEC);
    if (t.fd < 0) {
        return -errno;
    }
    snprintf(t.proc, sizeof(t.proc), "/proc/self/fd/%d", t.fd);
    int r = xa_read(&t, value_max, b);
    close(t.fd);
    return r == -EOPNOTSUPP ? FRD_ENOTSUP : r;
}

#else

int frd__plat_read_xattrs(frd_os_fd dir, const char *name, bool follow, size_t value_max,
                          struct frd__xattr_buf *b)
{
    (void)dir;
    (void)name;
    (void)follow;
    (void)value_max;
    (void)b;
    return FRD_ENOTSUP; // not yet on this backend (frd.h says so)
}

#endif
