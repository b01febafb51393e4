// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Linux backend: openat + getdents64 into the lister's buffer, then one statx per entry.
 *
 * Per directory: openat(O_DIRECTORY), then getdents64 until it returns 0. Each record is
 * decoded by decode/dirent64.h (the kernel's buffer is not trusted), "." and ".." are
 * dropped, and the name is copied into the list's arena. Then
 * statx(dirfd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, mask) fills the entry, relative
 * to the directory's descriptor, so no path is resolved and a link is never followed. The
 * mask is the smallest one for the lister's wanted fields (lx_statx_mask()). When only type
 * and file id are wanted (names-only is type alone), the record answers them (d_type, d_ino)
 * and statx is called only for a DT_UNKNOWN record (XFS without ftype, some FUSE and NFS
 * mounts) and, where the file id is wanted, a directory's (its d_ino is not its st_ino if
 * it is a mount point: frd__record_answers()).
 *
 * Kernels before 4.11 answer ENOSYS to statx, and some container seccomp profiles EPERM
 * (runc#2151): the first such answer latches a process-wide flag and every later stat goes
 * to fstatat, which fills what struct stat has (no btime, no attributes).
 */
#include "dirent64.h"
#include "internal.h"
#include "platform.h"
#include "unix_stat.h"
#include "unix_types.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/** Set once statx is known to be missing (ENOSYS) or forbidden (EPERM); relaxed is enough:
 *  a thread that misses the store makes one more failing statx call and then stores it too. */
static atomic_bool lx_no_statx;

void (*frd__test_before_stat)(frd_os_fd dir, const char *name);

const unsigned frd__plat_record_fields = FRD__DIRENT_FIELDS;

/**
 * The smallest statx mask that answers `wanted`. dev, rdev and the attributes come with
 * every statx call and need no bit; STATX_TYPE is always asked (the type is always filled).
 */
static unsigned lx_statx_mask(unsigned wanted)
{
    static const struct {
        unsigned field, statx_bit;
    } map[] = {
        {FRD_FIELD_MODE, STATX_MODE},   {FRD_FIELD_NLINK, STATX_NLINK},
        {FRD_FIELD_UID, STATX_UID},     {FRD_FIELD_GID, STATX_GID},
        {FRD_FIELD_ATIME, STATX_ATIME}, {FRD_FIELD_MTIME, STATX_MTIME},
        {FRD_FIELD_CTIME, STATX_CTIME}, {FRD_FIELD_FILE_ID, STATX_INO},
        {FRD_FIELD_SIZE, STATX_SIZE},   {FRD_FIELD_ALLOC_SIZE, STATX_BLOCKS},
        {FRD_FIELD_BTIME, STATX_BTIME},
    };
    unsigned mask = STATX_TYPE;
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if (wanted & map[i].field) {
            mask |= map[i].statx_bit;
        }
    }
    return mask;
}

/* Each run of statx attribute bits lands on its enum frd_attr bits by one shift:
 * lx_attributes() is five shifts and masks, with no loop over a table, per statx. */
_Static_assert(STATX_ATTR_COMPRESSED >> 2 == FRD_ATTR_COMPRESSED, "statx attribute bit moved");
_Static_assert(STATX_ATTR_IMMUTABLE >> 3 == FRD_ATTR_IMMUTABLE, "statx attribute bit moved");
_Static_assert(STATX_ATTR_APPEND >> 3 == FRD_ATTR_APPEND, "statx attribute bit moved");
_Static_assert(STATX_ATTR_NODUMP >> 3 == FRD_ATTR_NODUMP, "statx attribute bit moved");
_Static_assert(STATX_ATTR_ENCRYPTED >> 7 == FRD_ATTR_ENCRYPTED, "statx attribute bit moved");
_Static_assert(STATX_ATTR_AUTOMOUNT >> 7 == FRD_ATTR_AUTOMOUNT, "statx attribute bit moved");
_Static_assert(STATX_ATTR_MOUNT_ROOT >> 7 == FRD_ATTR_MOUNT_ROOT, "statx attribute bit moved");
_Static_assert(STATX_ATTR_VERITY >> 13 == FRD_ATTR_VERITY, "statx attribute bit moved");
_Static_assert(STATX_ATTR_DAX >> 13 == FRD_ATTR_DAX, "statx attribute bit moved");

