// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The dates of -newerXt, read as GNU find reads them: its parse_datetime() (gnulib), the
 * free-form dates of `date -d`. Written after that parser's documented grammar and
 * behaviour, checked against GNU find and date(1), not taken from its code.
 *
 * A date is "@SECONDS[.FRACTION]", or items in any order, each at most once by kind:
 *
 *   date       2024-03-05  3/5/2024  2024/3/5  3/5  5 Mar 2024  Mar 5, 2024  5-Mar-2024
 *              Mar-5-2024  20240305 (a number of 5 digits or more: YYYYMMDD, YYMMDD...)
 *   time       10:30  10:30:15.5  10am  10:30pm, with a zone offset after it: 10:30-0330
 *   date+time  2024-03-05T10:30:00+01:00 (ISO 8601; the time then needs its zone if it is
 *              only an hour)
 *   zone       UTC GMT Z EST CEST... (find's table), a military letter (not J), UTC+5,
 *              the local zone's names (they set daylight saving time only), DST
 *   day        Monday, tue, "next friday", "3 wed" (the nth such day from the date)
 *   relative   "2 days", "-1 week ago", "3 fortnights hence", yesterday, today, now,
 *              tomorrow, "last month", "next year", "1.5 seconds"
 *   number     a bare number is a year (after a date), a date (5+ digits), else a time
 *              (HH or HHMM); "20240305 -2 days" is a date and a relative item
 *
 * with an optional TZ="zone" first, comments in parentheses, and words in any case ("a.m.",
 * "Sept."). Relative items count from the date given, else from find's start; a date
 * without a time is midnight, a time without a date today's. The date is refused where
 * find refuses it: an item twice, an hour past 23 (12 with am/pm), a date that does not
 * exist (February 30, a local time skipped by daylight saving time), an overflow.
 *
 * The grammar is ambiguous where one token could end an item or start the next; the
 * parser below takes the longer item, as find's Bison parser does ("10:30 -5 days" is
 * 10:30 at zone -5, then one day).
 */
#define _DEFAULT_SOURCE // tm_gmtoff, timegm, setenv

#include "frdfind_date.h"

#include "frdfind_date_lex.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BILLION 1000000000
#define HOUR(x) ((x)*3600)

/** A number as it was written, for the year (two digits are 19xx or 20xx). */
struct textint {
    intmax_t value;
    int digits;
    bool negative;
};

/** Relative amounts, added after the absolute date is made. */
struct rel {
    intmax_t year, month, day, hour, minutes, seconds;
    int ns;
};

/** What the items said. */
struct parsed {
    struct textint year;
    intmax_t month, day, hour, minutes;
    struct timespec seconds;
    int meridian;
    intmax_t day_ordinal;
    int day_number;
    int local_isdst;
    int time_zone; /**< seconds east of UTC */
    struct rel rel;
    bool timespec_seen, rels_seen;
    int dates_seen, days_seen, times_seen, zones_seen, local_zones_seen, dsts_seen;
};

/* ---- the items ---------------------------------------------------------------------- */

/** Adds (factor 1) or subtracts (-1) r to the relative amounts. @return false on overflow. */
static bool apply_rel(struct parsed *pc, const struct rel *r, int factor)
{
    struct rel *a = &pc->rel;
    bool over = false;
    if (factor < 0) {
        over |= __builtin_sub_overflow(a->ns, r->ns, &a->ns);
        over |= __builtin_sub_overflow(a->seconds, r->seconds, &a->seconds);
        over |= __builtin_sub_overflow(a->minutes, r->minutes, &a->minutes);
        over |= __builtin_sub_overflow(a->hour, r->hour, &a->hour);
        over |= __builtin_sub_overflow(a->day, r->day, &a->day);
        over |= __builtin_sub_overflow(a->month, r->month, &a->month);
        over |= __builtin_sub_overflow(a->year, r->year, &a->year);
    } else {
        over |= __builtin_add_overflow(a->ns, r->ns, &a->ns);
        over |= __builtin_add_overflow(a->seconds, r->seconds, &a->seconds);
        over |= __builtin_add_overflow(a->minutes, r->minutes, &a->minutes);
        over |= __builtin_add_overflow(a->hour, r->hour, &a->hour);
        over |= __builtin_add_overflow(a->day, r->day, &a->day);
        over |= __builtin_add_overflow(a->month, r->month, &a->month);
        over |= __builtin_add_overflow(a->year, r->year, &a->year);
    }
    pc->rels_seen = true;
    return !over;
}

