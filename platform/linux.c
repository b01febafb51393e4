// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Linux backend: openat + getdents64 into the lister's buffer, then one statx per entry.
 *
 * Per directory: openat(O_DIRECTORY), then getdents64 until it returns 0. Each record is
 * decoded by decode/dirent64.c (the kernel's buffer is not trusted), "." and ".." are
 * dropped, and the name is copied into the list's arena. A full listing then calls
 * statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, mask) for the entry, relative to
 * the directory's descriptor, so no path is resolved and a link is never followed; a
 * names-only listing calls it only for a DT_UNKNOWN record (XFS without ftype, some FUSE and
 * NFS mounts), asking for the type alone.
 *
 * Kernels before 4.11 answer ENOSYS to statx, and some container seccomp profiles EPERM
 * (runc#2151): the first such answer latches a process-wide flag and every later stat goes
 * to fstatat, which gives the same fields.
 */
#include "decode.h"
#include "internal.h"
#include "platform.h"
#include "unix_types.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

_Static_assert(FRD__DECODE_EMALFORMED == FRD_EMALFORMED, "decode/ and frd.h disagree");

/** Fields of a full listing; STATX_BLOCKS gives alloc_size at no extra cost. */
#define LX_FULL_MASK                                                                               \
    (STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_INO | STATX_SIZE | STATX_BLOCKS | STATX_MTIME | \
     STATX_CTIME)

/** Set once statx is known to be missing (ENOSYS) or forbidden (EPERM); relaxed is enough:
 *  a thread that misses the store makes one more failing statx call and then stores it too. */
static atomic_bool lx_no_statx;

void (*frd__test_before_stat)(frd_os_fd dir, const char *name);

static int64_t lx_ns(int64_t sec, int64_t nsec)
{
    return sec * 1000000000 + nsec;
}

static void lx_fill_from_statx(struct frd_entry *e, const struct statx *stx, bool names_only)
{
    e->type = frd__type_from_mode(stx->stx_mode);
    e->fields |= FRD_FIELD_TYPE;
    if (names_only) {
        return;
    }
    e->dev = makedev(stx->stx_dev_major, stx->stx_dev_minor);
    e->fields |= FRD_FIELD_DEV;
    if (stx->stx_mask & STATX_MODE) {
        e->mode = stx->stx_mode & 07777;
        e->fields |= FRD_FIELD_MODE;
    }
    if (stx->stx_mask & STATX_NLINK) {
        e->nlink = stx->stx_nlink;
        e->fields |= FRD_FIELD_NLINK;
    }
    if (stx->stx_mask & STATX_INO) {
        e->file_id = stx->stx_ino;
        e->fields |= FRD_FIELD_FILE_ID;
    }
    if (stx->stx_mask & STATX_SIZE) {
        e->size = stx->stx_size;
        e->fields |= FRD_FIELD_SIZE;
    }
    if (stx->stx_mask & STATX_BLOCKS) {
        e->alloc_size = stx->stx_blocks * 512;
        e->fields |= FRD_FIELD_ALLOC_SIZE;
    }
    if (stx->stx_mask & STATX_MTIME) {
        e->mtime_ns = lx_ns(stx->stx_mtime.tv_sec, stx->stx_mtime.tv_nsec);
        e->fields |= FRD_FIELD_MTIME;
    }
    if (stx->stx_mask & STATX_CTIME) {
        e->ctime_ns = lx_ns(stx->stx_ctime.tv_sec, stx->stx_ctime.tv_nsec);
        e->fields |= FRD_FIELD_CTIME;
    }
}

static void lx_fill_from_stat(struct frd_entry *e, const struct stat *st, bool names_only)
{
    e->type = frd__type_from_mode(st->st_mode);
    e->fields |= FRD_FIELD_TYPE;
    if (names_only) {
        return;
    }
    e->dev = st->st_dev;
    e->mode = st->st_mode & 07777;
    e->nlink = (uint32_t)st->st_nlink;
    e->file_id = st->st_ino;
    e->size = (uint64_t)st->st_size;
    e->alloc_size = (uint64_t)st->st_blocks * 512;
    e->mtime_ns = lx_ns(st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
    e->ctime_ns = lx_ns(st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
    e->fields |= FRD_FIELD_DEV | FRD_FIELD_MODE | FRD_FIELD_NLINK | FRD_FIELD_FILE_ID |
                 FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_MTIME | FRD_FIELD_CTIME;
}

/** Stats one name relative to a directory with the given AT_* flags. @return 0 or a code. */
static int lx_stat_flags(int dirfd, const char *name, int flags, bool names_only,
                         struct frd_entry *e)
{
    if (!atomic_load_explicit(&lx_no_statx, memory_order_relaxed)) {
        struct statx stx;
        unsigned mask = names_only ? STATX_TYPE : LX_FULL_MASK;
        if (statx(dirfd, name, flags, mask, &stx) == 0) {
            lx_fill_from_statx(e, &stx, names_only);
            return 0;
        }
        if (errno != ENOSYS && errno != EPERM) {
            return -errno;
        }
        atomic_store_explicit(&lx_no_statx, true, memory_order_relaxed);
    }
    struct stat st;
    if (fstatat(dirfd, name, &st, flags) != 0) {
        return -errno;
    }
    lx_fill_from_stat(e, &st, names_only);
    return 0;
}

/** Stats one entry relative to its directory. @return 0 or a negative code. */
static int lx_stat_entry(int dirfd, const char *name, bool names_only, struct frd_entry *e)
{
    return lx_stat_flags(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, names_only, e);
}

bool frd__plat_force_fallback(bool on)
{
    atomic_store_explicit(&lx_no_statx, on, memory_order_relaxed);
    return true;
}

/** Appends the records of one getdents64 batch. @return entries appended, or a code. */
static int lx_append_batch(int fd, const uint8_t *buf, size_t len, bool names_only,
                           struct frd_list *list, const char **op)
{
    int appended = 0;
    size_t pos = 0;
    struct frd__dirent64 rec;
    int rc;
    while ((rc = frd__decode_dirent64(buf, len, &pos, &rec)) > 0) {
        const char *name = rec.name;
        if (name[0] == '.' && (rec.name_len == 1 || (rec.name_len == 2 && name[1] == '.'))) {
            continue;
        }
        struct frd_entry *e = frd__list_push(list, name, rec.name_len);
        if (e == NULL) {
            *op = "append";
            return FRD_ENOMEM;
        }
        enum frd_type dtype = frd__type_from_dt(rec.type);
        if (names_only && dtype != FRD_TYPE_UNKNOWN) {
            e->type = dtype;
            e->fields = FRD_FIELD_TYPE;
            appended++;
            continue;
        }
        if (frd__test_before_stat != NULL) {
            frd__test_before_stat(fd, name);
        }
        int err = lx_stat_entry(fd, e->name, names_only, e);
        if (err == -ENOENT) {
            // Removed between the read and the stat: it is no longer there to report.
            frd__list_pop(list);
            continue;
        }
        if (err < 0) {
            e->error = err;
            e->type = dtype;
            e->fields = dtype != FRD_TYPE_UNKNOWN ? FRD_FIELD_TYPE : 0;
        }
        appended++;
    }
    if (rc < 0) {
        *op = "getdents64";
        return rc;
    }
    return appended;
}

int frd__plat_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                      const char **op)
{
    bool names_only = (lister->flags & FRD_LIST_NAMES_ONLY) != 0;
    if ((lister->flags & FRD_LIST_REWIND) && lseek(fd, 0, SEEK_SET) < 0) {
        *op = "lseek";
        return -errno;
    }
    int total = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, lister->buffer, FRD__LISTER_BUFFER_SIZE);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            *op = "getdents64";
            return -errno;
        }
        if (n == 0) {
            return total;
        }
        int got = lx_append_batch(fd, lister->buffer, (size_t)n, names_only, list, op);
        if (got < 0) {
            return got;
        }
        if (got > INT32_MAX - total) {
            *op = "getdents64";
            return FRD_EOVERFLOW;
        }
        total += got;
    }
}

