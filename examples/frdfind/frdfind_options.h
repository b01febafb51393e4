// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's options, as the command line gives them, and the global options in the
 *  expression (frdfind_options.c). */
#ifndef FRD_EXAMPLES_FRDFIND_OPTIONS_H
#define FRD_EXAMPLES_FRDFIND_OPTIONS_H

#include "frdfind_table.h"

#include <frd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The ignore primaries (frdfind_ignore.c): what the walk's ignore rules are made of. */
struct ff_ignore_opts {
    bool any;           /**< one of them appears: the walk gets opts.ignore */
    unsigned flags;     /**< enum frd_ignore_flag */
    bool fdignore;      /**< -dot-ignore: .fdignore files too */
    const char **files; /**< -ignore-file FILEs (argv's strings) */
    size_t nfiles;
    size_t files_cap;
    const char **present; /**< -exclude-if-present NAMEs (argv's strings) */
    size_t npresent;
    size_t present_cap;
};

/** Everything the command line says. */
struct ff_options {
    enum frd_follow follow; /**< -P (default), -H, -L */
    int mindepth;           /**< -mindepth, 0 by default */
    int maxdepth;           /**< -maxdepth, -1 for none */
    bool depth;             /**< -depth: directories after their contents */
    bool xdev;              /**< -xdev, -mount */
    bool ordered;           /**< -s or -find-order: the ordered walk, deterministic output */
    bool find_order;        /**< -find-order: in find's order (each directory's own) */
    bool count;             /**< -count appears: print the total at the end */
    bool deletes;           /**< -delete appears (it turns -depth on) */
    bool prunes;            /**< -prune appears */
    bool depth_given;       /**< -depth (or -d) was written */
    bool color;             /**< -color, and stdout is a terminal */
    /** -ignore_readdir_race (the last of it and -noignore_readdir_race wins, as in find):
     *  -delete takes an entry gone before its removal (ENOENT) as removed, silently. */
    bool ignore_race;
    unsigned workers;   /**< -j N; 0 for the walker's default */
    const char **paths; /**< the roots (default ".") */
    size_t npaths;      /**< number of roots */
    /** The roots walked (the paths that exist, in order), indexed by the walk entries'
     *  root_index; set by main() before the walk. */
    const char **roots;
    size_t nroots;           /**< number of roots walked */
    struct ff_expr *expr;    /**< the expression, with the implicit -print added */
    unsigned needs;          /**< enum frd_field and enum ff_need bits */
    int64_t start_ns;        /**< when frdfind started, ns since epoch */
    int64_t day_start_ns;    /**< find's cur_day_start: start_ns - 1 day, -daystart: midnight */
    bool full_days;          /**< -daystart was given (it acts once) */
    int regex_syntax;        /**< -regextype's RE_SYNTAX_* bits for the next -regex */
    struct ff_expr *exclude; /**< -exclude EXPR (several: or'ed), or NULL */
    const char *files0_from; /**< -files0-from FILE ("-": stdin), or NULL */
    char *files0_buf;        /**< the names read from it (paths point into it) */
    /** The errno of a read of FILE that failed after the names read before it (reported
     *  after their walks, by ff_files0_report_read_error()), or 0. */
    int files0_error;
    bool ok_prompt; /**< -ok or -okdir appears: they read their answers from stdin */
    /** A stat may fail for want of search permission (not root): the tests that need one
     *  the walk did not make stat the entry themselves (see FF_NEED_STAT). */
    bool stat_may_fail;
    struct ff_ignore_opts ignore; /**< -gitignore, -ignore-file, -exclude-caches, ... */
};

/** -depth, -d: directories after their contents. */
ff_parse_fn ff_parse_depth;
/** -maxdepth N, -mindepth N (the row's param: 'x', 'n'), with find's messages. */
ff_parse_fn ff_parse_depth_limit;
/** -xdev, -mount: one file system. */
ff_parse_fn ff_parse_xdev;
/** -follow: -L where it stands on. */
ff_parse_fn ff_parse_follow;
/** -color, -nocolor (the row's param: true, false). */
ff_parse_fn ff_parse_color;
/** -ignore_readdir_race, -noignore_readdir_race (the row's param: true, false). */
ff_parse_fn ff_parse_race;

/** Frees what ff_parse() allocated (ff_ctx_free() calls it). */
void ff_options_free(struct ff_options *opts);

#endif // FRD_EXAMPLES_FRDFIND_OPTIONS_H
