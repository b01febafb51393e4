// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frddu's command line, parsed as GNU du 9.1 parses it: the same options, the same
 * messages (gnulib's xstrtol_fatal, argmatch and getopt wording), the same exit status 1
 * for every usage error, with "Try 'NAME --help'" where du prints it.
 */
#define _POSIX_C_SOURCE 200809L

#include "frddu.h"
#include "gnuquote.h"
#include "jobs.h"
#include "toolname.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_APPARENT = 256,
    OPT_EXCLUDE,
    OPT_FILES0_FROM,
    OPT_INODES,
    OPT_SI,
    OPT_TIME,
    OPT_TIME_STYLE,
    OPT_HELP,
    OPT_VERSION,
    OPT_TOP,
    OPT_EXPORT,
    OPT_SORTED,
    OPT_DU_ORDER,
    OPT_GITIGNORE,
    OPT_EXCLUDE_CACHES,
    OPT_EXCLUDE_IF_PRESENT,
};

// du's own table first, in du's order (getopt lists ambiguous matches in this order).
static const struct option long_options[] = {
    {"all", no_argument, NULL, 'a'},
    {"apparent-size", no_argument, NULL, OPT_APPARENT},
    {"block-size", required_argument, NULL, 'B'},
    {"bytes", no_argument, NULL, 'b'},
    {"count-links", no_argument, NULL, 'l'},
    {"dereference", no_argument, NULL, 'L'},
    {"dereference-args", no_argument, NULL, 'D'},
    {"exclude", required_argument, NULL, OPT_EXCLUDE},
    {"exclude-from", required_argument, NULL, 'X'},
    {"files0-from", required_argument, NULL, OPT_FILES0_FROM},
    {"human-readable", no_argument, NULL, 'h'},
    {"inodes", no_argument, NULL, OPT_INODES},
    {"si", no_argument, NULL, OPT_SI},
    {"max-depth", required_argument, NULL, 'd'},
    {"null", no_argument, NULL, '0'},
    {"no-dereference", no_argument, NULL, 'P'},
    {"one-file-system", no_argument, NULL, 'x'},
    {"separate-dirs", no_argument, NULL, 'S'},
    {"summarize", no_argument, NULL, 's'},
    {"total", no_argument, NULL, 'c'},
    {"threshold", required_argument, NULL, 't'},
    {"time", optional_argument, NULL, OPT_TIME},
    {"time-style", required_argument, NULL, OPT_TIME_STYLE},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    // frddu's own
    {"top", required_argument, NULL, OPT_TOP},
    {"jobs", required_argument, NULL, 'j'},
    {"export", required_argument, NULL, OPT_EXPORT},
    {"sorted", no_argument, NULL, OPT_SORTED},
    {"du-order", no_argument, NULL, OPT_DU_ORDER},
    {"gitignore", no_argument, NULL, OPT_GITIGNORE},
    {"exclude-caches", no_argument, NULL, OPT_EXCLUDE_CACHES},
    {"exclude-if-present", required_argument, NULL, OPT_EXCLUDE_IF_PRESENT},
    {NULL, 0, NULL, 0},
};

