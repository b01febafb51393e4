// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Identity: the sets that make a walk visit each file or directory once, the per-device
 * cache of volume classes, and the loop check along the ancestor chain.
 *
 * A directory's identity is (dev, ino[, subvol]) read from a descriptor the walker opened
 * (or from the parent's statx of the name, which names the same inode). How far it can be
 * trusted depends on the volume (platform.h, enum frd__vol_class):
 *   strong     ids compared directly, in the ancestor chain and in the duplicate sets;
 *   weak       ids hold only while the inode is pinned: compared along the ancestor chain
 *              (which the walk keeps alive), never remembered for duplicates (FAT and
 *              exFAT cannot hard-link anyway);
 *   untrusted  ids may be invented or zero (fuse): loops are found by canonical path, and
 *              nothing is deduplicated.
 */
#include "walker.h"

#include <string.h>

/** Shards of a set: a power of two, enough that 8 workers rarely share a lock. */
#define IDSET_SHARDS 64

struct idset_shard {
    uv_mutex_t lock;
    struct frd__identity *slots; /**< open addressing; ino == 0 && dev == 0 && subvol == 1 marks
                                      a free slot (no file has that identity) */
    size_t capacity;
    size_t count;
};

struct frd__idset {
    struct idset_shard shards[IDSET_SHARDS];
};

static uint64_t id_hash(const struct frd__identity *id)
{
    // splitmix64 finalizer over the mixed words.
    uint64_t x = id->ino * 0x9E3779B97F4A7C15u ^ id->dev ^ (id->subvol << 17);
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBu;
    x ^= x >> 31;
    return x;
}

static bool id_is_free(const struct frd__identity *slot)
{
    return slot->dev == 0 && slot->ino == 0 && slot->subvol == 1;
}

bool frd__identity_equal(const struct frd__identity *a, const struct frd__identity *b)
{
    if (a->dev != b->dev || a->ino != b->ino) {
        return false;
    }
    return a->subvol == 0 || b->subvol == 0 || a->subvol == b->subvol;
}

int frd__idset_new(struct frd__idset **out)
{
    struct frd__idset *set = frd__calloc(1, sizeof(*set));
    if (set == NULL) {
        return FRD_ENOMEM;
    }
    for (size_t i = 0; i < IDSET_SHARDS; i++) {
        if (uv_mutex_init(&set->shards[i].lock) != 0) {
            for (size_t j = 0; j < i; j++) {
                uv_mutex_destroy(&set->shards[j].lock);
            }
            frd__free(set);
            return FRD_ENOMEM;
        }
    }
    *out = set;
    return 0;
}

void frd__idset_free(struct frd__idset *set)
{
    if (set == NULL) {
        return;
    }
    for (size_t i = 0; i < IDSET_SHARDS; i++) {
        uv_mutex_destroy(&set->shards[i].lock);
        frd__free(set->shards[i].slots);
    }
    frd__free(set);
}

/** Inserts into a table known to have room. @return 1 if new, 0 if present. */
static int shard_put(struct frd__identity *slots, size_t capacity, const struct frd__identity *id,
                     uint64_t hash)
{
    // Identities compare exactly here (subvol included): a set remembers what it saw.
    for (size_t i = (size_t)(hash >> 6) & (capacity - 1);; i = (i + 1) & (capacity - 1)) {
        if (id_is_free(&slots[i])) {
            slots[i] = *id;
            return 1;
        }
        if (slots[i].dev == id->dev && slots[i].ino == id->ino && slots[i].subvol == id->subvol) {
            return 0;
        }
    }
}

static int shard_grow(struct idset_shard *sh)
{
    size_t capacity = sh->capacity ? sh->capacity * 2 : 256;
    size_t bytes;
    if (frd__mul_size(capacity, sizeof(*sh->slots), &bytes) < 0) {
        return FRD_ENOMEM;
    }
    struct frd__identity *slots = frd__malloc(bytes);
    if (slots == NULL) {
        return FRD_ENOMEM;
    }
    for (size_t i = 0; i < capacity; i++) {
        slots[i] = (struct frd__identity){0, 0, 1};
    }
    for (size_t i = 0; i < sh->capacity; i++) {
        if (!id_is_free(&sh->slots[i])) {
            shard_put(slots, capacity, &sh->slots[i], id_hash(&sh->slots[i]));
        }
    }
    frd__free(sh->slots);
    sh->slots = slots;
    sh->capacity = capacity;
    return 0;
}

int frd__idset_insert(struct frd__idset *set, const struct frd__identity *id)
{
    struct frd__identity key = *id;
    if (id_is_free(&key)) {
        key.subvol = 2; // keep the free marker unambiguous; (0, 0) is no real file anyway
    }
    uint64_t hash = id_hash(&key);
    struct idset_shard *sh = &set->shards[hash & (IDSET_SHARDS - 1)];
    uv_mutex_lock(&sh->lock);
    // Grow at 3/4 full: probes stay short.
    if ((sh->count + 1) * 4 > sh->capacity * 3 && shard_grow(sh) < 0) {
        uv_mutex_unlock(&sh->lock);
        return FRD_ENOMEM;
    }
    int rc = shard_put(sh->slots, sh->capacity, &key, hash);
    sh->count += (size_t)rc;
    uv_mutex_unlock(&sh->lock);
    return rc;
}

/** Devices seen in one walk are few: a short array under a lock; workers cache the last. */
struct frd__volcache {
    uv_mutex_t lock;
    struct {
        uint64_t dev;
        enum frd__vol_class cls;
    } * items;
    size_t count;
    size_t capacity;
};

int frd__volcache_new(struct frd__volcache **out)
{
    struct frd__volcache *vc = frd__calloc(1, sizeof(*vc));
    if (vc == NULL) {
        return FRD_ENOMEM;
    }
    if (uv_mutex_init(&vc->lock) != 0) {
        frd__free(vc);
        return FRD_ENOMEM;
    }
    *out = vc;
    return 0;
}

void frd__volcache_free(struct frd__volcache *vc)
{
    if (vc == NULL) {
        return;
    }
    uv_mutex_destroy(&vc->lock);
    frd__free(vc->items);
    frd__free(vc);
}

int frd__volcache_get(struct frd__volcache *vc, uint64_t dev)
{
    int cls = -1;
    uv_mutex_lock(&vc->lock);
    for (size_t i = 0; i < vc->count; i++) {
        if (vc->items[i].dev == dev) {
            cls = (int)vc->items[i].cls;
            break;
        }
    }
    uv_mutex_unlock(&vc->lock);
    return cls;
}

void frd__volcache_put(struct frd__volcache *vc, uint64_t dev, enum frd__vol_class cls)
{
    uv_mutex_lock(&vc->lock);
    for (size_t i = 0; i < vc->count; i++) {
        if (vc->items[i].dev == dev) {
            uv_mutex_unlock(&vc->lock);
            return;
        }
    }
    if (vc->count == vc->capacity) {
        size_t capacity = vc->capacity ? vc->capacity * 2 : 8;
        void *items = frd__realloc(vc->items, capacity * sizeof(*vc->items));
        if (items == NULL) {
            // Not cached: it will be classified again next time, which is only slower.
            uv_mutex_unlock(&vc->lock);
            return;
        }
        vc->items = items;
        vc->capacity = capacity;
    }
    vc->items[vc->count].dev = dev;
    vc->items[vc->count].cls = cls;
    vc->count++;
    uv_mutex_unlock(&vc->lock);
}

const struct frd__wnode *frd__find_loop(const struct frd__wnode *from,
                                        const struct frd__identity *target,
                                        const char *target_canon)
{
    for (const struct frd__wnode *a = from; a != NULL; a = a->parent) {
        if (target_canon != NULL) {
            if (a->canon != NULL && strcmp(a->canon, target_canon) == 0) {
                return a;
            }
        } else if ((a->flags & WN_HAS_ID) && frd__identity_equal(&a->id, target)) {
            return a;
        }
    }
    return NULL;
}
