// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of UTF-16LE to UTF-8/WTF-8: the scalar decoder against an independent encoder, and
 * the SSE2 and AVX2 decoders against the scalar one on every code unit, every surrogate
 * pair, and random strings of every length 0 to 300 at every alignment.
 */
#include "decode.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/** Independent reference: encodes one code point (surrogate values included, WTF-8). */
static size_t ref_put(uint32_t cp, unsigned char *out)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 + cp / 64);
        out[1] = (unsigned char)(0x80 + cp % 64);
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 + cp / 4096);
        out[1] = (unsigned char)(0x80 + cp / 64 % 64);
        out[2] = (unsigned char)(0x80 + cp % 64);
        return 3;
    }
    out[0] = (unsigned char)(0xF0 + cp / 262144);
    out[1] = (unsigned char)(0x80 + cp / 4096 % 64);
    out[2] = (unsigned char)(0x80 + cp / 64 % 64);
    out[3] = (unsigned char)(0x80 + cp % 64);
    return 4;
}

/** Reference conversion of a whole unit array. */
static size_t ref_convert(const uint16_t *u, size_t n, unsigned char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = u[i];
        if (cp >= 0xD800 && cp < 0xDC00 && i + 1 < n && u[i + 1] >= 0xDC00 && u[i + 1] < 0xE000) {
            cp = 0x10000 + (cp - 0xD800) * 1024 + (u[i + 1] - 0xDC00);
            i++;
        }
        o += ref_put(cp, out + o);
    }
    return o;
}

/** Writes units little-endian at dst (any alignment), one byte at a time through memcpy:
 *  gcc 12 at -O3 otherwise vectorizes the loop and warns (stringop-overflow) about stores
 *  past a buffer it cannot prove n fits. */
static void to_le(const uint16_t *u, size_t n, uint8_t *dst)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t le[2] = {(uint8_t)(u[i] & 0xFF), (uint8_t)(u[i] >> 8)};
        memcpy(dst + 2 * i, le, 2);
    }
}

static const enum frd__utf16_impl simd_impls[] = {FRD__UTF16_SSE2, FRD__UTF16_AVX2};

/** Converts with every available version and checks each against `want`. */
static void check_all(const uint8_t *src, size_t n, const unsigned char *want, size_t want_len)
{
    char out[3 * 4096 + 64];
    assert_true(n <= 4096);
    size_t got = frd__utf16le_to_utf8_scalar(src, n, out);
    assert_int_equal(got, want_len);
    assert_true(memcmp(out, want, want_len) == 0);
    for (size_t k = 0; k < 2; k++) {
        if (!frd__utf16_impl_available(simd_impls[k])) {
            continue;
        }
        memset(out, 0x55, sizeof(out));
        got = frd__utf16le_to_utf8_impl(simd_impls[k], src, n, out);
        if (got != want_len || memcmp(out, want, want_len) != 0) {
            fail_msg("impl %d differs from scalar on %zu units", (int)simd_impls[k], n);
        }
        // Nothing written past the result.
        assert_int_equal((unsigned char)out[got], 0x55);
    }
    got = frd__utf16le_to_utf8(src, n, out);
    assert_int_equal(got, want_len);
    assert_true(memcmp(out, want, want_len) == 0);
}

static void test_utf16_known_vectors(void **state)
{
    (void)state;
    static const struct {
        uint16_t u[8];
        size_t n;
        const char *utf8;
    } cases[] = {
        {{'a', 'b'}, 2, "ab"},
        {{0xE9}, 1, "\xc3\xa9"},
        {{0x20AC}, 1, "\xe2\x82\xac"},
        {{0xD83D, 0xDE00}, 2, "\xf0\x9f\x98\x80"},         // U+1F600
        {{0xDBFF, 0xDFFF}, 2, "\xf4\x8f\xbf\xbf"},         // U+10FFFF
        {{0xD800}, 1, "\xed\xa0\x80"},                     // lone lead: WTF-8
        {{0xDC00, 'x'}, 2, "\xed\xb0\x80x"},               // lone trail
        {{0xDC00, 0xD800}, 2, "\xed\xb0\x80\xed\xa0\x80"}, // reversed pair: two lone units
        {{0xFFFF}, 1, "\xef\xbf\xbf"},
        {{0}, 1, ""}, // NUL: one zero byte (checked by length below)
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t src[16];
        to_le(cases[i].u, cases[i].n, src);
        size_t len = strlen(cases[i].utf8);
        if (cases[i].u[0] == 0) {
            len = 1;
        }
        check_all(src, cases[i].n, (const unsigned char *)cases[i].utf8, len);
    }
}

