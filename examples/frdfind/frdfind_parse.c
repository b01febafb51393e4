// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's command-line parser: GNU find's grammar and its error messages.
 *
 *   frdfind [-H|-L|-P] [-s] [-j N] [PATH...] [EXPRESSION]
 *
 *   expr   := comma
 *   comma  := or { ',' or }
 *   or     := and { (-o | -or) and }
 *   and    := unary { [-a | -and] unary }        (juxtaposition is -a)
 *   unary  := (! | -not) unary | '(' comma ')' | primary
 *
 * A primary is a row of the table (frdfind_table.c): the parser takes as many arguments as
 * the row says (find's message when one is missing), makes the node with the row's eval
 * and needs, and lets the row's parse function read the arguments into it. As in GNU find,
 * the global options (-maxdepth, -depth, -xdev...) are also nodes that are true where they
 * stand, and an expression with no action gets "-a -print" added. Primaries GNU find has
 * and frdfind does not are refused with an error naming them. The leading options (-H,
 * -s, -j...) are frdfind_leading.c's.
 */
#define _GNU_SOURCE // st_mtim

#include "frdfind_parse.h"

#include "frdfind_color.h"
#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_exclude.h"
#include "frdfind_files0.h"
#include "frdfind_leading.h"
#include "frdfind_msg.h"
#include "frdfind_table.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_SEC 1000000000LL
#define DAYSECS    86400

struct ff_parser {
    char **argv;
    int argc;
    int i;              /**< the next word to read */
    struct ff_ctx *ctx; /**< the run */
    struct ff_options *opts;
    const char *last_pred; /**< the last primary or operator read (for messages) */
    bool has_action;       /**< an action that suppresses the implicit -print was seen */
    int status;            /**< 0, or 1 after an error was printed */
};

void ff_parser_fail(struct ff_parser *fp, const char *msg)
{
    // Only the first error: later ones are consequences of it.
    if (fp->status == 0) {
        ff_error(fp->ctx, msg);
    }
    fp->status = 1;
}

void ff_parser_failf(struct ff_parser *fp, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    // The analyzer loses va_start when clang-tidy reads this file after another in one run
    // (scripts/tidy.sh passes four), and only then: a false finding.
    // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    ff_parser_fail(fp, msg);
}

void ff_parser_fail_quoted(struct ff_parser *fp, const char *before, const char *arg,
                           const char *after)
{
    char quoted[1024];
    char msg[2048];
    snprintf(msg, sizeof(msg), "%s%s%s", before, ff_quoted(quoted, sizeof(quoted), arg), after);
    ff_parser_fail(fp, msg);
}

void ff_parser_fail_stat(struct ff_parser *fp, const char *path)
{
    char reason[256];
    snprintf(reason, sizeof(reason), ": %s", strerror(errno));
    char *msg = ff_quoted_in("", path, reason);
    ff_parser_fail(fp, msg != NULL ? msg : reason + 2);
    free(msg);
}

int ff_parser_stat(struct ff_parser *fp, const char *path, struct stat *st)
{
    if (ff_parser_opts(fp)->follow == FRD_FOLLOW_NEVER) {
        return lstat(path, st);
    }
    int rc = stat(path, st);
    if (rc != 0 && (errno == ENOENT || errno == ENOTDIR)) {
        rc = lstat(path, st); // a dangling link: the link, as find's fallback_stat()
    }
    return rc;
}

struct ff_ctx *ff_parser_ctx(struct ff_parser *fp)
{
    return fp->ctx;
}

struct ff_options *ff_parser_opts(struct ff_parser *fp)
{
    return fp->opts;
}

const char *ff_parser_peek(struct ff_parser *fp)
{
    return fp->i < fp->argc ? fp->argv[fp->i] : NULL;
}

char **ff_parser_rest(struct ff_parser *fp, int *n)
{
    *n = fp->argc - fp->i;
    return &fp->argv[fp->i];
}

void ff_parser_take(struct ff_parser *fp, int n)
{
    fp->i = n < fp->argc - fp->i ? fp->i + n : fp->argc;
}

bool ff_parse_number(const char *s, enum ff_cmp *cmp, uint64_t *out)
{
    *cmp = ff_take_sign(&s);
    // gnulib's xstrtoumax(s, &end, 10, out, ""): strtoumax's leading blanks and '+', but no
    // '-', no overflow, nothing after the digits.
    const char *q = s;
    while (isspace((unsigned char)*q)) {
        q++;
    }
    if (*q == '-') {
        return false;
    }
    errno = 0;
    char *end;
    uintmax_t v = strtoumax(s, &end, 10);
    if (end == s || errno != 0 || *end != '\0' || v > UINT64_MAX) {
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

bool ff_parser_int(struct ff_parser *fp, const char *s, int *out)
{
    // find's safe_atoi(): strtol, then an int; its messages name the text unquoted.
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    char msg[512];
    if (v == LONG_MAX || v == LONG_MIN || v > INT_MAX || v < INT_MIN) {
        snprintf(msg, sizeof(msg), "%s: %s", s, strerror(errno != 0 ? errno : ERANGE));
        ff_parser_fail(fp, msg);
        return false;
    }
    if (*end != '\0' || end == s) {
        char quoted[400];
        char quoted_s[400];
        if (end == s) {
            snprintf(msg, sizeof(msg), "Expected an integer: %s",
                     ff_quoted(quoted, sizeof(quoted), s));
        } else {
            snprintf(msg, sizeof(msg), "Unexpected suffix %s on %s",
                     ff_quoted(quoted, sizeof(quoted), end),
                     ff_quoted(quoted_s, sizeof(quoted_s), s));
        }
        ff_parser_fail(fp, msg);
        return false;
    }
    *out = (int)v;
    return true;
}

enum ff_cmp ff_take_sign(const char **s)
{
    if (**s == '+') {
        (*s)++;
        return FF_CMP_GT;
    }
    if (**s == '-') {
        (*s)++;
        return FF_CMP_LT;
    }
    return FF_CMP_EQ;
}

/** @return a node of the primary, or NULL (out of memory, reported). */
static struct ff_expr *node(struct ff_parser *p, const struct ff_primary *prim)
{
    struct ff_expr *e = ff_expr_new(prim);
    if (e == NULL) {
        ff_parser_fail(p, "out of memory");
    }
    return e;
}

/** @return the operator's node over lhs and rhs, or NULL (both are then freed). */
static struct ff_expr *binary(struct ff_parser *p, const struct ff_primary *op, struct ff_expr *lhs,
                              struct ff_expr *rhs)
{
    struct ff_expr *e = rhs != NULL ? node(p, op) : NULL;
    if (e == NULL) {
        ff_expr_free(lhs);
        ff_expr_free(rhs);
        return NULL;
    }
    e->lhs = lhs;
    e->rhs = rhs;
    return e;
}

static struct ff_expr *parse_unary(struct ff_parser *p);

/**
 * Fails for an operator (op) that ends the command line. GNU find puts an expression with no
 * action between implicit parentheses (then -print), so it finds the operator's operand
 * missing before that ')'; with an action the expression just ends there.
 */
static void fail_missing_operand(struct ff_parser *p, const char *op)
{
    if (p->has_action) {
        ff_parser_fail(p, "invalid expression");
    } else {
        ff_parser_failf(p, "expected an expression after '%s'", op);
    }
}

int ff_parse_exclude(struct ff_parser *p, struct ff_expr *expr, char **argv)
{
    (void)expr;
    if (ff_parser_peek(p) == NULL) {
        ff_parser_failf(p, "missing argument to `%s'", argv[0]);
        return -1;
    }
    bool had_action = p->has_action;
    p->has_action = false;
    struct ff_expr *x = parse_unary(p);
    if (x == NULL) {
        return -1;
    }
    if (p->has_action || ff_expr_has_actions(x)) {
        ff_parser_fail(p, "-exclude takes tests only, not actions");
        ff_expr_free(x);
        return -1;
    }
    p->has_action = had_action;
    struct ff_options *o = p->opts;
    o->exclude = o->exclude == NULL ? x : binary(p, &ff_op_or, o->exclude, x);
    return o->exclude != NULL ? 0 : -1;
}

/** find's words for a primary's argument that is missing (see enum ff_missing). */
static void fail_missing_argument(struct ff_parser *p, const struct ff_primary *prim,
                                  const char *primary, int taken)
{
    if (taken > 0 || prim->missing == FF_MISSING_INVALID) {
        // find 4.9 words a missing number so, naming the word before it (the primary itself
        // for the first argument).
        ff_parser_failf(p, "invalid argument `%s' to `%s'", p->argv[p->i - 1], primary);
    } else if (prim->missing == FF_MISSING_TEST) {
        char quoted[64];
        ff_parser_failf(p, "The %s test needs an argument",
                        ff_quoted(quoted, sizeof(quoted), primary));
    } else {
        ff_parser_failf(p, "missing argument to `%s'", primary);
    }
}

/** A primary and its arguments, read as its row of the table says. */
static struct ff_expr *parse_primary(struct ff_parser *p)
{
    int start = p->i++;
    const char *tok = p->argv[start];
    p->last_pred = tok;
    const struct ff_primary *prim = ff_primary_find(tok);
    if (prim == NULL) {
        if (strncmp(tok, "-newer", 6) == 0 && strlen(tok) == 8) {
            ff_parser_failf(p, "invalid predicate `%s'", tok); // find's, for a bad X or Y
        } else {
            ff_parser_failf(p, "unknown predicate `%s'", tok);
        }
        return NULL;
    }
    if (prim->kind == FF_PRIM_GNU_ONLY) {
        ff_parser_failf(p, "`%s' is not supported by frdfind (GNU find has it)", tok);
        return NULL;
    }
    for (int k = 0; k < prim->args; k++) {
        if (p->i >= p->argc) {
            fail_missing_argument(p, prim, tok, k);
            return NULL;
        }
        p->i++;
    }
    struct ff_expr *e = node(p, prim);
    if (e == NULL) {
        return NULL;
    }
    if (prim->parse != NULL && prim->parse(p, e, &p->argv[start]) != 0) {
        p->status = 1; // (reported, by the parser or on its own)
        ff_expr_free(e);
        return NULL;
    }
    if (prim->kind == FF_PRIM_ACTION) {
        p->has_action = true; // (no implicit -print)
    }
    return e;
}

static struct ff_expr *parse_comma(struct ff_parser *p);

/** @return whether the word is a binary operator's. */
static bool is_binary(const char *t)
{
    return strcmp(t, "-o") == 0 || strcmp(t, "-or") == 0 || strcmp(t, "-a") == 0 ||
           strcmp(t, "-and") == 0;
}

static struct ff_expr *parse_unary(struct ff_parser *p)
{
    const char *tok = ff_parser_peek(p);
    if (tok == NULL) {
        ff_parser_fail(p, "invalid expression");
        return NULL;
    }
    if (strcmp(tok, "!") == 0 || strcmp(tok, "-not") == 0) {
        p->i++;
        p->last_pred = tok;
        const char *next = ff_parser_peek(p);
        if (next == NULL) {
            fail_missing_operand(p, tok);
            return NULL;
        }
        if (is_binary(next)) {
            ff_parser_failf(p,
                            "invalid expression; you have used a binary operator '%s' with "
                            "nothing before it.",
                            next);
            return NULL;
        }
        struct ff_expr *inner = parse_unary(p);
        struct ff_expr *e = inner != NULL ? node(p, &ff_op_not) : NULL;
        if (e == NULL) {
            ff_expr_free(inner);
            return NULL;
        }
        e->lhs = inner;
        return e;
    }
    if (strcmp(tok, "(") == 0) {
        p->i++;
        const char *next = ff_parser_peek(p);
        if (next != NULL && strcmp(next, ")") == 0) {
            ff_parser_fail(p, "invalid expression; empty parentheses are not allowed.");
            return NULL;
        }
        struct ff_expr *inner = parse_comma(p);
        if (inner == NULL) {
            return NULL;
        }
        next = ff_parser_peek(p);
        if (next == NULL || strcmp(next, ")") != 0) {
            ff_parser_fail(p, "invalid expression; I was expecting to find a ')' somewhere but "
                              "did not see one.");
            ff_expr_free(inner);
            return NULL;
        }
        p->i++;
        return inner;
    }
    if (strcmp(tok, ")") == 0) {
        ff_parser_fail(p, "you have too many ')'");
        return NULL;
    }
    if (is_binary(tok) || strcmp(tok, ",") == 0) {
        ff_parser_failf(p,
                        "invalid expression; you have used a binary operator '%s' with nothing "
                        "before it.",
                        tok);
        return NULL;
    }
    if (tok[0] != '-' || tok[1] == '\0') {
        ff_parser_failf(p, "paths must precede expression: `%s'", tok);
        if (access(tok, F_OK) == 0 && p->last_pred != NULL) {
            char msg[256];
            snprintf(msg, sizeof(msg), "possible unquoted pattern after predicate `%s'?",
                     p->last_pred);
            ff_error(p->ctx, msg);
        }
        return NULL;
    }
    return parse_primary(p);
}

/** @return true if the token ends an -a chain (no implicit -a before it). */
static bool ends_and(const char *t)
{
    return t == NULL || strcmp(t, ")") == 0 || strcmp(t, ",") == 0 || strcmp(t, "-o") == 0 ||
           strcmp(t, "-or") == 0;
}

/**
 * Takes the binary operator at the parser's position, then checks that an operand follows;
 * if not, fails with GNU find's message and frees `lhs`. @return whether an operand follows.
 */
static bool take_operator(struct ff_parser *p, struct ff_expr *lhs)
{
    const char *op = p->argv[p->i++];
    p->last_pred = op;
    const char *next = ff_parser_peek(p);
    if (next == NULL) {
        fail_missing_operand(p, op);
    } else if (strcmp(next, ")") == 0) {
        ff_parser_failf(p, "expected an expression between '%s' and ')'", op);
    } else {
        return true;
    }
    ff_expr_free(lhs);
    return false;
}

static struct ff_expr *parse_and(struct ff_parser *p)
{
    struct ff_expr *lhs = parse_unary(p);
    while (lhs != NULL && !ends_and(ff_parser_peek(p))) {
        const char *tok = ff_parser_peek(p);
        if ((strcmp(tok, "-a") == 0 || strcmp(tok, "-and") == 0) && !take_operator(p, lhs)) {
            return NULL;
        }
        lhs = binary(p, &ff_op_and, lhs, parse_unary(p));
    }
    return lhs;
}

static struct ff_expr *parse_or(struct ff_parser *p)
{
    struct ff_expr *lhs = parse_and(p);
    const char *tok;
    while (lhs != NULL && (tok = ff_parser_peek(p)) != NULL &&
           (strcmp(tok, "-o") == 0 || strcmp(tok, "-or") == 0)) {
        if (!take_operator(p, lhs)) {
            return NULL;
        }
        lhs = binary(p, &ff_op_or, lhs, parse_and(p));
    }
    return lhs;
}

static struct ff_expr *parse_comma(struct ff_parser *p)
{
    struct ff_expr *lhs = parse_or(p);
    const char *tok;
    while (lhs != NULL && (tok = ff_parser_peek(p)) != NULL && strcmp(tok, ",") == 0) {
        if (!take_operator(p, lhs)) {
            return NULL;
        }
        lhs = binary(p, &ff_op_comma, lhs, parse_or(p));
    }
    return lhs;
}

/**
 * Does GNU find take this argument as the start of the expression (not a path)? "-x" (not
 * "-" alone), "(" and "!" do; ")" and "," are paths there, as any other name: they are
 * operators only once the expression has started.
 */
static bool starts_expression(const char *arg)
{
    return (arg[0] == '-' && arg[1] != '\0') || strcmp(arg, "(") == 0 || strcmp(arg, "!") == 0;
}

/** The paths before the expression (none: "."). @return 0, or 1 (reported). */
static int parse_paths(struct ff_parser *p)
{
    struct ff_options *opts = p->opts;
    int first_path = p->i;
    while (p->i < p->argc && !starts_expression(p->argv[p->i])) {
        p->i++;
    }
    opts->npaths = (size_t)(p->i - first_path);
    opts->paths = calloc(opts->npaths > 0 ? opts->npaths : 1, sizeof(*opts->paths));
    if (opts->paths == NULL) {
        ff_error(p->ctx, "out of memory");
        return 1;
    }
    for (size_t k = 0; k < opts->npaths; k++) {
        opts->paths[k] = p->argv[first_path + (int)k];
    }
    return 0;
}

/**
 * What the whole line decides, after it is read: find's check of -delete against -prune,
 * the roots of -files0-from, the implicit -print, -exclude's root test, the fields the
 * walk reads, -color. @return 0, or 1 after an error was reported.
 */
static int finish(struct ff_parser *p, struct ff_expr *expr, bool paths_given)
{
    struct ff_ctx *ctx = p->ctx;
    struct ff_options *opts = p->opts;
    if (opts->deletes && opts->prunes && !opts->depth_given) {
        ff_error(ctx,
                 "The -delete action automatically turns on -depth, but -prune does nothing when "
                 "-depth is in effect.  If you want to carry on anyway, just explicitly use the "
                 "-depth option.");
        ff_expr_free(expr);
        return 1;
    }
    if (opts->files0_from != NULL && ff_files0_read(ctx, paths_given) != 0) {
        ff_expr_free(expr);
        return 1;
    }
    if (!p->has_action) {
        struct ff_expr *print = node(p, ff_primary_find("-print"));
        if (print == NULL) {
            ff_expr_free(expr);
            return 1;
        }
        print->sep = '\n';
        expr = expr != NULL ? binary(p, &ff_op_and, expr, print) : print;
        if (expr == NULL) {
            return 1;
        }
    }
    opts->expr = expr;
    if (ff_exclude_finish(ctx) != 0) {
        return 1;
    }
    opts->needs |= ff_expr_needs(opts->expr);
    opts->color = opts->color && isatty(STDOUT_FILENO) == 1;
    if (opts->color) {
        // The colors of types depend on the mode (sticky, setuid, executable) and links.
        opts->needs |= FRD_FIELD_MODE | FRD_FIELD_NLINK;
        if (ff_color_init(ctx) < 0) {
            ff_error(ctx, "out of memory");
            return 1;
        }
    }
    return 0;
}

int ff_parse(struct ff_ctx *ctx, int argc, char **argv)
{
    struct ff_options *opts = &ctx->opts;
    memset(opts, 0, sizeof(*opts));
    opts->maxdepth = -1;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    opts->start_ns = (int64_t)now.tv_sec * NS_PER_SEC + now.tv_nsec;
    opts->day_start_ns = opts->start_ns - DAYSECS * NS_PER_SEC;
    opts->regex_syntax = -1; // emacs, as find (frdfind_regex.c)

    struct ff_parser p = {.argv = argv, .argc = argc, .i = 1, .ctx = ctx, .opts = opts};
    int rc = ff_parse_leading(&p);
    if (rc != 0 || parse_paths(&p) != 0) {
        return rc != 0 ? rc : 1;
    }
    bool paths_given = opts->npaths > 0; // (for -files0-from)
    if (opts->npaths == 0) {
        opts->paths[0] = ".";
        opts->npaths = 1;
    }
    struct ff_expr *expr = NULL;
    if (p.i < argc) {
        expr = parse_comma(&p);
        if (expr != NULL && p.i < argc) {
            // parse_comma() stops only at a ')' it did not open.
            ff_parser_fail(&p, "you have too many ')'");
        }
        if (p.status != 0) {
            ff_expr_free(expr);
            return 1;
        }
    }
    return finish(&p, expr, paths_given);
}
