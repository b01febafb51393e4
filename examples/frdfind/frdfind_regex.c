// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -regex, -iregex and -regextype, as GNU find 4.9 reads and matches them: glibc's
 * re_compile_pattern() in the syntax -regextype last named (emacs by default), and a match
 * of the whole path (re_match()'s length is the path's).
 */
#define _GNU_SOURCE // re_compile_pattern, RE_SYNTAX_*, newlocale

#include "frdfind_regex.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_match.h"
#include "frdfind_parse.h"
#include "gnuquote.h"

#include <locale.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/**
 * The worker indexes the visits will run on: one for an ordered walk (its consumer) or -j 1,
 * N for -j N, else the walker's default count, the CPUs up to 8 (its callbacks keep to
 * those indexes when its pool widens). An index past them shares the first pattern.
 */
static unsigned regex_slots(const struct ff_options *o)
{
    if (o->ordered || o->workers == 1) {
        return 1;
    }
    if (o->workers > 0) {
        return o->workers;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
}

/**
 * One compiled pattern per worker index: glibc's matcher locks each pattern buffer, so a
 * shared one would make the workers take turns. Only as many as there are workers: a
 * pattern can take seconds to compile (nested repetitions; find takes as long, once). In
 * a multibyte locale an ASCII pattern is also compiled in the C locale (`bytes`), for the
 * ASCII paths: the same matches, without the wide-character matcher (which made -regex 2.4
 * times slower on /usr).
 */
struct regex_test {
    unsigned n;
    struct re_pattern_buffer *re;    /**< n of them, compiled alike in the locale */
    struct re_pattern_buffer *bytes; /**< n of them in the C locale, or NULL */
};

static void regex_free(void *data)
{
    struct regex_test *rt = data;
    if (rt != NULL) {
        for (unsigned i = 0; i < rt->n; i++) {
            regfree(&rt->re[i]);
            if (rt->bytes != NULL) {
                regfree(&rt->bytes[i]);
            }
        }
        free(rt->re);
        free(rt->bytes);
        free(rt);
    }
}

bool ff_eval_regex(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    const struct regex_test *rt = expr->data;
    unsigned w = we->worker < rt->n ? we->worker : 0;
    struct re_pattern_buffer *re =
        rt->bytes != NULL && ff_is_ascii(we->path, we->path_len) ? &rt->bytes[w] : &rt->re[w];
    if (we->path_len > INT32_MAX) {
        return false;
    }
    // find: the whole path must match (re_match's length is the path's).
    return re_match(re, we->path, (regoff_t)we->path_len, 0, NULL) == (regoff_t)we->path_len;
}

/** The -regextype names find 4.9 takes, in the order its error lists them. */
static const struct {
    const char *name;
    int syntax;
} regex_types[] = {
    {"findutils-default", RE_SYNTAX_EMACS | RE_DOT_NEWLINE},
    {"ed", RE_SYNTAX_ED},
    {"emacs", RE_SYNTAX_EMACS},
    {"gnu-awk", RE_SYNTAX_GNU_AWK},
    {"grep", RE_SYNTAX_GREP},
    {"posix-awk", RE_SYNTAX_POSIX_AWK},
    {"awk", RE_SYNTAX_AWK},
    {"posix-basic", RE_SYNTAX_POSIX_BASIC},
    {"posix-egrep", RE_SYNTAX_POSIX_EGREP},
    {"egrep", RE_SYNTAX_EGREP},
    {"posix-extended", RE_SYNTAX_POSIX_EXTENDED},
    {"posix-minimal-basic", RE_SYNTAX_POSIX_MINIMAL_BASIC},
    {"sed", RE_SYNTAX_SED},
};

int ff_parse_regextype(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)expr;
    const char *arg = argv[1];
    size_t ntypes = sizeof(regex_types) / sizeof(regex_types[0]);
    for (size_t i = 0; i < ntypes; i++) {
        if (strcmp(arg, regex_types[i].name) == 0) {
            ff_parser_opts(fp)->regex_syntax = regex_types[i].syntax;
            return 0;
        }
    }
    char list[512] = "";
    size_t len = 0;
    for (size_t i = 0; i < ntypes; i++) {
        if (i > 0 && len + 2 < sizeof(list)) {
            memcpy(list + len, ", ", 2);
            len += 2;
        }
        size_t q = tool_quote_locale_to(list + len, sizeof(list) - 1 - len, regex_types[i].name);
        len += q < sizeof(list) - 1 - len ? q : sizeof(list) - 1 - len;
        list[len] = '\0';
    }
    char after[600];
    snprintf(after, sizeof(after), "; valid types are %s.", list);
    ff_parser_fail_quoted(fp, "Unknown regular expression type ", arg, after);
    return -1;
}

int ff_parse_regex(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    const char *arg = argv[1];
    bool icase = expr->prim->param;
    struct ff_options *o = ff_parser_opts(fp);
    struct regex_test *rt = calloc(1, sizeof(*rt));
    unsigned n = regex_slots(o);
    if (rt == NULL || (rt->re = calloc(n, sizeof(*rt->re))) == NULL) {
        free(rt);
        ff_parser_fail(fp, "out of memory");
        return -1;
    }
    // -regextype not given: emacs, find's default. re_compile_pattern reads the syntax
    // from a global; the parse runs before any worker does.
    reg_syntax_t syntax =
        (reg_syntax_t)(o->regex_syntax >= 0 ? o->regex_syntax : (int)RE_SYNTAX_EMACS);
    if (icase) {
        syntax |= RE_ICASE;
    }
    re_set_syntax(syntax);
    locale_t c_locale = (locale_t)0;
    if (MB_CUR_MAX > 1 && ff_is_ascii(arg, strlen(arg))) {
        c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        rt->bytes = c_locale != (locale_t)0 ? calloc(n, sizeof(*rt->bytes)) : NULL;
    }
    const char *err = NULL;
    for (; rt->n < n && err == NULL; rt->n++) {
        err = re_compile_pattern(arg, strlen(arg), &rt->re[rt->n]);
        if (err == NULL && rt->bytes != NULL) {
            // The C locale for this thread, for this one call (parsing is single-threaded).
            locale_t old = uselocale(c_locale);
            err = re_compile_pattern(arg, strlen(arg), &rt->bytes[rt->n]);
            uselocale(old);
        }
    }
    if (c_locale != (locale_t)0) {
        freelocale(c_locale);
    }
    if (err != NULL) {
        // find quotes this one as it is, with no escapes and in every locale.
        char msg[1024];
        snprintf(msg, sizeof(msg), "failed to compile regular expression '%s': %s", arg, err);
        ff_parser_fail(fp, msg);
        regex_free(rt);
        return -1;
    }
    expr->data = rt;
    expr->free_data = regex_free;
    return 0;
}
