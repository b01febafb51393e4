// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -regex, -iregex and -regextype (frdfind_regex.c). */
#ifndef FRD_EXAMPLES_FRDFIND_REGEX_H
#define FRD_EXAMPLES_FRDFIND_REGEX_H

#include "frdfind_table.h"

/** -regex, -iregex (the row's param true): the pattern, compiled for each worker index. */
ff_parse_fn ff_parse_regex;
/** -regex, -iregex: the whole path matches. */
ff_eval_fn ff_eval_regex;
/** -regextype TYPE: the syntax of the -regex after it (find's names and messages). */
ff_parse_fn ff_parse_regextype;

#endif // FRD_EXAMPLES_FRDFIND_REGEX_H
