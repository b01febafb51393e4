// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's time tests, as GNU find 4.9 sets them up and compares: -atime -ctime -mtime
 * (days), -amin -cmin -mmin (minutes), -used (days between change and access), -newer
 * -anewer -cnewer -newerXY (a reference file's time, or for Y = t a date: frdfind_date.c),
 * and -daystart, which moves the origin of the tests after it to midnight.
 *
 * find's arithmetic is kept on purpose (parser.c: get_relative_timestamp): the number is
 * strtod's, N units are subtracted from the origin in double, and the comparison is
 * inverted (+N means older than the reference). Huge values therefore give find's results
 * and its overflow error, not a wrapped integer.
 */
#define _GNU_SOURCE // st_mtim, timegm

#include "frdfind_time.h"

#include "frdfind_ctx.h"
#include "frdfind_date.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NS_PER_SEC 1000000000LL
#define DAYSECS    86400

/** Which of an entry's times a test reads (find's xval): the rows' param, and -newerXY's X. */
enum time_of {
    TIME_A = 'a',    /**< access */
    TIME_B = 'B',    /**< birth */
    TIME_C = 'c',    /**< status change */
    TIME_M = 'm',    /**< modification */
    TIME_USED = 'u', /**< -used: access minus change */
};

/** Data of a time test, in expr->data (so a node keeps cmp/ref_ns/window_ns of its own). */
struct time_test {
    enum time_of of;
};

static unsigned time_field(enum time_of of)
{
    switch (of) {
    case TIME_A:
        return FRD_FIELD_ATIME;
    case TIME_B:
        return FRD_FIELD_BTIME;
    case TIME_C:
        return FRD_FIELD_CTIME;
    case TIME_USED:
        return FRD_FIELD_ATIME | FRD_FIELD_CTIME;
    case TIME_M:
    default:
        return FRD_FIELD_MTIME;
    }
}

static int64_t time_value(enum time_of of, const struct frd_entry *e)
{
    switch (of) {
    case TIME_A:
        return e->atime_ns;
    case TIME_B:
        return e->btime_ns;
    case TIME_C:
        return e->ctime_ns;
    case TIME_USED: // change minus access (<= 0, see test_window()), saturated
        return e->ctime_ns / 2 - e->atime_ns / 2 < INT64_MIN / 2 ? INT64_MIN
                                                                 : e->ctime_ns - e->atime_ns;
    case TIME_M:
    default:
        return e->mtime_ns;
    }
}

/** find's pred_timewindow(): +N older, -N newer, N in the window after the reference. */
bool ff_eval_time(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    const struct time_test *tt = expr->data;
    if (tt->of == TIME_USED && we->entry->atime_ns < we->entry->ctime_ns) {
        // -used: find 4.9 matches no file accessed before its last change, and compares
        // the others' change time minus access time as an age from 0 (measured).
        return false;
    }
    int64_t t = time_value(tt->of, we->entry);
    switch (expr->cmp) {
    case FF_CMP_GT:
        return t > expr->ref_ns;
    case FF_CMP_LT:
        return t < expr->ref_ns;
    case FF_CMP_EQ:
    default: // (the reference may be saturated at either end: no signed difference)
        return t > expr->ref_ns &&
               (uint64_t)t - (uint64_t)expr->ref_ns <= (uint64_t)expr->window_ns;
    }
}

/** -newerXY: the entry's X time after the reference. A file system without birth times
 *  reports no FRD_FIELD_BTIME: then -newerB? is false, as find says for such a file. */
bool ff_eval_newer(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    const struct time_test *tt = expr->data;
    if (tt->of == TIME_B && !(we->entry->fields & FRD_FIELD_BTIME)) {
        return false;
    }
    return time_value(tt->of, we->entry) > expr->ref_ns;
}

/**
 * A double of seconds to a time_t the way find's `time_t = double` does on x86-64: in range,
 * truncated; out of range (or NaN), the hardware's "integer indefinite", INT64_MIN.
 */
static int64_t seconds_as_find(double d)
{
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        return (int64_t)d;
    }
    return INT64_MIN;
}

