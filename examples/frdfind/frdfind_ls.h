// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -ls and -fls (frdfind_ls.c). */
#ifndef FRD_EXAMPLES_FRDFIND_LS_H
#define FRD_EXAMPLES_FRDFIND_LS_H

#include "frdfind_table.h"

struct ff_ctx;

/** -ls: the run's -ls columns. */
ff_parse_fn ff_parse_ls;
/** -fls FILE: the file (frdfind_file.c) and the run's -ls columns. */
ff_parse_fn ff_parse_fls;
/** -ls, -fls: the `ls -dils` line of the entry, to stdout or the file. */
ff_eval_fn ff_eval_ls;

/** Frees -ls's columns (ff_ctx_free()). */
void ff_ls_free(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_LS_H
