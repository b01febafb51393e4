// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The history: every change each update found, in table `history`, for `changes --since`.
 * An update writes its events packed into a few rows (gen, events BLOB) of up to about a
 * megabyte each, not one row per change: the first update of a tree changes every entry,
 * and its events cost their names (a directory id and a name per path, see
 * frdindex_dirs.h), written at the speed of a blob.
 *
 *   events = 0x01, then per event:
 *     varint  change | 16 if the event names another path (a rename's other side)
 *     byte    type (enum frd_type)
 *     varint  dir, varint name length, name
 *     [varint other dir, varint other name length, other name]
 */
#ifndef FRD_EXAMPLES_FRDINDEX_HISTORY_H
#define FRD_EXAMPLES_FRDINDEX_HISTORY_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One change of one path in one update. */
struct index_event {
    int64_t gen;
    int64_t dir;
    const char *name;
    size_t name_len;
    uint8_t change; /**< enum index_change */
    uint8_t type;   /**< enum frd_type */
    bool has_other; /**< a rename: the other path is (other_dir, other) */
    int64_t other_dir;
    const char *other;
    size_t other_len;
};

/** The events an update writes. Zero-initialise, set db and gen. */
struct index_history_writer {
    sqlite3 *db;
    int64_t gen;
    sqlite3_stmt *insert;
    unsigned char *buf;
    size_t len, cap;
};

/** Adds an event (gen is the writer's). @return 0, or -1 after a message. */
int index_history_add(struct index_history_writer *w, const struct index_event *e);

/** Writes what is left and frees what `w` holds. @return 0, or -1 after a message. */
int index_history_finish(struct index_history_writer *w);

/** Frees what `w` holds without writing it. */
void index_history_discard(struct index_history_writer *w);

/** Called for each event read; the event's bytes are valid during the call. @return 0 or -1. */
typedef int index_event_fn(const struct index_event *e, void *arg);

/**
 * Calls `fn` for every event of the updates after generation `since`, in the order they
 * were written. @return 0, or -1 after a message (or when fn returned -1).
 */
int index_history_read(sqlite3 *db, int64_t since, index_event_fn *fn, void *arg);

#endif // FRD_EXAMPLES_FRDINDEX_HISTORY_H