/** sec + nsec as ns since the epoch, saturated to the int64 range (the entries' own). */
static int64_t saturated_ns(int64_t sec, int64_t nsec)
{
    if (sec > INT64_MAX / NS_PER_SEC - 1) {
        return INT64_MAX;
    }
    if (sec < INT64_MIN / NS_PER_SEC + 1) {
        return INT64_MIN;
    }
    return sec * NS_PER_SEC + nsec;
}

/** Gives a time test's node the time it reads. @return 0, or -1 (reported). */
static int time_test(struct ff_parser *fp, struct ff_expr *expr, enum time_of of)
{
    struct time_test *tt = malloc(sizeof(*tt));
    if (tt == NULL) {
        ff_parser_fail(fp, "out of memory");
        return -1;
    }
    tt->of = of;
    expr->data = tt;
    expr->free_data = free;
    expr->needs = time_field(of);
    return 0;
}

/**
 * -Xtime, -Xmin and -used as GNU find 4.9 sets them up (parse_time, do_parse_xmin,
 * parse_used and get_relative_timestamp): the reference is an origin minus N units; for
 * -Xtime the origin is cur_day_start (moved to the end of the "day", 1 s before it, for
 * -N), for -Xmin cur_day_start plus a day, for -used 0. The number is strtod's, as find's
 * xstrtod takes it (inf included; an overflow, or an underflow to a nonzero value, is
 * invalid), and the subtraction is done in double as find does, with find's overflow error
 * when the reference would pass the end of time_t. NaN is refused (find 4.9 fails an
 * assertion).
 */
int ff_parse_time(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    const char *primary = argv[0];
    const char *arg = argv[1];
    enum time_of of = (enum time_of)(expr->prim->param & ~FF_TIME_MINUTES);
    bool minutes = (expr->prim->param & FF_TIME_MINUTES) != 0;
    struct ff_options *o = ff_parser_opts(fp);
    const char *s = arg;
    enum ff_cmp written = ff_take_sign(&s);
    char *end;
    errno = 0;
    double value = *s != '\0' ? strtod(s, &end) : 0.0;
    char msg[512];
    if (*s == '\0' || *end != '\0' || (value != 0.0 && errno == ERANGE) || isnan(value)) {
        if (of == TIME_USED) {
            snprintf(msg, sizeof(msg), "Invalid argument %s to -used", arg);
        } else {
            snprintf(msg, sizeof(msg), "invalid argument `%s' to `%s'", arg, primary);
        }
        ff_parser_fail(fp, msg);
        return -1;
    }
    int64_t origin_sec = o->day_start_ns / NS_PER_SEC;
    int64_t origin_nsec = o->day_start_ns % NS_PER_SEC;
    if (of == TIME_USED) {
        origin_sec = 0;
        origin_nsec = 0;
    } else if (minutes) {
        origin_sec += DAYSECS;
    } else if (written == FF_CMP_LT) {
        origin_sec += DAYSECS - 1;
    }
    double unit = minutes ? 60.0 : (double)DAYSECS;
    double seconds;
    double nanosec = modf(value * unit, &seconds) * 1.0e9;
    int64_t ref_sec = seconds_as_find((double)origin_sec - seconds);
    if ((origin_sec < ref_sec) != (seconds < 0)) {
        snprintf(msg, sizeof(msg),
                 "arithmetic overflow while converting %s %s to a number of seconds", s,
                 minutes ? "minutes" : "days");
        ff_parser_fail(fp, msg);
        return -1;
    }
    int64_t ref_nsec = (int64_t)((double)origin_nsec - nanosec);
    if ((double)origin_nsec < nanosec && ref_sec > INT64_MIN) {
        ref_nsec += NS_PER_SEC;
        ref_sec -= 1;
    }
    if (time_test(fp, expr, of) != 0) {
        return -1;
    }
    expr->cmp = written == FF_CMP_LT ? FF_CMP_GT : written == FF_CMP_GT ? FF_CMP_LT : FF_CMP_EQ;
    expr->ref_ns = saturated_ns(ref_sec, ref_nsec);
    expr->window_ns = (minutes ? 60 : DAYSECS) * NS_PER_SEC;
    return 0;
}