static const char usage_text[] =
    "Usage: %s [OPTION]... [FILE]...\n"
    "  or:  %s [OPTION]... --files0-from=F\n"
    "Summarize device usage of the set of FILEs, recursively for directories,\n"
    "walking in parallel; totals, messages and exit statuses as GNU du's.\n"
    "\n"
    "  -0, --null            end each output line with NUL, not newline\n"
    "  -a, --all             write counts for all files, not just directories\n"
    "      --apparent-size   print apparent sizes rather than device usage\n"
    "  -B, --block-size=SIZE  scale sizes by SIZE before printing them (1K, M, KB, ...)\n"
    "  -b, --bytes           equivalent to '--apparent-size --block-size=1'\n"
    "  -c, --total           produce a grand total\n"
    "  -D, --dereference-args  dereference only symlinks that are listed on the\n"
    "                          command line\n"
    "  -d, --max-depth=N     print the total for a directory only if it is N or\n"
    "                          fewer levels below the command line argument\n"
    "      --files0-from=F   summarize device usage of the NUL-terminated file\n"
    "                          names specified in file F; if F is -, read names\n"
    "                          from standard input\n"
    "  -H                    equivalent to --dereference-args (-D)\n"
    "  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)\n"
    "      --inodes          list inode usage information instead of block usage\n"
    "  -k                    like --block-size=1K\n"
    "  -L, --dereference     dereference all symbolic links\n"
    "  -l, --count-links     count sizes many times if hard linked\n"
    "  -m                    like --block-size=1M\n"
    "  -P, --no-dereference  don't follow any symbolic links (this is the default)\n"
    "  -S, --separate-dirs   for directories do not include size of subdirectories\n"
    "      --si              like -h, but use powers of 1000 not 1024\n"
    "  -s, --summarize       display only a total for each argument\n"
    "  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,\n"
    "                          or entries greater than SIZE if negative\n"
    "      --time            show time of the last modification of any file in the\n"
    "                          directory, or any of its subdirectories\n"
    "      --time=WORD       show time as WORD instead of modification time:\n"
    "                          atime, access, use, ctime or status\n"
    "      --time-style=STYLE  show times using STYLE, which can be:\n"
    "                            full-iso, long-iso, iso, or +FORMAT;\n"
    "                            FORMAT is interpreted like in 'date'\n"
    "  -X, --exclude-from=FILE  exclude files that match any pattern in FILE\n"
    "      --exclude=PATTERN    exclude files that match PATTERN\n"
    "  -x, --one-file-system    skip directories on different file systems\n"
    "      --gitignore       leave out what git ignores (.gitignore files, info/exclude,\n"
    "                          the global excludes file), never stat'ed\n"
    "      --exclude-caches  leave out the contents of directories tagged CACHEDIR.TAG\n"
    "      --exclude-if-present=NAME  leave out the contents of directories holding NAME\n"
    "      --top=N           print only the N largest lines, largest first\n"
    "      --export=FILE     also write the whole tree to FILE in ncdu's JSON format,\n"
    "                          for `ncdu -f FILE` (FILE - : to stdout, instead of lines)\n"
    "  -j, --jobs=N          walk with N threads, 1 to %d (default: one per core, up to 8)\n"
    "      --sorted          lines in the same order on every run: each directory's\n"
    "                          entries by name (bytes), a directory after its contents\n"
    "      --du-order        lines in du's order (each directory's entries as it lists\n"
    "                          them, as du meets them): du's output byte for byte\n"
    "      --help            display this help and exit\n"
    "      --version         output version information and exit\n"
    "\n"
    "Display values are in units of the first available SIZE from --block-size,\n"
    "and the DU_BLOCK_SIZE, BLOCK_SIZE and BLOCKSIZE environment variables.\n"
    "Otherwise, units default to 1024 bytes (or 512 if POSIXLY_CORRECT is set).\n"
    "\n"
    "On a terminal, a progress line on stderr shows entries, bytes, rate and the\n"
    "current directory while a walk takes longer than half a second.\n"
    "Exit status: 0 if all went well, 1 after any error.\n";

/** Prints "NAME: " + message (one write), as gnulib's error() does. */
static void say(const char *message)
{
    fprintf(stderr, "%s: %s\n", tool_name, message);
}

/** Prints "NAME: " + words + " " + arg quoted with quote(), as du's error() calls do. */
static void say_quoted(const char *words, const char *arg)
{
    char *q = tool_quote(arg, TOOL_QUOTE_LOCALE);
    fprintf(stderr, "%s: %s %s\n", tool_name, words, q != NULL ? q : arg);
    free(q);
}

