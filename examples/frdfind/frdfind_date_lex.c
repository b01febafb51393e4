// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The words and numbers of -newerXt's dates, as find's parse_datetime() reads them: blanks
 * skipped, comments in parentheses dropped (an unclosed one ends the date), a number with
 * its sign (blanks may follow the sign; a sign without a number is dropped) and a fraction
 * after '.' or ',' (to the nanosecond, truncated toward minus infinity), words of letters
 * and dots in any case looked up in find's tables (a 3-letter word, or 3 and a dot, for a
 * month or a day; a plural unit; the zone names of the local zone, find's zones, the
 * military letters but J; a zone name without its dots), any other character itself.
 */
#define _DEFAULT_SOURCE // tm_zone

#include "frdfind_date_lex.h"

#include <string.h>

#define BILLION 1000000000
/** A word and its token. */
struct word {
    const char *name;
    enum tok_type type;
    int value;
};

#define HOUR(x) ((x)*3600)

static const struct word meridians[] = {
    {"AM", TOK_MERIDIAN, MER_AM}, {"A.M.", TOK_MERIDIAN, MER_AM},
    {"PM", TOK_MERIDIAN, MER_PM}, {"P.M.", TOK_MERIDIAN, MER_PM},
    {NULL, TOK_END, 0},
};

/** Months and days: a 3-letter word (or 3 and a '.') matches the start of a name. */
static const struct word months_days[] = {
    {"JANUARY", TOK_MONTH, 1},   {"FEBRUARY", TOK_MONTH, 2}, {"MARCH", TOK_MONTH, 3},
    {"APRIL", TOK_MONTH, 4},     {"MAY", TOK_MONTH, 5},      {"JUNE", TOK_MONTH, 6},
    {"JULY", TOK_MONTH, 7},      {"AUGUST", TOK_MONTH, 8},   {"SEPTEMBER", TOK_MONTH, 9},
    {"SEPT", TOK_MONTH, 9},      {"OCTOBER", TOK_MONTH, 10}, {"NOVEMBER", TOK_MONTH, 11},
    {"DECEMBER", TOK_MONTH, 12}, {"SUNDAY", TOK_DAY, 0},     {"MONDAY", TOK_DAY, 1},
    {"TUESDAY", TOK_DAY, 2},     {"TUES", TOK_DAY, 2},       {"WEDNESDAY", TOK_DAY, 3},
    {"WEDNES", TOK_DAY, 3},      {"THURSDAY", TOK_DAY, 4},   {"THUR", TOK_DAY, 4},
    {"THURS", TOK_DAY, 4},       {"FRIDAY", TOK_DAY, 5},     {"SATURDAY", TOK_DAY, 6},
    {NULL, TOK_END, 0},
};

static const struct word units[] = {
    {"YEAR", TOK_YEAR_UNIT, 1},     {"MONTH", TOK_MONTH_UNIT, 1}, {"FORTNIGHT", TOK_DAY_UNIT, 14},
    {"WEEK", TOK_DAY_UNIT, 7},      {"DAY", TOK_DAY_UNIT, 1},     {"HOUR", TOK_HOUR_UNIT, 1},
    {"MINUTE", TOK_MINUTE_UNIT, 1}, {"MIN", TOK_MINUTE_UNIT, 1},  {"SECOND", TOK_SEC_UNIT, 1},
    {"SEC", TOK_SEC_UNIT, 1},       {NULL, TOK_END, 0},
};

