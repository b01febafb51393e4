// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * du --time-style=+FORMAT: du writes its times with gnulib's fprintftime, not with the C
 * library's strftime, and the two differ beyond the conversions gnulib adds (%N, %q, %:z):
 * a field width pads a number with zeros (%20s, %15F) where glibc pads with spaces, "-"
 * drops the padding a width asks for, "+" signs years of more digits, an unknown directive
 * is copied padded, and no width is too large (fprintftime streams what it writes:
 * %1000000Y is a million digits, as here). So the directives are read here as gnulib reads
 * them: the numbers formatted and padded here, the locale's texts (day and month names, %c,
 * %x, %X, %r, %p and the E and O forms) taken from strftime one conversion at a time, as
 * gnulib takes them where it is not built into the C library. tests/cli/frddu_options.sh
 * compares formats of every conversion, flag and width with du's output.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE // struct tm's tm_gmtoff and tm_zone

#include "frddu_time.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/** Where the text goes: `out`, or with `out` NULL nowhere, only counted (a subformat is
 *  measured first, to be padded as a whole). */
struct tsink {
    FILE *out;
    uint64_t n; /**< bytes written (or counted) */
    const struct tm *tm;
    long long sec;
    int ns;
};

/** One directive: its flags, width and modifier. */
struct tspec {
    int pad;          /**< '_', '-', '0', '+' or 0 (none given) */
    int width;        /**< -1 when none is given */
    int modifier;     /**< 'E', 'O' or 0 */
    bool upcase;      /**< '^', or inherited by a subformat */
    bool lowcase;     /**< %P, or '#' where it lowers */
    bool change_case; /**< '#' */
};

static void sink_put(struct tsink *s, const char *p, size_t n, const struct tspec *sp)
{
    s->n += n;
    if (s->out == NULL) {
        return;
    }
    if (sp == NULL || (!sp->lowcase && !sp->upcase)) {
        fwrite(p, 1, n, s->out);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)p[i];
        putc(sp->lowcase ? tolower(c) : toupper(c), s->out);
    }
}

/** Writes `n` copies of `c` (' ' or '0'), a block at a time. */
static void sink_fill(struct tsink *s, char c, size_t n)
{
    char block[4096];
    memset(block, c, n < sizeof block ? n : sizeof block);
    while (n > 0) {
        size_t k = n < sizeof block ? n : sizeof block;
        sink_put(s, block, k, NULL);
        n -= k;
    }
}

/**
 * Writes `n` bytes of `p` in a field of `width` (none when negative): padded on the left
 * with zeros for the 0 and + flags, spaces otherwise, nothing with the - flag; in the case
 * the directive asks for.
 */
static void put_field(struct tsink *s, const struct tspec *sp, int width, const char *p, size_t n)
{
    size_t w = sp->pad == '-' || width < 0 ? 0 : (size_t)width;
    if (n < w) {
        sink_fill(s, sp->pad == '0' || sp->pad == '+' ? '0' : ' ', w - n);
    }
    sink_put(s, p, n, sp);
}

/** A character in a field (%n, %t, %%, literal text): no change of case. */
static void put_char(struct tsink *s, const struct tspec *sp, int width, char c)
{
    struct tspec plain = *sp;
    plain.upcase = plain.lowcase = false;
    put_field(s, &plain, width, &c, 1);
}

/**
 * The digits of a number, signed and padded: `digits` is its width when the directive gives
 * none; zeros by default (the _ flag: spaces before the sign; -: none); `sign` 0, '-' or '+'.
 */
static void put_digits(struct tsink *s, struct tspec *sp, int digits, const char *p, size_t n,
                       char sign)
{
    if (sp->pad == 0) {
        sp->pad = '0';
    }
    int width = sp->width < 0 ? digits : sp->width;
    if (sign != 0) {
        long long shortage = (long long)width - 1 - (long long)n;
        if (sp->pad == '_' && shortage > 0) {
            sink_fill(s, ' ', (size_t)shortage);
            width -= (int)shortage;
        }
        sink_put(s, &sign, 1, NULL);
        width--;
    }
    put_field(s, sp, width, p, n);
}

