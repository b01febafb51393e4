// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdindex's database: opening it, checking it is ours and of this version, creating it. */
#define _POSIX_C_SOURCE 200809L // O_CLOEXEC
#include "frdindex_db.h"

#include "frdindex_migrate.h"
#include "frdindex_vfs.h"
#include "toolname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A database is recognised by two numbers in its header (SQLite's file format reserves them
 * for this): application_id says "written by frdindex", user_version says which schema.
 * A file with other numbers is refused with an error naming what it is, never read: reading
 * another schema would give wrong answers. The tables' SQL is compared too, so a database
 * edited by hand into another shape is refused as well.
 *
 * Schema 5 (this one): table dirs holds every directory the index has held, a parent link
 * and a name each (frdindex_dirs.h); table entries one row per indexed entry, its name and
 * its metadata packed in one BLOB (`meta`, frdindex_rowpack.h), its rowid made of its
 * directory's id and a number (so the path is its directory's path and its name: no path
 * is stored whole), `node` the dirs row of a directory. Table history keeps every change each update found, packed per update
 * (frdindex_history.h), table generations when each update ran: `changes --since` folds
 * the history after a generation, and an update that changes nothing writes only its
 * generations row and meta. Table trigrams indexes the names for `find`
 * (frdindex_trigram.h). Names are BLOBs: file names are bytes, not text in any encoding.
 *
 * Older schemas: 4 kept the metadata in 16 columns of their own (which made a row half as
 * large again, and an insert bind and build 19 values); 3 stored each entry's whole path
 * (and history rows with whole paths), 2 had no history. Queries read them as they are
 * (4 as this one, as no query reads the metadata; for 3 and 2 `find` scans the paths,
 * `changes` asks for an update); the next update migrates them (frdindex_migrate.c).
 */
#define INDEX_APPLICATION_ID 0x66726478 // "frdx"

/** Schema versions as bits, for the tables each has. */
#define V2 (1u << 2)
#define V3 (1u << 3)
#define V4 (1u << 4)
#define V5 (1u << 5)

/** Every table (and index) of every schema read, with the versions that have it so. */
static const struct {
    const char *name;
    const char *sql;
    unsigned versions;
} schema[] = {
    {"meta", "CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL)", V2 | V3 | V4 | V5},
    {"roots", "CREATE TABLE roots(path BLOB NOT NULL)", V2 | V3 | V4 | V5},
    {"dirs",
     "CREATE TABLE dirs(id INTEGER PRIMARY KEY, parent INTEGER NOT NULL, name BLOB NOT NULL)",
     V4 | V5},
    {"entries",
     "CREATE TABLE entries(id INTEGER PRIMARY KEY, name BLOB NOT NULL, node INTEGER, "
     "meta BLOB NOT NULL)",
     V5},
    {"entries",
     "CREATE TABLE entries(id INTEGER PRIMARY KEY, name BLOB NOT NULL, "
     "type INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, "
     "ctime INTEGER NOT NULL, file_id INTEGER NOT NULL, dev INTEGER NOT NULL, "
     "mode INTEGER NOT NULL, persistent INTEGER NOT NULL, nlink INTEGER NOT NULL, "
     "uid INTEGER NOT NULL, gid INTEGER NOT NULL, btime INTEGER NOT NULL, "
     "rdev INTEGER NOT NULL, attrs INTEGER NOT NULL, attrs_known INTEGER NOT NULL, "
     "fields INTEGER NOT NULL, node INTEGER)",
     V4},
    {"entries",
     "CREATE TABLE entries(id INTEGER PRIMARY KEY, path BLOB NOT NULL, "
     "type INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, "
     "ctime INTEGER NOT NULL, file_id INTEGER NOT NULL, dev INTEGER NOT NULL, "
     "mode INTEGER NOT NULL, persistent INTEGER NOT NULL, nlink INTEGER NOT NULL, "
     "uid INTEGER NOT NULL, gid INTEGER NOT NULL, btime INTEGER NOT NULL, "
     "rdev INTEGER NOT NULL, attrs INTEGER NOT NULL, attrs_known INTEGER NOT NULL, "
     "fields INTEGER NOT NULL, gen INTEGER NOT NULL, "
     "change INTEGER NOT NULL, old_path BLOB)",
     V2 | V3},
    {"history", "CREATE TABLE history(gen INTEGER NOT NULL, events BLOB NOT NULL)", V4 | V5},
    {"history",
     "CREATE TABLE history(gen INTEGER NOT NULL, path BLOB NOT NULL, "
     "change INTEGER NOT NULL, type INTEGER NOT NULL, other_path BLOB)",
     V3},
    {"generations", "CREATE TABLE generations(gen INTEGER PRIMARY KEY, time_ns INTEGER NOT NULL)",
     V3 | V4 | V5},
    {"snapshot", "CREATE TABLE snapshot(data BLOB NOT NULL)", V2 | V3 | V4 | V5},
    {"excludes", "CREATE TABLE excludes(kind INTEGER NOT NULL, value BLOB NOT NULL)", V3 | V4 | V5},
    {"trigrams", "CREATE TABLE trigrams(trigram INTEGER PRIMARY KEY, ids BLOB NOT NULL)", V4 | V5},
    {"removed", "CREATE TABLE removed(path BLOB NOT NULL, type INTEGER NOT NULL)", V2},
};
#define SCHEMA_COUNT (sizeof(schema) / sizeof(schema[0]))