/** enum frd_attr bits from statx attribute bits (stx_attributes or stx_attributes_mask). */
static uint32_t lx_attributes(uint64_t statx_attr)
{
    uint64_t out =
        ((statx_attr >> 2) & FRD_ATTR_COMPRESSED) |
        ((statx_attr >> 3) & (FRD_ATTR_IMMUTABLE | FRD_ATTR_APPEND | FRD_ATTR_NODUMP)) |
        ((statx_attr >> 7) & (FRD_ATTR_ENCRYPTED | FRD_ATTR_AUTOMOUNT | FRD_ATTR_MOUNT_ROOT)) |
        ((statx_attr >> 13) & (FRD_ATTR_VERITY | FRD_ATTR_DAX));
    return (uint32_t)out;
}

static int64_t lx_ts(struct statx_timestamp ts)
{
    return frd__ns(ts.tv_sec, ts.tv_nsec);
}

/** Fills `e` from a statx answer: type always, the rest when `wanted` asks beyond the type,
 *  each field only where stx_mask says the kernel filled it. */
static void lx_fill_from_statx(struct frd_entry *e, const struct statx *stx, unsigned wanted)
{
    e->type = frd_type_from_mode(stx->stx_mode);
    e->fields |= FRD_FIELD_TYPE;
    if ((wanted & ~(unsigned)FRD_FIELD_TYPE) == 0) {
        return;
    }
    unsigned got = stx->stx_mask;
    unsigned fields = FRD_FIELD_DEV | FRD_FIELD_RDEV | FRD_FIELD_ATTRIBUTES;
    e->dev = makedev(stx->stx_dev_major, stx->stx_dev_minor);
    e->rdev = makedev(stx->stx_rdev_major, stx->stx_rdev_minor);
    e->attributes_known = lx_attributes(stx->stx_attributes_mask);
    e->attributes = lx_attributes(stx->stx_attributes) & e->attributes_known;
    if (got & STATX_MODE) {
        e->mode = stx->stx_mode & (S_IFMT | 07777);
        fields |= FRD_FIELD_MODE;
    }
    if (got & STATX_NLINK) {
        e->nlink = stx->stx_nlink;
        fields |= FRD_FIELD_NLINK;
    }
    if (got & STATX_UID) {
        e->uid = stx->stx_uid;
        fields |= FRD_FIELD_UID;
    }
    if (got & STATX_GID) {
        e->gid = stx->stx_gid;
        fields |= FRD_FIELD_GID;
    }
    if (got & STATX_INO) {
        e->file_id = stx->stx_ino;
        fields |= FRD_FIELD_FILE_ID;
    }
    if (got & STATX_SIZE) {
        e->size = stx->stx_size;
        fields |= FRD_FIELD_SIZE;
    }
    if (got & STATX_BLOCKS) {
        e->alloc_size = stx->stx_blocks * 512;
        fields |= FRD_FIELD_ALLOC_SIZE;
    }
    if (got & STATX_ATIME) {
        e->atime_ns = lx_ts(stx->stx_atime);
        fields |= FRD_FIELD_ATIME;
    }
    if (got & STATX_MTIME) {
        e->mtime_ns = lx_ts(stx->stx_mtime);
        fields |= FRD_FIELD_MTIME;
    }
    if (got & STATX_CTIME) {
        e->ctime_ns = lx_ts(stx->stx_ctime);
        fields |= FRD_FIELD_CTIME;
    }
    if (got & STATX_BTIME) {
        e->btime_ns = lx_ts(stx->stx_btime);
        fields |= FRD_FIELD_BTIME;
    }
    e->fields |= fields;
}

/**
 * Stats one name relative to a directory with the given AT_* flags, asking statx for
 * `statx_mask` (lx_statx_mask(wanted)). @return 0 or a negative code.
 */