/**
 * A number as gnulib keeps it: its bits in an unsigned int `u`, taken as negative (and
 * negated) when `negative` says so; a '+' with `always_sign`; a ':' before each digit whose
 * bit is set in `colons` (the time zone's forms).
 */
static void put_number(struct tsink *s, struct tspec *sp, int digits, unsigned u, bool negative,
                       bool always_sign, unsigned colons)
{
    char buf[32];
    char *b = buf + sizeof buf;
    if (negative) {
        u = 0u - u;
    }
    do {
        if (colons & 1) {
            *--b = ':';
        }
        colons >>= 1;
        *--b = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0 || colons != 0);
    put_digits(s, sp, digits, b, (size_t)(buf + sizeof buf - b),
               negative      ? '-'
               : always_sign ? '+'
                             : 0);
}

/**
 * One conversion from the C library's strftime (a locale's text, or an E or O form),
 * written as a field. A single conversion of more than 1,023 bytes writes nothing, as in du
 * (gnulib's buffer for it); no locale has such a name.
 */
static void put_strftime(struct tsink *s, const struct tspec *sp, char conv)
{
    char fmt[5] = {' ', '%'}; // the space tells an empty result from a failure
    size_t k = 2;
    if (sp->modifier != 0) {
        fmt[k++] = (char)sp->modifier;
    }
    fmt[k++] = conv;
    fmt[k] = '\0';
    char buf[1024];
    // The conversion is one of the few strftime has; the format is this function's own.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    size_t len = strftime(buf, sizeof buf, fmt, s->tm);
#pragma GCC diagnostic pop
    if (len > 0) {
        put_field(s, sp, sp->width, buf + 1, len - 1);
    }
}

static void format_time(struct tsink *s, const char *format, bool upcase, int yr_spec, int width);

/** A subformat (%D, %F, %R, %T): measured, padded as a whole to the directive's width,
 *  written with its case and year padding; `subwidth` is its first directive's width. */
static void put_subformat(struct tsink *s, const struct tspec *sp, const char *subfmt, int subwidth)
{
    struct tsink count = *s;
    count.out = NULL;
    count.n = 0;
    format_time(&count, subfmt, sp->upcase, sp->pad, subwidth);
    size_t w = sp->pad == '-' || sp->width < 0 ? 0 : (size_t)sp->width;
    if (count.n < w) {
        sink_fill(s, sp->pad == '0' || sp->pad == '+' ? '0' : ' ', w - (size_t)count.n);
    }
    format_time(s, subfmt, sp->upcase, sp->pad, subwidth);
}

static void put_strftime(struct tsink *s, const struct tspec *sp, char conv);

/** A number (see put_number()), or with the O modifier, where it is not negative, the
 *  locale's form of conversion `conv` from strftime. */
static void put_number_or_alt(struct tsink *s, struct tspec *sp, char conv, int digits, unsigned u,
                              bool negative, bool always_sign)
{
    if (sp->modifier == 'O' && !negative) {
        put_strftime(s, sp, conv);
    } else {
        put_number(s, sp, digits, u, negative, always_sign, 0);
    }
}

/** A year's forms (%Y %C %y %G %g): a subformat's year padding when none is given, and a
 *  '+' with the + flag on a year of more digits, or in a field wider than `digits`. */
static void put_yearish(struct tsink *s, struct tspec *sp, char conv, int yr_spec, int digits,
                        unsigned u, bool negative)
{
    if (sp->pad == 0) {
        sp->pad = yr_spec;
    }
    bool sign = sp->pad == '+' && ((digits == 2 ? 99u : 9999u) < u || digits < sp->width);
    put_number_or_alt(s, sp, conv, digits, u, negative, sign);
}

/** Days from the Monday of the year's first ISO week (the one with its first Thursday) to
 *  the day `yday` with week day `wday`; negative in the last week of the year before. */
static int iso_week_days(int yday, int wday)
{
    const int shift = (366 / 7 + 2) * 7; // keeps the left operand of % positive
    return yday - (yday - wday + 4 + shift) % 7 + 3;
}

