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

#include "frdfind_match.h"

#include "frdfind_ctx.h"
#include "frdfind_msg.h"

#include <fnmatch.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

/** The run's matcher (ctx->match), made for the locale when the parse meets a pattern. */
struct ff_matcher {
    bool multibyte;    /**< the locale's characters may take more than one byte */
    locale_t c_locale; /**< "C", for ASCII-only calls; (locale_t)0 if it could not be made */
};

int ff_matcher_need(struct ff_ctx *ctx)
{
    if (ctx->match != NULL) {
        return 0;
    }
    struct ff_matcher *m = malloc(sizeof(*m));
    if (m == NULL) {
        ff_error(ctx, "out of memory");
        return 1;
    }
    m->multibyte = MB_CUR_MAX > 1;
    m->c_locale = m->multibyte ? newlocale(LC_ALL_MASK, "C", (locale_t)0) : (locale_t)0;
    ctx->match = m;
    return 0;
}

void ff_matcher_free(struct ff_ctx *ctx)
{
    struct ff_matcher *m = ctx->match;
    if (m != NULL) {
        if (m->c_locale != (locale_t)0) {
            freelocale(m->c_locale);
        }
        free(m);
        ctx->match = NULL;
    }
}

bool ff_is_ascii(const char *s, size_t len)
{
    unsigned char any = 0;
    for (size_t i = 0; i < len; i++) {
        any |= (unsigned char)s[i];
    }
    return any < 0x80;
}

bool ff_fnmatch(const struct ff_ctx *ctx, const char *pattern, bool pattern_ascii, const char *s,
                size_t len, int flags)
{
    const struct ff_matcher *m = ctx->match;
    if (m->multibyte && pattern_ascii && m->c_locale != (locale_t)0 && ff_is_ascii(s, len)) {
        locale_t old = uselocale(m->c_locale);
        bool hit = fnmatch(pattern, s, flags) == 0;
        uselocale(old);
        return hit;
    }
    return fnmatch(pattern, s, flags) == 0;
}
