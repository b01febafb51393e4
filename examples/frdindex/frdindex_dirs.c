// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The directories of an index (table `dirs`) in memory: by id, by parent and name, paths. */
#include "frdindex_dirs.h"

#include "frdindex_db.h"
#include "grow.h"
#include "toolname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/**
 * New rows written by one statement: a statement's fixed cost shared by this many rows
 * (an update from empty of the 2,078,300-entry tree adds 150,103 directories; callgrind of
 * one from 5 copies of the tree: 5,000 instructions a directory added with a statement
 * each, 3,100 so).
 */
#define INDEX_DIRS_BATCH 64

TOOL_RESERVE_DEFINE(dirs_reserve, struct index_dir, 256)
TOOL_RESERVE_DEFINE(ids_reserve, int64_t, 64)

static int out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n", tool_name);
    return -1;
}

static uint64_t id_hash(int64_t id)
{
    return tool_hash_mix((uint64_t)id);
}

static uint64_t name_hash(int64_t parent, const char *name, size_t len)
{
    return tool_hash_mix(tool_hash_bytes(name, len) ^ (uint64_t)parent);
}

/** What a lookup by id compares. */
struct id_key {
    const struct index_dirs *d;
    int64_t id;
};

static bool slot_has_id(const void *record, const void *key)
{
    const struct id_key *k = key;
    uint32_t slot;
    memcpy(&slot, record, sizeof(slot));
    return k->d->dirs[slot].id == k->id;
}

/** What a lookup by parent and name compares. */
struct name_key {
    const struct index_dirs *d;
    int64_t parent;
    const char *name;
    size_t len;
};

static bool slot_has_name(const void *record, const void *key)
{
    const struct name_key *k = key;
    uint32_t slot;
    memcpy(&slot, record, sizeof(slot));
    const struct index_dir *dir = &k->d->dirs[slot];
    return dir->parent == k->parent && dir->name_len == k->len &&
           memcmp(k->d->names + dir->name_off, k->name, k->len) == 0;
}

/** Adds a row read or written to the maps. @return its slot, or -1 when out of memory. */
static long remember(struct index_dirs *d, int64_t id, int64_t parent, const char *name, size_t len)
{
    // A query's rows read in id order from 1 need no map: index_dirs_get finds them at id - 1.
    bool dense = d->ids_only && id == (int64_t)d->count + 1;
    if (!dense && d->by_id.record_size == 0) {
        tool_hash_init(&d->by_id, sizeof(uint32_t));
        if (!d->ids_only) {
            tool_hash_init(&d->by_name, sizeof(uint32_t));
        }
    }
    if (d->count >= UINT32_MAX || len >= UINT32_MAX ||
        dirs_reserve(&d->dirs, &d->cap, d->count + 1) < 0 ||
        tool_reserve_chars(&d->names, &d->names_cap, d->names_len + len + 1) < 0) {
        return -1;
    }
    uint32_t slot = (uint32_t)d->count;
    bool found;
    void *by_id = NULL;
    if (!dense) {
        by_id = tool_hash_insert(&d->by_id, id_hash(id), NULL, NULL, &found);
        if (by_id == NULL) {
            return -1;
        }
        memcpy(by_id, &slot, sizeof(slot));
    }
    if (!d->ids_only) {
        void *by_name =
            tool_hash_insert(&d->by_name, name_hash(parent, name, len), NULL, NULL, &found);
        if (by_name == NULL) {
            tool_hash_remove(&d->by_id, by_id);
            return -1;
        }
        memcpy(by_name, &slot, sizeof(slot));
    }
    d->dirs[slot] = (struct index_dir){
        .id = id, .parent = parent, .name_off = d->names_len, .name_len = (uint32_t)len};
    if (len > 0) {
        memcpy(d->names + d->names_len, name, len);
    }
    d->names[d->names_len + len] = '\0';
    d->names_len += len + 1;
    d->count++;
    if (id > d->max_id) {
        d->max_id = id;
    }
    return (long)slot;
}

int index_dirs_load(struct index_dirs *d, sqlite3 *db)
{
    sqlite3_stmt *stmt;
    d->db = db;
    if (sqlite3_prepare_v2(db, "SELECT id, parent, name FROM dirs", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, "reading the directories");
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(stmt, 0);
        const void *name = sqlite3_column_blob(stmt, 2);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 2);
        if (id <= 0 || id > INDEX_DIR_MAX || (name == NULL && len > 0)) {
            sqlite3_finalize(stmt);
            fprintf(stderr,
                    "%s: directory row %lld is not one frdindex writes: the index is damaged; "
                    "remove it and run update again\n",
                    tool_name, (long long)id);
            return -1;
        }
        if (remember(d, id, sqlite3_column_int64(stmt, 1), name, len) < 0) {
            sqlite3_finalize(stmt);
            return out_of_memory();
        }
    }
    sqlite3_finalize(stmt);
    d->unwritten = d->count;
    return rc == SQLITE_DONE ? 0 : index_db_fail(db, "reading the directories");
}

