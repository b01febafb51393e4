// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Formats and parses sizes as GNU du 9.1 does (gnulib's human.c and xstrtol.c rules). */
#define _POSIX_C_SOURCE 200809L

#include "frddu_size.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Multiplies *v by base^power, saturating. @return DU_NUM_OK or DU_NUM_OVERFLOW. */
static enum du_num_error scale(uint64_t *v, bool negative, unsigned base, unsigned power)
{
    // A negative value is scaled by its magnitude; the limit is then INT64_MIN's.
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : UINT64_MAX;
    enum du_num_error e = DU_NUM_OK;
    for (unsigned i = 0; i < power; i++) {
        if (*v > limit / base) {
            *v = limit;
            e = DU_NUM_OVERFLOW;
        } else {
            *v *= base;
        }
    }
    return e;
}

enum du_num_error du_parse_number(const char *text, const char *suffixes, int is_signed,
                                  uint64_t *out)
{
    const char *p = text;
    while (isspace((unsigned char)*p)) {
        p++;
    }
    bool negative = *p == '-';
    if (negative && !is_signed) {
        return DU_NUM_INVALID;
    }
    char *end;
    errno = 0;
    uint64_t mag;
    enum du_num_error e = DU_NUM_OK;
    if (is_signed) {
        intmax_t v = strtoimax(text, &end, 0);
        mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    } else {
        mag = strtoumax(text, &end, 0);
    }
    if (end == text) {
        // No number: a valid suffix alone stands for 1 ("K" is 1024).
        if (*end == '\0' || strchr(suffixes, *end) == NULL) {
            return DU_NUM_INVALID;
        }
        mag = 1;
    } else if (errno == ERANGE) {
        e = DU_NUM_OVERFLOW;
    } else if (errno != 0) {
        return DU_NUM_INVALID;
    }
    if (*end != '\0') {
        if (strchr(suffixes, *end) == NULL) {
            *out = negative ? (uint64_t)0 - mag : mag;
            return DU_NUM_SUFFIX;
        }
        unsigned base = 1024;
        size_t len = 1;
        if (strchr(suffixes, '0') != NULL) {
            if (end[1] == 'i' && end[2] == 'B') {
                len = 3;
            } else if (end[1] == 'B' || end[1] == 'D') {
                base = 1000;
                len = 2;
            }
        }
        static const char letters[] = "kKmMGgTtPEZY";
        static const unsigned powers[] = {1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8};
        const char *hit = strchr(letters, *end);
        if (hit == NULL || *end == '0') {
            return DU_NUM_SUFFIX;
        }
        enum du_num_error s = scale(&mag, negative, base, powers[hit - letters]);
        if (e == DU_NUM_OK) {
            e = s;
        }
        if (end[len] != '\0') {
            e = DU_NUM_SUFFIX;
        }
    }
    *out = negative ? (uint64_t)0 - mag : mag;
    return e;
}

/** @return whether `spec` is a non-empty prefix of `word` (argmatch's abbreviations). */
static bool is_prefix(const char *spec, const char *word)
{
    size_t n = strlen(spec);
    return n > 0 && strncmp(spec, word, n) == 0;
}

enum du_num_error du_parse_block_size(const char *spec, struct du_units *units)
{
    unsigned human = 0;
    if (*spec == '\'') {
        spec++;
        human |= DU_HUMAN_GROUP; // the locale's digit grouping
    }
    if (strcmp(spec, "si") == 0) {
        *units = (struct du_units){1, human | DU_HUMAN_AUTOSCALE | DU_HUMAN_SI};
        return DU_NUM_OK;
    }
    if (is_prefix(spec, "human-readable")) {
        *units = (struct du_units){1, human | DU_HUMAN_AUTOSCALE | DU_HUMAN_SI | DU_HUMAN_1024};
        return DU_NUM_OK;
    }
    uint64_t size;
    enum du_num_error e = du_parse_number(spec, "eEgGkKmMpPtTyYzZ0", 0, &size);
    if (e != DU_NUM_OK) {
        return e;
    }
    // No digit before the suffix ("K", "KiB", "kB"): sizes print with the unit appended.
    const char *p = spec;
    while (*p != '\0' && !isdigit((unsigned char)*p)) {
        p++;
    }
    if (*p == '\0') {
        size_t len = strlen(spec);
        human |= DU_HUMAN_SI;
        if (spec[len - 1] == 'B') {
            human |= DU_HUMAN_B;
        }
        if (spec[len - 1] != 'B' || (len >= 2 && spec[len - 2] == 'i')) {
            human |= DU_HUMAN_1024;
        }
    }
    if (size == 0) {
        return DU_NUM_INVALID;
    }
    *units = (struct du_units){size, human};
    return DU_NUM_OK;
}

/**
 * Writes the digits of `v` to `out` with `sep` between the groups `grouping` asks for, as
 * localeconv(3) describes it (gnulib's group_number): each byte the size of the next group
 * from the right, the last one repeated, CHAR_MAX for no more separators. @return bytes written.
 */
