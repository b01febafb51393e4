// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Pure decoders of kernel directory buffers: bytes in, records out.
 *
 * No syscalls, no allocation, no errno and no OS headers, so every decoder builds and runs
 * on every host and one Linux fuzzer covers every platform's format. Each decoder reads
 * fields with memcpy (no alignment is trusted), checks every length and offset against the
 * buffer it was given, and returns FRD__DECODE_EMALFORMED for a buffer that lies. A
 * returned name points into the caller's buffer; it is never copied.
 */
#ifndef FRD_DECODE_DECODE_H
#define FRD_DECODE_DECODE_H

#include <stddef.h>
#include <stdint.h>

/** Same value as FRD_EMALFORMED in frd.h (checked by a static assertion in lib/). */
#define FRD__DECODE_EMALFORMED (-5001)

/** d_type values of Linux (and macOS) directory records. */
enum frd__dt {
    FRD__DT_UNKNOWN = 0,
    FRD__DT_FIFO = 1,
    FRD__DT_CHR = 2,
    FRD__DT_DIR = 4,
    FRD__DT_BLK = 6,
    FRD__DT_REG = 8,
    FRD__DT_LNK = 10,
    FRD__DT_SOCK = 12,
    FRD__DT_WHT = 14,
};

/** One Linux dirent64 record, decoded. */
struct frd__dirent64 {
    uint64_t ino;       /**< d_ino (not an identity: overlayfs may differ from st_ino) */
    int64_t off;        /**< d_off, an opaque cookie */
    const char *name;   /**< points into the buffer; NUL-terminated there */
    size_t name_len;    /**< bytes before the NUL, at least 1 */
    unsigned char type; /**< d_type, one of enum frd__dt (or any other byte the kernel wrote) */
};

/**
 * Decodes the Linux dirent64 record at offset *pos of buf[0, len), as getdents64 fills it:
 *
 *     0      8      16       18      19
 *     +------+------+--------+-------+--------------------------+---------+
 *     | ino  | off  | reclen | type  | name ... NUL             | padding |
 *     | u64  | s64  | u16    | u8    |                          | to 8    |
 *     +------+------+--------+-------+--------------------------+---------+
 *     |<------------------------- reclen (multiple of 8) ------------------>|
 *
 * @param pos in: the record's offset; out, on success: the next record's offset.
 * @return 1 with *out filled, 0 when *pos == len (no more records), or
 * FRD__DECODE_EMALFORMED when the record lies: reclen zero, below the smallest possible
 * record (24), not a multiple of 8, or past the end; an empty name; no NUL in the record;
 * or *pos beyond len. *pos is not moved on error.
 */
int frd__decode_dirent64(const uint8_t *buf, size_t len, size_t *pos, struct frd__dirent64 *out);

#endif // FRD_DECODE_DECODE_H
