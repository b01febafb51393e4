// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Declarations shared by lib/, platform/, walker/ and mpi/: allocation, assertions, lists. */
#ifndef FRD_LIB_INTERNAL_H
#define FRD_LIB_INTERNAL_H

#include "frd.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Always-on check of an internal invariant (never of file system input). */
#define FRD_VERIFY(cond)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: frd: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/**
 * FRD_ASSERTIONS: 1 where FRD_ASSERT() checks, 0 where it compiles to nothing. By default it
 * follows NDEBUG (on in Debug builds); CMake sets it to 1 in sanitizer builds
 * (FRD_SANITIZE), whatever the build type, so the TSan stage checks the invariants too.
 */
#if !defined(FRD_ASSERTIONS)
#    if defined(NDEBUG)
#        define FRD_ASSERTIONS 0
#    else
#        define FRD_ASSERTIONS 1
#    endif
#endif

/** Check of an internal invariant where FRD_ASSERTIONS is 1 (no side effects allowed: it is
 *  not evaluated otherwise, only type-checked, so what it names counts as used). */
#if FRD_ASSERTIONS
#    define FRD_ASSERT(cond) FRD_VERIFY(cond)
#else
#    define FRD_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

/**
 * Bytes that keep two members off one cache line (64 on the CPUs frd runs on; 128-byte
 * pairs of lines are prefetched on some, so this is the least): a padding member of this
 * size goes between data that one thread writes often and data that others read often,
 * whatever the allocation's alignment, so that a write does not take the line away from
 * the readers (false sharing).
 */
#define FRD__CACHE_LINE 64

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
 * The capacity a growable buffer of `cap` elements of `size` bytes needs for `need`: `cap`
 * (or `min` when 0) doubled until it holds `need`. @return 0 with *out set, or FRD_ENOMEM
 * when the count or its bytes would overflow.
 */
static inline int frd__grow_cap(size_t cap, size_t need, size_t min, size_t size, size_t *out)
{
    size_t n = cap != 0 ? cap : (min != 0 ? min : 1);
    while (n < need) {
        if (n > SIZE_MAX / 2) {
            return FRD_ENOMEM;
        }
        n *= 2;
    }
    size_t bytes;
    if (frd__mul_size(n, size, &bytes) < 0) {
        return FRD_ENOMEM;
    }
    *out = n;
    return 0;
}

/** Reallocates `ptr` to the capacity frd__grow_cap() gives; on success updates *cap.
 *  @return the new block, or `ptr` unchanged (and *cap too) when memory ran out. */
void *frd__grow_array(void *ptr, size_t *cap, size_t need, size_t min, size_t size);

/**
 * Makes room for `need` elements in the growable array `ptr` (any `T *` lvalue) of `cap`
 * elements (a size_t lvalue): grows it by doubling, from `min` elements, with overflow
 * checks, keeping its contents. `need` is evaluated more than once: no side effects.
 * @return 0 (room already), 1 (grown: one allocation), or FRD_ENOMEM (ptr and cap unchanged).
 */
#define FRD__RESERVE(ptr, cap, need, min)                                                  \
    ((size_t)(need) <= (cap)                                                               \
         ? 0                                                                               \
         : ((ptr) = frd__grow_array((ptr), &(cap), (size_t)(need), (min), sizeof(*(ptr))), \
            (size_t)(need) <= (cap) ? 1 : FRD_ENOMEM))

/** An entry list (lib/list.c): here so that frd__list_push() inlines in the listers' loops. */
struct frd_list {
    struct frd_entry *entries;
    size_t count;
    size_t capacity;
    char *arena;
    size_t arena_used;
    size_t arena_capacity;
    size_t allocations;
    struct list_key *keys; /**< frd_list_sort()'s records, kept for the next sort */
    size_t keys_cap;
};

/** Makes room in `list` for one more entry and a name of `name_len` bytes (lib/list.c):
 *  frd__list_push()'s slow path. @return 0, or -1 when memory ran out (nothing changed). */
int frd__list_grow(struct frd_list *list, size_t name_len);

/**
 * Appends an entry whose name is copied into the list's arena and returns it, so a backend
 * can fill the metadata in place. @return the new entry, or NULL when memory ran out (the
 * list is then unchanged).
 */
static inline struct frd_entry *frd__list_push(struct frd_list *list, const char *name,
                                               size_t name_len)
{
    if ((list->count == list->capacity || name_len >= list->arena_capacity - list->arena_used) &&
        frd__list_grow(list, name_len) < 0) {
        return NULL;
    }
    char *copy = list->arena + list->arena_used;
    memcpy(copy, name, name_len);
    copy[name_len] = '\0';
    list->arena_used += name_len + 1;
    struct frd_entry *e = &list->entries[list->count++];
    memset(e, 0, sizeof(*e));
    e->name = copy;
    e->name_len = name_len;
    return e;
}

/** Drops the last entry pushed (a backend found it had vanished before its stat). */
void frd__list_pop(struct frd_list *list);

/** How many times a list has asked the allocator for memory (tests count these). */
size_t frd__list_allocations(const struct frd_list *list);

/** A name's first 8 bytes big-endian, zero padded (names hold no NUL): comparing these
 *  numbers orders names as their first bytes do; equal numbers need the names compared. */
static inline uint64_t frd__name_key(const char *name, size_t len)
{
    const unsigned char *p = (const unsigned char *)name;
    if (len >= 8) {
        // Spelled out, so that compilers make it one load and a byte swap.
        return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
               (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
               (uint64_t)p[6] << 8 | (uint64_t)p[7];
    }
    uint64_t k = 0;
    for (size_t i = 0; i < 8; i++) {
        k = (k << 8) | (i < len ? p[i] : 0u);
    }
    return k;
}

/** The key of a name's bytes 8 to 15 (frd__name_key() of what follows the first 8): with
 *  the first key, orders names of up to 16 bytes with no look at the names. */
static inline uint64_t frd__name_key2(const char *name, size_t len)
{
    return len > 8 ? frd__name_key(name + 8, len - 8) : 0;
}

#endif // FRD_LIB_INTERNAL_H