int index_dirs_lazy(struct index_dirs *d, sqlite3 *db)
{
    d->db = db;
    if (sqlite3_prepare_v2(db, "SELECT parent, name FROM dirs WHERE id = ?", -1, &d->fetch, NULL) !=
        SQLITE_OK) {
        return index_db_fail(db, "reading the directories");
    }
    return 0;
}

void index_dirs_free(struct index_dirs *d)
{
    free(d->dirs);
    free(d->names);
    tool_hash_free(&d->by_id);
    tool_hash_free(&d->by_name);
    sqlite3_finalize(d->insert);
    sqlite3_finalize(d->insert_batch);
    sqlite3_finalize(d->fetch);
    memset(d, 0, sizeof(*d));
}

/** Reads one row in lazy mode. @return its slot, -2 if there is none, -1 on an error. */
static long fetch(struct index_dirs *d, int64_t id)
{
    if (index_dirs_flush(d) < 0) { // the rows read go after those added
        return -1;
    }
    sqlite3_reset(d->fetch);
    sqlite3_bind_int64(d->fetch, 1, id);
    int rc = sqlite3_step(d->fetch);
    if (rc == SQLITE_DONE) {
        return -2;
    }
    if (rc != SQLITE_ROW) {
        return index_db_fail(d->db, "reading a directory");
    }
    const void *name = sqlite3_column_blob(d->fetch, 1);
    size_t len = (size_t)sqlite3_column_bytes(d->fetch, 1);
    if (name == NULL && len > 0) {
        return out_of_memory();
    }
    long slot = remember(d, id, sqlite3_column_int64(d->fetch, 0), name, len);
    d->unwritten = d->count; // read, not added
    return slot < 0 ? out_of_memory() : slot;
}

struct index_dir *index_dirs_get(struct index_dirs *d, int64_t id, bool *failed)
{
    // Rows read in id order from 1 without a gap sit at slot id - 1: no hash lookup then.
    if (id >= 1 && (uint64_t)id <= d->count && d->dirs[id - 1].id == id) {
        return &d->dirs[id - 1];
    }
    if (d->by_id.record_size != 0) {
        struct id_key key = {d, id};
        const void *record = tool_hash_find(&d->by_id, id_hash(id), slot_has_id, &key);
        if (record != NULL) {
            uint32_t slot;
            memcpy(&slot, record, sizeof(slot));
            return &d->dirs[slot];
        }
    }
    if (d->fetch == NULL) {
        return NULL;
    }
    long slot = fetch(d, id);
    if (slot == -1) {
        *failed = true;
    }
    return slot >= 0 ? &d->dirs[slot] : NULL;
}

int64_t index_dirs_find(const struct index_dirs *d, int64_t parent, const char *name, size_t len)
{
    if (d->by_name.record_size == 0) {
        return 0;
    }
    struct name_key key = {d, parent, name, len};
    const void *record =
        tool_hash_find(&d->by_name, name_hash(parent, name, len), slot_has_name, &key);
    if (record == NULL) {
        return 0;
    }
    uint32_t slot;
    memcpy(&slot, record, sizeof(slot));
    return d->dirs[slot].id;
}

int64_t index_dirs_intern(struct index_dirs *d, int64_t parent, const char *name, size_t len)
{
    int64_t id = index_dirs_find(d, parent, name, len);
    if (id != 0) {
        return id;
    }
    if (d->max_id >= INDEX_DIR_MAX) {
        fprintf(stderr, "%s: more than %lld directories: the index is full\n", tool_name,
                (long long)INDEX_DIR_MAX);
        return -1;
    }
    id = d->max_id + 1;
    if (remember(d, id, parent, name, len) < 0) {
        return out_of_memory();
    }
    if (d->count - d->unwritten >= INDEX_DIRS_BATCH && index_dirs_flush(d) < 0) {
        return -1;
    }
    return id;
}

/** Binds slot `slot`'s row to parameters base + 1..3 of `stmt`. */
static void bind_dir(struct index_dirs *d, sqlite3_stmt *stmt, int base, size_t slot)
{
    const struct index_dir *dir = &d->dirs[slot];
    sqlite3_bind_int64(stmt, base + 1, dir->id);
    sqlite3_bind_int64(stmt, base + 2, dir->parent);
    sqlite3_bind_blob(stmt, base + 3, d->names + dir->name_off, (int)dir->name_len, SQLITE_STATIC);
}

