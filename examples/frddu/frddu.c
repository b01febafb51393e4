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
#include "grow.h"
#include "jobs.h"
#include "toolname.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: frddu [OPTION]... [FILE]...\n"
    "Summarize the disk usage of each FILE, recursively for directories, in parallel.\n"
    "Sizes are in 1024-byte blocks unless told otherwise; totals match GNU du.\n"
    "\n"
    "  -a, --all             print files too, not only directories\n"
    "      --apparent-size   count sizes (st_size), not allocated blocks\n"
    "  -b, --bytes           --apparent-size in bytes (--block-size=1)\n"
    "  -c, --total           print a grand total\n"
    "  -d, --max-depth=N     print a line only N or fewer levels below a FILE\n"
    "  -h, --human-readable  sizes like 4.0K 12M 1.1G (powers of 1024)\n"
    "      --si              like -h, in powers of 1000\n"
    "  -k                    1024-byte blocks (the default)\n"
    "  -m                    1048576-byte blocks\n"
    "  -l, --count-links     count a hard-linked file each time it is met\n"
    "  -L, --dereference     follow every symbolic link\n"
    "  -H, -D, --dereference-args  follow symbolic links given as FILE only\n"
    "  -P, --no-dereference  follow no symbolic link (the default)\n"
    "  -s, --summarize       print only a total for each FILE\n"
    "  -x, --one-file-system skip directories on other file systems\n"
    "  -0, --null            end each line with NUL, not newline\n"
    "      --top=N           print only the N largest lines, largest first\n"
    "  -j, --jobs=N          walk with N threads (default: one per core)\n"
    "      --help            show this help\n"
    "      --version         show the version\n"
    "\n"
    "On a terminal, a progress line on stderr shows entries, bytes, rate and the\n"
    "current directory while a walk takes longer than half a second.\n";

enum {
    OPT_APPARENT = 256,
    OPT_SI,
    OPT_TOP,
    OPT_HELP,
    OPT_VERSION,
};

static const struct option long_options[] = {
    {"all", no_argument, NULL, 'a'},
    {"apparent-size", no_argument, NULL, OPT_APPARENT},
    {"bytes", no_argument, NULL, 'b'},
    {"total", no_argument, NULL, 'c'},
    {"max-depth", required_argument, NULL, 'd'},
    {"human-readable", no_argument, NULL, 'h'},
    {"si", no_argument, NULL, OPT_SI},
    {"count-links", no_argument, NULL, 'l'},
    {"dereference", no_argument, NULL, 'L'},
    {"dereference-args", no_argument, NULL, 'D'},
    {"no-dereference", no_argument, NULL, 'P'},
    {"summarize", no_argument, NULL, 's'},
    {"one-file-system", no_argument, NULL, 'x'},
    {"null", no_argument, NULL, '0'},
    {"top", required_argument, NULL, OPT_TOP},
    {"jobs", required_argument, NULL, 'j'},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/** Parses a non-negative decimal number. @return 0, or -1 if `text` is not one. */
static int parse_count(const char *text, long *out)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < 0) {
        return -1;
    }
    *out = value;
    return 0;
}

static int usage_error(const char *message, const char *arg)
{
    if (message != NULL) {
        fprintf(stderr, "%s: %s%s%s\n", tool_name, message, arg ? " " : "", arg ? arg : "");
    }
    fprintf(stderr, "Try '%s --help' for more information.\n", tool_name);
    return 2;
}

TOOL_RESERVE_DEFINE(lines_reserve, struct du_line, 256)

/** Remembers a line for --top. Called with out_lock held. */
static void remember_line(struct du_state *st, uint64_t bytes, const char *path, size_t len)
{
    if (lines_reserve(&st->lines, &st->lines_cap, st->nlines + 1) < 0) {
        atomic_store(&st->out_of_memory, true);
        return;
    }
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        atomic_store(&st->out_of_memory, true);
        return;
    }
    memcpy(copy, path, len);
    copy[len] = '\0';
    st->lines[st->nlines].bytes = bytes;
    st->lines[st->nlines].path = copy;
    st->nlines++;
}

static void write_line(struct du_state *st, uint64_t bytes, const char *head, size_t head_len,
                       const char *tail, size_t tail_len)
{
    char size[DU_SIZE_MAX_LEN];
    fputs(du_format_size(bytes, &st->opts->units, size), st->out);
    fputc('\t', st->out);
    fwrite(head, 1, head_len, st->out);
    fwrite(tail, 1, tail_len, st->out);
    fputc(st->opts->terminator, st->out);
}

void du_emit(struct du_state *st, uint64_t bytes, const char *walk_path, size_t walk_path_len)
{
    // The walker's path is walk_root followed by "/name..."; du spells it with the root as
    // given (trailing slashes trimmed to one) and never doubles a slash after it.
    const char *tail = walk_path + st->walk_root_len;
    size_t tail_len = walk_path_len - st->walk_root_len;
    if (st->display_root_len > 0 && st->display_root[st->display_root_len - 1] == '/' &&
        tail_len > 0 && tail[0] == '/') {
        tail++;
        tail_len--;
    }
    pthread_mutex_lock(&st->out_lock);
    if (st->opts->top > 0) {
        char *joined = malloc(st->display_root_len + tail_len + 1);
        if (joined == NULL) {
            atomic_store(&st->out_of_memory, true);
        } else {
            memcpy(joined, st->display_root, st->display_root_len);
            memcpy(joined + st->display_root_len, tail, tail_len);
            remember_line(st, bytes, joined, st->display_root_len + tail_len);
            free(joined);
        }
    } else {
        if (st->out_is_tty) {
            progress_line_clear(&st->progress);
        }
        write_line(st, bytes, st->display_root, st->display_root_len, tail, tail_len);
    }
    pthread_mutex_unlock(&st->out_lock);
}

