// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Quoting of names and arguments in messages, the three ways GNU coreutils quote them. */
#ifndef FRD_EXAMPLES_COMMON_GNUQUOTE_H
#define FRD_EXAMPLES_COMMON_GNUQUOTE_H

#include <stddef.h>

/** Which of gnulib's quoting styles (coreutils 9.1) to imitate. */
enum tool_quote_style {
    /** quote(): an argument value, 'x' (‘x’ in a UTF-8 locale), C escapes inside. */
    TOOL_QUOTE_LOCALE,
    /** quoteaf(): a file name, always quoted for the shell: 'a b', "it's", 'new'$'\n''line'. */
    TOOL_QUOTE_SHELL_ALWAYS,
    /** quotef(): a file name quoted only when the shell (or a ':') needs it: x~, 'a:b'. */
    TOOL_QUOTE_SHELL_COLON,
    /**
     * A file name as it is unless it holds a character that is not printable (a control
     * character such as a newline or a tab, an invalid byte), then as TOOL_QUOTE_SHELL_ALWAYS:
     * one name stays one line of text, and the quoted form can be pasted into a shell.
     */
    TOOL_QUOTE_SHELL_UNPRINTABLE,
};

/**
 * Quotes `s` in `style`. Bytes that are not printable characters in the current locale
 * (LC_CTYPE: every byte above 0x7f in the C locale) are escaped, as GNU tools escape them.
 * Thread-safe once setlocale() has run; errno is left as it was.
 * @return a malloc'd string the caller frees, or NULL when out of memory.
 */
char *tool_quote(const char *s, enum tool_quote_style style);

/**
 * Writes `s` quoted in TOOL_QUOTE_LOCALE to dst without allocating: the first cap bytes of
 * the quoted form (no NUL). Call with cap 0 (dst may be NULL) to measure. Thread-safe once
 * setlocale() has run; errno is left as it was.
 * @return the length of the whole quoted form (more than cap when it did not all fit).
 */
size_t tool_quote_locale_to(char *dst, size_t cap, const char *s);

#endif // FRD_EXAMPLES_COMMON_GNUQUOTE_H
