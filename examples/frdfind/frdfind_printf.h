// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's -printf formats: compiled once, rendered per entry (frdfind_printf.c). */
#ifndef FRD_EXAMPLES_FRDFIND_PRINTF_H
#define FRD_EXAMPLES_FRDFIND_PRINTF_H

#include "frdfind_eval.h"

#include <frd.h>
#include <stddef.h>
#include <stdint.h>

struct ff_ctx;
struct ff_format;

/**
 * Compiles a -printf format.
 * @param dest the output's name in find's write errors ("standard output", "standard
 * error" or the file's name; kept, not copied).
 * @param out receives the compiled format.
 * @param needs receives enum ff_need bits the directives require.
 * @return 0, or 1 after printing an error naming the unsupported directive.
 */
int ff_format_compile(struct ff_ctx *ctx, const char *text, const char *dest,
                      struct ff_format **out, unsigned *needs);

/**
 * Writes the symbolic mode as ls -l, -ls and %M print it ("drwxr-xr-x", '?' for an unknown
 * type) into out, NUL-terminated. Any thread.
 */
void ff_mode_string(char out[11], enum frd_type type, uint32_t mode);

/** Frees a compiled format. */
void ff_format_free(struct ff_format *fmt);

/** Renders a format for one entry into the thread's output buffer. */
void ff_format_render(const struct ff_format *fmt, struct ff_eval *st);

/**
 * A root's base name as GNU find's base_name() makes it (-printf %f, -execdir's {}): its
 * last component, trailing slashes collapsed to one; the last "/" of a path of slashes only.
 * @return its length (0 for an empty path); *start: where it begins in path.
 */
size_t ff_root_base(const char *path, size_t len, size_t *start);

#endif // FRD_EXAMPLES_FRDFIND_PRINTF_H
