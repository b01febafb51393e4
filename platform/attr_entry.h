// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * getattrlistbulk requests and entries for the macOS backend, kept free of macOS headers so
 * that tests/test_attrlist.c runs them on every platform: which attributes to ask for a set
 * of wanted fields (frd__attr_request_for()), and how a decoded record becomes a struct
 * frd_entry (frd__entry_from_attr()). platform/darwin.c makes the calls.
 */
#ifndef FRD_PLATFORM_ATTR_ENTRY_H
#define FRD_PLATFORM_ATTR_ENTRY_H

#include "decode.h"
#include "frd.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/** What every request holds: the kernel insists on the first two, the rest names the type. */
#define FRD__ATTR_BASE_COMMON                                                  \
    (FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME | FRD__ATTR_CMN_ERROR | \
     FRD__ATTR_CMN_OBJTYPE)

/** The enum frd_attr bits st_flags can tell. */
#define FRD__ATTR_FLAGS_KNOWN \
    (FRD_ATTR_IMMUTABLE | FRD_ATTR_APPEND | FRD_ATTR_COMPRESSED | FRD_ATTR_NODUMP)

/** The smallest getattrlistbulk request for `wanted` (enum frd_field bits). */
static inline void frd__attr_request_for(unsigned wanted, struct frd__attr_set *out)
{
    static const struct {
        unsigned field;
        uint32_t common, dir, file;
    } map[] = {
        {FRD_FIELD_DEV, FRD__ATTR_CMN_DEVID, 0, 0},
        {FRD_FIELD_MTIME, FRD__ATTR_CMN_MODTIME, 0, 0},
        {FRD_FIELD_CTIME, FRD__ATTR_CMN_CHGTIME, 0, 0},
        {FRD_FIELD_ATIME, FRD__ATTR_CMN_ACCTIME, 0, 0},
        {FRD_FIELD_BTIME, FRD__ATTR_CMN_CRTIME, 0, 0},
        {FRD_FIELD_UID, FRD__ATTR_CMN_OWNERID, 0, 0},
        {FRD_FIELD_GID, FRD__ATTR_CMN_GRPID, 0, 0},
        {FRD_FIELD_MODE, FRD__ATTR_CMN_ACCESSMASK, 0, 0},
        {FRD_FIELD_FILE_ID, FRD__ATTR_CMN_FILEID, 0, 0},
        {FRD_FIELD_ATTRIBUTES, FRD__ATTR_CMN_FLAGS, FRD__ATTR_DIR_MOUNTSTATUS, 0},
        {FRD_FIELD_NLINK, 0, FRD__ATTR_DIR_LINKCOUNT, FRD__ATTR_FILE_LINKCOUNT},
        {FRD_FIELD_SIZE, 0, 0, FRD__ATTR_FILE_DATALENGTH},
        {FRD_FIELD_ALLOC_SIZE, 0, 0, FRD__ATTR_FILE_DATAALLOCSIZE},
        {FRD_FIELD_RDEV, 0, 0, FRD__ATTR_FILE_DEVTYPE},
    };
    memset(out, 0, sizeof(*out));
    out->common = FRD__ATTR_BASE_COMMON;
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if (wanted & map[i].field) {
            out->common |= map[i].common;
            out->dir |= map[i].dir;
            out->file |= map[i].file;
        }
    }
}

/** The type an ATTR_CMN_OBJTYPE value (enum vtype) names. */
static inline enum frd_type frd__type_from_vtype(uint32_t vtype)
{
    switch (vtype) {
    case FRD__VREG:
        return FRD_TYPE_REG;
    case FRD__VDIR:
        return FRD_TYPE_DIR;
    case FRD__VLNK:
        return FRD_TYPE_LNK;
    case FRD__VFIFO:
        return FRD_TYPE_FIFO;
    case FRD__VSOCK:
        return FRD_TYPE_SOCK;
    case FRD__VCHR:
        return FRD_TYPE_CHR;
    case FRD__VBLK:
        return FRD_TYPE_BLK;
    default:
        return FRD_TYPE_UNKNOWN;
    }
}

/** enum frd_attr bits from st_flags (user and system immutable/append count alike). */
static inline uint32_t frd__attr_from_st_flags(uint32_t flags)
{
    uint32_t out = 0;
    if (flags & (FRD__UF_IMMUTABLE | FRD__SF_IMMUTABLE)) {
        out |= FRD_ATTR_IMMUTABLE;
    }
    if (flags & (FRD__UF_APPEND | FRD__SF_APPEND)) {
        out |= FRD_ATTR_APPEND;
    }
    if (flags & FRD__UF_COMPRESSED) {
        out |= FRD_ATTR_COMPRESSED;
    }
    if (flags & FRD__UF_NODUMP) {
        out |= FRD_ATTR_NODUMP;
    }
    return out;
}