/** -newer FILE and its kin: FILE's Y time, stat'ed as -H/-L say at this point of the line. */
static bool reference_time(struct ff_parser *fp, const char *path, char y, int64_t *out)
{
    struct stat st;
    if (ff_parser_stat(fp, path, &st) != 0) {
        ff_parser_fail_stat(fp, path);
        return false;
    }
    struct timespec ts = y == 'a' ? st.st_atim : y == 'c' ? st.st_ctim : st.st_mtim;
    *out = saturated_ns((int64_t)ts.tv_sec, ts.tv_nsec);
    return true;
}

/** -newerXY with X, Y among a, B, c, m (and Y = t: a date). */
static int parse_newer_xy(struct ff_parser *fp, struct ff_expr *expr, const char *arg, char x,
                          char y)
{
    char msg[512];
    int64_t ref = 0;
    if (y == 't') {
        int64_t start_ns = ff_parser_opts(fp)->start_ns;
        struct timespec now = {(time_t)(start_ns / NS_PER_SEC), (long)(start_ns % NS_PER_SEC)};
        struct timespec when;
        if (ff_parse_date(arg, now, &when)) {
            ref = saturated_ns((int64_t)when.tv_sec, when.tv_nsec);
        } else {
            char quoted[400];
            snprintf(msg, sizeof(msg), "I cannot figure out how to interpret %s as a date or time",
                     ff_quoted(quoted, sizeof(quoted), arg));
            ff_parser_fail(fp, msg);
            return -1;
        }
    } else if (y == 'B') {
        struct statx sx;
        unsigned flags = ff_parser_opts(fp)->follow == FRD_FOLLOW_NEVER ? AT_SYMLINK_NOFOLLOW : 0;
        int rc = statx(AT_FDCWD, arg, (int)flags, STATX_BTIME, &sx);
        if (rc != 0 && flags == 0 && (errno == ENOENT || errno == ENOTDIR)) {
            rc = statx(AT_FDCWD, arg, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx); // as ff_parser_stat()
        }
        if (rc != 0) {
            ff_parser_fail_stat(fp, arg);
            return -1;
        }
        if (!(sx.stx_mask & STATX_BTIME)) {
            char quoted[400];
            snprintf(msg, sizeof(msg), "Cannot obtain birth time of file %s",
                     ff_quoted(quoted, sizeof(quoted), arg));
            ff_parser_fail(fp, msg);
            return -1;
        }
        ref = saturated_ns(sx.stx_btime.tv_sec, sx.stx_btime.tv_nsec);
    } else if (!reference_time(fp, arg, y, &ref)) {
        return -1;
    }
    if (time_test(fp, expr, (enum time_of)x) != 0) {
        return -1;
    }
    expr->ref_ns = ref;
    return 0;
}

int ff_parse_newer(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    return parse_newer_xy(fp, expr, argv[1], (char)expr->prim->param, 'm');
}

int ff_parse_newerxy(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    return parse_newer_xy(fp, expr, argv[1], argv[0][6], argv[0][7]);
}

/** -daystart: find's cur_day_start becomes the local midnight that starts today. */
static void daystart(struct ff_options *o)
{
    if (o->full_days) {
        return;
    }
    time_t t = (time_t)(o->day_start_ns / NS_PER_SEC) + DAYSECS;
    struct tm tm;
    int64_t since_midnight = localtime_r(&t, &tm) != NULL
                                 ? tm.tm_sec + tm.tm_min * 60 + tm.tm_hour * 3600
                                 : (int64_t)t % DAYSECS;
    o->day_start_ns = ((int64_t)t - since_midnight) * NS_PER_SEC;
    o->full_days = true;
}

int ff_parse_daystart(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    (void)argv;
    daystart(ff_parser_opts(fp));
    return 0;
}
