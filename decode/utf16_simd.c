// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * SSE2 and AVX2 versions of UTF-16LE to UTF-8, and the run-time choice between them.
 *
 * Why this file has conditionals when decode/ has none: the rest of decode/ is portable C,
 * but vector code exists only for one architecture and the way to ask the CPU what it can
 * do depends on the compiler (GCC and clang: __builtin_cpu_supports; MSVC: __cpuid and
 * _xgetbv). Those tests (architecture and compiler, never the OS) are kept to this one file
 * so the record decoders stay free of them; on other CPUs, or when CMake's
 * FRD_UTF16_SCALAR option is on, only the scalar version is built and chosen.
 *
 * The method, per block of 16 (AVX2) or 8 (SSE2) code units, read with unaligned loads
 * that never pass the end of the name:
 *   - all below 0x80 (ASCII, most names): narrow each unit to a byte (packus);
 *   - all in [0x80, 0x800) (Latin-1 supplement, Greek, Cyrillic, Hebrew, Arabic without
 *     ASCII in the block): each unit becomes the two bytes 110xxxxx 10xxxxxx, built in its
 *     own 16-bit lane, so no bytes move between lanes;
 *   - anything else: the scalar version converts the block, stopping one unit early if the
 *     block ends on a lead surrogate so that a pair is never split.
 * The tail shorter than a block goes to the next smaller width, then to scalar code. The AVX2
 * functions carry __attribute__((target("avx2"))) so the file builds without -mavx2 and the
 * AVX2 code runs only where the CPU check said it may.
 */
#include "decode.h"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86)
#    define UTF16_X86 1
#else
#    define UTF16_X86 0
#endif

#if !defined(FRD_UTF16_SCALAR)
#    define FRD_UTF16_SCALAR 0
#endif

#if UTF16_X86 && !FRD_UTF16_SCALAR
#    define UTF16_SIMD 1
#else
#    define UTF16_SIMD 0
#endif

#if UTF16_SIMD
#    include <immintrin.h>
#    if defined(_MSC_VER) && !defined(__clang__)
#        include <intrin.h>
#        define UTF16_TARGET_AVX2
#    else
#        define UTF16_TARGET_AVX2 __attribute__((target("avx2")))
#    endif

/** Converts the block [i, i + n) with scalar code, never splitting a surrogate pair. */
static size_t utf16_block_scalar(const uint8_t *src, size_t *i, size_t n, char *dst)
{
    size_t last = *i + n - 1;
    uint32_t u = (uint32_t)src[2 * last] | (uint32_t)src[2 * last + 1] << 8;
    if (u - 0xD800 < 0x400) {
        n--; // leave the lead surrogate to the next block, with its trail
    }
    size_t o = frd__utf16le_to_utf8_scalar(src + 2 * *i, n, dst);
    *i += n;
    return o;
}

static size_t utf16_sse2_blocks(const uint8_t *src, size_t units, size_t *pi, char *dst)
{
    const __m128i ascii_mask = _mm_set1_epi16((short)0xFF80);
    const __m128i two_mask = _mm_set1_epi16((short)0xF800);
    const __m128i low6 = _mm_set1_epi16(0x3F);
    const __m128i lead2 = _mm_set1_epi16(0xC0);
    const __m128i cont = _mm_set1_epi16(0x80);
    const __m128i zero = _mm_setzero_si128();
    size_t i = *pi;
    size_t o = 0;
    while (units - i >= 8) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 2 * i));
        int ascii = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(v, ascii_mask), zero));
        if (ascii == 0xFFFF) {
            _mm_storel_epi64((__m128i *)(void *)(dst + o), _mm_packus_epi16(v, v));
            o += 8;
            i += 8;
            continue;
        }
        int below800 = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(v, two_mask), zero));
        if (below800 == 0xFFFF && ascii == 0) {
            __m128i b1 = _mm_or_si128(_mm_srli_epi16(v, 6), lead2);
            __m128i b2 = _mm_slli_epi16(_mm_or_si128(_mm_and_si128(v, low6), cont), 8);
            _mm_storeu_si128((__m128i *)(void *)(dst + o), _mm_or_si128(b1, b2));
            o += 16;
            i += 8;
            continue;
        }
        o += utf16_block_scalar(src, &i, 8, dst + o);
    }
    *pi = i;
    return o;
}

static size_t utf16_to_utf8_sse2(const uint8_t *src, size_t units, char *dst)
{
    size_t i = 0;
    size_t o = utf16_sse2_blocks(src, units, &i, dst);
    return o + frd__utf16le_to_utf8_scalar(src + 2 * i, units - i, dst + o);
}