static const struct word relatives[] = {
    {"TOMORROW", TOK_DAY_SHIFT, 1},
    {"YESTERDAY", TOK_DAY_SHIFT, -1},
    {"TODAY", TOK_DAY_SHIFT, 0},
    {"NOW", TOK_DAY_SHIFT, 0},
    {"LAST", TOK_ORDINAL, -1},
    {"THIS", TOK_ORDINAL, 0},
    {"NEXT", TOK_ORDINAL, 1},
    {"FIRST", TOK_ORDINAL, 1},
    {"THIRD", TOK_ORDINAL, 3},
    {"FOURTH", TOK_ORDINAL, 4},
    {"FIFTH", TOK_ORDINAL, 5},
    {"SIXTH", TOK_ORDINAL, 6},
    {"SEVENTH", TOK_ORDINAL, 7},
    {"EIGHTH", TOK_ORDINAL, 8},
    {"NINTH", TOK_ORDINAL, 9},
    {"TENTH", TOK_ORDINAL, 10},
    {"ELEVENTH", TOK_ORDINAL, 11},
    {"TWELFTH", TOK_ORDINAL, 12},
    {"AGO", TOK_AGO, -1},
    {"HENCE", TOK_AGO, 1},
    {NULL, TOK_END, 0},
};

/** Names valid whatever the local zone. */
static const struct word universal_zones[] = {
    {"GMT", TOK_ZONE, 0},
    {"UT", TOK_ZONE, 0},
    {"UTC", TOK_ZONE, 0},
    {NULL, TOK_END, 0},
};

/** find's table of zone names (ambiguous ones as find takes them: EST is US Eastern). */
static const struct word zones[] = {
    {"WET", TOK_ZONE, HOUR(0)},           {"WEST", TOK_DAYZONE, HOUR(0)},
    {"BST", TOK_DAYZONE, HOUR(0)},        {"ART", TOK_ZONE, -HOUR(3)},
    {"BRT", TOK_ZONE, -HOUR(3)},          {"BRST", TOK_DAYZONE, -HOUR(3)},
    {"NST", TOK_ZONE, -(HOUR(3) + 1800)}, {"NDT", TOK_DAYZONE, -(HOUR(3) + 1800)},
    {"AST", TOK_ZONE, -HOUR(4)},          {"ADT", TOK_DAYZONE, -HOUR(4)},
    {"CLT", TOK_ZONE, -HOUR(4)},          {"CLST", TOK_DAYZONE, -HOUR(4)},
    {"EST", TOK_ZONE, -HOUR(5)},          {"EDT", TOK_DAYZONE, -HOUR(5)},
    {"CST", TOK_ZONE, -HOUR(6)},          {"CDT", TOK_DAYZONE, -HOUR(6)},
    {"MST", TOK_ZONE, -HOUR(7)},          {"MDT", TOK_DAYZONE, -HOUR(7)},
    {"PST", TOK_ZONE, -HOUR(8)},          {"PDT", TOK_DAYZONE, -HOUR(8)},
    {"AKST", TOK_ZONE, -HOUR(9)},         {"AKDT", TOK_DAYZONE, -HOUR(9)},
    {"HST", TOK_ZONE, -HOUR(10)},         {"HAST", TOK_ZONE, -HOUR(10)},
    {"HADT", TOK_DAYZONE, -HOUR(10)},     {"SST", TOK_ZONE, -HOUR(12)},
    {"WAT", TOK_ZONE, HOUR(1)},           {"CET", TOK_ZONE, HOUR(1)},
    {"CEST", TOK_DAYZONE, HOUR(1)},       {"MET", TOK_ZONE, HOUR(1)},
    {"MEZ", TOK_ZONE, HOUR(1)},           {"MEST", TOK_DAYZONE, HOUR(1)},
    {"MESZ", TOK_DAYZONE, HOUR(1)},       {"EET", TOK_ZONE, HOUR(2)},
    {"EEST", TOK_DAYZONE, HOUR(2)},       {"CAT", TOK_ZONE, HOUR(2)},
    {"SAST", TOK_ZONE, HOUR(2)},          {"EAT", TOK_ZONE, HOUR(3)},
    {"MSK", TOK_ZONE, HOUR(3)},           {"MSD", TOK_DAYZONE, HOUR(3)},
    {"IST", TOK_ZONE, HOUR(5) + 1800},    {"SGT", TOK_ZONE, HOUR(8)},
    {"KST", TOK_ZONE, HOUR(9)},           {"JST", TOK_ZONE, HOUR(9)},
    {"GST", TOK_ZONE, HOUR(10)},          {"NZST", TOK_ZONE, HOUR(12)},
    {"NZDT", TOK_DAYZONE, HOUR(12)},      {NULL, TOK_END, 0},
};

