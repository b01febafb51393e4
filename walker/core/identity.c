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
#include "identity.h"

#include "internal.h"
#include "node.h"
#include "table.h"

#include <stdatomic.h>
#include <string.h>
#include <uv.h>

/** Shards of a set: a power of two, enough that 8 workers rarely share a lock. */
#define IDSET_SHARDS 64

struct idset_shard {
    uv_mutex_t lock;
    struct frd__table ids; /**< identity -> 0 */
};

struct frd__idset {
    struct idset_shard shards[IDSET_SHARDS];
};

static struct frd__tkey id_key(const struct frd__identity *id)
{
    return (struct frd__tkey){id->dev, id->ino, id->subvol};
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
        frd__table_free(&set->shards[i].ids);
    }
    frd__free(set);
}

int frd__idset_insert(struct frd__idset *set, const struct frd__identity *id)
{
    // Identities compare exactly here (subvol included): a set remembers what it saw.
    struct frd__tkey key = id_key(id);
    struct idset_shard *sh = &set->shards[frd__tkey_hash(&key) & (IDSET_SHARDS - 1)];
    uv_mutex_lock(&sh->lock);
    int rc = frd__table_put(&sh->ids, &key, 0);
    uv_mutex_unlock(&sh->lock);
    return rc;
}

int frd__idset_claim(struct frd__idset *set, const struct frd__identity *id, uint64_t value,
                     uint64_t *old)
{
    struct frd__tkey key = id_key(id);
    struct idset_shard *sh = &set->shards[frd__tkey_hash(&key) & (IDSET_SHARDS - 1)];
    uv_mutex_lock(&sh->lock);
    int rc = frd__table_put(&sh->ids, &key, value);
    if (rc == 0) {
        frd__table_get(&sh->ids, &key, old);
    }
    uv_mutex_unlock(&sh->lock);
    return rc;
}

bool frd__idset_get(struct frd__idset *set, const struct frd__identity *id, uint64_t *value)
{
    struct frd__tkey key = id_key(id);
    struct idset_shard *sh = &set->shards[frd__tkey_hash(&key) & (IDSET_SHARDS - 1)];
    uv_mutex_lock(&sh->lock);
    bool found = frd__table_get(&sh->ids, &key, value);
    uv_mutex_unlock(&sh->lock);
    return found;
}

/** Devices seen in one walk are few: a table under one lock; workers cache the last. */
struct frd__volcache {
    uv_mutex_t lock;
    struct frd__table classes; /**< (dev, 0, 0) -> enum frd__vol_class */
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
    frd__table_free(&vc->classes);
    frd__free(vc);
}

int frd__volcache_get(struct frd__volcache *vc, uint64_t dev)
{
    struct frd__tkey key = {dev, 0, 0};
    uint64_t cls;
    uv_mutex_lock(&vc->lock);
    bool found = frd__table_get(&vc->classes, &key, &cls);
    uv_mutex_unlock(&vc->lock);
    return found ? (int)cls : -1;
}

void frd__volcache_put(struct frd__volcache *vc, uint64_t dev, enum frd__vol_class cls)
{
    struct frd__tkey key = {dev, 0, 0};
    uv_mutex_lock(&vc->lock);
    // On FRD_ENOMEM it is not cached: classified again next time, which is only slower.
    (void)frd__table_put(&vc->classes, &key, (uint64_t)cls);
    uv_mutex_unlock(&vc->lock);
}

void frd__deep_dirs_init(struct frd__deep_dirs *deep)
{
    atomic_init(&deep->set, NULL);
    atomic_init(&deep->lost, false);
}

void frd__deep_dirs_free(struct frd__deep_dirs *deep)
{
    frd__idset_free(atomic_exchange(&deep->set, NULL));
}

/**
 * The set, made by the first worker to count a directory (two at once: one installs its
 * own, the other frees its and takes that one). Published with release and read with
 * acquire: a worker that handles a deep directory's child learnt of the node after it was
 * counted, so it finds the set made. @return it, or NULL (no memory).
 */
