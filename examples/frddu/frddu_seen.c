// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A thread-safe set of (device, file id) pairs: counts a hard-linked file once, as du does. */
#include "frddu_seen.h"

#include "hash.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/*
 * 64 shards, each a table of (dev, id) records under its own mutex. The shard is chosen
 * from the high bits of the hash and the slot from the low bits, so they do not correlate.
 * A pair is never removed.
 */
#define SEEN_SHARDS 64

struct seen_key {
    uint64_t dev;
    uint64_t id;
};

struct seen_shard {
    pthread_mutex_t lock;
    struct tool_hash table; // of struct seen_key
};

struct du_seen {
    struct seen_shard shards[SEEN_SHARDS];
};

static uint64_t seen_hash(uint64_t dev, uint64_t id)
{
    // Inode numbers are dense, so mix them well.
    return tool_hash_mix(tool_hash_mix(dev) ^ id);
}

static bool seen_eq(const void *record, const void *key)
{
    return memcmp(record, key, sizeof(struct seen_key)) == 0;
}

struct du_seen *du_seen_new(void)
{
    struct du_seen *seen = calloc(1, sizeof(*seen));
    if (seen == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < SEEN_SHARDS; i++) {
        pthread_mutex_init(&seen->shards[i].lock, NULL);
        tool_hash_init(&seen->shards[i].table, sizeof(struct seen_key));
    }
    return seen;
}

void du_seen_free(struct du_seen *seen)
{
    if (seen == NULL) {
        return;
    }
    for (size_t i = 0; i < SEEN_SHARDS; i++) {
        pthread_mutex_destroy(&seen->shards[i].lock);
        tool_hash_free(&seen->shards[i].table);
    }
    free(seen);
}

int du_seen_add(struct du_seen *seen, uint64_t dev, uint64_t id)
{
    struct seen_key key = {dev, id};
    uint64_t hash = seen_hash(dev, id);
    struct seen_shard *shard = &seen->shards[hash >> 58];
    bool found;
    pthread_mutex_lock(&shard->lock);
    void *slot = tool_hash_insert(&shard->table, hash, seen_eq, &key, &found);
    if (slot != NULL && !found) {
        memcpy(slot, &key, sizeof(key));
    }
    pthread_mutex_unlock(&shard->lock);
    return slot == NULL ? -1 : found ? 0 : 1;
}
