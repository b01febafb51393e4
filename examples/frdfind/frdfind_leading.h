// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's leading options, before the paths (frdfind_leading.c). */
#ifndef FRD_EXAMPLES_FRDFIND_LEADING_H
#define FRD_EXAMPLES_FRDFIND_LEADING_H

struct ff_parser;

/**
 * Reads the leading options at the parser's position: -H -L -P, -s, -find-order, -j N,
 * -D, -O, --help, --version, "--".
 * @return 0 (the paths come next), 1 after an error was reported, or -1 once --help or
 * --version was printed (exit 0).
 */
int ff_parse_leading(struct ff_parser *fp);

#endif // FRD_EXAMPLES_FRDFIND_LEADING_H
