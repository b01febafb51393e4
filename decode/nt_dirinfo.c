// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Decoder of the Windows directory-information records FILE_FULL_DIR_INFO,
 * FILE_ID_BOTH_DIR_INFO and FILE_ID_EXTD_DIR_INFO (the layouts are drawn in decode.h;
 * offsets from MS-FSCC 2.4 and the SDK's winbase.h, checked against mingw-w64's headers by
 * static assertions in platform/win.c).
 *
 * GetFileInformationByHandleEx does not say how many bytes it filled: records chain from
 * offset 0 by NextEntryOffset until one says 0, so the decoder is given the buffer's size
 * and follows the chain, requiring every hop to go forward by a multiple of 8 (MS-FSCC
 * 2.4: records are 8-byte aligned) and to land where another header still fits. A record's
 * name is UTF-16LE and not NUL-terminated; the decoder returns it as code units and leaves
 * the conversion to frd__utf16le_to_utf8().
 */
#include "decode.h"

#include <string.h>

enum {
    NT_NEXT = 0,
    NT_CRTIME = 8,
    NT_ATIME = 16,
    NT_MTIME = 24,
    NT_CTIME = 32,
    NT_EOF = 40,
    NT_ALLOC = 48,
    NT_ATTRIBUTES = 56,
    NT_NAMELEN = 60,
    NT_EASIZE = 64,
    NT_FULL_NAME = 68,
    NT_BOTH_ID = 96,
    NT_BOTH_NAME = 104,
    NT_EXTD_TAG = 68,
    NT_EXTD_ID = 72,
    NT_EXTD_NAME = 88,
    NT_ALIGN = 8,
};

/** FILETIME of 1970-01-01T00:00:00Z: 100 ns intervals since 1601-01-01. */
#define NT_UNIX_EPOCH_FILETIME INT64_C(116444736000000000)

int64_t frd__filetime_to_unix_ns(int64_t filetime)
{
    // (filetime - epoch) * 100 without overflow: saturate what int64 ns cannot hold
    // (dates before 1677 or after 2262).
    if (filetime < INT64_MIN / 100 + NT_UNIX_EPOCH_FILETIME) {
        return INT64_MIN;
    }
    int64_t ticks = filetime - NT_UNIX_EPOCH_FILETIME;
    if (ticks > INT64_MAX / 100) {
        return INT64_MAX;
    }
    if (ticks < INT64_MIN / 100) {
        return INT64_MIN;
    }
    return ticks * 100;
}

uint32_t frd__nt_mode(unsigned char dt, uint32_t attributes)
{
    if (dt == FRD__DT_LNK) {
        return 0120777u;
    }
    uint32_t mode = (attributes & FRD__FILE_ATTRIBUTE_READONLY) ? 0444u : 0666u;
    if (dt == FRD__DT_DIR) {
        mode |= 0111u;
    }
    switch (dt) {
    case FRD__DT_FIFO:
    case FRD__DT_CHR:
    case FRD__DT_DIR:
    case FRD__DT_BLK:
    case FRD__DT_REG:
    case FRD__DT_SOCK:
        mode |= (uint32_t)dt << 12;
        break;
    default:
        break;
    }
    return mode;
}

