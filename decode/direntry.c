// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Decoder of macOS struct direntry records, as __getdirentries64 fills them (the layout is
 * drawn in decode.h).
 *
 * xnu sizes a record DIRENT64_LEN(namlen) = (namlen + 32) & ~7 (bsd/sys/dirent.h), so the
 * smallest real one, a one-byte name, is 32 bytes; the decoder accepts any multiple of 8
 * that holds the header, the name and its NUL, and moves by d_reclen, never by the name.
 * A buffer of 1 KiB or more ends in a flags word that is not part of any record
 * (vfs_syscalls.c getdirentries64: the kernel shrinks the user's buffer by 4 bytes and
 * stores GETDIRENTRIES64_EOF there), so the records end at bufsize - 4 at most.
 */
#include "decode.h"

#include <string.h>

enum {
    DIRENTRY_INO = 0,
    DIRENTRY_SEEKOFF = 8,
    DIRENTRY_RECLEN = 16,
    DIRENTRY_NAMLEN = 18,
    DIRENTRY_TYPE = 20,
    DIRENTRY_NAME = 21,
    DIRENTRY_MIN_RECLEN = 24,
    DIRENTRY_ALIGN = 8,
    DIRENTRY_FLAGS_SIZE = 4,
};

int frd__direntry_eof(const uint8_t *buf, size_t bufsize, size_t nread)
{
    if (bufsize < FRD__GETDIRENTRIES64_EXTENDED_BUFSIZE) {
        return nread <= bufsize ? 0 : FRD__DECODE_EMALFORMED;
    }
    if (nread > bufsize - DIRENTRY_FLAGS_SIZE) {
        return FRD__DECODE_EMALFORMED;
    }
    uint32_t flags;
    memcpy(&flags, buf + bufsize - DIRENTRY_FLAGS_SIZE, sizeof(flags));
    return (flags & FRD__GETDIRENTRIES64_EOF) != 0;
}

int frd__decode_direntry(const uint8_t *buf, size_t len, size_t *pos, struct frd__direntry *out)
{
    size_t at = *pos;
    if (at == len) {
        return 0;
    }
    if (at > len || len - at < DIRENTRY_MIN_RECLEN) {
        return FRD__DECODE_EMALFORMED;
    }
    const uint8_t *rec = buf + at;
    uint16_t reclen;
    uint16_t namlen;
    memcpy(&reclen, rec + DIRENTRY_RECLEN, sizeof(reclen));
    memcpy(&namlen, rec + DIRENTRY_NAMLEN, sizeof(namlen));
    if (reclen % DIRENTRY_ALIGN != 0 || reclen > len - at || namlen == 0 ||
        (size_t)DIRENTRY_NAME + namlen + 1 > reclen) {
        return FRD__DECODE_EMALFORMED;
    }
    const uint8_t *name = rec + DIRENTRY_NAME;
    if (name[namlen] != 0 || memchr(name, 0, namlen) != NULL) {
        return FRD__DECODE_EMALFORMED;
    }
    memcpy(&out->ino, rec + DIRENTRY_INO, sizeof(out->ino));
    memcpy(&out->seekoff, rec + DIRENTRY_SEEKOFF, sizeof(out->seekoff));
    out->type = rec[DIRENTRY_TYPE];
    out->name = (const char *)name;
    out->name_len = namlen;
    *pos = at + reclen;
    return 1;
}
