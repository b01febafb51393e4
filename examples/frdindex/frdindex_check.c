// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex check`: SQLite's integrity check and the row count the last update wrote. */
#include "frdindex_check.h"

#include "frdindex_db.h"
#include "toolname.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int index_check(const char *db_path)
{
    sqlite3 *db;
    if (index_db_open(db_path, INDEX_OPEN_READ, &db) < 0) {
        return 1;
    }
    sqlite3_stmt *stmt;
    int status = 1;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, NULL) != SQLITE_OK) {
        index_db_fail(db, "checking");
        sqlite3_close(db);
        return 1;
    }
    bool ok = false;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(stmt, 0);
        if (line != NULL && strcmp(line, "ok") == 0) {
            ok = true;
        } else {
            fprintf(stderr, "%s: %s: %s\n", tool_name, db_path, line ? line : "?");
        }
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        index_db_fail(db, "checking");
    } else if (ok && index_db_check_count(db, db_path) == 0) {
        puts("ok");
        status = 0;
    }
    sqlite3_close(db);
    return status;
}