static int lx_stat_flags(int dirfd, const char *name, int flags, unsigned wanted,
                         unsigned statx_mask, struct frd_entry *e)
{
    if (!atomic_load_explicit(&lx_no_statx, memory_order_relaxed)) {
        struct statx stx;
        if (statx(dirfd, name, flags, statx_mask, &stx) == 0) {
            lx_fill_from_statx(e, &stx, wanted);
            return 0;
        }
        if (errno != ENOSYS && errno != EPERM) {
            return -errno;
        }
        atomic_store_explicit(&lx_no_statx, true, memory_order_relaxed);
    }
    return frd__unix_fstatat(dirfd, name, flags, wanted, e);
}

bool frd__plat_force_fallback(bool on)
{
    atomic_store_explicit(&lx_no_statx, on, memory_order_relaxed);
    return true;
}

/** What one listing asks of each entry: the wanted fields and the statx mask for them. */
struct lx_want {
    unsigned fields;     /**< enum frd_field bits, FRD_FIELD_TYPE always among them */
    unsigned statx_mask; /**< lx_statx_mask(fields), made at the first stat (0 before) */
    bool dirent_only;    /**< the record answers every wanted field when it has a d_type */
};

/** Appends the records of one getdents64 batch. @return entries appended, or a code. */
static int lx_append_batch(int fd, const uint8_t *buf, size_t len, struct lx_want *want,
                           struct frd_list *list, struct frd__failure *op)
{
    int appended = 0;
    size_t pos = 0;
    struct frd__dirent64 rec;
    int rc;
    while ((rc = frd__decode_dirent64_inline(buf, len, &pos, &rec)) > 0) {
        const char *name = rec.name;
        if (name[0] == '.' && (rec.name_len == 1 || (rec.name_len == 2 && name[1] == '.'))) {
            continue;
        }
        struct frd_entry *e = frd__list_push(list, name, rec.name_len);
        if (e == NULL) {
            frd__failure_set(op, "append", FRD_OP_ALLOC);
            return FRD_ENOMEM;
        }
        enum frd_type dtype = frd__type_from_dt(rec.type);
        if (want->dirent_only && frd__record_answers(want->fields, dtype)) {
            // The record answers: no statx. Its d_ino is the st_ino (not a directory).
            e->type = dtype;
            e->fields = FRD_FIELD_TYPE;
            if (want->fields & FRD_FIELD_FILE_ID) {
                e->file_id = rec.ino;
                e->fields |= FRD_FIELD_FILE_ID;
            }
            appended++;
            continue;
        }
        if (frd__test_before_stat != NULL) {
            frd__test_before_stat(fd, name);
        }
        if (want->statx_mask == 0) {
            want->statx_mask = lx_statx_mask(want->fields); // (never 0: STATX_TYPE is in it)
        }
        int err = lx_stat_flags(fd, e->name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, want->fields,
                                want->statx_mask, e);
        if (frd__unix_settle_stat(list, e, err, dtype)) {
            appended++;
        }
    }
    if (rc < 0) {
        frd__failure_set(op, "getdents64", FRD_OP_READ_DIR);
        return rc;
    }
    return appended;
}

/** What `lister` asks of each entry. */
static struct lx_want lx_want_of(const struct frd_lister *lister)
{
    struct lx_want want;
    want.fields = frd__wanted_fields(lister->flags, lister->wanted);
    want.statx_mask = 0; // most listings stat nothing: made when the first stat needs it
    want.dirent_only = (want.fields & ~(unsigned)FRD__DIRENT_FIELDS) == 0;
    return want;
}

/** Reads one getdents64 buffer of `fd` into lister->buffer. @return the bytes read (0 at the
 *  end), or a negative code with `op` set. */
static int lx_getdents(struct frd_lister *lister, int fd, struct frd__failure *op)
{
    long n;
    do {
        n = syscall(SYS_getdents64, fd, lister->buffer, FRD__LISTER_BUFFER_SIZE);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        frd__failure_set(op, "getdents64", FRD_OP_READ_DIR);
        return -errno;
    }
    if (n > 0) {
        lister->batch_full = (size_t)n > FRD__LISTER_BUFFER_SIZE - FRD__DIRENT64_MAX;
    }
    return (int)n;
}

