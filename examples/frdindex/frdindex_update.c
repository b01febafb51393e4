// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex update`: walk the roots and bring the database up to date in one transaction. */
#define _XOPEN_SOURCE 700 // realpath

#include "frdindex_update.h"

#include "errtext.h"
#include "frdindex_collect.h"
#include "frdindex_db.h"
#include "frdindex_exclude.h"
#include "frdindex_file.h"
#include "frdindex_map.h"
#include "frdindex_rename.h"
#include "frdindex_roots.h"
#include "frdindex_snapshot.h"
#include "grow.h"
#include "toolname.h"

#include <errno.h>
#include <frd.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * An update, all inside one write transaction (BEGIN IMMEDIATE ... COMMIT):
 *
 *   1. start the walk (other threads); meanwhile read the last update's snapshot (one
 *      BLOB: path hash, metadata digest and rowid per row, see frdindex_snapshot.h), or,
 *      without a usable one, load every stored row into a hash map keyed by path;
 *   2. for each batch the walk hands over, look each path up: an equal digest (or row) is
 *      only marked seen, with no SQLite call at all; a changed entry's row is read back
 *      and updated in place; a new path is inserted;
 *   3. after the walk: the rows not met are read back; those under a directory that could
 *      not be read are kept; a new path whose file (device + file id, on a volume whose ids
 *      persist) was at a path now gone, unchanged, is a rename: the old row goes and the
 *      new one says where it came from;
 *   4. the other rows not met are deleted and listed in table `removed`;
 *   5. meta, roots and the new snapshot are written and the transaction commits.
 *
 * A kill or crash anywhere before the commit leaves the previous update's state: SQLite
 * rolls the uncommitted transaction back when the database is next opened. The first
 * update writes a temporary file instead, renamed into place after the commit (see
 * frdindex_file.h): killed, it leaves no database. An update that finds nothing changed
 * writes only the meta rows, and reads only the snapshot.
 */

struct update {
    sqlite3 *db;
    int64_t generation;
    struct index_map map;
    sqlite3_stmt *insert, *update, *remove, *insert_history, *mark_renamed;
    uint64_t counts[INDEX_REMOVED + 1];
    uint64_t rows_written;
    uint64_t inserted_path_bytes; // for the next update's map reservation
    uint64_t kill_after;          // test hook: SIGKILL after this many writes (0: never)

    bool track_added; // the index has rows, so an added path may be a rename
    struct index_added added;

    // With a snapshot of the last update, the map holds only rows read back (changed,
    // replaced, not met); without one, every row is loaded into it.
    bool snap_mode;
    struct index_snapshot snap; // the last update's
    struct index_snapshot next; // this update's, filled as rows are kept or written
    sqlite3_stmt *fetch;
};

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/** Counts a row written; the test hook kills the process here to prove the rollback. */
static void row_written(struct update *u)
{
    u->rows_written++;
    if (u->kill_after != 0 && u->rows_written == u->kill_after) {
        raise(SIGKILL);
    }
}

/** Steps a prepared write statement and resets it. @return 0 or -1 (message printed). */
static int step_write(struct update *u, sqlite3_stmt *stmt, const char *what)
{
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) {
        return index_db_fail(u->db, what);
    }
    row_written(u);
    return 0;
}

/** The metadata columns, in the order of bind_row() and read_row(). */
#define ROW_COLUMNS                                                                            \
    "type, size, mtime, ctime, file_id, dev, mode, persistent, nlink, uid, gid, btime, rdev, " \
    "attrs, attrs_known, fields"