static bool is_unit(enum tok_type t)
{
    return t == TOK_YEAR_UNIT || t == TOK_MONTH_UNIT || t == TOK_DAY_UNIT || t == TOK_HOUR_UNIT ||
           t == TOK_MINUTE_UNIT || t == TOK_SEC_UNIT;
}

/** n units of `unit` (a unit token). @return false on overflow. */
static bool rel_of(intmax_t n, const struct tok *unit, struct rel *r)
{
    memset(r, 0, sizeof(*r));
    switch (unit->type) {
    case TOK_YEAR_UNIT:
        r->year = n;
        return true;
    case TOK_MONTH_UNIT:
        r->month = n;
        return true;
    case TOK_DAY_UNIT:
        return !__builtin_mul_overflow(n, unit->value, &r->day);
    case TOK_HOUR_UNIT:
        r->hour = n;
        return true;
    case TOK_MINUTE_UNIT:
        r->minutes = n;
        return true;
    default:
        r->seconds = n;
        return true;
    }
}

/** A zone offset: hours (1 or 2 digits) or HHMM, or HH and mm (mm >= 0) after a colon. */
static bool zone_hhmm(struct parsed *pc, const struct tok *s, intmax_t mm)
{
    intmax_t value = s->value;
    intmax_t minutes;
    if (s->digits <= 2 && mm < 0) {
        value *= 100;
    }
    if (mm < 0) {
        minutes = (value / 100) * 60 + value % 100;
    } else if (__builtin_mul_overflow(value, 60, &minutes) ||
               (s->negative ? __builtin_sub_overflow(minutes, mm, &minutes)
                            : __builtin_add_overflow(minutes, mm, &minutes))) {
        return false;
    }
    if (minutes < -24 * 60 || minutes > 24 * 60) {
        return false;
    }
    pc->time_zone = (int)(minutes * 60);
    return true;
}

/** A bare number: a year after a date, a date of 5+ digits, else a time HH or HHMM. */
static void digits_to_date_time(struct parsed *pc, const struct tok *t)
{
    if (pc->dates_seen && pc->year.digits == 0 && !pc->rels_seen &&
        (pc->times_seen || t->digits > 2)) {
        pc->year = (struct textint){t->value, t->digits, t->negative};
    } else if (t->digits > 4) {
        pc->dates_seen++;
        pc->day = t->value % 100;
        pc->month = (t->value / 100) % 100;
        pc->year = (struct textint){t->value / 10000, t->digits - 4, false};
    } else {
        pc->times_seen++;
        pc->hour = t->digits <= 2 ? t->value : t->value / 100;
        pc->minutes = t->digits <= 2 ? 0 : t->value % 100;
        pc->seconds = (struct timespec){0, 0};
        pc->meridian = MER_24;
    }
}

static void set_time(struct parsed *pc, intmax_t h, intmax_t m, struct timespec s, int mer)
{
    pc->hour = h;
    pc->minutes = m;
    pc->seconds = s;
    pc->meridian = mer;
}

/** Parses an item's tokens from t[*i]. */
struct items {
    const struct tok *t;
    size_t i;
    struct parsed *pc;
};

static const struct tok *at(const struct items *it, size_t k)
{
    return &it->t[it->i + k];
}

/** A zone offset at t[i]: a signed number, and ":" minutes. @return false if invalid. */
static bool zone_offset(struct items *it)
{
    const struct tok *s = at(it, 0);
    intmax_t mm = -1;
    it->i++;
    if (at(it, 0)->type == TOK_CHAR && at(it, 0)->value == ':') {
        if (at(it, 1)->type != TOK_UNUMBER) {
            return false;
        }
        mm = at(it, 1)->value;
        it->i += 2;
    }
    it->pc->zones_seen++;
    return zone_hhmm(it->pc, s, mm);
}

static bool is_char(const struct tok *t, char c)
{
    return t->type == TOK_CHAR && t->value == (unsigned char)c;
}

