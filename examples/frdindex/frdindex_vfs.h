// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The SQLite VFS frdindex opens its databases with: SQLite's own Unix VFS, except that it
 * opens no file another user made for it. SQLite opens the -wal, -journal and -shm files
 * beside a database by name, creating them if missing; in a directory others may write
 * (/tmp), another user can make one first and read (or write) what SQLite puts in it. So:
 *
 *   - a database opened read-write must be a regular file owned by the effective user;
 *     one opened read-only, a regular file (a FIFO would block the open);
 *   - a -wal or -journal that exists must be a regular file owned by the database's owner,
 *     and is checked again once open (the same file); one that does not exist is created
 *     with O_EXCL|O_NOFOLLOW, so that a file made meanwhile fails the open instead;
 *   - when the database opens, its -wal, -shm and -journal, where they exist, must be its
 *     owner's regular files (checked before SQLite reads or writes anything);
 *   - when the -wal opens, the -shm must likewise be the owner's, or is created (O_EXCL)
 *     by the owner before SQLite opens it.
 *
 * A file refused makes the open fail with SQLITE_CANTOPEN; index_vfs_refusal() says why.
 * Not thread-safe: frdindex uses SQLite from one thread.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_VFS_H
#define FRD_EXAMPLES_FRDINDEX_VFS_H

#include <stdbool.h>

/** The name to pass to sqlite3_open_v2() once index_vfs_register() succeeded. */
#define INDEX_VFS_NAME "frdindex"

/** Registers the VFS (once; later calls do nothing). @return 0, or -1 (no default VFS). */
int index_vfs_register(void);

/**
 * @return why the VFS last refused a file ("PATH: owned by ..."), and forgets it; NULL if
 * it refused none since the last call. Valid until the next open.
 */
const char *index_vfs_refusal(void);

/** @return whether a refusal waits for index_vfs_refusal() (which it leaves there). */
bool index_vfs_refusal_pending(void);

#endif // FRD_EXAMPLES_FRDINDEX_VFS_H
