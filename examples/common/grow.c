// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The capacity arithmetic behind TOOL_RESERVE_DEFINE (see grow.h). */
#include "grow.h"

#include <stdint.h>

size_t tool_grow_capacity(size_t cap, size_t need, size_t min, size_t elem_size)
{
    if (elem_size == 0 || need > SIZE_MAX / elem_size) {
        return 0;
    }
    size_t limit = SIZE_MAX / elem_size; // the most elements whose bytes a size_t can count
    size_t grown = cap == 0 ? min : (cap > limit / 2 ? limit : cap * 2);
    if (grown > limit) {
        grown = limit;
    }
    // A reserve beyond double the capacity gets what it asked for, not a power of two more.
    return grown < need ? need : grown;
}
