// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** SQLite's Unix VFS, refusing files another user made (see frdindex_vfs.h). */
#define _POSIX_C_SOURCE 200809L // O_CLOEXEC, O_NOFOLLOW

#include "frdindex_vfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static sqlite3_vfs *base_vfs; // the default VFS this one wraps
static sqlite3_vfs shim_vfs;
static char refusal[1024];
static bool refused;

bool index_vfs_refusal_pending(void)
{
    return refused;
}

const char *index_vfs_refusal(void)
{
    if (!refused) {
        return NULL;
    }
    refused = false;
    return refusal;
}

/** Notes why `path` is not used. @return SQLITE_CANTOPEN. */
static int refuse(const char *path, const char *why)
{
    snprintf(refusal, sizeof(refusal), "%s: %s", path, why);
    refused = true;
    return SQLITE_CANTOPEN;
}

/** @return a refusal for a side file `st` of a database owned by `owner`, or SQLITE_OK. */
static int check_side(const char *path, const struct stat *st, uid_t owner)
{
    if (!S_ISREG(st->st_mode)) {
        return refuse(path, "not a regular file, as SQLite's files beside a database are: not "
                            "used (remove it)");
    }
    if (st->st_uid != owner) {
        char why[160];
        snprintf(why, sizeof(why),
                 "owned by uid %lu, not by the database's owner (uid %lu): not used (remove it)",
                 (unsigned long)st->st_uid, (unsigned long)owner);
        return refuse(path, why);
    }
    return SQLITE_OK;
}

/** The main database: one opened read-write is the effective user's regular file. */
static int check_main(const char *path, const struct stat *st, bool writing)
{
    if (!S_ISREG(st->st_mode)) {
        return refuse(path, "not a regular file");
    }
    if (writing && st->st_uid != geteuid()) {
        char why[160];
        snprintf(why, sizeof(why),
                 "owned by another user (uid %lu): the index is written only into the "
                 "updating user's own file",
                 (unsigned long)st->st_uid);
        return refuse(path, why);
    }
    return SQLITE_OK;
}

/**
 * Makes sure the side file `name` of a database owned by `owner` (of mode `mode`) is the
 * owner's: checks it if it exists; else, with `create`, makes it (O_EXCL|O_NOFOLLOW), which
 * only the owner may (a file another user made meanwhile then fails instead of being used).
 * @return SQLITE_OK with *st set (st_ino 0: absent, not made), or a refusal.
 */
static int own_side(const char *name, uid_t owner, mode_t mode, bool create, struct stat *st)
{
    for (int tries = 0; tries < 2; tries++) {
        if (lstat(name, st) == 0) {
            return check_side(name, st, owner);
        }
        if (errno != ENOENT) {
            return refuse(name, strerror(errno));
        }
        if (!create) {
            memset(st, 0, sizeof(*st));
            return SQLITE_OK;
        }
        if (owner != geteuid()) {
            return refuse(name, "missing, and only the database's owner makes it (run an "
                                "update as the owner)");
        }
        int fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
        if (fd >= 0) {
            // As SQLite makes it: the database's mode, whatever the umask. Closed at once:
            // nothing of this process had it open, so no lock of SQLite's goes with it.
            int rc = fchmod(fd, mode & 0777) == 0 && fstat(fd, st) == 0
                         ? SQLITE_OK
                         : refuse(name, strerror(errno));
            close(fd);
            return rc;
        }
        if (errno != EEXIST) {
            char why[160];
            snprintf(why, sizeof(why), "cannot be made: %s", strerror(errno));
            return refuse(name, why);
        }
        // Made in between: checked as any that exists.
    }
    return refuse(name, "made and removed again while it was opened");
}

/**
 * When the -wal of database `db` (`st`) opens, read-write: its -shm, which SQLite opens
 * itself (O_CREAT, without O_EXCL), must be the owner's, or is made now by the owner.
 * @return SQLITE_OK or a refusal.
 */
static int own_shm(const char *db, const struct stat *db_st)
{
    size_t len = strlen(db);
    char *shm = malloc(len + sizeof("-shm"));
    if (shm == NULL) {
        return SQLITE_NOMEM;
    }
    memcpy(shm, db, len);
    memcpy(shm + len, "-shm", sizeof("-shm"));
    struct stat st;
    int rc = own_side(shm, db_st->st_uid, db_st->st_mode, db_st->st_uid == geteuid(), &st);
    free(shm);
    return rc;
}

