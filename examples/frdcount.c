// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdcount: walks trees in parallel and prints what it found, one figure per line.
 *
 *   frdcount [-j N] [-n] [-L] [-x] [ROOT...]      (default root: /usr)
 *
 * Output, each a plain integer and its label so scripts can read it:
 *   185531 entries / 17000 directories / 150000 files / 123456789 bytes / 0 errors /
 *   0.084 seconds
 * entries counts every entry visited, the roots included (what `find ROOT | wc -l` counts);
 * files counts regular files and bytes sums their sizes (0 with -n, which reads no sizes).
 * Callbacks run on several threads at once, so each thread counts into its own slot.
 * Messages carry the program's name as invoked (the base name of argv[0]).
 */
#define _POSIX_C_SOURCE 200809L

#include "errtext.h"
#include "jobs.h"
#include "toolname.h"

#include <frd.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *usage_text =
    "usage: frdcount [-j N] [-n] [-L] [-x] [ROOT...]\n"
    "Walk each ROOT (default: /usr) and print, one per line: entries, directories, files,\n"
    "bytes (sum of regular file sizes), errors, and the seconds taken.\n"
    "  -j N  worker threads (default: the number of CPUs, at most 8)\n"
    "  -n    names and types only: no stat per entry (bytes is then 0)\n"
    "  -L    follow symbolic links (loops are reported, never walked twice)\n"
    "  -x    stay on the file system of each root\n"
    "  -q    do not print each failure (the errors line still counts them)\n"
    "  -h, --help     show this help\n"
    "      --version  show the version\n"
    "Exit status: 0 if all went well, 1 if some entry or root could not be read or output\n"
    "failed, 2 for a usage error.\n";

static const struct option long_options[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/** One thread's counts, on its own cache line. */
struct count_slot {
    uint64_t entries;
    uint64_t dirs;
    uint64_t files;
    uint64_t bytes;
    uint64_t errors;
    char pad[64 - 5 * sizeof(uint64_t)];
};

/** One slot per walker thread, indexed by the callbacks' worker index (below the -j asked,
 *  at most 256), so no thread-local or registry is needed. */
#define MAX_SLOTS TOOL_JOBS_MAX
static struct count_slot slots[MAX_SLOTS];
static bool quiet_errors;

static enum frd_action count_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)udata;
    struct count_slot *s = &slots[we->worker % MAX_SLOTS];
    s->entries++;
    if (we->entry->error < 0) {
        // Its stat failed (reported once by count_error): do not enter it, or opening it
        // would fail and report the same path again.
        return FRD_ACTION_PRUNE;
    }
    if (we->entry->type == FRD_TYPE_DIR) {
        s->dirs++;
    } else if (we->entry->type == FRD_TYPE_REG) {
        s->files++;
        s->bytes += we->entry->size;
    }
    return FRD_ACTION_CONTINUE;
}

/** With -n: a run of entries that need nothing but a name (the walk's names hook), counted
 *  as count_visit() counts each (none is a directory, none failed). */
static enum frd_action count_names(const struct frd_walk_names *names, void *udata)
{
    (void)udata;
    struct count_slot *s = &slots[names->worker % MAX_SLOTS];
    s->entries += names->count;
    for (size_t i = 0; i < names->count; i++) {
        s->files += names->names[i].type == FRD_TYPE_REG;
    }
    return FRD_ACTION_CONTINUE;
}

static enum frd_action count_error(const struct frd_walk_error *err, void *udata)
{
    (void)udata;
    slots[err->worker % MAX_SLOTS].errors++;
    if (quiet_errors) {
        return FRD_ACTION_CONTINUE;
    }
    // As find prints a failure; a loop in one line that names both directories: it is
    // counted once, not walked again.
    tool_print_walk_error(err);
    return FRD_ACTION_CONTINUE;
}

int main(int argc, char **argv)
{
    struct frd_walk_options opts;
    frd_walk_options_init(&opts);
    opts.on_error = count_error; // every failure, a missing root included, is reported here once
    opts.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY;
    opts.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE; // all that is counted
    tool_name_init(argv, "frdcount");
    int c;
    while ((c = getopt_long(argc, argv, "j:nLxqh", long_options, NULL)) != -1) {
        switch (c) {
        case 'j':
            if (tool_parse_jobs(optarg, "-j", &opts.workers) < 0) {
                return tool_usage_error(NULL);
            }
            break;
        case 'n':
            opts.flags |= FRD_WALK_NAMES_ONLY;
            opts.on_names = count_names; // the entries that need no visit, a run at a time
            break;
        case 'L':
            opts.follow = FRD_FOLLOW_ALL;
            break;
        case 'x':
            opts.flags |= FRD_WALK_ONE_FILE_SYSTEM;
            break;
        case 'q':
            quiet_errors = true;
            break;
        case 'h':
            fputs(usage_text, stdout);
            return tool_flush_stdout();
        case 'V':
            return tool_print_version("frdcount", NULL);
        default:
            return tool_usage_error(NULL);
        }
    }
    const char *default_root = "/usr";
    const char *const *roots = (const char *const *)argv + optind;
    size_t nroots = (size_t)(argc - optind);
    if (nroots == 0) {
        roots = &default_root;
        nroots = 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = frd_walk_roots(roots, nroots, &opts, count_visit, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    struct count_slot total = {0};
    for (unsigned i = 0; i < MAX_SLOTS; i++) {
        total.entries += slots[i].entries;
        total.dirs += slots[i].dirs;
        total.files += slots[i].files;
        total.bytes += slots[i].bytes;
        total.errors += slots[i].errors;
    }
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%" PRIu64 " entries\n%" PRIu64 " directories\n%" PRIu64 " files\n%" PRIu64
           " bytes\n%" PRIu64 " errors\n%.3f seconds\n",
           total.entries, total.dirs, total.files, total.bytes, total.errors, seconds);
    int status = total.errors > 0 ? 1 : 0;
    if (rc < 0) {
        // Not a root's failure (the error hook has reported those, with their paths): the
        // walk itself could not run (out of memory, bad options).
        fprintf(stderr, "%s: walk failed: %s\n", tool_name, tool_strerror(rc));
        status = 1;
    }
    if (tool_flush_stdout() != 0) {
        status = 1;
    }
    return status;
}
