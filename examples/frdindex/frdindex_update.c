// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex update`: walk the roots and bring the database up to date in one transaction. */
#define _XOPEN_SOURCE 700 // realpath

#include "frdindex_update.h"

#include "errtext.h"
#include "frdindex_collect.h"
#include "frdindex_db.h"
#include "frdindex_dirs.h"
#include "frdindex_exclude.h"
#include "frdindex_file.h"
#include "frdindex_history.h"
#include "frdindex_map.h"
#include "frdindex_rename.h"
#include "frdindex_roots.h"
#include "frdindex_rowpack.h"
#include "frdindex_runs.h"
#include "frdindex_snapshot.h"
#include "frdindex_trigram.h"
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
 *      BLOB: key hash, metadata digest and rowid per row, see frdindex_snapshot.h), or,
 *      without a usable one, load every stored row into a hash map keyed by entry key
 *      (directory id and name, see frdindex_dirs.h); and the directories (table dirs);
 *   2. for each batch the walk hands over, find each entry's directory (the walk's node
 *      for it knows its row once looked up) and look its key up: an equal digest (or row)
 *      is only marked seen, with no SQLite call at all; a changed entry's row is read back
 *      and updated in place; a new entry is inserted, its name's trigrams noted;
 *   3. after the walk: the rows not met are read back; those under a directory that could
 *      not be read are kept; a new entry whose file (device + file id, on a volume whose
 *      ids persist) was at a path now gone, unchanged, is a rename: the old row goes and
 *      the history says where the new one came from;
 *   4. the other rows not met are deleted; every change goes into the history;
 *   5. the trigram lists touched are sealed and their runs merged on two threads (see
 *      frdindex_runs.h) while the history, meta, roots and the new snapshot are written;
 *      then the lists, and the transaction commits.
 *
 * A kill or crash anywhere before the commit leaves the previous update's state: SQLite
 * rolls the uncommitted transaction back when the database is next opened. The first
 * update writes a temporary file instead, renamed into place after the commit (see
 * frdindex_file.h): killed, it leaves no database. An update that finds nothing changed
 * writes only the meta rows, and reads only the snapshot and the directories.
 *
 * No step costs more than a name per entry: a path is never built (but for an error
 * message), so a tree as deep as the file system allows costs what its names cost.
 */

/** Rows inserted by one statement: a statement's fixed cost (its cursor's seek from the
 *  root, the transaction checks) shared by this many rows. With 4 values a row (schema 5),
 *  callgrind of an update from empty of 5 copies of the 2M tree's corpus: the writing
 *  thread 1,799 M instructions with 32, 1,769 M with 64, 1,750 M with 128, 1,770 M with 512
 *  (more rows left over for the one-row statement). */
#define INSERT_BATCH 128

/** The walk's batches whose new rows are sorted and inserted together (see flush_inserts). */
#define HELD_BATCHES 32

/** A new row waiting for the next batched insert (its name in the walk's batch). */
struct pending_insert {
    int64_t id, node;
    const char *name;
    size_t len;
    const struct index_row *row;
};

struct update {
    sqlite3 *db;
    int64_t generation;
    bool fresh; /**< the index had no rows: new ids need no lookup, lists no merge */
    struct index_map map;
    struct index_dirs dirs;
    struct index_postings postings;
    struct index_runs_merge merge; // the lists' runs, merged while the rest is written
    bool merging;
    struct index_history_writer history;
    sqlite3_stmt *insert, *insert_batch, *update, *remove, *fetch, *last_in_dir;
    struct pending_insert *inserts; /**< a walk batch's new rows, inserted in id order */
    size_t ninserts, inserts_cap;
    uint32_t root_next_seq; /**< entry numbers of directory 0 (the root "/") */
    uint64_t counts[INDEX_REMOVED + 1];
    uint64_t rows_written;
    uint64_t inserted_key_bytes; // for the next update's map reservation
    uint64_t kill_after;         // test hook: SIGKILL after this many writes (0: never)

    bool track_added; // the index has rows, so an added entry may be a rename
    struct index_added added;

    // With a snapshot of the last update, the map holds only rows read back (changed,
    // replaced, not met); without one, every row is loaded into it.
    bool snap_mode;
    struct index_snapshot snap; // the last update's
    struct index_snapshot next; // this update's, filled as rows are kept or written

