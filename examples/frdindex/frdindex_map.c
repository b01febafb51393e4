// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A hash map from path to stored row, for comparing a walk with the database. */
#include "frdindex_map.h"

#include <stdlib.h>
#include <string.h>

/*
 * Items live in one array and paths in one arena (two allocations that grow by doubling, not
 * one per row), and the index is an open-addressing table of 32-bit item numbers with
 * linear probing, kept at most half full. Loading /usr's 165,000 rows costs a few
 * milliseconds beyond reading them from SQLite.
 */

/** Eight bytes at a time, multiply and fold; paths are long and differ mostly at the end. */
uint64_t index_path_hash(const char *s, size_t len)
{
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

void index_map_free(struct index_map *map)
{
    free(map->items);
    free(map->arena);
    free(map->slots);
    memset(map, 0, sizeof(*map));
}

static void slots_insert(uint32_t *slots, size_t cap, uint64_t hash, uint32_t value)
{
    size_t mask = cap - 1;
    size_t i = (size_t)hash & mask;
    while (slots[i] != 0) {
        i = (i + 1) & mask;
    }
    slots[i] = value;
}

/** Rebuilds the index with room for at least `count` items at load 1/2. */
static int map_resize_slots(struct index_map *map, size_t count)
{
    size_t cap = 1024;
    while (cap < count * 2) {
        cap *= 2;
    }
    uint32_t *slots = calloc(cap, sizeof(*slots));
    if (slots == NULL) {
        return -1;
    }
    for (size_t i = 0; i < map->count; i++) {
        slots_insert(slots, cap, map->items[i].hash, (uint32_t)(i + 1));
    }
    free(map->slots);
    map->slots = slots;
    map->slots_cap = cap;
    return 0;
}

static int map_grow_items(struct index_map *map, size_t count)
{
    size_t cap = count < 1024 ? 1024 : count;
    struct index_item *items = realloc(map->items, cap * sizeof(*items));
    if (items == NULL) {
        return -1;
    }
    map->items = items;
    map->items_cap = cap;
    return 0;
}

static int map_grow_arena(struct index_map *map, size_t bytes)
{
    size_t cap = bytes < 65536 ? 65536 : bytes;
    char *arena = realloc(map->arena, cap);
    if (arena == NULL) {
        return -1;
    }
    map->arena = arena;
    map->arena_cap = cap;
    return 0;
}

int index_map_reserve(struct index_map *map, size_t count, size_t path_bytes)
{
    if ((count > map->items_cap && map_grow_items(map, count) < 0) ||
        (path_bytes > map->arena_cap && map_grow_arena(map, path_bytes) < 0) ||
        (count * 2 > map->slots_cap && map_resize_slots(map, count) < 0)) {
        return -1;
    }
    return 0;
}

long index_map_add(struct index_map *map, const char *path, size_t len, const struct index_row *row)
{
    if (map->count >= UINT32_MAX - 1 || len >= UINT32_MAX) {
        return -1;
    }
    if ((map->count + 1) * 2 > map->slots_cap && map_resize_slots(map, map->count * 2) < 0) {
        return -1;
    }
    if (map->count == map->items_cap && map_grow_items(map, map->count * 2) < 0) {
        return -1;
    }
    if (map->arena_len + len + 1 > map->arena_cap &&
        map_grow_arena(map, (map->arena_len + len + 1) * 2) < 0) {
        return -1;
    }
    struct index_item *item = &map->items[map->count];
    item->row = *row;
    item->hash = index_path_hash(path, len);
    item->path_off = map->arena_len;
    item->path_len = (uint32_t)len;
    item->mark = INDEX_MARK_UNSEEN;
    item->rename_source = false;
    memcpy(map->arena + map->arena_len, path, len);
    map->arena[map->arena_len + len] = '\0';
    map->arena_len += len + 1;
    slots_insert(map->slots, map->slots_cap, item->hash, (uint32_t)(map->count + 1));
    return (long)map->count++;
}

struct index_item *index_map_find(struct index_map *map, const char *path, size_t len)
{
    return index_map_find_hashed(map, path, len, index_path_hash(path, len));
}

struct index_item *index_map_find_hashed(struct index_map *map, const char *path, size_t len,
                                         uint64_t hash)
{
    if (map->slots_cap == 0) {
        return NULL;
    }
    size_t mask = map->slots_cap - 1;
    for (size_t i = (size_t)hash & mask; map->slots[i] != 0; i = (i + 1) & mask) {
        struct index_item *item = &map->items[map->slots[i] - 1];
        if (item->hash == hash && item->path_len == len &&
            memcmp(map->arena + item->path_off, path, len) == 0) {
            return item;
        }
    }
    return NULL;
}
