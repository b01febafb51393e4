// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Paths printed by `find` and `changes` so that no name passes for two (see frdindex_print.h). */
#define _POSIX_C_SOURCE 200809L

#include "frdindex_print.h"

#include "gnuquote.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/** @return the length of the character at s (of `left` bytes) in the locale, 0 if none. */
static size_t char_len(const char *s, size_t left, wchar_t *wc)
{
    mbstate_t st;
    memset(&st, 0, sizeof(st));
    size_t n = mbrtowc(wc, s, left, &st);
    if (n == (size_t)-1 || n == (size_t)-2) {
        return 0;
    }
    return n == 0 ? 1 : n; // a NUL byte: one character (a BLOB may hold one)
}

/** What plocate escapes on a terminal: control characters, quotes and the backslash. */
static bool plocate_special(wchar_t wc)
{
    return wc < 32 || wc == L'\'' || wc == L'"' || wc == L'\\';
}

/** bash's $'...' escape of byte c (one plocate_special() says is special). */
static void put_escape(FILE *out, unsigned char c)
{
    static const char letters[] = "\aa\bb\ff\nn\rr\tt\vv\\\\''\"\"";
    const char *hit = c != 0 ? memchr(letters, c, sizeof(letters) - 1) : NULL;
    if (hit != NULL && (hit - letters) % 2 == 0) {
        fputc('\\', out);
        fputc(hit[1], out);
    } else {
        fprintf(out, "\\%03o", c);
    }
}

void index_print_plocate(FILE *out, const char *path, size_t len, bool tty)
{
    bool safe = true;
    for (size_t i = 0; tty && safe && i < len;) {
        wchar_t wc;
        size_t n = char_len(path + i, len - i, &wc);
        safe = n > 0 && !plocate_special(wc);
        i += n;
    }
    if (safe) {
        fwrite(path, 1, len, out);
        fputc('\n', out);
        return;
    }
    // plocate's form: runs of plain characters between '...', escapes inside '$'...'',
    // each byte that is no character a '?' (wherever it falls).
    bool escaping = false;
    fputc('\'', out);
    for (size_t i = 0; i < len;) {
        wchar_t wc;
        size_t n = char_len(path + i, len - i, &wc);
        if (n == 0) {
            fputc('?', out);
            i++;
            continue;
        }
        unsigned char c = (unsigned char)path[i];
        if (n == 1 && plocate_special((wchar_t)c)) {
            if (!escaping) {
                fputs("'$'", out);
                escaping = true;
            }
            put_escape(out, c);
        } else {
            if (escaping) {
                fputs("''", out);
                escaping = false;
            }
            fwrite(path + i, 1, n, out);
        }
        i += n;
    }
    fputs("'\n", out);
}

int index_print_quoted(FILE *out, const char *path)
{
    const char *p = path;
    while (*p >= 0x20 && *p < 0x7f) {
        p++; // printable ASCII in every locale: nothing to quote
    }
    if (*p == '\0') {
        fputs(path, out);
        return 0;
    }
    char *quoted = tool_quote(path, TOOL_QUOTE_SHELL_UNPRINTABLE);
    if (quoted == NULL) {
        return -1;
    }
    fputs(quoted, out);
    free(quoted);
    return 0;
}