static int64_t nt_s64(const uint8_t *p)
{
    int64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static uint32_t nt_u32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static uint64_t nt_size(const uint8_t *p)
{
    int64_t v = nt_s64(p);
    return v < 0 ? 0 : (uint64_t)v;
}

static unsigned char nt_type(uint32_t attributes, uint32_t tag)
{
    if (attributes & FRD__FILE_ATTRIBUTE_REPARSE_POINT) {
        switch (tag) {
        case FRD__IO_REPARSE_TAG_AF_UNIX:
            return FRD__DT_SOCK;
        case FRD__IO_REPARSE_TAG_LX_FIFO:
            return FRD__DT_FIFO;
        case FRD__IO_REPARSE_TAG_LX_CHR:
            return FRD__DT_CHR;
        case FRD__IO_REPARSE_TAG_LX_BLK:
            return FRD__DT_BLK;
        default:
            break;
        }
        if (tag & FRD__IO_REPARSE_TAG_NAME_SURROGATE) {
            return FRD__DT_LNK;
        }
    }
    return (attributes & FRD__FILE_ATTRIBUTE_DIRECTORY) ? FRD__DT_DIR : FRD__DT_REG;
}

/** @return 1 if the UTF-16 name is "." or "..". */
static int nt_is_dot(const uint8_t *name16, size_t units)
{
    static const uint8_t dots[4] = {'.', 0, '.', 0};
    return units <= 2 && memcmp(name16, dots, units * 2) == 0;
}

/** Decodes the record at `at`, dots included. @return 1 or FRD__DECODE_EMALFORMED. */
static int nt_decode_one(const uint8_t *buf, size_t len, enum frd__nt_class cls, size_t at,
                         size_t *next, struct frd__nt_dirent *out)
{
    size_t name_at;
    switch (cls) {
    case FRD__NT_FULL_DIR_INFO:
        name_at = NT_FULL_NAME;
        break;
    case FRD__NT_ID_BOTH_DIR_INFO:
        name_at = NT_BOTH_NAME;
        break;
    case FRD__NT_ID_EXTD_DIR_INFO:
        name_at = NT_EXTD_NAME;
        break;
    default:
        return FRD__DECODE_EMALFORMED;
    }
    if (at > len || len - at < name_at) {
        return FRD__DECODE_EMALFORMED;
    }
    const uint8_t *rec = buf + at;
    uint32_t name_bytes = nt_u32(rec + NT_NAMELEN);
    if (name_bytes == 0 || name_bytes % 2 != 0 || name_bytes > len - at - name_at) {
        return FRD__DECODE_EMALFORMED;
    }
    uint32_t hop = nt_u32(rec + NT_NEXT);
    if (hop == 0) {
        *next = len;
    } else {
        // The next record must start past this one's name, on an 8-byte boundary, with
        // room for at least its header (checked in full when it is decoded).
        if (hop % NT_ALIGN != 0 || hop < name_at + name_bytes || hop >= len - at) {
            return FRD__DECODE_EMALFORMED;
        }
        *next = at + hop;
    }

    memset(out, 0, sizeof(*out));
    out->name16 = rec + name_at;
    out->name_units = name_bytes / 2;
    out->btime_ns = frd__filetime_to_unix_ns(nt_s64(rec + NT_CRTIME));
    out->atime_ns = frd__filetime_to_unix_ns(nt_s64(rec + NT_ATIME));
    out->mtime_ns = frd__filetime_to_unix_ns(nt_s64(rec + NT_MTIME));
    out->ctime_ns = frd__filetime_to_unix_ns(nt_s64(rec + NT_CTIME));
    out->size = nt_size(rec + NT_EOF);
    out->alloc_size = nt_size(rec + NT_ALLOC);
    out->attributes = nt_u32(rec + NT_ATTRIBUTES);
    int reparse = (out->attributes & FRD__FILE_ATTRIBUTE_REPARSE_POINT) != 0;
    switch (cls) {
    case FRD__NT_FULL_DIR_INFO:
        out->reparse_tag = reparse ? nt_u32(rec + NT_EASIZE) : 0;
        break;
    case FRD__NT_ID_BOTH_DIR_INFO: {
        out->reparse_tag = reparse ? nt_u32(rec + NT_EASIZE) : 0;
        memcpy(out->file_id128, rec + NT_BOTH_ID, 8);
        memcpy(&out->file_id, rec + NT_BOTH_ID, 8);
        out->has_id = 1;
        break;
    }
    case FRD__NT_ID_EXTD_DIR_INFO: {
        out->reparse_tag = reparse ? nt_u32(rec + NT_EXTD_TAG) : 0;
        memcpy(out->file_id128, rec + NT_EXTD_ID, 16);
        uint64_t high;
        memcpy(&high, rec + NT_EXTD_ID + 8, sizeof(high));
        if (high == 0) {
            // FILE_ID_128 is a byte array; its low half read little-endian is the 64-bit id
            // NTFS also reports in FILE_ID_BOTH_DIR_INFO.
            memcpy(&out->file_id, rec + NT_EXTD_ID, 8);
            out->has_id = 1;
        }
        break;
    }
    }
    out->type = nt_type(out->attributes, out->reparse_tag);
    return 1;
}

int frd__decode_nt_dirinfo(const uint8_t *buf, size_t len, enum frd__nt_class cls, size_t *pos,
                           struct frd__nt_dirent *out)
{
    size_t at = *pos;
    for (;;) {
        if (at == len) {
            *pos = at;
            return 0;
        }
        size_t next;
        int rc = nt_decode_one(buf, len, cls, at, &next, out);
        if (rc < 0) {
            return rc; // *pos still names the first record not returned
        }
        at = next;
        if (!nt_is_dot(out->name16, out->name_units)) {
            *pos = at;
            return 1;
        }
    }
}