// What the walker needs: stat by name, identity and volume class of an open directory.

int frd__plat_stat_at(frd_os_fd dir, const char *name, bool follow, bool names_only,
                      struct frd_entry *e)
{
    int flags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
    return lx_stat_flags(dir == FRD_INVALID_FD ? AT_FDCWD : dir, name, flags, names_only, e);
}

/** STATX_SUBVOL (Linux 6.10, btrfs and bcachefs) is newer than Debian 12's headers. */
#define LX_STATX_SUBVOL 0x8000u
/** Offset of stx_subvol in struct statx (glibc names that word __statx_pad2[2]). */
#define LX_STATX_SUBVOL_OFFSET 0xa0
_Static_assert(sizeof(struct statx) >= LX_STATX_SUBVOL_OFFSET + 8, "struct statx too small");

int frd__plat_fd_identity(frd_os_fd fd, struct frd__identity *out)
{
    if (!atomic_load_explicit(&lx_no_statx, memory_order_relaxed)) {
        struct statx stx;
        if (statx(fd, "", AT_EMPTY_PATH, STATX_INO | LX_STATX_SUBVOL, &stx) == 0) {
            out->dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
            out->ino = stx.stx_ino;
            out->subvol = 0;
            // Two btrfs subvolumes can share (dev, ino) only when mounted through one
            // st_dev; the subvolume id keeps them apart where the kernel reports it.
            if (stx.stx_mask & LX_STATX_SUBVOL) {
                memcpy(&out->subvol, (const unsigned char *)&stx + LX_STATX_SUBVOL_OFFSET, 8);
            }
            return 0;
        }
        if (errno != ENOSYS && errno != EPERM) {
            return -errno;
        }
        atomic_store_explicit(&lx_no_statx, true, memory_order_relaxed);
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        return -errno;
    }
    out->dev = st.st_dev;
    out->ino = st.st_ino;
    out->subvol = 0;
    return 0;
}

