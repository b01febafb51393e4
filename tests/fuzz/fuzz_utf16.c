// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * libFuzzer target for UTF-16 names: the input's bytes are code units (an odd last byte is
 * dropped). The SSE2 and AVX2 decoders must produce exactly what the scalar one does, the
 * WTF-8 must decode back to the same units, and the input read as WTF-8, when accepted,
 * must round-trip the other way too.
 */
#include "decode.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t units = size / 2;
    uint8_t *src = malloc(2 * units + 1);
    char *want = malloc(FRD__UTF8_MAX(units) + 1);
    char *got = malloc(FRD__UTF8_MAX(size) + 4); // also holds the raw input's round trip
    uint8_t *back = malloc(2 * size + 2);
    if (src == NULL || want == NULL || got == NULL || back == NULL) {
        goto done;
    }
    memcpy(src, data, 2 * units);
    size_t n = frd__utf16le_to_utf8_scalar(src, units, want);
    if (n > FRD__UTF8_MAX(units)) {
        abort();
    }
    static const enum frd__utf16_impl impls[] = {FRD__UTF16_SSE2, FRD__UTF16_AVX2};
    for (size_t k = 0; k < 2; k++) {
        if (frd__utf16_impl_available(impls[k])) {
            size_t m = frd__utf16le_to_utf8_impl(impls[k], src, units, got);
            if (m != n || memcmp(got, want, n) != 0) {
                abort();
            }
        }
    }
    if (frd__wtf8_to_utf16le(want, n, back) != (ptrdiff_t)units ||
        memcmp(back, src, 2 * units) != 0) {
        abort();
    }
    // The raw bytes as WTF-8: if accepted, converting back must give the same bytes.
    ptrdiff_t u = frd__wtf8_to_utf16le((const char *)data, size, back);
    if (u >= 0) {
        size_t m = frd__utf16le_to_utf8_scalar(back, (size_t)u, got);
        if (m != size || memcmp(got, data, size) != 0) {
            abort();
        }
    }
done:
    free(src);
    free(want);
    free(got);
    free(back);
    return 0;
}
