// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * How `find` and `changes` print a path so that a name cannot pass for more than one:
 * `find` as plocate (raw into a pipe, escaped on a terminal), `changes`' text form quoted
 * as GNU ls quotes on a terminal whenever a name holds a character that is not printable.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_PRINT_H
#define FRD_EXAMPLES_FRDINDEX_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * Writes `path` (len bytes, NUL-terminated) and a newline as plocate 1.1 does: as it is
 * unless `tty`; on a terminal, a path holding a control character, a quote, a backslash or
 * a byte that is not a character in the locale goes between '...', those characters as
 * $'\n'-style escapes and each invalid byte as '?' (so the terminal is never sent a control
 * sequence, and the line can be pasted into a shell).
 */
void index_print_plocate(FILE *out, const char *path, size_t len, bool tty);

/**
 * Writes `path` (NUL-terminated) for `changes`' text form: as it is, or, when it holds a
 * character that is not printable in the locale (a newline, a tab, an invalid byte ...),
 * quoted for the shell as `ls` does on a terminal ('a'$'\n''b'). A path is absolute, so
 * its quoted form (which starts with a quote) never reads as another path.
 * @return 0, or -1 when out of memory (nothing written).
 */
int index_print_quoted(FILE *out, const char *path);

#endif // FRD_EXAMPLES_FRDINDEX_PRINT_H
