// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Decoder of macOS getattrlistbulk entries (the layout is drawn in decode.h).
 *
 * Design note. What an entry holds depends on two bitmaps: the request (struct attrlist)
 * and what the kernel says it returned for this entry (attribute_set_t, the first field).
 * Without FSOPT_PACK_INVAL_ATTRS, an attribute the volume cannot give, or that does not
 * apply (directory attributes of a file, file attributes of a directory, everything but the
 * name for an entry with an error), is left out and the fields behind it move up; with it,
 * every requested attribute keeps its slot. So the decoder walks a "layout" bitmap, the
 * returned one or the requested one, in the kernel's packing order (xnu
 * bsd/vfs/vfs_attrlist.c: common, dir, file; each group by ascending bit; every field
 * rounded up to 4 bytes), using a table of sizes, and reads only the fields it knows.
 *
 * The sizes are those of 64-bit macOS (timespec = two 64-bit words, off_t and the file id
 * 64 bits). An attribute whose size is not in the table cannot be skipped, so a request
 * that asks for one is refused by frd__attr_request_ok() rather than misread.
 */
#include "decode.h"

#include <string.h>

enum {
    ATTR_HDR_LENGTH = 4,    // u32 length
    ATTR_HDR_RETURNED = 20, // attribute_set_t
    ATTR_REF_SIZE = 8,      // attrreference_t
    ATTR_TIMESPEC = 16,     // struct timespec on 64-bit
    ATTR_NS_PER_SEC = 1000000000,
};

/** Size in bytes of each common attribute, by bit number; 0: not decodable. */
static const uint8_t attr_common_size[32] = {
    [0] = ATTR_REF_SIZE,      // NAME
    [1] = 4,                  // DEVID
    [2] = 8,                  // FSID
    [3] = 4,                  // OBJTYPE
    [4] = 4,                  // OBJTAG
    [5] = 8,                  // OBJID
    [6] = 8,                  // OBJPERMANENTID
    [7] = 8,                  // PAROBJID
    [8] = 4,                  // SCRIPT
    [9] = ATTR_TIMESPEC,      // CRTIME
    [10] = ATTR_TIMESPEC,     // MODTIME
    [11] = ATTR_TIMESPEC,     // CHGTIME
    [12] = ATTR_TIMESPEC,     // ACCTIME
    [13] = ATTR_TIMESPEC,     // BKUPTIME
    [14] = 32,                // FNDRINFO
    [15] = 4,                 // OWNERID
    [16] = 4,                 // GRPID
    [17] = 4,                 // ACCESSMASK
    [18] = 4,                 // FLAGS
    [19] = 4,                 // GEN_COUNT
    [20] = 4,                 // DOCUMENT_ID
    [21] = 4,                 // USERACCESS
    [25] = 8,                 // FILEID
    [26] = 8,                 // PARENTID
    [28] = ATTR_TIMESPEC,     // ADDEDTIME
    [29] = 4,                 // ERROR (packed out of order, right after RETURNED_ATTRS)
    [30] = 4,                 // DATA_PROTECT_FLAGS
    [31] = ATTR_HDR_RETURNED, // RETURNED_ATTRS (packed first)
};

static const uint8_t attr_dir_size[32] = {
    [0] = 4, // LINKCOUNT
    [1] = 4, // ENTRYCOUNT
    [2] = 4, // MOUNTSTATUS
    [3] = 8, // ALLOCSIZE
    [4] = 4, // IOBLOCKSIZE
    [5] = 8, // DATALENGTH
};

static const uint8_t attr_file_size[32] = {
    [0] = 4,  // LINKCOUNT
    [1] = 8,  // TOTALSIZE
    [2] = 8,  // ALLOCSIZE
    [3] = 4,  // IOBLOCKSIZE
    [4] = 4,  // CLUMPSIZE
    [5] = 4,  // DEVTYPE
    [9] = 8,  // DATALENGTH
    [10] = 8, // DATAALLOCSIZE
    [12] = 8, // RSRCLENGTH
    [13] = 8, // RSRCALLOCSIZE
};

/** @return the bits of a group whose size the table knows. */
static uint32_t attr_known(const uint8_t table[32])
{
    uint32_t mask = 0;
    for (unsigned bit = 0; bit < 32; bit++) {
        if (table[bit] != 0) {
            mask |= 1u << bit;
        }
    }
    return mask;
}

int frd__attr_request_ok(const struct frd__attr_set *request)
{
    const uint32_t required = FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME;
    return (request->common & required) == required && request->vol == 0 && request->fork == 0 &&
           (request->common & ~attr_known(attr_common_size)) == 0 &&
           (request->dir & ~attr_known(attr_dir_size)) == 0 &&
           (request->file & ~attr_known(attr_file_size)) == 0;
}