static struct frd__idset *deep_dirs_set(struct frd__deep_dirs *deep)
{
    struct frd__idset *set = atomic_load_explicit(&deep->set, memory_order_acquire);
    if (set != NULL) {
        return set;
    }
    struct frd__idset *mine;
    if (frd__idset_new(&mine) < 0) {
        return NULL;
    }
    if (atomic_compare_exchange_strong_explicit(&deep->set, &set, mine, memory_order_acq_rel,
                                                memory_order_acquire)) {
        return mine;
    }
    frd__idset_free(mine); // another worker's came first (set)
    return set;
}

static struct idset_shard *deep_shard(struct frd__idset *set, const struct frd__identity *id,
                                      struct frd__tkey *key)
{
    *key = (struct frd__tkey){id->dev, id->ino, 0};
    return &set->shards[frd__tkey_hash(key) & (IDSET_SHARDS - 1)];
}

void frd__deep_dirs_add(struct frd__deep_dirs *deep, struct frd__wnode *node)
{
    FRD_ASSERT(node->flags & WN_HAS_ID);
    FRD_ASSERT(!(node->flags & WN_IN_DEEP_SET));
    if (node->depth < FRD__LOOP_SCAN_DEPTH) {
        return;
    }
    struct frd__idset *set = deep_dirs_set(deep);
    if (set == NULL) {
        atomic_store(&deep->lost, true);
        return;
    }
    struct frd__tkey key;
    struct idset_shard *sh = deep_shard(set, &node->id, &key);
    uv_mutex_lock(&sh->lock);
    uint64_t *count = frd__table_value(&sh->ids, &key);
    int rc = 1;
    if (count != NULL) {
        ++*count;
    } else {
        rc = frd__table_put(&sh->ids, &key, 1);
    }
    uv_mutex_unlock(&sh->lock);
    if (rc < 0) {
        atomic_store(&deep->lost, true);
        return;
    }
    node->flags |= WN_IN_DEEP_SET;
}

void frd__deep_dirs_remove(struct frd__deep_dirs *deep, const struct frd__identity *id)
{
    // Counted (WN_IN_DEEP_SET), so the set was made, by this thread or before the node
    // reached it.
    struct frd__idset *set = atomic_load_explicit(&deep->set, memory_order_acquire);
    FRD_ASSERT(set != NULL);
    struct frd__tkey key;
    struct idset_shard *sh = deep_shard(set, id, &key);
    uv_mutex_lock(&sh->lock);
    uint64_t *count = frd__table_value(&sh->ids, &key);
    FRD_ASSERT(count != NULL && *count > 0); // counted by frd__deep_dirs_add()
    if (count != NULL && --*count == 0) {
        frd__table_remove(&sh->ids, &key);
    }
    uv_mutex_unlock(&sh->lock);
}

/** May a deep directory with identity `id` live now? (No: none of them has it.) */
static bool deep_dirs_may_have(struct frd__deep_dirs *deep, const struct frd__identity *id)
{
    if (atomic_load_explicit(&deep->lost, memory_order_relaxed)) {
        return true;
    }
    struct frd__idset *set = atomic_load_explicit(&deep->set, memory_order_acquire);
    if (set == NULL) {
        return false; // none counted yet: not the ancestors, which were counted before
    }
    struct frd__tkey key;
    struct idset_shard *sh = deep_shard(set, id, &key);
    uint64_t count;
    uv_mutex_lock(&sh->lock);
    bool found = frd__table_get(&sh->ids, &key, &count);
    uv_mutex_unlock(&sh->lock);
    return found;
}

const struct frd__wnode *frd__find_loop(struct frd__deep_dirs *deep, const struct frd__wnode *from,
                                        const struct frd__identity *target,
                                        const char *target_canon)
{
    if (target_canon == NULL && from->depth >= FRD__LOOP_SCAN_DEPTH &&
        !deep_dirs_may_have(deep, target)) {
        // Every ancestor at the scan depth or deeper that has an identity is counted in the
        // set (it was given one before it had children), and none has this one: only the
        // shallower ancestors are left to compare.
        from = from->scan_top;
    }
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
