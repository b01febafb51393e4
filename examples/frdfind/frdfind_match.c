// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's pattern matching in the locale, as GNU find matches: fnmatch(3) after
 * setlocale(LC_ALL, ""), so that in a UTF-8 locale `?` is one character and -iname folds
 * case beyond ASCII ('é*' matches "Éclair"), and in the C locale bytes.
 *
 * glibc's fnmatch converts pattern and name to wide characters in a multibyte locale,
 * which costs on every name. When both are ASCII the answer is the same in the C locale,
 * so that case runs under a C locale_t (uselocale() switches only the calling thread's
 * locale, for the one call): the byte matcher, at its speed.
 */
#define _GNU_SOURCE // uselocale, newlocale, FNM_CASEFOLD

#include "frdfind.h"

#include <fnmatch.h>
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
    pthread_once_t once;
    bool multibyte;    /**< the locale's characters may take more than one byte */
    locale_t c_locale; /**< "C", for ASCII-only calls; (locale_t)0 if it could not be made */
} loc = {.once = PTHREAD_ONCE_INIT};

static void loc_init(void)
{
    loc.multibyte = MB_CUR_MAX > 1;
    loc.c_locale = loc.multibyte ? newlocale(LC_ALL_MASK, "C", (locale_t)0) : (locale_t)0;
}

bool ff_is_ascii(const char *s, size_t len)
{
    unsigned char any = 0;
    for (size_t i = 0; i < len; i++) {
        any |= (unsigned char)s[i];
    }
    return any < 0x80;
}

bool ff_fnmatch(const char *pattern, bool pattern_ascii, const char *s, size_t len, int flags)
{
    pthread_once(&loc.once, loc_init);
    if (loc.multibyte && pattern_ascii && loc.c_locale != (locale_t)0 && ff_is_ascii(s, len)) {
        locale_t old = uselocale(loc.c_locale);
        bool hit = fnmatch(pattern, s, flags) == 0;
        uselocale(old);
        return hit;
    }
    return fnmatch(pattern, s, flags) == 0;
}
