// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's table of primaries (frdfind_table.c): one row per test, action and global
 * option GNU find 4.9 has (and bfs's -exclude), saying how many arguments it takes, how
 * they are read, how the node is evaluated and what it needs of each entry. The parser
 * (frdfind_parse.c) looks each word up here; nothing else names a primary.
 */
#ifndef FRD_EXAMPLES_FRDFIND_TABLE_H
#define FRD_EXAMPLES_FRDFIND_TABLE_H

#include "frdfind_eval.h"

#include <stdbool.h>

struct ff_parser;

/** What a row is (find's classes, bfs's T_TEST / T_ACTION / T_OPTION). */
enum ff_prim_kind {
    FF_PRIM_TEST,     /**< true or false, no side effect */
    FF_PRIM_ACTION,   /**< an action in the implicit -print's place: -print, -exec, -delete... */
    FF_PRIM_CONTROL,  /**< an action on the walk, -prune and -quit: -print is still implied */
    FF_PRIM_OPTION,   /**< a global option: sets an option, true where it stands */
    FF_PRIM_OPERATOR, /**< -a, -o, ',' and ! (the grammar's; not looked up by name) */
    FF_PRIM_GNU_ONLY, /**< GNU find has it, frdfind refuses it by name */
};

/** A primary that reads its own arguments (-exec's command, -exclude's expression). */
#define FF_ARGS_OWN (-1)

/** find's words when a primary's first argument is missing (a later one: "invalid argument
 *  `THE ONE BEFORE' to `-x'"). */
enum ff_missing {
    FF_MISSING_ARGUMENT, /**< "missing argument to `-x'" */
    FF_MISSING_INVALID,  /**< "invalid argument `-x' to `-x'" (find 4.9's for -inum...) */
    FF_MISSING_TEST,     /**< "The '-newerXY' test needs an argument" */
};

/**
 * Reads a primary's arguments into its node (made with the row's eval and needs).
 * @param argv the primary's word, then the row's `args` arguments (FF_ARGS_OWN: the rest
 * of the command line, read through the parser).
 * @return 0, or -1 after the error was reported (through ff_parser_fail() or on its own).
 */
typedef int ff_parse_fn(struct ff_parser *fp, struct ff_expr *expr, char **argv);

/** One row of the table. */
struct ff_primary {
    const char *name;        /**< "-name"; a prefix row (-newerXY) names its pattern */
    enum ff_prim_kind kind;  /**< test, action, option */
    int args;                /**< arguments it takes (0, 1, 2), or FF_ARGS_OWN */
    ff_parse_fn *parse;      /**< reads them into the node; NULL: nothing to read */
    ff_eval_fn *eval;        /**< evaluates the node (its parse may pick a faster one) */
    unsigned needs;          /**< enum frd_field and enum ff_need bits it reads */
    int param;               /**< for the parse or eval several rows share */
    enum ff_missing missing; /**< the message for a missing first argument */
};

/**
 * @return the row of the primary `word` names (-newerXY's for any valid X and Y), or NULL
 * for a word that names none.
 */
const struct ff_primary *ff_primary_find(const char *word);

/** The operators' rows (the parser makes their nodes). */
extern const struct ff_primary ff_op_and;
extern const struct ff_primary ff_op_or;
extern const struct ff_primary ff_op_comma;
extern const struct ff_primary ff_op_not;

#endif // FRD_EXAMPLES_FRDFIND_TABLE_H
