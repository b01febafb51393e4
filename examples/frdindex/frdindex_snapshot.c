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

/**
 * Whether two entries share a key hash: the hashes sorted (a radix sort, 16 bits a pass) and
 * neighbours compared, which costs a tenth of building the lookup table only to see that.
 * @return 1 if so, 0 if not, -1 when out of memory.
 */
static int has_repeats(const struct index_snapshot *snap)
{
    size_t n = snap->count;
    uint64_t *a = malloc((n + 1) * sizeof(*a)), *b = malloc((n + 1) * sizeof(*b));
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return -1;
    }
    for (size_t e = 0; e < n; e++) {
        a[e] = snap->entries[e].key_hash;
    }
    for (int shift = 0; shift < 64; shift += 16) {
        size_t *count = calloc((1u << 16) + 1, sizeof(*count));
        if (count == NULL) {
            free(a);
            free(b);
            return -1;
        }
        for (size_t e = 0; e < n; e++) {
            count[((a[e] >> shift) & 0xffff) + 1]++;
        }
        for (size_t k = 1; k <= 1u << 16; k++) {
            count[k] += count[k - 1];
        }
        for (size_t e = 0; e < n; e++) {
            b[count[(a[e] >> shift) & 0xffff]++] = a[e];
        }
        free(count);
        uint64_t *t = a;
        a = b;
        b = t;
    }
    int repeats = 0;
    for (size_t e = 1; e < n && repeats == 0; e++) {
        repeats = a[e] == a[e - 1];
    }
    free(a);
    free(b);
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
    size_t len = SNAP_HEADER + snap->count * sizeof(struct index_snap_entry);
    unsigned char *data = malloc(len);
    if (data == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    uint64_t mark = SNAP_ORDER_MARK, count = snap->count;
    memcpy(data, SNAP_MAGIC, 8);
    memcpy(data + 8, &mark, 8);
    memcpy(data + 16, &count, 8);
    if (snap->count > 0) { // none: entries may be NULL (a rank of frdmpi index that walked none)
        memcpy(data + SNAP_HEADER, snap->entries, snap->count * sizeof(struct index_snap_entry));
    }
    sqlite3_stmt *stmt;
    int rc = sqlite3_prepare_v2(db, "INSERT INTO snapshot(data) VALUES (?)", -1, &stmt, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_blob64(stmt, 1, data, len, SQLITE_STATIC);
        rc = sqlite3_step(stmt);
        sqlite3_finalize(stmt);
    }
    free(data);
    if (rc != SQLITE_DONE) {
        return index_db_fail(db, "writing the snapshot");
    }
    return index_db_meta_set(db, "snapshot_gen", generation);
}
