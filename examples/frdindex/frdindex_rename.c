// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Rename detection: matching entries an update added with files whose old path is gone. */
#include "frdindex_rename.h"

#include "grow.h"
#include "hash.h"

#include <frd.h>
#include <stdlib.h>
#include <string.h>

/*
 * A rename is told by identity, not by name or content: the file that was indexed at OLD
 * (device + file id) is now at NEW and OLD is gone. Identity is only trusted on volumes
 * whose ids persist (the walker's persistent_ids), and a file must also keep its size and
 * mtime, so that a new file which happens to reuse a deleted file's inode number is not
 * taken for that file renamed. Matching is one hash lookup per added path, over the old
 * files only (hard links share a bucket and are chained).
 */

TOOL_RESERVE_DEFINE(added_reserve, struct index_added_entry, 256)

/** Remembers an added path for rename matching. @return 0 or -1. */
int index_added_push(struct index_added *added, const struct index_row *row, const char *key,
                     size_t len)
{
    if (len >= UINT32_MAX || added_reserve(&added->entries, &added->cap, added->count + 1) < 0 ||
        tool_reserve_chars(&added->arena, &added->arena_cap, added->arena_len + len + 1) < 0) {
        return -1;
    }
    memcpy(added->arena + added->arena_len, key, len);
    added->arena[added->arena_len + len] = '\0';
    added->entries[added->count++] =
        (struct index_added_entry){*row, added->arena_len, (uint32_t)len};
    added->arena_len += len + 1;
    return 0;
}

void index_added_free(struct index_added *added)
{
    free(added->entries);
    free(added->arena);
    memset(added, 0, sizeof(*added));
}

static uint64_t identity_hash(uint64_t dev, uint64_t id)
{
    return tool_hash_mix(tool_hash_mix(dev) ^ id);
}

/** Could `target` (added now) be the file `source` (indexed before) under a new name? */
static bool same_file(const struct index_row *source, const struct index_row *target)
{
    if (source->dev != target->dev || source->file_id != target->file_id ||
        source->type != target->type) {
        return false;
    }
    // A rename keeps a file's size and mtime. Requiring them keeps a new file that reuses a
    // deleted file's inode number from passing for that file renamed. (Directories change
    // mtime when entries come and go, so for them identity alone decides.)
    return source->type == FRD_TYPE_DIR ||
           (source->size == target->size && source->mtime_ns == target->mtime_ns);
}

/** What a lookup of an added path among the old files compares. */
struct source_key {
    const struct index_map *map;
    const struct index_row *target;
};

static bool source_matches(const void *record, const void *key)
{
    const struct source_key *k = key;
    long i;
    memcpy(&i, record, sizeof(i));
    const struct index_item *source = &k->map->items[i];
    return source->rename_source && same_file(&source->row, k->target);
}

/**
 * The key of the directory holding the entry `key` (itself an entry: its directory's
 * directory and its name), into `out`. @return its length, or 0 when it has none.
 */
static size_t parent_key(struct index_dirs *dirs, const char *key, char **out, size_t *cap)
{
    bool failed = false;
    int64_t dir = index_key_dir(key);
    const struct index_dir *d = dir != 0 ? index_dirs_get(dirs, dir, &failed) : NULL;
    if (d == NULL || tool_reserve_chars(out, cap, INDEX_KEY_DIR_BYTES + d->name_len + 1) < 0 ||
        *out == NULL) {
        return 0;
    }
    index_key_make(*out, d->parent, index_dir_name(dirs, d), d->name_len);
    return INDEX_KEY_DIR_BYTES + d->name_len;
}

/** See frdindex_rename.h. */
struct index_rename *index_match_renames(struct index_map *map, const struct index_added *added,
                                         struct index_dirs *dirs, size_t *npairs, bool *failed)
{
    *npairs = 0;
    *failed = false;
    size_t nsources = 0;
    for (size_t i = 0; i < map->count; i++) {
        struct index_item *item = &map->items[i];
        if (item->mark == INDEX_MARK_UNSEEN && item->row.persistent) {
            item->rename_source = true;
        }
        nsources += item->rename_source;
    }
    if (nsources == 0 || added->count == 0) {
        return NULL;
    }
    // Sources by identity (records: long item indexes); hard links share a hash. They go
    // in from the last item down, so a target meets the last-indexed of several links first.
    struct tool_hash sources;
    tool_hash_init(&sources, sizeof(long));
    struct index_rename *pairs = malloc(added->count * sizeof(*pairs));
    if (pairs == NULL || tool_hash_reserve(&sources, nsources) < 0) {
        goto oom;
    }
    for (size_t i = map->count; i-- > 0;) {
        const struct index_item *item = &map->items[i];
        if (item->rename_source) {
            bool found;
            long index = (long)i;
            void *slot = tool_hash_insert(&sources, identity_hash(item->row.dev, item->row.file_id),
                                          NULL, NULL, &found);
            memcpy(slot, &index, sizeof(index)); // reserved above: cannot fail
        }
    }
    for (size_t t = 0; t < added->count; t++) {
        struct source_key key = {map, &added->entries[t].row};
        void *slot = tool_hash_find(&sources, identity_hash(key.target->dev, key.target->file_id),
                                    source_matches, &key);
        if (slot != NULL) {
            long i;
            memcpy(&i, slot, sizeof(i));
            map->items[i].rename_source = false; // one new path per old one
            pairs[(*npairs)++] = (struct index_rename){i, t, INDEX_RENAMED};
        }
    }
    tool_hash_free(&sources);

    // "a/x -> b/x" follows from "a -> b": keep only the directory's rename in the report.
    struct index_map by_target = {0};
    for (size_t p = 0; p < *npairs; p++) {
        const struct index_added_entry *a = &added->entries[pairs[p].target];
        struct index_row ref = {.id = (int64_t)p};
        if (index_map_add(&by_target, added->arena + a->key_off, a->key_len, &ref) < 0) {
            index_map_free(&by_target);
            goto oom;
        }
    }
    char *new_parent = NULL, *old_parent = NULL;
    size_t new_cap = 0, old_cap = 0;
    for (size_t p = 0; p < *npairs; p++) {
        const struct index_added_entry *a = &added->entries[pairs[p].target];
        const struct index_item *src = &map->items[pairs[p].source];
        const char *new_key = added->arena + a->key_off;
        const char *old_key = index_item_key(map, src);
        // The same name, and the directory holding it renamed from the one that held it.
        if (a->key_len != src->key_len ||
            memcmp(new_key + INDEX_KEY_DIR_BYTES, old_key + INDEX_KEY_DIR_BYTES,
                   a->key_len - INDEX_KEY_DIR_BYTES) != 0) {
            continue;
        }
        size_t new_len = parent_key(dirs, new_key, &new_parent, &new_cap);
        size_t old_len = new_len == 0 ? 0 : parent_key(dirs, old_key, &old_parent, &old_cap);
        struct index_item *parent =
            old_len == 0 ? NULL : index_map_find(&by_target, new_parent, new_len);
        if (parent == NULL) {
            continue;
        }
        const struct index_item *parent_src = &map->items[pairs[parent->row.id].source];
        if (parent_src->key_len == old_len &&
            memcmp(index_item_key(map, parent_src), old_parent, old_len) == 0) {
            pairs[p].change = INDEX_RENAMED_WITH_PARENT;
        }
    }
    free(new_parent);
    free(old_parent);
    index_map_free(&by_target);
    return pairs;
oom:
    tool_hash_free(&sources);
    free(pairs);
    *npairs = 0;
    *failed = true;
    return NULL;
}
