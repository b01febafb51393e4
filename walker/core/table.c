// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The walker's hash table: open addressing, linear probing, one mixer (walker/core/table.h). */
#include "table.h"

#include "internal.h"

#include <string.h>

uint64_t frd__tkey_hash(const struct frd__tkey *key)
{
    uint64_t x = key->b * 0x9E3779B97F4A7C15u ^ key->a ^ (key->c << 17);
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBu;
    x ^= x >> 31;
    return x;
}

static bool tkey_equal(const struct frd__tkey *x, const struct frd__tkey *y)
{
    return x->a == y->a && x->b == y->b && x->c == y->c;
}

/** The slot of `key`, or the free slot where it would go (the table has a free slot). */
static struct frd__tslot *table_find(const struct frd__table *t, const struct frd__tkey *key)
{
    size_t mask = t->capacity - 1;
    for (size_t i = (size_t)(frd__tkey_hash(key) >> 6) & mask;; i = (i + 1) & mask) {
        struct frd__tslot *s = &t->slots[i];
        if (s->value == FRD__TABLE_FREE || tkey_equal(&s->key, key)) {
            return s;
        }
    }
}

/** Slots of a table's first allocation: a walk's table of devices holds one or two, and
 *  each of the 64 shards of a set grows its own (256 of 32 bytes set 8 KB each, and 8 KB of
 *  memset at every walk's start for the devices). */
#define TABLE_MIN_SLOTS 16

static int table_grow(struct frd__table *t)
{
    size_t capacity, need = t->capacity + 1;
    if (frd__grow_cap(t->capacity, need, TABLE_MIN_SLOTS, sizeof(*t->slots), &capacity) < 0) {
        return FRD_ENOMEM;
    }
    struct frd__tslot *slots = frd__malloc(capacity * sizeof(*slots));
    if (slots == NULL) {
        return FRD_ENOMEM;
    }
    memset(slots, 0xFF, capacity * sizeof(*slots)); // every value FRD__TABLE_FREE
    struct frd__table bigger = {slots, capacity, t->count};
    for (size_t i = 0; i < t->capacity; i++) {
        if (t->slots[i].value != FRD__TABLE_FREE) {
            *table_find(&bigger, &t->slots[i].key) = t->slots[i];
        }
    }
    frd__free(t->slots);
    *t = bigger;
    return 0;
}

int frd__table_put(struct frd__table *t, const struct frd__tkey *key, uint64_t value)
{
    FRD_ASSERT(value != FRD__TABLE_FREE);
    // Grow at 3/4 full: probes stay short.
    if ((t->count + 1) * 4 > t->capacity * 3 && table_grow(t) < 0) {
        return FRD_ENOMEM;
    }
    struct frd__tslot *s = table_find(t, key);
    if (s->value != FRD__TABLE_FREE) {
        return 0;
    }
    s->key = *key;
    s->value = value;
    t->count++;
    FRD_ASSERT(t->count < t->capacity);
    return 1;
}

bool frd__table_get(const struct frd__table *t, const struct frd__tkey *key, uint64_t *value)
{
    if (t->count == 0) {
        return false;
    }
    const struct frd__tslot *s = table_find(t, key);
    if (s->value == FRD__TABLE_FREE) {
        return false;
    }
    *value = s->value;
    return true;
}

uint64_t *frd__table_value(struct frd__table *t, const struct frd__tkey *key)
{
    if (t->count == 0) {
        return NULL;
    }
    struct frd__tslot *s = table_find(t, key);
    return s->value == FRD__TABLE_FREE ? NULL : &s->value;
}

bool frd__table_remove(struct frd__table *t, const struct frd__tkey *key)
{
    if (t->count == 0) {
        return false;
    }
    struct frd__tslot *s = table_find(t, key);
    if (s->value == FRD__TABLE_FREE) {
        return false;
    }
    // Backward-shift deletion: each later slot of the run moves into the hole when its home
    // is not between the hole and itself, so every key stays reachable from its home.
    size_t mask = t->capacity - 1;
    size_t hole = (size_t)(s - t->slots);
    for (size_t i = (hole + 1) & mask; t->slots[i].value != FRD__TABLE_FREE; i = (i + 1) & mask) {
        size_t home = (size_t)(frd__tkey_hash(&t->slots[i].key) >> 6) & mask;
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            t->slots[hole] = t->slots[i];
            hole = i;
        }
    }
    t->slots[hole].value = FRD__TABLE_FREE;
    t->count--;
    return true;
}

void frd__table_free(struct frd__table *t)
{
    frd__free(t->slots);
    *t = (struct frd__table){0};
}
