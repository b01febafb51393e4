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
 * As in GNU find, the global options (-maxdepth, -depth, -xdev...) are also nodes that are
 * always true where they stand, and an expression with no action gets "-a -print" added.
 * Primaries GNU find has and frdfind does not are refused with an error naming them.
 */
#define _GNU_SOURCE // FNM_CASEFOLD, st_mtim

#include "frdfind.h"
#include "jobs.h"
#include "toolname.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define NS_PER_SEC 1000000000LL
#define DAYSECS    86400

static const char usage_text[] =
    "usage: frdfind [-H] [-L] [-P] [-s|-find-order] [-j N] [PATH...] [EXPRESSION]\n"
    "\n"
    "Walks each PATH (default .) in parallel with frd and evaluates EXPRESSION, GNU find's\n"
    "syntax, on every file. Default expression: -print.\n"
    "\n"
    "options:   -P (never follow links, default)  -L (follow all)  -H (follow the PATHs)\n"
    "           -s (sorted, deterministic output)  -j N (N walker threads)\n"
    "           -find-order (find's own order: its output byte for byte)\n"
    "operators: ( EXPR )  ! EXPR  -not EXPR  EXPR -a EXPR  EXPR -o EXPR  EXPR , EXPR\n"
    "globals:   -depth -maxdepth N -mindepth N -xdev -mount -noleaf -follow -color -nocolor\n"
    "tests:     -name PAT -iname PAT -path PAT -ipath PAT -wholename PAT -iwholename PAT\n"
    "           -type [fdlpscb,] -size [+-]N[cwbkMG] -mtime [+-]N -mmin [+-]N\n"
    "           -newer FILE -empty -inum [+-]N -links [+-]N -true -false\n"
    "           -perm [-/]MODE -user U -group G -uid N -gid N -nouser -nogroup\n"
    "           -regex RE -iregex RE -regextype T -lname PAT -ilname PAT -xtype C\n"
    "           -samefile F -fstype T -readable -writable -executable -used N\n"
    "           -atime -amin -ctime -cmin N -anewer F -cnewer F -newerXY REF -daystart\n"
    "           -exclude EXPR (bfs's: never entered, never stat'ed) -files0-from F\n"
    "actions:   -print -print0 -printf FORMAT -count -prune -quit -delete -ls\n"
    "           -exec CMD ; -exec CMD {} + -execdir CMD ; -execdir CMD {} + -ok CMD ;\n"
    "           -okdir CMD ; -fls FILE -fprint FILE -fprint0 FILE -fprintf FILE FORMAT\n"
    "-printf:   %p %P %H %f %h %y %Y %s %i %n %d %m %M %l %k %b %D %u %U %g %G %F %S %Z\n"
    "           %a %c %t %Ak %Ck %Tk %Bk %%, flags - 0 + # ' ',\n"
    "           width and precision, escapes \\a \\b \\c \\f \\n \\r \\t \\v \\\\ \\NNN\n"
    "\n"
    "Not supported (an error names it): -context (SELinux).\n";

/** Primaries GNU find 4.9 has that frdfind refuses by name. */
static const char *const gnu_only[] = {
    "-context",
};

struct parser {
    char **argv;
    int argc;
    int i;
    struct ff_ctx *ctx;
    struct ff_options *opts;
    const char *last_pred; /**< the last primary or operator read (for messages) */
    bool has_action;       /**< an action that suppresses the implicit -print was seen */
    int status;            /**< 0, or 1 after an error was printed */
};

/** Reports the first parse error (later ones are consequences of it). */
static void fail_msg(struct parser *p, const char *msg)
{
    if (p->status == 0) {
        ff_error(p->ctx, msg);
    }
    p->status = 1;
}

/** printf-style fail_msg(); a macro so the format stays a literal for -Wformat. */
#define FAIL(p, ...)                                         \
    do {                                                     \
        char fail_buf_[512];                                 \
        snprintf(fail_buf_, sizeof(fail_buf_), __VA_ARGS__); \
        fail_msg((p), fail_buf_);                            \
    } while (0)