/** Reads the ROW_COLUMNS of a result row, starting at column `col`. */
static void read_row(sqlite3_stmt *stmt, int col, struct index_row *row)
{
    row->type = (uint8_t)sqlite3_column_int(stmt, col);
    row->size = (uint64_t)sqlite3_column_int64(stmt, col + 1);
    row->mtime_ns = sqlite3_column_int64(stmt, col + 2);
    row->ctime_ns = sqlite3_column_int64(stmt, col + 3);
    row->file_id = (uint64_t)sqlite3_column_int64(stmt, col + 4);
    row->dev = (uint64_t)sqlite3_column_int64(stmt, col + 5);
    row->mode = (uint32_t)sqlite3_column_int64(stmt, col + 6);
    row->persistent = sqlite3_column_int(stmt, col + 7) != 0;
    row->nlink = (uint32_t)sqlite3_column_int64(stmt, col + 8);
    row->uid = (uint32_t)sqlite3_column_int64(stmt, col + 9);
    row->gid = (uint32_t)sqlite3_column_int64(stmt, col + 10);
    row->btime_ns = sqlite3_column_int64(stmt, col + 11);
    row->rdev = (uint64_t)sqlite3_column_int64(stmt, col + 12);
    row->attributes = (uint32_t)sqlite3_column_int64(stmt, col + 13);
    row->attributes_known = (uint32_t)sqlite3_column_int64(stmt, col + 14);
    row->fields = (uint32_t)sqlite3_column_int64(stmt, col + 15);
}

/** Binds the metadata columns ?2..?17 (ROW_COLUMNS), gen ?18 and change ?19. */
static void bind_row(sqlite3_stmt *stmt, const struct index_row *row, int64_t gen,
                     enum index_change change)
{
    sqlite3_bind_int(stmt, 2, row->type);
    sqlite3_bind_int64(stmt, 3, (int64_t)row->size);
    sqlite3_bind_int64(stmt, 4, row->mtime_ns);
    sqlite3_bind_int64(stmt, 5, row->ctime_ns);
    sqlite3_bind_int64(stmt, 6, (int64_t)row->file_id);
    sqlite3_bind_int64(stmt, 7, (int64_t)row->dev);
    sqlite3_bind_int64(stmt, 8, row->mode);
    sqlite3_bind_int(stmt, 9, row->persistent);
    sqlite3_bind_int64(stmt, 10, row->nlink);
    sqlite3_bind_int64(stmt, 11, row->uid);
    sqlite3_bind_int64(stmt, 12, row->gid);
    sqlite3_bind_int64(stmt, 13, row->btime_ns);
    sqlite3_bind_int64(stmt, 14, (int64_t)row->rdev);
    sqlite3_bind_int64(stmt, 15, row->attributes);
    sqlite3_bind_int64(stmt, 16, row->attributes_known);
    sqlite3_bind_int64(stmt, 17, row->fields);
    sqlite3_bind_int64(stmt, 18, gen);
    sqlite3_bind_int(stmt, 19, change);
}