/** Seconds of a time: an unsigned number, with or without a fraction. */
static bool unsigned_seconds(const struct tok *t, struct timespec *out)
{
    if (t->type == TOK_UDECIMAL) {
        *out = t->ts;
        return true;
    }
    if (t->type == TOK_UNUMBER) {
        *out = (struct timespec){(time_t)t->value, 0};
        return true;
    }
    return false;
}

/**
 * A time after its hour (t[i] the token after the hour h): ":MM[:SS]" with am/pm or a zone
 * offset, as `iso` says (ISO 8601's after a 'T', which needs a zone after a bare hour).
 */
static bool time_rest(struct items *it, intmax_t h, bool iso)
{
    struct parsed *pc = it->pc;
    const struct tok *t = at(it, 0);
    if (!iso && t->type == TOK_MERIDIAN) {
        set_time(pc, h, 0, (struct timespec){0, 0}, (int)t->value);
        it->i++;
        return true;
    }
    if (t->type == TOK_SNUMBER) {
        set_time(pc, h, 0, (struct timespec){0, 0}, MER_24);
        return zone_offset(it);
    }
    if (!is_char(t, ':')) {
        return false;
    }
    if (at(it, 1)->type != TOK_UNUMBER) {
        return false;
    }
    intmax_t m = at(it, 1)->value;
    it->i += 2;
    struct timespec s = {0, 0};
    if (is_char(at(it, 0), ':')) {
        if (!unsigned_seconds(at(it, 1), &s)) {
            return false;
        }
        it->i += 2;
    }
    if (!iso && at(it, 0)->type == TOK_MERIDIAN) {
        set_time(pc, h, m, s, (int)at(it, 0)->value);
        it->i++;
        return true;
    }
    set_time(pc, h, m, s, MER_24);
    return at(it, 0)->type == TOK_SNUMBER ? zone_offset(it) : true;
}

/** A relative unit's amount n, then "ago" or "hence" if there. */
static bool rel_item(struct items *it, intmax_t n, const struct tok *unit, size_t used)
{
    struct rel r;
    if (!rel_of(n, unit, &r)) {
        return false;
    }
    it->i += used;
    int factor = 1;
    if (at(it, 0)->type == TOK_AGO) {
        factor = (int)at(it, 0)->value;
        it->i++;
    }
    return apply_rel(it->pc, &r, factor);
}

/** Items starting with an unsigned number n (t[i]). */
static bool number_item(struct items *it)
{
    struct parsed *pc = it->pc;
    const struct tok *n = at(it, 0);
    const struct tok *next = at(it, 1);
    if (next->type == TOK_MERIDIAN || is_char(next, ':')) {
        it->i++;
        pc->times_seen++;
        return time_rest(it, n->value, false);
    }
    if (next->type == TOK_SNUMBER) {
        const struct tok *third = at(it, 2);
        if (third->type == TOK_SNUMBER) { // ISO 8601 date, and a 'T' time after it
            pc->year = (struct textint){n->value, n->digits, n->negative};
            if (__builtin_sub_overflow((intmax_t)0, next->value, &pc->month) ||
                __builtin_sub_overflow((intmax_t)0, third->value, &pc->day)) {
                return false;
            }
            it->i += 3;
            pc->dates_seen++;
            if (at(it, 0)->type == TOK_T) {
                if (at(it, 1)->type != TOK_UNUMBER) {
                    return false;
                }
                intmax_t h = at(it, 1)->value;
                it->i += 2;
                pc->times_seen++;
                return time_rest(it, h, true);
            }
            return true;
        }
        if (is_unit(third->type)) { // "YYYYMMDD +N days"
            digits_to_date_time(pc, n);
            struct rel r;
            if (!rel_of(next->value, third, &r)) {
                return false;
            }
            it->i += 3;
            return apply_rel(pc, &r, 1);
        }
        it->i++; // an hour and its zone: "10-0330"
        pc->times_seen++;
        return time_rest(it, n->value, true);
    }
    if (is_char(next, '/')) {
        if (at(it, 2)->type != TOK_UNUMBER) {
            return false;
        }
        const struct tok *b = at(it, 2);
        if (is_char(at(it, 3), '/')) {
            const struct tok *c = at(it, 4);
            if (c->type != TOK_UNUMBER) {
                return false;
            }
            if (n->digits >= 4) { // YYYY/MM/DD
                pc->year = (struct textint){n->value, n->digits, n->negative};
                pc->month = b->value;
                pc->day = c->value;
            } else { // MM/DD/YY[YY]
                pc->month = n->value;
                pc->day = b->value;
                pc->year = (struct textint){c->value, c->digits, c->negative};
            }
            it->i += 5;
        } else {
            pc->month = n->value;
            pc->day = b->value;
            it->i += 3;
        }
        pc->dates_seen++;
        return true;
    }
    if (next->type == TOK_MONTH) { // 17 Jun [1992], 17-Jun-1992
        const struct tok *y = at(it, 2);
        pc->day = n->value;
        pc->month = next->value;
        it->i += 2;
        if (y->type == TOK_SNUMBER) {
            if (__builtin_sub_overflow((intmax_t)0, y->value, &pc->year.value)) {
                return false;
            }
            pc->year.digits = y->digits;
            it->i++;
        } else if (y->type == TOK_UNUMBER) {
            pc->year = (struct textint){y->value, y->digits, y->negative};
            it->i++;
        }
        pc->dates_seen++;
        return true;
    }
    if (next->type == TOK_DAY) { // "3 wed": the third Wednesday
        pc->day_ordinal = n->value;
        pc->day_number = (int)next->value;
        pc->days_seen++;
        it->i += 2;
        return true;
    }
    if (is_unit(next->type)) {
        return rel_item(it, n->value, next, 2);
    }
    digits_to_date_time(pc, n);
    it->i++;
    return true;
}

