// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * libFuzzer target for the Windows directory-information decoder. Input: one byte choosing
 * the class (values past the three known ones test the refusal), then the buffer. Each name
 * returned is also converted to UTF-8, as the Windows backend does.
 */
#include "decode.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) {
        return 0;
    }
    enum frd__nt_class cls = (enum frd__nt_class)(data[0] % 4);
    size -= 1;
    uint8_t *buf = malloc(size ? size : 1);
    char *utf8 = malloc(FRD__UTF8_MAX(size / 2) + 1);
    if (buf == NULL || utf8 == NULL) {
        free(buf);
        free(utf8);
        return 0;
    }
    memcpy(buf, data + 1, size);
    size_t pos = 0;
    size_t last = 0;
    struct frd__nt_dirent e;
    int rc;
    while ((rc = frd__decode_nt_dirinfo(buf, size, cls, &pos, &e)) > 0) {
        if (e.name16 < buf || e.name_units == 0 ||
            e.name_units > (size_t)(buf + size - e.name16) / 2 || pos <= last || pos > size) {
            abort();
        }
        last = pos;
        size_t n = frd__utf16le_to_utf8(e.name16, e.name_units, utf8);
        if (n < e.name_units || n > FRD__UTF8_MAX(e.name_units)) {
            abort();
        }
    }
    if (rc != 0 && rc != FRD__DECODE_EMALFORMED) {
        abort();
    }
    free(utf8);
    free(buf);
    return 0;
}
