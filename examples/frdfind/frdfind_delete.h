// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -delete (frdfind_delete.c). */
#ifndef FRD_EXAMPLES_FRDFIND_DELETE_H
#define FRD_EXAMPLES_FRDFIND_DELETE_H

#include "frdfind_table.h"

/** -delete: turns -depth on (find's rule), and find's check against -prune needs it. */
ff_parse_fn ff_parse_delete;

/** -delete on one entry (in post-order), on st's thread (its failure: ff_out_before_error()).
 *  @return true if it was removed, false after its error was reported. */
ff_eval_fn ff_eval_delete;

#endif // FRD_EXAMPLES_FRDFIND_DELETE_H
