// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The mount table as frdfind's -fstype and -printf's %F read it: device numbers and the
 * type of their first mount, from /proc/self/mountinfo, read once per run by the first
 * thread that asks (the others wait for it, then read it without a lock).
 */
#define _GNU_SOURCE // makedev, getline

#include "frdfind_mounts.h"

#include "frdfind_ctx.h"
#include "grow.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

/** The mount table as -fstype and %F read it: device numbers and their type names. */
struct mount_type {
    uint64_t dev;
    char *type;
};
TOOL_RESERVE_DEFINE(mount_types_reserve, struct mount_type, 32)

/** The run's mount table (ctx->mounts), read on first use by any worker. */
struct ff_mounts {
    atomic_bool ready;    /**< the table is read (release: list and n are final) */
    pthread_mutex_t lock; /**< taken by the threads that find it not ready */
    size_t n, cap;
    struct mount_type *list;
};

int ff_mounts_new(struct ff_ctx *ctx)
{
    struct ff_mounts *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return -1;
    }
    atomic_init(&m->ready, false);
    pthread_mutex_init(&m->lock, NULL);
    ctx->mounts = m;
    return 0;
}

void ff_mounts_free(struct ff_ctx *ctx)
{
    struct ff_mounts *m = ctx->mounts;
    if (m != NULL) {
        for (size_t i = 0; i < m->n; i++) {
            free(m->list[i].type);
        }
        free(m->list);
        pthread_mutex_destroy(&m->lock);
        free(m);
        ctx->mounts = NULL;
    }
}

/**
 * Reads /proc/self/mountinfo ("id parent MAJ:MIN root mountpoint opts ... - TYPE source
 * superopts"), as find's gnulib mountlist does on Linux. A missing table leaves it empty:
 * every file is then of type "unknown", as find says.
 */
static void read_mounts(struct ff_mounts *mounts)
{
    // "ID PARENT MAJOR:MINOR ...": each field digits then its separator (strtoul alone would
    // take a sign or spaces, sscanf would not report an overflow).
    const char seps[] = {' ', ' ', ':', ' '};
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (f == NULL) {
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        unsigned long field[4] = {0};
        const char *p = line;
        bool ok = true;
        for (int i = 0; ok && i < 4; i++) {
            char *end = NULL;
            errno = 0;
            field[i] = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
            ok = end != NULL && errno == 0 && *end == seps[i] && field[i] <= UINT_MAX;
            p = ok ? end + 1 : p;
        }
        unsigned maj = (unsigned)field[2];
        unsigned min = (unsigned)field[3];
        const char *dash = strstr(line, " - ");
        char type[256];
        if (!ok || dash == NULL || sscanf(dash + 3, "%255s", type) != 1) {
            continue;
        }
        char *copy = NULL;
        if (mount_types_reserve(&mounts->list, &mounts->cap, mounts->n + 1) < 0 ||
            (copy = strdup(type)) == NULL) {
            break;
        }
        mounts->list[mounts->n++] = (struct mount_type){(uint64_t)makedev(maj, min), copy};
    }
    free(line);
    fclose(f);
}

const char *ff_fstype_name(struct ff_ctx *ctx, uint64_t dev)
{
    struct ff_mounts *m = ctx->mounts;
    if (!atomic_load_explicit(&m->ready, memory_order_acquire)) {
        pthread_mutex_lock(&m->lock);
        if (!atomic_load_explicit(&m->ready, memory_order_relaxed)) {
            read_mounts(m);
            atomic_store_explicit(&m->ready, true, memory_order_release);
        }
        pthread_mutex_unlock(&m->lock);
    }
    for (size_t i = 0; i < m->n; i++) {
        if (m->list[i].dev == dev) {
            return m->list[i].type;
        }
    }
    return "unknown";
}
