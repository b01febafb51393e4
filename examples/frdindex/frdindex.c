// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdindex: keeps an SQLite index of a tree's entries, up to date in one parallel walk,
 * and answers from it what changed since the last update and where files are.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdindex_changes.h"
#include "frdindex_check.h"
#include "frdindex_db.h"
#include "frdindex_exclude.h"
#include "frdindex_find.h"
#include "frdindex_update.h"
#include "jobs.h"
#include "toolname.h"

#include <errno.h>
#include <frd.h>
#include <getopt.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: frdindex update [-q] [-v] [-x] [-j N] [-m MODE] [--exclude=GLOB]... DB [ROOT...]\n"
    "       frdindex changes [--since GEN|TIME] [--json|-0] [--all] DB\n"
    "       frdindex find [-i] [-b] [-0] [-c] [-e] [-l N] [-r|--regex] DB PATTERN\n"
    "       frdindex check DB\n"
    "Keep an SQLite index (DB) of the entries below ROOT... and query it.\n"
    "\n"
    "  update   walk the roots (default: those of the last update) in parallel and bring\n"
    "           DB up to date in one transaction, writing only what changed\n"
    "             -q  no summary line   -v  time each phase (on stderr)\n"
    "             -x  stay on each root's file system\n"
    "             -j N  walk with N threads (1 to 256)\n"
    "             -m MODE  a new DB's mode, octal (default 600: only its owner reads it)\n"
    "             --exclude=GLOB  leave out names matching GLOB (a path if it has a /)\n"
    "             --prunenames=LIST, --prunepaths=LIST, --prunefs=LIST  as updatedb.conf\n"
    "             --gitignore  leave out what git ignores   --exclude-caches  CACHEDIR.TAG\n"
    "             --exclude-if-present=NAME  directories holding NAME\n"
    "             (kept in DB for later updates until one of these is given again)\n"
    "  changes  what changed after update GEN (default: what the last update found),\n"
    "           folded per path: added, removed, modified (size or mtime),\n"
    "           metadata (ctime or mode only), replaced (another file at the same path),\n"
    "           renamed (the same file at a new path: 'renamed OLD NEW')\n"
    "             --since GEN|TIME  after that update (TIME: @SECONDS, YYYY-MM-DD[ HH:MM])\n"
    "             --json  as one JSON object   -0, --print0  existing paths, NUL-ended\n"
    "             --all  also directories whose mtime moved, renames implied by a parent's\n"
    "  find     paths matching a glob, as locate: a pattern without * ? [ matches anywhere\n"
    "             -i  ignore case   -b  match the last name only   -0  NUL-terminate\n"
    "             -c  print only the count   -e  only paths that exist now\n"
    "             -l N  stop after N matches   -r, --regexp  PATTERN is a basic regular\n"
    "             expression (--regex: extended), matched anywhere in the path\n"
    "           only paths in directories the user running it may list are shown\n"
    "  check    run SQLite's full integrity check on DB\n"
    "\n"
    "  --help, --version\n";

