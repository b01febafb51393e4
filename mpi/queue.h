// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * The directories a rank holds to walk or hand over, and their wire form (WORK messages).
 * Allocates through libfrd's allocator (lib/internal.h: frd__malloc, FRD__RESERVE), as every
 * part of frd does.
 */
#ifndef FRD_MPI_QUEUE_H
#define FRD_MPI_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One directory to walk: its path and the identity the rank that listed it saw. */
struct mq_item {
    char *path;        /**< owned by the item (malloc) */
    uint64_t dev;      /**< st_dev the sender saw */
    uint64_t ino;      /**< st_ino the sender saw */
    uint64_t root_dev; /**< st_dev of the walk's root (for FRD_WALK_ONE_FILE_SYSTEM) */
    uint32_t depth;    /**< depth below the walk's root */
    uint32_t check;    /**< 1: compare dev and ino when opening it; 0: no identity known */
};

/** A growable array of items (LIFO at the end). Not thread-safe: lock around it. */
struct mq {
    struct mq_item *items;
    size_t len;
    size_t cap;
};

/** Appends a copy of `path`. @return 0, or FRD_ENOMEM (q unchanged). */
int mq_push(struct mq *q, const char *path, size_t path_len, uint64_t dev, uint64_t ino,
            uint64_t root_dev, uint32_t depth, bool check);

/** Moves every item of `from` to the end of `to`. @return 0, or FRD_ENOMEM (both unchanged). */
int mq_move_all(struct mq *to, struct mq *from);

/** Frees every item and the array. */
void mq_free(struct mq *q);

/** Bytes of an item's fixed part on the wire, before its path. */
#define MQ_WIRE_HEADER (8 + 8 + 8 + 4 + 4 + 4)

/**
 * Packs items [first, first+n) of q into one buffer (frd__malloc), each as
 * u64 dev, u64 ino, u64 root_dev, u32 depth, u32 check, u32 path length, path bytes (host
 * byte order: the ranks of one job run the same binary). The items stay in q.
 * @return the buffer (caller frees with frd__free) with *len set, or NULL out of memory.
 */
char *mq_pack(const struct mq *q, size_t first, size_t n, size_t *len);

/** Drops the last n items of q (freeing them). */
void mq_drop_tail(struct mq *q, size_t n);

/** Drops the first n items of q (freeing them). */
void mq_drop_head(struct mq *q, size_t n);

/**
 * Appends the items packed in buf (a WORK message from another rank), all or none. Nothing in
 * it is trusted: every item must lie whole inside the buffer, and hold a path below the walk's
 * `root` (root_len bytes) with no NUL byte, a depth from 1 to the path's length below the root
 * (each level adds a name), and a check flag of 0 or 1; there is at least one item.
 * @return 0; FRD_EMALFORMED when an item breaks one of these rules (a short, truncated or
 * lying message); FRD_ENOMEM. On failure q is as it was.
 */
int mq_unpack(struct mq *q, const char *buf, size_t len, const char *root, size_t root_len);

#endif // FRD_MPI_QUEUE_H