static void test_utf16_every_code_unit_alone_and_in_blocks(void **state)
{
    (void)state;
    // Each unit alone, as a block of 40 copies (fills SIMD blocks of one kind), and at the
    // last position of an 8- and a 16-unit block among ASCII.
    static uint16_t u[64];
    static uint8_t src[130];
    static unsigned char want[3 * 64];
    for (uint32_t v = 0; v <= 0xFFFF; v++) {
        to_le((const uint16_t[]){(uint16_t)v}, 1, src);
        size_t wl = ref_convert((const uint16_t[]){(uint16_t)v}, 1, want);
        check_all(src, 1, want, wl);
        for (size_t i = 0; i < 40; i++) {
            u[i] = (uint16_t)v;
        }
        to_le(u, 40, src + 1); // odd address too
        wl = ref_convert(u, 40, want);
        check_all(src + 1, 40, want, wl);
        for (size_t pos = 7; pos < 40; pos += 8) {
            for (size_t i = 0; i < 40; i++) {
                u[i] = (uint16_t)('a' + i % 26);
            }
            u[pos] = (uint16_t)v;
            to_le(u, 40, src);
            wl = ref_convert(u, 40, want);
            check_all(src, 40, want, wl);
        }
    }
}

static void test_utf16_every_surrogate_pair(void **state)
{
    (void)state;
    // For each lead, all 1024 trails in one string; odd leads start one unit later, so pairs
    // straddle every block boundary.
    static uint16_t u[2 * 1024 + 1];
    static uint8_t src[sizeof(u)];
    static unsigned char want[4 * 1024 + 1];
    for (uint32_t lead = 0xD800; lead < 0xDC00; lead++) {
        size_t n = 0;
        if (lead & 1) {
            u[n++] = 'x';
        }
        for (uint32_t trail = 0xDC00; trail < 0xE000; trail++) {
            u[n++] = (uint16_t)lead;
            u[n++] = (uint16_t)trail;
        }
        to_le(u, n, src);
        size_t wl = ref_convert(u, n, want);
        assert_int_equal(wl, 4 * 1024 + (lead & 1));
        check_all(src, n, want, wl);
    }
}

/** xorshift: deterministic pseudo-random numbers. */
static uint32_t rng_state = 0x12345678u;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/** A random unit from one of several mixes: ASCII, 2-byte, 3-byte, surrogates, any. */
static uint16_t random_unit(unsigned mix)
{
    uint32_t r = rng();
    switch (mix) {
    case 0:
        return (uint16_t)(0x20 + r % 0x5F);
    case 1:
        return (uint16_t)(r % 8 ? 0x80 + r % 0x780 : 'a');
    case 2:
        return (uint16_t)(r % 4 ? 0x800 + r % 0xF000 : 0x41 + r % 26);
    case 3:
        return (uint16_t)(r % 2 ? 0xD800 + r % 0x800 : 0x61 + r % 26);
    default:
        return (uint16_t)r;
    }
}

static void test_utf16_random_strings_of_every_length_at_every_alignment(void **state)
{
    (void)state;
    static uint16_t u[300];
    static uint8_t src[600 + 64];
    static unsigned char want[900];
    for (size_t len = 0; len <= 300; len++) {
        for (size_t align = 0; align < 32; align++) {
            for (unsigned mix = 0; mix < 5; mix++) {
                for (size_t i = 0; i < len; i++) {
                    // Mostly the mix, sometimes ASCII, so blocks change kind.
                    u[i] = rng() % 16 ? random_unit(mix) : (uint16_t)'_';
                }
                to_le(u, len, src + align);
                size_t wl = ref_convert(u, len, want);
                check_all(src + align, len, want, wl);
            }
        }
    }
}