static int line_larger_first(const void *a, const void *b)
{
    const struct du_line *x = a;
    const struct du_line *y = b;
    if (x->bytes != y->bytes) {
        return x->bytes > y->bytes ? -1 : 1;
    }
    return strcmp(x->path, y->path);
}

static void print_top(struct du_state *st)
{
    qsort(st->lines, st->nlines, sizeof(*st->lines), line_larger_first);
    for (size_t i = 0; i < st->nlines && i < st->opts->top; i++) {
        write_line(st, st->lines[i].bytes, st->lines[i].path, strlen(st->lines[i].path), "", 0);
    }
    for (size_t i = 0; i < st->nlines; i++) {
        free(st->lines[i].path);
    }
    free(st->lines);
}

/** Fills `opts` from the command line. @return -1 to go on, or an exit status. */
static int parse_options(int argc, char **argv, struct du_options *opts)
{
    bool summarize = false;
    long depth = -1;
    long top = 0;
    long jobs = 0;
    int c;
    while ((c = getopt_long(argc, argv, "abcd:hklmLDHPsx0j:", long_options, NULL)) != -1) {
        switch (c) {
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
        case 'd':
            if (parse_count(optarg, &depth) < 0) {
                return usage_error("invalid maximum depth", optarg);
            }
            break;
        case 'h':
            opts->units = (struct du_units){1, 1024};
            break;
        case OPT_SI:
            opts->units = (struct du_units){1, 1000};
            break;
        case 'k':
            opts->units = (struct du_units){1024, 0};
            break;
        case 'm':
            opts->units = (struct du_units){1024 * 1024, 0};
            break;
        case 'l':
            opts->count_links = true;
            break;
        case 'L':
            opts->follow = FRD_FOLLOW_ALL;
            break;
        case 'D':
        case 'H':
            opts->follow = FRD_FOLLOW_ROOTS;
            break;
        case 'P':
            opts->follow = FRD_FOLLOW_NEVER;
            break;
        case 's':
            summarize = true;
            break;
        case 'x':
            opts->one_fs = true;
            break;
        case '0':
            opts->terminator = '\0';
            break;
        case OPT_TOP:
            if (parse_count(optarg, &top) < 0 || top == 0) {
                return usage_error("invalid --top count", optarg);
            }
            break;
        case 'j': {
            unsigned workers;
            if (tool_parse_jobs(optarg, "-j", &workers) < 0) {
                return usage_error(NULL, NULL);
            }
            jobs = workers;
            break;
        }
        case OPT_HELP:
            fputs(usage_text, stdout);
            return tool_flush_stdout();
        case OPT_VERSION:
            return tool_print_version("frddu", NULL);
        default:
            return usage_error(NULL, NULL);
        }
    }
    if (summarize && opts->all) {
        return usage_error("cannot both summarize and show all entries", NULL);
    }
    if (summarize && depth > 0) {
        return usage_error("summarizing conflicts with --max-depth", NULL);
    }
    opts->max_depth = summarize ? 0 : depth;
    opts->top = (size_t)top;
    opts->workers = (unsigned)jobs;
    // As du: with several roots (or -L) a file with one link can be met twice, so every
    // (device, inode) is remembered, directories included.
    opts->hash_all = argc - optind > 1 || opts->follow == FRD_FOLLOW_ALL;
    return -1;
}

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

int main(int argc, char **argv)
{
    tool_name_init(argv, "frddu");
    struct du_options opts = {
        .follow = FRD_FOLLOW_NEVER,
        .max_depth = -1,
        .terminator = '\n',
        .units = {1024, 0},
    };
    int parsed = parse_options(argc, argv, &opts);
    if (parsed >= 0) {
        return parsed;
    }
    static const char *const dot[] = {"."};
    const char *const *roots = optind < argc ? (const char *const *)(argv + optind) : dot;
    size_t nroots = optind < argc ? (size_t)(argc - optind) : 1;

    struct du_state st = {.opts = &opts, .out = stdout};
    st.out_is_tty = isatty(STDOUT_FILENO) == 1;
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
    st.batches = calloc(st.nbatches, sizeof *st.batches);
    if (st.seen == NULL || st.batches == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        du_seen_free(st.seen);
        free(st.batches);
        return 1;
    }

    uint64_t grand_total = 0;
    for (size_t i = 0; i < nroots; i++) {
        char *display = display_name(roots[i]);
        if (display == NULL) {
            atomic_store(&st.out_of_memory, true);
            break;
        }
        unsigned errors_before = atomic_load(&st.errors);
        int rc = du_walk_root(&st, display, display);
        if (rc == FRD_ENOMEM) {
            free(display);
            break;
        }
        // The error hook may already have said why the root failed.
        if (rc < 0 && atomic_load(&st.errors) == errors_before) {
            progress_line_clear(&st.progress);
            fprintf(stderr, "%s: cannot access '%s': %s\n", tool_name, roots[i], tool_strerror(rc));
            atomic_store(&st.status, 1);
        }
        grand_total += st.root_total;
        free(display);
    }
    progress_line_clear(&st.progress);
    if (opts.top > 0) {
        print_top(&st);
    }
    if (opts.grand_total && !atomic_load(&st.out_of_memory)) {
        write_line(&st, grand_total, "total", 5, "", 0);
    }
    int status = atomic_load(&st.status);
    if (atomic_load(&st.out_of_memory)) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        status = 1;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error\n", tool_name);
        status = 1;
    }
    free(st.batches);
    du_seen_free(st.seen);
    progress_line_destroy(&st.progress);
    pthread_mutex_destroy(&st.out_lock);
    return status;
}