/**
 * Reads one getdents64 buffer of `fd` and appends its entries.
 * @return entries appended (>= 0, with *end false), 0 with *end true at the end of the
 * directory, or a negative code.
 */
static int lx_read_buffer(struct frd_lister *lister, int fd, struct lx_want *want,
                          struct frd_list *list, bool *end, struct frd__failure *op)
{
    *end = false;
    int n = lx_getdents(lister, fd, op);
    if (n <= 0) {
        *end = n == 0;
        return n;
    }
    return lx_append_batch(fd, lister->buffer, (size_t)n, want, list, op);
}

/** Moves `fd` to the directory's start when the lister says FRD_LIST_REWIND. */
static int lx_rewind(const struct frd_lister *lister, int fd, struct frd__failure *op)
{
    if ((lister->flags & FRD_LIST_REWIND) && lseek(fd, 0, SEEK_SET) < 0) {
        frd__failure_set(op, "lseek", FRD_OP_READ_DIR);
        return -errno;
    }
    return 0;
}

int frd__plat_list_fd(struct frd_lister *lister, struct frd_list *list, frd_os_fd fd,
                      struct frd__failure *op)
{
    struct lx_want want = lx_want_of(lister);
    int rc = lx_rewind(lister, fd, op);
    if (rc < 0) {
        return rc;
    }
    int total = 0;
    for (;;) {
        bool end;
        int got = lx_read_buffer(lister, fd, &want, list, &end, op);
        if (got < 0 || end) {
            return got < 0 ? got : total;
        }
        if (got > INT32_MAX - total) {
            frd__failure_set(op, "getdents64", FRD_OP_READ_DIR);
            return FRD_EOVERFLOW;
        }
        total += got;
    }
}

/** Before a batched listing's first read: lx_rewind() once, so later batches go on where the
 *  last one stopped. @return 0, or a negative code with `op` set. */
static int lx_batch_start(struct frd_lister *lister, int fd, struct frd__failure *op)
{
    if (lister->batch_started) {
        return 0;
    }
    lister->batch_started = true;
    return lx_rewind(lister, fd, op);
}

int frd__plat_list_batch(struct frd_lister *lister, struct frd_list *list, struct frd__failure *op)
{
    struct lx_want want = lx_want_of(lister);
    int fd = lister->batch_fd;
    int rc = lx_batch_start(lister, fd, op);
    if (rc < 0) {
        return rc;
    }
    for (;;) {
        bool end;
        int got = lx_read_buffer(lister, fd, &want, list, &end, op);
        if (got != 0 || end) {
            return got;
        }
    }
}

void frd__plat_batch_end(struct frd_lister *lister)
{
    (void)lister; // the descriptor holds the position: nothing kept
}

int frd__plat_names_read(struct frd_lister *lister, struct frd__names_cursor *cur,
                         struct frd__failure *op)
{
    if (frd__wanted_fields(lister->flags, lister->wanted) != FRD_FIELD_TYPE) {
        return FRD_ENOTSUP;
    }
    int fd = lister->batch_fd;
    int rc = lx_batch_start(lister, fd, op);
    if (rc < 0) {
        return rc;
    }
    int n = lx_getdents(lister, fd, op);
    cur->pos = 0;
    cur->len = n > 0 ? (size_t)n : 0;
    cur->dirty = true;
    return n;
}

int frd__plat_names_next(struct frd_lister *lister, struct frd__names_cursor *cur,
                         struct frd_entry *e, struct frd__failure *op)
{
    struct frd__dirent64 rec;
    int rc;
    while ((rc = frd__decode_dirent64_inline(lister->buffer, cur->len, &cur->pos, &rec)) > 0) {
        const char *name = rec.name;
        if (name[0] == '.' && (rec.name_len == 1 || (rec.name_len == 2 && name[1] == '.'))) {
            continue;
        }
        enum frd_type dtype = frd__type_from_dt(rec.type);
        if (dtype != FRD_TYPE_UNKNOWN) {
            // The record answers (lx_append_batch(), names only). The other fields are
            // still zero from the last entry, unless a stat filled them.
            if (cur->dirty) {
                memset(e, 0, sizeof(*e));
                cur->dirty = false;
            }
            e->name = name;
            e->name_len = rec.name_len;
            e->type = dtype;
            e->fields = FRD_FIELD_TYPE;
            return 1;
        }
        memset(e, 0, sizeof(*e));
        cur->dirty = true;
        e->name = name;
        e->name_len = rec.name_len;
        if (frd__test_before_stat != NULL) {
            frd__test_before_stat(lister->batch_fd, name);
        }
        int err = lx_stat_flags(lister->batch_fd, name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
                                FRD_FIELD_TYPE, lx_statx_mask(FRD_FIELD_TYPE), e);
        if (frd__unix_settle_entry(e, err, dtype)) {
            return 1;
        }
    }
    if (rc < 0) {
        frd__failure_set(op, "getdents64", FRD_OP_READ_DIR);
        return rc;
    }
    return 0;
}

