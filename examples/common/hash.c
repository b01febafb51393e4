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

/** 0 marks an empty slot, so a hash of 0 is stored as 1 (the caller's eq still decides). */
static uint64_t stored_hash(uint64_t hash)
{
    return hash != 0 ? hash : 1;
}

void tool_hash_init(struct tool_hash *t, size_t record_size)
{
    memset(t, 0, sizeof(*t));
    t->record_size = record_size;
}

void tool_hash_free(struct tool_hash *t)
{
    free(t->hashes);
    free(t->records);
    tool_hash_init(t, t->record_size);
}

void tool_hash_clear(struct tool_hash *t)
{
    if (t->capacity != 0) {
        memset(t->hashes, 0, t->capacity * sizeof(*t->hashes));
    }
    t->count = 0;
}

/** @return the slot of the record at `record`. */
static size_t slot_of(const struct tool_hash *t, const void *record)
{
    return (size_t)((const unsigned char *)record - t->records) / t->record_size;
}

/** Places a record known to be absent into the first free slot of its probe run. */
static void place(struct tool_hash *t, uint64_t hash, const void *record)
{
    size_t mask = t->capacity - 1;
    size_t i = (size_t)hash & mask;
    while (t->hashes[i] != 0) {
        i = (i + 1) & mask;
    }
    t->hashes[i] = hash;
    memcpy(t->records + i * t->record_size, record, t->record_size);
}

/** Rebuilds the table with `capacity` slots (a power of two above twice the count). */
static int rehash(struct tool_hash *t, size_t capacity)
{
    if (capacity > SIZE_MAX / t->record_size || capacity > SIZE_MAX / sizeof(uint64_t)) {
        return -1;
    }
    uint64_t *hashes = calloc(capacity, sizeof(*hashes));
    unsigned char *records = malloc(capacity * t->record_size);
    if (hashes == NULL || records == NULL) {
        free(hashes);
        free(records);
        return -1;
    }
    struct tool_hash old = *t;
    t->hashes = hashes;
    t->records = records;
    t->capacity = capacity;
    for (size_t i = 0; i < old.capacity; i++) {
        if (old.hashes[i] != 0) {
            place(t, old.hashes[i], old.records + i * old.record_size);
        }
    }
    free(old.hashes);
    free(old.records);
    return 0;
}

int tool_hash_reserve(struct tool_hash *t, size_t count)
{
    if (count > SIZE_MAX / 4) {
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
    hash = stored_hash(hash);
    size_t mask = t->capacity - 1;
    for (size_t i = (size_t)hash & mask; t->hashes[i] != 0; i = (i + 1) & mask) {
        void *record = t->records + i * t->record_size;
        if (t->hashes[i] == hash && eq(record, key)) {
            return record;
        }
    }
    return NULL;
}

void *tool_hash_insert(struct tool_hash *t, uint64_t hash, tool_hash_eq_fn *eq, const void *key,
                       bool *found)
{
    if (t->count >= SIZE_MAX / 4 || tool_hash_reserve(t, t->count + 1) < 0) {
        return NULL;
    }
    hash = stored_hash(hash);
    size_t mask = t->capacity - 1;
    size_t i = (size_t)hash & mask;
    for (; t->hashes[i] != 0; i = (i + 1) & mask) {
        void *record = t->records + i * t->record_size;
        if (eq != NULL && t->hashes[i] == hash && eq(record, key)) {
            *found = true;
            return record;
        }
    }
    t->hashes[i] = hash;
    t->count++;
    *found = false;
    return t->records + i * t->record_size;
}

void tool_hash_remove(struct tool_hash *t, void *record)
{
    // Backward-shift deletion: move later members of the probe run into the hole when their
    // home slot does not lie (cyclically) between the hole and them, so no tombstones.
    size_t mask = t->capacity - 1;
    size_t hole = slot_of(t, record);
    t->hashes[hole] = 0;
    t->count--;
    for (size_t i = (hole + 1) & mask; t->hashes[i] != 0; i = (i + 1) & mask) {
        size_t home = (size_t)t->hashes[i] & mask;
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            t->hashes[hole] = t->hashes[i];
            memcpy(t->records + hole * t->record_size, t->records + i * t->record_size,
                   t->record_size);
            t->hashes[i] = 0;
            hole = i;
        }
    }
}
