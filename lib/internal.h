// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Declarations shared by lib/, platform/ and walker/: allocation, assertions, list internals. */
#ifndef FRD_LIB_INTERNAL_H
#define FRD_LIB_INTERNAL_H

#include "frd.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/** Always-on check of an internal invariant (never of file system input). */
#define FRD_VERIFY(cond)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: frd: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

#if defined(NDEBUG)
#    define FRD_ASSERT(cond) ((void)0)
#else
#    define FRD_ASSERT(cond) FRD_VERIFY(cond)
#endif

/** Allocation through the replaceable allocator (lib/alloc.c). */
void *frd__malloc(size_t size);
void *frd__realloc(void *ptr, size_t size);
void *frd__calloc(size_t count, size_t size);
void frd__free(void *ptr);
char *frd__strdup(const char *s);

/** Multiplies with an overflow check. @return 0, or FRD_ENOMEM on overflow. */
static inline int frd__mul_size(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b) {
        return FRD_ENOMEM;
    }
    *out = a * b;
    return 0;
}

/**
 * Appends an entry whose name is copied into the list's arena and returns it, so a backend
 * can fill the metadata in place. @return the new entry, or NULL when memory ran out (the
 * list is then unchanged).
 */
struct frd_entry *frd__list_push(struct frd_list *list, const char *name, size_t name_len);

/** Drops the last entry pushed (a backend found it had vanished before its stat). */
void frd__list_pop(struct frd_list *list);

/** How many times a list has asked the allocator for memory (tests count these). */
size_t frd__list_allocations(const struct frd_list *list);

#endif // FRD_LIB_INTERNAL_H
