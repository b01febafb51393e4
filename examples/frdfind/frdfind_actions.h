// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's actions on standard output and on the walk (frdfind_actions.c). */
#ifndef FRD_EXAMPLES_FRDFIND_ACTIONS_H
#define FRD_EXAMPLES_FRDFIND_ACTIONS_H

#include "frdfind_table.h"

/** -print, -print0 (the row's param: the separator). */
ff_parse_fn ff_parse_print;
/** -print, -print0: the path and the separator, as one record (-color: colored). */
ff_eval_fn ff_eval_print;
/** -printf FORMAT: the compiled format, and the fields its directives read. */
ff_parse_fn ff_parse_printf;
/** -printf: the format rendered for the entry, as one record. */
ff_eval_fn ff_eval_printf;
/** -count: the total is printed at the end. */
ff_parse_fn ff_parse_count;
/** -count: counts the entry. */
ff_eval_fn ff_eval_count;
/** -prune (find's check against -delete without -depth needs to know). */
ff_parse_fn ff_parse_prune;
/** -prune: the directory is not entered (without -depth); true. */
ff_eval_fn ff_eval_prune;
/** -quit: the walk stops; true. */
ff_eval_fn ff_eval_quit;

#endif // FRD_EXAMPLES_FRDFIND_ACTIONS_H
