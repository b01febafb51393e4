// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * UTF-16LE to UTF-8 throughput of the three decoders (scalar, SSE2, AVX2) on file names of
 * 8 to 64 code units, the lengths Windows listings are made of. Each iteration converts a
 * batch of 1,024 different names of the given length (so branch prediction cannot learn one
 * name), from three alphabets: ASCII ("report-2024.txt"-like), Cyrillic (2-byte UTF-8 with
 * ASCII mixed in, as real names have) and CJK (3-byte). The counter is input bytes per
 * second; the run is skipped for a decoder the CPU lacks.
 *
 *     build-release/bench/frd_bench_utf16 --benchmark_repetitions=5 \
 *         --benchmark_report_aggregates_only=true
 */
extern "C" {
#include "decode.h"
}

#include <benchmark/benchmark.h>
#include <stdint.h>
#include <string.h>
#include <vector>

namespace
{

enum alphabet { ASCII = 0, CYRILLIC = 1, CJK = 2 };

/** 1,024 names of `units` code units each, little-endian, back to back. */
std::vector<uint8_t> make_names(int units, int alpha)
{
    static const char ascii[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";
    std::vector<uint8_t> out(static_cast<size_t>(units) * 2 * 1024);
    uint32_t seed = 0x9E3779B9u ^ static_cast<uint32_t>(units * 31 + alpha);
    for (size_t i = 0; i < out.size() / 2; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t r = seed >> 8;
        uint16_t u;
        if (alpha == ASCII || r % 8 == 0) { // non-ASCII names still hold '.', digits, '-'
            u = static_cast<uint8_t>(ascii[r % (sizeof(ascii) - 1)]);
        } else if (alpha == CYRILLIC) {
            u = static_cast<uint16_t>(0x0410 + r % 64);
        } else {
            u = static_cast<uint16_t>(0x4E00 + r % 0x5000);
        }
        out[2 * i] = static_cast<uint8_t>(u & 0xFF);
        out[2 * i + 1] = static_cast<uint8_t>(u >> 8);
    }
    return out;
}

void bm_utf16(benchmark::State &state, frd__utf16_impl impl)
{
    if (!frd__utf16_impl_available(impl)) {
        state.SkipWithError("not supported by this CPU or build");
        return;
    }
    const int units = static_cast<int>(state.range(0));
    const int alpha = static_cast<int>(state.range(1));
    std::vector<uint8_t> names = make_names(units, alpha);
    std::vector<char> out(FRD__UTF8_MAX(static_cast<size_t>(units)) + 1);
    const size_t stride = static_cast<size_t>(units) * 2;
    size_t total = 0;
    for (auto _ : state) {
        for (size_t k = 0; k < 1024; k++) {
            total += frd__utf16le_to_utf8_impl(impl, names.data() + k * stride,
                                               static_cast<size_t>(units), out.data());
        }
        benchmark::DoNotOptimize(total);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 1024 *
                            static_cast<int64_t>(stride));
    state.SetLabel(alpha == ASCII ? "ascii" : alpha == CYRILLIC ? "cyrillic" : "cjk");
}

void args(benchmark::internal::Benchmark *b)
{
    for (int alpha : {ASCII, CYRILLIC, CJK}) {
        for (int units : {8, 16, 24, 32, 64}) {
            b->Args({units, alpha});
        }
    }
}

} // namespace

BENCHMARK_CAPTURE(bm_utf16, scalar, FRD__UTF16_SCALAR)->Apply(args);
BENCHMARK_CAPTURE(bm_utf16, sse2, FRD__UTF16_SSE2)->Apply(args);
BENCHMARK_CAPTURE(bm_utf16, avx2, FRD__UTF16_AVX2)->Apply(args);

BENCHMARK_MAIN();