/** Items starting with a month name (t[i]): "Jun 17[, 1992]", "Jun-17-1992". */
static bool month_item(struct items *it)
{
    struct parsed *pc = it->pc;
    const struct tok *d = at(it, 1);
    pc->month = at(it, 0)->value;
    pc->dates_seen++;
    if (d->type == TOK_SNUMBER) {
        const struct tok *y = at(it, 2);
        if (y->type != TOK_SNUMBER || __builtin_sub_overflow((intmax_t)0, d->value, &pc->day) ||
            __builtin_sub_overflow((intmax_t)0, y->value, &pc->year.value)) {
            return false;
        }
        pc->year.digits = y->digits;
        it->i += 3;
        return true;
    }
    if (d->type != TOK_UNUMBER) {
        return false;
    }
    pc->day = d->value;
    it->i += 2;
    if (is_char(at(it, 0), ',')) {
        const struct tok *y = at(it, 1);
        if (y->type != TOK_UNUMBER) {
            return false;
        }
        pc->year = (struct textint){y->value, y->digits, y->negative};
        it->i += 2;
    }
    return true;
}

/** A zone name (t[i] of value z, T for 'T'): "UTC", "UTC+5", "UTC -3 hours", "EST DST". */
static bool zone_item(struct items *it, bool is_t)
{
    struct parsed *pc = it->pc;
    int z = is_t ? -HOUR(7) : (int)at(it, 0)->value;
    const struct tok *next = at(it, 1);
    pc->zones_seen++;
    if (next->type == TOK_SNUMBER && is_unit(at(it, 2)->type)) {
        pc->time_zone = z;
        struct rel r;
        if (!rel_of(next->value, at(it, 2), &r)) {
            return false;
        }
        it->i += 3;
        return apply_rel(pc, &r, 1);
    }
    if (next->type == TOK_SNUMBER) {
        if (is_t) {
            return false;
        }
        it->i++;
        pc->zones_seen--; // (zone_offset() counts it)
        if (!zone_offset(it)) {
            return false;
        }
        return !__builtin_add_overflow(pc->time_zone, z, &pc->time_zone);
    }
    if (!is_t && next->type == TOK_DST) {
        pc->time_zone = z + 3600;
        it->i += 2;
        return true;
    }
    pc->time_zone = z;
    it->i++;
    return true;
}