static bool is_leap(int year)
{
    return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

/** %G, %g, %V: the ISO week-numbering year and week. */
static void put_iso_week(struct tsink *s, struct tspec *sp, int yr_spec, char conv)
{
    const struct tm *tm = s->tm;
    // A year with the leap years of tm_year + 1900, that cannot overflow.
    int year = tm->tm_year + (tm->tm_year < 0 ? 1900 % 400 : 1900 % 400 - 400);
    int adjust = 0;
    int days = iso_week_days(tm->tm_yday, tm->tm_wday);
    if (days < 0) {
        adjust = -1; // the last week of the year before
        days = iso_week_days(tm->tm_yday + (365 + is_leap(year - 1)), tm->tm_wday);
    } else {
        int next = iso_week_days(tm->tm_yday - (365 + is_leap(year)), tm->tm_wday);
        if (next >= 0) {
            adjust = 1; // the first week of the year after
            days = next;
        }
    }
    if (conv == 'g') {
        int yy = (tm->tm_year % 100 + adjust) % 100;
        int v = yy >= 0 ? yy : tm->tm_year < -1900 - adjust ? -yy : yy + 100;
        put_yearish(s, sp, conv, yr_spec, 2, (unsigned)v, false);
    } else if (conv == 'G') {
        put_yearish(s, sp, conv, yr_spec, 4, (unsigned)tm->tm_year + 1900u + (unsigned)adjust,
                    tm->tm_year < -1900 - adjust);
    } else {
        put_number_or_alt(s, sp, conv, 2, (unsigned)(days / 7 + 1), false, false);
    }
}

/** %z and its colon forms (`colons` 0 to 3; `conv` 'z' or ':'): the offset from UTC,
 *  always signed. */
static void put_zone_offset(struct tsink *s, struct tspec *sp, char conv, size_t colons)
{
    const struct tm *tm = s->tm;
    if (tm->tm_isdst < 0) {
        return; // no zone known
    }
    long diff = tm->tm_gmtoff;
    const char *zone = tm->tm_zone != NULL ? tm->tm_zone : "";
    bool negative = diff < 0 || (diff == 0 && zone[0] == '-');
    if (sp->modifier == 'O' && !negative) {
        put_strftime(s, sp, conv);
        return;
    }
    int hours = (int)(diff / 60 / 60);
    int minutes = (int)(diff / 60 % 60);
    int seconds = (int)(diff % 60);
    if (colons == 3) {
        colons = seconds != 0 ? 2 : minutes != 0 ? 1 : 3; // +hh where it says all
    }
    static const int digits[] = {5, 6, 9, 3};        // the sign included
    static const unsigned masks[] = {0, 04, 024, 0}; // a ':' before these digits
    int values[] = {hours * 100 + minutes, hours * 100 + minutes,
                    hours * 10000 + minutes * 100 + seconds, hours};
    put_number(s, sp, digits[colons], (unsigned)values[colons], negative, true, masks[colons]);
}

/** %N: the nanoseconds, cut to the width (9 digits by default), trailing zeros dropped
 *  and the field then padded on the right (zeros by default). */
static void put_nanoseconds(struct tsink *s, struct tspec *sp)
{
    int width = sp->width <= 0 ? 9 : sp->width;
    int n = s->ns;
    int ndigits = 9;
    while (width < ndigits || (ndigits > 1 && n % 10 == 0)) {
        ndigits--;
        n /= 10;
    }
    char buf[9];
    for (int j = ndigits; j > 0; j--) {
        buf[j - 1] = (char)('0' + n % 10);
        n /= 10;
    }
    if (sp->pad == 0) {
        sp->pad = '0';
    }
    sink_put(s, buf, (size_t)ndigits, NULL);
    put_field(s, sp, width - ndigits, "", 0);
}

/** %s: the seconds since the epoch, with their sign. */
static void put_seconds(struct tsink *s, struct tspec *sp)
{
    char buf[24];
    char *b = buf + sizeof buf;
    long long t = s->sec;
    do {
        int d = (int)(t % 10);
        t /= 10;
        *--b = (char)('0' + (d < 0 ? -d : d));
    } while (t != 0);
    put_digits(s, sp, 1, b, (size_t)(buf + sizeof buf - b), s->sec < 0 ? '-' : 0);
}

/**
 * Writes `format` (a subformat with `upcase`, the year padding `yr_spec` and the width of
 * its first directive `width`, or -1).
 */
static void format_time(struct tsink *s, const char *format, bool upcase, int yr_spec, int width)
{
    const struct tm *tm = s->tm;
    int hour12 = tm->tm_hour > 12 ? tm->tm_hour - 12 : tm->tm_hour == 0 ? 12 : tm->tm_hour;
    for (const char *f = format; *f != '\0'; width = -1, f++) {
        struct tspec sp = {.width = width, .upcase = upcase};
        if (*f != '%') {
            put_char(s, &sp, width, *f);
            continue;
        }
        const char *percent = f;
        for (;;) {
            char c = *++f;
            if (c == '_' || c == '-' || c == '+' || c == '0') {
                sp.pad = (unsigned char)c;
            } else if (c == '^') {
                sp.upcase = true;
            } else if (c == '#') {
                sp.change_case = true;
            } else {
                break;
            }
        }
        if (*f >= '0' && *f <= '9') {
            sp.width = 0;
            do { // as far as INT_MAX: a field of 2 GiB, written a block at a time
                int digit = *f - '0';
                sp.width = sp.width > (INT_MAX - digit) / 10 ? INT_MAX : sp.width * 10 + digit;
                f++;
            } while (*f >= '0' && *f <= '9');
        }
        if (*f == 'E' || *f == 'O') {
            sp.modifier = (unsigned char)*f++;
        }
        char conv = *f;
        bool bad = false;
        bool e = sp.modifier == 'E';
        bool o = sp.modifier == 'O';
        switch (conv) {
        case '%':
            if (f - 1 != percent) {
                f--; // "%5%": "%5" is copied, and the second '%' starts a directive
                bad = true;
            } else {
                put_char(s, &sp, sp.width, '%');
            }
            break;
        case 'a':
        case 'A':
            bad = sp.modifier != 0;
            if (!bad) {
                sp.upcase |= sp.change_case;
                put_strftime(s, &sp, conv);
            }
            break;
        case 'b':
        case 'h':
        case 'B':
            bad = e;
            if (conv != 'B' || !bad) {
                sp.upcase |= sp.change_case; // %#Eh is copied in capitals, %#EB as written
            }
            if (!bad) {
                put_strftime(s, &sp, conv);
            }
            break;
        case 'c':
        case 'x':
        case 'X':
            bad = o;
            if (!bad) {
                put_strftime(s, &sp, conv);
            }
            break;
        case 'r':
            put_strftime(s, &sp, conv);
            break;
        case 'P':
        case 'p':
            sp.lowcase = conv == 'P'; // %P: the locale's am/pm in small letters
            if (sp.change_case) {
                sp.upcase = false;
                sp.lowcase = true;
            }
            put_strftime(s, &sp, 'p');
            break;
        case 'C':
            if (e) {
                put_strftime(s, &sp, conv);
            } else {
                int century = tm->tm_year / 100 + 1900 / 100;
                century -= tm->tm_year % 100 < 0 && 0 < century;
                put_yearish(s, &sp, conv, yr_spec, 2, (unsigned)century, tm->tm_year < -1900);
            }
            break;
        case 'y':
            if (e) {
                put_strftime(s, &sp, conv);
            } else {
                int yy = tm->tm_year % 100;
                if (yy < 0) {
                    yy = tm->tm_year < -1900 ? -yy : yy + 100;
                }
                put_yearish(s, &sp, conv, yr_spec, 2, (unsigned)yy, false);
            }
            break;
        case 'Y':
            bad = o;
            if (e) {
                put_strftime(s, &sp, conv);
            } else if (!bad) {
                put_yearish(s, &sp, conv, yr_spec, 4, (unsigned)tm->tm_year + 1900u,
                            tm->tm_year < -1900);
            }
            break;
        case 'G':
        case 'g':
        case 'V':
            bad = e;
            if (!bad) {
                put_iso_week(s, &sp, yr_spec, conv);
            }
            break;
        case 'D':
        case 'F':
        case 'R':
        case 'T':
            bad = sp.modifier != 0 && (conv == 'D' || conv == 'F');
            if (bad) {
                break;
            }
            if (conv == 'F') {
                int subwidth = 4;
                if (sp.pad == 0 && sp.width < 0) {
                    sp.pad = '+'; // a year of more than 4 digits gets its sign
                } else {
                    subwidth = sp.width - 6 < 0 ? 0 : sp.width - 6;
                }
                put_subformat(s, &sp, "%Y-%m-%d", subwidth);
            } else {
                put_subformat(s, &sp,
                              conv == 'D'   ? "%m/%d/%y"
                              : conv == 'R' ? "%H:%M"
                                            : "%H:%M:%S",
                              -1);
            }
            break;
        case 'd':
        case 'e':
        case 'H':
        case 'I':
        case 'k':
        case 'l':
        case 'M':
        case 'S':
        case 'U':
        case 'W':
        case 'w': {
            bad = e;
            if (bad) {
                break;
            }
            int v = conv == 'd' || conv == 'e'   ? tm->tm_mday
                    : conv == 'H' || conv == 'k' ? tm->tm_hour
                    : conv == 'I' || conv == 'l' ? hour12
                    : conv == 'M'                ? tm->tm_min
                    : conv == 'S'                ? tm->tm_sec
                    : conv == 'U'                ? (tm->tm_yday - tm->tm_wday + 7) / 7
                    : conv == 'W'                ? (tm->tm_yday - (tm->tm_wday - 1 + 7) % 7 + 7) / 7
                                                 : tm->tm_wday;
            if ((conv == 'e' || conv == 'k' || conv == 'l') && sp.pad == 0) {
                sp.pad = '_'; // padded with spaces by default
            }
            put_number_or_alt(s, &sp, conv, conv == 'w' ? 1 : 2, (unsigned)v, v < 0, false);
            break;
        }
        case 'u':
            put_number_or_alt(s, &sp, conv, 1, (unsigned)((tm->tm_wday - 1 + 7) % 7 + 1), false,
                              false);
            break;
        case 'j':
            bad = e;
            if (!bad) {
                put_number_or_alt(s, &sp, conv, 3, (unsigned)tm->tm_yday + 1u, tm->tm_yday < -1,
                                  false);
            }
            break;
        case 'm':
            bad = e;
            if (!bad) {
                put_number_or_alt(s, &sp, conv, 2, (unsigned)tm->tm_mon + 1u, tm->tm_mon < -1,
                                  false);
            }
            break;
        case 'q':
            put_number_or_alt(s, &sp, conv, 1, (unsigned)(((tm->tm_mon * 11) >> 5) + 1), false,
                              false);
            break;
        case 'N':
            bad = e;
            if (!bad) {
                put_nanoseconds(s, &sp);
            }
            break;
        case 's':
            put_seconds(s, &sp);
            break;
        case 'n':
        case 't':
            put_char(s, &sp, sp.width, conv == 'n' ? '\n' : '\t');
            break;
        case 'Z':
            if (sp.change_case) {
                sp.upcase = false;
                sp.lowcase = true;
            }
            put_field(s, &sp, sp.width, tm->tm_zone != NULL ? tm->tm_zone : "",
                      tm->tm_zone != NULL ? strlen(tm->tm_zone) : 0);
            break;
        case ':': {
            // %:z, %::z, %:::z; a colon anywhere else is copied.
            size_t colons = 1;
            while (f[colons] == ':') {
                colons++;
            }
            if (f[colons] != 'z') {
                bad = true;
                break;
            }
            f += colons;
            bad = colons > 3;
            if (!bad) {
                put_zone_offset(s, &sp, ':', colons);
            }
            break;
        }
        case 'z':
            put_zone_offset(s, &sp, conv, 0);
            break;
        case '\0':
            f--; // a '%' (and flags) at the end: copied; the loop ends after it
            bad = true;
            break;
        default:
            bad = true;
            break;
        }
        if (bad) {
            // Not a directive: copied as written, as a field of its width.
            put_field(s, &sp, sp.width, percent, (size_t)(f - percent + 1));
        }
    }
}

void du_write_time(FILE *out, const char *format, const struct tm *tm, long long sec, int ns)
{
    struct tsink s = {.out = out, .tm = tm, .sec = sec, .ns = ns};
    format_time(&s, format, false, 0, -1);
}
