// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -perm (frdfind_perm.c). */
#ifndef FRD_EXAMPLES_FRDFIND_PERM_H
#define FRD_EXAMPLES_FRDFIND_PERM_H

#include "frdfind_table.h"

/** -perm MODE, -MODE, /MODE: the modes for files and directories (find's messages). */
ff_parse_fn ff_parse_perm;
/** -perm: the entry's permission bits against them. */
ff_eval_fn ff_eval_perm;

#endif // FRD_EXAMPLES_FRDFIND_PERM_H
