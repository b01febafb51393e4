// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Portable backend for Unix systems without a faster path: readdir + fstatat (skipped when
 * only type and file id are wanted and the record has d_type).
 *
 * The caller's descriptor is dup'ed for fdopendir, which takes ownership of what it is
 * given; the duplicate shares the file position, so the caller's descriptor is read from
 * where it stood (or from the start with FRD_LIST_REWIND) and left at the end, as on Linux.
 * CMake can select this backend on Linux (-DFRD_BACKEND=posix) so its tests run here too.
 */
#include "internal.h"
#include "platform.h"
#include "unix_stat.h"
#include "unix_types.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

void (*frd__test_before_stat)(frd_os_fd dir, const char *name);

const unsigned frd__plat_record_fields = FRD__DIRENT_FIELDS;

#if FRD_HAS_DIRENT_D_TYPE
// d_type values are the same on every Unix that has them (they are S_IFMT >> 12).
#    define PX_SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(PX_SAME(DT_FIFO, FRD__DT_FIFO) && PX_SAME(DT_CHR, FRD__DT_CHR) &&
                   PX_SAME(DT_DIR, FRD__DT_DIR) && PX_SAME(DT_BLK, FRD__DT_BLK) &&
                   PX_SAME(DT_REG, FRD__DT_REG) && PX_SAME(DT_LNK, FRD__DT_LNK) &&
                   PX_SAME(DT_SOCK, FRD__DT_SOCK),
               "d_type values");
#    define PX_DTYPE(d) frd__type_from_dt((d)->d_type)
#else
#    define PX_DTYPE(d) FRD_TYPE_UNKNOWN
#endif

bool frd__plat_force_fallback(bool on)
{
    (void)on;
    return false;
}

/** Entries per batch (frd__plat_list_batch()): about what a 64 KiB buffer holds. */
#define PX_BATCH_ENTRIES 1024

/** Opens a DIR stream on a duplicate of `fd` (rewound with FRD_LIST_REWIND).
 *  @return the stream, or NULL with *err and `op` set. */
static DIR *px_open(const struct frd_lister *lister, int fd, int *err, struct frd__failure *op)
{
    int dupfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (dupfd < 0) {
        *err = -errno;
        frd__failure_set(op, "dup", FRD_OP_OPEN);
        return NULL;
    }
    DIR *dir = fdopendir(dupfd);
    if (dir == NULL) {
        *err = -errno;
        close(dupfd);
        frd__failure_set(op, "fdopendir", FRD_OP_OPEN);
        return NULL;
    }
    if (lister->flags & FRD_LIST_REWIND) {
        rewinddir(dir);
    }
    return dir;
}

/**
 * Reads records from `dir` until `limit` entries were appended or the stream ends.
 * @return entries appended (*end true when the stream ended), or a negative code.
 */
static int px_read(const struct frd_lister *lister, DIR *dir, struct frd_list *list, int limit,
                   bool *end, struct frd__failure *op)
{
    unsigned wanted = frd__wanted_fields(lister->flags, lister->wanted);
    bool dirent_only = (wanted & ~(unsigned)FRD__DIRENT_FIELDS) == 0;
    int total = 0;
    *end = false;
    while (total < limit) {
        errno = 0;
        struct dirent *d = readdir(dir);
        if (d == NULL) {
            if (errno != 0) {
                frd__failure_set(op, "readdir", FRD_OP_READ_DIR);
                return -errno;
            }
            *end = true;
            break;
        }
        const char *name = d->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) {
            continue;
        }
        struct frd_entry *e = frd__list_push(list, name, strlen(name));
        if (e == NULL) {
            frd__failure_set(op, "append", FRD_OP_ALLOC);
            return FRD_ENOMEM;
        }
        enum frd_type dtype = PX_DTYPE(d);
        if (dirent_only && frd__record_answers(wanted, dtype)) {
            // The record answers: no stat. Its d_ino is the st_ino (not a directory).
            e->type = dtype;
            e->fields = FRD_FIELD_TYPE;
            if (wanted & FRD_FIELD_FILE_ID) {
                e->file_id = (uint64_t)d->d_ino;
                e->fields |= FRD_FIELD_FILE_ID;
            }
            total++;
            continue;
        }
        if (frd__test_before_stat != NULL) {
            frd__test_before_stat(dirfd(dir), name);
        }
        int err = frd__unix_fstatat(dirfd(dir), e->name, AT_SYMLINK_NOFOLLOW, wanted, e);
        if (frd__unix_settle_stat(list, e, err, dtype)) {
            total++;
        }
    }
    return total;
}

int frd__plat_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                      struct frd__failure *op)
{
    int err = 0;
    DIR *dir = px_open(lister, fd, &err, op);
    if (dir == NULL) {
        return err;
    }
    bool end;
    int rc = px_read(lister, dir, list, INT32_MAX, &end, op);
    closedir(dir);
    return rc;
}

int frd__plat_list_batch(struct frd_lister *lister, struct frd_list *list, struct frd__failure *op)
{
    if (!lister->batch_started) {
        int err = 0;
        DIR *dir = px_open(lister, lister->batch_fd, &err, op);
        if (dir == NULL) {
            return err;
        }
        lister->batch_state = dir;
        lister->batch_started = true;
    }
    bool end = false;
    int rc = 0;
    while (rc == 0 && !end) {
        rc = px_read(lister, lister->batch_state, list, PX_BATCH_ENTRIES, &end, op);
    }
    return rc;
}

void frd__plat_batch_end(struct frd_lister *lister)
{
    if (lister->batch_state != NULL) {
        closedir(lister->batch_state);
        lister->batch_state = NULL;
    }
}

// What the walker needs. POSIX has no portable file system type, so every volume is
// untrusted here: the walker then compares canonical paths where it can (it cannot here:
// frd__plat_fd_path() is FRD_ENOSYS) and otherwise falls back to (dev, ino).

int frd__plat_stat_fields(frd_os_fd dir, const char *name, bool follow, unsigned wanted,
                          struct frd_entry *e)
{
    return frd__unix_fstatat(dir == FRD_INVALID_FD ? AT_FDCWD : dir, name,
                             follow ? 0 : AT_SYMLINK_NOFOLLOW, wanted, e);
}

int frd__plat_fd_identity(frd_os_fd fd, struct frd__identity *out)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        return -errno;
    }
    out->dev = (uint64_t)st.st_dev;
    out->ino = (uint64_t)st.st_ino;
    out->subvol = 0;
    return 0;
}

enum frd__vol_class frd__plat_classify_fs_type(uint64_t fs_type)
{
    (void)fs_type;
    return FRD__VOL_UNTRUSTED;
}

int frd__plat_volume_class(frd_os_fd fd, enum frd__vol_class *out)
{
    (void)fd;
    *out = FRD__VOL_UNTRUSTED;
    return 0;
}

int frd__plat_fd_path(frd_os_fd fd, char *buf, size_t cap)
{
    (void)fd;
    (void)buf;
    (void)cap;
    return FRD_ENOSYS;
}

bool frd__plat_mounts_may_cycle(void)
{
    return true; // cannot tell here: every directory is checked
}

void frd__plat_lister_release(struct frd_lister *lister)
{
    (void)lister; // the lister keeps nothing of this backend's
}