enum frd__vol_class frd__plat_classify_fs_type(uint64_t fs_type)
{
    switch (fs_type) {
    case 0xEF53:     // ext2, ext3, ext4
    case 0x58465342: // xfs
    case 0x9123683E: // btrfs: each subvolume has its own st_dev
    case 0xca451a4e: // bcachefs (with the statx subvolume)
    case 0x01021994: // tmpfs
    case 0x858458f6: // ramfs
    case 0x6969:     // nfs: the server's file ids
    case 0x7366746e: // ntfs3
    case 0x5346544e: // ntfs (old driver)
    case 0x2FC12FC1: // zfs
    case 0xF2F52010: // f2fs
    case 0x3434:     // nilfs2
    case 0x00c36400: // ceph
    case 0x01021997: // 9p
    case 0x52654973: // reiserfs
    case 0x7461636f: // ocfs2
    case 0x73717368: // squashfs
    case 0xE0F5E1E2: // erofs
    case 0x9660:     // iso9660
    case 0x15013346: // udf
    case 0x9fa0:     // proc
    case 0x62656572: // sysfs
    case 0x1cd1:     // devpts
    case 0x27e0eb:   // cgroup
    case 0x63677270: // cgroup2
    case 0x64626720: // debugfs
    case 0x74726163: // tracefs
        return FRD__VOL_STRONG;
    case 0x4d44:     // vfat, msdos: ids made up per cached inode (fs/fat/inode.c)
    case 0x2011BAB0: // exfat: the same scheme as FAT
    case 0x794c7630: // overlay: ids persist only with xino, which fstatfs cannot tell
    case 0xFF534D42: // cifs: client-made ids under noserverino
    case 0xFE534D42: // smb2
        return FRD__VOL_WEAK;
    case 0x65735546: // fuse, fuseblk: whatever the daemon reports
    default:
        return FRD__VOL_UNTRUSTED;
    }
}

int frd__plat_volume_class(frd_os_fd fd, enum frd__vol_class *out)
{
    struct statfs sfs;
    if (fstatfs(fd, &sfs) != 0) {
        return -errno;
    }
    *out = frd__plat_classify_fs_type((uint64_t)(unsigned long)sfs.f_type);
    return 0;
}

int frd__plat_fd_path(frd_os_fd fd, char *buf, size_t cap)
{
    char link[64];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    if (cap < 2) {
        return FRD_ENAMETOOLONG;
    }
    ssize_t n = readlink(link, buf, cap - 1);
    if (n < 0) {
        return errno == ENOENT ? FRD_ENOSYS : -errno;
    }
    if ((size_t)n >= cap - 1 || n > INT32_MAX) {
        return FRD_ENAMETOOLONG;
    }
    buf[n] = '\0';
    return (int)n;
}
