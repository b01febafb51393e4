// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** -newerXt's dates, read as GNU find reads them (frdfind_date.c). */
#ifndef FRD_EXAMPLES_FRDFIND_DATE_H
#define FRD_EXAMPLES_FRDFIND_DATE_H

#include <stdbool.h>
#include <time.h>

/**
 * Reads a date as GNU find's -newerXt does (gnulib's parse_datetime(): "2024-03-05 10:00",
 * "@1700000000.5", "yesterday", "2 days ago", "next friday", "19911213 20:31:00-0330",
 * TZ="Europe/Paris" first...), relative items counting from `now`, in the local zone
 * (TZ). Main thread only (a TZ="..." date sets TZ for its reading).
 * @return whether text is a date (*out set).
 */
bool ff_parse_date(const char *text, struct timespec now, struct timespec *out);

#endif // FRD_EXAMPLES_FRDFIND_DATE_H
