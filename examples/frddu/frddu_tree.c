// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The directories a du walk is totalling, found by path from any worker thread. */
#include "frddu_tree.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * 64 shards of chained hash tables keyed by path, each under its own mutex. Only
 * directories live here, and only while they are being walked, so the table stays as small
 * as the walk's frontier. Lookups are rare anyway: frddu caches the last parent per thread.
 */
#define TREE_SHARDS 64

struct tree_shard {
    pthread_mutex_t lock;
    struct du_dir **buckets;
    size_t capacity; // a power of two, or 0
    size_t count;
};

struct du_tree {
    struct tree_shard shards[TREE_SHARDS];
};

/** FNV-1a, then a final mix so that the top bits (the shard) depend on every byte. */
static uint64_t tree_hash(const char *key, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)key[i]) * 0x100000001b3u;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return h;
}

struct du_tree *du_tree_new(void)
{
    struct du_tree *tree = calloc(1, sizeof(*tree));
    if (tree == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < TREE_SHARDS; i++) {
        pthread_mutex_init(&tree->shards[i].lock, NULL);
    }
    return tree;
}

void du_tree_free(struct du_tree *tree)
{
    if (tree == NULL) {
        return;
    }
    for (size_t i = 0; i < TREE_SHARDS; i++) {
        struct tree_shard *shard = &tree->shards[i];
        for (size_t b = 0; b < shard->capacity; b++) {
            for (struct du_dir *d = shard->buckets[b], *next; d != NULL; d = next) {
                next = d->next;
                free(d);
            }
        }
        free(shard->buckets);
        pthread_mutex_destroy(&shard->lock);
    }
    free(tree);
}

static struct tree_shard *tree_shard_of(struct du_tree *tree, uint64_t hash)
{
    return &tree->shards[hash >> 58];
}

/** Doubles a shard's bucket array. @return 0, or -1 when out of memory. */
static int shard_grow(struct tree_shard *shard)
{
    size_t capacity = shard->capacity == 0 ? 16 : shard->capacity * 2;
    struct du_dir **buckets = calloc(capacity, sizeof(*buckets));
    if (buckets == NULL) {
        return -1;
    }
    for (size_t b = 0; b < shard->capacity; b++) {
        for (struct du_dir *d = shard->buckets[b], *next; d != NULL; d = next) {
            next = d->next;
            size_t slot = (size_t)d->hash & (capacity - 1);
            d->next = buckets[slot];
            buckets[slot] = d;
        }
    }
    free(shard->buckets);
    shard->buckets = buckets;
    shard->capacity = capacity;
    return 0;
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
    dir->hash = tree_hash(key, key_len);
    dir->key_len = key_len;
    memcpy(dir->key, key, key_len);
    dir->key[key_len] = '\0';

    struct tree_shard *shard = tree_shard_of(tree, dir->hash);
    pthread_mutex_lock(&shard->lock);
    if (shard->count >= shard->capacity && shard_grow(shard) < 0) {
        pthread_mutex_unlock(&shard->lock);
        free(dir);
        return NULL;
    }
    size_t slot = (size_t)dir->hash & (shard->capacity - 1);
    dir->next = shard->buckets[slot];
    shard->buckets[slot] = dir;
    shard->count++;
    pthread_mutex_unlock(&shard->lock);
    return dir;
}

struct du_dir *du_tree_find(struct du_tree *tree, const char *key, size_t key_len)
{
    uint64_t hash = tree_hash(key, key_len);
    struct tree_shard *shard = tree_shard_of(tree, hash);
    struct du_dir *found = NULL;
    pthread_mutex_lock(&shard->lock);
    if (shard->capacity != 0) {
        for (struct du_dir *d = shard->buckets[(size_t)hash & (shard->capacity - 1)]; d != NULL;
             d = d->next) {
            if (d->hash == hash && d->key_len == key_len && memcmp(d->key, key, key_len) == 0) {
                found = d;
                break;
            }
        }
    }
    pthread_mutex_unlock(&shard->lock);
    return found;
}

void du_tree_remove(struct du_tree *tree, struct du_dir *dir)
{
    struct tree_shard *shard = tree_shard_of(tree, dir->hash);
    pthread_mutex_lock(&shard->lock);
    struct du_dir **link = &shard->buckets[(size_t)dir->hash & (shard->capacity - 1)];
    while (*link != NULL && *link != dir) {
        link = &(*link)->next;
    }
    if (*link == dir) {
        *link = dir->next;
        shard->count--;
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
    for (size_t i = 0; i < TREE_SHARDS; i++) {
        total += tree->shards[i].count;
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
    for (size_t i = 0; i < TREE_SHARDS; i++) {
        struct tree_shard *shard = &tree->shards[i];
        for (size_t b = 0; b < shard->capacity; b++) {
            for (struct du_dir *d = shard->buckets[b]; d != NULL; d = d->next) {
                d->leftover = true;
                dirs[n++] = d;
            }
            shard->buckets[b] = NULL;
        }
        shard->count = 0;
    }
    qsort(dirs, n, sizeof(*dirs), dir_deeper_first);
    *out = dirs;
    return (long)n;
}
