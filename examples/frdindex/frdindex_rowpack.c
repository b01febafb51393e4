// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** An entry's metadata as one BLOB and back (the format: frdindex_rowpack.h). */
#include "frdindex_rowpack.h"

#include "frdindex_varint.h"

#include <stdint.h>

/** Signed to unsigned, small magnitudes small (0, -1, 1, -2 ... -> 0, 1, 2, 3 ...). */
static uint64_t zigzag(uint64_t v)
{
    return (v << 1) ^ (0 - (v >> 63));
}

static uint64_t unzigzag(uint64_t v)
{
    return (v >> 1) ^ (0 - (v & 1));
}

/** The mode's 4 type bits below its 12 permission bits: a file's or directory's mode in 2
 *  bytes, not 3 (the bits above 16 as they are). */
static uint64_t mode_out(uint32_t mode)
{
    return (mode & 0xffff0000u) | (mode & 07777u) << 4 | (mode >> 12 & 0xfu);
}

static uint32_t mode_in(uint64_t v)
{
    return (uint32_t)((v & 0xffff0000u) | (v >> 4 & 07777u) | (v & 0xfu) << 12);
}

/** @return whether the row's fields, attributes and rdev are those of most rows (not kept). */
static bool is_common(const struct index_row *row)
{
    return row->fields == INDEX_ROW_COMMON_FIELDS &&
           row->attributes_known == INDEX_ROW_COMMON_ATTRS_KNOWN && row->attributes == 0 &&
           row->rdev == 0;
}

size_t index_row_pack(const struct index_row *row, unsigned char *out)
{
    // Differences taken as unsigned: they wrap, and come back exact whatever the times.
    uint64_t mtime = (uint64_t)row->mtime_ns, ctime = (uint64_t)row->ctime_ns;
    bool has_btime = row->btime_ns != 0, common = is_common(row);
    size_t n = 0;
    n += index_put_varint(out + n, (uint64_t)row->type << 3 | (uint64_t)common << 2 |
                                       (uint64_t)row->persistent << 1 | (uint64_t)has_btime);
    if (!common) {
        n += index_put_varint(out + n, row->fields);
    }
    n += index_put_varint(out + n, row->size);
    n += index_put_varint(out + n, zigzag(mtime));
    n += index_put_varint(out + n, zigzag(ctime - mtime));
    n += index_put_varint(out + n, row->file_id);
    n += index_put_varint(out + n, row->dev);
    n += index_put_varint(out + n, mode_out(row->mode));
    n += index_put_varint(out + n, row->nlink);
    n += index_put_varint(out + n, row->uid);
    n += index_put_varint(out + n, row->gid);
    if (has_btime) {
        n += index_put_varint(out + n, zigzag((uint64_t)row->btime_ns - ctime));
    }
    if (!common) {
        n += index_put_varint(out + n, row->rdev);
        n += index_put_varint(out + n, row->attributes);
        n += index_put_varint(out + n, row->attributes_known);
    }
    return n;
}

/** Reads the next varint of [*p, end) into *v, no larger than max. @return 0 or -1. */
static int next(const unsigned char **p, const unsigned char *end, uint64_t max, uint64_t *v)
{
    size_t used = index_get_varint(*p, (size_t)(end - *p), v);
    if (used == 0 || *v > max) {
        return -1;
    }
    *p += used;
    return 0;
}

int index_row_unpack(const void *data, size_t len, struct index_row *row)
{
    if (data == NULL) {
        return -1; // (SQLite's NULL, or an empty BLOB)
    }
    const unsigned char *p = data, *end = p + len;
    uint64_t head, fields = INDEX_ROW_COMMON_FIELDS, mtime, ctime_off, mode, nlink, uid, gid;
    uint64_t btime_off = 0, attrs = 0, attrs_known = INDEX_ROW_COMMON_ATTRS_KNOWN;
    if (next(&p, end, (uint64_t)UINT8_MAX << 3 | 7, &head) < 0) {
        return -1;
    }
    bool common = (head & 4) != 0, has_btime = (head & 1) != 0;
    row->rdev = 0;
    if ((!common && next(&p, end, UINT32_MAX, &fields) < 0) ||
        next(&p, end, UINT64_MAX, &row->size) < 0 || next(&p, end, UINT64_MAX, &mtime) < 0 ||
        next(&p, end, UINT64_MAX, &ctime_off) < 0 || next(&p, end, UINT64_MAX, &row->file_id) < 0 ||
        next(&p, end, UINT64_MAX, &row->dev) < 0 || next(&p, end, UINT32_MAX, &mode) < 0 ||
        next(&p, end, UINT32_MAX, &nlink) < 0 || next(&p, end, UINT32_MAX, &uid) < 0 ||
        next(&p, end, UINT32_MAX, &gid) < 0 ||
        (has_btime && next(&p, end, UINT64_MAX, &btime_off) < 0) ||
        (!common &&
         (next(&p, end, UINT64_MAX, &row->rdev) < 0 || next(&p, end, UINT32_MAX, &attrs) < 0 ||
          next(&p, end, UINT32_MAX, &attrs_known) < 0)) ||
        p != end) {
        return -1;
    }
    uint64_t m = unzigzag(mtime), c = m + unzigzag(ctime_off);
    row->type = (uint8_t)(head >> 3);
    row->persistent = (head & 2) != 0;
    row->fields = (uint32_t)fields;
    row->mtime_ns = (int64_t)m;
    row->ctime_ns = (int64_t)c;
    row->btime_ns = has_btime ? (int64_t)(c + unzigzag(btime_off)) : 0;
    if (has_btime && row->btime_ns == 0) {
        return -1; // a birth time said kept is never 0
    }
    row->mode = mode_in(mode);
    row->nlink = (uint32_t)nlink;
    row->uid = (uint32_t)uid;
    row->gid = (uint32_t)gid;
    row->attributes = (uint32_t)attrs;
    row->attributes_known = (uint32_t)attrs_known;
    return 0;
}