static size_t group_digits(uint64_t v, const char *grouping, const char *sep, char *out)
{
    char digits[24];
    size_t left = (size_t)snprintf(digits, sizeof digits, "%" PRIu64, v);
    char buf[DU_SIZE_MAX_LEN];
    char *p = buf + sizeof buf;
    size_t sep_len = strlen(sep);
    size_t group = SIZE_MAX;
    for (;;) {
        unsigned char g = (unsigned char)*grouping;
        if (g != 0) {
            group = g < CHAR_MAX ? g : left;
            grouping++;
        }
        group = group < left ? group : left;
        p -= group;
        left -= group;
        memcpy(p, digits + left, group);
        if (left == 0) {
            break;
        }
        p -= sep_len;
        memcpy(p, sep, sep_len);
    }
    size_t len = (size_t)(buf + sizeof buf - p);
    memcpy(out, p, len);
    return len;
}

char *du_format_size(uint64_t n, const struct du_units *units, char *out)
{
    static const char prefixes[] = "KMGTPEZY";
    const int max_exponent = 8;
    unsigned base = units->human & DU_HUMAN_1024 ? 1024 : 1000;
    // The locale's decimal point and thousands separator, as du takes them: a point of
    // more than MB_LEN_MAX bytes is ".", a separator of more is none.
    const struct lconv *lc = localeconv();
    const char *point = ".";
    if (lc->decimal_point != NULL && *lc->decimal_point != '\0' &&
        strlen(lc->decimal_point) <= MB_LEN_MAX) {
        point = lc->decimal_point;
    }
    const char *sep = lc->thousands_sep != NULL && strlen(lc->thousands_sep) <= MB_LEN_MAX
                          ? lc->thousands_sep
                          : "";
    const char *grouping = lc->grouping != NULL ? lc->grouping : "";
    uint64_t divisor = units->block_size ? units->block_size : 1;
    // The value is amount + tenths/10 + a remainder; `rounding` says where the remainder
    // lies: 0 none, 1 below half a tenth, 2 exactly half, 3 above half.
    uint64_t amount = n / divisor;
    uint64_t r10 = (n % divisor) * 10;
    uint64_t r2 = (r10 % divisor) * 2;
    unsigned tenths = (unsigned)(r10 / divisor);
    unsigned rounding = r2 < divisor ? (r2 > 0) : 2 + (divisor < r2);
    int exponent = -1;
    char decimal[MB_LEN_MAX + 2] = ""; // the point and one digit

    if (units->human & DU_HUMAN_AUTOSCALE) {
        exponent = 0;
        if (amount >= base) {
            do {
                unsigned rem10 = (unsigned)(amount % base) * 10 + tenths;
                unsigned rem2 = (rem10 % base) * 2 + (rounding >> 1);
                amount /= base;
                tenths = rem10 / base;
                rounding = rem2 < base ? (rem2 + rounding) != 0 : 2 + (base < rem2 + rounding);
                exponent++;
            } while (amount >= base && exponent < max_exponent);
            if (amount < 10) {
                if (rounding > 0) { // rounding up, always
                    tenths++;
                    rounding = 0;
                    if (tenths == 10) {
                        amount++;
                        tenths = 0;
                    }
                }
                if (amount < 10) {
                    snprintf(decimal, sizeof decimal, "%s%c", point, (char)('0' + tenths % 10));
                    tenths = 0;
                    rounding = 0;
                }
            }
        }
    }
    if (tenths + rounding > 0) {
        amount++;
        if ((units->human & DU_HUMAN_AUTOSCALE) && amount == base && exponent < max_exponent) {
            exponent++;
            snprintf(decimal, sizeof decimal, "%s0", point);
            amount = 1;
        }
    }
    char suffix[8] = "";
    if (units->human & DU_HUMAN_SI) {
        if (exponent < 0) {
            // A fixed unit (-BK, -BMiB): the prefix of the block size.
            exponent = 0;
            for (uint64_t power = 1; power < units->block_size; power *= base) {
                if (++exponent == max_exponent) {
                    break;
                }
            }
        }
        size_t s = 0;
        if (exponent > 0) {
            suffix[s++] =
                !(units->human & DU_HUMAN_1024) && exponent == 1 ? 'k' : prefixes[exponent - 1];
        }
        if (units->human & DU_HUMAN_B) {
            if ((units->human & DU_HUMAN_1024) && exponent > 0) {
                suffix[s++] = 'i';
            }
            suffix[s++] = 'B';
        }
        suffix[s] = '\0';
    }
    if (!(units->human & DU_HUMAN_GROUP)) {
        snprintf(out, DU_SIZE_MAX_LEN, "%" PRIu64 "%s%s", amount, decimal, suffix);
        return out;
    }
    size_t len = group_digits(amount, grouping, sep, out);
    snprintf(out + len, DU_SIZE_MAX_LEN - len, "%s%s", decimal, suffix);
    return out;
}