/**
 * Fills the pushed entry `e` from a decoded record: the type, then (unless the record
 * carries an error, or only the type is wanted) every field the record returned. The file
 * id only where `persistent_ids` says the volume's ids persist.
 */
static inline void frd__entry_from_attr(struct frd_entry *e, const struct frd__attr_entry *rec,
                                        unsigned wanted, bool persistent_ids)
{
    const struct frd__attr_set *got = &rec->returned;
    if (got->common & FRD__ATTR_CMN_OBJTYPE) {
        e->type = frd__type_from_vtype(rec->objtype);
        e->fields |= FRD_FIELD_TYPE;
    }
    if (rec->error != 0) {
        e->error = -(int)rec->error;
        return;
    }
    if ((wanted & ~(unsigned)FRD_FIELD_TYPE) == 0) {
        return;
    }
    unsigned fields = 0;
    if (got->common & FRD__ATTR_CMN_DEVID) {
        e->dev = (uint64_t)(uint32_t)rec->devid;
        fields |= FRD_FIELD_DEV;
    }
    if (got->common & FRD__ATTR_CMN_MODTIME) {
        e->mtime_ns = rec->mtime_ns;
        fields |= FRD_FIELD_MTIME;
    }
    if (got->common & FRD__ATTR_CMN_CHGTIME) {
        e->ctime_ns = rec->ctime_ns;
        fields |= FRD_FIELD_CTIME;
    }
    if (got->common & FRD__ATTR_CMN_ACCTIME) {
        e->atime_ns = rec->atime_ns;
        fields |= FRD_FIELD_ATIME;
    }
    if (got->common & FRD__ATTR_CMN_CRTIME) {
        e->btime_ns = rec->crtime_ns;
        fields |= FRD_FIELD_BTIME;
    }
    if (got->common & FRD__ATTR_CMN_OWNERID) {
        e->uid = rec->uid;
        fields |= FRD_FIELD_UID;
    }
    if (got->common & FRD__ATTR_CMN_GRPID) {
        e->gid = rec->gid;
        fields |= FRD_FIELD_GID;
    }
    if (got->common & FRD__ATTR_CMN_ACCESSMASK) {
        e->mode = rec->accessmask & 0177777u; // type bits and permissions, as st_mode
        fields |= FRD_FIELD_MODE;
    }
    if (got->common & FRD__ATTR_CMN_FLAGS) {
        e->attributes = frd__attr_from_st_flags(rec->flags);
        e->attributes_known = FRD__ATTR_FLAGS_KNOWN;
        fields |= FRD_FIELD_ATTRIBUTES;
    }
    if (got->dir & FRD__ATTR_DIR_MOUNTSTATUS) {
        e->attributes_known |= FRD_ATTR_MOUNT_ROOT;
        if (rec->dir_mountstatus & FRD__DIR_MNTSTATUS_MNTPOINT) {
            e->attributes |= FRD_ATTR_MOUNT_ROOT;
        }
        fields |= FRD_FIELD_ATTRIBUTES;
    }
    if ((got->common & FRD__ATTR_CMN_FILEID) && persistent_ids) {
        e->file_id = rec->fileid;
        fields |= FRD_FIELD_FILE_ID;
    }
    if (got->dir & FRD__ATTR_DIR_LINKCOUNT) {
        e->nlink = rec->dir_linkcount; // hard links to the directory: 1 but on HFS+ TM
        fields |= FRD_FIELD_NLINK;
    }
    if (got->file & FRD__ATTR_FILE_LINKCOUNT) {
        e->nlink = rec->file_linkcount;
        fields |= FRD_FIELD_NLINK;
    }
    if (got->file & FRD__ATTR_FILE_DATALENGTH) {
        e->size = rec->file_datalength;
        fields |= FRD_FIELD_SIZE;
    }
    if (got->file & FRD__ATTR_FILE_DATAALLOCSIZE) {
        e->alloc_size = rec->file_dataallocsize;
        fields |= FRD_FIELD_ALLOC_SIZE;
    }
    if (got->file & FRD__ATTR_FILE_DEVTYPE) {
        // st_rdev: the device number of a device, 0 (or garbage some file systems leave)
        // for other files, so it is kept for devices only.
        bool device = e->type == FRD_TYPE_CHR || e->type == FRD_TYPE_BLK;
        e->rdev = device ? rec->file_devtype : 0;
        fields |= FRD_FIELD_RDEV;
    }
    e->fields |= fields;
}

#endif // FRD_PLATFORM_ATTR_ENTRY_H
