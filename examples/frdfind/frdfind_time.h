// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's time tests (frdfind_time.c): -atime -ctime -mtime, -amin -cmin -mmin, -used,
 * -newer -anewer -cnewer -newerXY, and the option -daystart.
 */
#ifndef FRD_EXAMPLES_FRDFIND_TIME_H
#define FRD_EXAMPLES_FRDFIND_TIME_H

#include "frdfind_table.h"

/** In a time row's param (the time's letter: 'a', 'c', 'm', 'u' for -used): minutes. */
#define FF_TIME_MINUTES 0x100

/** -atime N and its kin: the reference instant and window, as find computes them. */
ff_parse_fn ff_parse_time;
/** -atime N and its kin: find's pred_timewindow(). */
ff_eval_fn ff_eval_time;

/** -newer, -anewer, -cnewer FILE (the row's param: X): FILE's modification time. */
ff_parse_fn ff_parse_newer;
/** -newerXY REF: REF's Y time (Y = t: REF is a date, frdfind_date.c). */
ff_parse_fn ff_parse_newerxy;
/** -newer and its kin: the entry's X time after the reference. */
ff_eval_fn ff_eval_newer;

/** -daystart: the time tests after it count from today's midnight (once). */
ff_parse_fn ff_parse_daystart;

#endif // FRD_EXAMPLES_FRDFIND_TIME_H
