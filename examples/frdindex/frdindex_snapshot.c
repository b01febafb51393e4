// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The snapshot: a compact digest of every row, so an update need not read the rows. */
#include "frdindex_snapshot.h"

#include "grow.h"
#include "toolname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Stored layout (native byte order, checked by the header's order mark):
 *
 *   "frdsnap2"  8 bytes ("frdsnap1", keyed by path, is read as no snapshot)
 *   order mark  uint64 0x0102030405060708
 *   count       uint64
 *   entries     count * {uint64 key_hash, uint64 digest, int64 id}
 */
#define SNAP_MAGIC      "frdsnap2"
#define SNAP_ORDER_MARK 0x0102030405060708u
#define SNAP_HEADER     24

uint64_t index_row_digest(const struct index_row *row)
{
    uint64_t h = tool_hash_mix(row->size);
    h = tool_hash_mix(h ^ (uint64_t)row->mtime_ns);
    h = tool_hash_mix(h ^ (uint64_t)row->ctime_ns);
    h = tool_hash_mix(h ^ row->file_id);
    h = tool_hash_mix(h ^ row->dev);
    h = tool_hash_mix(h ^ ((uint64_t)row->mode << 16 | (uint64_t)row->type << 8 | row->persistent));
    h = tool_hash_mix(h ^ ((uint64_t)row->uid << 32 | row->gid));
    h = tool_hash_mix(h ^ ((uint64_t)row->nlink << 32 | row->fields));
    h = tool_hash_mix(h ^ (uint64_t)row->btime_ns);
    h = tool_hash_mix(h ^ row->rdev);
    return tool_hash_mix(h ^ ((uint64_t)row->attributes << 32 | row->attributes_known));
}

void index_row_entry(const struct index_row *row, struct frd_entry *e)
{
    *e = (struct frd_entry){
        .name = "",
        .size = row->size,
        .mtime_ns = row->mtime_ns,
        .ctime_ns = row->ctime_ns,
        .file_id = row->file_id,
        .dev = row->dev,
        .nlink = row->nlink,
        .mode = row->mode,
        .type = (enum frd_type)row->type,
        .fields = row->fields,
        .uid = row->uid,
        .gid = row->gid,
        .btime_ns = row->btime_ns,
        .rdev = row->rdev,
        .attributes = row->attributes,
        .attributes_known = row->attributes_known,
    };
}

void index_snapshot_free(struct index_snapshot *snap)
{
    free(snap->entries);
    free(snap->seen);
    tool_hash_free(&snap->index);
    memset(snap, 0, sizeof(*snap));
}

TOOL_RESERVE_DEFINE(entries_reserve, struct index_snap_entry, 4096)

int index_snapshot_push(struct index_snapshot *snap, uint64_t key_hash, uint64_t digest, int64_t id)
{
    if (entries_reserve(&snap->entries, &snap->cap, snap->count + 1) < 0) {
        return -1;
    }
    snap->entries[snap->count++] = (struct index_snap_entry){key_hash, digest, id};
    return 0;
}

/** What a lookup by key hash compares. */
struct snap_key {
    const struct index_snapshot *snap;
    uint64_t key_hash;
};

static bool entry_has_hash(const void *record, const void *key)
{
    const struct snap_key *k = key;
    uint32_t e;
    memcpy(&e, record, sizeof(e));
    return k->snap->entries[e].key_hash == k->key_hash;
}

/**
 * Builds the hash index. @return 0, 1 if two entries share a key hash (the snapshot is
 * then unusable), or -1 when out of memory.
 */
static int snapshot_index(struct index_snapshot *snap)
{
    tool_hash_free(&snap->index);
    tool_hash_init(&snap->index, sizeof(uint32_t));
    if (snap->count >= UINT32_MAX || tool_hash_reserve(&snap->index, snap->count) < 0) {
        return -1;
    }
    for (size_t e = 0; e < snap->count; e++) {
        struct snap_key key = {snap, snap->entries[e].key_hash};
        bool found;
        void *slot = tool_hash_insert(&snap->index, key.key_hash, entry_has_hash, &key, &found);
        if (slot == NULL) {
            return -1;
        }
        if (found) {
            return 1;
        }
        uint32_t index = (uint32_t)e;
        memcpy(slot, &index, sizeof(index));
    }
    return 0;
}

long index_snapshot_find(const struct index_snapshot *snap, uint64_t key_hash)
{
    struct snap_key key = {snap, key_hash};
    const void *record = tool_hash_find(&snap->index, key_hash, entry_has_hash, &key);
    if (record == NULL) {
        return -1;
    }
    uint32_t e;
    memcpy(&e, record, sizeof(e));
    return (long)e;
}

