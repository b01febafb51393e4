// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The literal pieces of a POSIX regular expression (frdindex_regex.h). */
#include "frdindex_regex.h"

#include <stdlib.h>
#include <string.h>

/** The run being read: bytes [start, end) of the expression, its last character at last. */
struct runs {
    const char *re;
    struct index_piece *out;
    size_t n, max;
    size_t start, last;
    bool in_run;
};

/** Ends the run at byte `at`, kept when 3+ bytes long. */
static void end_run(struct runs *r, size_t at)
{
    if (r->in_run && at - r->start >= 3 && r->n < r->max) {
        r->out[r->n++] = (struct index_piece){r->re + r->start, at - r->start};
    }
    r->in_run = false;
}

/** Adds the character at `at` to the run, or starts one with it. */
static void add_char(struct runs *r, size_t at)
{
    if (!r->in_run) {
        r->start = at;
        r->in_run = true;
    }
    r->last = at;
}

/** @return the length of the character at `p` (1 for a byte that starts none). */
static size_t char_len(const char *p, bool multibyte)
{
    if (!multibyte || (unsigned char)*p < 0x80) {
        return 1;
    }
    int len = mblen(p, MB_CUR_MAX);
    return len > 0 ? (size_t)len : 1;
}

/** @return the index past the bracket expression opening at re[i] (no escapes in brackets),
 *  or 0 when it has no end. */
static size_t bracket_end(const char *re, size_t i)
{
    size_t j = i + 1;
    if (re[j] == '^') {
        j++;
    }
    if (re[j] == ']') {
        j++;
    }
    while (re[j] != '\0' && re[j] != ']') {
        if (re[j] == '[' && (re[j + 1] == ':' || re[j + 1] == '.' || re[j + 1] == '=')) {
            char kind = re[j + 1];
            const char *close = strchr(re + j + 2, kind);
            while (close != NULL && close[1] != ']') {
                close = strchr(close + 1, kind);
            }
            if (close == NULL) {
                return 0;
            }
            j = (size_t)(close - re) + 2;
        } else {
            j++;
        }
    }
    return re[j] == ']' ? j + 1 : 0;
}

/** @return the index past an interval's body starting at re[i] (after its '{' or "\{"):
 *  digits and commas, then '}' (ERE) or "\}" (BRE); 0 when it is not that. */
static size_t interval_end(const char *re, size_t i, bool extended)
{
    i += strspn(re + i, "0123456789,");
    if (extended) {
        return re[i] == '}' ? i + 1 : 0;
    }
    return re[i] == '\\' && re[i + 1] == '}' ? i + 2 : 0;
}

size_t index_regex_pieces(const char *re, bool extended, bool ignore_case, struct index_piece *out,
                          size_t max)
{
    bool multibyte = MB_CUR_MAX > 1;
    // Escaped, these stand for themselves; any other escape is an operator or GNU's.
    const char *escapable = extended ? ".[]\\*^$+?{}()|" : ".[]\\*^$";
    struct runs r = {.re = re, .out = out, .max = max};
    unsigned depth = 0;
    size_t i = 0;
    while (re[i] != '\0') {
        char c = re[i];
        char e = c == '\\' ? re[i + 1] : '\0';
        if (c == '\\' && e == '\0') {
            return 0;
        }
        bool quantifier = extended ? c == '*' || c == '+' || c == '?' || c == '{'
                                   : c == '*' || e == '+' || e == '?' || e == '{';
        if (quantifier) {
            // The last character may be absent or repeated: the run ends before it.
            end_run(&r, r.in_run ? r.last : i);
            bool interval = c == '{' || e == '{';
            i += c == '\\' ? 2 : 1;
            if (interval && (i = interval_end(re, i, extended)) == 0) {
                return 0;
            }
            continue;
        }
        bool open = extended ? c == '(' : e == '(';
        bool close = extended ? c == ')' : e == ')';
        bool alternation = extended ? c == '|' : e == '|';
        if (open || close || alternation) {
            if (alternation && depth == 0) {
                return 0; // either side may match: no run is needed by every match
            }
            end_run(&r, i);
            depth = open ? depth + 1 : close && depth > 0 ? depth - 1 : depth;
            i += c == '\\' ? 2 : 1;
            continue;
        }
        if (c == '[') {
            end_run(&r, i);
            if ((i = bracket_end(re, i)) == 0) {
                return 0;
            }
            continue;
        }
        if (c == '\\') {
            size_t len = char_len(re + i + 1, multibyte);
            if (depth == 0 && strchr(escapable, e) != NULL &&
                index_piece_byte((unsigned char)e, ignore_case, multibyte)) {
                end_run(&r, i); // the escaped byte starts a run: the '\\' is no part of it
                add_char(&r, i + 1);
            } else {
                end_run(&r, i);
            }
            i += 1 + len;
            continue;
        }
        size_t len = char_len(re + i, multibyte);
        bool literal = depth == 0 && c != '.' && c != '^' && c != '$' && c != ']' && c != '}';
        for (size_t k = 0; literal && k < len; k++) {
            literal = index_piece_byte((unsigned char)re[i + k], ignore_case, multibyte);
        }
        if (literal) {
            add_char(&r, i);
        } else {
            end_run(&r, i);
        }
        i += len;
    }
    end_run(&r, i);
    return r.n;
}
