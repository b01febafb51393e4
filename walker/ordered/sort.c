// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Sorting a one-batch listing by name, by keys (walker/ordered/sort.h). */
#include "sort.h"

#include "introsort.h"
#include "ordered_int.h"

/**
 * The order of frd_list_sort() for keys of one listing's entries v: by name in byte order,
 * then by position. Equal keys with a name of at most 16 bytes mean that name is the
 * other's prefix: the shorter one first, the entries never touched.
 */
static bool key_less(const struct frd_entry *v, const struct o_key *a, const struct o_key *b)
{
    if (a->key != b->key) {
        return a->key < b->key;
    }
    if (a->key2 != b->key2) {
        return a->key2 < b->key2;
    }
    int c = frd__o_name_cmp_past(v[a->index].name, a->name_len, v[b->index].name, b->name_len, 16);
    return c != 0 ? c < 0 : a->index < b->index;
}

FRD__INTROSORT(key_sort, struct o_key, const struct frd_entry *, key_less)

const struct o_key *frd__o_sort_order(struct frd__worker *w, const struct frd_entry *v, size_t n)
{
    struct o_sortbuf *sb = &w->walk->ordered->sortbufs[frd__slot(w)];
    if (n == 0 || n > UINT32_MAX) {
        return NULL;
    }
    int a = FRD__RESERVE(sb->keys, sb->cap, n, 256);
    if (a < 0) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        FRD_ASSERT(v[i].name_len <= UINT32_MAX);
        sb->keys[i].key = frd__name_key(v[i].name, v[i].name_len);
        sb->keys[i].key2 = frd__name_key2(v[i].name, v[i].name_len);
        sb->keys[i].index = (uint32_t)i;
        sb->keys[i].name_len = (uint32_t)v[i].name_len;
    }
    key_sort(v, sb->keys, n);
    return sb->keys;
}