static int prepare_all(struct update *u)
{
    static const char insert_sql[] =
        "INSERT INTO entries(path, " ROW_COLUMNS ", gen, change) VALUES (?1, ?2, ?3, ?4, ?5, "
        "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)";
    static const char update_sql[] =
        "UPDATE entries SET type = ?2, size = ?3, mtime = ?4, ctime = ?5, file_id = ?6, "
        "dev = ?7, mode = ?8, persistent = ?9, nlink = ?10, uid = ?11, gid = ?12, btime = ?13, "
        "rdev = ?14, attrs = ?15, attrs_known = ?16, fields = ?17, gen = ?18, change = ?19, "
        "old_path = NULL WHERE id = ?1";
    static const char fetch_sql[] = "SELECT path, " ROW_COLUMNS " FROM entries WHERE id = ?";
    if (sqlite3_prepare_v2(u->db, insert_sql, -1, &u->insert, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(u->db, update_sql, -1, &u->update, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(u->db, "DELETE FROM entries WHERE id = ?", -1, &u->remove, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(u->db,
                           "INSERT INTO history(gen, path, change, type, other_path) "
                           "VALUES (?1, ?2, ?3, ?4, ?5)",
                           -1, &u->insert_history, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(u->db, "UPDATE entries SET change = ?2, old_path = ?3 WHERE id = ?1", -1,
                           &u->mark_renamed, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(u->db, fetch_sql, -1, &u->fetch, NULL) != SQLITE_OK) {
        return index_db_fail(u->db, "preparing statements");
    }
    return 0;
}

static void finalize_all(struct update *u)
{
    sqlite3_stmt **all[] = {&u->insert,         &u->update,       &u->remove,
                            &u->insert_history, &u->mark_renamed, &u->fetch};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        sqlite3_finalize(*all[i]);
        *all[i] = NULL;
    }
}

/** Loads every stored row into the map. @return 0 or -1. */
static int load_rows(struct update *u, int64_t expected, int64_t path_bytes)
{
    sqlite3_stmt *stmt;
    if (expected > 0 && index_map_reserve(&u->map, (size_t)expected, (size_t)path_bytes) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    if (sqlite3_prepare_v2(u->db, "SELECT id, path, " ROW_COLUMNS " FROM entries", -1, &stmt,
                           NULL) != SQLITE_OK) {
        return index_db_fail(u->db, "reading the index");
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        struct index_row row = {.id = sqlite3_column_int64(stmt, 0)};
        read_row(stmt, 2, &row);
        const void *path = sqlite3_column_blob(stmt, 1);
        int len = sqlite3_column_bytes(stmt, 1);
        if (path == NULL || len <= 0 || index_map_add(&u->map, path, (size_t)len, &row) < 0) {
            sqlite3_finalize(stmt);
            fprintf(stderr, "%s: %s\n", tool_name,
                    path == NULL && len > 0 ? "out of memory"
                                            : "the index holds an empty path: it is damaged; "
                                              "remove it and run update again");
            return -1;
        }
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        return index_db_fail(u->db, "reading the index");
    }
    if ((int64_t)u->map.count != expected) {
        fprintf(stderr,
                "%s: the index holds %zu entries where its last update wrote %lld: it is "
                "damaged; remove it and run update again\n",
                tool_name, u->map.count, (long long)expected);
        return -1;
    }
    return 0;
}

/** What changed: none when frd_entry_same() says the metadata is the same, else its kind. */
static enum index_change classify(const struct index_row *old, const struct index_row *now)
{
    struct frd_entry a, b;
    index_row_entry(old, &a);
    index_row_entry(now, &b);
    if (frd_entry_same(&a, &b) && old->persistent == now->persistent) {
        return INDEX_UNCHANGED;
    }
    if (old->type != now->type || old->file_id != now->file_id || old->dev != now->dev) {
        return INDEX_REPLACED;
    }
    if (old->size != now->size || old->mtime_ns != now->mtime_ns) {
        return INDEX_MODIFIED;
    }
    return INDEX_METADATA; // ctime, mode, owner, links, attributes, ...
}

static int out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n", tool_name);
    return -1;
}

/** Notes a row of the index as it stands after this update, for the next snapshot. */
static int keep_in_next(struct update *u, uint64_t path_hash, const struct index_row *row,
                        int64_t id)
{
    return index_snapshot_push(&u->next, path_hash, index_row_digest(row), id) < 0 ? out_of_memory()
                                                                                   : 0;
}

/** Inserts a path the index did not have. @return 0 or -1. */
static int insert_rec(struct update *u, const struct index_rec *r, const char *path,
                      uint64_t path_hash)
{
    if (r->failed) {
        return 0; // nothing known about it yet: index it once it can be stat'ed
    }
    sqlite3_bind_blob(u->insert, 1, path, (int)r->path_len, SQLITE_STATIC);
    bind_row(u->insert, &r->row, u->generation, INDEX_ADDED);
    if (step_write(u, u->insert, "adding an entry") < 0) {
        return -1;
    }
    int64_t id = sqlite3_last_insert_rowid(u->db);
    u->counts[INDEX_ADDED]++;
    u->inserted_path_bytes += r->path_len + 1;
    if (u->track_added && r->row.persistent) {
        struct index_row row = r->row;
        row.id = id;
        if (index_added_push(&u->added, &row, path, r->path_len) < 0) {
            return out_of_memory();
        }
    }
    return keep_in_next(u, path_hash, &r->row, id);
}

/** Writes what changed for a path the index had (`old`). @return 0 or -1. */
static int update_rec(struct update *u, const struct index_rec *r, const struct index_row *old,
                      struct index_item *item)
{
    enum index_change change = classify(old, &r->row);
    if (change == INDEX_UNCHANGED) {
        return 0;
    }
    u->counts[change]++;
    if (change == INDEX_REPLACED && old->persistent) {
        // The file that was here may have moved elsewhere (log rotation).
        item->rename_source = true;
    }
    sqlite3_bind_int64(u->update, 1, old->id);
    bind_row(u->update, &r->row, u->generation, change);
    return step_write(u, u->update, "updating an entry");
}

/** Compares one walked entry with the loaded rows and writes what differs. @return 0 or -1. */
static int apply_rec_map(struct update *u, const struct index_rec *r, const char *path)
{
    uint64_t hash = r->path_hash;
    struct index_item *item = index_map_find_hashed(&u->map, path, r->path_len, hash);
    if (item == NULL) {
        return insert_rec(u, r, path, hash);
    }
    if (item->mark != INDEX_MARK_UNSEEN) {
        return 0; // met twice (a root inside another): once is enough
    }
    item->mark = INDEX_MARK_SEEN;
    if (r->failed) {
        return keep_in_next(u, hash, &item->row, item->row.id); // keep what the index knew
    }
    if (update_rec(u, r, &item->row, item) < 0) {
        return -1;
    }
    return keep_in_next(u, hash, &r->row, item->row.id);
}

/**
 * Reads row `id` back. @return 1 with *row and its path in the map's terms checked equal to
 * `path`, 0 if the row has another path (a path hash collision), -1 on error.
 */
static int fetch_row(struct update *u, int64_t id, const char *path, size_t len,
                     struct index_row *row, const char **stored_path, size_t *stored_len)
{
    sqlite3_reset(u->fetch);
    sqlite3_bind_int64(u->fetch, 1, id);
    int rc = sqlite3_step(u->fetch);
    if (rc != SQLITE_ROW) {
        if (rc == SQLITE_DONE) {
            fprintf(stderr,
                    "%s: row %lld of the snapshot is missing: the index is "
                    "damaged; remove it and run update again\n",
                    tool_name, (long long)id);
            return -1;
        }
        return index_db_fail(u->db, "reading an entry");
    }
    *row = (struct index_row){.id = id};
    read_row(u->fetch, 1, row);
    *stored_path = sqlite3_column_blob(u->fetch, 0);
    *stored_len = (size_t)sqlite3_column_bytes(u->fetch, 0);
    if (*stored_path == NULL) {
        return index_db_fail(u->db, "reading an entry");
    }
    return path == NULL || (*stored_len == len && memcmp(*stored_path, path, len) == 0);
}

/** Compares one walked entry with the snapshot; reads a row only if it changed. */
static int apply_rec_snap(struct update *u, const struct index_rec *r, const char *path)
{
    uint64_t hash = r->path_hash;
    long i = index_snapshot_find(&u->snap, hash);
    if (i < 0) {
        return insert_rec(u, r, path, hash);
    }
    const struct index_snap_entry *s = &u->snap.entries[i];
    if (u->snap.seen[i]) {
        return 0; // met twice
    }
    uint64_t digest = r->digest;
    if (r->failed || digest == s->digest) {
        // The common case: unchanged (or unknown now): no SQLite call at all.
        u->snap.seen[i] = 1;
        return index_snapshot_push(&u->next, hash, s->digest, s->id) < 0 ? out_of_memory() : 0;
    }
    struct index_row old;
    const char *stored = NULL;
    size_t stored_len = 0;
    int same = fetch_row(u, s->id, path, r->path_len, &old, &stored, &stored_len);
    if (same < 0) {
        return -1;
    }
    if (same == 0) {
        return insert_rec(u, r, path, hash); // another path with the same hash
    }
    u->snap.seen[i] = 1;
    // Keep the old row in the map: if it was replaced, its file may have moved (renames).
    long item = index_map_add(&u->map, path, r->path_len, &old);
    if (item < 0) {
        return out_of_memory();
    }
    u->map.items[item].mark = INDEX_MARK_SEEN;
    if (update_rec(u, r, &old, &u->map.items[item]) < 0) {
        return -1;
    }
    return index_snapshot_push(&u->next, hash, digest, s->id) < 0 ? out_of_memory() : 0;
}

/** Snapshot mode: reads back the rows the walk did not meet, into the map. */
static int load_unseen(struct update *u)
{
    for (size_t i = 0; i < u->snap.count; i++) {
        if (u->snap.seen[i]) {
            continue;
        }
        struct index_row row;
        const char *stored = NULL;
        size_t stored_len = 0;
        if (fetch_row(u, u->snap.entries[i].id, NULL, 0, &row, &stored, &stored_len) < 0) {
            return -1;
        }
        if (index_map_add(&u->map, stored, stored_len, &row) < 0) {
            return out_of_memory();
        }
    }
    return 0;
}

/** Keeps the unseen rows below directories the walk could not read. */
static void keep_failed(struct update *u, const struct index_collect *c)
{
    if (c->nfailed == 0) {
        return;
    }
    for (size_t i = 0; i < u->map.count; i++) {
        struct index_item *item = &u->map.items[i];
        if (item->mark != INDEX_MARK_UNSEEN) {
            continue;
        }
        const char *path = index_item_path(&u->map, item);
        for (size_t f = 0; f < c->nfailed; f++) {
            if (index_path_under(path, item->path_len, c->failed[f])) {
                item->mark = INDEX_MARK_KEPT;
                break;
            }
        }
    }
}

/** Appends one row to table history for this generation. @return 0 or -1. */
static int add_history(struct update *u, const char *path, size_t len, enum index_change change,
                       unsigned type, const char *other, size_t other_len)
{
    sqlite3_bind_int64(u->insert_history, 1, u->generation);
    sqlite3_bind_blob(u->insert_history, 2, path, (int)len, SQLITE_STATIC);
    sqlite3_bind_int(u->insert_history, 3, change);
    sqlite3_bind_int(u->insert_history, 4, (int)type);
    if (other != NULL) {
        sqlite3_bind_blob(u->insert_history, 5, other, (int)other_len, SQLITE_STATIC);
    } else {
        sqlite3_bind_null(u->insert_history, 5);
    }
    return step_write(u, u->insert_history, "recording a change");
}

/**
 * Copies this generation's rows of entries (added, changed, renamed) into table history,
 * and notes when the update ran. Reads the table only if something was written.
 */
static int write_history(struct update *u)
{
    uint64_t written = 0;
    for (size_t k = INDEX_ADDED; k < INDEX_REMOVED; k++) {
        written += u->counts[k];
    }
    sqlite3_stmt *stmt;
    if (written > 0) {
        if (sqlite3_prepare_v2(u->db,
                               "INSERT INTO history(gen, path, change, type, other_path) "
                               "SELECT gen, path, change, type, old_path FROM entries "
                               "WHERE gen = ?1 AND change != 0",
                               -1, &stmt, NULL) != SQLITE_OK) {
            return index_db_fail(u->db, "recording the changes");
        }
        sqlite3_bind_int64(stmt, 1, u->generation);
        int rc = sqlite3_step(stmt);
        sqlite3_finalize(stmt);
        if (rc != SQLITE_DONE) {
            return index_db_fail(u->db, "recording the changes");
        }
    }
    if (sqlite3_prepare_v2(u->db, "INSERT INTO generations(gen, time_ns) VALUES (?, ?)", -1, &stmt,
                           NULL) != SQLITE_OK) {
        return index_db_fail(u->db, "recording the generation");
    }
    sqlite3_bind_int64(stmt, 1, u->generation);
    sqlite3_bind_int64(stmt, 2, now_ns());
    int rc = sqlite3_step(stmt);
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? 0 : index_db_fail(u->db, "recording the generation");
}

/** Writes renames and removals. @return 0 or -1. */
static int write_renames_and_removals(struct update *u)
{
    size_t npairs;
    bool failed;
    struct index_rename *pairs = index_match_renames(&u->map, &u->added, &npairs, &failed);
    if (failed) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    int result = 0;
    for (size_t p = 0; p < npairs && result == 0; p++) {
        struct index_item *src = &u->map.items[pairs[p].source];
        const struct index_added_entry *a = &u->added.entries[pairs[p].target];
        if (src->mark == INDEX_MARK_UNSEEN) {
            src->mark = INDEX_MARK_MOVED; // its path is gone: the row goes with it
            sqlite3_bind_int64(u->remove, 1, src->row.id);
            result = step_write(u, u->remove, "removing a renamed entry's old row");
            if (result == 0) {
                result =
                    add_history(u, index_item_path(&u->map, src), src->path_len, INDEX_RENAMED_AWAY,
                                src->row.type, index_added_path(&u->added, a), a->path_len);
            }
        }
        if (result == 0) {
            sqlite3_bind_int64(u->mark_renamed, 1, a->row.id);
            sqlite3_bind_int(u->mark_renamed, 2, pairs[p].change);
            sqlite3_bind_blob(u->mark_renamed, 3, index_item_path(&u->map, src), (int)src->path_len,
                              SQLITE_STATIC);
            result = step_write(u, u->mark_renamed, "recording a rename");
        }
        u->counts[INDEX_ADDED]--;
        u->counts[pairs[p].change]++;
    }
    free(pairs);
    for (size_t i = 0; i < u->map.count && result == 0; i++) {
        struct index_item *item = &u->map.items[i];
        if (item->mark != INDEX_MARK_UNSEEN) {
            continue;
        }
        sqlite3_bind_int64(u->remove, 1, item->row.id);
        result = step_write(u, u->remove, "removing an entry");
        if (result == 0) {
            result = add_history(u, index_item_path(&u->map, item), item->path_len, INDEX_REMOVED,
                                 item->row.type, NULL, 0);
        }
        u->counts[INDEX_REMOVED]++;
    }
    return result;
}

static int write_meta_and_roots(struct update *u, char **roots, size_t nroots, int64_t entries)
{
    if (index_db_meta_set(u->db, "generation", u->generation) < 0 ||
        index_db_meta_set(u->db, "entries", entries) < 0 ||
        index_db_meta_set(u->db, "updated_ns", now_ns()) < 0 ||
        // A size hint only (it counts removed paths too): the next load reserves this much.
        index_db_meta_set(u->db, "path_bytes",
                          (int64_t)(u->map.arena_len + u->inserted_path_bytes)) < 0) {
        return -1;
    }
    return index_roots_store(u->db, roots, nroots);
}

/** Snapshot mode: the table must hold the rows the last update counted. @return 0 or -1. */
static int check_count(struct update *u, int64_t expected)
{
    sqlite3_stmt *stmt;
    int64_t rows = -1;
    if (sqlite3_prepare_v2(u->db, "SELECT count(*) FROM entries", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(u->db, "reading the index");
    }
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        rows = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    if (rows != expected) {
        fprintf(stderr,
                "%s: the index holds %lld entries where its last update wrote %lld: it is "
                "damaged; remove it and run update again\n",
                tool_name, (long long)rows, (long long)expected);
        return -1;
    }
    return 0;
}

/** Stores this update's snapshot, or only restamps the old one if no row changed. */
static int write_snapshot(struct update *u, int64_t entries)
{
    uint64_t changed = 0;
    for (size_t k = 0; k <= INDEX_REMOVED; k++) {
        changed += u->counts[k];
    }
    if (u->snap_mode && changed == 0) {
        return index_db_meta_set(u->db, "snapshot_gen", u->generation);
    }
    if ((int64_t)u->next.count != entries) {
        // Cannot happen; if it did, no snapshot beats a wrong one.
        fprintf(stderr, "%s: internal: snapshot of %zu rows for %lld entries; not kept\n",
                tool_name, u->next.count, (long long)entries);
        return index_db_meta_set(u->db, "snapshot_gen", 0);
    }
    return index_snapshot_save(u->db, u->generation, &u->next);
}

/** Takes every batch the walk produces and applies it. @return 0 or -1. */
static int drain(struct update *u, struct index_collect *c, bool apply)
{
    int result = apply ? 0 : -1;
    struct index_batch *b;
    while ((b = index_collect_next(c)) != NULL) {
        for (size_t i = 0; i < b->count && result == 0; i++) {
            const char *path = b->arena + b->recs[i].path_off;
            result = u->snap_mode ? apply_rec_snap(u, &b->recs[i], path)
                                  : apply_rec_map(u, &b->recs[i], path);
        }
        index_collect_recycle(c, b);
    }
    return result;
}

/**
 * Test hook: FRDINDEX_TEST_KILL_AT=POINT kills the update with SIGKILL when it reaches
 * POINT ("made": a new database's temporary file made; "committed": its transaction
 * committed, before the rename), to show what a kill there leaves.
 */
static void kill_point(const char *point)
{
    const char *at = getenv("FRDINDEX_TEST_KILL_AT");
    if (at != NULL && strcmp(at, point) == 0) {
        raise(SIGKILL);
    }
}

int index_update(struct index_update_options *opts)
{
    struct update u = {0};
    struct index_file file = {.dirfd = -1, .tmp_fd = -1};
    struct index_collect collect;
    bool collecting = false;
    bool joined = false;
    char **roots = NULL;
    size_t nroots = 0;
    int status = 1;
    const char *kill_after = getenv("FRDINDEX_TEST_KILL_AFTER");
    if (kill_after != NULL) {
        u.kill_after = strtoull(kill_after, NULL, 10);
    }

    // The roots first: a root that does not exist must not leave a new, empty database.
    if (opts->nroots > 0) {
        roots = index_roots_resolve(opts->roots, opts->nroots, &nroots);
        if (roots == NULL) {
            return 1;
        }
    }
    if (index_file_open(&file, opts->db_path, nroots > 0) < 0) {
        goto done;
    }
    if (file.fresh) {
        kill_point("made");
    }
    if (index_db_open(index_file_sqlite_path(&file),
                      file.fresh ? INDEX_OPEN_BUILD : INDEX_OPEN_UPDATE, &u.db) < 0) {
        goto done;
    }
    if (opts->nroots == 0) {
        bool failed = false;
        roots = index_roots_load(u.db, &nroots, &failed);
        if (failed) {
            goto done;
        }
        if (nroots == 0) {
            fprintf(stderr, "%s: %s: no roots: give the directories to index\n", tool_name,
                    opts->db_path);
            goto done;
        }
    }
    if (roots == NULL) {
        nroots = 0; // nothing to free at done
        goto done;
    }
    // Take the write lock first: two updates at once would each miss the other's rows.
    if (sqlite3_exec(u.db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        index_db_fail(u.db, "starting the update (is another update running?)");
        goto done;
    }
    int64_t expected, path_bytes;
    if (index_db_meta_get(u.db, "generation", &u.generation) < 0 ||
        index_db_meta_get(u.db, "entries", &expected) < 0 ||
        index_db_meta_get(u.db, "path_bytes", &path_bytes) < 0) {
        goto rollback;
    }
    u.generation++;
    if (index_excludes_sync(opts->excludes, u.db) < 0) {
        goto rollback;
    }
    struct index_collect_options walk = {
        .workers = opts->workers,
        .one_file_system = opts->one_file_system,
        .progress = !opts->quiet,
        .excludes = opts->excludes,
        .walk = opts->walk,
        .walk_arg = opts->walk_arg,
    };
    if (index_collect_start(&collect, (const char *const *)roots, nroots, &walk) < 0) {
        goto rollback;
    }
    collecting = true;
    double t_start = mono_seconds();
    int snap = index_snapshot_load(u.db, u.generation - 1, expected, &u.snap);
    u.snap_mode = snap == 1;
    bool ok =
        snap >= 0 &&
        (u.snap_mode ? check_count(&u, expected) : load_rows(&u, expected, path_bytes)) == 0 &&
        prepare_all(&u) == 0;
    u.track_added = expected > 0;
    double t_loaded = mono_seconds();
    ok = drain(&u, &collect, ok) == 0 && ok;
    int walked = index_collect_finish(&collect);
    joined = true;
    double t_walked = mono_seconds();
    if (walked < 0 && walked != FRD_ESTOPPED) {
        // A root that cannot be walked (unmounted, say) must not read as "everything gone".
        fprintf(stderr, "%s: the walk failed: %s; the index is unchanged\n", tool_name,
                tool_strerror(walked));
        ok = false;
    }
    if (!ok) {
        goto rollback;
    }
    if (u.snap_mode && load_unseen(&u) < 0) {
        goto rollback;
    }
    keep_failed(&u, &collect);
    for (size_t i = 0; i < u.map.count; i++) {
        const struct index_item *item = &u.map.items[i];
        if (item->mark == INDEX_MARK_KEPT &&
            keep_in_next(&u, item->hash, &item->row, item->row.id) < 0) {
            goto rollback;
        }
    }
    if (write_renames_and_removals(&u) < 0) {
        goto rollback;
    }
    int64_t entries = expected + (int64_t)u.counts[INDEX_ADDED] + (int64_t)u.counts[INDEX_RENAMED] +
                      (int64_t)u.counts[INDEX_RENAMED_WITH_PARENT];
    for (size_t i = 0; i < u.map.count; i++) {
        uint8_t mark = u.map.items[i].mark;
        entries -= mark == INDEX_MARK_UNSEEN || mark == INDEX_MARK_MOVED;
    }
    if (write_history(&u) < 0 || write_meta_and_roots(&u, roots, nroots, entries) < 0 ||
        write_snapshot(&u, entries) < 0) {
        goto rollback;
    }
    finalize_all(&u);
    double t_written = mono_seconds();
    if (sqlite3_exec(u.db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        index_db_fail(u.db, "committing the update");
        goto rollback;
    }
    // Back to a rollback journal at rest: then a user who may read but not write the
    // database (nor its folder) can query it, which a WAL database does not allow without
    // its -shm file. Busy (a query running) leaves WAL mode; the next update tries again.
    // (A new database never left it: its temporary file is written without a journal.)
    if (!file.fresh) {
        sqlite3_exec(u.db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    }
    kill_point("committed");
    // A new database goes into place only whole, once SQLite has closed it.
    if (file.fresh) {
        if (sqlite3_close(u.db) != SQLITE_OK) {
            index_db_fail(u.db, "closing the index");
            goto done; // index_file_close removes the temporary file
        }
        u.db = NULL;
        if (index_file_commit(&file, opts->mode) < 0) {
            goto done;
        }
    }
    if (opts->verbose) {
        fprintf(stderr,
                "%s: %s %zu rows in %.3f s; walked and compared in %.3f s more; "
                "renames and removals %.3f s; commit %.3f s\n",
                tool_name, u.snap_mode ? "snapshot of" : "loaded",
                u.snap_mode ? u.snap.count : u.map.count, t_loaded - t_start, t_walked - t_loaded,
                t_written - t_walked, mono_seconds() - t_written);
    }
    status = atomic_load(&collect.errors) > 0 ? 1 : 0;
    opts->entries = entries;
    if (!opts->quiet) {
        printf("%lld entries: %llu added, %llu removed, %llu modified, %llu metadata, "
               "%llu replaced, %llu renamed\n",
               (long long)entries, (unsigned long long)u.counts[INDEX_ADDED],
               (unsigned long long)u.counts[INDEX_REMOVED],
               (unsigned long long)u.counts[INDEX_MODIFIED],
               (unsigned long long)u.counts[INDEX_METADATA],
               (unsigned long long)u.counts[INDEX_REPLACED],
               (unsigned long long)u.counts[INDEX_RENAMED] +
                   (unsigned long long)u.counts[INDEX_RENAMED_WITH_PARENT]);
    }
    goto done;

rollback:
    if (collecting && !joined) {
        drain(&u, &collect, false); // let the walk finish so its thread can be joined
        index_collect_finish(&collect);
    }
    finalize_all(&u);
    sqlite3_exec(u.db, "ROLLBACK", NULL, NULL, NULL);
done:
    if (collecting) {
        index_collect_free(&collect);
    }
    index_map_free(&u.map);
    index_added_free(&u.added);
    index_snapshot_free(&u.snap);
    index_snapshot_free(&u.next);
    index_roots_free(roots, nroots);
    if (sqlite3_close(u.db) != SQLITE_OK) {
        index_db_fail(u.db, "closing the index");
        status = 1;
    }
    index_file_close(&file); // after SQLite's close: its locks on the file go with the last fd
    return status;
}
