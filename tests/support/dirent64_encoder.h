// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Test support: writes synthetic Linux dirent64 records, well formed or deliberately not. */
#ifndef FRD_TESTS_DIRENT64_ENCODER_H
#define FRD_TESTS_DIRENT64_ENCODER_H

#include <stdint.h>
#include <string.h>

/** The record length the kernel would use for a name of name_len bytes. */
static inline uint16_t dirent64_reclen(size_t name_len)
{
    return (uint16_t)((19 + name_len + 1 + 7) & ~(size_t)7);
}

/**
 * Writes one record at buf + pos with the given reclen (0: the kernel's) and returns the
 * position after it (pos + reclen). The padding is filled with 0xAA so a decoder that trusts
 * strlen over reclen is caught.
 */
static inline size_t dirent64_put(uint8_t *buf, size_t pos, uint64_t ino, uint8_t type,
                                  const char *name, size_t name_len, uint16_t reclen)
{
    uint16_t real = dirent64_reclen(name_len);
    if (reclen == 0) {
        reclen = real;
    }
    size_t span = reclen > real ? reclen : real;
    memset(buf + pos, 0xAA, span);
    int64_t off = (int64_t)(pos + reclen);
    memcpy(buf + pos, &ino, 8);
    memcpy(buf + pos + 8, &off, 8);
    memcpy(buf + pos + 16, &reclen, 2);
    buf[pos + 18] = type;
    memcpy(buf + pos + 19, name, name_len);
    buf[pos + 19 + name_len] = 0;
    return pos + reclen;
}

#endif // FRD_TESTS_DIRENT64_ENCODER_H