static int cmd_update(int argc, char **argv)
{
    static const struct option options[] = {
        {"exclude", required_argument, NULL, 'E'},
        {"prunenames", required_argument, NULL, 'N'},
        {"prunepaths", required_argument, NULL, 'P'},
        {"prunefs", required_argument, NULL, 'F'},
        {"gitignore", no_argument, NULL, 'G'},
        {"exclude-caches", no_argument, NULL, 'C'},
        {"exclude-if-present", required_argument, NULL, 'I'},
        {NULL, 0, NULL, 0},
    };
    struct index_excludes excludes = {0};
    struct index_update_options opts = {.excludes = &excludes};
    int c, status = 2;
    while ((c = getopt_long(argc, argv, "qvxj:m:", options, NULL)) != -1) {
        switch (c) {
        case 'E':
        case 'N':
        case 'P':
        case 'F': {
            enum index_exclude_kind kind = c == 'E'   ? INDEX_EXCLUDE_GLOB
                                           : c == 'N' ? INDEX_EXCLUDE_NAME
                                           : c == 'P' ? INDEX_EXCLUDE_PATH
                                                      : INDEX_EXCLUDE_FS;
            if (index_excludes_add(&excludes, kind, optarg) < 0) {
                fprintf(stderr, "%s: out of memory\n", tool_name);
                status = 1;
                goto done;
            }
            break;
        }
        case 'G':
        case 'C':
        case 'I': {
            if (c == 'I' && (optarg[0] == '\0' || strchr(optarg, '/') != NULL)) {
                tool_usage_error("--exclude-if-present takes a file name, without '/'");
                goto done;
            }
            enum index_exclude_kind kind =
                c == 'I' ? INDEX_EXCLUDE_IF_PRESENT : INDEX_EXCLUDE_IGNORE;
            const char *value = c == 'G' ? "gitignore" : c == 'C' ? "caches" : optarg;
            if (index_excludes_add(&excludes, kind, value) < 0) {
                fprintf(stderr, "%s: out of memory\n", tool_name);
                status = 1;
                goto done;
            }
            break;
        }
        case 'q':
            opts.quiet = true;
            break;
        case 'v':
            opts.verbose = true;
            break;
        case 'x':
            opts.one_file_system = true;
            break;
        case 'm':
            if (index_parse_mode(optarg, &opts.mode) < 0) {
                fprintf(stderr, "%s: invalid mode '%s' (octal, at most 0777)\n", tool_name, optarg);
                return tool_usage_error(NULL);
            }
            break;
        case 'j':
            if (tool_parse_jobs(optarg, "-j", &opts.workers) < 0) {
                tool_usage_error(NULL);
                goto done;
            }
            break;
        default:
            tool_usage_error(NULL);
            goto done;
        }
    }
    if (optind >= argc) {
        tool_usage_error("update needs a database");
        goto done;
    }
    opts.db_path = argv[optind];
    if (opts.db_path[0] == '\0') {
        tool_usage_error("the database path is empty");
        goto done;
    }
    opts.roots = (const char *const *)(argv + optind + 1);
    opts.nroots = (size_t)(argc - optind - 1);
    status = index_update(&opts);
done:
    index_excludes_free(&excludes);
    return status;
}

static int cmd_changes(int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'J'},
        {"all", no_argument, NULL, 'a'},
        {"print0", no_argument, NULL, '0'},
        {"since", required_argument, NULL, 's'},
        {NULL, 0, NULL, 0},
    };
    struct index_changes_options opts = {0};
    int c;
    while ((c = getopt_long(argc, argv, "a0", options, NULL)) != -1) {
        switch (c) {
        case 'J':
            opts.json = true;
            break;
        case 'a':
            opts.all = true;
            break;
        case '0':
            opts.null = true;
            break;
        case 's':
            opts.since = optarg;
            break;
        default:
            return tool_usage_error(NULL);
        }
    }
    if (argc - optind != 1) {
        return tool_usage_error("changes needs one database");
    }
    if (opts.json && opts.null) {
        return tool_usage_error("--json and --print0 exclude each other");
    }
    opts.db_path = argv[optind];
    return index_changes(&opts);
}

static int cmd_find(int argc, char **argv)
{
    struct index_find_options opts = {0};
    if (index_find_parse(argc, argv, &opts) != 0) {
        return 2;
    }
    if (argc - optind != 2) {
        return tool_usage_error("find needs a database and a pattern");
    }
    opts.db_path = argv[optind];
    opts.pattern = argv[optind + 1];
    opts.terminal = isatty(STDOUT_FILENO);
    return index_find(&opts);
}

static int cmd_check(int argc, char **argv)
{
    return argc == 2 ? index_check(argv[1]) : tool_usage_error("check needs one database");
}

/** The commands: each parses its own options from argv[1] on, the program name in argv[0]. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"update", cmd_update},
    {"changes", cmd_changes},
    {"find", cmd_find},
    {"check", cmd_check},
};

int main(int argc, char **argv)
{
    tool_name_init(argv, "frdindex");
    // The user's locale, as plocate and GNU tools: what a character is (find's -i and
    // patterns, which names are printable) follows LC_CTYPE.
    setlocale(LC_ALL, "");
    if (argc < 2) {
        return tool_usage_error("which command? update, changes, find or check");
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        fputs(usage_text, stdout);
        return tool_flush_stdout();
    }
    if (strcmp(cmd, "--version") == 0) {
        char sqlite_line[64];
        snprintf(sqlite_line, sizeof(sqlite_line), "SQLite %s", sqlite3_libversion());
        return tool_print_version("frdindex", sqlite_line);
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(cmd, commands[i].name) == 0) {
            char **sub_argv = argv + 1;
            sub_argv[0] = argv[0]; // getopt's messages name the program, not the command
            optind = 1;
            int status = commands[i].run(argc - 1, sub_argv);
            return tool_flush_stdout() != 0 ? 1 : status;
        }
    }
    fprintf(stderr, "%s: unknown command '%s'\n", tool_name, cmd);
    return tool_usage_error(NULL);
}