/** Prepares the inserts of one row and of INDEX_DIRS_BATCH rows. @return 0 or -1. */
static int prepare_inserts(struct index_dirs *d)
{
    static const char one[] = "INSERT INTO dirs(id, parent, name) VALUES (?, ?, ?)";
    char sql[sizeof(one) + INDEX_DIRS_BATCH * sizeof(",(?, ?, ?)")];
    size_t at = (size_t)snprintf(sql, sizeof(sql), "%s", one);
    for (size_t r = 1; r < INDEX_DIRS_BATCH; r++) {
        at += (size_t)snprintf(sql + at, sizeof(sql) - at, ",(?, ?, ?)");
    }
    if ((d->insert == NULL && sqlite3_prepare_v2(d->db, one, -1, &d->insert, NULL) != SQLITE_OK) ||
        sqlite3_prepare_v2(d->db, sql, -1, &d->insert_batch, NULL) != SQLITE_OK) {
        return index_db_fail(d->db, "adding a directory");
    }
    return 0;
}

int index_dirs_flush(struct index_dirs *d)
{
    if (d->unwritten >= d->count) {
        return 0;
    }
    if (d->insert_batch == NULL && prepare_inserts(d) < 0) {
        return -1;
    }
    while (d->unwritten < d->count) {
        bool whole = d->count - d->unwritten >= INDEX_DIRS_BATCH;
        sqlite3_stmt *stmt = whole ? d->insert_batch : d->insert;
        size_t rows = whole ? INDEX_DIRS_BATCH : 1;
        for (size_t r = 0; r < rows; r++) {
            bind_dir(d, stmt, 3 * (int)r, d->unwritten + r);
        }
        int rc = sqlite3_step(stmt);
        sqlite3_reset(stmt);
        if (rc != SQLITE_DONE) {
            return index_db_fail(d->db, "adding a directory");
        }
        d->unwritten += rows;
    }
    return 0;
}

int64_t index_dirs_at(struct index_dirs *d, const char *path, size_t len, bool create)
{
    int64_t dir = 0;
    size_t i = 0;
    if (len > 0 && path[0] == '/') {
        dir = create ? index_dirs_intern(d, 0, "/", 1) : index_dirs_find(d, 0, "/", 1);
        if (dir <= 0) {
            return dir;
        }
        i = 1;
    }
    while (i < len) {
        size_t end = i;
        while (end < len && path[end] != '/') {
            end++;
        }
        if (end > i) {
            dir = create ? index_dirs_intern(d, dir, path + i, end - i)
                         : index_dirs_find(d, dir, path + i, end - i);
            if (dir <= 0) {
                return dir;
            }
        }
        i = end + 1;
    }
    return dir;
}

int index_dirs_path(struct index_dirs *d, int64_t dir, const char *name, size_t name_len,
                    char **buf, size_t *len, size_t *cap)
{
    // The chain from `dir` up, then its names from the top down: a loop, not a recursion,
    // so a chain as deep as any file system allows costs no stack.
    int64_t *chain = NULL;
    size_t depth = 0, chain_cap = 0;
    bool failed = false;
    for (int64_t id = dir; id != 0;) {
        const struct index_dir *node = index_dirs_get(d, id, &failed);
        if (node == NULL || depth > (size_t)INDEX_DIR_MAX) {
            free(chain);
            if (!failed) {
                fprintf(stderr,
                        "%s: directory %lld is missing from the index: it is damaged; remove "
                        "it and run update again\n",
                        tool_name, (long long)id);
            }
            return -1;
        }
        if (ids_reserve(&chain, &chain_cap, depth + 1) < 0) {
            free(chain);
            return out_of_memory();
        }
        chain[depth++] = id;
        id = node->parent;
    }
    for (size_t i = depth; i-- > 0;) {
        const struct index_dir *node = index_dirs_get(d, chain[i], &failed);
        size_t n = node->name_len;
        if (tool_reserve_chars(buf, cap, *len + n + 2) < 0) {
            free(chain);
            return out_of_memory();
        }
        if (*len > 0 && (*buf)[*len - 1] != '/') {
            (*buf)[(*len)++] = '/';
        }
        memcpy(*buf + *len, index_dir_name(d, node), n);
        *len += n;
    }
    free(chain);
    if (name != NULL) {
        if (tool_reserve_chars(buf, cap, *len + name_len + 2) < 0) {
            return out_of_memory();
        }
        if (*len > 0 && (*buf)[*len - 1] != '/') {
            (*buf)[(*len)++] = '/';
        }
        memcpy(*buf + *len, name, name_len);
        *len += name_len;
    }
    if (tool_reserve_chars(buf, cap, *len + 1) < 0) {
        return out_of_memory();
    }
    (*buf)[*len] = '\0';
    return 0;
}

bool index_dirs_under(struct index_dirs *d, int64_t dir, int64_t ancestor)
{
    bool failed = false;
    for (size_t steps = 0; dir != 0 && steps <= (size_t)INDEX_DIR_MAX; steps++) {
        if (dir == ancestor) {
            return true;
        }
        const struct index_dir *node = index_dirs_get(d, dir, &failed);
        if (node == NULL) {
            return false;
        }
        dir = node->parent;
    }
    return false;
}
