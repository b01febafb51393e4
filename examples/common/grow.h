// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * One way for the tools to grow an array: a typed reserve function per element type, made by
 * TOOL_RESERVE_DEFINE, with every size computation checked for overflow. No `void **` casts:
 * each generated function takes the array by its own pointer type.
 */
#ifndef FRD_EXAMPLES_COMMON_GROW_H
#define FRD_EXAMPLES_COMMON_GROW_H

#include <stdlib.h>

/**
 * The capacity to grow to so that `need` elements of `elem_size` bytes fit: `cap` doubled
 * (or `min` when `cap` is 0), or `need` itself if that is more.
 * @return the new capacity, or 0 when `need` elements, or the doubled capacity, would not
 * fit in a size_t number of bytes.
 */
size_t tool_grow_capacity(size_t cap, size_t need, size_t min, size_t elem_size);

/**
 * Defines `static inline int name(type **items, size_t *cap, size_t need)`: makes room for
 * at least `need` elements in the malloc'd array `*items` of capacity `*cap` (first
 * capacity `min`, then doubling, or `need` if that is more). On failure `*items` and `*cap`
 * are left as they were.
 * @return 0, or -1 when out of memory or when the size would overflow.
 */
// `type` is a type name, which cannot stand in parentheses (clang-tidy's macro check).
// NOLINTBEGIN(bugprone-macro-parentheses)
#define TOOL_RESERVE_DEFINE(name, type, min)                                             \
    static inline int name(type **items, size_t *cap, size_t need)                       \
    {                                                                                    \
        if (need <= *cap) {                                                              \
            return 0;                                                                    \
        }                                                                                \
        size_t grown_cap = tool_grow_capacity(*cap, need, (min), sizeof(type));          \
        type *grown = grown_cap == 0 ? NULL : realloc(*items, grown_cap * sizeof(type)); \
        if (grown == NULL) {                                                             \
            return -1;                                                                   \
        }                                                                                \
        *items = grown;                                                                  \
        *cap = grown_cap;                                                                \
        return 0;                                                                        \
    }
// NOLINTEND(bugprone-macro-parentheses)

/** tool_reserve_chars(&buf, &cap, need): byte buffers and path arenas (first 4 KiB). */
TOOL_RESERVE_DEFINE(tool_reserve_chars, char, 4096)

/** tool_reserve_strs(&strs, &cap, need): arrays of string pointers (first 16). */
TOOL_RESERVE_DEFINE(tool_reserve_strs, char *, 16)

#endif // FRD_EXAMPLES_COMMON_GROW_H
