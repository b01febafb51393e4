// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frdmpi walk: dwalk's summary, counted on each rank for the entries it walked and summed
 * at rank 0: entries, directories, files, links, bytes (regular files' sizes), errors, and
 * how many regular files fall in each size range (dwalk --distribution). The first lines
 * are frdcount's, with the same meaning, so the two can be compared line for line.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdmpi.h"
#include "toolname.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_BINS  32
#define MAX_SLOTS 256

/** Counters of one worker thread: entries, dirs, files, links, bytes, then the bins. */
enum { C_ENTRIES, C_DIRS, C_FILES, C_LINKS, C_BYTES, C_BINS };
#define NCOUNTS (C_BINS + MAX_BINS)

struct walk_state {
    struct fm_run *run;        /**< first, for fm_error() and fm_progress() */
    uint64_t bounds[MAX_BINS]; /**< lower bounds of the bins, ascending, bounds[0] = 0 */
    unsigned nbins;
    uint64_t (*slots)[NCOUNTS]; /**< one row per worker */
};

static enum frd_action walk_visit(const struct frd_walk_entry *we, void *udata)
{
    struct walk_state *ws = udata;
    uint64_t *c = ws->slots[we->worker % MAX_SLOTS];
    c[C_ENTRIES]++;
    if (we->entry->error < 0) {
        return FRD_ACTION_PRUNE; // reported already: do not report its opening again
    }
    switch (we->entry->type) {
    case FRD_TYPE_DIR:
        c[C_DIRS]++;
        break;
    case FRD_TYPE_LNK:
        c[C_LINKS]++;
        break;
    case FRD_TYPE_REG: {
        c[C_FILES]++;
        c[C_BYTES] += we->entry->size;
        unsigned b = ws->nbins - 1;
        while (b > 0 && we->entry->size < ws->bounds[b]) {
            b--;
        }
        c[C_BINS + b]++;
        break;
    }
    default:
        break;
    }
    return FRD_ACTION_CONTINUE;
}

/** Parses "0,1K,1M" (suffixes K M G T, powers of 1024). @return 0, or -1 after a message. */
static int parse_bins(struct walk_state *ws, const char *list)
{
    ws->nbins = 0;
    ws->bounds[ws->nbins++] = 0;
    const char *p = list;
    while (*p != '\0') {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        int shift = 0;
        switch (*end) {
        case 'K':
            shift = 10;
            end++;
            break;
        case 'M':
            shift = 20;
            end++;
            break;
        case 'G':
            shift = 30;
            end++;
            break;
        case 'T':
            shift = 40;
            end++;
            break;
        default:
            break;
        }
        if (end == p || (*end != ',' && *end != '\0') || v > (UINT64_MAX >> shift)) {
            fprintf(stderr, "%s: bad size list '%s'\n", tool_name, list);
            return -1;
        }
        uint64_t bound = (uint64_t)v << shift;
        if (bound > ws->bounds[ws->nbins - 1]) {
            if (ws->nbins == MAX_BINS) {
                fprintf(stderr, "%s: at most %d sizes\n", tool_name, MAX_BINS - 1);
                return -1;
            }
            ws->bounds[ws->nbins++] = bound;
        } else if (bound != 0 || ws->nbins > 1) {
            fprintf(stderr, "%s: sizes must ascend: '%s'\n", tool_name, list);
            return -1;
        }
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/** Writes a size bound as 1K, 16M, ... when it is a whole multiple, else in bytes. */
static void bound_text(uint64_t v, char *out, size_t len)
{
    static const char units[] = "KMGT";
    int u = -1;
    while (u < 3 && v >= 1024 && v % 1024 == 0) {
        v /= 1024;
        u++;
    }
    if (u < 0) {
        snprintf(out, len, "%" PRIu64, v);
    } else {
        snprintf(out, len, "%" PRIu64 "%c", v, units[u]);
    }
}

static const struct option walk_options[] = {
    {"distribution", required_argument, NULL, 'D'},
    {NULL, 0, NULL, 0},
};

int fm_walk_main(struct fm_run *run, int argc, char **argv)
{
    struct frd_mpi_options opts;
    frd_mpi_options_init(&opts);
    opts.walk.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE;
    struct walk_state ws = {.run = run};
    parse_bins(&ws, "1,1K,64K,1M,64M,1G");
    int c;
    opterr = run->rank == 0;
    while ((c = getopt_long(argc, argv, "j:nxqLD:", walk_options, NULL)) != -1) {
        switch (c) {
        case 'j':
            if ((opts.walk.workers = fm_workers(optarg)) == 0) {
                return 2;
            }
            break;
        case 'n':
            opts.walk.flags |= FRD_WALK_NAMES_ONLY;
            break;
        case 'x':
            opts.walk.flags |= FRD_WALK_ONE_FILE_SYSTEM;
            break;
        case 'q':
            run->quiet = true;
            break;
        case 'L':
            opts.walk.follow = FRD_FOLLOW_ALL;
            break;
        case 'D':
            if (parse_bins(&ws, strncmp(optarg, "size:", 5) == 0 ? optarg + 5 : optarg) != 0) {
                return 2;
            }
            break;
        default:
            return 2;
        }
    }
    if (optind != argc - 1) {
        if (run->rank == 0) {
            fprintf(stderr, "%s: walk wants one ROOT\n", tool_name);
        }
        return 2;
    }
    ws.slots = calloc(MAX_SLOTS, sizeof(*ws.slots));
    if (ws.slots == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return 1;
    }
    struct frd_mpi_callbacks cb = {.visit = walk_visit, .on_error = fm_error};
    cb.on_progress = fm_progress_hook(run);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = frd_mpi_walk(MPI_COMM_WORLD, argv[optind], &opts, &cb, &ws);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uint64_t mine[NCOUNTS] = {0}, total[NCOUNTS] = {0};
    for (unsigned s = 0; s < MAX_SLOTS; s++) {
        for (unsigned i = 0; i < NCOUNTS; i++) {
            mine[i] += ws.slots[s][i];
        }
    }
    free(ws.slots);
    uint64_t errors = atomic_load(&run->errors), all_errors = 0;
    MPI_Reduce(mine, total, NCOUNTS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&errors, &all_errors, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    int status = 0;
    if (run->rank == 0) {
        progress_line_clear(&run->progress);
        double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        printf("%" PRIu64 " entries\n%" PRIu64 " directories\n%" PRIu64 " files\n%" PRIu64
               " bytes\n%" PRIu64 " errors\n%" PRIu64 " links\n",
               total[C_ENTRIES], total[C_DIRS], total[C_FILES], total[C_BYTES], all_errors,
               total[C_LINKS]);
        printf("file sizes:\n");
        for (unsigned b = 0; b < ws.nbins; b++) {
            char lo[32], hi[32] = "...";
            bound_text(ws.bounds[b], lo, sizeof lo);
            if (b + 1 < ws.nbins) {
                bound_text(ws.bounds[b + 1], hi, sizeof hi);
            }
            printf("  [%s, %s) %" PRIu64 "\n", lo, hi, total[C_BINS + b]);
        }
        printf("%d ranks\n%.3f seconds\n", run->size, seconds);
        if (rc < 0 && rc != FRD_ENOENT) {
            fprintf(stderr, "%s: walk failed: %s\n", tool_name, fm_strerror(rc));
        }
        status = tool_flush_stdout();
    }
    return fm_status(run, status != 0 || rc < 0);
}
