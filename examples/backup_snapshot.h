// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * backup_scan's snapshots (examples/backup_snapshot.c): one line per entry, written
 * atomically, read back, and compared with the next scan's.
 *
 * A snapshot file: a header line "# frd backup_scan snapshot 1", then one line per entry,
 * sorted by path (the bytes of the escaped path), 13 fields separated by tabs:
 *   path type size mtime_ns mode uid gid dev ino nlink link target xattrs
 * path is relative to the root ("." for the root itself); type is find's %y letter; mode
 * the permission bits in octal; link is "-" for an entry with one link (or a directory),
 * "=" for the first-seen link of a hard-link group, else the path of that first link;
 * target is a symbolic link's target ("-" for other entries); xattrs are "-" or
 * name=HEXVALUE pairs joined by ',' (name=!SIZE for a value longer than the limit). Paths,
 * targets and names are escaped (snap_escape()): the file is ASCII text, whatever bytes
 * the names hold.
 */
#ifndef FRD_EXAMPLES_BACKUP_SNAPSHOT_H
#define FRD_EXAMPLES_BACKUP_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** The first line of every snapshot. */
#define SNAP_HEADER "# frd backup_scan snapshot 1"

/** Fields of a line. */
enum {
    SNAP_PATH,
    SNAP_TYPE,
    SNAP_SIZE,
    SNAP_MTIME,
    SNAP_MODE,
    SNAP_UID,
    SNAP_GID,
    SNAP_DEV,
    SNAP_INO,
    SNAP_NLINK,
    SNAP_LINK,
    SNAP_TARGET,
    SNAP_XATTRS,
    SNAP_FIELDS
};

/** A growable text buffer. */
struct snap_buf {
    char *s;
    size_t len, cap;
};

/** Appends `n` bytes. @return false without memory. */
bool snap_put(struct snap_buf *b, const void *p, size_t n);
/** Appends a C string. @return false without memory. */
bool snap_puts(struct snap_buf *b, const char *s);
/** Appends `n` bytes escaped: '\\', ',', '=', bytes below 0x21 and above 0x7e as \xHH.
 *  @return false without memory. */
bool snap_escape(struct snap_buf *b, const void *p, size_t n);

/** The lines of a snapshot (each malloc'ed, without its newline). */
struct snap {
    char **lines;
    size_t n, cap;
};

/** Adds a line (takes it). @return false without memory (the line is freed). */
bool snap_add(struct snap *s, char *line);
void snap_free(struct snap *s);

/**
 * Reads the snapshot at `path` into `s`. @return 1 read, 0 no such file (s empty), -1 an
 * error (errno set; a file that is no snapshot: EINVAL).
 */
int snap_load(const char *path, struct snap *s);

/**
 * Writes `s` to `path` atomically: a temporary file beside it, flushed and synced, then
 * renamed over it; on any failure the temporary file is removed and `path` is untouched.
 * @return 0, or -1 with errno set.
 */
int snap_write(const char *path, const struct snap *s);

/**
 * Prints to `out` what changed from `old` to `now` (both sorted here, by path), one line
 * each: "added\tPATH", "removed\tPATH", "changed\tPATH\tWHAT" (WHAT: the changed fields,
 * joined by ','), "renamed\tOLD\tNEW" (a removed and an added path with the same dev, ino,
 * type, size and mtime). An old line below a directory of `unread` (escaped relative
 * paths of directories this scan could not read) is not reported: it is carried over into
 * `now`, as the scan could not tell. @return the number of lines printed, or -1 without
 * memory.
 */
long snap_diff(struct snap *old, struct snap *now, const struct snap *unread, FILE *out);

#endif // FRD_EXAMPLES_BACKUP_SNAPSHOT_H