static uint32_t attr_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static uint64_t attr_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/** Reads a timespec as ns since the epoch. @return 0, or -1 for nanoseconds out of range. */
static int attr_timespec(const uint8_t *p, int64_t *out)
{
    int64_t sec;
    int64_t nsec;
    memcpy(&sec, p, sizeof(sec));
    memcpy(&nsec, p + 8, sizeof(nsec));
    if (nsec < 0 || nsec >= ATTR_NS_PER_SEC) {
        return -1;
    }
    if (sec > (INT64_MAX - nsec) / ATTR_NS_PER_SEC) {
        *out = INT64_MAX;
    } else if (sec < INT64_MIN / ATTR_NS_PER_SEC) {
        *out = INT64_MIN;
    } else {
        *out = sec * ATTR_NS_PER_SEC + nsec;
    }
    return 0;
}

/** The walk over one entry's fixed fields. */
struct attr_cursor {
    const uint8_t *entry; // start of the entry
    size_t entry_len;     // its length
    size_t at;            // offset of the next fixed field within the entry
};

/** Takes `size` bytes of fixed fields. @return their address, or NULL past the entry. */
static const uint8_t *attr_take(struct attr_cursor *c, size_t size)
{
    if (size > c->entry_len - c->at) {
        return NULL;
    }
    const uint8_t *p = c->entry + c->at;
    c->at += size;
    return p;
}

/** Resolves the name reference at `ref` (offset `ref_at` in the entry). @return 0 or -1. */
static int attr_name(const struct attr_cursor *c, const uint8_t *ref, size_t ref_at,
                     struct frd__attr_entry *out)
{
    int32_t offset;
    uint32_t length;
    memcpy(&offset, ref, sizeof(offset));
    memcpy(&length, ref + 4, sizeof(length));
    // The name follows the fixed fields, inside the entry: a negative offset or one that
    // points back into the fixed fields is a lie.
    if (offset < ATTR_REF_SIZE || (size_t)offset > c->entry_len - ref_at) {
        return -1;
    }
    size_t name_at = ref_at + (size_t)offset;
    if (length < 2 || length > c->entry_len - name_at) {
        return -1;
    }
    const uint8_t *name = c->entry + name_at;
    size_t name_len = (size_t)length - 1;
    if (name[name_len] != 0 || memchr(name, 0, name_len) != NULL) {
        return -1;
    }
    out->name = (const char *)name;
    out->name_len = name_len;
    return 0;
}

/** Reads one common attribute's value into *out. @return 0 or -1. */
static int attr_read_common(uint32_t bit, const uint8_t *p, struct frd__attr_entry *out)
{
    switch (bit) {
    case FRD__ATTR_CMN_DEVID:
        memcpy(&out->devid, p, sizeof(out->devid));
        return 0;
    case FRD__ATTR_CMN_OBJTYPE:
        out->objtype = attr_u32(p);
        return 0;
    case FRD__ATTR_CMN_CRTIME:
        return attr_timespec(p, &out->crtime_ns);
    case FRD__ATTR_CMN_MODTIME:
        return attr_timespec(p, &out->mtime_ns);
    case FRD__ATTR_CMN_CHGTIME:
        return attr_timespec(p, &out->ctime_ns);
    case FRD__ATTR_CMN_ACCTIME:
        return attr_timespec(p, &out->atime_ns);
    case FRD__ATTR_CMN_OWNERID:
        out->uid = attr_u32(p);
        return 0;
    case FRD__ATTR_CMN_GRPID:
        out->gid = attr_u32(p);
        return 0;
    case FRD__ATTR_CMN_ACCESSMASK:
        out->accessmask = attr_u32(p);
        return 0;
    case FRD__ATTR_CMN_FLAGS:
        out->flags = attr_u32(p);
        return 0;
    case FRD__ATTR_CMN_FILEID:
        out->fileid = attr_u64(p);
        return 0;
    default:
        return 0; // known size, value not used
    }
}

static void attr_read_dir(uint32_t bit, const uint8_t *p, struct frd__attr_entry *out)
{
    switch (bit) {
    case FRD__ATTR_DIR_LINKCOUNT:
        out->dir_linkcount = attr_u32(p);
        break;
    case FRD__ATTR_DIR_ENTRYCOUNT:
        out->dir_entrycount = attr_u32(p);
        break;
    case FRD__ATTR_DIR_MOUNTSTATUS:
        out->dir_mountstatus = attr_u32(p);
        break;
    case FRD__ATTR_DIR_ALLOCSIZE:
        out->dir_allocsize = attr_u64(p);
        break;
    case FRD__ATTR_DIR_DATALENGTH:
        out->dir_datalength = attr_u64(p);
        break;
    default:
        break;
    }
}

