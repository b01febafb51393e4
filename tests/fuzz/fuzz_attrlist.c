// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * libFuzzer target for the getattrlistbulk decoder. Input: 12 bytes of request bitmaps
 * (common, dir, file; RETURNED_ATTRS and NAME are added), 1 option byte (bit 0:
 * FSOPT_PACK_INVAL_ATTRS), then the buffer, copied to memory of exactly its size so ASan
 * sees any read past it. Every entry returned must lie inside the buffer.
 */
#include "decode.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 13) {
        return 0;
    }
    struct frd__attr_set req = {0, 0, 0, 0, 0};
    memcpy(&req.common, data, 4);
    memcpy(&req.dir, data + 4, 4);
    memcpy(&req.file, data + 8, 4);
    req.common |= FRD__ATTR_CMN_RETURNED_ATTRS | FRD__ATTR_CMN_NAME;
    uint32_t options = (data[12] & 1) ? FRD__FSOPT_PACK_INVAL_ATTRS : 0;
    size -= 13;
    uint8_t *buf = malloc(size ? size : 1);
    if (buf == NULL) {
        return 0;
    }
    memcpy(buf, data + 13, size);
    size_t pos = 0;
    struct frd__attr_entry e;
    int rc;
    while ((rc = frd__decode_attr_entry(buf, size, &pos, &req, options, &e)) > 0) {
        const uint8_t *name = (const uint8_t *)e.name;
        if (name < buf || name + e.name_len >= buf + size || e.name_len == 0 ||
            name[e.name_len] != 0 || pos > size || (e.returned.common & ~req.common) != 0) {
            abort();
        }
    }
    if (rc != 0 && rc != FRD__DECODE_EMALFORMED) {
        abort();
    }
    if (!frd__attr_request_ok(&req) && size > 0 && rc != FRD__DECODE_EMALFORMED) {
        abort();
    }
    free(buf);
    return 0;
}
