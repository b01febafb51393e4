// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frdmpi du's records on the wire: what each rank sends rank 0 at the end (its lines and its
 * files with several hard links). A record is u64 bytes, u64 dev, u64 ino, u32 path length,
 * then the path (host byte order: the ranks of one job run the same binary).
 */
#ifndef FRD_EXAMPLES_FRDMPI_DU_WIRE_H
#define FRD_EXAMPLES_FRDMPI_DU_WIRE_H

#include <stddef.h>
#include <stdint.h>

/** Bytes of a record before its path. */
#define DU_WIRE_HEADER (8 + 8 + 8 + 4)

/** One record: a line (dev and ino both UINT64_MAX; the root's total has an empty path) or
 *  a file with several hard links (its dev and ino). */
struct du_wire_rec {
    uint64_t bytes;
    uint64_t dev;
    uint64_t ino;
    const char *path; /**< not NUL-terminated; from du_wire_next(), a pointer into the buffer */
    size_t len;
};

/** @return whether the record is a line (a directory's or the root's total). */
static inline int du_wire_is_line(const struct du_wire_rec *rec)
{
    return rec->dev == UINT64_MAX && rec->ino == UINT64_MAX;
}

/**
 * Appends `rec` to the buffer *buf of *len bytes and capacity *cap (grown through
 * examples/common/grow.h). @return 0, or -1 when out of memory or the path is longer than
 * a record holds (*buf, *len and *cap then as they were).
 */
int du_wire_put(char **buf, size_t *len, size_t *cap, const struct du_wire_rec *rec);

/**
 * Reads the record at *off of `buf` (`len` bytes another rank sent), trusting nothing: the
 * record must lie whole in the buffer, its path hold no NUL byte, and be the walk's root
 * (`root`, root_len bytes) or a path below it, or, for a line only, empty (the root's total);
 * a line's path is never the root itself.
 * @return 1 with *rec filled (its path points into buf) and *off past the record, 0 at the
 * end of the buffer, or -1 when the bytes at *off are not such a record (*off unchanged).
 */
int du_wire_next(const char *buf, size_t len, size_t *off, const char *root, size_t root_len,
                 struct du_wire_rec *rec);

#endif // FRD_EXAMPLES_FRDMPI_DU_WIRE_H
