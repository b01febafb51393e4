// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** An entry's metadata packed into the one BLOB column `meta` of table `entries` (schema 5). */
#ifndef FRD_EXAMPLES_FRDINDEX_ROWPACK_H
#define FRD_EXAMPLES_FRDINDEX_ROWPACK_H

#include "frdindex.h"

#include <stddef.h>

/*
 * Varints (frdindex_varint.h), in this order: the head, type << 3 | common << 2 |
 * persistent << 1 | (btime != 0); fields, unless common; size; mtime (zigzag); ctime as its
 * distance from mtime (zigzag); file id; device; mode, its 4 type bits moved below its 12
 * permission bits; links; uid; gid; the birth time as its distance from ctime (zigzag), when
 * kept; then, unless common, rdev, attributes and attributes known. Common: fields and
 * attributes known are those of most rows (INDEX_ROW_COMMON_*), with no attribute set and
 * rdev 0. Times as distances: a file's ctime and birth time are most often its mtime or near
 * it, a byte or a few instead of eight. Every value of a row comes back as it was.
 */

/** The fields of most rows: every one of enum frd_field, as Linux's statx gives them. */
#define INDEX_ROW_COMMON_FIELDS 0x7fffu

/** The attributes known of most rows (ext4, tmpfs: FRD_ATTR_COMPRESSED to FRD_ATTR_DAX). */
#define INDEX_ROW_COMMON_ATTRS_KNOWN 0x1ffu

/** The longest packed row: 15 varints of at most 10 bytes. */
#define INDEX_ROW_PACKED_MAX 150

/** Packs row's metadata (not its id) into out (INDEX_ROW_PACKED_MAX bytes). @return its length. */
size_t index_row_pack(const struct index_row *row, unsigned char *out);

/**
 * Unpacks what index_row_pack() wrote into row's metadata (its id is left as it is).
 * @return 0, or -1 when the bytes are not such a row (a damaged index).
 */
int index_row_unpack(const void *data, size_t len, struct index_row *row);

#endif // FRD_EXAMPLES_FRDINDEX_ROWPACK_H
