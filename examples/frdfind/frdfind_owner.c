// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * User and group names by id for -user, -group, -nouser, -nogroup, %u and %g: each id is
 * looked up once (getpwuid_r / getgrgid_r, which may ask NSS, slowly) and remembered for
 * the run in the tools' hash table, under one lock. Workers first look at a one-entry cache
 * of their own (indexed by the walk's worker index, no thread locals), so a tree owned by
 * one user takes the lock once per worker, not once per file. The caches are the run's
 * (ctx->owners), made when a name is first asked for: a run that prints no owner does not
 * zero their 8 KB of last-id slots.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_owner.h"

#include "frdfind_ctx.h"
#include "hash.h"

#include <errno.h>
#include <frd.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/** One remembered id. */
struct id_record {
    uint32_t id;
    char *name; /**< NULL: the id has no name */
};

/** One last-id slot per worker index a callback can see (the walk's cap: -j allows no more;
 *  a larger bound only made every run zero pages it never used). */
#define MAX_WORKERS FRD_WALK_MAX_WORKERS

/** A worker's last answer (only that worker reads or writes it). */
struct last_id {
    bool valid;
    uint32_t id;
    const char *name;
};

struct id_cache {
    pthread_mutex_t lock;
    struct tool_hash table; /**< struct id_record */
    bool group;             /**< getgrgid_r, not getpwuid_r */
    struct last_id last[MAX_WORKERS];
};

/** The run's two caches. */
struct ff_owners {
    struct id_cache users;
    struct id_cache groups;
};

/** Makes the two caches. @return them, or NULL (no memory). */
static struct ff_owners *owners_new(void)
{
    struct ff_owners *o = calloc(1, sizeof(*o));
    if (o == NULL) {
        return NULL;
    }
    pthread_mutex_init(&o->users.lock, NULL);
    pthread_mutex_init(&o->groups.lock, NULL);
    o->groups.group = true;
    return o;
}

/** Frees the names of a cache and its table. */
static void cache_free(struct id_cache *c)
{
    if (c->table.record_size != 0) {
        for (size_t i = 0; i < tool_hash_capacity(&c->table); i++) {
            const void *slot = tool_hash_slot(&c->table, i);
            if (slot != NULL) {
                struct id_record r;
                memcpy(&r, slot, sizeof(r));
                free(r.name);
            }
        }
        tool_hash_free(&c->table);
    }
    pthread_mutex_destroy(&c->lock);
}

/** Frees the two caches and the names in them. */
static void owners_free(struct ff_owners *o)
{
    cache_free(&o->users);
    cache_free(&o->groups);
    free(o);
}

void ff_owners_free(struct ff_ctx *ctx)
{
    struct ff_owners *o = atomic_exchange(&ctx->owners, NULL);
    if (o != NULL) {
        owners_free(o);
    }
}

/**
 * The run's caches, made by the first thread that asks (workers may ask at once: one of
 * them installs its own, the others free theirs and take it). @return them, or NULL when
 * there is no memory for them.
 */
static struct ff_owners *owners_get(struct ff_ctx *ctx)
{
    struct ff_owners *o = atomic_load_explicit(&ctx->owners, memory_order_acquire);
    if (o != NULL) {
        return o;
    }
    struct ff_owners *mine = owners_new();
    if (mine == NULL) {
        return NULL;
    }
    if (atomic_compare_exchange_strong_explicit(&ctx->owners, &o, mine, memory_order_acq_rel,
                                                memory_order_acquire)) {
        return mine;
    }
    owners_free(mine); // another thread's came first (o)
    return o;
}

static bool id_eq(const void *record, const void *key)
{
    struct id_record r;
    memcpy(&r, record, sizeof(r));
    return r.id == *(const uint32_t *)key;
}

/** Asks the system (NSS) for the name. @return a malloc'd copy, or NULL. */
static char *lookup(bool group, uint32_t id)
{
    size_t cap = 1024;
    for (;;) {
        char *buf = malloc(cap);
        if (buf == NULL) {
            return NULL;
        }
        const char *name = NULL;
        int rc;
        if (group) {
            struct group gr;
            struct group *res = NULL;
            rc = getgrgid_r((gid_t)id, &gr, buf, cap, &res);
            name = res != NULL ? gr.gr_name : NULL;
        } else {
            struct passwd pw;
            struct passwd *res = NULL;
            rc = getpwuid_r((uid_t)id, &pw, buf, cap, &res);
            name = res != NULL ? pw.pw_name : NULL;
        }
        if (rc == ERANGE && cap < (1u << 20)) {
            free(buf);
            cap *= 4;
            continue;
        }
        char *copy = name != NULL ? strdup(name) : NULL;
        free(buf);
        return copy;
    }
}

static const char *shared_name(struct id_cache *c, uint32_t id)
{
    uint64_t hash = tool_hash_mix(id);
    pthread_mutex_lock(&c->lock);
    if (c->table.record_size == 0) {
        tool_hash_init(&c->table, sizeof(struct id_record));
    }
    struct id_record r;
    void *slot = tool_hash_find(&c->table, hash, id_eq, &id);
    if (slot != NULL) {
        memcpy(&r, slot, sizeof(r));
        pthread_mutex_unlock(&c->lock);
        return r.name;
    }
    r.id = id;
    r.name = lookup(c->group, id);
    bool found;
    slot = tool_hash_insert(&c->table, hash, id_eq, &id, &found);
    if (slot != NULL) {
        memcpy(slot, &r, sizeof(r));
    }
    pthread_mutex_unlock(&c->lock);
    return r.name;
}

static const char *cached_name(struct id_cache *c, uint32_t id, unsigned worker)
{
    if (worker >= MAX_WORKERS) {
        return shared_name(c, id);
    }
    struct last_id *last = &c->last[worker];
    if (!last->valid || last->id != id) {
        last->name = shared_name(c, id);
        last->id = id;
        last->valid = true;
    }
    return last->name;
}

const char *ff_user_name(struct ff_ctx *ctx, uint32_t uid, unsigned worker)
{
    struct ff_owners *o = owners_get(ctx);
    return o != NULL ? cached_name(&o->users, uid, worker) : NULL;
}

const char *ff_group_name(struct ff_ctx *ctx, uint32_t gid, unsigned worker)
{
    struct ff_owners *o = owners_get(ctx);
    return o != NULL ? cached_name(&o->groups, gid, worker) : NULL;
}
