// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * libFuzzer target for the dirent64 decoder: any bytes are a getdents64 buffer. The decoder
 * must return records inside the buffer, advance strictly, and never read out of bounds
 * (ASan checks the reads: the input is copied to a buffer of exactly its size).
 */
#include "decode.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1);
    if (buf == NULL) {
        return 0;
    }
    if (size > 0) {
        memcpy(buf, data, size);
    }
    size_t pos = 0;
    struct frd__dirent64 rec;
    int rc;
    while ((rc = frd__decode_dirent64(buf, size, &pos, &rec)) > 0) {
        const uint8_t *name = (const uint8_t *)rec.name;
        if (name < buf || name + rec.name_len >= buf + size || rec.name_len == 0 ||
            name[rec.name_len] != 0 || pos > size) {
            abort();
        }
    }
    if (rc != 0 && rc != FRD__DECODE_EMALFORMED) {
        abort();
    }
    free(buf);
    return 0;
}
