// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The locked shards behind frddu's two thread-safe tables (files seen, directories growing):
 * 64 hash tables, each under its own mutex. A record's shard comes from the high bits of its
 * hash and its slot from the low bits, so the two do not correlate.
 */
#ifndef FRD_EXAMPLES_FRDDU_SHARD_H
#define FRD_EXAMPLES_FRDDU_SHARD_H

#include "hash.h"

#include <pthread.h>

#define DU_SHARDS 64

/** One shard: a table and the lock that guards it. */
struct du_shard {
    pthread_mutex_t lock;
    struct tool_hash table;
};

/** Sets up DU_SHARDS empty shards of `record_size`-byte records. */
static inline void du_shards_init(struct du_shard *shards, size_t record_size)
{
    for (size_t i = 0; i < DU_SHARDS; i++) {
        pthread_mutex_init(&shards[i].lock, NULL);
        tool_hash_init(&shards[i].table, record_size);
    }
}

/** Frees the shards' tables and locks (not what the records point to). */
static inline void du_shards_destroy(struct du_shard *shards)
{
    for (size_t i = 0; i < DU_SHARDS; i++) {
        pthread_mutex_destroy(&shards[i].lock);
        tool_hash_free(&shards[i].table);
    }
}

/** @return the shard that holds records of hash `hash`. */
static inline struct du_shard *du_shard_of(struct du_shard *shards, uint64_t hash)
{
    return &shards[hash >> 58];
}

#endif // FRD_EXAMPLES_FRDDU_SHARD_H
