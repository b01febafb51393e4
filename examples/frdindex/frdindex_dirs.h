// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The directories of an index: table `dirs`, one row per directory path the index has ever
 * held, a parent link and a name, never deleted (the history names paths by them). Entries
 * are keyed by their directory and their name; their rowid is built from the directory too:
 *
 *   entries.id = dir << 32 | seq      (seq: 1, 2, ... within the directory)
 *
 * so a directory's entries are one range of the table (a scan in rowid order meets them
 * together, and "everything in directory D" is a range), and a path costs its name, not
 * each of its ancestors' names again: a chain 20,000 directories deep stores 20,000 names.
 *
 * A path's parts: the directory "/" is a row (parent 0, name "/"), "/usr" a row (parent
 * "/", name "usr"), and so on; the root "/" itself, as an entry, is (dir 0, name "/").
 * A path is its directory's path, then "/" (unless that path is "/"), then the name.
 *
 * In memory (struct index_dirs), either every row (loaded at once: an update, `changes`, a
 * scan) or those looked up so far (a query by the trigram index, which reads a row when it
 * first needs it).
 */
#ifndef FRD_EXAMPLES_FRDINDEX_DIRS_H
#define FRD_EXAMPLES_FRDINDEX_DIRS_H

#include "hash.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** The largest directory id: ids times 2^32 stay below 2^63. */
#define INDEX_DIR_MAX ((int64_t)INT32_MAX)

/** @return an entry's rowid from its directory and its number there. */
static inline int64_t index_entry_id(int64_t dir, uint32_t seq)
{
    return (int64_t)((uint64_t)dir << 32 | seq);
}

/** @return the directory an entry's rowid belongs to. */
static inline int64_t index_entry_dir(int64_t id)
{
    return (int64_t)((uint64_t)id >> 32);
}

/**
 * An entry's key: its directory (8 bytes, little-endian) then its name. Two entries have the
 * same path exactly when their keys are equal; the update's maps and the snapshot use keys
 * where they used to use paths.
 */
#define INDEX_KEY_DIR_BYTES 8

/** Writes the key of (dir, name) into `key` (INDEX_KEY_DIR_BYTES + len bytes). */
static inline void index_key_make(char *key, int64_t dir, const char *name, size_t len)
{
    uint64_t d = (uint64_t)dir;
    for (int i = 0; i < INDEX_KEY_DIR_BYTES; i++) {
        key[i] = (char)(d >> (8 * i));
    }
    memcpy(key + INDEX_KEY_DIR_BYTES, name, len);
}

/** @return the directory of a key. */
static inline int64_t index_key_dir(const char *key)
{
    uint64_t d = 0;
    for (int i = 0; i < INDEX_KEY_DIR_BYTES; i++) {
        d |= (uint64_t)(unsigned char)key[i] << (8 * i);
    }
    return (int64_t)d;
}

/** One directory: a row of table `dirs`. */
struct index_dir {
    int64_t id;
    int64_t parent; /**< 0: none (the name is "/", or a relative path's first part) */
    uint64_t name_off;
    uint32_t name_len;
    uint32_t next_seq; /**< update: the next free entry number in it; 0 not known yet */
};

/** The directories in memory. Zero-initialise, then index_dirs_load() or _lazy(). */
struct index_dirs {
    struct index_dir *dirs;
    size_t count, cap;
    char *names;
    size_t names_len, names_cap;
    struct tool_hash by_id;   /**< uint32 slot numbers, by id */
    struct tool_hash by_name; /**< the same, by (parent, name) */
    int64_t max_id;
    /** set before loading: no lookup by name will be made (a query), so none is kept */
    bool ids_only;
    sqlite3 *db;
    sqlite3_stmt *insert;       /**< index_dirs_flush(): one row */
    sqlite3_stmt *insert_batch; /**< index_dirs_flush(): INDEX_DIRS_BATCH rows */
    sqlite3_stmt *fetch;        /**< lazy mode: a row by id */
    /** the first slot of `dirs` added by index_dirs_intern() and not written yet */
    size_t unwritten;
};

/** Loads every row of `dirs`. @return 0, or -1 after a message. */
int index_dirs_load(struct index_dirs *d, sqlite3 *db);

/** Reads rows only as index_dirs_get() asks for them. @return 0, or -1 after a message. */
int index_dirs_lazy(struct index_dirs *d, sqlite3 *db);

/** Frees what `d` holds. */
void index_dirs_free(struct index_dirs *d);

/**
 * @return the directory with this id (valid until the next call that adds one), or NULL
 * when there is none; in lazy mode a row not read yet is read (NULL, *failed set after a
 * message, on a database error or when out of memory).
 */
struct index_dir *index_dirs_get(struct index_dirs *d, int64_t id, bool *failed);

/** @return a directory's name. */
static inline const char *index_dir_name(const struct index_dirs *d, const struct index_dir *dir)
{
    return d->names + dir->name_off;
}

/** @return the id of the directory `name` in `parent` (0: none), or 0 if there is none. */
int64_t index_dirs_find(const struct index_dirs *d, int64_t parent, const char *name, size_t len);

/**
 * Finds the directory `name` in `parent`, or adds it: at once in memory, and as a row of
 * table `dirs` in the current transaction with the next INDEX_DIRS_BATCH added (one
 * statement for them all), or at index_dirs_flush(). @return its id, or -1 after a message.
 */
int64_t index_dirs_intern(struct index_dirs *d, int64_t parent, const char *name, size_t len);

/**
 * Writes the rows index_dirs_intern() added and has not written yet: to be called before
 * the transaction commits, and before the table is read with SQL. @return 0, or -1 after a
 * message.
 */
int index_dirs_flush(struct index_dirs *d);

/**
 * Finds (or with `create`, adds) the directory at an absolute or relative path, part by
 * part, with empty parts ("//") skipped. @return its id; 0 when it is not there (without
 * `create`) or the path has no part; -1 after a message.
 */
int64_t index_dirs_at(struct index_dirs *d, const char *path, size_t len, bool create);

/**
 * Appends the path of directory `dir` (0: nothing) and then, if `name` is not NULL, the
 * entry `name` in it, to `*buf` (a growable buffer of `*len` bytes used, NUL-terminated).
 * @return 0, or -1 after a message (out of memory, a missing row: a damaged index).
 */
int index_dirs_path(struct index_dirs *d, int64_t dir, const char *name, size_t name_len,
                    char **buf, size_t *len, size_t *cap);

/** @return whether directory `dir` is `ancestor` or below it (all rows loaded). */
bool index_dirs_under(struct index_dirs *d, int64_t dir, int64_t ancestor);

#endif // FRD_EXAMPLES_FRDINDEX_DIRS_H
