// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Older databases brought to this schema by the first update that opens them. */
#include "frdindex_migrate.h"

#include "frdindex_db.h"
#include "frdindex_dirs.h"
#include "frdindex_history.h"
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
    static const char columns[] = "type, size, mtime, ctime, file_id, dev, mode, persistent, "
                                  "nlink, uid, gid, btime, rdev, attrs, attrs_known, fields";
    char select[512], insert[512];
    snprintf(select, sizeof(select), "SELECT path, %s FROM old_entries ORDER BY path", columns);
    snprintf(insert, sizeof(insert),
             "INSERT INTO entries(id, name, node, %s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
             "?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
             columns);
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
        for (int c = 0; c < 16; c++) {
            sqlite3_bind_value(put, 4 + c, sqlite3_column_value(get, 1 + c));
        }
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

/** Schema 3 to 4, in one transaction. */
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
                     "PRAGMA user_version = 4; COMMIT",
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

int index_migrate(sqlite3 *db, const char *path, int version)
{
    if (version == 2 && migrate_v2(db, path) < 0) {
        return -1;
    }
    return migrate_v3(db, path);
}
