// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's pattern tests, fnmatch() as GNU find calls it, in the locale: -name and -iname
 * on the base name, -path, -ipath, -wholename, -iwholename on the whole path, -lname and
 * -ilname on a link's target (read through the parent's descriptor). -name picks, at
 * parse time, a matcher for its pattern's shape ("*.h": compare the end; "name": compare
 * it; "*": everything), so the commonest patterns cost no fnmatch() call.
 */
#define _GNU_SOURCE // FNM_CASEFOLD, readlinkat

#include "frdfind_names.h"

#include "frdfind_eval.h"
#include "frdfind_match.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"

#include <fnmatch.h>
#include <string.h>
#include <unistd.h>

const char *ff_base_name(const struct frd_walk_entry *we, struct ff_thread *thr, size_t *len)
{
    if (we->depth > 0) {
        *len = we->entry->name_len;
        return we->entry->name;
    }
    size_t end = we->path_len;
    while (end > 0 && we->path[end - 1] == '/') {
        end--;
    }
    if (end == 0) {
        *len = we->path_len > 0 ? 1 : 0;
        return we->path_len > 0 ? "/" : "";
    }
    size_t start = end;
    while (start > 0 && we->path[start - 1] != '/') {
        start--;
    }
    char *buf = ff_thread_scratch(thr, end - start + 1);
    if (buf == NULL) {
        return NULL;
    }
    memcpy(buf, we->path + start, end - start);
    buf[end - start] = '\0';
    *len = end - start;
    return buf;
}

/** Reads a pattern test's argument: the pattern, whether it is ASCII, its case flag. */
static int parse_pattern(struct ff_parser *fp, struct ff_expr *expr, const char *arg)
{
    expr->pattern = arg;
    expr->ascii = ff_is_ascii(arg, strlen(arg));
    expr->fnm_flags = expr->prim->param ? FNM_CASEFOLD : 0;
    return ff_matcher_need(ff_parser_ctx(fp)) != 0 ? -1 : 0;
}

bool ff_eval_name(const struct ff_expr *expr, struct ff_eval *st)
{
    size_t len;
    const char *name = ff_base_name(st->we, st->thr, &len);
    return name != NULL &&
           ff_fnmatch(st->ctx, expr->pattern, expr->ascii, name, len, expr->fnm_flags);
}

/** -name '*': every entry whose base name could be made. */
static bool eval_name_any(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    size_t len;
    return ff_base_name(st->we, st->thr, &len) != NULL;
}

/** -name without a metacharacter: the name itself. */
static bool eval_name_exact(const struct ff_expr *expr, struct ff_eval *st)
{
    size_t len;
    const char *name = ff_base_name(st->we, st->thr, &len);
    return name != NULL && len == expr->literal_len && memcmp(name, expr->pattern, len) == 0;
}

/** -name '*literal': "*.h" matches any prefix, a leading dot included (no FNM_PERIOD). */
static bool eval_name_suffix(const struct ff_expr *expr, struct ff_eval *st)
{
    size_t len;
    const char *name = ff_base_name(st->we, st->thr, &len);
    return name != NULL && len >= expr->literal_len &&
           memcmp(name + len - expr->literal_len, expr->pattern + 1, expr->literal_len) == 0;
}

int ff_parse_name(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    const char *pat = argv[1];
    if (parse_pattern(fp, expr, pat) != 0) {
        return -1;
    }
    // The fast paths, without FNM_CASEFOLD only.
    if (expr->fnm_flags != 0) {
        return 0;
    }
    if (strcmp(pat, "*") == 0) {
        expr->eval = eval_name_any;
        return 0;
    }
    const char *rest = pat[0] == '*' ? pat + 1 : pat;
    if (strpbrk(rest, "*?[\\") == NULL) {
        expr->literal_len = strlen(rest);
        expr->eval = pat[0] == '*' ? eval_name_suffix : eval_name_exact;
    }
    return 0;
}

int ff_parse_path(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    return parse_pattern(fp, expr, argv[1]);
}

bool ff_eval_path(const struct ff_expr *expr, struct ff_eval *st)
{
    return ff_fnmatch(st->ctx, expr->pattern, expr->ascii, st->we->path, st->we->path_len,
                      expr->fnm_flags);
}

int ff_parse_lname(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    return parse_pattern(fp, expr, argv[1]);
}

bool ff_eval_lname(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    if (we->entry->type != FRD_TYPE_LNK) {
        return false;
    }
    for (size_t cap = 256;; cap *= 2) {
        char *buf = ff_thread_scratch(st->thr, cap);
        if (buf == NULL) {
            return false;
        }
        ssize_t n = readlinkat(ff_entry_dir(we), ff_entry_name(we), buf, cap);
        if (n < 0) {
            return false;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            return ff_fnmatch(st->ctx, expr->pattern, expr->ascii, buf, (size_t)n, expr->fnm_flags);
        }
    }
}
