// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Test support: writes synthetic macOS struct direntry records (getdirentries64). */
#ifndef FRD_TESTS_DIRENTRY_ENCODER_H
#define FRD_TESTS_DIRENTRY_ENCODER_H

#include <stdint.h>
#include <string.h>

/** DIRENT64_LEN of xnu's bsd/sys/dirent.h: the record length for a name of namlen bytes. */
static inline uint16_t direntry_reclen(size_t namlen)
{
    return (uint16_t)((namlen + 32) & ~(size_t)7);
}

/** Writes one record at buf + pos (padding 0xAA) and returns the position after it. */
static inline size_t direntry_put(uint8_t *buf, size_t pos, uint64_t ino, uint8_t type,
                                  const char *name)
{
    size_t namlen = strlen(name);
    uint16_t reclen = direntry_reclen(namlen);
    uint16_t nl = (uint16_t)namlen;
    uint64_t seekoff = pos + reclen;
    memset(buf + pos, 0xAA, reclen);
    memcpy(buf + pos, &ino, 8);
    memcpy(buf + pos + 8, &seekoff, 8);
    memcpy(buf + pos + 16, &reclen, 2);
    memcpy(buf + pos + 18, &nl, 2);
    buf[pos + 20] = type;
    memcpy(buf + pos + 21, name, namlen + 1);
    return pos + reclen;
}

#endif // FRD_TESTS_DIRENTRY_ENCODER_H
