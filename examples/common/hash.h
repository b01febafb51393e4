// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The tools' one hash table and hash functions. The table is open addressing with linear
 * probing over fixed-size records the caller defines (an index into its own array, a pointer,
 * a small key); each slot holds the low 32 bits of the record's hash and then the record, so
 * a probe reads one cache line, growing and removing never call back, and the caller's
 * equality test runs only when those bits match. The load stays at most 1/2, with at most
 * 2^31 records. Records are only 4-byte aligned: copy them in and out with memcpy.
 * Not thread-safe: callers that share a table lock around it.
 */
#ifndef FRD_EXAMPLES_COMMON_HASH_H
#define FRD_EXAMPLES_COMMON_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** @return whether `record` (in the table) is the one `key` names. */
typedef bool tool_hash_eq_fn(const void *record, const void *key);

/** The table. Set it up with tool_hash_init(); the fields are private. */
struct tool_hash {
    /** capacity slots of `stride` bytes: uint32 hash bits (never 0; 0 = empty), record */
    unsigned char *slots;
    size_t record_size;
    size_t stride;   /**< 4 + record_size, rounded up to 4 */
    size_t capacity; /**< a power of two, or 0 */
    size_t count;
};

/** Mixes 64 bits well (splitmix64's finalizer): dense numbers such as inodes spread out. */
uint64_t tool_hash_mix(uint64_t x);

/** @return a 64-bit hash of `len` bytes, read 8 at a time (paths differ mostly at the end). */
uint64_t tool_hash_bytes(const void *data, size_t len);

/** Makes an empty table of records of `record_size` bytes (allocates nothing). */
void tool_hash_init(struct tool_hash *t, size_t record_size);

/** Frees the table's storage; it is then empty and may be used again. */
void tool_hash_free(struct tool_hash *t);

/** Empties the table, keeping its storage. */
void tool_hash_clear(struct tool_hash *t);

/**
 * Makes room for `count` records, so that adding up to that many never rehashes.
 * @return 0, or -1 when out of memory or when the size would overflow.
 */
int tool_hash_reserve(struct tool_hash *t, size_t count);

/**
 * Finds the record with hash `hash` for which eq(record, key) holds.
 * @return the record (valid until the table next changes), or NULL.
 */
void *tool_hash_find(const struct tool_hash *t, uint64_t hash, tool_hash_eq_fn *eq,
                     const void *key);

/**
 * Finds the record eq(record, key) names, or makes a slot for a new one (growing the table).
 * `eq` may be NULL to add without looking for an equal record.
 * @param found set to true when the record was there, false when the slot is new: the
 *        caller then fills its record_size bytes before the next call on the table.
 * @return the record, or NULL when out of memory (nothing is added).
 */
void *tool_hash_insert(struct tool_hash *t, uint64_t hash, tool_hash_eq_fn *eq, const void *key,
                       bool *found);

/** Removes a record tool_hash_find() or tool_hash_insert() returned. */
void tool_hash_remove(struct tool_hash *t, void *record);

/** @return the number of records in the table. */
static inline size_t tool_hash_count(const struct tool_hash *t)
{
    return t->count;
}

/** @return the number of slots (iterate them with tool_hash_slot()). */
static inline size_t tool_hash_capacity(const struct tool_hash *t)
{
    return t->capacity;
}

/** @return the record in slot `i` (below tool_hash_capacity()), or NULL if it is empty. */
static inline void *tool_hash_slot(const struct tool_hash *t, size_t i)
{
    unsigned char *slot = t->slots + i * t->stride;
    uint32_t tag;
    memcpy(&tag, slot, sizeof(tag));
    return tag != 0 ? slot + sizeof(tag) : NULL;
}

#endif // FRD_EXAMPLES_COMMON_HASH_H
