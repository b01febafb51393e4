// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Test support: writes synthetic getattrlistbulk entries the way xnu packs them. */
#ifndef FRD_TESTS_ATTRLIST_ENCODER_H
#define FRD_TESTS_ATTRLIST_ENCODER_H

#include "decode.h"

#include <stdint.h>
#include <string.h>

/** The values an encoded entry carries (only fields in the layout are written). */
struct attr_values {
    struct frd__attr_set returned;
    uint32_t error;
    const char *name;
    int32_t devid;
    uint32_t objtype;
    int64_t mtime_sec, mtime_nsec;
    int64_t ctime_sec, ctime_nsec;
    int64_t crtime_sec, crtime_nsec;
    int64_t atime_sec, atime_nsec;
    uint32_t uid;
    uint32_t gid;
    uint32_t flags;
    uint32_t accessmask;
    uint64_t fileid;
    uint32_t dir_linkcount;
    uint32_t dir_mountstatus;
    uint32_t file_linkcount;
    uint64_t file_datalength;
    uint64_t file_dataallocsize;
    uint32_t file_devtype;
};

/** Sizes of every attribute by group and bit, as the decoder's tables (64-bit macOS). */
static inline unsigned attr_enc_size(int group, unsigned bit)
{
    static const uint8_t common[32] = {8, 4, 8, 4, 4, 8, 8, 8, 4, 16, 16, 16, 16, 16, 32, 4,
                                       4, 4, 4, 4, 4, 4, 0, 0, 0, 8,  8,  0,  16, 4,  4,  20};
    static const uint8_t dir[32] = {4, 4, 4, 8, 4, 8};
    static const uint8_t file[32] = {4, 8, 8, 4, 4, 4, 0, 0, 0, 8, 8, 0, 8, 8};
    return group == 0 ? common[bit] : group == 1 ? dir[bit] : file[bit];
}

static inline void attr_enc_put(uint8_t *p, const void *v, size_t n)
{
    memcpy(p, v, n);
}

/** Writes one field's value (or zeros) at p. */
static inline void attr_enc_field(uint8_t *p, int group, uint32_t bit, const struct attr_values *v,
                                  int valid)
{
    memset(p, 0, attr_enc_size(group, (unsigned)__builtin_ctz(bit)));
    if (!valid) {
        return;
    }
    if (group == 0) {
        switch (bit) {
        case FRD__ATTR_CMN_DEVID:
            attr_enc_put(p, &v->devid, 4);
            break;
        case FRD__ATTR_CMN_OBJTYPE:
            attr_enc_put(p, &v->objtype, 4);
            break;
        case FRD__ATTR_CMN_MODTIME:
            attr_enc_put(p, &v->mtime_sec, 8);
            attr_enc_put(p + 8, &v->mtime_nsec, 8);
            break;
        case FRD__ATTR_CMN_CHGTIME:
            attr_enc_put(p, &v->ctime_sec, 8);
            attr_enc_put(p + 8, &v->ctime_nsec, 8);
            break;
        case FRD__ATTR_CMN_CRTIME:
            attr_enc_put(p, &v->crtime_sec, 8);
            attr_enc_put(p + 8, &v->crtime_nsec, 8);
            break;
        case FRD__ATTR_CMN_ACCTIME:
            attr_enc_put(p, &v->atime_sec, 8);
            attr_enc_put(p + 8, &v->atime_nsec, 8);
            break;
        case FRD__ATTR_CMN_OWNERID:
            attr_enc_put(p, &v->uid, 4);
            break;
        case FRD__ATTR_CMN_GRPID:
            attr_enc_put(p, &v->gid, 4);
            break;
        case FRD__ATTR_CMN_FLAGS:
            attr_enc_put(p, &v->flags, 4);
            break;
        case FRD__ATTR_CMN_ACCESSMASK:
            attr_enc_put(p, &v->accessmask, 4);
            break;
        case FRD__ATTR_CMN_FILEID:
            attr_enc_put(p, &v->fileid, 8);
            break;
        default:
            memset(p, 0x5A, attr_enc_size(0, (unsigned)__builtin_ctz(bit)));
            break;
        }
    } else if (group == 1) {
        if (bit == FRD__ATTR_DIR_LINKCOUNT) {
            attr_enc_put(p, &v->dir_linkcount, 4);
        } else if (bit == FRD__ATTR_DIR_MOUNTSTATUS) {
            attr_enc_put(p, &v->dir_mountstatus, 4);
        }
    } else {
        if (bit == FRD__ATTR_FILE_LINKCOUNT) {
            attr_enc_put(p, &v->file_linkcount, 4);
        } else if (bit == FRD__ATTR_FILE_DATALENGTH) {
            attr_enc_put(p, &v->file_datalength, 8);
        } else if (bit == FRD__ATTR_FILE_DATAALLOCSIZE) {
            attr_enc_put(p, &v->file_dataallocsize, 8);
        } else if (bit == FRD__ATTR_FILE_DEVTYPE) {
            attr_enc_put(p, &v->file_devtype, 4);
        }
    }
}

/**
 * Writes one entry at buf + pos for `request` (layout: returned, or request with pack_inval)
 * and returns the position after it. The entry length is padded to 8 unless `no_pad`; the
 * padding is 0xEE. *name_ref_at receives the offset of the name reference in the entry.
 */
static inline size_t attr_enc_entry(uint8_t *buf, size_t pos, const struct frd__attr_set *request,
                                    int pack_inval, const struct attr_values *v, int no_pad,
                                    size_t *name_ref_at)
{
    const struct frd__attr_set *layout = pack_inval ? request : &v->returned;
    uint8_t *e = buf + pos;
    size_t at = 4;
    memcpy(e + at, &v->returned, 20);
    at += 20;
    if (layout->common & FRD__ATTR_CMN_ERROR) {
        memcpy(e + at, &v->error, 4);
        at += 4;
    }
    size_t ref_at = 0;
    const uint32_t groups[3] = {layout->common &
                                    ~(FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_ERROR),
                                layout->dir, layout->file};
    const uint32_t valid[3] = {v->returned.common, v->returned.dir, v->returned.file};
    for (int g = 0; g < 3; g++) {
        for (unsigned n = 0; n < 32; n++) {
            uint32_t bit = 1u << n;
            if ((groups[g] & bit) == 0) {
                continue;
            }
            if (g == 0 && bit == FRD__ATTR_CMN_NAME) {
                ref_at = at;
            } else {
                attr_enc_field(e + at, g, bit, v, (valid[g] & bit) != 0);
            }
            at += attr_enc_size(g, n);
        }
    }
    size_t name_len = strlen(v->name);
    if (ref_at != 0) {
        int32_t off = (int32_t)(at - ref_at);
        uint32_t length = (uint32_t)name_len + 1;
        memcpy(e + ref_at, &off, 4);
        memcpy(e + ref_at + 4, &length, 4);
        memcpy(e + at, v->name, name_len + 1);
        // xnu rounds the variable part up to 4 bytes.
        at += (name_len + 1 + 3) & ~(size_t)3;
    }
    size_t total = no_pad ? at : (at + 7) & ~(size_t)7;
    memset(e + at, 0xEE, total - at);
    uint32_t length = (uint32_t)total;
    memcpy(e, &length, 4);
    if (name_ref_at != NULL) {
        *name_ref_at = ref_at;
    }
    return pos + total;
}

#endif // FRD_TESTS_ATTRLIST_ENCODER_H