    char *key; // the current entry's key
    size_t key_cap;
    struct index_dnode **chain; // nodes being looked up, deepest first
    size_t chain_cap;
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

static int out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n", tool_name);
    return -1;
}

TOOL_RESERVE_DEFINE(nodes_reserve, struct index_dnode *, 64)
TOOL_RESERVE_DEFINE(pending_reserve, struct pending_insert, 256)

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

/** Reads the packed metadata (frdindex_rowpack.h) of a result row's column `col` into row.
 *  @return 0, or -1 after a message (the index is damaged). */
static int read_row(sqlite3_stmt *stmt, int col, struct index_row *row)
{
    const void *meta = sqlite3_column_blob(stmt, col);
    if (index_row_unpack(meta, (size_t)sqlite3_column_bytes(stmt, col), row) < 0) {
        fprintf(stderr,
                "%s: the index holds a row whose metadata cannot be read: it is damaged; "
                "remove it and run update again\n",
                tool_name);
        return -1;
    }
    return 0;
}

/** The parameters of one row: id, name, meta and node. */
#define ROW_PARAMS 4

/**
 * Binds the packed metadata ?3 (packed into meta, INDEX_ROW_PACKED_MAX bytes, which must
 * outlive the statement's step) and the node ?4 (0: NULL), each numbered `base` higher (a
 * batched insert's later rows).
 */
static void bind_row(sqlite3_stmt *stmt, int base, const struct index_row *row, int64_t node,
                     unsigned char *meta)
{
    size_t len = index_row_pack(row, meta);
    sqlite3_bind_blob(stmt, base + 3, meta, (int)len, SQLITE_STATIC);
    if (node != 0) {
        sqlite3_bind_int64(stmt, base + 4, node);
    } else {
        sqlite3_bind_null(stmt, base + 4);
    }
}

/** The SQL of an insert of INSERT_BATCH rows (parameters numbered in order). */
static char *insert_batch_sql(void)
{
    static const char head[] = "INSERT INTO entries(id, name, meta, node) VALUES ";
    // "(?,?, ... ?)," per row: two bytes a parameter, three more for the brackets and comma.
    size_t row_len = 2 * ROW_PARAMS + 2;
    char *sql = malloc(sizeof(head) + INSERT_BATCH * row_len);
    if (sql == NULL) {
        return NULL;
    }
    char *p = sql + sizeof(head) - 1;
    memcpy(sql, head, sizeof(head) - 1);
    for (size_t r = 0; r < INSERT_BATCH; r++) {
        *p++ = r == 0 ? '(' : ',';
        if (r > 0) {
            *p++ = '(';
        }
        for (int k = 0; k < ROW_PARAMS; k++) {
            *p++ = '?';
            *p++ = k + 1 < ROW_PARAMS ? ',' : ')';
        }
    }
    *p = '\0';
    return sql;
}

