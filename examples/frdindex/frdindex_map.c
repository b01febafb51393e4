// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A hash map from entry key to stored row, for comparing a walk with the database. */
#include "frdindex_map.h"

#include "grow.h"

#include <stdlib.h>
#include <string.h>

/*
 * Items live in one array and keys in one arena (two allocations that grow by doubling, not
 * one per row), and the index is the tools' hash table (common/hash.h) of 32-bit item
 * numbers. Loading /usr's 165,000 rows costs a few milliseconds beyond reading them from
 * SQLite.
 */

TOOL_RESERVE_DEFINE(items_reserve, struct index_item, 1024)

/** The index of a zero-initialised map gets its record size on first use. */
static struct tool_hash *map_index(struct index_map *map)
{
    if (map->index.record_size == 0) {
        tool_hash_init(&map->index, sizeof(uint32_t));
    }
    return &map->index;
}

/** What a lookup by key compares. */
struct map_key {
    const struct index_map *map;
    const char *key;
    size_t len;
};

static bool item_has_key(const void *record, const void *key)
{
    const struct map_key *k = key;
    uint32_t i;
    memcpy(&i, record, sizeof(i));
    const struct index_item *item = &k->map->items[i];
    return item->key_len == k->len && memcmp(k->map->arena + item->key_off, k->key, k->len) == 0;
}

void index_map_free(struct index_map *map)
{
    free(map->items);
    free(map->arena);
    tool_hash_free(map_index(map));
    memset(map, 0, sizeof(*map));
}

int index_map_reserve(struct index_map *map, size_t count, size_t key_bytes)
{
    if (items_reserve(&map->items, &map->items_cap, count) < 0 ||
        tool_reserve_chars(&map->arena, &map->arena_cap, key_bytes) < 0 ||
        tool_hash_reserve(map_index(map), count) < 0) {
        return -1;
    }
    return 0;
}

long index_map_add(struct index_map *map, const char *key, size_t len, const struct index_row *row)
{
    if (map->count >= UINT32_MAX - 1 || len >= UINT32_MAX ||
        items_reserve(&map->items, &map->items_cap, map->count + 1) < 0 ||
        tool_reserve_chars(&map->arena, &map->arena_cap, map->arena_len + len + 1) < 0) {
        return -1;
    }
    struct index_item *item = &map->items[map->count];
    item->hash = index_key_hash(key, len);
    bool found;
    void *slot = tool_hash_insert(map_index(map), item->hash, NULL, NULL, &found);
    if (slot == NULL) {
        return -1;
    }
    uint32_t index = (uint32_t)map->count;
    memcpy(slot, &index, sizeof(index));
    item->row = *row;
    item->key_off = map->arena_len;
    item->key_len = (uint32_t)len;
    item->mark = INDEX_MARK_UNSEEN;
    item->rename_source = false;
    memcpy(map->arena + map->arena_len, key, len);
    map->arena[map->arena_len + len] = '\0';
    map->arena_len += len + 1;
    return (long)map->count++;
}

struct index_item *index_map_find(struct index_map *map, const char *key, size_t len)
{
    return index_map_find_hashed(map, key, len, index_key_hash(key, len));
}

struct index_item *index_map_find_hashed(struct index_map *map, const char *key, size_t len,
                                         uint64_t hash)
{
    struct map_key k = {map, key, len};
    const void *record = tool_hash_find(&map->index, hash, item_has_key, &k);
    if (record == NULL) {
        return NULL;
    }
    uint32_t i;
    memcpy(&i, record, sizeof(i));
    return &map->items[i];
}