/** One item at t[i]. @return false if the tokens make none. */
static bool item(struct items *it)
{
    struct parsed *pc = it->pc;
    const struct tok *t = at(it, 0);
    const struct tok *next = at(it, 1);
    switch (t->type) {
    case TOK_UNUMBER:
        return number_item(it);
    case TOK_SNUMBER:
        return is_unit(next->type) && rel_item(it, t->value, next, 2);
    case TOK_UDECIMAL:
    case TOK_SDECIMAL: {
        if (next->type != TOK_SEC_UNIT) {
            return false;
        }
        it->i += 2;
        struct rel r = {.seconds = (intmax_t)t->ts.tv_sec, .ns = (int)t->ts.tv_nsec};
        int factor = 1;
        if (at(it, 0)->type == TOK_AGO) {
            factor = (int)at(it, 0)->value;
            it->i++;
        }
        return apply_rel(pc, &r, factor);
    }
    case TOK_ORDINAL:
        if (next->type == TOK_DAY) {
            pc->day_ordinal = t->value;
            pc->day_number = (int)next->value;
            pc->days_seen++;
            it->i += 2;
            return true;
        }
        return is_unit(next->type) && rel_item(it, t->value, next, 2);
    case TOK_YEAR_UNIT:
    case TOK_MONTH_UNIT:
    case TOK_DAY_UNIT: // (1 unit: a week is 7 days)
    case TOK_HOUR_UNIT:
    case TOK_MINUTE_UNIT:
    case TOK_SEC_UNIT:
        return rel_item(it, 1, t, 1);
    case TOK_DAY_SHIFT: {
        struct rel shift = {.day = t->value};
        it->i++;
        return apply_rel(pc, &shift, 1);
    }
    case TOK_DAY:
        pc->day_ordinal = 0;
        pc->day_number = (int)t->value;
        pc->days_seen++;
        it->i += is_char(next, ',') ? 2 : 1;
        return true;
    case TOK_MONTH:
        return month_item(it);
    case TOK_ZONE:
        return zone_item(it, false);
    case TOK_T:
        return zone_item(it, true);
    case TOK_DAYZONE:
        pc->time_zone = (int)t->value + 3600;
        pc->zones_seen++;
        it->i++;
        return true;
    case TOK_LOCAL_ZONE:
        pc->local_zones_seen++;
        if (next->type == TOK_DST) {
            pc->local_isdst = 1;
            pc->dsts_seen++;
            it->i += 2;
        } else {
            pc->local_isdst = (int)t->value;
            it->i++;
        }
        return true;
    default:
        return false;
    }
}

/* ---- the time it makes -------------------------------------------------------------- */

/** The TZ environment variable, set for a TZ="..." date and put back after. */
struct tz_swap {
    bool active;
    char *old; /**< the old value (malloc'd), or NULL when TZ was unset */
};

static bool tz_set(struct tz_swap *sw, const char *zone)
{
    const char *old = getenv("TZ");
    sw->old = old != NULL ? strdup(old) : NULL;
    if (old != NULL && sw->old == NULL) {
        return false;
    }
    sw->active = true;
    setenv("TZ", zone, 1);
    tzset();
    return true;
}

static void tz_restore(struct tz_swap *sw)
{
    if (!sw->active) {
        return;
    }
    if (sw->old != NULL) {
        setenv("TZ", sw->old, 1);
        free(sw->old);
    } else {
        unsetenv("TZ");
    }
    tzset();
    sw->active = false;
}

/** mktime, and whether it kept the fields it was given (mktime_ok in find's words). */
static bool make_time(struct tm *tm, time_t *out, bool utc)
{
    struct tm want = *tm;
    tm->tm_wday = -1;
    *out = utc ? timegm(tm) : mktime(tm);
    return tm->tm_wday >= 0 && tm->tm_sec == want.tm_sec && tm->tm_min == want.tm_min &&
           tm->tm_hour == want.tm_hour && tm->tm_mday == want.tm_mday &&
           tm->tm_mon == want.tm_mon && tm->tm_year == want.tm_year;
}

static int to_hour(intmax_t hours, int meridian)
{
    switch (meridian) {
    case MER_AM:
        return hours > 0 && hours < 12 ? (int)hours : hours == 12 ? 0 : -1;
    case MER_PM:
        return hours > 0 && hours < 12 ? (int)hours + 12 : hours == 12 ? 12 : -1;
    default:
        return hours >= 0 && hours < 24 ? (int)hours : -1;
    }
}

