// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -color: LS_COLORS as bfs applies it, on a terminal (frdfind_color.c). */
#ifndef FRD_EXAMPLES_FRDFIND_COLOR_H
#define FRD_EXAMPLES_FRDFIND_COLOR_H

struct ff_ctx;
struct ff_eval;

/** Reads LS_COLORS (bfs's defaults for what it leaves unset). @return 0, or -1 (no memory). */
int ff_color_init(struct ff_ctx *ctx);

/** Frees what ff_color_init() allocated. */
void ff_color_free(struct ff_ctx *ctx);

/** -print with -color: the colored path and a newline, as one record. */
void ff_color_print(struct ff_eval *st);

#endif // FRD_EXAMPLES_FRDFIND_COLOR_H
