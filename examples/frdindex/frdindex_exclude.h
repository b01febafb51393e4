// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * What `frdindex update` leaves out, decided from names before any stat (the walker's
 * children hook): --exclude globs, and updatedb.conf's PRUNENAMES, PRUNEPATHS and PRUNEFS;
 * and through the walk's ignore rules (frd_ignore(3)), git's (--gitignore), CACHEDIR.TAG
 * (--exclude-caches) and --exclude-if-present. Stored in the database, so later updates
 * leave out the same.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_EXCLUDE_H
#define FRD_EXAMPLES_FRDINDEX_EXCLUDE_H

#include <frd.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

/** The kinds of rule, as stored in table excludes. */
enum index_exclude_kind {
    INDEX_EXCLUDE_GLOB = 1, /**< --exclude: the name, or the full path if it holds a '/' */
    INDEX_EXCLUDE_NAME = 2, /**< --prunenames: a directory's name */
    INDEX_EXCLUDE_PATH = 3, /**< --prunepaths: a directory's full path */
    INDEX_EXCLUDE_FS = 4,   /**< --prunefs: a file system type (case ignored) */
    /** --gitignore ("gitignore"), --exclude-caches ("caches"): the walk's ignore rules */
    INDEX_EXCLUDE_IGNORE = 5,
    INDEX_EXCLUDE_IF_PRESENT = 6, /**< --exclude-if-present: a file name */
};

/** One more than the largest kind. */
#define INDEX_EXCLUDE_KINDS 7

/** The rules. Zero-initialise. Read-only once the walk starts (the hook runs on workers). */
struct index_excludes {
    char **rules[INDEX_EXCLUDE_KINDS]; /**< per kind, malloc'd strings */
    size_t count[INDEX_EXCLUDE_KINDS];
    char **mounts; /**< mount points of the --prunefs types, found at each update */
    size_t nmounts;
    bool given; /**< an exclude option was given: these replace the stored rules */
    /** The walk's ignore rules, made by index_excludes_sync() from the IGNORE and
     *  IF_PRESENT kinds, or NULL. */
    struct frd_ignore *ignore;
};

/**
 * Adds rules of one kind: a glob as given, or (names, paths, types) a list separated by
 * blanks as in updatedb.conf. @return 0, or -1 when out of memory.
 */
int index_excludes_add(struct index_excludes *x, enum index_exclude_kind kind, const char *value);

/** @return whether there is any rule (or mount point) the children hook applies (the ignore
 *  rules are the walk's own). */
bool index_excludes_any(const struct index_excludes *x);

/**
 * Stores the rules given (x->given), or loads the stored ones, then finds the mount points of
 * the --prunefs types (from /proc/self/mounts; a warning where it cannot be read).
 * @return 0, or -1 after a message.
 */
int index_excludes_sync(struct index_excludes *x, sqlite3 *db);

/**
 * @return whether the entry `name` (NUL-terminated) at `path` (len bytes) is left out.
 * Thread-safe (reads only).
 */
bool index_excludes_match(const struct index_excludes *x, const char *path, size_t len,
                          const char *name, bool is_dir);

/** Frees the rules. */
void index_excludes_free(struct index_excludes *x);

#endif // FRD_EXAMPLES_FRDINDEX_EXCLUDE_H
