// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -files0-from (frdfind_files0.c). */
#ifndef FRD_EXAMPLES_FRDFIND_FILES0_H
#define FRD_EXAMPLES_FRDFIND_FILES0_H

#include "frdfind_table.h"

#include <stdbool.h>
#include <stddef.h>

struct ff_ctx;

/** -files0-from FILE: the option (read by ff_files0_read() once the line is parsed). */
ff_parse_fn ff_parse_files0;

/**
 * -files0-from: replaces opts->paths with the NUL-separated names read from the file, after
 * the whole command line is parsed. An empty name stays in the list, for the walk to report
 * in its turn with ff_files0_report_empty() (find reads the list as it walks, so its message
 * comes after the output of the names before it).
 * @param paths_given whether paths were also given (find's error).
 * @return 0, or 1 after an error was reported.
 */
int ff_files0_read(struct ff_ctx *ctx, bool paths_given);

/**
 * Reports opts->paths[index], an empty name read by -files0-from, as find does:
 * "frdfind: 'FILE':LINE: invalid zero-length file name" (the run fails). Main thread.
 */
void ff_files0_report_empty(struct ff_ctx *ctx, size_t index);

/**
 * Reports the read error that ended -files0-from's list, if any, as find does after the
 * walks of the names read before it: "frdfind: 'FILE': read error: strerror" (the run
 * fails). Main thread.
 */
void ff_files0_report_read_error(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_FILES0_H
