// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdindex's shared declarations: entry records, the change kinds, and each module's API. */
#ifndef FRD_EXAMPLES_FRDINDEX_H
#define FRD_EXAMPLES_FRDINDEX_H

#include <frd.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What one entry looked like when it was indexed: the columns of table `entries`. */
struct index_row {
    int64_t id;       /**< rowid in `entries`; 0 before it is written */
    uint64_t size;    /**< bytes */
    int64_t mtime_ns; /**< ns since the epoch */
    int64_t ctime_ns; /**< ns since the epoch */
    uint64_t file_id; /**< inode number */
    uint64_t dev;     /**< device */
    uint32_t mode;    /**< the full mode: type bits and permissions */
    uint8_t type;     /**< enum frd_type */
    bool persistent;  /**< the volume's file ids survive a remount (rename detection) */
    // The rest of what frd_entry_same() compares, so that it decides "unchanged".
    uint32_t nlink;            /**< hard link count */
    uint32_t uid;              /**< owner */
    uint32_t gid;              /**< group */
    int64_t btime_ns;          /**< birth time, where the file system keeps it */
    uint64_t rdev;             /**< device number of a device file */
    uint32_t attributes;       /**< enum frd_attr bits set */
    uint32_t attributes_known; /**< enum frd_attr bits reported */
    uint32_t fields;           /**< enum frd_field bits: which of the above hold data */
};

/**
 * Fills `e` with a row's metadata (name empty, error 0), for frd_entry_same().
 */
void index_row_entry(const struct index_row *row, struct frd_entry *e);

/**
 * What an update found for an entry: the `change` column of the rows written by the last
 * update (its generation), and of nothing else. The values are stored: they never change.
 */
enum index_change {
    INDEX_UNCHANGED = 0,
    INDEX_ADDED = 1,    /**< a path that was not there */
    INDEX_MODIFIED = 2, /**< same file, size or mtime changed */
    /** same file, only its status changed: ctime, mode, owner, links, attributes ... */
    INDEX_METADATA = 3,
    INDEX_REPLACED = 4, /**< same path, another file (new file id, device or type) */
    INDEX_RENAMED = 5,  /**< a file that was at old_path, unchanged, now here */
    /** renamed only because a directory above it was renamed (shown with --all) */
    INDEX_RENAMED_WITH_PARENT = 6,
    INDEX_REMOVED = 7, /**< only in table `history` */
    /** history only: this path's file, unchanged, was renamed to `other_path` */
    INDEX_RENAMED_AWAY = 8,
};

/** @return the word `changes` prints for a kind: "added", "removed", ... */
const char *index_change_name(enum index_change change);

/** @return find's %y letter for an enum frd_type value: f d l p s c b, or U. */
char index_type_letter(unsigned type);

/* ---- frdindex_db.c: opening, checking and creating the database ---------------------- */

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

/** @return the database's schema version (2 or this one's), or -1 on a read error. */
int index_db_schema(sqlite3 *db);

/** Reads an integer from table `meta`. @return 0 (with *out set; 0 if absent) or -1. */
int index_db_meta_get(sqlite3 *db, const char *key, int64_t *out);

/** Writes an integer to table `meta`. @return 0 or -1. */
int index_db_meta_set(sqlite3 *db, const char *key, int64_t value);

/** Prints "frdindex: WHAT: sqlite's message" for the last error on db. @return -1. */
int index_db_fail(sqlite3 *db, const char *what);

struct index_excludes;

/* ---- frdindex_update.c ---------------------------------------------------------------- */

/**
 * A walk in place of frd_walk_roots() for `update` (frdmpi's index walks across MPI ranks):
 * the same arguments and return value, plus `arg`. It runs on the update's walk thread.
 */
typedef int index_walk_fn(const char *const *roots, size_t nroots,
                          const struct frd_walk_options *opts, frd_visit_fn *visit, void *udata,
                          void *arg);

/** Options of `frdindex update`. */
struct index_update_options {
    const char *db_path;
    const char *const *roots; /**< NULL: the roots stored by the last update */
    size_t nroots;
    unsigned workers;     /**< 0: the walker's default */
    bool one_file_system; /**< -x */
    bool quiet;           /**< -q: no summary line */
    bool verbose;         /**< -v: time each phase, on stderr */
    unsigned mode;        /**< -m: a new database's mode; 0: 0600 */
    /** --exclude, --prune*: replace the stored rules if given; filled in by the update */
    struct index_excludes *excludes;
    index_walk_fn *walk; /**< NULL: frd_walk_roots() */
    void *walk_arg;      /**< passed to walk */
    int64_t entries;     /**< set by the update: the entries the index holds after it */
};

/** Runs `frdindex update`; sets opts->entries. @return the exit status. */
int index_update(struct index_update_options *opts);

/* ---- frdindex_query.c ----------------------------------------------------------------- */

/** Options of `frdindex changes`. */
struct index_changes_options {
    const char *db_path;
    const char *since; /**< --since: a generation or a time; NULL: the last update's */
    bool json;         /**< --json */
    bool all;          /**< --all */
    bool null;         /**< -0: only the paths that exist, each ended by NUL */
};

/** Runs `frdindex changes`. @return the exit status. */
int index_changes(const struct index_changes_options *opts);

/** How `find` reads its pattern. */
enum index_regex {
    INDEX_REGEX_NONE,     /**< a glob */
    INDEX_REGEX_BASIC,    /**< -r, --regexp: a POSIX basic regular expression */
    INDEX_REGEX_EXTENDED, /**< --regex: an extended one */
};

/** Options of `frdindex find`. */
struct index_find_options {
    const char *db_path;
    /** Several databases read as one, in this order (frdmpi's per-rank set); with ndbs 0,
     *  db_path alone. */
    const char *const *db_paths;
    size_t ndbs;
    const char *pattern;
    enum index_regex regex;
    bool ignore_case; /**< -i */
    bool basename;    /**< -b: match the last name only */
    bool null;        /**< -0: end each path with NUL */
    bool count;       /**< -c: print only the number of matches */
    bool existing;    /**< -e: only paths that exist now */
    size_t limit;     /**< -l N: stop after N matches; 0: no limit */
    /** standard output is the user's terminal: escape paths as plocate does there
     *  (frdindex's own find; frdmpi's ranks write to mpirun, not to a terminal) */
    bool terminal;
};

/** Runs `frdindex find`. @return the exit status. */
int index_find(const struct index_find_options *opts);

/**
 * Parses `find`'s options (-i -b -0 -c -e -l N -r --regex ...) from argv (getopt_long from
 * optind) into *opts; the database and pattern operands are left to the caller at optind.
 * @return 0, or 2 after a usage message.
 */
int index_find_parse(int argc, char **argv, struct index_find_options *opts);

/** Runs `frdindex check DB`: SQLite's full integrity check. @return the exit status. */
int index_check(const char *db_path);

#endif // FRD_EXAMPLES_FRDINDEX_H
