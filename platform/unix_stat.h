// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * struct stat to struct frd_entry, written once for the Unix backends: the Linux fstatat
 * fallback, the portable backend and the macOS fallback all fill an entry through
 * frd__entry_from_stat(). Also the "does this listing need a stat at all" rule they share.
 */
#ifndef FRD_PLATFORM_UNIX_STAT_H
#define FRD_PLATFORM_UNIX_STAT_H

#include "frd.h"
#include "internal.h"
#include "unix_types.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

/** What struct stat gives on every Unix: all fields but btime and attributes. */
#define FRD__STAT_FIELDS                                                                       \
    (FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_MTIME | FRD_FIELD_CTIME | FRD_FIELD_FILE_ID | \
     FRD_FIELD_DEV | FRD_FIELD_NLINK | FRD_FIELD_MODE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_UID | \
     FRD_FIELD_GID | FRD_FIELD_ATIME | FRD_FIELD_RDEV)

/** Fields a directory record can answer without a stat: type (d_type) and file id (d_ino). */
#define FRD__DIRENT_FIELDS (FRD_FIELD_TYPE | FRD_FIELD_FILE_ID)

/**
 * Does a record of type `dtype` answer the `wanted` fields (a subset of FRD__DIRENT_FIELDS)
 * without a stat? Its d_type must be known, and its d_ino is the entry's st_ino except on a
 * directory someone mounted on: there d_ino is the covered directory's inode. So where the
 * file id is wanted a directory is stat'ed (a mount point is a directory but for a file
 * bind-mounted on a file, which frd.h names), and file_id means st_ino whatever the mask.
 */
static inline bool frd__record_answers(unsigned wanted, enum frd_type dtype)
{
    return dtype != FRD_TYPE_UNKNOWN &&
           !(dtype == FRD_TYPE_DIR && (wanted & FRD_FIELD_FILE_ID) != 0);
}

#if defined(__APPLE__)
#    define FRD__ST_ATIM st_atimespec
#    define FRD__ST_MTIM st_mtimespec
#    define FRD__ST_CTIM st_ctimespec
#else
#    define FRD__ST_ATIM st_atim
#    define FRD__ST_MTIM st_mtim
#    define FRD__ST_CTIM st_ctim
#endif

/** Nanoseconds since the epoch from seconds and nanoseconds (0 to 999999999), saturated
 *  where an int64_t cannot hold them (before 1677-09-21, after 2262-04-11), as the Windows
 *  and macOS decoders give them. */
static inline int64_t frd__ns(int64_t sec, int64_t nsec)
{
    if (sec > (INT64_MAX - nsec) / 1000000000) {
        return INT64_MAX;
    }
    if (sec < INT64_MIN / 1000000000) {
        return INT64_MIN;
    }
    return sec * 1000000000 + nsec;
}

/** A dev_t as an unsigned number: macOS's dev_t is a signed 32-bit int, read as unsigned
 *  there as getattrlistbulk's ATTR_CMN_DEVID is, so both paths give the same value. */
#define frd__dev_u64(d) (sizeof(d) == 4 ? (uint64_t)(uint32_t)(d) : (uint64_t)(d))

/**
 * The fields a lister fills: FRD_FIELD_TYPE under FRD_LIST_NAMES_ONLY, else what the
 * caller set with frd_lister_set_fields(), plus type (always filled).
 */
static inline unsigned frd__wanted_fields(unsigned lister_flags, unsigned wanted)
{
    return (lister_flags & FRD_LIST_NAMES_ONLY) ? FRD_FIELD_TYPE : (wanted | FRD_FIELD_TYPE);
}

/**
 * Fills `e` from a stat: type, and when `wanted` asks for more than the type, every field
 * struct stat holds (they come in the same call, so all are filled). The full mode, type
 * bits included. rdev is filled for every type (0 where the entry is no device).
 */
static inline void frd__entry_from_stat(struct frd_entry *e, const struct stat *st, unsigned wanted)
{
    e->type = frd_type_from_mode((unsigned)st->st_mode);
    e->fields |= FRD_FIELD_TYPE;
    if ((wanted & ~(unsigned)FRD_FIELD_TYPE) == 0) {
        return;
    }
    e->dev = frd__dev_u64(st->st_dev);
    e->mode = (uint32_t)st->st_mode & (S_IFMT | 07777);
    e->nlink = (uint32_t)st->st_nlink;
    e->file_id = (uint64_t)st->st_ino;
    e->size = (uint64_t)st->st_size;
    e->alloc_size = (uint64_t)st->st_blocks * 512;
    e->mtime_ns = frd__ns(st->FRD__ST_MTIM.tv_sec, st->FRD__ST_MTIM.tv_nsec);
    e->ctime_ns = frd__ns(st->FRD__ST_CTIM.tv_sec, st->FRD__ST_CTIM.tv_nsec);
    e->atime_ns = frd__ns(st->FRD__ST_ATIM.tv_sec, st->FRD__ST_ATIM.tv_nsec);
    e->uid = (uint32_t)st->st_uid;
    e->gid = (uint32_t)st->st_gid;
    e->rdev = frd__dev_u64(st->st_rdev);
    e->fields |= FRD__STAT_FIELDS;
}

/**
 * Settles an entry after its stat: one removed since the read (`err` -ENOENT) is no longer
 * there to report; one whose stat failed otherwise is kept, with the record's type and
 * `error` set (a directory that can be read but not searched). @return true if the entry
 * is kept.
 */
static inline bool frd__unix_settle_entry(struct frd_entry *e, int err, enum frd_type dtype)
{
    if (err == -ENOENT) {
        return false;
    }
    if (err < 0) {
        e->error = err;
        e->type = dtype;
        e->fields = dtype != FRD_TYPE_UNKNOWN ? FRD_FIELD_TYPE : 0;
    }
    return true;
}

/** frd__unix_settle_entry() for the last entry of a listing: one that is not kept is
 *  dropped from `list`. @return true if the entry stays in the list. */
static inline bool frd__unix_settle_stat(struct frd_list *list, struct frd_entry *e, int err,
                                         enum frd_type dtype)
{
    if (!frd__unix_settle_entry(e, err, dtype)) {
        frd__list_pop(list);
        return false;
    }
    return true;
}

/**
 * fstatat() of `name` relative to `dirfd` with the given AT_* flags, into `e` (the fields
 * of `wanted` that struct stat has). @return 0, or the negated errno.
 */
static inline int frd__unix_fstatat(int dirfd, const char *name, int flags, unsigned wanted,
                                    struct frd_entry *e)
{
    struct stat st;
    if (fstatat(dirfd, name, &st, flags) != 0) {
        return -errno;
    }
    frd__entry_from_stat(e, &st, wanted);
    return 0;
}

#endif // FRD_PLATFORM_UNIX_STAT_H