static int prepare_all(struct update *u)
{
    static const char insert_sql[] =
        "INSERT INTO entries(id, name, meta, node) VALUES (?1, ?2, ?3, ?4)";
    static const char update_sql[] = "UPDATE entries SET meta = ?3, node = ?4 WHERE id = ?1";
    static const char fetch_sql[] = "SELECT name, meta FROM entries WHERE id = ?";
    char *batch_sql = insert_batch_sql();
    if (batch_sql == NULL) {
        return out_of_memory();
    }
    int rc = sqlite3_prepare_v2(u->db, batch_sql, -1, &u->insert_batch, NULL);
    free(batch_sql);
    if (rc != SQLITE_OK ||
        sqlite3_prepare_v2(u->db, insert_sql, -1, &u->insert, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(u->db, update_sql, -1, &u->update, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(u->db, "DELETE FROM entries WHERE id = ?", -1, &u->remove, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(u->db, fetch_sql, -1, &u->fetch, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(u->db,
                           "SELECT id FROM entries WHERE id >= ?1 AND id < ?2 "
                           "ORDER BY id DESC LIMIT 1",
                           -1, &u->last_in_dir, NULL) != SQLITE_OK) {
        return index_db_fail(u->db, "preparing statements");
    }
    return 0;
}

static void finalize_all(struct update *u)
{
    sqlite3_stmt **all[] = {&u->insert, &u->insert_batch, &u->update,
                            &u->remove, &u->fetch,        &u->last_in_dir};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        sqlite3_finalize(*all[i]);
        *all[i] = NULL;
    }
}

/** Makes (dir, name)'s key in u->key. @return its length, or 0 when out of memory. */
static size_t make_key(struct update *u, int64_t dir, const char *name, size_t len)
{
    if (tool_reserve_chars(&u->key, &u->key_cap, INDEX_KEY_DIR_BYTES + len + 1) < 0) {
        return 0;
    }
    index_key_make(u->key, dir, name, len);
    return INDEX_KEY_DIR_BYTES + len;
}

/** @return the name of a key (`len` its length), its length in *name_len. */
static const char *key_name(const char *key, size_t len, size_t *name_len)
{
    *name_len = len - INDEX_KEY_DIR_BYTES;
    return key + INDEX_KEY_DIR_BYTES;
}

/** Loads every stored row into the map. @return 0 or -1. */
static int load_rows(struct update *u, int64_t expected, int64_t key_bytes)
{
    sqlite3_stmt *stmt;
    if (expected > 0 && index_map_reserve(&u->map, (size_t)expected, (size_t)key_bytes) < 0) {
        return out_of_memory();
    }
    if (sqlite3_prepare_v2(u->db, "SELECT id, name, meta FROM entries", -1, &stmt, NULL) !=
        SQLITE_OK) {
        return index_db_fail(u->db, "reading the index");
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        struct index_row row = {.id = sqlite3_column_int64(stmt, 0)};
        if (read_row(stmt, 2, &row) < 0) {
            sqlite3_finalize(stmt);
            return -1;
        }
        const void *name = sqlite3_column_blob(stmt, 1);
        int len = sqlite3_column_bytes(stmt, 1);
        size_t klen =
            name != NULL && len > 0 ? make_key(u, index_entry_dir(row.id), name, (size_t)len) : 0;
        if (klen == 0 || index_map_add(&u->map, u->key, klen, &row) < 0) {
            sqlite3_finalize(stmt);
            fprintf(stderr, "%s: %s\n", tool_name,
                    name == NULL && len > 0 ? "out of memory"
                    : len <= 0              ? "the index holds an empty name: it is damaged; "
                                              "remove it and run update again"
                                            : "out of memory");
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

/** Notes a row of the index as it stands after this update, for the next snapshot. */
static int keep_in_next(struct update *u, uint64_t key_hash, const struct index_row *row,
                        int64_t id)
{
    return index_snapshot_push(&u->next, key_hash, index_row_digest(row), id) < 0 ? out_of_memory()
                                                                                  : 0;
}

/** Appends one event of this generation to the history. @return 0 or -1. */
static int add_event(struct update *u, enum index_change change, unsigned type, const char *key,
                     size_t klen, const char *other, size_t other_len)
{
    struct index_event e = {
        .dir = index_key_dir(key),
        .change = (uint8_t)change,
        .type = (uint8_t)type,
        .has_other = other != NULL,
    };
    e.name = key_name(key, klen, &e.name_len);
    if (other != NULL) {
        e.other_dir = index_key_dir(other);
        e.other = key_name(other, other_len, &e.other_len);
    }
    return index_history_add(&u->history, &e);
}

/**
 * The row in `dirs` of a directory the walk met, looked up (or added) once: the nodes
 * above it not looked up yet first, from the top down (a loop: any depth, no stack).
 * @return its id, or -1 after a message.
 */
static int64_t node_dir(struct update *u, struct index_dnode *node)
{
    size_t n = 0;
    struct index_dnode *m = node;
    for (; m != NULL && m->dir_id == 0; m = m->parent) {
        if (nodes_reserve(&u->chain, &u->chain_cap, n + 1) < 0) {
            return out_of_memory();
        }
        u->chain[n++] = m;
    }
    int64_t id = m != NULL ? m->dir_id : 0;
    while (n-- > 0) {
        id = index_dirs_intern(&u->dirs, id, u->chain[n]->name, u->chain[n]->name_len);
        if (id < 0) {
            return -1;
        }
        u->chain[n]->dir_id = id;
    }
    return id;
}

/**
 * Where a walked entry goes: its directory's id and its name (a path-form record's path is
 * split, its directories looked up part by part). @return 0, or -1 after a message.
 */
static int rec_place(struct update *u, const struct index_rec *r, const char *arena, int64_t *dir,
                     const char **name, size_t *len)
{
    const char *text = arena + r->name_off;
    if (!r->path_form) {
        *name = text;
        *len = r->name_len;
        *dir = r->parent != NULL ? node_dir(u, r->parent) : 0;
        return *dir < 0 ? -1 : 0;
    }
    size_t n = r->name_len;
    while (n > 1 && text[n - 1] == '/') {
        n--;
    }
    size_t start = n;
    while (start > 0 && text[start - 1] != '/') {
        start--;
    }
    if (start == n) { // "/"
        *dir = 0;
        *name = "/";
        *len = 1;
        return 0;
    }
    *name = text + start;
    *len = n - start;
    *dir = start > 0 ? index_dirs_at(&u->dirs, text, start, true) : 0;
    return *dir < 0 ? -1 : 0;
}

/** The row in `dirs` of a walked directory itself (0 for anything else). @return -1 on error. */
static int64_t rec_node(struct update *u, const struct index_rec *r, int64_t dir, const char *name,
                        size_t len)
{
    if (r->row.type != FRD_TYPE_DIR) {
        return 0;
    }
    return r->self != NULL ? node_dir(u, r->self) : index_dirs_intern(&u->dirs, dir, name, len);
}

/**
 * A new rowid in directory `dir`: one past the last one it holds, looked up once per
 * directory and update; when the numbers run out (four billion entries made in one
 * directory, while the last one stays), the first free one. @return it, or -1 (message).
 */
static int64_t new_entry_id(struct update *u, int64_t dir)
{
    struct index_dir *slot = NULL;
    uint32_t next = u->root_next_seq;
    if (dir != 0) {
        bool failed = false;
        slot = index_dirs_get(&u->dirs, dir, &failed);
        if (slot == NULL) {
            fprintf(stderr, "%s: internal: directory %lld is not known\n", tool_name,
                    (long long)dir);
            return -1;
        }
        next = slot->next_seq;
    }
    if (next == 0 || next == UINT32_MAX) {
        // Look in the table: the last id in the directory's range, or the first gap.
        next = 1;
        sqlite3_bind_int64(u->last_in_dir, 1, index_entry_id(dir, 0));
        sqlite3_bind_int64(u->last_in_dir, 2, index_entry_id(dir + 1, 0));
        int rc = u->fresh ? SQLITE_DONE : sqlite3_step(u->last_in_dir);
        if (rc == SQLITE_ROW) {
            next = (uint32_t)(sqlite3_column_int64(u->last_in_dir, 0) & 0xffffffff) + 1;
        }
        sqlite3_reset(u->last_in_dir);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            return index_db_fail(u->db, "reading the index");
        }
        if (next == 0 || next == UINT32_MAX) {
            sqlite3_stmt *stmt;
            if (sqlite3_prepare_v2(u->db, "SELECT id FROM entries WHERE id > ?1 AND id < ?2", -1,
                                   &stmt, NULL) != SQLITE_OK) {
                return index_db_fail(u->db, "reading the index");
            }
            sqlite3_bind_int64(stmt, 1, index_entry_id(dir, 0));
            sqlite3_bind_int64(stmt, 2, index_entry_id(dir, UINT32_MAX));
            next = 1;
            while (sqlite3_step(stmt) == SQLITE_ROW &&
                   (uint32_t)(sqlite3_column_int64(stmt, 0) & 0xffffffff) == next) {
                next++;
            }
            sqlite3_finalize(stmt);
            if (next == UINT32_MAX) {
                fprintf(stderr, "%s: a directory holds more entries than an index can\n",
                        tool_name);
                return -1;
            }
        }
    }
    int64_t id = index_entry_id(dir, next);
    if (slot != NULL) {
        slot->next_seq = next + 1;
    } else {
        u->root_next_seq = next + 1;
    }
    return id;
}

static int cmp_pending(const void *a, const void *b)
{
    int64_t x = ((const struct pending_insert *)a)->id, y = ((const struct pending_insert *)b)->id;
    return (x > y) - (x < y);
}

/**
 * Inserts the new rows of HELD_BATCHES of the walk's batches in the order of their ids,
 * INSERT_BATCH by one statement (the rest one by one). A worker's batch holds the
 * directories it listed in turn, whose ranges of ids need not rise, and the workers'
 * batches interleave: inserted as they came, a directory's rows could go before the last
 * one's, splitting b-tree pages in the middle; in order they fill pages more as appends
 * do (2,078,300-entry tree: a database of 368 MB, not 399 MB, with one batch at a time,
 * 355 MB with 8, 350-353 MB with 32; callgrind of an update of /tmp/ub: 704 M
 * instructions, 682 M with one batch).
 * Their names and rows live in the walk's batches: flushed before they are recycled.
 * @return 0 or -1 (message printed).
 */
static int flush_inserts(struct update *u)
{
    size_t n = u->ninserts;
    u->ninserts = 0;
    qsort(u->inserts, n, sizeof(*u->inserts), cmp_pending);
    // Their names' trigrams in the same order, each list taking one ascending run of them.
    for (size_t i = 0; i < n; i++) {
        const struct pending_insert *p = &u->inserts[i];
        if (index_postings_add(&u->postings, p->id, p->name, p->len) < 0) {
            return out_of_memory();
        }
    }
    if (index_postings_flush(&u->postings) < 0) {
        return out_of_memory();
    }
    unsigned char meta[INSERT_BATCH][INDEX_ROW_PACKED_MAX];
    for (size_t at = 0; at < n; at += INSERT_BATCH) {
        size_t m = n - at < INSERT_BATCH ? n - at : INSERT_BATCH;
        bool whole = m == INSERT_BATCH;
        sqlite3_stmt *stmt = whole ? u->insert_batch : u->insert;
        for (size_t i = 0; i < m; i++) {
            const struct pending_insert *p = &u->inserts[at + i];
            int base = whole ? (int)i * ROW_PARAMS : 0;
            sqlite3_bind_int64(stmt, base + 1, p->id);
            sqlite3_bind_blob(stmt, base + 2, p->name, (int)p->len, SQLITE_STATIC);
            bind_row(stmt, base, p->row, p->node, meta[i]);
            if (!whole && step_write(u, stmt, "adding an entry") < 0) {
                return -1;
            }
        }
        if (whole) {
            int rc = sqlite3_step(stmt);
            sqlite3_reset(stmt);
            if (rc != SQLITE_DONE) {
                return index_db_fail(u->db, "adding an entry");
            }
            for (size_t i = 0; i < m; i++) {
                row_written(u);
            }
        }
    }
    return 0;
}

/** Inserts an entry the index did not have. @return 0 or -1. */
static int insert_rec(struct update *u, const struct index_rec *r, int64_t dir, const char *name,
                      size_t len, uint64_t key_hash)
{
    if (r->failed) {
        return 0; // nothing known about it yet: index it once it can be stat'ed
    }
    int64_t node = rec_node(u, r, dir, name, len);
    int64_t id = node < 0 ? -1 : new_entry_id(u, dir);
    if (id < 0) {
        return -1;
    }
    if (pending_reserve(&u->inserts, &u->inserts_cap, u->ninserts + 1) < 0) {
        return out_of_memory();
    }
    u->inserts[u->ninserts++] =
        (struct pending_insert){.id = id, .node = node, .name = name, .len = len, .row = &r->row};
    u->counts[INDEX_ADDED]++;
    size_t klen = make_key(u, dir, name, len);
    if (klen == 0) {
        return out_of_memory();
    }
    u->inserted_key_bytes += klen + 1;
    if (u->track_added && r->row.persistent) {
        // Perhaps a rename: its event is written once the renames are known.
        struct index_row row = r->row;
        row.id = id;
        if (index_added_push(&u->added, &row, u->key, klen) < 0) {
            return out_of_memory();
        }
    } else if (add_event(u, INDEX_ADDED, r->row.type, u->key, klen, NULL, 0) < 0) {
        return -1;
    }
    // The digest the worker made of this very row.
    return index_snapshot_push(&u->next, key_hash, r->digest, id) < 0 ? out_of_memory() : 0;
}

/** Writes what changed for an entry the index had (`old`). @return 0 or -1. */
static int update_rec(struct update *u, const struct index_rec *r, const struct index_row *old,
                      struct index_item *item, int64_t dir, const char *name, size_t len)
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
    int64_t node = rec_node(u, r, dir, name, len);
    if (node < 0) {
        return -1;
    }
    unsigned char meta[INDEX_ROW_PACKED_MAX];
    sqlite3_bind_int64(u->update, 1, old->id);
    bind_row(u->update, 0, &r->row, node, meta);
    if (step_write(u, u->update, "updating an entry") < 0) {
        return -1;
    }
    size_t klen = make_key(u, dir, name, len);
    return klen == 0 ? out_of_memory() : add_event(u, change, r->row.type, u->key, klen, NULL, 0);
}

/** Compares one walked entry with the loaded rows and writes what differs. @return 0 or -1. */
static int apply_rec_map(struct update *u, const struct index_rec *r, int64_t dir, const char *name,
                         size_t len)
{
    size_t klen = make_key(u, dir, name, len);
    if (klen == 0) {
        return out_of_memory();
    }
    uint64_t hash = index_key_hash(u->key, klen);
    struct index_item *item = index_map_find_hashed(&u->map, u->key, klen, hash);
    if (item == NULL) {
        return insert_rec(u, r, dir, name, len, hash);
    }
    if (item->mark != INDEX_MARK_UNSEEN) {
        return 0; // met twice (a root inside another): once is enough
    }
    item->mark = INDEX_MARK_SEEN;
    if (r->failed) {
        return keep_in_next(u, hash, &item->row, item->row.id); // keep what the index knew
    }
    if (update_rec(u, r, &item->row, item, dir, name, len) < 0) {
        return -1;
    }
    return keep_in_next(u, hash, &r->row, item->row.id);
}

/**
 * Reads row `id` back: its metadata into *row and its key into u->key (*klen).
 * @return 0, or -1 after a message.
 */
static int fetch_row(struct update *u, int64_t id, struct index_row *row, size_t *klen)
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
    if (read_row(u->fetch, 1, row) < 0) {
        return -1;
    }
    const char *name = sqlite3_column_blob(u->fetch, 0);
    int len = sqlite3_column_bytes(u->fetch, 0);
    if (name == NULL || len <= 0) {
        return index_db_fail(u->db, "reading an entry");
    }
    *klen = make_key(u, index_entry_dir(id), name, (size_t)len);
    return *klen == 0 ? out_of_memory() : 0;
}

/** Compares one walked entry with the snapshot; reads a row only if it changed. */
static int apply_rec_snap(struct update *u, const struct index_rec *r, int64_t dir,
                          const char *name, size_t len)
{
    size_t klen = make_key(u, dir, name, len);
    if (klen == 0) {
        return out_of_memory();
    }
    uint64_t hash = index_key_hash(u->key, klen);
    long i = index_snapshot_find(&u->snap, hash);
    if (i < 0) {
        return insert_rec(u, r, dir, name, len, hash);
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
    size_t stored_len;
    if (fetch_row(u, s->id, &old, &stored_len) < 0) {
        return -1;
    }
    if (index_entry_dir(s->id) != dir || stored_len != klen ||
        memcmp(u->key + INDEX_KEY_DIR_BYTES, name, len) != 0) {
        return insert_rec(u, r, dir, name, len, hash); // another entry with the same hash
    }
    u->snap.seen[i] = 1;
    // Keep the old row in the map: if it was replaced, its file may have moved (renames).
    long item = index_map_add(&u->map, u->key, klen, &old);
    if (item < 0) {
        return out_of_memory();
    }
    u->map.items[item].mark = INDEX_MARK_SEEN;
    if (update_rec(u, r, &old, &u->map.items[item], dir, name, len) < 0) {
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
        size_t klen = 0;
        if (fetch_row(u, u->snap.entries[i].id, &row, &klen) < 0) {
            return -1;
        }
        if (index_map_add(&u->map, u->key, klen, &row) < 0) {
            return out_of_memory();
        }
    }
    return 0;
}

/**
 * Keeps the unseen rows at and below the paths the walk could not read (a directory that
 * cannot be listed now has not lost its files). @return 0 or -1.
 */
static int keep_failed(struct update *u, const struct index_collect *c)
{
    for (size_t f = 0; f < c->nfailed; f++) {
        const char *path = c->failed[f];
        size_t len = strlen(path);
        while (len > 1 && path[len - 1] == '/') {
            len--;
        }
        size_t start = len;
        while (start > 0 && path[start - 1] != '/') {
            start--;
        }
        // The failed path as a key (its directory and name), and as a directory.
        int64_t dir = start > 0 ? index_dirs_at(&u->dirs, path, start, false) : 0;
        int64_t below = index_dirs_at(&u->dirs, path, len, false);
        if (dir < 0 || below < 0) {
            return -1;
        }
        const char *name = start == len ? "/" : path + start;
        size_t name_len = start == len ? 1 : len - start;
        bool keyed = start == 0 || start == len || dir > 0;
        for (size_t i = 0; i < u->map.count; i++) {
            struct index_item *item = &u->map.items[i];
            if (item->mark != INDEX_MARK_UNSEEN) {
                continue;
            }
            const char *key = index_item_key(&u->map, item);
            int64_t item_dir = index_key_dir(key);
            bool same = keyed && item_dir == dir &&
                        item->key_len == INDEX_KEY_DIR_BYTES + name_len &&
                        memcmp(key + INDEX_KEY_DIR_BYTES, name, name_len) == 0;
            if (same || (below > 0 && index_dirs_under(&u->dirs, item_dir, below))) {
                item->mark = INDEX_MARK_KEPT;
            }
        }
    }
    return 0;
}

/** Deletes the row of a stored entry, with its trigrams. @return 0 or -1. */
static int delete_item(struct update *u, const struct index_item *item, const char *what)
{
    size_t name_len;
    const char *name = key_name(index_item_key(&u->map, item), item->key_len, &name_len);
    sqlite3_bind_int64(u->remove, 1, item->row.id);
    if (step_write(u, u->remove, what) < 0) {
        return -1;
    }
    return index_postings_remove(&u->postings, item->row.id, name, name_len) < 0 ? out_of_memory()
                                                                                 : 0;
}

/**
 * Matches renames, then writes them, the events of the added entries held back until now,
 * and the removals. @return 0 or -1.
 */
static int write_renames_and_removals(struct update *u)
{
    size_t npairs;
    bool failed;
    struct index_rename *pairs =
        index_match_renames(&u->map, &u->added, &u->dirs, &npairs, &failed);
    // One more than needed: never a null array (index_match_renames pairs added entries only).
    size_t nadded = u->added.count;
    long *pair_of = malloc((nadded + 1) * sizeof(*pair_of));
    if (failed || pair_of == NULL) {
        free(pairs);
        free(pair_of);
        return out_of_memory();
    }
    for (size_t t = 0; t <= nadded; t++) {
        pair_of[t] = -1;
    }
    int result = 0;
    for (size_t p = 0; p < npairs && result == 0; p++) {
        struct index_item *src = &u->map.items[pairs[p].source];
        const struct index_added_entry *a = &u->added.entries[pairs[p].target];
        if (src->mark == INDEX_MARK_UNSEEN) {
            src->mark = INDEX_MARK_MOVED; // its path is gone: the row goes with it
            result = delete_item(u, src, "removing a renamed entry's old row");
            if (result == 0) {
                result =
                    add_event(u, INDEX_RENAMED_AWAY, src->row.type, index_item_key(&u->map, src),
                              src->key_len, index_added_key(&u->added, a), a->key_len);
            }
        }
        pair_of[pairs[p].target] = (long)p;
        u->counts[INDEX_ADDED]--;
        u->counts[pairs[p].change]++;
    }
    for (size_t t = 0; t < nadded && result == 0; t++) {
        const struct index_added_entry *a = &u->added.entries[t];
        const char *key = index_added_key(&u->added, a);
        if (pair_of[t] < 0) {
            result = add_event(u, INDEX_ADDED, a->row.type, key, a->key_len, NULL, 0);
        } else {
            const struct index_rename *pr = &pairs[pair_of[t]];
            const struct index_item *src = &u->map.items[pr->source];
            result = add_event(u, pr->change, a->row.type, key, a->key_len,
                               index_item_key(&u->map, src), src->key_len);
        }
    }
    free(pairs);
    free(pair_of);
    for (size_t i = 0; i < u->map.count && result == 0; i++) {
        struct index_item *item = &u->map.items[i];
        if (item->mark != INDEX_MARK_UNSEEN) {
            continue;
        }
        result = delete_item(u, item, "removing an entry");
        if (result == 0) {
            result = add_event(u, INDEX_REMOVED, item->row.type, index_item_key(&u->map, item),
                               item->key_len, NULL, 0);
        }
        u->counts[INDEX_REMOVED]++;
    }
    return result;
}

/** Writes the last events and notes when the update ran. @return 0 or -1. */
static int write_history(struct update *u)
{
    if (index_history_finish(&u->history) < 0) {
        return -1;
    }
    sqlite3_stmt *stmt;
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

static int write_meta_and_roots(struct update *u, char **roots, size_t nroots, int64_t entries)
{
    if (index_db_meta_set(u->db, "generation", u->generation) < 0 ||
        index_db_meta_set(u->db, "entries", entries) < 0 ||
        index_db_meta_set(u->db, "updated_ns", now_ns()) < 0 ||
        // A size hint only (it counts removed entries too): the next load reserves this much.
        index_db_meta_set(u->db, "path_bytes",
                          (int64_t)(u->map.arena_len + u->inserted_key_bytes)) < 0) {
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
    struct index_batch *held[HELD_BATCHES];
    size_t nheld = 0;
    struct index_batch *b;
    do {
        b = index_collect_next(c);
        for (size_t i = 0; b != NULL && i < b->count && result == 0; i++) {
            const struct index_rec *r = &b->recs[i];
            int64_t dir;
            const char *name;
            size_t len;
            result = rec_place(u, r, b->arena, &dir, &name, &len);
            if (result == 0) {
                result = u->snap_mode ? apply_rec_snap(u, r, dir, name, len)
                                      : apply_rec_map(u, r, dir, name, len);
            }
        }
        if (b != NULL) {
            held[nheld++] = b;
        }
        if (nheld == HELD_BATCHES || (b == NULL && nheld > 0)) {
            // Their new rows hold names in them: inserted before they go back to the walk.
            if (result == 0 && u->ninserts > 0) {
                result = flush_inserts(u);
            }
            u->ninserts = 0;
            while (nheld > 0) {
                index_collect_recycle(c, held[--nheld]);
            }
        }
    } while (b != NULL);
    return result;
}

/**
 * Test hook: FRDINDEX_TEST_KILL_AT=POINT kills the update with SIGKILL when it reaches
 * POINT ("made": a new database's temporary file made; "merging": the trigram lists' runs
 * being merged on another thread, before the lists are written;
 * "committed": its transaction committed, before the rename), to show what a kill there
 * leaves.
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
    u.fresh = expected == 0;
    u.postings.fresh = u.fresh;
    u.history = (struct index_history_writer){.db = u.db, .gen = u.generation};
    bool ok =
        snap >= 0 &&
        (u.snap_mode ? check_count(&u, expected) : load_rows(&u, expected, path_bytes)) == 0 &&
        index_dirs_load(&u.dirs, u.db) == 0 && prepare_all(&u) == 0;
    u.track_added = expected > 0;
    double t_loaded = mono_seconds();
    ok = drain(&u, &collect, ok) == 0 && ok;
    int walked = index_collect_finish(&collect);
    joined = true;
    if (ok) {
        // Most of a new database is written by now (its rows): out to the disk meanwhile.
        index_file_flush_start(&file);
    }
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
    if (keep_failed(&u, &collect) < 0) {
        goto rollback;
    }
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
    double t_changes = mono_seconds();
    if (index_postings_seal(&u.postings) < 0) {
        goto rollback;
    }
    index_runs_merge_start(&u.merge, u.postings.lists, u.postings.count);
    u.merging = true;
    if (write_history(&u) < 0 || write_meta_and_roots(&u, roots, nroots, entries) < 0 ||
        write_snapshot(&u, entries) < 0) {
        goto rollback;
    }
    kill_point("merging");
    double t_trigrams = mono_seconds();
    u.merging = false;
    if (index_runs_merge_finish(&u.merge) < 0) {
        out_of_memory();
        goto rollback;
    }
    if (index_postings_write(&u.postings, u.db) < 0 || index_dirs_flush(&u.dirs) < 0) {
        goto rollback;
    }
    finalize_all(&u);
    index_dirs_free(&u.dirs); // its statements too: SQLite closes only once all are finalized
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
                "renames and removals %.3f s; history and snapshot %.3f s; trigram lists "
                "%.3f s; commit %.3f s\n",
                tool_name, u.snap_mode ? "snapshot of" : "loaded",
                u.snap_mode ? u.snap.count : u.map.count, t_loaded - t_start, t_walked - t_loaded,
                t_changes - t_walked, t_trigrams - t_changes, t_written - t_trigrams,
                mono_seconds() - t_written);
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
    if (u.merging) {
        index_runs_merge_finish(&u.merge); // the helper reads the lists freed below
    }
    finalize_all(&u);
    index_dirs_free(&u.dirs);
    index_history_discard(&u.history);
    sqlite3_exec(u.db, "ROLLBACK", NULL, NULL, NULL);
done:
    if (collecting) {
        index_collect_free(&collect);
    }
    index_map_free(&u.map);
    index_dirs_free(&u.dirs);
    index_history_discard(&u.history);
    index_postings_free(&u.postings);
    free(u.key);
    free(u.chain);
    free(u.inserts);
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
