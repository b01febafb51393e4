// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The tests' pseudo-random numbers: xorshift64, cheap and the same on every run and host
 *  (each test keeps its own state, seeded with a nonzero constant). */
#ifndef FRD_TESTS_TEST_RNG_H
#define FRD_TESTS_TEST_RNG_H

#include <stdint.h>

/** Advances *state (never 0) and returns its new value. */
static inline uint64_t test_rng_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

#endif // FRD_TESTS_TEST_RNG_H
