// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdindex's database: opening it, checking it is ours and of this version, creating it. */
#ifndef FRD_EXAMPLES_FRDINDEX_DB_H
#define FRD_EXAMPLES_FRDINDEX_DB_H

#include <sqlite3.h>
#include <stdint.h>

/** The schema this frdindex writes (2, 3 and 4 are read, and migrated by an update). */
#define INDEX_SCHEMA_VERSION 5

/** The first schema of names and parent links (frdindex_db.c): queries read 4 and 5 alike,
 *  as neither reads an entry's metadata. */
#define INDEX_SCHEMA_NAMES 4

/** How to open a database. */
enum index_open_mode {
    INDEX_OPEN_READ, /**< read only; the file must exist and be an frdindex database */
    /** read-write, in WAL mode while open; the file must exist and be the user's own (an
     *  empty file becomes a new database) */
    INDEX_OPEN_UPDATE,
    /** read-write, a new database being made in a temporary file (see frdindex_file.h): no
     *  journal and no sync (a failure discards the file), so no file beside it either */
    INDEX_OPEN_BUILD,
};

/**
 * Opens the database at `path` and checks it is one of ours, of this schema version, with
 * the tables this version writes. Prints a clear error naming the file on failure. SQLite's
 * files beside it are checked as frdindex_vfs.h says: none of another user's is used.
 * @return 0 with *out set, or -1.
 */
int index_db_open(const char *path, enum index_open_mode mode, sqlite3 **out);

/**
 * Parses -m's argument: a new database's mode in octal, at most 0777, with no sign.
 * @return 0 with *mode set, or -1 (*mode untouched; the caller says the mode is invalid).
 */
int index_parse_mode(const char *arg, unsigned *mode);

/** @return the database's schema version (2, 3, 4 or this one's), or -1 on a read error. */
int index_db_schema(sqlite3 *db);

/** Creates table `name` as this schema has it. @return 0, or -1 (SQLite's error on db). */
int index_db_create(sqlite3 *db, const char *name);

/** Reads an integer from table `meta`. @return 0 (with *out set; 0 if absent) or -1. */
int index_db_meta_get(sqlite3 *db, const char *key, int64_t *out);

/** Writes an integer to table `meta`. @return 0 or -1. */
int index_db_meta_set(sqlite3 *db, const char *key, int64_t value);

/** Prints "frdindex: WHAT: sqlite's message" for the last error on db. @return -1. */
int index_db_fail(sqlite3 *db, const char *what);

/**
 * Compares the number of rows in `entries` with the count the last update wrote, which
 * catches rows lost or added behind frdindex's back. @return 0, or -1 after an error message
 * naming `db_path`.
 */
int index_db_check_count(sqlite3 *db, const char *db_path);

#endif // FRD_EXAMPLES_FRDINDEX_DB_H
