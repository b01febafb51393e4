// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The run's mount table (frdfind_mounts.c), for -fstype and %F. */
#ifndef FRD_EXAMPLES_FRDFIND_MOUNTS_H
#define FRD_EXAMPLES_FRDFIND_MOUNTS_H

#include <stdint.h>

struct ff_ctx;

/** Makes the run's mount table (read on first use). @return 0, or -1 (no memory). */
int ff_mounts_new(struct ff_ctx *ctx);

/** Frees the mount table. */
void ff_mounts_free(struct ff_ctx *ctx);

/**
 * The file system type find names for a device (-fstype, %F): that of its first entry in
 * the mount table (read once, thread-safe), or "unknown". @return a string valid until
 * ff_mounts_free().
 */
const char *ff_fstype_name(struct ff_ctx *ctx, uint64_t dev);

#endif // FRD_EXAMPLES_FRDFIND_MOUNTS_H