int index_db_create(sqlite3 *db, const char *name)
{
    for (size_t i = 0; i < SCHEMA_COUNT; i++) {
        if ((schema[i].versions & V5) && strcmp(schema[i].name, name) == 0) {
            return sqlite3_exec(db, schema[i].sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
        }
    }
    return -1;
}

int index_db_fail(sqlite3 *db, const char *what)
{
    const char *refused = index_vfs_refusal();
    if (refused != NULL) {
        // A file beside the database that frdindex_vfs.c would not use: it says which.
        fprintf(stderr, "%s: %s\n", tool_name, refused);
        return -1;
    }
    if (db != NULL && (sqlite3_errcode(db) == SQLITE_FULL || sqlite3_system_errno(db) == ENOSPC)) {
        // SQLite reports a full disk met while growing its shared memory or WAL as an I/O
        // error; the system's errno says what it was.
        fprintf(stderr, "%s: %s: disk full (%s)\n", tool_name, what, strerror(ENOSPC));
        return -1;
    }
    fprintf(stderr, "%s: %s: %s\n", tool_name, what, db ? sqlite3_errmsg(db) : "out of memory");
    return -1;
}

/** Runs one statement that returns one integer. @return 0 or -1 (SQLite's code in *rc). */
static int query_int(sqlite3 *db, const char *sql, int64_t *out, int *rc)
{
    sqlite3_stmt *stmt;
    *rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    if (*rc != SQLITE_OK) {
        return -1;
    }
    *rc = sqlite3_step(stmt);
    *out = *rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
    if (*rc == SQLITE_ROW || *rc == SQLITE_DONE) {
        *rc = SQLITE_OK;
    }
    sqlite3_finalize(stmt);
    return *rc == SQLITE_OK ? 0 : -1;
}

int index_db_meta_get(sqlite3 *db, const char *key, int64_t *out)
{
    sqlite3_stmt *stmt;
    *out = 0;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &stmt, NULL) !=
        SQLITE_OK) {
        return index_db_fail(db, "reading meta");
    }
    sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : index_db_fail(db, "reading meta");
}

int index_db_meta_set(sqlite3 *db, const char *key, int64_t value)
{
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", -1, &stmt,
                           NULL) != SQLITE_OK) {
        return index_db_fail(db, "writing meta");
    }
    sqlite3_bind_text(stmt, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, value);
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? 0 : index_db_fail(db, "writing meta");
}

/** Makes the tables and stamps the header, in one transaction. */
static int create_schema(sqlite3 *db, const char *path)
{
    char stamp[128];
    snprintf(stamp, sizeof(stamp), "PRAGMA application_id = %d; PRAGMA user_version = %d",
             INDEX_APPLICATION_ID, INDEX_SCHEMA_VERSION);
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        return index_db_fail(db, path);
    }
    for (size_t i = 0; i < SCHEMA_COUNT; i++) {
        if ((schema[i].versions & V5) &&
            sqlite3_exec(db, schema[i].sql, NULL, NULL, NULL) != SQLITE_OK) {
            goto fail;
        }
    }
    if (sqlite3_exec(db, stamp, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        goto fail;
    }
    return 0;
fail:
    index_db_fail(db, path);
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/** Checks one table's SQL. @return 0, or -1 after an error message. */
static int check_table(sqlite3 *db, sqlite3_stmt *stmt, const char *path, const char *name,
                       const char *sql)
{
    sqlite3_reset(stmt);
    sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        return index_db_fail(db, path);
    }
    if (rc == SQLITE_DONE || strcmp((const char *)sqlite3_column_text(stmt, 0), sql) != 0) {
        fprintf(stderr,
                "%s: %s: table '%s' is not the one frdindex writes: the file "
                "was changed by another program; remove it and run update again\n",
                tool_name, path, name);
        return -1;
    }
    return 0;
}

