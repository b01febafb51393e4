// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The directories a du walk is totalling, found by path from any worker thread. */
#include "frddu_tree.h"

#include "frddu_shard.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * Locked shards (frddu_shard.h) of directory pointers keyed by path. Only directories live
 * here, and only while they are being walked, so the table stays as small as the walk's
 * frontier. Lookups are rare anyway: frddu caches the last parent per thread.
 */
struct du_tree {
    struct du_shard shards[DU_SHARDS]; // of struct du_dir *
};

/** What a lookup by path compares. */
struct tree_key {
    const char *key;
    size_t len;
};

static struct du_dir *dir_at(const void *record)
{
    struct du_dir *dir;
    memcpy(&dir, record, sizeof(dir));
    return dir;
}

static bool dir_has_path(const void *record, const void *key)
{
    const struct du_dir *d = dir_at(record);
    const struct tree_key *k = key;
    return d->key_len == k->len && memcmp(d->key, k->key, k->len) == 0;
}

static bool dir_is(const void *record, const void *key)
{
    return dir_at(record) == key;
}

struct du_tree *du_tree_new(void)
{
    struct du_tree *tree = calloc(1, sizeof(*tree));
    if (tree == NULL) {
        return NULL;
    }
    du_shards_init(tree->shards, sizeof(struct du_dir *));
    return tree;
}

void du_tree_free(struct du_tree *tree)
{
    if (tree == NULL) {
        return;
    }
    for (size_t i = 0; i < DU_SHARDS; i++) {
        const struct tool_hash *table = &tree->shards[i].table;
        for (size_t s = 0; s < tool_hash_capacity(table); s++) {
            const void *record = tool_hash_slot(table, s);
            if (record != NULL) {
                free(dir_at(record));
            }
        }
    }
    du_shards_destroy(tree->shards);
    free(tree);
}

struct du_dir *du_tree_add(struct du_tree *tree, const char *key, size_t key_len,
                           struct du_dir *parent, unsigned depth, uint64_t own_bytes)
{
    struct du_dir *dir = malloc(sizeof(*dir) + key_len + 1);
    if (dir == NULL) {
        return NULL;
    }
    dir->parent = parent;
    atomic_init(&dir->bytes, own_bytes);
    atomic_init(&dir->pending, 1);
    atomic_init(&dir->listed, false);
    dir->leftover = false;
    dir->depth = depth;
    dir->hash = tool_hash_bytes(key, key_len);
    dir->key_len = key_len;
    memcpy(dir->key, key, key_len);
    dir->key[key_len] = '\0';

    struct du_shard *shard = du_shard_of(tree->shards, dir->hash);
    bool found;
    pthread_mutex_lock(&shard->lock);
    void *slot = tool_hash_insert(&shard->table, dir->hash, NULL, NULL, &found);
    if (slot != NULL) {
        memcpy(slot, &dir, sizeof(dir));
    }
    pthread_mutex_unlock(&shard->lock);
    if (slot == NULL) {
        free(dir);
        return NULL;
    }
    return dir;
}

struct du_dir *du_tree_find(struct du_tree *tree, const char *key, size_t key_len)
{
    uint64_t hash = tool_hash_bytes(key, key_len);
    struct du_shard *shard = du_shard_of(tree->shards, hash);
    struct tree_key k = {key, key_len};
    pthread_mutex_lock(&shard->lock);
    const void *record = tool_hash_find(&shard->table, hash, dir_has_path, &k);
    struct du_dir *found = record != NULL ? dir_at(record) : NULL;
    pthread_mutex_unlock(&shard->lock);
    return found;
}

void du_tree_remove(struct du_tree *tree, struct du_dir *dir)
{
    struct du_shard *shard = du_shard_of(tree->shards, dir->hash);
    pthread_mutex_lock(&shard->lock);
    void *record = tool_hash_find(&shard->table, dir->hash, dir_is, dir);
    if (record != NULL) {
        tool_hash_remove(&shard->table, record);
    }
    pthread_mutex_unlock(&shard->lock);
}

static int dir_deeper_first(const void *a, const void *b)
{
    const struct du_dir *x = *(const struct du_dir *const *)a;
    const struct du_dir *y = *(const struct du_dir *const *)b;
    if (x->depth != y->depth) {
        return x->depth > y->depth ? -1 : 1;
    }
    return strcmp(x->key, y->key);
}

long du_tree_take_all(struct du_tree *tree, struct du_dir ***out)
{
    size_t total = 0;
    for (size_t i = 0; i < DU_SHARDS; i++) {
        total += tool_hash_count(&tree->shards[i].table);
    }
    *out = NULL;
    if (total == 0) {
        return 0;
    }
    struct du_dir **dirs = malloc(total * sizeof(*dirs));
    if (dirs == NULL) {
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i < DU_SHARDS; i++) {
        struct tool_hash *table = &tree->shards[i].table;
        for (size_t s = 0; s < tool_hash_capacity(table); s++) {
            const void *record = tool_hash_slot(table, s);
            if (record != NULL) {
                struct du_dir *d = dir_at(record);
                d->leftover = true;
                dirs[n++] = d;
            }
        }
        tool_hash_clear(table);
    }
    qsort(dirs, n, sizeof(*dirs), dir_deeper_first);
    *out = dirs;
    return (long)n;
}
