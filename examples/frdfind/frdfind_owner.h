// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** User and group names by id, cached for the run (frdfind_owner.c). */
#ifndef FRD_EXAMPLES_FRDFIND_OWNER_H
#define FRD_EXAMPLES_FRDFIND_OWNER_H

#include <stdint.h>

struct ff_ctx;

/** Frees the caches and the names in them, if they were made (ctx->owners: NULL until a
 *  name is first asked for). */
void ff_owners_free(struct ff_ctx *ctx);

/**
 * The user (group) name of an id, looked up once per id and cached for the whole run.
 * Thread-safe for distinct `worker` indexes (frd_walk_entry.worker; 0 outside the walk).
 * @return the name (valid until ff_owners_free()), or NULL when the id has none (or there
 *         was no memory for the caches: the id is shown as a number, as for a name that
 *         could not be copied).
 */
const char *ff_user_name(struct ff_ctx *ctx, uint32_t uid, unsigned worker);

/** See ff_user_name(). */
const char *ff_group_name(struct ff_ctx *ctx, uint32_t gid, unsigned worker);

#endif // FRD_EXAMPLES_FRDFIND_OWNER_H