/**
 * Compares the tables' SQL with those of schema `version` (2, 3 or this one).
 * @return 0, or -1 after a message.
 */
static int check_tables(sqlite3 *db, const char *path, int64_t version)
{
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?",
                           -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, path);
    }
    int result = 0;
    for (size_t i = 0; i < SCHEMA_COUNT && result == 0; i++) {
        if (schema[i].versions & (1u << version)) {
            result = check_table(db, stmt, path, schema[i].name, schema[i].sql);
        }
    }
    sqlite3_finalize(stmt);
    return result;
}

int index_db_schema(sqlite3 *db)
{
    int64_t version;
    int rc;
    return query_int(db, "PRAGMA user_version", &version, &rc) < 0 ? -1 : (int)version;
}

/** Speed settings; safe against a crash or a kill (WAL commits are atomic). */
static int tune(sqlite3 *db, const char *path, enum index_open_mode mode)
{
    // A new database is made in a temporary file that only a complete update renames into
    // place: a crash needs no journal to recover it, and one fsync before the rename (see
    // frdindex_file.c) replaces SQLite's. Nor does SQLite then make a file beside it.
    // Pages of 16 KiB (the file keeps its page size): a query reads a range of rows in order,
    // through the mapped file, so fewer, larger pages mean fewer b-tree pages to step through
    // and fewer page faults. Measured against 4 KiB pages (9 interleaved rounds, medians of
    // CPU): on the 2,078,300-entry tree `*.png` 6.0 -> 4.5 ms, `-b passwd` 4.5 -> 3.1 ms,
    // `-i readme` 63 -> 50 ms, `-c '*.h'` 553 -> 501 ms; on /usr each form as fast or faster;
    // an update from empty 5% less CPU, a later update the same; the file 0.5-1.3% larger.
    // 64 KiB was a little faster still, but made the smallest database 0.6 MB (a page per
    // table, and a 256 KiB disk too small for it): 16 KiB keeps it under 200 KB.
    if (mode == INDEX_OPEN_BUILD &&
        sqlite3_exec(db,
                     "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; "
                     "PRAGMA synchronous = OFF",
                     NULL, NULL, NULL) != SQLITE_OK) {
        return index_db_fail(db, path);
    }
    // WAL during an update: readers (find, changes) do not wait for it; synchronous=NORMAL
    // keeps the database consistent after a crash and may lose only the last update on power
    // loss. The update returns the file to a rollback journal when it ends (see
    // index_update); if WAL cannot be entered now (a query holds the file), the update runs
    // with the rollback journal and synchronous=FULL, as safe.
    // mmap: every command reads the whole table; mapped pages are read in place instead of
    // copied into SQLite's cache (no pread per page, no cache memory to fault in).
    if (mode == INDEX_OPEN_UPDATE) {
        sqlite3_stmt *stmt;
        bool wal = false;
        if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &stmt, NULL) == SQLITE_OK) {
            if (sqlite3_step(stmt) == SQLITE_ROW) {
                const unsigned char *got = sqlite3_column_text(stmt, 0);
                wal = got != NULL && strcmp((const char *)got, "wal") == 0;
            }
            sqlite3_finalize(stmt);
        }
        if (!wal && index_vfs_refusal_pending()) {
            return index_db_fail(db, path); // WAL refused a file beside it: says which
        }
        if (sqlite3_exec(db, wal ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL",
                         NULL, NULL, NULL) != SQLITE_OK) {
            return index_db_fail(db, path);
        }
    }
    const char *sql = mode != INDEX_OPEN_READ
                          ? "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY; "
                            "PRAGMA mmap_size = 1073741824"
                          : "PRAGMA cache_size = -16384; PRAGMA mmap_size = 1073741824";
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
        return index_db_fail(db, path);
    }
    return 0;
}