static const struct word *find_word(const struct word *table, const char *w)
{
    for (; table->name != NULL; table++) {
        if (strcmp(w, table->name) == 0) {
            return table;
        }
    }
    return NULL;
}

/** A zone name: universal, local (as *local_tok), or from find's table. */
static bool find_zone(const struct local_names *local, const char *w, struct tok *t)
{
    const struct word *hit = find_word(universal_zones, w);
    if (hit == NULL) {
        for (int i = 0; i < local->count; i++) {
            if (strcmp(w, local->name[i]) == 0) {
                t->type = TOK_LOCAL_ZONE;
                t->value = local->isdst[i];
                return true;
            }
        }
        hit = find_word(zones, w);
    }
    if (hit == NULL) {
        return false;
    }
    t->type = hit->type;
    t->value = hit->value;
    return true;
}

/** The token of a word (already upper case, at most 19 letters and dots). */
static void lookup_word(const struct local_names *local, char *w, struct tok *t)
{
    const struct word *hit = find_word(meridians, w);
    size_t len = strlen(w);
    bool abbrev = len == 3 || (len == 4 && w[3] == '.');
    for (const struct word *m = months_days; hit == NULL && m->name != NULL; m++) {
        if ((abbrev ? strncmp(w, m->name, 3) : strcmp(w, m->name)) == 0) {
            hit = m;
        }
    }
    if (hit == NULL && find_zone(local, w, t)) {
        return;
    }
    if (hit == NULL && strcmp(w, "DST") == 0) {
        t->type = TOK_DST;
        return;
    }
    if (hit == NULL) {
        hit = find_word(units, w);
    }
    if (hit == NULL && w[len - 1] == 'S') { // a plural unit
        w[len - 1] = '\0';
        hit = find_word(units, w);
        w[len - 1] = 'S';
    }
    if (hit == NULL) {
        hit = find_word(relatives, w);
    }
    if (hit == NULL && len == 1 && w[0] != 'J') { // military zones: A to Z but J (T: UTC-7)
        char c = w[0];
        t->type = c == 'T' ? TOK_T : TOK_ZONE;
        t->value = c == 'Z'   ? 0
                   : c <= 'I' ? HOUR(c - 'A' + 1) // A +1 ... I +9
                   : c <= 'M' ? HOUR(c - 'A')     // K +10 ... M +12
                              : -HOUR(c - 'M');   // N -1 ... Y -12
        return;
    }
    if (hit == NULL) {
        // Zone names with dots ("U.T.C."): without them.
        char bare[20];
        size_t n = 0;
        bool dots = false;
        for (size_t i = 0; i < len; i++) {
            if (w[i] == '.') {
                dots = true;
            } else {
                bare[n++] = w[i];
            }
        }
        bare[n] = '\0';
        if (dots && find_zone(local, bare, t)) {
            return;
        }
        t->type = TOK_BAD;
        return;
    }
    t->type = hit->type;
    t->value = hit->value;
}