static void attr_read_file(uint32_t bit, const uint8_t *p, struct frd__attr_entry *out)
{
    switch (bit) {
    case FRD__ATTR_FILE_LINKCOUNT:
        out->file_linkcount = attr_u32(p);
        break;
    case FRD__ATTR_FILE_TOTALSIZE:
        out->file_totalsize = attr_u64(p);
        break;
    case FRD__ATTR_FILE_ALLOCSIZE:
        out->file_allocsize = attr_u64(p);
        break;
    case FRD__ATTR_FILE_DEVTYPE:
        out->file_devtype = attr_u32(p);
        break;
    case FRD__ATTR_FILE_DATALENGTH:
        out->file_datalength = attr_u64(p);
        break;
    case FRD__ATTR_FILE_DATAALLOCSIZE:
        out->file_dataallocsize = attr_u64(p);
        break;
    default:
        break;
    }
}

int frd__decode_attr_entry(const uint8_t *buf, size_t len, size_t *pos,
                           const struct frd__attr_set *request, uint32_t options,
                           struct frd__attr_entry *out)
{
    size_t at = *pos;
    if (at == len) {
        return 0;
    }
    if (!frd__attr_request_ok(request) || at > len ||
        len - at < ATTR_HDR_LENGTH + ATTR_HDR_RETURNED) {
        return FRD__DECODE_EMALFORMED;
    }
    uint32_t entry_len = attr_u32(buf + at);
    if (entry_len < ATTR_HDR_LENGTH + ATTR_HDR_RETURNED || entry_len > len - at) {
        return FRD__DECODE_EMALFORMED;
    }

    memset(out, 0, sizeof(*out));
    struct attr_cursor c = {buf + at, entry_len, ATTR_HDR_LENGTH};
    const uint8_t *ret = attr_take(&c, ATTR_HDR_RETURNED);
    out->returned.common = attr_u32(ret);
    out->returned.vol = attr_u32(ret + 4);
    out->returned.dir = attr_u32(ret + 8);
    out->returned.file = attr_u32(ret + 12);
    out->returned.fork = attr_u32(ret + 16);
    const struct frd__attr_set *got = &out->returned;
    // The kernel returns nothing it was not asked for.
    if ((got->common & ~request->common) != 0 || got->vol != 0 || got->fork != 0 ||
        (got->dir & ~request->dir) != 0 || (got->file & ~request->file) != 0) {
        return FRD__DECODE_EMALFORMED;
    }
    const struct frd__attr_set *layout =
        (options & FRD__FSOPT_PACK_INVAL_ATTRS) != 0 ? request : got;

    if (layout->common & FRD__ATTR_CMN_ERROR) {
        const uint8_t *p = attr_take(&c, 4);
        if (p == NULL) {
            return FRD__DECODE_EMALFORMED;
        }
        if (got->common & FRD__ATTR_CMN_ERROR) {
            out->error = attr_u32(p);
        }
    }

    int have_name = 0;
    uint32_t common = layout->common & ~(FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_ERROR);
    for (unsigned n = 0; n < 32; n++) {
        uint32_t bit = 1u << n;
        if ((common & bit) == 0) {
            continue;
        }
        size_t field_at = c.at;
        const uint8_t *p = attr_take(&c, attr_common_size[n]);
        if (p == NULL) {
            return FRD__DECODE_EMALFORMED;
        }
        if ((got->common & bit) == 0) {
            continue; // a slot kept by FSOPT_PACK_INVAL_ATTRS: no data
        }
        if (bit == FRD__ATTR_CMN_NAME) {
            if (attr_name(&c, p, field_at, out) < 0) {
                return FRD__DECODE_EMALFORMED;
            }
            have_name = 1;
        } else if (attr_read_common(bit, p, out) < 0) {
            return FRD__DECODE_EMALFORMED;
        }
    }
    for (unsigned n = 0; n < 32; n++) {
        uint32_t bit = 1u << n;
        if ((layout->dir & bit) == 0) {
            continue;
        }
        const uint8_t *p = attr_take(&c, attr_dir_size[n]);
        if (p == NULL) {
            return FRD__DECODE_EMALFORMED;
        }
        if (got->dir & bit) {
            attr_read_dir(bit, p, out);
        }
    }
    for (unsigned n = 0; n < 32; n++) {
        uint32_t bit = 1u << n;
        if ((layout->file & bit) == 0) {
            continue;
        }
        const uint8_t *p = attr_take(&c, attr_file_size[n]);
        if (p == NULL) {
            return FRD__DECODE_EMALFORMED;
        }
        if (got->file & bit) {
            attr_read_file(bit, p, out);
        }
    }
    // Every entry names itself, errors included; and the name lies after the fixed fields.
    if (!have_name || (size_t)(out->name - (const char *)c.entry) < c.at) {
        return FRD__DECODE_EMALFORMED;
    }
    *pos = at + entry_len;
    return 1;
}
