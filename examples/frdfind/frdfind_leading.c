// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's leading options, before the paths: -H -L -P (combined as "-LH", the last one
 * wins), frdfind's -s, -find-order and -j N, find's -D DEBUGOPTS and -O LEVEL (accepted and
 * ignored, with find's messages), --help, --version, and "--", which ends them.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_leading.h"

#include "frdfind_ctx.h"
#include "frdfind_msg.h"
#include "frdfind_parse.h"
#include "jobs.h"
#include "toolname.h"

#include <stdio.h>
#include <string.h>

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

/**
 * -D DEBUGOPTS and -O LEVEL, accepted as find accepts them (and ignored).
 * @return the words taken (0: `arg` is not one of them), or -1 after an error was reported.
 */
static int debug_options(struct ff_parser *fp, const char *arg, const char *next)
{
    if (strcmp(arg, "-D") == 0) {
        if (next == NULL || *next == '\0') {
            ff_parser_fail(fp, next == NULL ? "Missing argument after the -D option."
                                            : "Empty argument to the -D option.");
            tool_usage_error(NULL);
            return -1;
        }
        static const char *const known[] = {"exec", "opt",  "rates", "search", "stat",
                                            "time", "tree", "all",   "help"};
        const char *s = next;
        while (*s != '\0') {
            size_t len = strcspn(s, ",");
            bool ok = false;
            for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
                ok = ok || (strlen(known[i]) == len && strncmp(s, known[i], len) == 0);
            }
            if (!ok) {
                char flag[200];
                snprintf(flag, sizeof(flag), "%.*s", (int)(len < 199 ? len : 199), s);
                char quoted[1024];
                char msg[1100];
                snprintf(msg, sizeof(msg), "Ignoring unrecognised debug flag %s",
                         ff_quoted(quoted, sizeof(quoted), flag));
                ff_warning(ff_parser_ctx(fp), msg, strlen(msg));
            }
            s += len + (s[len] == ',');
        }
        return 2;
    }
    if (strncmp(arg, "-O", 2) == 0) {
        if (arg[2] == '\0') {
            ff_parser_fail(fp, "The -O option must be immediately followed by a decimal integer");
            return -1;
        }
        if (strspn(arg + 2, "0123456789") != strlen(arg + 2)) {
            ff_parser_fail(fp, "Please specify a decimal number immediately after -O");
            return -1;
        }
        return 1;
    }
    return 0;
}

int ff_parse_leading(struct ff_parser *fp)
{
    struct ff_options *o = ff_parser_opts(fp);
    for (;;) {
        int n;
        char **rest = ff_parser_rest(fp, &n);
        if (n == 0) {
            return 0;
        }
        const char *a = rest[0];
        const char *next = n > 1 ? rest[1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-help") == 0) {
            fputs(usage_text, stdout);
            return tool_flush_stdout() == 0 ? -1 : 1;
        }
        if (strcmp(a, "--version") == 0 || strcmp(a, "-version") == 0) {
            return tool_print_version("frdfind", NULL) == 0 ? -1 : 1;
        }
        if (strcmp(a, "--") == 0) {
            ff_parser_take(fp, 1);
            return 0;
        }
        if (a[0] != '-' || a[1] == '\0') {
            return 0;
        }
        if (strncmp(a, "-j", 2) == 0) {
            const char *num = a[2] != '\0' ? a + 2 : (next != NULL ? next : "");
            if (tool_parse_jobs(num, "-j", &o->workers) < 0) {
                return 1; // (the message is printed)
            }
            ff_parser_take(fp, a[2] != '\0' ? 1 : 2);
            continue;
        }
        if (strcmp(a, "-s") == 0 || strcmp(a, "-find-order") == 0) {
            o->ordered = true; // the last of the two wins
            o->find_order = a[1] == 'f';
            ff_parser_take(fp, 1);
            continue;
        }
        int taken = debug_options(fp, a, next);
        if (taken < 0) {
            return 1;
        }
        if (taken > 0) {
            ff_parser_take(fp, taken);
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
        ff_parser_take(fp, 1);
    }
}