/** gnulib's xstrtol_fatal: "invalid -t argument 'x'" (--threshold if given long). */
static int number_fatal(enum du_num_error e, int long_index, int c, const char *arg)
{
    char option[64];
    if (long_index >= 0) {
        snprintf(option, sizeof option, "--%s", long_options[long_index].name);
    } else {
        snprintf(option, sizeof option, "-%c", c);
    }
    if (e == DU_NUM_OVERFLOW) {
        fprintf(stderr, "%s: %s argument '%s' too large\n", tool_name, option, arg);
    } else {
        fprintf(stderr, "%s: invalid %s%s argument '%s'\n", tool_name,
                e == DU_NUM_SUFFIX ? "suffix in " : "", option, arg);
    }
    return 1;
}

/**
 * gnulib's argmatch: an exact match, or a prefix of arguments that all mean the same.
 * @return the index in `args`, -1 when nothing matches, -2 when the prefix is ambiguous.
 */
static int argmatch(const char *arg, const char *const *args, const int *values)
{
    size_t len = strlen(arg);
    int found = -1;
    bool ambiguous = false;
    for (int i = 0; args[i] != NULL; i++) {
        if (strncmp(args[i], arg, len) != 0) {
            continue;
        }
        if (strlen(args[i]) == len) {
            return i;
        }
        if (found < 0) {
            found = i;
        } else if (values[found] != values[i]) {
            ambiguous = true;
        }
    }
    return ambiguous ? -2 : found;
}

/** argmatch's failure: the complaint, the valid arguments grouped by meaning, usage. */
static int argmatch_die(const char *context, const char *arg, int problem, const char *const *args,
                        const int *values)
{
    char *qa = tool_quote(arg, TOOL_QUOTE_LOCALE);
    char *qc = tool_quote(context, TOOL_QUOTE_LOCALE);
    fprintf(stderr, "%s: %s argument %s for %s\n", tool_name,
            problem == -1 ? "invalid" : "ambiguous", qa ? qa : arg, qc ? qc : context);
    free(qa);
    free(qc);
    fputs("Valid arguments are:", stderr);
    for (int i = 0; args[i] != NULL; i++) {
        char *q = tool_quote(args[i], TOOL_QUOTE_LOCALE);
        if (i == 0 || values[i] != values[i - 1]) {
            fprintf(stderr, "\n  - %s", q ? q : args[i]);
        } else {
            fprintf(stderr, ", %s", q ? q : args[i]);
        }
        free(q);
    }
    fputc('\n', stderr);
    tool_usage_error(NULL);
    return 1;
}

static const char *const time_args[] = {"atime", "access", "use", "ctime", "status", NULL};
static const int time_values[] = {DU_TIME_ATIME, DU_TIME_ATIME, DU_TIME_ATIME, DU_TIME_CTIME,
                                  DU_TIME_CTIME};
static const char *const style_args[] = {"full-iso", "long-iso", "iso", NULL};
static const int style_values[] = {0, 1, 2};
static const char *const style_formats[] = {"%Y-%m-%d %H:%M:%S.%N %z", "%Y-%m-%d %H:%M",
                                            "%Y-%m-%d"};

/** The default units: DU_BLOCK_SIZE, BLOCK_SIZE, BLOCKSIZE, then 1024 (512 if POSIXLY_CORRECT). */
static struct du_units default_units(void)
{
    static const char *const vars[] = {"DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE"};
    struct du_units units = {getenv("POSIXLY_CORRECT") ? 512 : 1024, 0};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *spec = getenv(vars[i]);
        if (spec != NULL) {
            struct du_units parsed;
            if (du_parse_block_size(spec, &parsed) == DU_NUM_OK) {
                units = parsed;
            }
            break;
        }
    }
    return units;
}

/** The time style of --time: --time-style, else TIME_STYLE, else long-iso. @return -1 or exit */
static int resolve_time_style(const char *style, struct du_options *opts)
{
    if (style == NULL) {
        char *env = getenv("TIME_STYLE");
        style = env;
        if (env == NULL || strcmp(env, "locale") == 0) {
            style = "long-iso";
        } else if (env[0] == '+') {
            // As ls: anything after a newline is ignored (cut in place, of any length, as du
            // cuts it).
            char *nl = strchr(env, '\n');
            if (nl != NULL) {
                *nl = '\0';
            }
        } else {
            while (strncmp(style, "posix-", 6) == 0) {
                style += 6;
            }
        }
    }
    if (style[0] == '+') {
        opts->time_format = style + 1;
        return -1;
    }
    int i = argmatch(style, style_args, style_values);
    if (i < 0) {
        return argmatch_die("time style", style, i, style_args, style_values);
    }
    opts->time_format = style_formats[i];
    return -1;
}

