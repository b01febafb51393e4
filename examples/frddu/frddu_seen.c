// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A thread-safe set of (device, file id) pairs: counts a hard-linked file once, as du does. */
#include "frddu_seen.h"

#include <pthread.h>
#include <stdlib.h>

/*
 * 64 shards, each an open-addressing table (linear probing) under its own mutex. The shard
 * is chosen from the high bits of the hash and the slot from the low bits, so they do not
 * correlate. Empty slots hold id 0 with `used` clear; a pair is never removed.
 */
#define SEEN_SHARDS 64

struct seen_slot {
    uint64_t dev;
    uint64_t id;
    bool used;
};

struct seen_shard {
    pthread_mutex_t lock;
    struct seen_slot *slots;
    size_t capacity; // a power of two, or 0
    size_t count;
};

struct du_seen {
    struct seen_shard shards[SEEN_SHARDS];
};

static uint64_t seen_hash(uint64_t dev, uint64_t id)
{
    // splitmix64's finalizer over both words: inode numbers are dense, so mix them well.
    uint64_t h = id * 0x9e3779b97f4a7c15u ^ (dev + 0x632be59bd9b4e019u);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    h ^= h >> 31;
    return h;
}

struct du_seen *du_seen_new(void)
{
    struct du_seen *seen = calloc(1, sizeof(*seen));
    if (seen == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < SEEN_SHARDS; i++) {
        pthread_mutex_init(&seen->shards[i].lock, NULL);
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
        free(seen->shards[i].slots);
    }
    free(seen);
}

/** Finds the slot of (dev, id), or the empty slot where it belongs. */
static struct seen_slot *shard_find(struct seen_shard *shard, uint64_t dev, uint64_t id,
                                    uint64_t hash)
{
    size_t mask = shard->capacity - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
        struct seen_slot *slot = &shard->slots[i];
        if (!slot->used || (slot->dev == dev && slot->id == id)) {
            return slot;
        }
    }
}

/** Doubles a shard's table (or makes its first one). @return 0 or -1. */
static int shard_grow(struct seen_shard *shard)
{
    size_t capacity = shard->capacity == 0 ? 64 : shard->capacity * 2;
    struct seen_slot *slots = calloc(capacity, sizeof(*slots));
    if (slots == NULL) {
        return -1;
    }
    struct seen_slot *old = shard->slots;
    size_t old_capacity = shard->capacity;
    shard->slots = slots;
    shard->capacity = capacity;
    for (size_t i = 0; i < old_capacity; i++) {
        if (old[i].used) {
            *shard_find(shard, old[i].dev, old[i].id, seen_hash(old[i].dev, old[i].id)) = old[i];
        }
    }
    free(old);
    return 0;
}

int du_seen_add(struct du_seen *seen, uint64_t dev, uint64_t id)
{
    uint64_t hash = seen_hash(dev, id);
    struct seen_shard *shard = &seen->shards[hash >> 58];
    int result = 1;
    pthread_mutex_lock(&shard->lock);
    // Keep the load below 1/2 so probes stay short.
    if ((shard->count + 1) * 2 > shard->capacity && shard_grow(shard) < 0) {
        result = -1;
        goto done;
    }
    struct seen_slot *slot = shard_find(shard, dev, id, hash);
    if (slot->used) {
        result = 0;
        goto done;
    }
    slot->dev = dev;
    slot->id = id;
    slot->used = true;
    shard->count++;
done:
    pthread_mutex_unlock(&shard->lock);
    return result;
}
