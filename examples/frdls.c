// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdls: lists one directory through frd's public API.
 *
 * One line per entry, tab-separated: type size mtime_ns ctime_ns file_id name, where type
 * is one letter as GNU find's %y prints it (f d l p s c b, U for unknown). -n lists names
 * and types only (no stat per entry); -s sorts by name in byte order; -c prints only a
 * one-line summary (count and time); -0 ends each record with a NUL byte instead of a newline
 * (for names holding newlines: xargs -0, sort -z). Unsorted, the listing streams a batch at a
 * time (memory of one kernel buffer). Names are written as the kernel gave them,
 * bytes and all. Messages carry the program's name as invoked (the base name of argv[0]).
 */
#define _POSIX_C_SOURCE 200809L

#include "errtext.h"
#include "toolname.h"

#include <frd.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: frdls [-n] [-s] [-c] [-0] [DIR]\n"
    "List one directory (default: .), one entry per line:\n"
    "  type<TAB>size<TAB>mtime_ns<TAB>ctime_ns<TAB>file_id<TAB>name\n"
    "  -n  names only: print type<TAB>name, with no stat per entry\n"
    "  -s  sort by name in byte order\n"
    "  -c  print only a summary: entry count and time taken\n"
    "  -0  end each record with a NUL byte, not a newline\n"
    "  -h, --help     show this help\n"
    "      --version  show the version\n"
    "Exit status: 0 if all went well, 1 if DIR or an entry could not be read or output\n"
    "failed, 2 for a usage error.\n";

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/**
 * Prints the entries of `list` (unless `summary`), one record each ended by `end`; a failed
 * stat goes to stderr and sets *status to 1. @return the number of entries.
 */
static size_t print_entries(const struct frd_list *list, const char *dir, bool names_only,
                            bool summary, char end, int *status)
{
    size_t n = frd_list_count(list);
    const struct frd_entry *entries = frd_list_entries(list);
    for (size_t i = 0; i < n && !summary; i++) {
        const struct frd_entry *e = &entries[i];
        if (e->error < 0) {
            fprintf(stderr, "%s: cannot access '%s/%s': %s\n", tool_name, dir, e->name,
                    tool_strerror(e->error));
            *status = 1;
        }
        putchar(frd_type_letter(e->type));
        if (!names_only) {
            printf("\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRIu64, e->size, e->mtime_ns,
                   e->ctime_ns, e->file_id);
        }
        putchar('\t');
        fwrite(e->name, 1, e->name_len, stdout);
        putchar(end);
    }
    return n;
}

int main(int argc, char **argv)
{
    bool names_only = false;
    bool sorted = false;
    bool summary = false;
    char end = '\n';
    tool_name_init(argv, "frdls");
    int opt;
    while ((opt = getopt_long(argc, argv, "nsch0", long_options, NULL)) != -1) {
        switch (opt) {
        case 'n':
            names_only = true;
            break;
        case 's':
            sorted = true;
            break;
        case 'c':
            summary = true;
            break;
        case '0':
            end = '\0';
            break;
        case 'h':
            fputs(usage_text, stdout);
            return tool_flush_stdout();
        case 'V':
            return tool_print_version("frdls", NULL);
        default:
            return tool_usage_error(NULL);
        }
    }
    if (argc - optind > 1) {
        fprintf(stderr, "%s: extra operand '%s'\n", tool_name, argv[optind + 1]);
        return tool_usage_error(NULL);
    }
    const char *dir = optind < argc ? argv[optind] : ".";

    struct frd_list *list;
    struct frd_lister *lister;
    if (frd_list_new(&list) < 0 ||
        frd_lister_new(&lister, names_only ? FRD_LIST_NAMES_ONLY : 0) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return 1;
    }
    // Unsorted, the listing streams: a batch (one kernel buffer) is read, printed and
    // dropped, so memory stays that of a batch however big the directory. Sorted, it is
    // read whole first. Entries read before a failure are printed too.
    double start = now_seconds();
    int status = 0;
    size_t count = 0;
    int rc;
    if (sorted) {
        rc = frd_lister_list_path(lister, list, dir);
        frd_list_sort(list);
        count = print_entries(list, dir, names_only, summary, end, &status);
    } else {
        rc = frd_lister_batch_open(lister, FRD_INVALID_FD, dir, 0);
        while (rc >= 0) {
            frd_list_clear(list);
            rc = frd_lister_batch_read(lister, list);
            count += print_entries(list, dir, names_only, summary, end, &status);
            if (rc == 0) {
                break;
            }
        }
    }
    double elapsed = now_seconds() - start;
    if (rc < 0) {
        struct frd_list_error err = frd_lister_error(lister);
        // ls's words for a directory it could not open, or not read to its end.
        fprintf(stderr,
                err.call == FRD_OP_READ_DIR ? "%s: reading directory '%s': %s\n"
                                            : "%s: cannot open directory '%s': %s\n",
                tool_name, dir, tool_strerror(rc));
        status = 1;
    }
    if (summary) {
        printf("%zu entries in %s, %.3f ms\n", count, dir, elapsed * 1e3);
    }
    frd_lister_batch_end(lister);
    frd_lister_free(lister);
    frd_list_free(list);
    if (tool_flush_stdout() != 0) {
        status = 1;
    }
    return status;
}
