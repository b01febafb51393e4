// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Quoting of names and arguments in messages as GNU coreutils quote them (see gnuquote.h). */
#define _POSIX_C_SOURCE 200809L

#include "gnuquote.h"

#include "grow.h"

#include <errno.h>
#include <langinfo.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

/**
 * The output: a growing string (NUL-terminated; `failed` once an allocation failed), or,
 * with `fixed`, the caller's buffer of cap bytes, which takes what fits (no NUL) while len
 * counts every byte.
 */
struct qbuf {
    char *s;
    size_t len, cap;
    bool fixed;
    bool failed;
};

static void put(struct qbuf *b, const char *s, size_t n)
{
    if (b->failed) {
        return;
    }
    if (b->fixed) {
        if (b->len < b->cap) {
            memcpy(b->s + b->len, s, b->cap - b->len < n ? b->cap - b->len : n);
        }
        b->len += n;
        return;
    }
    if (tool_reserve_chars(&b->s, &b->cap, b->len + n + 1) < 0) {
        b->failed = true;
        return;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void puts_(struct qbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

/**
 * @return how many bytes at s (of `left`) form one printable character, or 0 if the byte
 * at s does not start one (a control character, an invalid sequence, a byte above 0x7f in
 * a single-byte locale).
 */
static size_t printable_len(const char *s, size_t left)
{
    unsigned char c = (unsigned char)*s;
    if (c < 0x80) {
        return c >= 0x20 && c < 0x7f ? 1 : 0;
    }
    mbstate_t st;
    memset(&st, 0, sizeof st);
    wchar_t wc;
    size_t n = mbrtowc(&wc, s, left, &st);
    if (n == (size_t)-1 || n == (size_t)-2 || n == 0 || !iswprint((wint_t)wc)) {
        return 0;
    }
    return n;
}

/** The C escape of a control byte (\n, \t, ...) or its three octal digits: "\\ooo". */
static void put_escape(struct qbuf *b, unsigned char c)
{
    static const char letters[] = "\aa\bb\ff\nn\rr\tt\vv";
    char out[5] = {'\\', 0, 0, 0, 0};
    const char *hit = c != 0 ? memchr(letters, c, sizeof letters - 1) : NULL;
    if (hit != NULL && (hit - letters) % 2 == 0) {
        out[1] = hit[1];
        put(b, out, 2);
        return;
    }
    out[1] = (char)('0' + (c >> 6));
    out[2] = (char)('0' + ((c >> 3) & 7));
    out[3] = (char)('0' + (c & 7));
    put(b, out, 4);
}

static bool utf8_locale(void)
{
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/**
 * quote(): gnulib's locale_quoting_style, ‘...’ in a UTF-8 locale, '...' elsewhere; C
 * escapes for what is not a printable character, a backslash before a backslash and before
 * the closing quote wherever it appears inside (‘it’s’ -> ‘it\’s’, 'it's' -> 'it\'s').
 */
static void quote_locale(struct qbuf *b, const char *s)
{
    bool utf8 = utf8_locale();
    const char *left = utf8 ? "\xe2\x80\x98" : "'";
    const char *right = utf8 ? "\xe2\x80\x99" : "'";
    size_t right_len = strlen(right);
    puts_(b, left);
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        if (strncmp(s + i, right, right_len) == 0) {
            put(b, "\\", 1);
        }
        size_t n = printable_len(s + i, len - i);
        if (n == 0) {
            put_escape(b, (unsigned char)s[i]);
            i++;
        } else {
            if (s[i] == '\\') {
                put(b, "\\", 1);
            }
            put(b, s + i, n);
            i += n;
        }
    }
    puts_(b, right);
}

/** @return whether byte c at position i of a string of length len needs shell quoting. */
static bool shell_special(unsigned char c, size_t i, size_t len, bool colon)
{
    switch (c) {
    case '{':
    case '}':
        return len == 1; // a lone brace is special, one within a word is not
    case '#':
    case '~':
        return i == 0; // special at the start of a word only
    case ':':
        return colon;
    case ' ':
    case '!':
    case '"':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case ';':
    case '<':
    case '=':
    case '>':
    case '?':
    case '[':
    case '\\':
    case '^':
    case '`':
    case '|':
        return true;
    default:
        return false;
    }
}

/**
 * quoteaf() and quotef(): the shell's quoting, $'...' for bytes that are not printable.
 * Without `specials`, only a character that is not printable makes it quote.
 */
static void quote_shell(struct qbuf *b, const char *s, bool always, bool colon, bool specials)
{
    size_t len = strlen(s);
    bool needs = always || (specials && len == 0);
    bool has_single = false;
    bool double_ok = true; // every character reads the same between double quotes
    for (size_t i = 0; i < len;) {
        size_t n = printable_len(s + i, len - i);
        unsigned char c = (unsigned char)s[i];
        if (n == 0) {
            needs = true;
            double_ok = false;
            i++;
            continue;
        }
        if (specials && n == 1 && shell_special(c, i, len, colon)) {
            needs = true;
        }
        if (c == '\'') {
            has_single = true;
        } else if (c == '"' || c == '$' || c == '`' || c == '\\' || c == '!') {
            double_ok = false;
        }
        i += n;
    }
    if (!needs) {
        put(b, s, len);
        return;
    }
    if (has_single && double_ok) {
        // GNU prints "it's" rather than 'it'\''s' when nothing else needs escaping.
        put(b, "\"", 1);
        put(b, s, len);
        put(b, "\"", 1);
        return;
    }
    bool in_escape = false; // inside a $'...' run
    put(b, "'", 1);
    for (size_t i = 0; i < len;) {
        size_t n = printable_len(s + i, len - i);
        if (n == 0) {
            if (!in_escape) {
                puts_(b, "'$'");
                in_escape = true;
            }
            put_escape(b, (unsigned char)s[i]);
            i++;
            continue;
        }
        if (in_escape) {
            puts_(b, "''");
            in_escape = false;
        }
        if (s[i] == '\'') {
            puts_(b, "'\\''");
        } else {
            put(b, s + i, n);
        }
        i += n;
    }
    put(b, "'", 1);
}

size_t tool_quote_locale_to(char *dst, size_t cap, const char *s)
{
    int saved = errno; // mbrtowc() may set it; messages print it after the name
    struct qbuf b = {.s = dst, .cap = cap, .fixed = true};
    quote_locale(&b, s);
    errno = saved;
    return b.len;
}

char *tool_quote(const char *s, enum tool_quote_style style)
{
    int saved = errno;
    struct qbuf b = {0};
    put(&b, "", 0);
    switch (style) {
    case TOOL_QUOTE_LOCALE:
        quote_locale(&b, s);
        break;
    case TOOL_QUOTE_SHELL_ALWAYS:
        quote_shell(&b, s, true, false, true);
        break;
    case TOOL_QUOTE_SHELL_COLON:
        quote_shell(&b, s, false, true, true);
        break;
    case TOOL_QUOTE_SHELL_UNPRINTABLE:
        quote_shell(&b, s, false, false, false);
        break;
    }
    if (b.failed) {
        free(b.s);
        b.s = NULL;
    }
    errno = saved;
    return b.s;
}
