// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Hard-link groups (FRD_WALK_LINK_GROUPS): an idset (walker/core/identity.c, the walker's one
 * hash table) maps each multiply-linked file's (dev, ino) to a record of its group number and
 * the path it was first met under, so memory grows with those files only, never with every
 * path. The first claim of an identity wins under its shard's lock: in ordered mode visits
 * come in order on one thread, so the first met is the first in that order, and groups are
 * numbered 1, 2, ... in it.
 */
#include "links.h"

#include "identity.h"
#include "internal.h"

#include <stdatomic.h>
#include <string.h>

/** One group: its number and first path, on the walk's list of records. */
struct link_rec {
    struct link_rec *next;
    uint64_t group;
    size_t len;
    char path[]; /**< len bytes and a NUL */
};

struct frd__links {
    struct frd__idset *ids;          /**< identity -> (uintptr_t)struct link_rec * */
    _Atomic(struct link_rec *) recs; /**< every record made, to free */
    atomic_uint_fast64_t groups;     /**< groups made so far */
};

int frd__links_new(struct frd__links **out)
{
    struct frd__links *l = frd__calloc(1, sizeof(*l));
    if (l == NULL || frd__idset_new(&l->ids) < 0) {
        frd__free(l);
        return FRD_ENOMEM;
    }
    *out = l;
    return 0;
}

void frd__links_free(struct frd__links *links)
{
    if (links == NULL) {
        return;
    }
    struct link_rec *r = atomic_load_explicit(&links->recs, memory_order_acquire);
    while (r != NULL) {
        struct link_rec *next = r->next;
        frd__free(r);
        r = next;
    }
    frd__idset_free(links->ids);
    frd__free(links);
}

/** Says what `out` is for a group met before, whose record is `value`. */
static void link_found(uint64_t value, struct frd__link_group *out)
{
    // The record is complete: written before it was claimed, under the shard's lock.
    const struct link_rec *first = (const struct link_rec *)(uintptr_t)value;
    out->group = first->group;
    out->first = first->path;
    out->first_len = first->len;
}

int frd__links_group(struct frd__links *links, const struct frd__identity *id, const char *path,
                     size_t path_len, struct frd__link_group *out)
{
    uint64_t old;
    if (frd__idset_get(links->ids, id, &old)) {
        link_found(old, out);
        return 0;
    }
    struct link_rec *rec = frd__malloc(sizeof(*rec) + path_len + 1);
    if (rec == NULL) {
        return FRD_ENOMEM;
    }
    memcpy(rec->path, path, path_len);
    rec->path[path_len] = '\0';
    rec->len = path_len;
    // Numbered before it is claimed (readers may read it as soon as it is): a record that
    // loses a race for its identity to another thread leaves its number unused.
    rec->group = atomic_fetch_add_explicit(&links->groups, 1, memory_order_relaxed) + 1;
    int rc = frd__idset_claim(links->ids, id, (uint64_t)(uintptr_t)rec, &old);
    if (rc <= 0) {
        frd__free(rec);
        if (rc == 0) {
            link_found(old, out);
        }
        return rc;
    }
    out->group = rec->group;
    out->first = NULL;
    out->first_len = 0;
    rec->next = atomic_load_explicit(&links->recs, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&links->recs, &rec->next, rec,
                                                  memory_order_release, memory_order_relaxed)) {
    }
    return 0;
}
