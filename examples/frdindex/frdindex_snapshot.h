// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The snapshot: a compact digest of every row, so an update need not read the rows. */
#ifndef FRD_EXAMPLES_FRDINDEX_SNAPSHOT_H
#define FRD_EXAMPLES_FRDINDEX_SNAPSHOT_H

#include "frdindex.h"
#include "frdindex_db.h"
#include "hash.h"

/*
 * One entry per row of `entries`: the hash of its key (directory id and name, see
 * frdindex_dirs.h), a digest of its metadata (type, size, mtime, ctime, file id, device,
 * mode, persistence) and its rowid, 24 bytes. The update that writes the rows writes the
 * snapshot too (one BLOB in table `snapshot`, stamped with the update's generation in
 * meta). The next update then hashes each walked entry's key and compares digests: a file
 * that did not change costs one lookup in memory and no SQLite call at all; only rows whose
 * digest differs, and rows not met, are read back. A digest or key hash collision (odds
 * about 2^-64 per changed entry) would hide one change; a snapshot with two equal key
 * hashes is not written, and the next update reads every row instead.
 */

/** One row's digest. */
struct index_snap_entry {
    uint64_t key_hash;
    uint64_t digest;
    int64_t id;
};

/** A snapshot in memory, with a hash index over key_hash. Zero-initialise it. */
struct index_snapshot {
    struct index_snap_entry *entries;
    size_t count, cap;
    uint8_t *seen;          /**< per entry: met by this walk (filled by the caller) */
    struct tool_hash index; /**< of uint32_t entry indexes, by key_hash */
};

/** @return the digest of a row's metadata (id excluded). */
uint64_t index_row_digest(const struct index_row *row);

/**
 * Reads the stored snapshot, if it is the one the last update (`generation`) wrote and
 * holds `expected` entries, and indexes it.
 * @return 1 when loaded, 0 when there is none usable (read every row instead), -1 on a
 * database error (message printed).
 */
int index_snapshot_load(sqlite3 *db, int64_t generation, int64_t expected,
                        struct index_snapshot *snap);

/** Appends an entry (no index update). @return 0, or -1 when out of memory. */
int index_snapshot_push(struct index_snapshot *snap, uint64_t key_hash, uint64_t digest,
                        int64_t id);

/** Finds an entry by key hash. @return its index, or -1. */
long index_snapshot_find(const struct index_snapshot *snap, uint64_t key_hash);

/**
 * Writes `snap` as the snapshot of generation `generation`; if two of its keys share a
 * hash, removes the stored snapshot instead. @return 0, or -1 (message printed).
 */
int index_snapshot_save(sqlite3 *db, int64_t generation, struct index_snapshot *snap);

/** Frees what the snapshot holds. */
void index_snapshot_free(struct index_snapshot *snap);

#endif // FRD_EXAMPLES_FRDINDEX_SNAPSHOT_H