UTF16_TARGET_AVX2
static size_t utf16_to_utf8_avx2(const uint8_t *src, size_t units, char *dst)
{
    const __m256i ascii_mask = _mm256_set1_epi16((short)0xFF80);
    const __m256i two_mask = _mm256_set1_epi16((short)0xF800);
    const __m256i low6 = _mm256_set1_epi16(0x3F);
    const __m256i lead2 = _mm256_set1_epi16(0xC0);
    const __m256i cont = _mm256_set1_epi16(0x80);
    size_t i = 0;
    size_t o = 0;
    while (units - i >= 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(src + 2 * i));
        if (_mm256_testz_si256(v, ascii_mask)) {
            __m128i packed =
                _mm_packus_epi16(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
            _mm_storeu_si128((__m128i *)(void *)(dst + o), packed);
            o += 16;
            i += 16;
            continue;
        }
        __m256i ascii_lanes =
            _mm256_cmpeq_epi16(_mm256_and_si256(v, ascii_mask), _mm256_setzero_si256());
        if (_mm256_testz_si256(v, two_mask) && _mm256_testz_si256(ascii_lanes, ascii_lanes)) {
            __m256i b1 = _mm256_or_si256(_mm256_srli_epi16(v, 6), lead2);
            __m256i b2 = _mm256_slli_epi16(_mm256_or_si256(_mm256_and_si256(v, low6), cont), 8);
            _mm256_storeu_si256((__m256i *)(void *)(dst + o), _mm256_or_si256(b1, b2));
            o += 32;
            i += 16;
            continue;
        }
        o += utf16_block_scalar(src, &i, 16, dst + o);
    }
    o += utf16_sse2_blocks(src, units, &i, dst + o);
    return o + frd__utf16le_to_utf8_scalar(src + 2 * i, units - i, dst + o);
}

#    if defined(_MSC_VER) && !defined(__clang__)
static int utf16_cpu_has_avx2(void)
{
    int regs[4];
    __cpuid(regs, 1);
    const int osxsave_avx = (1 << 27) | (1 << 28);
    if ((regs[2] & osxsave_avx) != osxsave_avx || (_xgetbv(0) & 6) != 6) {
        return 0; // no AVX, or the OS does not save the YMM registers
    }
    __cpuidex(regs, 7, 0);
    return (regs[1] & (1 << 5)) != 0;
}
static int utf16_cpu_has_sse2(void)
{
    return 1; // every x64 CPU; MSVC's x86 targets have required SSE2 since VS2012
}
#    else
static int utf16_cpu_has_avx2(void)
{
    return __builtin_cpu_supports("avx2") != 0;
}
static int utf16_cpu_has_sse2(void)
{
    return __builtin_cpu_supports("sse2") != 0;
}
#    endif
#endif // UTF16_SIMD

int frd__utf16_impl_available(enum frd__utf16_impl impl)
{
    switch (impl) {
    case FRD__UTF16_SCALAR:
        return 1;
#if UTF16_SIMD
    case FRD__UTF16_SSE2:
        return utf16_cpu_has_sse2();
    case FRD__UTF16_AVX2:
        return utf16_cpu_has_avx2();
#endif
    default:
        return 0;
    }
}

size_t frd__utf16le_to_utf8_impl(enum frd__utf16_impl impl, const uint8_t *src, size_t units,
                                 char *dst)
{
#if UTF16_SIMD
    if (impl == FRD__UTF16_AVX2 && utf16_cpu_has_avx2()) {
        return utf16_to_utf8_avx2(src, units, dst);
    }
    if (impl == FRD__UTF16_SSE2 && utf16_cpu_has_sse2()) {
        return utf16_to_utf8_sse2(src, units, dst);
    }
#else
    (void)impl;
#endif
    return frd__utf16le_to_utf8_scalar(src, units, dst);
}

size_t frd__utf16le_to_utf8(const uint8_t *src, size_t units, char *dst)
{
    // The CPU check is a load and a bit test of a word the compiler's runtime fills at start
    // up, cheaper than caching a function pointer safely across threads.
#if UTF16_SIMD
    if (utf16_cpu_has_avx2()) {
        return utf16_to_utf8_avx2(src, units, dst);
    }
    if (utf16_cpu_has_sse2()) {
        return utf16_to_utf8_sse2(src, units, dst);
    }
#endif
    return frd__utf16le_to_utf8_scalar(src, units, dst);
}
