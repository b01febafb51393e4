// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * The single-process side of bench/mpi_latency.py: walks ROOT with frd_walk() and N workers
 * with the same simulated listing latency as frd_mpi_walk()'s test-only
 * FRD_MPI_TEST_LIST_DELAY_US (a children hook that sleeps that many microseconds in every
 * listing), counting what frdmpi walk counts. Prints "N entries" and "S seconds".
 *   mpi_delay_walk [-j N] ROOT
 */
#define _POSIX_C_SOURCE 200809L

#include <frd.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static atomic_uint_least64_t entries;
static long delay_ns;

static enum frd_action visit(const struct frd_walk_entry *we, void *udata)
{
    (void)udata;
    atomic_fetch_add_explicit(&entries, 1, memory_order_relaxed);
    return we->entry->error < 0 ? FRD_ACTION_PRUNE : FRD_ACTION_CONTINUE;
}

static void delay(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    (void)dir;
    (void)kids;
    (void)udata;
    struct timespec ts = {0, delay_ns};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    struct frd_walk_options opts;
    frd_walk_options_init(&opts);
    opts.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE; // as frdmpi walk asks
    opts.on_error = frd_walk_continue_on_errors;
    int i = 1;
    if (argc > 3 && strcmp(argv[1], "-j") == 0) {
        opts.workers = (unsigned)strtoul(argv[2], NULL, 10);
        i = 3;
    }
    if (i != argc - 1) {
        fprintf(stderr, "usage: mpi_delay_walk [-j N] ROOT\n");
        return 2;
    }
    const char *env = getenv("FRD_MPI_TEST_LIST_DELAY_US");
    delay_ns = env != NULL ? strtol(env, NULL, 10) * 1000 : 0;
    if (delay_ns > 0) {
        opts.on_children = delay;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = frd_walk(argv[i], &opts, visit, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%" PRIu64 " entries\n%.3f seconds\n", (uint64_t)atomic_load(&entries),
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return rc < 0 ? 1 : 0;
}
