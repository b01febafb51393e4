// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex check`: the database's integrity. */
#ifndef FRD_EXAMPLES_FRDINDEX_CHECK_H
#define FRD_EXAMPLES_FRDINDEX_CHECK_H

/** Runs `frdindex check DB`: SQLite's full integrity check. @return the exit status. */
int index_check(const char *db_path);

#endif // FRD_EXAMPLES_FRDINDEX_CHECK_H
