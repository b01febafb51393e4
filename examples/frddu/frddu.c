// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frddu: disk usage like GNU du, walked in parallel through frd's public API.
 *
 * Totals follow GNU du's rules (coreutils 9.1), which tests/cli/frddu_vs_du.sh checks line
 * for line: a directory's own size counts; a file with several hard links counts once per
 * run (every directory too when several roots are given or with -L); sizes are allocated
 * bytes (st_blocks * 512) unless --apparent-size, summed in bytes and printed rounded up to
 * whole units (1 KiB by default); lines come in post-order (a directory after everything
 * below it). Only the order of sibling lines may differ from du's, since workers finish
 * directories in any order.
 */
#define _POSIX_C_SOURCE 200809L

#include "frddu.h"

#include "errtext.h"
#include "gnuquote.h"
#include "toolname.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/** GNU du trims two or more trailing slashes of a FILE to one. @return a malloc'd copy. */
static char *display_name(const char *arg)
{
    size_t len = strlen(arg);
    while (len > 2 && arg[len - 1] == '/' && arg[len - 2] == '/') {
        len--;
    }
    char *copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, arg, len);
        copy[len] = '\0';
    }
    return copy;
}

/** The roots: the operands, the records of --files0-from, or ".". */
struct du_roots {
    char **argv; /**< operands left, NULL-terminated, or NULL with --files0-from */
    FILE *list;  /**< --files0-from's stream */
    char *record;
    size_t record_cap;
    unsigned long count; /**< records read so far */
    bool read_error;
};

/** @return the next root, or NULL at the end (or after a read error of the list). */
static const char *next_root(struct du_roots *r)
{
    if (r->list == NULL) {
        return *r->argv != NULL ? *r->argv++ : NULL;
    }
    ssize_t len = getdelim(&r->record, &r->record_cap, '\0', r->list);
    if (len < 0) {
        r->read_error = ferror(r->list) != 0;
        return NULL;
    }
    r->count++;
    return r->record;
}

/** Walks one root (name as given) and reports what du reports for it. */
static void du_one_root(struct du_state *st, const char *root)
{
    char *display = display_name(root);
    if (display == NULL) {
        atomic_store(&st->out_of_memory, true);
        return;
    }
    if (du_excluded(&st->opts->exclude, display)) {
        free(display); // du leaves out an excluded FILE without a word
        return;
    }
    unsigned errors_before = atomic_load(&st->errors);
    int rc = du_walk_root(st, display, display);
    // The error hook may already have said why the root failed.
    if (rc < 0 && rc != FRD_ENOMEM && atomic_load(&st->errors) == errors_before) {
        du_report(st, "cannot access", root, rc);
    }
    free(display);
}

