// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of the literal pieces of a regular expression (examples/frdindex/frdindex_regex.c):
 * the pieces of chosen expressions, and for generated ones (ERE and BRE, with and without
 * REG_ICASE, in the C and C.UTF-8 locales) that every piece is in every string regexec()
 * matches, A-Z folded: a piece missing from a match would lose that path from `find -r`.
 */
#include "frdindex_regex.h"

#include <locale.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/** @return the pieces of `re`, each followed by a '|', in one string. */
static const char *pieces_of(const char *re, bool extended, bool icase)
{
    static char buf[512];
    struct index_piece p[64];
    size_t n = index_regex_pieces(re, extended, icase, p, 64);
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%.*s|", (int)p[i].len, p[i].p);
    }
    return buf;
}

static void test_chosen_expressions(void **state)
{
    (void)state;
    setlocale(LC_ALL, "C");
    assert_string_equal(pieces_of("libc\\.so", false, false), "libc|.so|");
    assert_string_equal(pieces_of("libc\\.so", true, false), "libc|.so|");
    assert_string_equal(pieces_of("man[0-9]/[a-c]", false, false), "man|");
    assert_string_equal(pieces_of("abcd*", false, false), "abc|");
    assert_string_equal(pieces_of("abcd+", true, false), "abc|");
    assert_string_equal(pieces_of("abcd+", false, false), "abcd+|"); // BRE: '+' is itself
    assert_string_equal(pieces_of("abcd\\+", false, false), "abc|");
    assert_string_equal(pieces_of("abcd?e", true, false), "abc|");
    assert_string_equal(pieces_of("abcd{2,3}efg", true, false), "abc|efg|");
    assert_string_equal(pieces_of("abcd\\{2\\}efg", false, false), "abc|efg|");
    assert_string_equal(pieces_of("abcd{2,3}efg", false, false), "abcd{2,3|efg|"); // '}': cut
    assert_string_equal(pieces_of("^/usr/.*share$", true, false), "usr|share|");
    assert_string_equal(pieces_of("foo|barbaz", true, false), "");
    assert_string_equal(pieces_of("foo\\|barbaz", false, false), "");
    assert_string_equal(pieces_of("foo|barbaz", false, false), "foo|barbaz|");
    assert_string_equal(pieces_of("xyz(foo|bar)baz", true, false), "xyz|baz|");
    assert_string_equal(pieces_of("xyz\\(foo\\|bar\\)baz", false, false), "xyz|baz|");
    assert_string_equal(pieces_of("(abc)*defg", true, false), "defg|");
    assert_string_equal(pieces_of("ab[]x]cde[[:alpha:]]fgh", true, false), "cde|fgh|");
    assert_string_equal(pieces_of("\\wabc\\<def\\1ghi", true, false), "abc|def|ghi|");
    assert_string_equal(pieces_of("a.b.c", true, false), "");
    assert_string_equal(pieces_of("ABC\xc3\xa9xyz", true, false), "ABC\xc3\xa9xyz|");
    assert_string_equal(pieces_of("ABC\xc3\xa9xyz", true, true), "ABC|xyz|");
    setlocale(LC_ALL, "C.UTF-8");
    assert_string_equal(pieces_of("abc\xc3\xa9*xyz", true, false), "abc|xyz|");
    assert_string_equal(pieces_of("lkixyk", true, true), "");
    assert_string_equal(pieces_of("abcinfo", true, true), "abc|nfo|");
    setlocale(LC_ALL, "C");
    assert_string_equal(pieces_of("abc\xc3\xa9*xyz", true, false), "abc\xc3|xyz|");
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/** Appends `n` bytes of `s` to `buf` (room for `cap`, `*len` used), NUL-terminated. */
static void append(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
    assert_true(*len + n < cap);
    memcpy(buf + *len, s, n);
    *len += n;
    buf[*len] = '\0';
}

static bool folded_in(const char *hay, const struct index_piece *p)
{
    size_t n = strlen(hay);
    for (size_t i = 0; i + p->len <= n; i++) {
        size_t k = 0;
        while (k < p->len && (hay[i + k] | (hay[i + k] >= 'A' && hay[i + k] <= 'Z' ? 0x20 : 0)) ==
                                 (p->p[k] | (p->p[k] >= 'A' && p->p[k] <= 'Z' ? 0x20 : 0))) {
            k++;
        }
        if (k == p->len) {
            return true;
        }
    }
    return false;
}

static void test_every_piece_is_in_every_match(void **state)
{
    (void)state;
    static const char *const tokens[] = {
        "a",        "b",        "c", "ab",  "abc",         "bca", "A",     "B",
        "\xc3\xa9", "\xc3\x89", ".", "*",   "+",           "?",   "{1,2}", "\\{1,2\\}",
        "{0}",      "(",        ")", "\\(", "\\)",         "|",   "\\|",   "[ab]",
        "[^c]",     "^",        "$", "\\.", "\\*",         "\\+", "\\?",   "/",
        "\\w",      "\\<",      "x", "\\1", "[[:alpha:]]", "\\{", "{",     "}",
    };
    static const char alphabet[][3] = {"a", "b",        "c",        "A", "B", "x", ".", "*", "+",
                                       "/", "\xc3\xa9", "\xc3\x89", "?", "{", "}", "|", "("};
    const size_t ntokens = sizeof(tokens) / sizeof(tokens[0]);
    const size_t nletters = sizeof(alphabet) / sizeof(alphabet[0]);
    uint64_t seed = 0x9e3779b97f4a7c15u;
    size_t matched = 0, with_pieces = 0;
    for (int loc = 0; loc < 2; loc++) {
        setlocale(LC_ALL, loc == 0 ? "C" : "C.UTF-8");
        for (int round = 0; round < 20000; round++) {
            char re[128] = "";
            size_t ntok = 1 + next(&seed) % 8, re_len = 0;
            for (size_t t = 0; t < ntok; t++) {
                const char *tok = tokens[next(&seed) % ntokens];
                append(re, sizeof(re), &re_len, tok, strlen(tok));
            }
            bool extended = next(&seed) % 2, icase = next(&seed) % 2;
            regex_t rx;
            if (regcomp(&rx, re,
                        REG_NOSUB | (extended ? REG_EXTENDED : 0) | (icase ? REG_ICASE : 0)) != 0) {
                continue;
            }
            struct index_piece p[64];
            size_t n = index_regex_pieces(re, extended, icase, p, 64);
            with_pieces += n > 0;
            for (int s = 0; s < 40; s++) {
                char subject[160] = "";
                size_t nlet = next(&seed) % 12, len = 0;
                for (size_t k = 0; k < nlet; k++) {
                    const char *letter = alphabet[next(&seed) % nletters];
                    append(subject, sizeof(subject), &len, letter, strlen(letter));
                }
                if (n > 0 && next(&seed) % 2) { // a subject near the pieces, to match often
                    const char *letter = alphabet[next(&seed) % nletters];
                    append(subject, sizeof(subject), &len, p[0].p, p[0].len);
                    append(subject, sizeof(subject), &len, letter, strlen(letter));
                }
                if (regexec(&rx, subject, 0, NULL, 0) != 0) {
                    continue;
                }
                matched++;
                for (size_t k = 0; k < n; k++) {
                    if (!folded_in(subject, &p[k])) {
                        fail_msg("'%s' (%s%s) matches '%s' without its piece '%.*s'", re,
                                 extended ? "ERE" : "BRE", icase ? ", icase" : "", subject,
                                 (int)p[k].len, p[k].p);
                    }
                }
            }
            regfree(&rx);
        }
    }
    assert_true(matched > 10000); // not vacuous
    assert_true(with_pieces > 1000);
    setlocale(LC_ALL, "C");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chosen_expressions),
        cmocka_unit_test(test_every_piece_is_in_every_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
