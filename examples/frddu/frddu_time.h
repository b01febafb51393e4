// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** du's --time-style=+FORMAT: a time written as du writes it (see frddu_time.c). */
#ifndef FRD_EXAMPLES_FRDDU_TIME_H
#define FRD_EXAMPLES_FRDDU_TIME_H

#include <stdio.h>
#include <time.h>

/**
 * Writes the broken-down time `tm` (with `ns` nanoseconds, and `sec` seconds since the epoch
 * for %s) in `format` to `out`, as du's fprintftime writes it: strftime's conversions and
 * gnulib's own (%N, %q, %:z, %::z, %:::z, %P), its flags (_ - 0 + ^ #) and field widths of
 * any size, streamed, so that no width needs a buffer of its size.
 */
void du_write_time(FILE *out, const char *format, const struct tm *tm, long long sec, int ns);

#endif // FRD_EXAMPLES_FRDDU_TIME_H
