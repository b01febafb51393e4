// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The Linux dirent64 decoder's body (frd__decode_dirent64(), decode.h, has its contract),
 * inline: the Linux lister's loop decodes each record without a call; decode/dirent64.c
 * makes it the out-of-line function the tests and the fuzzer call.
 *
 * The kernel rounds d_reclen up to 8 (ALIGN(offsetof(d_name) + namlen + 1, 8)), so the
 * next record starts at pos + reclen, never at pos + strlen(name): the padding may hold
 * anything. The smallest real record, a one-byte name, is 24 bytes.
 */
#ifndef FRD_DECODE_DIRENT64_H
#define FRD_DECODE_DIRENT64_H

#include "decode.h"

#include <string.h>

/** Offsets and sizes of a dirent64 record (the drawing in decode.h). */
enum {
    DIRENT64_INO = 0,
    DIRENT64_OFF = 8,
    DIRENT64_RECLEN = 16,
    DIRENT64_TYPE = 18,
    DIRENT64_NAME = 19,
    DIRENT64_MIN_RECLEN = 24,
    DIRENT64_ALIGN = 8,
};

/** frd__decode_dirent64() (decode.h), inline. */
static inline int frd__decode_dirent64_inline(const uint8_t *buf, size_t len, size_t *pos,
                                              struct frd__dirent64 *out)
{
    size_t at = *pos;
    if (at == len) {
        return 0;
    }
    if (at > len || len - at < DIRENT64_MIN_RECLEN) {
        return FRD__DECODE_EMALFORMED;
    }
    const uint8_t *rec = buf + at;

    uint16_t reclen;
    memcpy(&reclen, rec + DIRENT64_RECLEN, sizeof(reclen));
    if (reclen < DIRENT64_MIN_RECLEN || reclen % DIRENT64_ALIGN != 0 || reclen > len - at) {
        return FRD__DECODE_EMALFORMED;
    }

    const uint8_t *name = rec + DIRENT64_NAME;
    const uint8_t *nul = memchr(name, '\0', (size_t)reclen - DIRENT64_NAME);
    if (nul == NULL || nul == name) {
        return FRD__DECODE_EMALFORMED;
    }

    memcpy(&out->ino, rec + DIRENT64_INO, sizeof(out->ino));
    memcpy(&out->off, rec + DIRENT64_OFF, sizeof(out->off));
    out->type = rec[DIRENT64_TYPE];
    out->name = (const char *)name;
    out->name_len = (size_t)(nul - name);
    *pos = at + reclen;
    return 1;
}

#endif // FRD_DECODE_DIRENT64_H
