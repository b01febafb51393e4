// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A hash map from entry key (directory id and name, see frdindex_dirs.h) to stored row, for
 * comparing a walk with the database.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_MAP_H
#define FRD_EXAMPLES_FRDINDEX_MAP_H

#include "frdindex.h"
#include "hash.h"

/** What an update decided about a stored row. */
enum index_mark {
    INDEX_MARK_UNSEEN = 0, /**< not met by the walk (yet): removed unless something says keep */
    INDEX_MARK_SEEN,       /**< met by the walk at the same path */
    INDEX_MARK_KEPT,       /**< not met, but below a directory the walk could not read */
    INDEX_MARK_MOVED,      /**< not met: it was renamed; its row is deleted */
};

/** One stored row and its key. */
struct index_item {
    struct index_row row;
    uint64_t hash;    /**< hash of the key */
    uint64_t key_off; /**< offset of the key in the map's arena */
    uint32_t key_len;
    uint8_t mark;       /**< enum index_mark */
    bool rename_source; /**< its old identity may match an added path (see update) */
};

/** The map: items in insertion order, keys in one arena, an index for lookups. Zero-initialise it. */
struct index_map {
    struct index_item *items;
    size_t count, items_cap;
    char *arena;
    size_t arena_len, arena_cap;
    struct tool_hash index; /**< of uint32_t item indexes, by key hash */
};

/** @return the 64-bit hash of a key, as the map and the snapshot use it. */
static inline uint64_t index_key_hash(const char *key, size_t len)
{
    return tool_hash_bytes(key, len);
}

/**
 * Makes room for `count` items with `key_bytes` bytes of keys in all, so that loading a
 * known number of rows never rehashes. @return 0, or -1 when out of memory.
 */
int index_map_reserve(struct index_map *map, size_t count, size_t key_bytes);

/** Frees what the map holds (the struct itself is the caller's). */
void index_map_free(struct index_map *map);

/**
 * Adds a row under `key` (copied); does not check for an existing one.
 * @return the item's index, or -1 when out of memory.
 */
long index_map_add(struct index_map *map, const char *key, size_t len, const struct index_row *row);

/** Finds a key. @return the item, or NULL. */
struct index_item *index_map_find(struct index_map *map, const char *key, size_t len);

/** Finds a key whose index_key_hash() the caller has. @return the item, or NULL. */
struct index_item *index_map_find_hashed(struct index_map *map, const char *key, size_t len,
                                         uint64_t hash);

/** @return the key of an item (NUL-terminated). */
static inline const char *index_item_key(const struct index_map *map, const struct index_item *item)
{
    return map->arena + item->key_off;
}

#endif // FRD_EXAMPLES_FRDINDEX_MAP_H
