// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdindex's shared types: what an entry looked like when indexed and the kinds of change.
 * Each module has a header of its own: frdindex_db.h (the database), frdindex_update.h,
 * frdindex_changes.h, frdindex_find.h and frdindex_check.h (the commands).
 */
#ifndef FRD_EXAMPLES_FRDINDEX_H
#define FRD_EXAMPLES_FRDINDEX_H

#include <frd.h>
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

#endif // FRD_EXAMPLES_FRDINDEX_H
