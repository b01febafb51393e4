// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Older databases brought to this schema by the first update that opens them. */
#include "frdindex_migrate.h"

#include "frdindex_db.h"
#include "frdindex_dirs.h"
#include "frdindex_history.h"
#include "frdindex_rowpack.h"
#include "frdindex_trigram.h"
#include "toolname.h"

#include <frd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/**
 * Schema 2 to 3: the last update's changes (its rows of entries and table removed) become
 * the history's first generation, so `changes` still shows them.
 */
static int migrate_v2(sqlite3 *db, const char *path)
{
    static const char sql[] =
        "BEGIN IMMEDIATE;"
        "CREATE TABLE history(gen INTEGER NOT NULL, path BLOB NOT NULL, "
        "change INTEGER NOT NULL, type INTEGER NOT NULL, other_path BLOB);"
        "CREATE TABLE generations(gen INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL);"
        "CREATE TABLE excludes(kind INTEGER NOT NULL, value BLOB NOT NULL);"
        "INSERT INTO history(gen, path, change, type, other_path) "
        "  SELECT gen, path, change, type, old_path FROM entries "
        "  WHERE gen = (SELECT value FROM meta WHERE key = 'generation') AND change != 0;"
        "INSERT INTO history(gen, path, change, type) "
        "  SELECT (SELECT value FROM meta WHERE key = 'generation'), path, 7, type FROM removed;"
        "INSERT INTO generations(gen, time_ns) SELECT value, "
        "  coalesce((SELECT value FROM meta WHERE key = 'updated_ns'), 0) "
        "  FROM meta WHERE key = 'generation' AND value > 0;"
        "DROP TABLE removed;"
        "PRAGMA user_version = 3;"
        "COMMIT";
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
        index_db_fail(db, path);
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

/** Schema 4's metadata columns, in the order read_v4_row() reads them. */
#define V4_COLUMNS                                                                             \
    "type, size, mtime, ctime, file_id, dev, mode, persistent, nlink, uid, gid, btime, rdev, " \
    "attrs, attrs_known, fields"

/** Reads the V4_COLUMNS of a result row from column `col` on, as schema 4's update did, and
 *  packs them into out (INDEX_ROW_PACKED_MAX bytes). @return the packed length. */
static size_t pack_v4_row(sqlite3_stmt *stmt, int col, unsigned char *out)
{
    struct index_row row = {
        .type = (uint8_t)sqlite3_column_int(stmt, col),
        .size = (uint64_t)sqlite3_column_int64(stmt, col + 1),
        .mtime_ns = sqlite3_column_int64(stmt, col + 2),
        .ctime_ns = sqlite3_column_int64(stmt, col + 3),
        .file_id = (uint64_t)sqlite3_column_int64(stmt, col + 4),
        .dev = (uint64_t)sqlite3_column_int64(stmt, col + 5),
        .mode = (uint32_t)sqlite3_column_int64(stmt, col + 6),
        .persistent = sqlite3_column_int(stmt, col + 7) != 0,
        .nlink = (uint32_t)sqlite3_column_int64(stmt, col + 8),
        .uid = (uint32_t)sqlite3_column_int64(stmt, col + 9),
        .gid = (uint32_t)sqlite3_column_int64(stmt, col + 10),
        .btime_ns = sqlite3_column_int64(stmt, col + 11),
        .rdev = (uint64_t)sqlite3_column_int64(stmt, col + 12),
        .attributes = (uint32_t)sqlite3_column_int64(stmt, col + 13),
        .attributes_known = (uint32_t)sqlite3_column_int64(stmt, col + 14),
        .fields = (uint32_t)sqlite3_column_int64(stmt, col + 15),
    };
    return index_row_pack(&row, out);
}

/** Schema 3 to 4 in progress. */
struct migration {
    sqlite3 *db;
    struct index_dirs dirs;
    struct index_postings postings;
    uint32_t root_next_seq;
};

/** Splits a stored path into its directory (looked up, or added) and its name. @return 0/-1. */
static int place(struct migration *m, const char *path, size_t len, int64_t *dir, const char **name,
                 size_t *name_len)
{
    size_t n = len;
    while (n > 1 && path[n - 1] == '/') {
        n--;
    }
    size_t start = n;
    while (start > 0 && path[start - 1] != '/') {
        start--;
    }
    if (start == n) {
        *dir = 0;
        *name = "/";
        *name_len = 1;
        return 0;
    }
    *name = path + start;
    *name_len = n - start;
    *dir = start > 0 ? index_dirs_at(&m->dirs, path, start, true) : 0;
    return *dir < 0 ? -1 : 0;
}

/** Copies every row of old_entries into entries, keyed by directory and name. */
static int copy_entries(struct migration *m)
{
    static const char select[] = "SELECT path, " V4_COLUMNS " FROM old_entries ORDER BY path";
    static const char insert[] = "INSERT INTO entries(id, name, node, meta) VALUES (?, ?, ?, ?)";
    sqlite3_stmt *get = NULL, *put = NULL;
    int result = -1;
    if (sqlite3_prepare_v2(m->db, select, -1, &get, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(m->db, insert, -1, &put, NULL) != SQLITE_OK) {
        index_db_fail(m->db, "migrating the index");
        goto done;
    }
    int rc;
    while ((rc = sqlite3_step(get)) == SQLITE_ROW) {
        const char *path = sqlite3_column_blob(get, 0);
        size_t len = (size_t)sqlite3_column_bytes(get, 0);
        int64_t dir;
        const char *name;
        size_t name_len;
        if (path == NULL || len == 0 || place(m, path, len, &dir, &name, &name_len) < 0) {
            if (path == NULL || len == 0) {
                fprintf(stderr,
                        "%s: the index holds an empty path: it is damaged; remove it "
                        "and run update again\n",
                        tool_name);
            }
            goto done;
        }
        int type = sqlite3_column_int(get, 1);
        int64_t node = type == FRD_TYPE_DIR ? index_dirs_intern(&m->dirs, dir, name, name_len) : 0;
        if (node < 0) {
            goto done;
        }
        bool failed = false;
        struct index_dir *d = dir != 0 ? index_dirs_get(&m->dirs, dir, &failed) : NULL;
        uint32_t *next = d != NULL ? &d->next_seq : &m->root_next_seq;
        if (dir != 0 && d == NULL) {
            goto done;
        }
        if (*next == 0) {
            *next = 1;
        }
        int64_t id = index_entry_id(dir, (*next)++);
        sqlite3_bind_int64(put, 1, id);
        sqlite3_bind_blob(put, 2, name, (int)name_len, SQLITE_TRANSIENT);
        if (node != 0) {
            sqlite3_bind_int64(put, 3, node);
        } else {
            sqlite3_bind_null(put, 3);
        }
        unsigned char meta[INDEX_ROW_PACKED_MAX];
        size_t meta_len = pack_v4_row(get, 1, meta);
        sqlite3_bind_blob(put, 4, meta, (int)meta_len, SQLITE_TRANSIENT);
        if (sqlite3_step(put) != SQLITE_DONE) {
            sqlite3_reset(put);
            index_db_fail(m->db, "migrating the index");
            goto done;
        }
        sqlite3_reset(put);
        if (index_postings_add(&m->postings, id, name, name_len) < 0) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            goto done;
        }
    }
    if (rc != SQLITE_DONE) {
        index_db_fail(m->db, "migrating the index");
        goto done;
    }
    result = 0;
done:
    sqlite3_finalize(get);
    sqlite3_finalize(put);
    return result;
}

/** Packs old_history's rows into events, generation by generation. */
static int copy_history(struct migration *m)
{
    sqlite3_stmt *get;
    if (sqlite3_prepare_v2(m->db,
                           "SELECT gen, path, change, type, other_path FROM old_history "
                           "ORDER BY gen, rowid",
                           -1, &get, NULL) != SQLITE_OK) {
        return index_db_fail(m->db, "migrating the history");
    }
    struct index_history_writer w = {.db = m->db, .gen = -1};
    int rc, result = 0;
    while (result == 0 && (rc = sqlite3_step(get)) == SQLITE_ROW) {
        int64_t gen = sqlite3_column_int64(get, 0);
        if (gen != w.gen) {
            result = index_history_finish(&w);
            w = (struct index_history_writer){.db = m->db, .gen = gen};
        }
        const char *path = sqlite3_column_blob(get, 1);
        size_t len = (size_t)sqlite3_column_bytes(get, 1);
        const char *other = sqlite3_column_blob(get, 4);
        size_t other_len = (size_t)sqlite3_column_bytes(get, 4);
        struct index_event e = {
            .change = (uint8_t)sqlite3_column_int(get, 2),
            .type = (uint8_t)sqlite3_column_int(get, 3),
            .has_other = other != NULL && other_len > 0,
        };
        if (result == 0 &&
            (path == NULL || len == 0 || place(m, path, len, &e.dir, &e.name, &e.name_len) < 0 ||
             (e.has_other &&
              place(m, other, other_len, &e.other_dir, &e.other, &e.other_len) < 0))) {
            result = -1;
        }
        if (result == 0) {
            result = index_history_add(&w, &e);
        }
    }
    sqlite3_finalize(get);
    if (result == 0 && rc != SQLITE_DONE) {
        result = index_db_fail(m->db, "migrating the history");
    }
    if (result == 0) {
        result = index_history_finish(&w);
    }
    index_history_discard(&w);
    return result;
}

/** Schema 3 to 5, in one transaction (the rows written as schema 5 has them). */
static int migrate_v3(sqlite3 *db, const char *path)
{
    struct migration m = {.db = db, .postings = {.fresh = true}};
    m.dirs.db = db;
    if (sqlite3_exec(db,
                     "BEGIN IMMEDIATE; ALTER TABLE entries RENAME TO old_entries; "
                     "ALTER TABLE history RENAME TO old_history",
                     NULL, NULL, NULL) != SQLITE_OK ||
        index_db_create(db, "dirs") < 0 || index_db_create(db, "entries") < 0 ||
        index_db_create(db, "history") < 0 || index_db_create(db, "trigrams") < 0) {
        index_db_fail(db, path);
        goto fail;
    }
    if (copy_entries(&m) < 0 || copy_history(&m) < 0 || index_dirs_flush(&m.dirs) < 0 ||
        index_postings_write(&m.postings, db) < 0) {
        goto fail;
    }
    index_dirs_free(&m.dirs); // its statements: the table is dropped below
    if (sqlite3_exec(db,
                     "DROP TABLE old_entries; DROP TABLE old_history; DELETE FROM snapshot; "
                     "DELETE FROM meta WHERE key IN ('snapshot_gen', 'path_bytes'); "
                     "PRAGMA user_version = 5; COMMIT",
                     NULL, NULL, NULL) != SQLITE_OK) {
        index_db_fail(db, path);
        goto fail;
    }
    index_postings_free(&m.postings);
    return 0;
fail:
    index_dirs_free(&m.dirs);
    index_postings_free(&m.postings);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/**
 * Schema 4 to 5, in one transaction: each row's metadata columns packed into `meta`, the
 * rows copied in rowid order with their ids, names and nodes (so dirs, the trigram lists,
 * the history and the snapshot, which name rows by id, stay as they are).
 */
static int migrate_v4(sqlite3 *db, const char *path)
{
    sqlite3_stmt *get = NULL, *put = NULL;
    if (sqlite3_exec(db, "BEGIN IMMEDIATE; ALTER TABLE entries RENAME TO old_entries", NULL, NULL,
                     NULL) != SQLITE_OK ||
        index_db_create(db, "entries") < 0 ||
        sqlite3_prepare_v2(db, "SELECT id, name, node, " V4_COLUMNS " FROM old_entries", -1, &get,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO entries(id, name, node, meta) VALUES (?, ?, ?, ?)", -1,
                           &put, NULL) != SQLITE_OK) {
        goto fail;
    }
    int rc;
    while ((rc = sqlite3_step(get)) == SQLITE_ROW) {
        unsigned char meta[INDEX_ROW_PACKED_MAX];
        size_t meta_len = pack_v4_row(get, 3, meta);
        for (int c = 0; c < 3; c++) {
            sqlite3_bind_value(put, 1 + c, sqlite3_column_value(get, c));
        }
        sqlite3_bind_blob(put, 4, meta, (int)meta_len, SQLITE_STATIC);
        rc = sqlite3_step(put);
        sqlite3_reset(put);
        if (rc != SQLITE_DONE) {
            goto fail;
        }
    }
    if (rc != SQLITE_DONE) {
        goto fail;
    }
    sqlite3_finalize(get);
    sqlite3_finalize(put);
    get = put = NULL;
    if (sqlite3_exec(db, "DROP TABLE old_entries; PRAGMA user_version = 5; COMMIT", NULL, NULL,
                     NULL) != SQLITE_OK) {
        goto fail;
    }
    return 0;
fail:
    index_db_fail(db, path);
    sqlite3_finalize(get);
    sqlite3_finalize(put);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

int index_migrate(sqlite3 *db, const char *path, int version)
{
    if (version == 4) {
        return migrate_v4(db, path);
    }
    if (version == 2 && migrate_v2(db, path) < 0) {
        return -1;
    }
    return migrate_v3(db, path);
}
