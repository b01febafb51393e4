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

size_t index_row_pack(const struct index_row *row, unsigned char *out)
{
    // Differences taken as unsigned: they wrap, and come back exact whatever the times.
    uint64_t mtime = (uint64_t)row->mtime_ns, ctime = (uint64_t)row->ctime_ns;
    bool has_btime = row->btime_ns != 0;
    size_t n = 0;
    n += index_put_varint(out + n, (uint64_t)row->type << 2 | (uint64_t)row->persistent << 1 |
                                       (uint64_t)has_btime);
    n += index_put_varint(out + n, row->fields);
    n += index_put_varint(out + n, row->size);
    n += index_put_varint(out + n, zigzag(mtime));
    n += index_put_varint(out + n, zigzag(ctime - mtime));
    n += index_put_varint(out + n, row->file_id);
    n += index_put_varint(out + n, row->dev);
    n += index_put_varint(out + n, row->mode);
    n += index_put_varint(out + n, row->nlink);
    n += index_put_varint(out + n, row->uid);
    n += index_put_varint(out + n, row->gid);
    if (has_btime) {
        n += index_put_varint(out + n, zigzag((uint64_t)row->btime_ns - ctime));
    }
    n += index_put_varint(out + n, row->rdev);
    n += index_put_varint(out + n, row->attributes);
    n += index_put_varint(out + n, row->attributes_known);
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
    const unsigned char *p = data, *end = p + len;
    uint64_t head, fields, mtime, ctime_off, mode, nlink, uid, gid, btime_off = 0;
    uint64_t attrs, attrs_known;
    if (data == NULL || next(&p, end, (uint64_t)UINT8_MAX << 2 | 3, &head) < 0 ||
        next(&p, end, UINT32_MAX, &fields) < 0 || next(&p, end, UINT64_MAX, &row->size) < 0 ||
        next(&p, end, UINT64_MAX, &mtime) < 0 || next(&p, end, UINT64_MAX, &ctime_off) < 0 ||
        next(&p, end, UINT64_MAX, &row->file_id) < 0 || next(&p, end, UINT64_MAX, &row->dev) < 0 ||
        next(&p, end, UINT32_MAX, &mode) < 0 || next(&p, end, UINT32_MAX, &nlink) < 0 ||
        next(&p, end, UINT32_MAX, &uid) < 0 || next(&p, end, UINT32_MAX, &gid) < 0 ||
        ((head & 1) && next(&p, end, UINT64_MAX, &btime_off) < 0) ||
        next(&p, end, UINT64_MAX, &row->rdev) < 0 || next(&p, end, UINT32_MAX, &attrs) < 0 ||
        next(&p, end, UINT32_MAX, &attrs_known) < 0 || p != end) {
        return -1;
    }
    uint64_t m = unzigzag(mtime), c = m + unzigzag(ctime_off);
    row->type = (uint8_t)(head >> 2);
    row->persistent = (head & 2) != 0;
    row->fields = (uint32_t)fields;
    row->mtime_ns = (int64_t)m;
    row->ctime_ns = (int64_t)c;
    row->btime_ns = (head & 1) ? (int64_t)(c + unzigzag(btime_off)) : 0;
    if ((head & 1) && row->btime_ns == 0) {
        return -1; // a birth time said kept is never 0
    }
    row->mode = (uint32_t)mode;
    row->nlink = (uint32_t)nlink;
    row->uid = (uint32_t)uid;
    row->gid = (uint32_t)gid;
    row->attributes = (uint32_t)attrs;
    row->attributes_known = (uint32_t)attrs_known;
    return 0;
}
