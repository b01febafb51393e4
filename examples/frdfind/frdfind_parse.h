// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's command-line parser (frdfind_parse.c): ff_parse() for main(), and what the
 * primaries' parse functions (the table's, frdfind_table.h) see of it: the run, the words
 * still to read, the one error it reports, and find's readers of numbers and files.
 */
#ifndef FRD_EXAMPLES_FRDFIND_PARSE_H
#define FRD_EXAMPLES_FRDFIND_PARSE_H

#include "frdfind_table.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

struct ff_ctx;
struct ff_options;

/** The parser as the primaries' parse functions see it (opaque). */
struct ff_parser;

/**
 * Parses argv (GNU find's syntax) into ctx->opts. Prints the error to stderr as find does.
 * @return 0 on success, 1 for a usage error (the exit status to use), or -1 when --help or
 * --version was printed (exit 0).
 */
int ff_parse(struct ff_ctx *ctx, int argc, char **argv);

/** @return the run being parsed. */
struct ff_ctx *ff_parser_ctx(struct ff_parser *fp);

/** @return the options being parsed (ff_parser_ctx()'s). */
struct ff_options *ff_parser_opts(struct ff_parser *fp);

/** Reports a parse error (the first one only) and fails the parse. */
void ff_parser_fail(struct ff_parser *fp, const char *msg);

/** ff_parser_fail() with a printf format. */
void ff_parser_failf(struct ff_parser *fp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Reports "before 'arg' after" as a parse error, arg quoted as find quotes it (gnulib's
 *  locale style: ‘arg’ in a UTF-8 locale, with C escapes). */
void ff_parser_fail_quoted(struct ff_parser *fp, const char *before, const char *arg,
                           const char *after);

/** Reports find's error for a file named on the command line that cannot be stat'ed
 *  ("'path': strerror(errno)") as a parse error. */
void ff_parser_fail_stat(struct ff_parser *fp, const char *path);

/** @return the next word, not taken, or NULL at the end of the command line. */
const char *ff_parser_peek(struct ff_parser *fp);

/** @return the words not taken yet (*n of them), for a primary that reads its own. */
char **ff_parser_rest(struct ff_parser *fp, int *n);

/** Takes the next n words (n at most what ff_parser_rest() gave). */
void ff_parser_take(struct ff_parser *fp, int n);

/**
 * Stats a file named in the expression (-newer's, -samefile's) as -H/-L say at this point of
 * the line, as find does: without them the name itself (a link is not followed); with
 * them its target, or the link itself when the target is missing (ENOENT, ENOTDIR).
 * @return 0, or -1 with errno set.
 */
int ff_parser_stat(struct ff_parser *fp, const char *path, struct stat *st);

/**
 * Takes find's sign off a numeric argument: "+N" (more than), "-N" (less than), "N" (exactly).
 * @return the comparison; *s is advanced past the sign.
 */
enum ff_cmp ff_take_sign(const char **s);

/**
 * A number with find's sign, as find's get_num() reads it for -size, -inum, -links, -uid
 * and -gid: the sign, then gnulib's xstrtoumax (leading blanks and a '+' allowed, so "-+1"
 * is less than 1 and " 1" is 1; no '-', no overflow, nothing after the digits).
 * @return whether s is such a number (*cmp and *out set).
 */
bool ff_parse_number(const char *s, enum ff_cmp *cmp, uint64_t *out);

/**
 * An int as find's safe_atoi() reads it (-maxdepth, -mindepth, numeric -user and -group),
 * with its messages: "N: Numerical result out of range" past the int range, "Unexpected
 * suffix", "Expected an integer". @return false after the error was reported.
 */
bool ff_parser_int(struct ff_parser *fp, const char *s, int *out);

/** -exclude EXPR (bfs's): EXPR is an operand, as after '!', with no action in it. */
ff_parse_fn ff_parse_exclude;

#endif // FRD_EXAMPLES_FRDFIND_PARSE_H
