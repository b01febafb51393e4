// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * libFuzzer target for the getdirentries64 decoder. Input: a 2-byte byte count "returned by
 * the call", then the buffer (its whole size is bufsize, so buffers of 1 KiB and more carry
 * the flags word). The records of buf[0, nread) are decoded when the count fits.
 */
#include "decode.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) {
        return 0;
    }
    size_t nread = (size_t)data[0] | (size_t)data[1] << 8;
    size -= 2;
    uint8_t *buf = malloc(size ? size : 1);
    if (buf == NULL) {
        return 0;
    }
    memcpy(buf, data + 2, size);
    int eof = frd__direntry_eof(buf, size, nread);
    if (eof != 0 && eof != 1 && eof != FRD__DECODE_EMALFORMED) {
        abort();
    }
    if (eof >= 0) {
        size_t pos = 0;
        struct frd__direntry rec;
        int rc;
        while ((rc = frd__decode_direntry(buf, nread, &pos, &rec)) > 0) {
            const uint8_t *name = (const uint8_t *)rec.name;
            if (name < buf || name + rec.name_len >= buf + nread || rec.name_len == 0 ||
                name[rec.name_len] != 0 || pos > nread) {
                abort();
            }
        }
        if (rc != 0 && rc != FRD__DECODE_EMALFORMED) {
            abort();
        }
    }
    free(buf);
    return 0;
}
