// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The one in-place sort frd uses (entry lists in lib/list.c, the ordered walk's records in
 * walker/ordered/large.c): an introsort (quicksort with a median of three and a Hoare
 * partition, heapsort past a depth limit, insertion sort for short ranges), no allocation,
 * O(log n) stack. FRD__INTROSORT(name, T, C, less) defines
 * `static void name(C ctx, T *v, size_t n)`, sorting v by `less(ctx, const T *a, const T *b)`
 * (a strict weak order; make it total, e.g. by position, for a stable result). Each user
 * gets its own copy of the code, specialised for its type and order (the compiler inlines
 * `less`), from this one definition.
 */
#ifndef FRD_INTROSORT_H
#define FRD_INTROSORT_H

#include <stddef.h>

// T and C are type names, which cannot stand in parentheses (clang-tidy's macro check).
// NOLINTBEGIN(bugprone-macro-parentheses)
#define FRD__INTROSORT(name, T, C, less)                                                \
    static void name##_swap(T *a, T *b)                                                 \
    {                                                                                   \
        T t = *a;                                                                       \
        *a = *b;                                                                        \
        *b = t;                                                                         \
    }                                                                                   \
    static void name##_sift(C ctx, T *v, size_t i, size_t n)                            \
    {                                                                                   \
        for (;;) {                                                                      \
            size_t c = 2 * i + 1;                                                       \
            if (c >= n) {                                                               \
                return;                                                                 \
            }                                                                           \
            if (c + 1 < n && less(ctx, &v[c], &v[c + 1])) {                             \
                c++;                                                                    \
            }                                                                           \
            if (!less(ctx, &v[i], &v[c])) {                                             \
                return;                                                                 \
            }                                                                           \
            name##_swap(&v[i], &v[c]);                                                  \
            i = c;                                                                      \
        }                                                                               \
    }                                                                                   \
    static void name##_part(C ctx, T *v, size_t n, unsigned depth)                      \
    {                                                                                   \
        while (n > 16) {                                                                \
            if (depth-- == 0) {                                                         \
                for (size_t i = n / 2; i-- > 0;) {                                      \
                    name##_sift(ctx, v, i, n);                                          \
                }                                                                       \
                for (size_t end = n; end-- > 1;) {                                      \
                    name##_swap(&v[0], &v[end]);                                        \
                    name##_sift(ctx, v, 0, end);                                        \
                }                                                                       \
                return;                                                                 \
            }                                                                           \
            /* Median of three to v[0], then Hoare partition around it. */              \
            size_t mid = n / 2;                                                         \
            if (less(ctx, &v[mid], &v[0])) {                                            \
                name##_swap(&v[mid], &v[0]);                                            \
            }                                                                           \
            if (less(ctx, &v[n - 1], &v[0])) {                                          \
                name##_swap(&v[n - 1], &v[0]);                                          \
            }                                                                           \
            if (less(ctx, &v[n - 1], &v[mid])) {                                        \
                name##_swap(&v[n - 1], &v[mid]);                                        \
            }                                                                           \
            name##_swap(&v[0], &v[mid]);                                                \
            size_t i = 0;                                                               \
            size_t j = n;                                                               \
            for (;;) {                                                                  \
                do {                                                                    \
                    i++;                                                                \
                } while (i < n && less(ctx, &v[i], &v[0]));                             \
                do {                                                                    \
                    j--;                                                                \
                } while (less(ctx, &v[0], &v[j]));                                      \
                if (i >= j) {                                                           \
                    break;                                                              \
                }                                                                       \
                name##_swap(&v[i], &v[j]);                                              \
            }                                                                           \
            name##_swap(&v[0], &v[j]);                                                  \
            /* The smaller side recursively, the larger in the loop: O(log n) stack. */ \
            size_t left = j;                                                            \
            size_t right = n - j - 1;                                                   \
            if (left < right) {                                                         \
                name##_part(ctx, v, left, depth);                                       \
                v += j + 1;                                                             \
                n = right;                                                              \
            } else {                                                                    \
                name##_part(ctx, v + j + 1, right, depth);                              \
                n = left;                                                               \
            }                                                                           \
        }                                                                               \
        for (size_t i = 1; i < n; i++) {                                                \
            T t = v[i];                                                                 \
            size_t j = i;                                                               \
            while (j > 0 && less(ctx, &t, &v[j - 1])) {                                 \
                v[j] = v[j - 1];                                                        \
                j--;                                                                    \
            }                                                                           \
            v[j] = t;                                                                   \
        }                                                                               \
    }                                                                                   \
    static void name(C ctx, T *v, size_t n)                                             \
    {                                                                                   \
        unsigned depth = 0;                                                             \
        for (size_t m = n; m > 1; m >>= 1) {                                            \
            depth += 2;                                                                 \
        }                                                                               \
        name##_part(ctx, v, n, depth);                                                  \
    }
// NOLINTEND(bugprone-macro-parentheses)

#endif // FRD_INTROSORT_H