/** --export: writes the tree, or says why not (a root that is no directory, a write error). */
static void export_tree(struct du_state *st)
{
    const char *file = st->opts->export_file;
    const struct du_node *root = st->export.root;
    if (root == NULL) {
        return; // the root failed, and that was said
    }
    if (!(root->flags & DU_NODE_DIR)) {
        char *q = tool_quote(root->name, TOOL_QUOTE_SHELL_ALWAYS);
        fprintf(stderr, "%s: cannot export %s: %s\n", tool_name, q ? q : root->name,
                strerror(ENOTDIR));
        free(q);
        atomic_store(&st->status, 1);
        return;
    }
    if (du_export_write(&st->export, file, FRD_VERSION_STRING) < 0) {
        char *q = tool_quote(file, TOOL_QUOTE_SHELL_ALWAYS);
        fprintf(stderr, "%s: cannot write %s: %s\n", tool_name, q ? q : file, strerror(errno));
        free(q);
        atomic_store(&st->status, 1);
    }
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    tool_name_init(argv, "frddu");
    struct du_options opts = {
        .follow = FRD_FOLLOW_NEVER,
        .max_depth = -1,
        .terminator = '\n',
    };
    int parsed = du_parse_options(argc, argv, &opts);
    if (parsed >= 0) {
        du_exclude_free(&opts.exclude);
        return parsed;
    }
    static char dot[] = ".";
    static char *dot_only[] = {dot, NULL};
    struct du_roots roots = {.argv = optind < argc ? argv + optind : dot_only};
    bool list_is_stdin = false;
    if (opts.files0_from != NULL) {
        list_is_stdin = strcmp(opts.files0_from, "-") == 0;
        roots.argv = NULL;
        roots.list = list_is_stdin ? stdin : fopen(opts.files0_from, "r");
        if (roots.list == NULL) {
            char *q = tool_quote(opts.files0_from, TOOL_QUOTE_SHELL_ALWAYS);
            fprintf(stderr, "%s: cannot open %s for reading: %s\n", tool_name,
                    q ? q : opts.files0_from, strerror(errno));
            free(q);
            du_exclude_free(&opts.exclude);
            return 1;
        }
    }

    if (opts.ignore_flags != 0 || opts.npresent > 0) {
        int rc = frd_ignore_new(&opts.ignore, opts.ignore_flags);
        for (size_t i = 0; rc == 0 && i < opts.npresent; i++) {
            rc = frd_ignore_add_if_present(opts.ignore, opts.present[i]);
        }
        if (rc < 0) {
            fprintf(stderr, "%s: --exclude-if-present: %s\n", tool_name, tool_strerror(rc));
            frd_ignore_free(opts.ignore);
            du_exclude_free(&opts.exclude);
            return 1;
        }
    }
    struct du_state st = {.opts = &opts, .out = stdout};
    st.out_is_tty = isatty(STDOUT_FILENO) == 1;
    du_export_init(&st.export);
    st.exporting = opts.export_file != NULL;
    st.quiet = st.exporting && strcmp(opts.export_file, "-") == 0;
    pthread_mutex_init(&st.out_lock, NULL);
    double delay = 0.5;
    const char *delay_ms = getenv("FRDDU_PROGRESS_DELAY_MS");
    if (delay_ms != NULL) {
        delay = strtod(delay_ms, NULL) / 1000.0;
    }
    progress_line_init(&st.progress, STDERR_FILENO, delay);
    st.seen = du_seen_new();
    // One progress batch per walker thread (the walker runs at most 8, or the -j asked for).
    st.nbatches = opts.workers > 8 ? opts.workers : 8;
    st.batches = aligned_alloc(_Alignof(struct du_batch), st.nbatches * sizeof *st.batches);
    if (st.batches != NULL) {
        memset(st.batches, 0, st.nbatches * sizeof *st.batches);
        for (unsigned i = 0; i < st.nbatches; i++) {
            st.batches[i].total_tmax = INT64_MIN;
        }
    }
    if (st.seen == NULL || st.batches == NULL) {
        fprintf(stderr, "%s: memory exhausted\n", tool_name);
        du_seen_free(st.seen);
        free(st.batches);
        return 1;
    }

    const char *root;
    while (!atomic_load(&st.out_of_memory) && (root = next_root(&roots)) != NULL) {
        if (list_is_stdin && strcmp(root, "-") == 0) {
            fflush(st.out); // the message follows the lines before it (see du_report())
            char *q = tool_quote(root, TOOL_QUOTE_SHELL_ALWAYS);
            fprintf(stderr, "%s: when reading file names from stdin, no file name of %s allowed\n",
                    tool_name, q ? q : root);
            free(q);
            atomic_store(&st.status, 1);
        } else if (root[0] == '\0') {
            fflush(st.out);
            if (opts.files0_from == NULL) {
                fprintf(stderr, "%s: invalid zero-length file name\n", tool_name);
            } else {
                char *q = tool_quote(opts.files0_from, TOOL_QUOTE_SHELL_COLON);
                fprintf(stderr, "%s: %s:%lu: invalid zero-length file name\n", tool_name,
                        q ? q : opts.files0_from, roots.count);
                free(q);
            }
            atomic_store(&st.status, 1);
        } else {
            du_one_root(&st, root);
        }
    }
    if (roots.read_error) {
        char *q = tool_quote(opts.files0_from, TOOL_QUOTE_SHELL_COLON);
        fprintf(stderr, "%s: %s: read error: %s\n", tool_name, q ? q : opts.files0_from,
                strerror(errno));
        free(q);
        atomic_store(&st.status, 1);
    }
    if (roots.list != NULL && roots.list != stdin) {
        fclose(roots.list);
    }
    free(roots.record);
    progress_line_clear(&st.progress);
    if (opts.top > 0) {
        du_print_top(&st);
    }
    if (st.exporting && !atomic_load(&st.out_of_memory)) {
        export_tree(&st);
    }
    if (opts.grand_total && !st.quiet && !atomic_load(&st.out_of_memory)) {
        // du's total starts at the epoch, not at the earliest time (its total is never
        // initialised as each directory's is): a total of nothing, or of files all older
        // than 1970, says 1970-01-01.
        struct du_sum total = {.tmax = 0};
        for (unsigned i = 0; i < st.nbatches; i++) {
            total.bytes += st.batches[i].total_bytes;
            total.inodes += st.batches[i].total_inodes;
            total.tmax =
                st.batches[i].total_tmax > total.tmax ? st.batches[i].total_tmax : total.tmax;
        }
        du_write_line(&st, &total, "total", 5, "", 0);
    }
    int status = atomic_load(&st.status);
    if (atomic_load(&st.out_of_memory)) {
        fprintf(stderr, "%s: memory exhausted\n", tool_name);
        status = 1;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        // du flushes each line, so when it closes stdout at exit (gnulib's close_stdout)
        // the failed write is an earlier one whose errno is gone: it says why only if the
        // close fails too (a closed stdout: EBADF). "du: write error" into /dev/full.
        errno = 0;
        if (fclose(stdout) == 0) {
            errno = 0;
        }
        if (errno != 0) {
            fprintf(stderr, "%s: write error: %s\n", tool_name, strerror(errno));
        } else {
            fprintf(stderr, "%s: write error\n", tool_name);
        }
        status = 1;
    }
    free(st.batches);
    du_seen_free(st.seen);
    du_exclude_free(&opts.exclude);
    frd_ignore_free(opts.ignore);
    du_export_free(&st.export);
    progress_line_destroy(&st.progress);
    pthread_mutex_destroy(&st.out_lock);
    return status;
}