static void test_utf16_simd_reads_only_inside_the_name(void **state)
{
    (void)state;
    // Names that end at the end of an allocation: ASan would report a read past it.
    for (size_t len = 0; len <= 70; len++) {
        uint8_t *src = malloc(2 * len + 1);
        assert_non_null(src);
        for (size_t i = 0; i < len; i++) {
            src[2 * i] = (uint8_t)('a' + i % 26);
            src[2 * i + 1] = 0;
        }
        char out[3 * 70 + 1];
        for (size_t k = 0; k < 2; k++) {
            if (frd__utf16_impl_available(simd_impls[k])) {
                assert_int_equal(frd__utf16le_to_utf8_impl(simd_impls[k], src, len, out), len);
            }
        }
        free(src);
    }
}

static void test_utf16_wtf8_round_trips_every_unit_and_pairs(void **state)
{
    (void)state;
    uint8_t src[8];
    char mid[16];
    uint8_t back[16];
    for (uint32_t v = 0; v <= 0xFFFF; v++) {
        uint16_t u[2] = {(uint16_t)v, (uint16_t)'z'};
        to_le(u, 2, src);
        size_t n = frd__utf16le_to_utf8_scalar(src, 2, mid);
        assert_int_equal(frd__wtf8_to_utf16le(mid, n, back), 2);
        assert_memory_equal(back, src, 4);
    }
    uint16_t pair[2] = {0xD83D, 0xDE00};
    to_le(pair, 2, src);
    size_t n = frd__utf16le_to_utf8_scalar(src, 2, mid);
    assert_int_equal(n, 4);
    assert_int_equal(frd__wtf8_to_utf16le(mid, n, back), 2);
    assert_memory_equal(back, src, 4);
}

static void test_utf16_invalid_wtf8_is_malformed(void **state)
{
    (void)state;
    static const char *bad[] = {
        "\x80",             // stray continuation
        "\xc3",             // missing continuation
        "\xc3(",            // wrong continuation
        "\xc0\xaf",         // overlong '/'
        "\xe0\x80\xaf",     // overlong, 3 bytes
        "\xf0\x80\x80\xaf", // overlong, 4 bytes
        "\xf4\x90\x80\x80", // above U+10FFFF
        "\xf5\x80\x80\x80", // lead byte past F4
        "\xff",
        "\xed\xa0\xbd\xed\xb8\x80", // a pair as two 3-byte surrogates (CESU-8)
        "\xe2\x82",                 // truncated
    };
    uint8_t out[64];
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (frd__wtf8_to_utf16le(bad[i], strlen(bad[i]), out) != FRD__DECODE_EMALFORMED) {
            fail_msg("case %zu accepted", i);
        }
    }
    // A lone lead followed by a non-trail is fine, and so is trail then lead.
    assert_int_equal(frd__wtf8_to_utf16le("\xed\xa0\x80x", 4, out), 2);
    assert_int_equal(frd__wtf8_to_utf16le("\xed\xb0\x80\xed\xa0\x80", 6, out), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf16_known_vectors),
        cmocka_unit_test(test_utf16_every_code_unit_alone_and_in_blocks),
        cmocka_unit_test(test_utf16_every_surrogate_pair),
        cmocka_unit_test(test_utf16_random_strings_of_every_length_at_every_alignment),
        cmocka_unit_test(test_utf16_simd_reads_only_inside_the_name),
        cmocka_unit_test(test_utf16_wtf8_round_trips_every_unit_and_pairs),
        cmocka_unit_test(test_utf16_invalid_wtf8_is_malformed),
    };
    printf("utf16: sse2 %s, avx2 %s\n",
           frd__utf16_impl_available(FRD__UTF16_SSE2) ? "tested" : "not available (skipped)",
           frd__utf16_impl_available(FRD__UTF16_AVX2) ? "tested" : "not available (skipped)");
    return cmocka_run_group_tests_name("utf16", tests, NULL, NULL);
}