/** Says why `path` cannot be written (the database opened read-only). @return -1. */
static int cannot_write(const char *path)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);
    int err = fd < 0 ? errno : EROFS;
    if (fd >= 0) {
        close(fd);
    }
    fprintf(stderr, "%s: %s: cannot write the index: %s\n", tool_name, path, strerror(err));
    return -1;
}

/** index_db_open() once; a read-only open that finds a hot journal sets *hot, says nothing
 *  and returns -1. */
static int db_open_once(const char *path, enum index_open_mode mode, sqlite3 **out, bool *hot)
{
    sqlite3 *db = NULL;
    // Queries open the file read-only, so a user who may read but not write it can query it
    // (update leaves it in rollback-journal mode, which needs no -shm file to read).
    // NOMUTEX: one thread uses the connection, so SQLite's per-call locking (about a tenth
    // of an update's time in SQLite) is skipped.
    // NOFOLLOW: the file written is the one frdindex_file.c checked, never a link's target.
    int flags = SQLITE_OPEN_NOMUTEX |
                (mode != INDEX_OPEN_READ ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW
                                         : SQLITE_OPEN_READONLY);
    if (index_vfs_register() < 0) {
        fprintf(stderr, "%s: %s: SQLite has no file system layer\n", tool_name, path);
        return -1;
    }
    int rc = sqlite3_open_v2(path, &db, flags, INDEX_VFS_NAME);
    if (rc != SQLITE_OK) {
        const char *refused = index_vfs_refusal();
        if (refused != NULL) {
            fprintf(stderr, "%s: %s\n", tool_name, refused);
        } else if (mode == INDEX_OPEN_READ && rc == SQLITE_CANTOPEN && db != NULL &&
                   sqlite3_system_errno(db) != ENOENT && sqlite3_system_errno(db) != 0) {
            fprintf(stderr, "%s: %s: cannot open the index: %s\n", tool_name, path,
                    strerror(sqlite3_system_errno(db)));
        } else if (mode == INDEX_OPEN_READ && rc == SQLITE_CANTOPEN) {
            fprintf(stderr,
                    "%s: %s: cannot open the index (does it exist? make it with "
                    "'frdindex update %s ROOT')\n",
                    tool_name, path, path);
        } else {
            index_db_fail(db, path);
        }
        sqlite3_close(db);
        return -1;
    }
    if (mode != INDEX_OPEN_READ && sqlite3_db_readonly(db, "main") == 1) {
        // SQLite falls back to read-only on a file it may not write (mode, chattr +i, a
        // read-only mount); stop before reading, which would leave -wal/-shm files behind.
        sqlite3_close(db);
        return cannot_write(path);
    }
    sqlite3_busy_timeout(db, 10000);
    // A query's checks read in one transaction: SQLite takes its shared lock (and looks for
    // a hot journal and a WAL file) once, not for each statement.
    if (mode == INDEX_OPEN_READ && sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        index_db_fail(db, path);
        goto fail;
    }
    int64_t app_id, version, tables;
    // The first read of the header is where a file that is not a database shows up.
    if (query_int(db, "PRAGMA application_id", &app_id, &rc) < 0) {
        if (mode == INDEX_OPEN_READ && sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK) {
            *hot = true;
        } else if (rc == SQLITE_NOTADB) {
            fprintf(stderr, "%s: %s: not an frdindex database (%s)\n", tool_name, path,
                    sqlite3_errstr(rc));
        } else if (rc == SQLITE_CORRUPT) {
            fprintf(stderr,
                    "%s: %s: the database is damaged (%s): remove it and run update "
                    "again\n",
                    tool_name, path, sqlite3_errstr(rc));
        } else {
            index_db_fail(db, path);
        }
        goto fail;
    }
    if (query_int(db, "PRAGMA user_version", &version, &rc) < 0 ||
        query_int(db, "SELECT count(*) FROM sqlite_schema", &tables, &rc) < 0) {
        index_db_fail(db, path);
        goto fail;
    }
    if (app_id == 0 && version == 0 && tables == 0) {
        // An empty file or a database SQLite has just made.
        if (mode == INDEX_OPEN_READ) {
            fprintf(stderr, "%s: %s: the index is empty: run 'frdindex update %s ROOT'\n",
                    tool_name, path, path);
            goto fail;
        }
        if (tune(db, path, mode) < 0 || create_schema(db, path) < 0) {
            goto fail;
        }
        *out = db;
        return 0;
    }
    if (app_id != INDEX_APPLICATION_ID) {
        fprintf(stderr, "%s: %s: not an frdindex database (application id 0x%llx)\n", tool_name,
                path, (unsigned long long)(uint32_t)app_id);
        goto fail;
    }
    if (version >= 2 && version < INDEX_SCHEMA_VERSION) {
        // An older schema: queries read it as it is (for 2 and 3 find scans its paths,
        // changes asks for an update); an update migrates it first, in a transaction of its
        // own.
        if (check_tables(db, path, version) < 0 || tune(db, path, mode) < 0) {
            goto fail;
        }
        if (mode == INDEX_OPEN_READ) {
            goto done;
        }
        if (index_migrate(db, path, (int)version) < 0) {
            goto fail;
        }
        version = INDEX_SCHEMA_VERSION;
    } else if (version != INDEX_SCHEMA_VERSION) {
        fprintf(stderr,
                "%s: %s: index schema version %lld, but this frdindex reads version %d: "
                "remove the file and run update again\n",
                tool_name, path, (long long)version, INDEX_SCHEMA_VERSION);
        goto fail;
    } else if (tune(db, path, mode) < 0) {
        goto fail;
    }
    if (check_tables(db, path, version) < 0) {
        goto fail;
    }
done:
    if (mode == INDEX_OPEN_READ && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        index_db_fail(db, path);
        goto fail;
    }
    *out = db;
    return 0;
fail:
    sqlite3_close(db);
    return -1;
}