/** The year as tm_year: two digits are 1969-2068; a negative year counts as positive. */
static bool to_tm_year(struct textint y, int *tm_year)
{
    intmax_t year = y.value;
    if (year >= 0 && y.digits == 2) {
        year += year < 69 ? 2000 : 1900;
    }
    return !(year < 0 ? __builtin_sub_overflow((intmax_t)-1900, year, tm_year)
                      : __builtin_sub_overflow(year, (intmax_t)1900, tm_year));
}

/** The date the items say, in the current TZ, relative to now. */
static bool make_date(struct parsed *pc, const struct tm *tm_now, struct timespec *result)
{
    if (pc->timespec_seen) {
        *result = pc->seconds;
        return true;
    }
    if (1 < (pc->times_seen | pc->dates_seen | pc->days_seen | pc->dsts_seen |
             (pc->local_zones_seen + pc->zones_seen))) {
        return false;
    }
    struct tm tm = {.tm_isdst = tm_now->tm_isdst};
    if (!to_tm_year(pc->year, &tm.tm_year) ||
        __builtin_add_overflow(pc->month, (intmax_t)-1, &tm.tm_mon) ||
        __builtin_add_overflow(pc->day, (intmax_t)0, &tm.tm_mday)) {
        return false;
    }
    if (pc->times_seen || (pc->rels_seen && !pc->dates_seen && !pc->days_seen)) {
        tm.tm_hour = to_hour(pc->hour, pc->meridian);
        if (tm.tm_hour < 0) {
            return false;
        }
        tm.tm_min = (int)pc->minutes; // (out of range: mktime moves it, and it is refused)
        tm.tm_sec = (int)pc->seconds.tv_sec;
    } else {
        tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
        pc->seconds.tv_nsec = 0;
    }
    if (pc->dates_seen || pc->days_seen || pc->times_seen) {
        tm.tm_isdst = -1;
    }
    if (pc->local_zones_seen) {
        tm.tm_isdst = pc->local_isdst;
    }
    struct tm tm0 = tm;
    time_t start;
    if (!make_time(&tm, &start, false)) {
        // With a zone written, a time that does not exist here may exist there (find makes
        // it in a zone of that fixed offset; the offset is applied below).
        tm = tm0;
        if (pc->zones_seen == 0 || !make_time(&tm, &start, true)) {
            return false;
        }
    }
    if (pc->days_seen && !pc->dates_seen) {
        intmax_t ordinal = pc->day_ordinal - (pc->day_ordinal > 0 && tm.tm_wday != pc->day_number);
        intmax_t incr;
        tm.tm_yday = -1;
        if (!__builtin_mul_overflow(ordinal, (intmax_t)7, &incr) &&
            !__builtin_add_overflow(incr, (intmax_t)((pc->day_number - tm.tm_wday + 7) % 7),
                                    &incr) &&
            !__builtin_add_overflow(incr, (intmax_t)tm.tm_mday, &tm.tm_mday)) {
            tm.tm_isdst = -1;
            start = mktime(&tm);
        }
        if (tm.tm_yday < 0) {
            return false;
        }
    }
    if (pc->rel.year != 0 || pc->rel.month != 0 || pc->rel.day != 0) {
        int year, month, day;
        if (__builtin_add_overflow((intmax_t)tm.tm_year, pc->rel.year, &year) ||
            __builtin_add_overflow((intmax_t)tm.tm_mon, pc->rel.month, &month) ||
            __builtin_add_overflow((intmax_t)tm.tm_mday, pc->rel.day, &day)) {
            return false;
        }
        tm.tm_year = year;
        tm.tm_mon = month;
        tm.tm_mday = day;
        tm.tm_hour = tm0.tm_hour;
        tm.tm_min = tm0.tm_min;
        tm.tm_sec = tm0.tm_sec;
        tm.tm_isdst = tm0.tm_isdst;
        tm.tm_wday = -1;
        start = mktime(&tm);
        if (tm.tm_wday < 0) {
            return false;
        }
    }
    if (pc->zones_seen) {
        intmax_t delta;
        if (__builtin_sub_overflow((intmax_t)pc->time_zone, (intmax_t)tm.tm_gmtoff, &delta) ||
            __builtin_sub_overflow(start, delta, &start)) {
            return false;
        }
    }
    // Relative hours, minutes and seconds, as elapsed time.
    intmax_t sum_ns = (intmax_t)pc->seconds.tv_nsec + pc->rel.ns;
    intmax_t ns = (sum_ns % BILLION + BILLION) % BILLION;
    intmax_t carry = (sum_ns - ns) / BILLION;
    intmax_t d1, t1, d2, t2, t3;
    time_t t4;
    if (__builtin_mul_overflow(pc->rel.hour, (intmax_t)3600, &d1) ||
        __builtin_add_overflow((intmax_t)start, d1, &t1) ||
        __builtin_mul_overflow(pc->rel.minutes, (intmax_t)60, &d2) ||
        __builtin_add_overflow(t1, d2, &t2) || __builtin_add_overflow(t2, pc->rel.seconds, &t3) ||
        __builtin_add_overflow(t3, carry, &t4)) {
        return false;
    }
    result->tv_sec = t4;
    result->tv_nsec = (long)ns;
    return true;
}

