// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The replaceable allocator every part of frd allocates through. */
#include "internal.h"

#include <string.h>

static struct {
    frd_malloc_fn *malloc_fn;
    frd_realloc_fn *realloc_fn;
    frd_free_fn *free_fn;
} allocator = {malloc, realloc, free};

int frd_replace_allocator(frd_malloc_fn *malloc_fn, frd_realloc_fn *realloc_fn,
                          frd_free_fn *free_fn)
{
    if (malloc_fn == NULL || realloc_fn == NULL || free_fn == NULL) {
        return FRD_EINVAL;
    }
    allocator.malloc_fn = malloc_fn;
    allocator.realloc_fn = realloc_fn;
    allocator.free_fn = free_fn;
    return 0;
}

void *frd__malloc(size_t size)
{
    return allocator.malloc_fn(size ? size : 1);
}

void *frd__realloc(void *ptr, size_t size)
{
    return allocator.realloc_fn(ptr, size ? size : 1);
}

void *frd__calloc(size_t count, size_t size)
{
    size_t total;
    if (frd__mul_size(count, size, &total) < 0) {
        return NULL;
    }
    if (allocator.malloc_fn == malloc) {
        // The C library's own: it knows memory fresh from the kernel is zero already, so a
        // large block costs no page until it is used (a memset would fault in every page).
        return calloc(total ? total : 1, 1);
    }
    void *p = frd__malloc(total);
    if (p != NULL) {
        memset(p, 0, total);
    }
    return p;
}

void frd__free(void *ptr)
{
    if (ptr != NULL) {
        allocator.free_fn(ptr);
    }
}

char *frd__strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *copy = frd__malloc(len);
    if (copy != NULL) {
        memcpy(copy, s, len);
    }
    return copy;
}

void *frd__grow_array(void *ptr, size_t *cap, size_t need, size_t min, size_t size)
{
    size_t n;
    if (frd__grow_cap(*cap, need, min, size, &n) < 0) {
        return ptr;
    }
    void *p = frd__realloc(ptr, n * size);
    if (p == NULL) {
        return ptr;
    }
    *cap = n;
    return p;
}
