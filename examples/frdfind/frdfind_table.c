// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The table of frdfind's primaries: every test, action and global option GNU find 4.9
 * has (bfs's -exclude too), one row each, in name order. A row says how many arguments
 * the primary takes (the parser takes them, or reports find's words for a missing one),
 * the function that reads them into the node, the function that evaluates it, and what
 * it needs of each entry: stat fields (enum frd_field), a stat the walk may not have made
 * (FF_NEED_STAT), the parent's descriptor (FF_NEED_DIR_FD). The walk asks for exactly the
 * fields the expression's rows (and their arguments) need: -name and -type read none.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_table.h"

#include "frdfind_actions.h"
#include "frdfind_delete.h"
#include "frdfind_exec.h"
#include "frdfind_file.h"
#include "frdfind_files0.h"
#include "frdfind_ids.h"
#include "frdfind_ignore.h"
#include "frdfind_ls.h"
#include "frdfind_names.h"
#include "frdfind_options.h"
#include "frdfind_parse.h"
#include "frdfind_perm.h"
#include "frdfind_regex.h"
#include "frdfind_tests.h"
#include "frdfind_time.h"
#include "frdfind_types.h"

#include <string.h>
#include <unistd.h>

// The columns' short names.
#define TEST      FF_PRIM_TEST
#define ACTION    FF_PRIM_ACTION
#define CONTROL   FF_PRIM_CONTROL
#define OPTION    FF_PRIM_OPTION
#define GNU_ONLY  FF_PRIM_GNU_ONLY
#define OWN       FF_ARGS_OWN
#define STAT      FF_NEED_STAT
#define DIR_FD    FF_NEED_DIR_FD
#define MIN       FF_TIME_MINUTES
#define ARG       FF_MISSING_ARGUMENT
#define INVALID   FF_MISSING_INVALID
#define NEEDS_ARG FF_MISSING_TEST
#define F(field)  FRD_FIELD_##field
/** -ls and -fls: the `ls -dils` line. */
#define LS_FIELDS                                                                            \
    (F(FILE_ID) | F(ALLOC_SIZE) | F(MODE) | F(NLINK) | F(UID) | F(GID) | F(SIZE) | F(RDEV) | \
     F(MTIME))

// clang-format off
static const struct ff_primary table[] = {
    // name                    kind      args parse                 eval              needs                param      missing
    {"-amin",                  TEST,     1,   ff_parse_time,        ff_eval_time,     F(ATIME),            'a' | MIN, ARG},
    {"-anewer",                TEST,     1,   ff_parse_newer,       ff_eval_newer,    F(ATIME),            'a',       ARG},
    {"-atime",                 TEST,     1,   ff_parse_time,        ff_eval_time,     F(ATIME),            'a',       ARG},
    {"-cmin",                  TEST,     1,   ff_parse_time,        ff_eval_time,     F(CTIME),            'c' | MIN, ARG},
    {"-cnewer",                TEST,     1,   ff_parse_newer,       ff_eval_newer,    F(CTIME),            'c',       ARG},
    {"-color",                 OPTION,   0,   ff_parse_color,       ff_eval_true,     0,                   true,      ARG},
    {"-context",               GNU_ONLY, 0,   NULL,                 NULL,             0,                   0,         ARG},
    {"-count",                 ACTION,   0,   ff_parse_count,       ff_eval_count,    0,                   0,         ARG},
    {"-ctime",                 TEST,     1,   ff_parse_time,        ff_eval_time,     F(CTIME),            'c',       ARG},
    {"-d",                     OPTION,   0,   ff_parse_depth,       ff_eval_true,     0,                   0,         ARG},
    {"-daystart",              OPTION,   0,   ff_parse_daystart,    ff_eval_true,     0,                   0,         ARG},
    {"-delete",                ACTION,   0,   ff_parse_delete,      ff_eval_delete,   DIR_FD,              0,         ARG},
    {"-depth",                 OPTION,   0,   ff_parse_depth,       ff_eval_true,     0,                   0,         ARG},
    {"-dot-ignore",            OPTION,   0,   ff_parse_ignore,      ff_eval_true,     0,                   FF_IGNORE_DOT, ARG},
    {"-empty",                 TEST,     0,   NULL,                 ff_eval_empty,    F(SIZE) | DIR_FD,    0,         ARG},
    {"-exclude",               OPTION,   OWN, ff_parse_exclude,     ff_eval_true,     0,                   0,         ARG},
    {"-exclude-caches",        OPTION,   0,   ff_parse_ignore,      ff_eval_true,     0,                   FF_IGNORE_CACHES, ARG},
    {"-exclude-if-present",    OPTION,   1,   ff_parse_ignore,      ff_eval_true,     0,                   FF_IGNORE_IF_PRESENT, ARG},
    {"-exec",                  ACTION,   OWN, ff_parse_exec,        ff_eval_exec,     DIR_FD,              0,         ARG},
    {"-execdir",               ACTION,   OWN, ff_parse_exec,        ff_eval_exec,     DIR_FD,              0,         ARG},
    {"-executable",            TEST,     0,   NULL,                 ff_eval_access,   DIR_FD,              X_OK,      ARG},
    {"-false",                 TEST,     0,   NULL,                 ff_eval_false,    0,                   0,         ARG},
    {"-files0-from",           OPTION,   1,   ff_parse_files0,      ff_eval_true,     0,                   0,         ARG},
    {"-fls",                   ACTION,   1,   ff_parse_fls,         ff_eval_ls,       LS_FIELDS | DIR_FD,  0,         ARG},
    {"-follow",                OPTION,   0,   ff_parse_follow,      ff_eval_true,     0,                   0,         ARG},
    {"-fprint",                ACTION,   1,   ff_parse_fprint,      ff_eval_fprint,   0,                   '\n',      ARG},
    {"-fprint0",               ACTION,   1,   ff_parse_fprint,      ff_eval_fprint,   0,                   '\0',      ARG},
    {"-fprintf",               ACTION,   2,   ff_parse_fprintf,     ff_eval_fprintf,  0,                   0,         ARG},
    {"-fstype",                TEST,     1,   ff_parse_fstype,      ff_eval_fstype,   F(DEV),              0,         ARG},
    {"-gid",                   TEST,     1,   ff_parse_cmp,         ff_eval_gid,      F(GID),              0,         INVALID},
    {"-gitignore",             OPTION,   0,   ff_parse_ignore,      ff_eval_true,     0,                   FF_IGNORE_GIT, ARG},
    {"-group",                 TEST,     1,   ff_parse_owner,       ff_eval_gid,      F(GID),              true,      ARG},
    {"-ignore-file",           OPTION,   1,   ff_parse_ignore,      ff_eval_true,     0,                   FF_IGNORE_FILE, ARG},
    {"-ignore_readdir_race",   OPTION,   0,   ff_parse_race,        ff_eval_true,     0,                   true,      ARG},
    {"-ilname",                TEST,     1,   ff_parse_lname,       ff_eval_lname,    STAT | DIR_FD,       true,      ARG},
    {"-iname",                 TEST,     1,   ff_parse_name,        ff_eval_name,     0,                   true,      ARG},
    {"-inum",                  TEST,     1,   ff_parse_cmp,         ff_eval_inum,     F(FILE_ID),          0,         INVALID},
    {"-ipath",                 TEST,     1,   ff_parse_path,        ff_eval_path,     0,                   true,      ARG},
    {"-iregex",                TEST,     1,   ff_parse_regex,       ff_eval_regex,    0,                   true,      ARG},
    {"-iwholename",            TEST,     1,   ff_parse_path,        ff_eval_path,     0,                   true,      ARG},
    {"-links",                 TEST,     1,   ff_parse_cmp,         ff_eval_links,    F(NLINK),            0,         INVALID},
    {"-lname",                 TEST,     1,   ff_parse_lname,       ff_eval_lname,    STAT | DIR_FD,       false,     ARG},
    {"-ls",                    ACTION,   0,   ff_parse_ls,          ff_eval_ls,       LS_FIELDS | DIR_FD,  0,         ARG},
    {"-maxdepth",              OPTION,   1,   ff_parse_depth_limit, ff_eval_true,     0,                   'x',       ARG},
    {"-mindepth",              OPTION,   1,   ff_parse_depth_limit, ff_eval_true,     0,                   'n',       ARG},
    {"-mmin",                  TEST,     1,   ff_parse_time,        ff_eval_time,     F(MTIME),            'm' | MIN, ARG},
    {"-mount",                 OPTION,   0,   ff_parse_xdev,        ff_eval_true,     0,                   0,         ARG},
    {"-mtime",                 TEST,     1,   ff_parse_time,        ff_eval_time,     F(MTIME),            'm',       ARG},
    {"-name",                  TEST,     1,   ff_parse_name,        ff_eval_name,     0,                   false,     ARG},
    {"-newer",                 TEST,     1,   ff_parse_newer,       ff_eval_newer,    F(MTIME),            'm',       ARG},
    // -newerXY: X and Y among a B c m, Y also t (ff_primary_find()); X's field (the parse).
    {"-newerXY",               TEST,     1,   ff_parse_newerxy,     ff_eval_newer,    0,                   0,         NEEDS_ARG},
    {"-no-require-git",        OPTION,   0,   ff_parse_ignore,      ff_eval_true,     0,                   FF_IGNORE_NO_REQUIRE, ARG},
    {"-nocolor",               OPTION,   0,   ff_parse_color,       ff_eval_true,     0,                   false,     ARG},
    {"-nogroup",               TEST,     0,   NULL,                 ff_eval_nogroup,  F(GID),              0,         ARG},
    {"-noignore_readdir_race", OPTION,   0,   ff_parse_race,        ff_eval_true,     0,                   false,     ARG},
    {"-noleaf",                OPTION,   0,   NULL,                 ff_eval_true,     0,                   0,         ARG},
    {"-nouser",                TEST,     0,   NULL,                 ff_eval_nouser,   F(UID),              0,         ARG},
    {"-nowarn",                OPTION,   0,   NULL,                 ff_eval_true,     0,                   0,         ARG},
    {"-ok",                    ACTION,   OWN, ff_parse_exec,        ff_eval_exec,     DIR_FD,              0,         ARG},
    {"-okdir",                 ACTION,   OWN, ff_parse_exec,        ff_eval_exec,     DIR_FD,              0,         ARG},
    {"-path",                  TEST,     1,   ff_parse_path,        ff_eval_path,     0,                   false,     ARG},
    {"-perm",                  TEST,     1,   ff_parse_perm,        ff_eval_perm,     F(MODE),             0,         ARG},
    {"-print",                 ACTION,   0,   ff_parse_print,       ff_eval_print,    0,                   '\n',      ARG},
    {"-print0",                ACTION,   0,   ff_parse_print,       ff_eval_print,    0,                   '\0',      ARG},
    {"-printf",                ACTION,   1,   ff_parse_printf,      ff_eval_printf,   0,                   0,         ARG},
    {"-prune",                 CONTROL,  0,   ff_parse_prune,       ff_eval_prune,    STAT,                0,         ARG},
    {"-quit",                  CONTROL,  0,   NULL,                 ff_eval_quit,     0,                   0,         ARG},
    {"-readable",              TEST,     0,   NULL,                 ff_eval_access,   DIR_FD,              R_OK,      ARG},
    {"-regex",                 TEST,     1,   ff_parse_regex,       ff_eval_regex,    0,                   false,     ARG},
    {"-regextype",             OPTION,   1,   ff_parse_regextype,   ff_eval_true,     0,                   0,         ARG},
    {"-samefile",              TEST,     1,   ff_parse_samefile,    ff_eval_samefile, F(FILE_ID) | F(DEV), 0,         ARG},
    {"-size",                  TEST,     1,   ff_parse_size,        ff_eval_size,     F(SIZE),             0,         ARG},
    {"-true",                  TEST,     0,   NULL,                 ff_eval_true,     0,                   0,         ARG},
    {"-type",                  TEST,     1,   ff_parse_type,        ff_eval_type,     F(TYPE),             0,         ARG},
    {"-uid",                   TEST,     1,   ff_parse_cmp,         ff_eval_uid,      F(UID),              0,         INVALID},
    {"-used",                  TEST,     1,   ff_parse_time,        ff_eval_time,     F(ATIME) | F(CTIME), 'u',       ARG},
    {"-user",                  TEST,     1,   ff_parse_owner,       ff_eval_uid,      F(UID),              false,     ARG},
    {"-warn",                  OPTION,   0,   NULL,                 ff_eval_true,     0,                   0,         ARG},
    {"-wholename",             TEST,     1,   ff_parse_path,        ff_eval_path,     0,                   false,     ARG},
    {"-writable",              TEST,     0,   NULL,                 ff_eval_access,   DIR_FD,              W_OK,      ARG},
    {"-xdev",                  OPTION,   0,   ff_parse_xdev,        ff_eval_true,     0,                   0,         ARG},
    // find stats every entry for -xtype.
    {"-xtype",                 TEST,     1,   ff_parse_type,        ff_eval_xtype,    STAT | DIR_FD,       0,         ARG},
};
// clang-format on

// clang-format off
const struct ff_primary ff_op_and =   {"-a", FF_PRIM_OPERATOR, 0, NULL, ff_eval_and,   0, 0, ARG};
const struct ff_primary ff_op_or =    {"-o", FF_PRIM_OPERATOR, 0, NULL, ff_eval_or,    0, 0, ARG};
const struct ff_primary ff_op_comma = {",",  FF_PRIM_OPERATOR, 0, NULL, ff_eval_comma, 0, 0, ARG};
const struct ff_primary ff_op_not =   {"!",  FF_PRIM_OPERATOR, 0, NULL, ff_eval_not,   0, 0, ARG};
// clang-format on

/** Does the word name the row's primary? -newerXY's: "-newer", then X among a B c m and Y
 *  among a B c m t. */
static bool names(const struct ff_primary *row, const char *word)
{
    if (row->parse != ff_parse_newerxy) {
        return strcmp(word, row->name) == 0;
    }
    return strncmp(word, "-newer", 6) == 0 && word[6] != '\0' && strchr("aBcm", word[6]) &&
           word[7] != '\0' && strchr("aBcmt", word[7]) && word[8] == '\0';
}

const struct ff_primary *ff_primary_find(const char *word)
{
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (names(&table[i], word)) {
            return &table[i];
        }
    }
    return NULL;
}
