// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's one hash table (walker/core/table.c): open addressing with linear probing, keys of
 * three 64-bit words (an identity, or a device alone), a 64-bit value, one mixer. Not
 * locked: its users (walker/core/identity.c's sharded sets and volume cache) lock around it.
 */
#ifndef FRD_WALKER_TABLE_H
#define FRD_WALKER_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** A key: compared word for word. */
struct frd__tkey {
    uint64_t a, b, c;
};

/** The value that marks a free slot: never stored. */
#define FRD__TABLE_FREE UINT64_MAX

struct frd__tslot {
    struct frd__tkey key;
    uint64_t value; /**< FRD__TABLE_FREE: the slot is free */
};

/** Zero-initialized is an empty table. */
struct frd__table {
    struct frd__tslot *slots; /**< capacity of them, a power of two */
    size_t capacity;
    size_t count;
};

/** The mixer (the splitmix64 finalizer over the key's words). */
uint64_t frd__tkey_hash(const struct frd__tkey *key);

/**
 * Inserts `key` with `value` (not FRD__TABLE_FREE) unless present; grows at 3/4 full.
 * @return 1 if it was new, 0 if already present (its value unchanged), or FRD_ENOMEM.
 */
int frd__table_put(struct frd__table *t, const struct frd__tkey *key, uint64_t value);

/** @return true with *value set if `key` is present. */
bool frd__table_get(const struct frd__table *t, const struct frd__tkey *key, uint64_t *value);

/** @return the value of `key`, to read or change (never to FRD__TABLE_FREE), or NULL if it
 *  is absent. Valid until the table next changes size. */
uint64_t *frd__table_value(struct frd__table *t, const struct frd__tkey *key);
/** Removes `key`. @return true if it was present. */
bool frd__table_remove(struct frd__table *t, const struct frd__tkey *key);
void frd__table_free(struct frd__table *t);

#endif // FRD_WALKER_TABLE_H
