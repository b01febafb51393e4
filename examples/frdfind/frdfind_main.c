// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's main(): parses the command line into the run's context, walks the roots
 * (frdfind_walk.c), then ends as find ends: the last batches of commands, the output files
 * and stdout closed, exit status 1 if anything failed (the walk itself goes on after an
 * error).
 *
 * Module map (each .c has its .h; only <frd.h>, examples/common and libc are used):
 *
 *   frdfind_main.c      main(): the run from the command line to the exit status
 *   frdfind_walk.c      the walks: the walker's options and callbacks, errors as find's
 *   frdfind_ctx.c       struct ff_ctx: one run's options and every module's state
 *   frdfind_parse.c     the command line's grammar, the parser the primaries read from
 *   frdfind_leading.c   the options before the paths (-H -L -P -s -j -D -O --help)
 *   frdfind_table.c     the table of primaries: arguments, parse, eval, needs
 *   frdfind_eval.c      the expression tree, its evaluation, the operators
 *   frdfind_options.c   struct ff_options, and the global options in the expression
 *   frdfind_names.c     -name -path -lname and their kin (fnmatch: frdfind_match.c)
 *   frdfind_regex.c     -regex -iregex -regextype
 *   frdfind_types.c     -type -xtype
 *   frdfind_tests.c     -size -empty -inum -links -samefile -fstype -readable...
 *   frdfind_perm.c      -perm
 *   frdfind_ids.c       -user -group -uid -gid -nouser -nogroup (names: frdfind_owner.c)
 *   frdfind_time.c      -atime -mmin -used -newer -newerXY -daystart (dates:
 *                       frdfind_date.c, frdfind_date_lex.c)
 *   frdfind_mounts.c    the mount table (-fstype, %F)
 *   frdfind_files0.c    -files0-from
 *   frdfind_exclude.c   -exclude EXPR, in the walk's children hook
 *   frdfind_actions.c   -print -print0 -printf -count -prune -quit
 *   frdfind_printf.c    -printf's formats, compiled and rendered
 *   frdfind_exec.c      -exec -execdir -ok -okdir, their '+' batches
 *   frdfind_spawn.c     the commands started and waited for, -ok's question
 *   frdfind_delete.c    -delete
 *   frdfind_file.c      output files: -fls -fprint -fprint0 -fprintf
 *   frdfind_ls.c        -ls -fls's line
 *   frdfind_color.c     -color (LS_COLORS)
 *   frdfind_out.c       per-worker output buffers, stdout
 *   frdfind_msg.c       messages on stderr, the run's exit status
 *   frdfind_stdfd.c     descriptors 0-2 kept taken when closed at start
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_ctx.h"
#include "frdfind_exec.h"
#include "frdfind_file.h"
#include "frdfind_files0.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"
#include "frdfind_stdfd.h"
#include "frdfind_walk.h"
#include "toolname.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/**
 * What find does at its end: the '+' batches still pending run, after every line printed;
 * the output files are closed; stdout is closed, its errors reported (gnulib's
 * close_stdout()). @return the exit status.
 */
static int finish(struct ff_ctx *ctx)
{
    ff_out_flush_all(ctx);
    ff_exec_finish_all(ctx);
    ff_out_flush_all(ctx);
    ff_file_close_all(ctx);
    int werr = ff_out_write_error(ctx);
    // A close that fails says why, after "write error" (a closed stdout: "Bad file
    // descriptor"), unless nothing was written.
    int cerr = close(STDOUT_FILENO) == 0 ? 0 : errno;
    if (ff_std_was_closed(ctx, STDOUT_FILENO)) {
        cerr = EBADF; // (what stood for it was /dev/null, see frdfind_stdfd.c)
    }
    if (werr != 0 || (cerr != 0 && cerr != EBADF)) {
        // find's two lines: "'standard output': Broken pipe", then "write error"; the first
        // only when the lines pending at the end failed (see ff_out_unflushed_failure()).
        // frdfind stops at a broken pipe, where find walks on and fails at the end.
        if (werr != 0 && (werr == EPIPE || ff_out_unflushed_failure(ctx))) {
            ff_error_path(ctx, "standard output", strerror(werr));
        }
        char text[128] = "write error";
        if (cerr != 0) {
            snprintf(text, sizeof(text), "write error: %s", strerror(cerr));
        }
        ff_error(ctx, text);
    }
    return ff_failed(ctx) || ff_stderr_failed(ctx) ? 1 : 0;
}

/** The run after the parse: the walks, -count's total, the end. @return the exit status. */
static int run(struct ff_ctx *ctx)
{
    if (ctx->opts.npaths == 0) { // -files0-from an empty list: nothing to walk, as find
        ff_files0_report_read_error(ctx);
        return ff_failed(ctx) || ff_stderr_failed(ctx) ? 1 : 0;
    }
    uint64_t count;
    if (ff_walk_all(ctx, &count) != 0) {
        return 1;
    }
    if (ctx->opts.count) {
        char line[32];
        int n = snprintf(line, sizeof(line), "%" PRIu64 "\n", count);
        struct ff_thread *thr = ff_thread_get(ctx, 0);
        if (thr != NULL && n > 0) {
            ff_out_append(thr, line, (size_t)n);
            ff_out_flush_all(ctx);
        }
    }
    return finish(ctx);
}

int main(int argc, char **argv)
{
    tool_name_init(argv, "frdfind");
    struct ff_ctx ctx;
    int rc = ff_ctx_init(&ctx); // (allocations only: nothing is opened)
    // Before anything is opened (the locale's files included): a closed 0, 1 or 2 is taken.
    if (ff_std_reserve(&ctx.std_closed) < 0) {
        ff_error_path(&ctx, "/dev/null", strerror(errno));
        ff_ctx_free(&ctx);
        return 1;
    }
    if (rc < 0) {
        ff_error(&ctx, "out of memory");
        ff_ctx_free(&ctx);
        return 1;
    }
    // Matching (-name, -regex...) and -printf's times follow the locale, as in find.
    setlocale(LC_ALL, "");
    rc = ff_parse(&ctx, argc, argv);
    if (rc != 0) {
        ff_exec_finish_all(&ctx); // frees the commands parsed (no batch has an argument)
        ff_file_close_all(&ctx);
        ff_ctx_free(&ctx);
        return rc < 0 ? 0 : 1;
    }
    rc = run(&ctx);
    ff_ctx_free(&ctx);
    return rc;
}