int index_snapshot_load(sqlite3 *db, int64_t generation, int64_t expected,
                        struct index_snapshot *snap)
{
    int64_t snap_gen;
    if (index_db_meta_get(db, "snapshot_gen", &snap_gen) < 0) {
        return -1;
    }
    if (snap_gen == 0 || snap_gen != generation || expected <= 0) {
        return 0;
    }
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "SELECT data FROM snapshot", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, "reading the snapshot");
    }
    int result = 0;
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        const unsigned char *data = sqlite3_column_blob(stmt, 0);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 0);
        uint64_t mark, count;
        if (data != NULL && len >= SNAP_HEADER && memcmp(data, SNAP_MAGIC, 8) == 0) {
            memcpy(&mark, data + 8, 8);
            memcpy(&count, data + 16, 8);
            if (mark == SNAP_ORDER_MARK && count == (uint64_t)expected &&
                len == SNAP_HEADER + count * sizeof(struct index_snap_entry)) {
                snap->entries = malloc(count * sizeof(*snap->entries));
                snap->seen = calloc(count, 1);
                if (snap->entries != NULL && snap->seen != NULL) {
                    memcpy(snap->entries, data + SNAP_HEADER,
                           count * sizeof(struct index_snap_entry));
                    snap->count = snap->cap = count;
                    result = snapshot_index(snap) == 0 ? 1 : 0;
                }
            }
        }
    } else if (rc != SQLITE_DONE) {
        result = index_db_fail(db, "reading the snapshot");
    }
    sqlite3_finalize(stmt);
    if (result != 1) {
        index_snapshot_free(snap);
    }
    return result;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/** Whether `n` hashes hold one twice: a few compared pairwise, more sorted first. */
static bool bucket_repeats(uint64_t *h, size_t n)
{
    if (n > 16) {
        qsort(h, n, sizeof(*h), cmp_u64);
        for (size_t i = 1; i < n; i++) {
            if (h[i] == h[i - 1]) {
                return true;
            }
        }
        return false;
    }
    for (size_t i = 1; i < n; i++) {
        for (size_t j = 0; j < i; j++) {
            if (h[i] == h[j]) {
                return true;
            }
        }
    }
    return false;
}

/**
 * Whether two entries share a key hash: the hashes spread into buckets by their top bits
 * (one counting pass, one scattering pass; about eight a bucket), then each bucket checked
 * on its own. A whole radix sort (four passes of 16 bits) cost three times as much: 65-72
 * ms of the tail of an update from empty of the 2,078,300-entry tree.
 * @return 1 if so, 0 if not, -1 when out of memory.
 */
static int has_repeats(const struct index_snapshot *snap)
{
    size_t n = snap->count;
    unsigned bits = 1;
    while (bits < 28 && ((size_t)1 << (bits + 3)) < n) {
        bits++;
    }
    size_t nbuckets = (size_t)1 << bits;
    uint64_t *h = calloc(n + 1, sizeof(*h)); // zeroed: the analyzer cannot see it filled
    size_t *start = calloc(nbuckets + 1, sizeof(*start));
    if (h == NULL || start == NULL) {
        free(h);
        free(start);
        return -1;
    }
    unsigned shift = 64 - bits;
    for (size_t e = 0; e < n; e++) {
        start[(snap->entries[e].key_hash >> shift) + 1]++;
    }
    for (size_t k = 1; k <= nbuckets; k++) {
        start[k] += start[k - 1];
    }
    // start[k] becomes the end of bucket k as its hashes go in.
    for (size_t e = 0; e < n; e++) {
        uint64_t v = snap->entries[e].key_hash;
        h[start[v >> shift]++] = v;
    }
    int repeats = 0;
    for (size_t k = 0, from = 0; k < nbuckets && repeats == 0; from = start[k++]) {
        repeats = bucket_repeats(h + from, start[k] - from);
    }
    free(h);
    free(start);
    return repeats;
}

int index_snapshot_save(sqlite3 *db, int64_t generation, struct index_snapshot *snap)
{
    if (sqlite3_exec(db, "DELETE FROM snapshot", NULL, NULL, NULL) != SQLITE_OK) {
        return index_db_fail(db, "writing the snapshot");
    }
    int repeats = has_repeats(snap);
    if (repeats < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    if (repeats == 1) {
        // Two keys with one hash: no snapshot; the next update reads every row.
        return index_db_meta_set(db, "snapshot_gen", 0);
    }
    // The blob made of zeros, then written in place: the entries go into its pages once,
    // not through a copy of them all and SQLite's record of it (on the 2,078,300-entry tree
    // two 50 MB buffers less, 35-45 ms of the update's tail).
    uint64_t len = SNAP_HEADER + (uint64_t)snap->count * sizeof(struct index_snap_entry);
    uint64_t mark = SNAP_ORDER_MARK, count = snap->count;
    unsigned char header[SNAP_HEADER];
    memcpy(header, SNAP_MAGIC, 8);
    memcpy(header + 8, &mark, 8);
    memcpy(header + 16, &count, 8);
    sqlite3_stmt *stmt;
    sqlite3_blob *blob = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO snapshot(data) VALUES (?)", -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        // Longer than SQLite's limit on a value (SQLITE_TOOBIG, some 40 million rows): fails.
        rc = sqlite3_bind_zeroblob64(stmt, 1, len);
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(stmt);
        }
        sqlite3_finalize(stmt);
    }
    if (rc == SQLITE_DONE) {
        rc = sqlite3_blob_open(db, "main", "snapshot", "data", sqlite3_last_insert_rowid(db), 1,
                               &blob);
    }
    if (rc == SQLITE_OK) {
        rc = sqlite3_blob_write(blob, header, SNAP_HEADER, 0);
    }
    if (rc == SQLITE_OK && snap->count > 0) { // none: entries may be NULL (a rank of frdmpi
                                              // index that walked none)
        rc = sqlite3_blob_write(blob, snap->entries, (int)(len - SNAP_HEADER), SNAP_HEADER);
    }
    if (blob != NULL && sqlite3_blob_close(blob) != SQLITE_OK && rc == SQLITE_OK) {
        rc = sqlite3_errcode(db);
    }
    if (rc != SQLITE_OK) {
        return index_db_fail(db, "writing the snapshot");
    }
    return index_db_meta_set(db, "snapshot_gen", generation);
}
