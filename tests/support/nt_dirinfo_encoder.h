// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Test support: writes synthetic Windows directory-information records of the three classes. */
#ifndef FRD_TESTS_NT_DIRINFO_ENCODER_H
#define FRD_TESTS_NT_DIRINFO_ENCODER_H

#include "decode.h"

#include <stdint.h>
#include <string.h>

/** One record's values. The name is given as ASCII or as UTF-16 code units. */
struct nt_values {
    const char *name;       /**< ASCII name, or NULL to use name16 */
    const uint16_t *name16; /**< code units when name is NULL */
    size_t name16_len;
    int64_t crtime, atime, mtime, ctime; /**< FILETIME values */
    int64_t size, alloc;
    uint32_t attributes;
    uint32_t reparse_tag;
    uint8_t id[16]; /**< ID_EXTD: all 16 bytes; ID_BOTH: the first 8 */
};

/** Offset of FileName in each class. */
static inline size_t nt_name_offset(enum frd__nt_class cls)
{
    return cls == FRD__NT_FULL_DIR_INFO ? 68 : cls == FRD__NT_ID_BOTH_DIR_INFO ? 104 : 88;
}

/**
 * Writes one record at buf + pos with NextEntryOffset 0 (padding 0xCC) and returns its length
 * rounded up to 8. Chain records with nt_link().
 */
static inline size_t nt_put(uint8_t *buf, size_t pos, enum frd__nt_class cls,
                            const struct nt_values *v)
{
    size_t units = v->name ? strlen(v->name) : v->name16_len;
    size_t name_at = nt_name_offset(cls);
    size_t total = (name_at + 2 * units + 7) & ~(size_t)7;
    uint8_t *r = buf + pos;
    memset(r, 0xCC, total);
    uint32_t zero = 0;
    uint32_t index = 7;
    uint32_t name_bytes = (uint32_t)(2 * units);
    memcpy(r + 0, &zero, 4);
    memcpy(r + 4, &index, 4);
    memcpy(r + 8, &v->crtime, 8);
    memcpy(r + 16, &v->atime, 8);
    memcpy(r + 24, &v->mtime, 8);
    memcpy(r + 32, &v->ctime, 8);
    memcpy(r + 40, &v->size, 8);
    memcpy(r + 48, &v->alloc, 8);
    memcpy(r + 56, &v->attributes, 4);
    memcpy(r + 60, &name_bytes, 4);
    // EaSize carries the reparse tag in FULL and ID_BOTH records of reparse points.
    uint32_t ea = (v->attributes & FRD__FILE_ATTRIBUTE_REPARSE_POINT) ? v->reparse_tag : 0;
    memcpy(r + 64, &ea, 4);
    if (cls == FRD__NT_ID_BOTH_DIR_INFO) {
        r[68] = 0;             // ShortNameLength
        memset(r + 69, 0, 1);  // padding
        memset(r + 70, 0, 24); // ShortName
        memset(r + 94, 0, 2);  // padding
        memcpy(r + 96, v->id, 8);
    } else if (cls == FRD__NT_ID_EXTD_DIR_INFO) {
        memcpy(r + 68, &v->reparse_tag, 4);
        memcpy(r + 72, v->id, 16);
    }
    for (size_t i = 0; i < units; i++) {
        uint16_t u = v->name ? (uint16_t)(unsigned char)v->name[i] : v->name16[i];
        r[name_at + 2 * i] = (uint8_t)(u & 0xFF);
        r[name_at + 2 * i + 1] = (uint8_t)(u >> 8);
    }
    return total;
}

/** Sets the NextEntryOffset of the record at `pos`. */
static inline void nt_link(uint8_t *buf, size_t pos, uint32_t next)
{
    memcpy(buf + pos, &next, 4);
}

/** Writes records one after another, chained, and returns the bytes used. */
static inline size_t nt_put_all(uint8_t *buf, enum frd__nt_class cls, const struct nt_values *v,
                                size_t n)
{
    size_t pos = 0;
    size_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            nt_link(buf, prev, (uint32_t)(pos - prev));
        }
        prev = pos;
        pos += nt_put(buf, pos, cls, &v[i]);
    }
    return pos;
}

#endif // FRD_TESTS_NT_DIRINFO_ENCODER_H
