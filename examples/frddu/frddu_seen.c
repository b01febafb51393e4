// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A thread-safe set of (device, file id) pairs: counts a hard-linked file once, as du does. */
#include "frddu_seen.h"

#include "frddu_shard.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Locked shards (frddu_shard.h) of (dev, id) records. A pair is never removed. */
struct seen_key {
    uint64_t dev;
    uint64_t id;
};

struct du_seen {
    struct du_shard shards[DU_SHARDS]; // of struct seen_key
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
    du_shards_init(seen->shards, sizeof(struct seen_key));
    return seen;
}

void du_seen_free(struct du_seen *seen)
{
    if (seen == NULL) {
        return;
    }
    du_shards_destroy(seen->shards);
    free(seen);
}

int du_seen_add(struct du_seen *seen, uint64_t dev, uint64_t id)
{
    struct seen_key key = {dev, id};
    uint64_t hash = seen_hash(dev, id);
    struct du_shard *shard = du_shard_of(seen->shards, hash);
    bool found;
    pthread_mutex_lock(&shard->lock);
    void *slot = tool_hash_insert(&shard->table, hash, seen_eq, &key, &found);
    if (slot != NULL && !found) {
        memcpy(slot, &key, sizeof(key));
    }
    pthread_mutex_unlock(&shard->lock);
    return slot == NULL ? -1 : found ? 0 : 1;
}
