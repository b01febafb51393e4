// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The database file of an update. An existing database is updated in place only if it is
 * a regular file of the user running the update (so root never writes its index into a file
 * another user made, nor through a symbolic link, nor into a FIFO). A new database is made as
 * updatedb makes its own: a temporary file beside it, NAME.frdindex-tmp, created O_EXCL and
 * O_NOFOLLOW by the updating user, filled, given its mode, synced and renamed into place; a
 * failed or killed first update leaves no database at NAME. The temporary file is locked
 * (flock) while an update makes it: a second first update waits for it, and the next
 * update reuses or removes one a killed update left.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_FILE_H
#define FRD_EXAMPLES_FRDINDEX_FILE_H

#include <pthread.h>
#include <stdbool.h>

/** What a new database's temporary file is named: the database's name and this. */
#define INDEX_TMP_SUFFIX ".frdindex-tmp"

/** The database file an update writes. */
struct index_file {
    const char *path; /**< the database, as given */
    int dirfd;        /**< its directory */
    char *name;       /**< its last component */
    /** no database yet: SQLite writes tmp_path, which index_file_commit() renames to path */
    bool fresh;
    char *tmp_name;    /**< NAME.frdindex-tmp */
    char *tmp_path;    /**< the same with path's directory: what SQLite opens */
    int tmp_fd;        /**< the temporary file, locked while this update makes it; or -1 */
    bool committed;    /**< renamed into place */
    pthread_t flusher; /**< started by index_file_flush_start() */
    bool flushing;     /**< flusher runs (or ran and is not joined yet) */
    int flush_errno;   /**< what its sync failed with, or 0 */
};

/**
 * Decides what an update of `path` writes: the database in place (a non-empty regular file
 * of the effective user), or a new one, whose temporary file is made and locked now (waiting
 * up to ten seconds for another update making one). An empty file counts as no database.
 * Another user's file, a symbolic link, a FIFO or other special file at `path`, and another
 * user's -wal, -shm or -journal beside a new one, are refused.
 * @param have_roots false: there is nothing to make a new database from (an error then).
 * @return 0, or -1 after a message naming the file.
 */
int index_file_open(struct index_file *f, const char *path, bool have_roots);

/** @return the file SQLite is to open: the database, or the new one's temporary file. */
const char *index_file_sqlite_path(const struct index_file *f);

/**
 * For a new database: starts syncing what has been written to its temporary file so far
 * (fdatasync) on a thread of its own, while the update writes the rest, so that the kernel
 * allocates and writes those blocks out alongside the update's last steps instead of in
 * the close and fsync at its end. index_file_commit() waits for it and fails if it failed.
 * Nothing for an existing database, or if no thread can be started (commit syncs it all).
 */
void index_file_flush_start(struct index_file *f);

/**
 * For a new database, once SQLite has closed it: gives it `mode` (0: 0600) exactly, whatever
 * the umask, syncs it and renames it into place. Does nothing for an existing database.
 * @return 0, or -1 after a message (the temporary file is then removed by index_file_close).
 */
int index_file_commit(struct index_file *f, unsigned mode);

/** Removes a temporary file not renamed into place, and frees what f holds. */
void index_file_close(struct index_file *f);

#endif // FRD_EXAMPLES_FRDINDEX_FILE_H
