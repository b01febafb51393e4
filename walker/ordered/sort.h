// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Sorting a one-batch listing by name (walker/ordered/sort.c): keys of 24 bytes sorted in
 * place of the entries, in the order of frd_list_sort(); and the name comparison the large
 * listings' records share.
 */
#ifndef FRD_WALKER_ORDERED_SORT_H
#define FRD_WALKER_ORDERED_SORT_H

#include "core/core.h"

#include <string.h>

/**
 * A sort key of one entry of a one-batch listing: 24 bytes, where the entry is 136, so the
 * sort moves little; key and key2 hold the name's first 16 bytes big-endian (zero padded),
 * so names are compared only when they share those 16 bytes.
 */
struct o_key {
    uint64_t key;
    uint64_t key2;
    uint32_t index; /**< the entry's index in the listing */
    uint32_t name_len;
};

/** Per thread (by worker slot): keys to sort a one-batch listing by. */
struct o_sortbuf {
    struct o_key *keys;
    size_t cap;
};

/**
 * Names a and b (of alen and blen bytes) in byte order, knowing that their first `same`
 * bytes (zero padded) are equal, as equal keys say: a name of at most `same` bytes is then
 * the other's prefix. @return <0, 0 (equal) or >0.
 */
static inline int frd__o_name_cmp_past(const char *a, size_t alen, const char *b, size_t blen,
                                       size_t same)
{
    size_t n = alen < blen ? alen : blen;
    if (n > same) {
        int c = memcmp(a + same, b + same, n - same);
        if (c != 0) {
            return c;
        }
    }
    return (alen > blen) - (alen < blen);
}

/**
 * The order of a one-batch listing by name (as frd_list_sort() sorts it), as keys whose
 * index says which entry. @return them (the worker's, valid until its next call), or NULL
 * (no memory, or more entries than 32-bit indexes hold): sort the list itself then.
 */
const struct o_key *frd__o_sort_order(struct frd__worker *w, const struct frd_entry *v, size_t n);
#endif // FRD_WALKER_ORDERED_SORT_H