bool ff_date_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/** Reads a number at *pp (its sign, if any, just read: sign -1, 1, or 0 for none). */
static void lex_number(const char **pp, int sign, struct tok *t)
{
    const char *start = *pp;
    const char *p = start;
    int64_t value = 0;
    for (; is_digit(*p); p++) {
        int d = *p - '0';
        if (__builtin_mul_overflow(value, 10, &value) ||
            __builtin_add_overflow(value, sign < 0 ? -d : d, &value)) {
            t->type = TOK_BAD;
            return;
        }
    }
    if ((*p == '.' || *p == ',') && is_digit(p[1])) {
        // A fraction, to the nanosecond: later digits truncated toward minus infinity.
        int64_t s = value;
        p++;
        int ns = *p++ - '0';
        for (int digits = 2; digits <= 9; digits++) {
            ns *= 10;
            if (is_digit(*p)) {
                ns += *p++ - '0';
            }
        }
        for (; sign < 0 && is_digit(*p); p++) {
            if (*p != '0') {
                ns++;
                break;
            }
        }
        while (is_digit(*p)) {
            p++;
        }
        if (sign < 0 && ns != 0) {
            if (__builtin_sub_overflow(s, 1, &s)) {
                t->type = TOK_BAD;
                return;
            }
            ns = BILLION - ns;
        }
        t->type = sign != 0 ? TOK_SDECIMAL : TOK_UDECIMAL;
        t->ts.tv_sec = (time_t)s;
        t->ts.tv_nsec = ns;
        *pp = p;
        return;
    }
    t->type = sign != 0 ? TOK_SNUMBER : TOK_UNUMBER;
    t->value = value;
    t->negative = sign < 0;
    t->digits = (int)(p - start);
    *pp = p;
}

/** The next token at *pp. */
void ff_date_lex(const struct local_names *local, const char **pp, struct tok *t)
{
    memset(t, 0, sizeof(*t));
    const char *p = *pp;
    for (;;) {
        while (ff_date_space(*p)) {
            p++;
        }
        if (is_digit(*p) || *p == '-' || *p == '+') {
            int sign = 0;
            if (*p == '-' || *p == '+') {
                sign = *p == '-' ? -1 : 1;
                p++;
                while (ff_date_space(*p)) {
                    p++;
                }
                if (!is_digit(*p)) {
                    continue; // a sign without a number is dropped
                }
            }
            lex_number(&p, sign, t);
            *pp = p;
            return;
        }
        if (is_alpha(*p)) {
            char w[20] = {0}; // (zeroed: clang-analyzer cannot follow the loop below)
            size_t n = 0;
            do {
                if (n < sizeof(w) - 1) {
                    w[n++] = (*p >= 'a' && *p <= 'z') ? (char)(*p - 'a' + 'A') : *p;
                }
                p++;
            } while (is_alpha(*p) || *p == '.');
            w[n] = '\0';
            lookup_word(local, w, t);
            *pp = p;
            return;
        }
        if (*p != '(') {
            t->type = *p == '\0' ? TOK_END : TOK_CHAR;
            t->value = (unsigned char)*p;
            *pp = *p == '\0' ? p : p + 1;
            return;
        }
        // A comment, nested parentheses allowed; an unclosed one ends the date.
        intmax_t depth = 0;
        do {
            char c = *p++;
            if (c == '\0') {
                t->type = TOK_END;
                *pp = p - 1;
                return;
            }
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        } while (depth != 0);
    }
}

/** The local zone's names now and in the next three quarters (find's local_time_zone_table). */
void ff_date_zone_names(time_t now, const struct tm *tm_now, struct local_names *local)
{
    local->count = 0;
    if (tm_now->tm_zone == NULL || strlen(tm_now->tm_zone) >= sizeof(local->name[0])) {
        return;
    }
    memcpy(local->name[0], tm_now->tm_zone, strlen(tm_now->tm_zone) + 1);
    local->isdst[0] = tm_now->tm_isdst;
    local->count = 1;
    for (int quarter = 1; quarter <= 3; quarter++) {
        time_t probe;
        struct tm tm;
        if (__builtin_add_overflow(now, (time_t)quarter * 90 * 24 * 60 * 60, &probe)) {
            break;
        }
        if (localtime_r(&probe, &tm) != NULL && tm.tm_zone != NULL &&
            tm.tm_isdst != local->isdst[0] && strlen(tm.tm_zone) < sizeof(local->name[1])) {
            memcpy(local->name[1], tm.tm_zone, strlen(tm.tm_zone) + 1);
            local->isdst[1] = tm.tm_isdst;
            local->count = 2;
            break;
        }
    }
    if (local->count == 2 && strcmp(local->name[0], local->name[1]) == 0) {
        local->isdst[0] = -1; // one name for both: it says nothing of summer time
        local->count = 1;
    }
}