/** The parser as frdfind_pred.c and frdfind_time.c see it (frdfind.h). */
struct ff_parser {
    struct parser *p;
};

static struct ff_expr *node(struct parser *p, enum ff_kind kind)
{
    struct ff_expr *e = calloc(1, sizeof(*e));
    if (e == NULL) {
        fail_msg(p, "out of memory");
    }
    if (e != NULL) {
        e->kind = kind;
    }
    return e;
}

static void expr_free(struct ff_expr *e)
{
    if (e != NULL) {
        expr_free(e->lhs);
        expr_free(e->rhs);
        ff_format_free(e->format);
        if (e->free_data != NULL) {
            e->free_data(e->data);
        }
        free(e);
    }
}

static const char *peek(const struct parser *p)
{
    return p->i < p->argc ? p->argv[p->i] : NULL;
}

/** Takes the argument of a primary, or fails with GNU find's message. */
static const char *take_arg(struct parser *p, const char *primary)
{
    if (p->i >= p->argc) {
        FAIL(p, "missing argument to `%s'", primary);
        return NULL;
    }
    return p->argv[p->i++];
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
        fail_msg(fp->p, msg);
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
        fail_msg(fp->p, msg);
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

/** Works out the fast path for a -name pattern (only without FNM_CASEFOLD). */
static void classify_pattern(struct ff_expr *e)
{
    const char *pat = e->pattern;
    e->match = FF_MATCH_FNMATCH;
    if (e->fnm_flags != 0) {
        return;
    }
    if (strcmp(pat, "*") == 0) {
        e->match = FF_MATCH_ANY;
        return;
    }
    const char *rest = pat[0] == '*' ? pat + 1 : pat;
    if (strpbrk(rest, "*?[\\") != NULL) {
        return;
    }
    e->literal_len = strlen(rest);
    e->match = pat[0] == '*' ? FF_MATCH_SUFFIX : FF_MATCH_EXACT;
}

static struct ff_expr *parse_type(struct parser *p, const char *primary, const char *arg)
{
    if (*arg == '\0') {
        FAIL(p, "Arguments to %s should contain at least one letter", primary);
        return NULL;
    }
    unsigned types = 0;
    for (const char *s = arg; *s != '\0'; s++) {
        enum frd_type t;
        switch (*s) {
        case 'f':
            t = FRD_TYPE_REG;
            break;
        case 'd':
            t = FRD_TYPE_DIR;
            break;
        case 'l':
            t = FRD_TYPE_LNK;
            break;
        case 'p':
            t = FRD_TYPE_FIFO;
            break;
        case 's':
            t = FRD_TYPE_SOCK;
            break;
        case 'c':
            t = FRD_TYPE_CHR;
            break;
        case 'b':
            t = FRD_TYPE_BLK;
            break;
        case 'D':
            FAIL(p,
                 "%s D is not supported because Solaris doors are not supported on the "
                 "platform find was compiled on.",
                 primary);
            return NULL;
        default: {
            char letter[2] = {*s, '\0'};
            FAIL(p, "Unknown argument to %s: %s", primary, letter);
            return NULL;
        }
        }
        if (types & (1u << t)) {
            char letter[2] = {*s, '\0'};
            FAIL(p, "Duplicate file type '%s' in the argument list to %s.", letter, primary);
            return NULL;
        }
        types |= 1u << t;
        if (s[1] == ',') {
            if (s[2] == '\0') {
                FAIL(p,
                     "Last file type in list argument to %s is missing, i.e., list is "
                     "ending on: ','",
                     primary);
                return NULL;
            }
            s++;
        } else if (s[1] != '\0') {
            FAIL(p, "Must separate multiple arguments to %s using: ','", primary);
            return NULL;
        }
    }
    struct ff_expr *e = node(p, FF_TYPE);
    if (e != NULL) {
        e->types = types;
        if (strcmp(primary, "-xtype") == 0) {
            e->kind = FF_PRED;
            e->test = ff_test_xtype;
            e->num = (uint64_t)p->opts->follow;
            e->needs = FF_NEED_STAT | FF_NEED_DIR_FD; // find stats every entry for -xtype
        }
    }
    return e;
}

static struct ff_expr *parse_size(struct parser *p, const char *arg)
{
    // GNU find reads the unit from the last character, then the number before it.
    size_t len = strlen(arg);
    if (len == 0) {
        fail_msg(p, "invalid null argument to -size");
        return NULL;
    }
    char last = len > 0 ? arg[len - 1] : '\0';
    uint64_t unit = 512;
    size_t num_len = len;
    if (last >= '0' && last <= '9') {
        unit = 512;
    } else {
        const char *units = "c\1w\2b\3k\4M\5G\6";
        const char *hit = last != '\0' ? strchr(units, last) : NULL;
        if (hit == NULL || (hit - units) % 2 != 0) {
            char letter[2] = {last, '\0'};
            FAIL(p, "invalid -size type `%s'", letter);
            return NULL;
        }
        static const uint64_t sizes[] = {0, 1, 2, 512, 1024, 1024 * 1024, 1024 * 1024 * 1024};
        unit = sizes[(unsigned char)hit[1]];
        num_len = len - 1;
    }
    char *num = strndup(arg, num_len);
    if (num == NULL) {
        fail_msg(p, "out of memory");
        return NULL;
    }
    enum ff_cmp cmp;
    uint64_t n;
    bool valid = ff_parse_number(num, &cmp, &n);
    free(num);
    if (!valid) {
        FAIL(p, "Invalid argument `%s' to -size", arg);
        return NULL;
    }
    struct ff_expr *e = node(p, FF_SIZE);
    if (e != NULL) {
        e->cmp = cmp;
        e->num = n;
        e->unit = unit;
    }
    return e;
}

static struct ff_expr *parse_number(struct parser *p, enum ff_kind kind, const char *primary,
                                    const char *arg)
{
    enum ff_cmp cmp;
    uint64_t n;
    if (!ff_parse_number(arg, &cmp, &n)) {
        FAIL(p, "invalid argument `%s' to `%s'", arg, primary);
        return NULL;
    }
    struct ff_expr *e = node(p, kind);
    if (e != NULL) {
        e->cmp = cmp;
        e->num = n;
    }
    return e;
}

static bool parse_depth(struct parser *p, const char *primary, const char *arg, int *out)
{
    // find: digits only, then safe_atoi() (its own message for a number past INT_MAX).
    size_t digits = strspn(arg, "0123456789");
    if (digits == 0 || arg[digits] != '\0') {
        char quoted[400];
        FAIL(p, "Expected a positive decimal integer argument to %s, but got %s", primary,
             ff_quoted(quoted, sizeof(quoted), arg));
        return false;
    }
    struct ff_parser fp = {.p = p};
    return ff_parser_int(&fp, arg, out);
}

const char *ff_parser_arg(struct ff_parser *fp, const char *primary)
{
    return take_arg(fp->p, primary);
}

const char *ff_parser_peek(struct ff_parser *fp)
{
    return peek(fp->p);
}

void ff_parser_fail(struct ff_parser *fp, const char *msg)
{
    fail_msg(fp->p, msg);
}

struct ff_expr *ff_parser_node(struct ff_parser *fp, enum ff_kind kind)
{
    return node(fp->p, kind);
}

struct ff_options *ff_parser_opts(struct ff_parser *fp)
{
    return fp->p->opts;
}

struct ff_ctx *ff_parser_ctx(struct ff_parser *fp)
{
    return fp->p->ctx;
}

static struct ff_expr *parse_unary(struct parser *p);

/**
 * Fails for an operator (op) that ends the command line. GNU find puts an expression with no
 * action between implicit parentheses (then -print), so it finds the operator's operand
 * missing before that ')'; with an action the expression just ends there.
 */
static void fail_missing_operand(struct parser *p, const char *op)
{
    if (p->has_action) {
        FAIL(p, "invalid expression");
    } else {
        FAIL(p, "expected an expression after '%s'", op);
    }
}

static struct ff_expr *binary(struct parser *p, enum ff_kind kind, struct ff_expr *lhs,
                              struct ff_expr *rhs);

/** @return whether the tree holds an action (-print, -quit, -prune...). */
static bool has_actions(const struct ff_expr *e)
{
    return e != NULL && (e->kind == FF_PRINT || e->kind == FF_PRINTF || e->kind == FF_COUNT ||
                         e->kind == FF_PRUNE || e->kind == FF_QUIT || e->kind == FF_EXEC ||
                         e->kind == FF_DELETE || e->kind == FF_LS || e->kind == FF_FPRINT ||
                         e->kind == FF_FPRINTF || has_actions(e->lhs) || has_actions(e->rhs));
}

/** -exclude EXPR (bfs's): EXPR is an operand, as after '!', with no action in it. */
static struct ff_expr *parse_exclude(struct parser *p, const char *tok)
{
    if (peek(p) == NULL) {
        FAIL(p, "missing argument to `%s'", tok);
        return NULL;
    }
    bool had_action = p->has_action;
    p->has_action = false;
    struct ff_expr *x = parse_unary(p);
    if (x == NULL) {
        return NULL;
    }
    if (p->has_action || has_actions(x)) {
        FAIL(p, "-exclude takes tests only, not actions");
        expr_free(x);
        return NULL;
    }
    p->has_action = had_action;
    struct ff_options *o = p->opts;
    o->exclude = o->exclude == NULL ? x : binary(p, FF_OR, o->exclude, x);
    return o->exclude != NULL ? node(p, FF_TRUE) : NULL;
}

/** @return true for the actions frdfind_file.c and frdfind_delete.c carry out. */
static bool is_output_action(const char *tok)
{
    return strcmp(tok, "-delete") == 0 || strcmp(tok, "-ls") == 0 || strcmp(tok, "-fls") == 0 ||
           strcmp(tok, "-fprint") == 0 || strcmp(tok, "-fprint0") == 0 ||
           strcmp(tok, "-fprintf") == 0;
}

/** -exec and its kin, -delete, -ls and the output files (their own files do the work). */
static struct ff_expr *parse_action(struct parser *p, const char *tok)
{
    struct ff_options *o = p->opts;
    struct ff_expr *e;
    p->has_action = true;
    if (ff_exec_is_primary(tok)) {
        struct ff_exec *ex;
        if (ff_exec_parse(p->ctx, tok, p->argv, p->argc, &p->i, &ex) != 0) {
            p->status = 1;
            return NULL;
        }
        if ((e = node(p, FF_EXEC)) != NULL) {
            e->exec = ex;
        }
        // (find's ok_prompt_stdin: -files0-from cannot read the answers' stdin then)
        o->ok_prompt = o->ok_prompt || strncmp(tok, "-ok", 3) == 0;
        return e;
    }
    if (strcmp(tok, "-delete") == 0) {
        o->deletes = true;
        o->depth = true; // find: -delete turns -depth on
        return node(p, FF_DELETE);
    }
    if (strcmp(tok, "-ls") == 0) {
        if (ff_ls_need(p->ctx) != 0) {
            p->status = 1;
            return NULL;
        }
        return node(p, FF_LS);
    }
    const char *name = take_arg(p, tok);
    if (name == NULL) {
        return NULL;
    }
    const char *fmt = NULL;
    if (strcmp(tok, "-fprintf") == 0) {
        if (p->i >= p->argc) {
            // find's words when the format is missing.
            FAIL(p, "invalid argument `%s' to `%s'", name, tok);
            return NULL;
        }
        fmt = p->argv[p->i++];
    }
    struct ff_file *file;
    if (ff_file_open(p->ctx, name, &file) != 0 ||
        (strcmp(tok, "-fls") == 0 && ff_ls_need(p->ctx) != 0)) {
        p->status = 1;
        return NULL;
    }
    enum ff_kind kind = strcmp(tok, "-fls") == 0 ? FF_LS : fmt != NULL ? FF_FPRINTF : FF_FPRINT;
    if ((e = node(p, kind)) == NULL) {
        return NULL;
    }
    e->file = file;
    e->sep = strcmp(tok, "-fprint0") == 0 ? '\0' : '\n';
    // (find's names for the output in its write errors)
    const char *dest = strcmp(name, "/dev/stdout") == 0   ? "standard output"
                       : strcmp(name, "/dev/stderr") == 0 ? "standard error"
                                                          : name;
    if (fmt != NULL && ff_format_compile(p->ctx, fmt, dest, &e->format, &e->needs) != 0) {
        p->status = 1;
        free(e);
        return NULL;
    }
    o->needs |= e->needs;
    return e;
}

static struct ff_expr *parse_primary(struct parser *p)
{
    const char *tok = p->argv[p->i++];
    p->last_pred = tok;
    struct ff_options *o = p->opts;
    const char *arg;
    struct ff_expr *e;
    if (strcmp(tok, "-exclude") == 0) {
        return parse_exclude(p, tok);
    }
    // The tests of frdfind_pred.c and frdfind_time.c.
    struct ff_parser fp = {p};
    bool handled;
    if ((e = ff_pred_parse(&fp, tok, &handled)) != NULL || handled ||
        (e = ff_time_parse(&fp, tok, &handled)) != NULL || handled) {
        return e;
    }
    if (strcmp(tok, "-name") == 0 || strcmp(tok, "-iname") == 0) {
        if ((arg = take_arg(p, tok)) == NULL || ff_matcher_need(p->ctx) != 0 ||
            (e = node(p, FF_NAME)) == NULL) {
            return NULL;
        }
        e->pattern = arg;
        e->ascii = ff_is_ascii(arg, strlen(arg));
        e->fnm_flags = tok[1] == 'i' ? FNM_CASEFOLD : 0;
        classify_pattern(e);
        return e;
    }
    if (strcmp(tok, "-path") == 0 || strcmp(tok, "-ipath") == 0 || strcmp(tok, "-wholename") == 0 ||
        strcmp(tok, "-iwholename") == 0) {
        if ((arg = take_arg(p, tok)) == NULL || ff_matcher_need(p->ctx) != 0 ||
            (e = node(p, FF_PATH)) == NULL) {
            return NULL;
        }
        e->pattern = arg;
        e->ascii = ff_is_ascii(arg, strlen(arg));
        e->fnm_flags = tok[1] == 'i' ? FNM_CASEFOLD : 0;
        return e;
    }
    if (strcmp(tok, "-type") == 0 || strcmp(tok, "-xtype") == 0) {
        return (arg = take_arg(p, tok)) == NULL ? NULL : parse_type(p, tok, arg);
    }
    if (strcmp(tok, "-size") == 0) {
        return (arg = take_arg(p, tok)) == NULL ? NULL : parse_size(p, arg);
    }
    if ((strcmp(tok, "-inum") == 0 || strcmp(tok, "-links") == 0) && peek(p) == NULL) {
        // find 4.9 words a missing number so, naming the primary twice.
        FAIL(p, "invalid argument `%s' to `%s'", tok, tok);
        return NULL;
    }
    if (strcmp(tok, "-inum") == 0) {
        return (arg = take_arg(p, tok)) == NULL ? NULL : parse_number(p, FF_INUM, tok, arg);
    }
    if (strcmp(tok, "-links") == 0) {
        return (arg = take_arg(p, tok)) == NULL ? NULL : parse_number(p, FF_LINKS, tok, arg);
    }
    if (strcmp(tok, "-maxdepth") == 0 || strcmp(tok, "-mindepth") == 0) {
        if ((arg = take_arg(p, tok)) == NULL ||
            !parse_depth(p, tok, arg, tok[2] == 'a' ? &o->maxdepth : &o->mindepth)) {
            return NULL;
        }
        return node(p, FF_TRUE);
    }
    if (ff_exec_is_primary(tok) || is_output_action(tok)) {
        return parse_action(p, tok);
    }
    if (strcmp(tok, "-printf") == 0) {
        if ((arg = take_arg(p, tok)) == NULL || (e = node(p, FF_PRINTF)) == NULL) {
            return NULL;
        }
        p->has_action = true;
        if (ff_format_compile(p->ctx, arg, "standard output", &e->format, &e->needs) != 0) {
            p->status = 1;
            free(e);
            return NULL;
        }
        o->needs |= e->needs;
        return e;
    }
    struct simple {
        const char *name;
        enum ff_kind kind;
    };
    static const struct simple simple[] = {
        {"-print", FF_PRINT}, {"-print0", FF_PRINT}, {"-count", FF_COUNT}, {"-prune", FF_PRUNE},
        {"-quit", FF_QUIT},   {"-empty", FF_EMPTY},  {"-true", FF_TRUE},   {"-false", FF_FALSE},
    };
    for (size_t k = 0; k < sizeof(simple) / sizeof(simple[0]); k++) {
        if (strcmp(tok, simple[k].name) == 0) {
            if ((e = node(p, simple[k].kind)) == NULL) {
                return NULL;
            }
            if (e->kind == FF_PRINT) {
                e->sep = tok[6] == '0' ? '\0' : '\n';
                p->has_action = true;
            } else if (e->kind == FF_PRUNE) {
                o->prunes = true;
            } else if (e->kind == FF_COUNT) {
                p->has_action = true;
                o->count = true;
            }
            return e;
        }
    }
    // Global options: they set an option and are true where they stand, as in GNU find.
    if (strcmp(tok, "-depth") == 0 || strcmp(tok, "-d") == 0) {
        o->depth = true;
        o->depth_given = true;
    } else if (strcmp(tok, "-xdev") == 0 || strcmp(tok, "-mount") == 0) {
        o->xdev = true;
    } else if (strcmp(tok, "-color") == 0 || strcmp(tok, "-nocolor") == 0) {
        o->color = tok[1] == 'c'; // bfs's: colors on a terminal only (see ff_parse())
    } else if (strcmp(tok, "-follow") == 0) {
        o->follow = FRD_FOLLOW_ALL;
    } else if (strcmp(tok, "-noleaf") != 0) {
        for (size_t k = 0; k < sizeof(gnu_only) / sizeof(gnu_only[0]); k++) {
            if (strcmp(tok, gnu_only[k]) == 0 ||
                (strncmp(tok, "-newer", 6) == 0 && strlen(tok) == 8)) {
                FAIL(p, "`%s' is not supported by frdfind (GNU find has it)", tok);
                return NULL;
            }
        }
        FAIL(p, "unknown predicate `%s'", tok);
        return NULL;
    }
    return node(p, FF_TRUE);
}

static struct ff_expr *parse_comma(struct parser *p);

static struct ff_expr *parse_unary(struct parser *p)
{
    const char *tok = peek(p);
    if (tok == NULL) {
        FAIL(p, "invalid expression");
        return NULL;
    }
    if (strcmp(tok, "!") == 0 || strcmp(tok, "-not") == 0) {
        p->i++;
        p->last_pred = tok;
        const char *next = peek(p);
        if (next == NULL) {
            fail_missing_operand(p, tok);
            return NULL;
        }
        if (strcmp(next, "-o") == 0 || strcmp(next, "-or") == 0 || strcmp(next, "-a") == 0 ||
            strcmp(next, "-and") == 0) {
            FAIL(p,
                 "invalid expression; you have used a binary operator '%s' with nothing "
                 "before it.",
                 next);
            return NULL;
        }
        struct ff_expr *inner = parse_unary(p);
        struct ff_expr *e = inner != NULL ? node(p, FF_NOT) : NULL;
        if (e == NULL) {
            expr_free(inner);
            return NULL;
        }
        e->lhs = inner;
        return e;
    }
    if (strcmp(tok, "(") == 0) {
        p->i++;
        const char *next = peek(p);
        if (next != NULL && strcmp(next, ")") == 0) {
            FAIL(p, "invalid expression; empty parentheses are not allowed.");
            return NULL;
        }
        struct ff_expr *inner = parse_comma(p);
        if (inner == NULL) {
            return NULL;
        }
        next = peek(p);
        if (next == NULL || strcmp(next, ")") != 0) {
            FAIL(p, "invalid expression; I was expecting to find a ')' somewhere but did not see "
                    "one.");
            expr_free(inner);
            return NULL;
        }
        p->i++;
        return inner;
    }
    if (strcmp(tok, ")") == 0) {
        FAIL(p, "you have too many ')'");
        return NULL;
    }
    if (strcmp(tok, "-o") == 0 || strcmp(tok, "-or") == 0 || strcmp(tok, "-a") == 0 ||
        strcmp(tok, "-and") == 0 || strcmp(tok, ",") == 0) {
        FAIL(p, "invalid expression; you have used a binary operator '%s' with nothing before it.",
             tok);
        return NULL;
    }
    if (tok[0] != '-' || tok[1] == '\0') {
        FAIL(p, "paths must precede expression: `%s'", tok);
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

static struct ff_expr *binary(struct parser *p, enum ff_kind kind, struct ff_expr *lhs,
                              struct ff_expr *rhs)
{
    struct ff_expr *e = rhs != NULL ? node(p, kind) : NULL;
    if (e == NULL) {
        expr_free(lhs);
        expr_free(rhs);
        return NULL;
    }
    e->lhs = lhs;
    e->rhs = rhs;
    return e;
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
static bool take_operator(struct parser *p, struct ff_expr *lhs)
{
    const char *op = p->argv[p->i++];
    p->last_pred = op;
    const char *next = peek(p);
    if (next == NULL) {
        fail_missing_operand(p, op);
    } else if (strcmp(next, ")") == 0) {
        FAIL(p, "expected an expression between '%s' and ')'", op);
    } else {
        return true;
    }
    expr_free(lhs);
    return false;
}

static struct ff_expr *parse_and(struct parser *p)
{
    struct ff_expr *lhs = parse_unary(p);
    while (lhs != NULL && !ends_and(peek(p))) {
        const char *tok = peek(p);
        if ((strcmp(tok, "-a") == 0 || strcmp(tok, "-and") == 0) && !take_operator(p, lhs)) {
            return NULL;
        }
        lhs = binary(p, FF_AND, lhs, parse_unary(p));
    }
    return lhs;
}

static struct ff_expr *parse_or(struct parser *p)
{
    struct ff_expr *lhs = parse_and(p);
    while (lhs != NULL && peek(p) != NULL &&
           (strcmp(peek(p), "-o") == 0 || strcmp(peek(p), "-or") == 0)) {
        if (!take_operator(p, lhs)) {
            return NULL;
        }
        lhs = binary(p, FF_OR, lhs, parse_and(p));
    }
    return lhs;
}

static struct ff_expr *parse_comma(struct parser *p)
{
    struct ff_expr *lhs = parse_or(p);
    while (lhs != NULL && peek(p) != NULL && strcmp(peek(p), ",") == 0) {
        if (!take_operator(p, lhs)) {
            return NULL;
        }
        lhs = binary(p, FF_COMMA, lhs, parse_or(p));
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

/** Leading options: -H -L -P, and frdfind's -s and -j N. @return 0, 1 (error) or -1. */
static int parse_leading(struct parser *p)
{
    struct ff_options *o = p->opts;
    while (p->i < p->argc) {
        const char *a = p->argv[p->i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
            fputs(usage_text, stdout);
            return tool_flush_stdout() == 0 ? -1 : 1;
        }
        if (strcmp(a, "--version") == 0 || strcmp(a, "-version") == 0) {
            return tool_print_version("frdfind", NULL) == 0 ? -1 : 1;
        }
        if (strcmp(a, "--") == 0) {
            p->i++;
            return 0;
        }
        if (a[0] != '-' || a[1] == '\0') {
            return 0;
        }
        if (strcmp(a, "-j") == 0 || strncmp(a, "-j", 2) == 0) {
            const char *num = a[2] != '\0' ? a + 2 : (p->i + 1 < p->argc ? p->argv[p->i + 1] : "");
            if (tool_parse_jobs(num, "-j", &o->workers) < 0) {
                p->status = 1; // the message is printed
                return 1;
            }
            p->i += a[2] != '\0' ? 1 : 2;
            continue;
        }
        if (strcmp(a, "-s") == 0 || strcmp(a, "-find-order") == 0) {
            o->ordered = true; // the last of the two wins
            o->find_order = a[1] == 'f';
            p->i++;
            continue;
        }
        struct ff_parser fp = {p};
        int taken = ff_pred_leading(&fp, a, p->i + 1 < p->argc ? p->argv[p->i + 1] : NULL);
        if (taken < 0) {
            return 1;
        }
        if (taken > 0) {
            p->i += taken;
            continue;
        }
        // -HLP may be combined ("-LH"); anything else starts the expression.
        if (strspn(a + 1, "HLP") != strlen(a + 1)) {
            return 0;
        }
        for (const char *c = a + 1; *c != '\0'; c++) {
            o->follow = *c == 'L'   ? FRD_FOLLOW_ALL
                        : *c == 'H' ? FRD_FOLLOW_ROOTS
                                    : FRD_FOLLOW_NEVER;
        }
        p->i++;
    }
    return 0;
}

/** An -a node for ff_exclude_finish() (NULL after an error; the operands are then freed). */
static struct ff_expr *and_node(struct ff_ctx *ctx, struct ff_expr *lhs, struct ff_expr *rhs)
{
    struct parser p = {.ctx = ctx, .opts = &ctx->opts};
    return binary(&p, FF_AND, lhs, rhs);
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
    opts->regex_syntax = -1; // emacs, as find (frdfind_pred.c)

    struct parser p = {.argv = argv, .argc = argc, .i = 1, .ctx = ctx, .opts = opts};
    int rc = parse_leading(&p);
    if (rc != 0) {
        return rc;
    }
    int first_path = p.i;
    while (p.i < argc && !starts_expression(argv[p.i])) {
        p.i++;
    }
    opts->npaths = (size_t)(p.i - first_path);
    opts->paths = calloc(opts->npaths > 0 ? opts->npaths : 1, sizeof(*opts->paths));
    if (opts->paths == NULL) {
        ff_error(ctx, "out of memory");
        return 1;
    }
    for (size_t k = 0; k < opts->npaths; k++) {
        opts->paths[k] = argv[first_path + (int)k];
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
            FAIL(&p, "you have too many ')'");
        }
        if (p.status != 0) {
            expr_free(expr);
            return 1;
        }
    }
    if (opts->deletes && opts->prunes && !opts->depth_given) {
        ff_error(ctx,
                 "The -delete action automatically turns on -depth, but -prune does nothing when "
                 "-depth is in effect.  If you want to carry on anyway, just explicitly use the "
                 "-depth option.");
        expr_free(expr);
        return 1;
    }
    if (opts->files0_from != NULL && ff_pred_files0(ctx, paths_given) != 0) {
        expr_free(expr);
        return 1;
    }
    if (!p.has_action) {
        struct ff_expr *print = node(&p, FF_PRINT);
        if (print == NULL) {
            expr_free(expr);
            return 1;
        }
        print->sep = '\n';
        expr = expr != NULL ? binary(&p, FF_AND, expr, print) : print;
        if (expr == NULL) {
            return 1;
        }
    }
    opts->expr = expr;
    if (ff_exclude_finish(ctx, and_node) != 0) {
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

void ff_options_free(struct ff_options *opts)
{
    expr_free(opts->expr);
    expr_free(opts->exclude);
    opts->exclude = NULL;
    opts->expr = NULL;
    free(opts->paths);
    opts->paths = NULL;
    free(opts->files0_buf);
    opts->files0_buf = NULL;
}
