// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Older databases brought to this schema, in place, by the first update that opens them:
 * schema 2 gains the history (the last update's changes become its first generation);
 * schema 3's whole paths become directories and names (frdindex_dirs.h), its history rows
 * packed events (frdindex_history.h), and the trigram index is built; schema 4's metadata
 * columns are packed into one (frdindex_rowpack.h). Each step is one transaction: a kill
 * leaves the database as it was, or migrated.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_MIGRATE_H
#define FRD_EXAMPLES_FRDINDEX_MIGRATE_H

#include <sqlite3.h>

/** Migrates a database of schema `version` (2, 3 or 4). @return 0, or -1 after a message. */
int index_migrate(sqlite3 *db, const char *path, int version);

#endif // FRD_EXAMPLES_FRDINDEX_MIGRATE_H
