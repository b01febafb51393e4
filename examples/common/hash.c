// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The tools' one open-addressing hash table and hash functions (see hash.h). */
#include "hash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HASH_MIN_CAPACITY 16

uint64_t tool_hash_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

uint64_t tool_hash_bytes(const void *data, size_t len)
{
    // frdindex stores these hashes in its snapshot: changing this function makes the next
    // update of an existing index read every row once (the snapshot no longer matches).
    const unsigned char *s = data;
    uint64_t h = 0x9e3779b97f4a7c15u ^ len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xbf58476d1ce4e5b9u;
        h ^= h >> 29;
        s += 8;
        len -= 8;
    }
    uint64_t tail = 0;
    memcpy(&tail, s, len);
    h = (h ^ tail) * 0x94d049bb133111ebu;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93u;
    h ^= h >> 32;
    return h;
}

/*
 * A slot keeps the hash's low 32 bits (its tag): enough to find the home slot of any table
 * of up to 2^32 slots, and to skip most unequal records without calling eq. 0 marks an
 * empty slot, so a tag of 0 is stored as 1 (the caller's eq still decides).
 */
#define HASH_MAX_CAPACITY ((size_t)1 << 32)

static uint32_t tag_of(uint64_t hash)
{
    uint32_t tag = (uint32_t)hash;
    return tag != 0 ? tag : 1;
}

static unsigned char *slot_at(const struct tool_hash *t, size_t i)
{
    return t->slots + i * t->stride;
}

static uint32_t tag_at(const struct tool_hash *t, size_t i)
{
    uint32_t tag;
    memcpy(&tag, slot_at(t, i), sizeof(tag));
    return tag;
}

static void set_tag_at(struct tool_hash *t, size_t i, uint32_t tag)
{
    memcpy(slot_at(t, i), &tag, sizeof(tag));
}

static void *record_at(const struct tool_hash *t, size_t i)
{
    return slot_at(t, i) + sizeof(uint32_t);
}

void tool_hash_init(struct tool_hash *t, size_t record_size)
{
    memset(t, 0, sizeof(*t));
    t->record_size = record_size;
    t->stride = sizeof(uint32_t) + (record_size + 3) / 4 * 4;
}

void tool_hash_free(struct tool_hash *t)
{
    free(t->slots);
    tool_hash_init(t, t->record_size);
}

void tool_hash_clear(struct tool_hash *t)
{
    for (size_t i = 0; i < t->capacity; i++) {
        set_tag_at(t, i, 0);
    }
    t->count = 0;
}

/** Places a slot (tag and record) known to be absent into the first free slot of its run. */
static void place(struct tool_hash *t, const unsigned char *slot)
{
    uint32_t tag;
    memcpy(&tag, slot, sizeof(tag));
    size_t mask = t->capacity - 1;
    size_t i = (size_t)tag & mask;
    while (tag_at(t, i) != 0) {
        i = (i + 1) & mask;
    }
    memcpy(slot_at(t, i), slot, t->stride);
}

/** Rebuilds the table with `capacity` slots (a power of two above twice the count). */
static int rehash(struct tool_hash *t, size_t capacity)
{
    if (capacity > SIZE_MAX / t->stride) {
        return -1;
    }
    unsigned char *slots = calloc(capacity, t->stride);
    if (slots == NULL) {
        return -1;
    }
    struct tool_hash old = *t;
    t->slots = slots;
    t->capacity = capacity;
    for (size_t i = 0; i < old.capacity; i++) {
        if (tag_at(&old, i) != 0) {
            place(t, slot_at(&old, i));
        }
    }
    free(old.slots);
    return 0;
}

int tool_hash_reserve(struct tool_hash *t, size_t count)
{
    if (count > HASH_MAX_CAPACITY / 2) {
        return -1;
    }
    size_t capacity = t->capacity != 0 ? t->capacity : HASH_MIN_CAPACITY;
    while (capacity < count * 2) {
        capacity *= 2;
    }
    return capacity == t->capacity ? 0 : rehash(t, capacity);
}

void *tool_hash_find(const struct tool_hash *t, uint64_t hash, tool_hash_eq_fn *eq, const void *key)
{
    if (t->count == 0) {
        return NULL;
    }
    uint32_t tag = tag_of(hash);
    size_t mask = t->capacity - 1;
    for (size_t i = (size_t)tag & mask;; i = (i + 1) & mask) {
        uint32_t here = tag_at(t, i);
        if (here == 0) {
            return NULL;
        }
        if (here == tag && eq(record_at(t, i), key)) {
            return record_at(t, i);
        }
    }
}

void *tool_hash_insert(struct tool_hash *t, uint64_t hash, tool_hash_eq_fn *eq, const void *key,
                       bool *found)
{
    if (tool_hash_reserve(t, t->count + 1) < 0) {
        return NULL;
    }
    uint32_t tag = tag_of(hash);
    size_t mask = t->capacity - 1;
    size_t i = (size_t)tag & mask;
    for (uint32_t here; (here = tag_at(t, i)) != 0; i = (i + 1) & mask) {
        if (eq != NULL && here == tag && eq(record_at(t, i), key)) {
            *found = true;
            return record_at(t, i);
        }
    }
    set_tag_at(t, i, tag);
    t->count++;
    *found = false;
    return record_at(t, i);
}

void tool_hash_remove(struct tool_hash *t, void *record)
{
    // Backward-shift deletion: move later members of the probe run into the hole when their
    // home slot does not lie (cyclically) between the hole and them, so no tombstones.
    size_t mask = t->capacity - 1;
    size_t hole = (size_t)((unsigned char *)record - sizeof(uint32_t) - t->slots) / t->stride;
    set_tag_at(t, hole, 0);
    t->count--;
    for (size_t i = (hole + 1) & mask;; i = (i + 1) & mask) {
        uint32_t here = tag_at(t, i);
        if (here == 0) {
            break;
        }
        size_t home = (size_t)here & mask;
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            memcpy(slot_at(t, hole), slot_at(t, i), t->stride);
            set_tag_at(t, i, 0);
            hole = i;
        }
    }
}