/**
 * Rolls back the hot journal of `path`: an update killed while it committed in rollback
 * mode (entering or leaving WAL, or when WAL could not be entered) leaves one, which a
 * read-only connection may not play back. A read-write connection does at its first read,
 * restoring the index as the last completed update left it. Only the owner may (see
 * frdindex_vfs.h). @return 0, or -1 having said why.
 */
static int roll_back_hot_journal(const char *path)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
                             INDEX_VFS_NAME);
    if (rc == SQLITE_OK && sqlite3_db_readonly(db, "main") != 1) {
        sqlite3_busy_timeout(db, 10000);
        rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
    } else if (rc == SQLITE_OK) {
        rc = SQLITE_READONLY;
    }
    sqlite3_close(db);
    (void)index_vfs_refusal(); // (a refusal here is said below, as what it means)
    if (rc != SQLITE_OK) {
        fprintf(stderr,
                "%s: %s: an interrupted update left its journal to roll back, which only "
                "the index's owner can do (run 'frdindex update %s' or any query as the "
                "owner)\n",
                tool_name, path, path);
        return -1;
    }
    return 0;
}

int index_db_open(const char *path, enum index_open_mode mode, sqlite3 **out)
{
    bool hot = false;
    if (db_open_once(path, mode, out, &hot) == 0) {
        return 0;
    }
    if (!hot || roll_back_hot_journal(path) < 0) {
        return -1;
    }
    hot = false;
    int rc = db_open_once(path, mode, out, &hot);
    if (hot) {
        fprintf(stderr, "%s: %s: the index's journal could not be rolled back\n", tool_name, path);
    }
    return rc;
}

int index_parse_mode(const char *arg, unsigned *mode)
{
    char *end;
    errno = 0;
    unsigned long m = strtoul(arg, &end, 8);
    if (errno != 0 || end == arg || *end != '\0' || m > 0777 || arg[0] == '-' || arg[0] == '+') {
        return -1;
    }
    *mode = (unsigned)m;
    return 0;
}

/** SQLite counts b-tree cells without decoding rows: cheap next to any query. */
int index_db_check_count(sqlite3 *db, const char *db_path)
{
    int64_t expected, rows = -1;
    sqlite3_stmt *stmt;
    if (index_db_meta_get(db, "entries", &expected) < 0) {
        return -1;
    }
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM entries", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, db_path);
    }
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        rows = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW) {
        return index_db_fail(db, db_path);
    }
    if (rows != expected) {
        fprintf(stderr,
                "%s: %s: the index holds %lld entries where its last update wrote %lld: "
                "it is damaged; remove it and run update again\n",
                tool_name, db_path, (long long)rows, (long long)expected);
        return -1;
    }
    return 0;
}