/**
 * When the database `db` (`st`) opens: SQLite's files beside it that exist must be its
 * owner's, checked before SQLite reads or writes anything (a refusal later, when SQLite
 * opens one, may come after it marked the header for WAL). @return SQLITE_OK or a refusal.
 */
static int check_sides_of(const char *db, const struct stat *st)
{
    static const char *const suffixes[] = {"-wal", "-shm", "-journal"};
    size_t len = strlen(db);
    char *name = malloc(len + sizeof("-journal"));
    if (name == NULL) {
        return SQLITE_NOMEM;
    }
    int rc = SQLITE_OK;
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]) && rc == SQLITE_OK; i++) {
        memcpy(name, db, len);
        memcpy(name + len, suffixes[i], strlen(suffixes[i]) + 1);
        struct stat side;
        if (lstat(name, &side) == 0) {
            rc = check_side(name, &side, st->st_uid);
        }
    }
    free(name);
    return rc;
}

/** Closes a file the base VFS opened, for a refusal made after the open. */
static int close_refused(sqlite3_file *file, int rc)
{
    if (file->pMethods != NULL) {
        file->pMethods->xClose(file);
        file->pMethods = NULL;
    }
    return rc;
}

static int shim_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *file, int flags,
                     int *out_flags)
{
    (void)vfs;
    const int side = SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL | SQLITE_OPEN_SUPER_JOURNAL;
    bool is_main = (flags & SQLITE_OPEN_MAIN_DB) != 0;
    bool is_side = !is_main && (flags & side) != 0;
    if (name == NULL || (!is_main && !is_side)) {
        return base_vfs->xOpen(base_vfs, name, file, flags, out_flags); // temporary files
    }
    bool writing = (flags & SQLITE_OPEN_READWRITE) != 0;
    struct stat db_st, before, after;
    memset(&db_st, 0, sizeof(db_st)); // set below for a side file, the only one to read it
    int rc;
    if (is_main) {
        // One that cannot be stat'ed is left to the base VFS's open, which says why.
        memset(&before, 0, sizeof(before));
        rc = lstat(name, &before) == 0 ? check_main(name, &before, writing) : SQLITE_OK;
    } else {
        const char *db = sqlite3_filename_database(name);
        if (db == NULL || stat(db, &db_st) < 0) {
            return refuse(name, "its database cannot be found");
        }
        // SQLite would make a missing one with O_CREAT alone: made here instead (O_EXCL).
        rc =
            own_side(name, db_st.st_uid, db_st.st_mode, (flags & SQLITE_OPEN_CREATE) != 0, &before);
    }
    if (rc != SQLITE_OK) {
        return rc;
    }
    int got_flags = flags;
    rc = base_vfs->xOpen(base_vfs, name, file, flags, &got_flags);
    if (out_flags != NULL) {
        *out_flags = got_flags;
    }
    if (rc != SQLITE_OK) {
        return rc;
    }
    // The file opened is the one checked (or made): still there, the same file.
    if (lstat(name, &after) < 0 ||
        (before.st_ino != 0 && (after.st_dev != before.st_dev || after.st_ino != before.st_ino))) {
        return close_refused(file, refuse(name, "replaced while it was opened"));
    }
    rc = is_main ? check_main(name, &after, writing) : check_side(name, &after, db_st.st_uid);
    if (rc == SQLITE_OK && is_main) {
        rc = check_sides_of(name, &after);
    }
    if (rc == SQLITE_OK && (flags & SQLITE_OPEN_WAL) && (got_flags & SQLITE_OPEN_READWRITE)) {
        rc = own_shm(sqlite3_filename_database(name), &db_st);
    }
    return rc == SQLITE_OK ? SQLITE_OK : close_refused(file, rc);
}

int index_vfs_register(void)
{
    if (base_vfs != NULL) {
        return 0;
    }
    sqlite3_vfs *base = sqlite3_vfs_find(NULL);
    if (base == NULL) {
        return -1;
    }
    // Every method but xOpen is the base's own (they take no state from the VFS object
    // but what is copied with it: pAppData, szOsFile, mxPathname).
    shim_vfs = *base;
    shim_vfs.zName = INDEX_VFS_NAME;
    shim_vfs.pNext = NULL;
    shim_vfs.xOpen = shim_open;
    if (sqlite3_vfs_register(&shim_vfs, 0) != SQLITE_OK) {
        return -1;
    }
    base_vfs = base;
    return 0;
}
