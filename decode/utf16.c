// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * UTF-16LE to UTF-8 (WTF-8 for lone surrogates), one code point at a time, and back.
 *
 * This is the reference version: the SSE2 and AVX2 versions in utf16_simd.c hand it every
 * block they cannot do themselves and every tail, and the tests hold them to its output on
 * every code unit, every surrogate pair and random strings. Windows names are sequences of
 * 16-bit units with no validity rule (NTFS stores lone surrogates as they come), so nothing
 * here can fail: a pair becomes one 4-byte sequence, a lone surrogate the 3-byte form of
 * its own value (WTF-8), and frd__wtf8_to_utf16le() reverses both exactly.
 */
#include "decode.h"

static uint32_t u16_at(const uint8_t *src, size_t i)
{
    return (uint32_t)src[2 * i] | (uint32_t)src[2 * i + 1] << 8;
}

size_t frd__utf16le_to_utf8_scalar(const uint8_t *src, size_t units, char *dst)
{
    unsigned char *out = (unsigned char *)dst;
    size_t o = 0;
    size_t i = 0;
    while (i < units) {
        uint32_t u = u16_at(src, i++);
        if (u < 0x80) {
            out[o++] = (unsigned char)u;
        } else if (u < 0x800) {
            out[o++] = (unsigned char)(0xC0 | u >> 6);
            out[o++] = (unsigned char)(0x80 | (u & 0x3F));
        } else {
            if (u - 0xD800 < 0x400 && i < units) {
                uint32_t low = u16_at(src, i);
                if (low - 0xDC00 < 0x400) {
                    uint32_t cp = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                    i++;
                    out[o++] = (unsigned char)(0xF0 | cp >> 18);
                    out[o++] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
                    out[o++] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
                    out[o++] = (unsigned char)(0x80 | (cp & 0x3F));
                    continue;
                }
            }
            // Any other unit of three bytes, a lone surrogate included (WTF-8).
            out[o++] = (unsigned char)(0xE0 | u >> 12);
            out[o++] = (unsigned char)(0x80 | (u >> 6 & 0x3F));
            out[o++] = (unsigned char)(0x80 | (u & 0x3F));
        }
    }
    return o;
}

static void u16_put(uint8_t *dst, size_t i, uint32_t u)
{
    dst[2 * i] = (uint8_t)(u & 0xFF);
    dst[2 * i + 1] = (uint8_t)(u >> 8);
}

/** @return the number of continuation bytes a lead byte announces, or -1. */
static int wtf8_tail(unsigned char b, uint32_t *bits)
{
    if (b < 0x80) {
        *bits = b;
        return 0;
    }
    if (b >= 0xC2 && b <= 0xDF) {
        *bits = b & 0x1Fu;
        return 1;
    }
    if (b >= 0xE0 && b <= 0xEF) {
        *bits = b & 0x0Fu;
        return 2;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        *bits = b & 0x07u;
        return 3;
    }
    return -1; // a continuation byte, an overlong 2-byte lead (C0, C1) or F5..FF
}

ptrdiff_t frd__wtf8_to_utf16le(const char *src, size_t len, uint8_t *dst)
{
    static const uint32_t min_for_tail[4] = {0, 0x80, 0x800, 0x10000};
    const unsigned char *in = (const unsigned char *)src;
    size_t i = 0;
    size_t o = 0;
    int after_lead_surrogate = 0;
    while (i < len) {
        uint32_t cp;
        int tail = wtf8_tail(in[i], &cp);
        if (tail < 0 || (size_t)tail > len - i - 1) {
            return FRD__DECODE_EMALFORMED;
        }
        for (int k = 1; k <= tail; k++) {
            unsigned char c = in[i + (size_t)k];
            if ((c & 0xC0) != 0x80) {
                return FRD__DECODE_EMALFORMED;
            }
            cp = cp << 6 | (c & 0x3Fu);
        }
        if (cp < min_for_tail[tail] || cp > 0x10FFFF) {
            return FRD__DECODE_EMALFORMED; // overlong, or beyond Unicode
        }
        i += (size_t)tail + 1;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            u16_put(dst, o++, 0xD800 | cp >> 10);
            u16_put(dst, o++, 0xDC00 | (cp & 0x3FF));
            after_lead_surrogate = 0;
            continue;
        }
        // A pair spelled as two 3-byte surrogates is not WTF-8: it must be one 4-byte form,
        // or the same name would have two spellings.
        if (cp - 0xDC00 < 0x400 && after_lead_surrogate) {
            return FRD__DECODE_EMALFORMED;
        }
        after_lead_surrogate = cp - 0xD800 < 0x400;
        u16_put(dst, o++, cp);
    }
    return (ptrdiff_t)o;
}
