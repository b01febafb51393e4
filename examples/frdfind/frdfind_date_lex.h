// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The tokens of -newerXt's dates (frdfind_date_lex.c), read by frdfind_date.c. */
#ifndef FRD_EXAMPLES_FRDFIND_DATE_LEX_H
#define FRD_EXAMPLES_FRDFIND_DATE_LEX_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/** The kinds of token (find's parse_datetime's terminals). */
enum tok_type {
    TOK_END,
    TOK_BAD,  /**< an unknown word, a number that overflows, a character of no token */
    TOK_CHAR, /**< one of ":,/@" or any other character (value: it) */
    TOK_AGO,  /**< ago (-1), hence (1) */
    TOK_DST,
    TOK_YEAR_UNIT,
    TOK_MONTH_UNIT,
    TOK_DAY_UNIT, /**< value: days (fortnight 14, week 7, day 1) */
    TOK_HOUR_UNIT,
    TOK_MINUTE_UNIT,
    TOK_SEC_UNIT,
    TOK_DAY_SHIFT,  /**< tomorrow 1, yesterday -1, today and now 0 */
    TOK_DAY,        /**< a weekday, Sunday 0 */
    TOK_DAYZONE,    /**< a summer time zone: its standard offset, seconds east */
    TOK_LOCAL_ZONE, /**< a name of the local zone: value, its tm_isdst */
    TOK_MERIDIAN,   /**< am, pm */
    TOK_MONTH,      /**< 1 to 12 */
    TOK_ORDINAL,    /**< last -1, this 0, next and first 1, third 3 ... twelfth 12 */
    TOK_ZONE,       /**< seconds east of UTC */
    TOK_T,          /**< T: the ISO 8601 separator, or the zone UTC-7 */
    TOK_SNUMBER,    /**< a number with its sign */
    TOK_UNUMBER,    /**< a number without sign */
    TOK_SDECIMAL,   /**< a signed number with a fraction */
    TOK_UDECIMAL,   /**< an unsigned number with a fraction */
};

/** A time's meridian: am, pm, or none (24-hour). */
enum { MER_AM, MER_PM, MER_24 };

/** One token of a date. */
struct tok {
    enum tok_type type;
    intmax_t value;     /**< number, or the word's value */
    int digits;         /**< digits of a number (its sign not counted) */
    bool negative;      /**< a number with '-' */
    struct timespec ts; /**< a decimal number: tv_nsec in [0, 1e9), as a timespec */
};

/** The lexer's view of the local zone: up to two names (standard, summer), as find takes
 *  them from the zone's names now and in the next three quarters of a year. */
struct local_names {
    char name[2][16]; /**< the names, upper case as the zone gives them */
    int isdst[2];     /**< their tm_isdst (-1: one name for both) */
    int count;        /**< names held, 0 to 2 */
};

/** @return whether c is a blank as the dates take it (C's isspace in the C locale). */
bool ff_date_space(char c);

/** Fills *local with the names of the current zone (TZ) now and in the next three quarters
 *  (tm_now: `now` in it). */
void ff_date_zone_names(time_t now, const struct tm *tm_now, struct local_names *local);

/** Reads the token at *pp into *t and moves *pp past it (TOK_END at the end). */
void ff_date_lex(const struct local_names *local, const char **pp, struct tok *t);

#endif // FRD_EXAMPLES_FRDFIND_DATE_LEX_H
