// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * What reading memory another core has just written costs on this machine (bench/README.md,
 * the ordered mode, where the consumer visits what a worker listed): one thread writes a
 * buffer as a chain of pointers in a random order, then another thread follows the chain,
 * each load depending on the one before (as a walk follows item -> node -> result); the
 * time per cache line of the follow, with the writer on another CPU or on the same one.
 * Then the same for a sequential read (what the hardware prefetcher hides). Linux only
 * (pins threads with pthread_setaffinity_np); no frd code.
 *
 * Usage: line_handoff [KIB] [ROUNDS]   (default 256 KiB, 500 rounds)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE 64

struct shared {
    char *buf;
    size_t lines;
    size_t *perm; /**< a random cyclic order of the lines */
    unsigned rounds;
    int writer_cpu;
    bool chase;       /**< follow the chain (else read each line in order) */
    atomic_uint turn; /**< 2 * round: the writer's turn; 2 * round + 1: the reader's */
    double read_seconds;
    uint64_t sink;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) != 0) {
        fprintf(stderr, "line_handoff: cannot pin a thread to CPU %d\n", cpu);
        exit(1);
    }
}

/** Writes every line: the chain's next offset in its first 8 bytes. */
static void write_lines(struct shared *s, unsigned round)
{
    for (size_t i = 0; i < s->lines; i++) {
        size_t at = s->perm[i] * LINE;
        size_t next = s->perm[(i + 1) % s->lines] * LINE;
        memcpy(s->buf + at, &next, sizeof(next));
        s->buf[at + 8] = (char)round;
    }
}

static void read_lines(struct shared *s)
{
    uint64_t sum = 0;
    if (s->chase) {
        size_t at = s->perm[0] * LINE;
        for (size_t i = 0; i < s->lines; i++) {
            memcpy(&at, s->buf + at, sizeof(at));
        }
        sum = at;
    } else {
        for (size_t i = 0; i < s->lines; i++) {
            sum += (unsigned char)s->buf[i * LINE + 8];
        }
    }
    s->sink += sum;
}

static void *writer_main(void *arg)
{
    struct shared *s = arg;
    pin(s->writer_cpu);
    for (unsigned r = 0; r < s->rounds; r++) {
        while (atomic_load(&s->turn) != 2 * r) {
            sched_yield(); // the reader may share this CPU
        }
        write_lines(s, r);
        atomic_store(&s->turn, 2 * r + 1);
    }
    return NULL;
}

/** Time per line read, the writer on writer_cpu and the reader on CPU 0. */
static double measure(struct shared *s, int writer_cpu, bool chase)
{
    s->writer_cpu = writer_cpu;
    s->chase = chase;
    s->read_seconds = 0;
    atomic_store(&s->turn, 0);
    pin(0);
    pthread_t t;
    if (pthread_create(&t, NULL, writer_main, s) != 0) {
        fprintf(stderr, "line_handoff: cannot start a thread\n");
        exit(1);
    }
    for (unsigned r = 0; r < s->rounds; r++) {
        while (atomic_load(&s->turn) != 2 * r + 1) {
            sched_yield();
        }
        double t0 = now();
        read_lines(s);
        s->read_seconds += now() - t0;
        atomic_store(&s->turn, 2 * r + 2);
    }
    pthread_join(t, NULL);
    return s->read_seconds / s->rounds / (double)s->lines * 1e9;
}

int main(int argc, char **argv)
{
    size_t kib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
    unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 500;
    if (kib == 0 || rounds == 0) {
        fprintf(stderr, "usage: line_handoff [KIB] [ROUNDS]\n");
        return 2;
    }
    struct shared s = {.lines = kib * 1024 / LINE, .rounds = rounds};
    s.buf = aligned_alloc(LINE, s.lines * LINE);
    s.perm = malloc(s.lines * sizeof(*s.perm));
    if (s.buf == NULL || s.perm == NULL) {
        fprintf(stderr, "line_handoff: out of memory\n");
        free(s.perm);
        free(s.buf);
        return 1;
    }
    memset(s.buf, 0, s.lines * LINE);
    for (size_t i = 0; i < s.lines; i++) {
        s.perm[i] = i;
    }
    srand(1);
    for (size_t i = s.lines - 1; i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1);
        size_t t = s.perm[i];
        s.perm[i] = s.perm[j];
        s.perm[j] = t;
    }
    printf("%zu KiB, %u rounds: ns per 64-byte line read after the writer's round\n", kib, rounds);
    printf("dependent loads, writer on CPU 0 (same):  %.1f\n", measure(&s, 0, true));
    printf("dependent loads, writer on CPU 1 (other): %.1f\n", measure(&s, 1, true));
    printf("sequential,      writer on CPU 0 (same):  %.1f\n", measure(&s, 0, false));
    printf("sequential,      writer on CPU 1 (other): %.1f\n", measure(&s, 1, false));
    printf("(checksum %llu)\n", (unsigned long long)s.sink);
    free(s.perm);
    free(s.buf);
    return 0;
}