/** Takes a leading TZ="zone" (backslash escapes \\ and \"): sets it, moves *p past it. */
static bool take_tz(const char **p, struct tz_swap *sw)
{
    if (strncmp(*p, "TZ=\"", 4) != 0) {
        return true;
    }
    const char *base = *p + 4;
    for (const char *s = base; *s != '\0'; s++) {
        if (*s == '\\') {
            s++;
            if (*s != '\\' && *s != '"') {
                return true; // not a zone: the date fails on "TZ"
            }
        } else if (*s == '"') {
            char *zone = malloc((size_t)(s - base) + 1);
            if (zone == NULL) {
                return false;
            }
            char *z = zone;
            for (const char *q = base; *q != '"'; q++) {
                q += *q == '\\';
                *z++ = *q;
            }
            *z = '\0';
            bool ok = tz_set(sw, zone);
            free(zone);
            *p = s + 1;
            while (ff_date_space(**p)) {
                (*p)++;
            }
            return ok;
        }
    }
    return true;
}

bool ff_parse_date(const char *text, struct timespec now, struct timespec *out)
{
    const char *p = text;
    while (ff_date_space(*p)) {
        p++;
    }
    struct tz_swap sw = {.active = false};
    bool ok = false;
    struct tok *toks = NULL;
    struct tm tm_now;
    if (!take_tz(&p, &sw) || localtime_r(&now.tv_sec, &tm_now) == NULL) {
        goto done;
    }
    if (*p == '\0') {
        p = "0"; // an empty date is midnight today, as "0"
    }
    struct local_names local;
    ff_date_zone_names(now.tv_sec, &tm_now, &local);
    // Every token holds a byte of the text at least, and the last is the end.
    size_t cap = strlen(p) + 1;
    toks = calloc(cap + 6, sizeof(*toks)); // (room to look past the end: TOK_END, zeroed)
    if (toks == NULL) {
        goto done;
    }
    size_t n = 0;
    do {
        ff_date_lex(&local, &p, &toks[n]);
    } while (toks[n++].type != TOK_END && n < cap);
    struct parsed pc = {
        .year = {tm_now.tm_year + 1900, 0, false},
        .month = tm_now.tm_mon + 1,
        .day = tm_now.tm_mday,
        .hour = tm_now.tm_hour,
        .minutes = tm_now.tm_min,
        .seconds = {tm_now.tm_sec, now.tv_nsec},
        .meridian = MER_24,
    };
    struct items it = {.t = toks, .i = 0, .pc = &pc};
    if (is_char(&toks[0], '@')) {
        // "@SECONDS": the whole date.
        const struct tok *s = &toks[1];
        if (s->type == TOK_SDECIMAL || s->type == TOK_UDECIMAL) {
            pc.seconds = s->ts;
        } else if (s->type == TOK_SNUMBER || s->type == TOK_UNUMBER) {
            pc.seconds = (struct timespec){(time_t)s->value, 0};
        } else {
            goto done;
        }
        pc.timespec_seen = true;
        it.i = 2;
    } else {
        while (toks[it.i].type != TOK_END) {
            if (!item(&it)) {
                goto done;
            }
        }
    }
    ok = toks[it.i].type == TOK_END && make_date(&pc, &tm_now, out);
done:
    free(toks);
    tz_restore(&sw);
    return ok;
}