int du_parse_options(int argc, char **argv, struct du_options *opts)
{
    bool ok = true;
    bool summarize = false;
    bool depth_given = false;
    unsigned long long depth = 0;
    size_t top = 0;
    const char *time_style = NULL;
    opts->units = default_units();
    for (;;) {
        int oi = -1;
        int c = getopt_long(argc, argv, "0abd:chHklmst:xB:DLPSX:j:", long_options, &oi);
        if (c == -1) {
            break;
        }
        switch (c) {
        case '0':
            opts->terminator = '\0';
            break;
        case 'a':
            opts->all = true;
            break;
        case OPT_APPARENT:
            opts->apparent = true;
            break;
        case 'b':
            opts->apparent = true;
            opts->units = (struct du_units){1, 0};
            break;
        case 'c':
            opts->grand_total = true;
            break;
        case 'h':
            opts->units = (struct du_units){1, DU_HUMAN_AUTOSCALE | DU_HUMAN_SI | DU_HUMAN_1024};
            break;
        case OPT_SI:
            opts->units = (struct du_units){1, DU_HUMAN_AUTOSCALE | DU_HUMAN_SI};
            break;
        case 'k':
            opts->units = (struct du_units){1024, 0};
            break;
        case 'm':
            opts->units = (struct du_units){1024 * 1024, 0};
            break;
        case 'd': {
            uint64_t value;
            if (du_parse_number(optarg, "", 0, &value) == DU_NUM_OK && value <= SIZE_MAX) {
                depth_given = true;
                depth = value;
            } else {
                say_quoted("invalid maximum depth", optarg);
                ok = false;
            }
            break;
        }
        case 'l':
            opts->count_links = true;
            break;
        case 's':
            summarize = true;
            break;
        case 't': {
            // required_argument: getopt sets optarg; "" (rejected below) keeps this total.
            const char *arg = optarg != NULL ? optarg : "";
            uint64_t value;
            enum du_num_error e = du_parse_number(arg, "kKmMGTPEZY0", 1, &value);
            if (e != DU_NUM_OK) {
                return number_fatal(e, oi, c, arg);
            }
            opts->threshold = (int64_t)value;
            if (value == 0 && arg[strspn(arg, " \t\n\v\f\r")] == '-') {
                fprintf(stderr, "%s: invalid --threshold argument '-0'\n", tool_name);
                return 1;
            }
            break;
        }
        case 'x':
            opts->one_fs = true;
            break;
        case 'B': {
            enum du_num_error e = du_parse_block_size(optarg, &opts->units);
            if (e != DU_NUM_OK) {
                return number_fatal(e, oi, c, optarg);
            }
            break;
        }
        case 'H':
        case 'D':
            opts->follow = FRD_FOLLOW_ROOTS;
            break;
        case 'L':
            opts->follow = FRD_FOLLOW_ALL;
            break;
        case 'P':
            opts->follow = FRD_FOLLOW_NEVER;
            break;
        case 'S':
            opts->separate_dirs = true;
            break;
        case 'X':
            if (du_exclude_add_file(&opts->exclude, optarg) < 0) {
                char *q = tool_quote(optarg, TOOL_QUOTE_SHELL_COLON);
                fprintf(stderr, "%s: %s: %s\n", tool_name, q ? q : optarg, strerror(errno));
                free(q);
                ok = false;
            }
            break;
        case OPT_FILES0_FROM:
            opts->files0_from = optarg;
            break;
        case OPT_EXCLUDE:
            if (du_exclude_add(&opts->exclude, optarg) < 0) {
                say("memory exhausted");
                return 1;
            }
            break;
        case OPT_INODES:
            opts->inodes = true;
            break;
        case OPT_TIME:
            if (optarg == NULL) {
                opts->time = DU_TIME_MTIME;
            } else {
                int i = argmatch(optarg, time_args, time_values);
                if (i < 0) {
                    return argmatch_die("--time", optarg, i, time_args, time_values);
                }
                opts->time = (enum du_time)time_values[i];
            }
            break;
        case OPT_TIME_STYLE:
            time_style = optarg;
            break;
        case OPT_TOP: {
            uint64_t value;
            if (du_parse_number(optarg, "", 0, &value) != DU_NUM_OK || value == 0 ||
                value > SIZE_MAX) {
                say_quoted("invalid --top count", optarg);
                ok = false;
            } else {
                top = (size_t)value;
            }
            break;
        }
        case OPT_EXPORT:
            opts->export_file = optarg;
            break;
        case OPT_SORTED: // the last of the two wins
        case OPT_DU_ORDER:
            opts->ordered = true;
            opts->du_order = c == OPT_DU_ORDER;
            break;
        case OPT_GITIGNORE:
            opts->ignore_flags |= FRD_IGNORE_GIT;
            break;
        case OPT_EXCLUDE_CACHES:
            opts->ignore_flags |= FRD_IGNORE_CACHEDIR_TAG;
            break;
        case OPT_EXCLUDE_IF_PRESENT:
            if (opts->npresent < sizeof(opts->present) / sizeof(opts->present[0])) {
                opts->present[opts->npresent++] = optarg;
            } else {
                fprintf(stderr, "%s: too many --exclude-if-present names (at most %zu)\n",
                        tool_name, sizeof(opts->present) / sizeof(opts->present[0]));
                return 1;
            }
            break;
        case 'j':
            if (tool_parse_jobs(optarg, oi >= 0 ? "--jobs" : "-j", &opts->workers) < 0) {
                return 1;
            }
            break;
        case OPT_HELP:
            printf(usage_text, tool_name, tool_name, TOOL_JOBS_MAX);
            return tool_flush_stdout();
        case OPT_VERSION:
            return tool_print_version("frddu", NULL);
        default:
            ok = false;
            break;
        }
    }
    if (!ok) {
        tool_usage_error(NULL);
        return 1;
    }
    if (opts->all && summarize) {
        say("cannot both summarize and show all entries");
        tool_usage_error(NULL);
        return 1;
    }
    if (summarize && depth_given && depth == 0) {
        say("warning: summarizing is the same as using --max-depth=0");
    }
    if (summarize && depth_given && depth != 0) {
        fprintf(stderr, "%s: warning: summarizing conflicts with --max-depth=%llu\n", tool_name,
                depth);
        tool_usage_error(NULL);
        return 1;
    }
    if (summarize) {
        opts->max_depth = 0;
    } else if (depth_given) {
        opts->max_depth = depth > (unsigned long long)LONG_MAX ? LONG_MAX : (long)depth;
    }
    if (opts->inodes) {
        if (opts->apparent) {
            say("warning: options --apparent-size and -b are ineffective with --inodes");
        }
        opts->units.block_size = 1;
    }
    if (opts->time != DU_TIME_NONE) {
        int rc = resolve_time_style(time_style, opts);
        if (rc >= 0) {
            return rc;
        }
    }
    if (opts->files0_from != NULL && optind < argc) {
        say_quoted("extra operand", argv[optind]);
        fputs("file operands cannot be combined with --files0-from\n", stderr);
        tool_usage_error(NULL);
        return 1;
    }
    if (opts->export_file != NULL && (argc - optind > 1 || opts->files0_from != NULL)) {
        say("--export takes one FILE: ncdu's format holds one tree");
        tool_usage_error(NULL);
        return 1;
    }
    opts->top = top;
    // As du: with several roots (or -L, or a list of them) a file with one link can be met
    // twice, so every (device, inode) is remembered, directories included.
    opts->hash_all =
        argc - optind > 1 || opts->follow == FRD_FOLLOW_ALL || opts->files0_from != NULL;
    return -1;
}