// What the walker needs: stat by name, identity and volume class of an open directory.

int frd__plat_stat_fields(frd_os_fd dir, const char *name, bool follow, unsigned wanted,
                          struct frd_entry *e)
{
    int flags = AT_NO_AUTOMOUNT | (follow ? 0 : AT_SYMLINK_NOFOLLOW);
    wanted |= FRD_FIELD_TYPE;
    return lx_stat_flags(dir == FRD_INVALID_FD ? AT_FDCWD : dir, name, flags, wanted,
                         lx_statx_mask(wanted), e);
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

/** A mount of /proc/self/mountinfo: its id, its parent's, its device. */
struct lx_mount {
    unsigned long id, parent;
    unsigned long major, minor;
};

/** The mount with id `id` among `n`, or NULL. */
static const struct lx_mount *lx_mount_find(const struct lx_mount *v, size_t n, unsigned long id)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i].id == id) {
            return &v[i];
        }
    }
    return NULL;
}

/**
 * One unsigned decimal field of a mountinfo line at *p, which must be followed by `sep`.
 * @return true with *out set and *p past `sep`; false if no digits, too large or another
 *         character follows.
 */
static bool lx_field(const char **p, char sep, unsigned long *out)
{
    const char *s = *p;
    if (*s < '0' || *s > '9') {
        return false; // strtoul would accept spaces and a sign
    }
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno != 0 || *end != sep) {
        return false;
    }
    *out = v;
    *p = end + 1;
    return true;
}

/** More mounts than this: do not search the tree (quadratic), say "may cycle". */
#define LX_MOUNTS_MAX 4096

bool frd__plat_mounts_may_cycle(void)
{
    // A cycle needs a directory that is its own ancestor: the walk goes down from it within
    // its mount and the mounts below, so a mount below it shows its device again. Whether
    // any mount has an ancestor mount of its own device is read from the mount tree.
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (f == NULL) {
        return true;
    }
    struct lx_mount *v = NULL;
    size_t n = 0, cap = 0;
    bool may = false;
    char line[4096];
    while (fgets(line, sizeof(line), f) != NULL) {
        struct lx_mount m;
        const char *p = line;
        if (!lx_field(&p, ' ', &m.id) || !lx_field(&p, ' ', &m.parent) ||
            !lx_field(&p, ':', &m.major) || !lx_field(&p, ' ', &m.minor) || n == LX_MOUNTS_MAX) {
            may = true; // unreadable or too many (a line longer than the buffer too)
            break;
        }
        if (FRD__RESERVE(v, cap, n + 1, 64) < 0) {
            may = true;
            break;
        }
        v[n++] = m;
        if (strchr(line, '\n') == NULL && !feof(f)) {
            may = true;
            break;
        }
    }
    fclose(f);
    for (size_t i = 0; i < n && !may; i++) {
        const struct lx_mount *p = lx_mount_find(v, n, v[i].parent);
        for (size_t steps = 0; p != NULL && p != &v[i] && steps < n && !may; steps++) {
            may = p->major == v[i].major && p->minor == v[i].minor;
            p = lx_mount_find(v, n, p->parent);
        }
    }
    frd__free(v);
    return may;
}

void frd__plat_lister_release(struct frd_lister *lister)
{
    (void)lister; // the lister keeps nothing of this backend's
}
