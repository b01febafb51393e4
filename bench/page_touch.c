// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * What touching memory for the first time costs on this machine (bench/README.md, the
 * ordered mode): the time per 4 KiB page to write one byte into each page of a fresh
 * anonymous mapping (a page fault each), of a mapping populated first with
 * MADV_POPULATE_WRITE (no guest fault; a virtual machine may still trap the first access),
 * and of the same pages again (nothing to fault). A walk that holds what it lists (the
 * ordered mode) touches memory a streaming walk reuses, so on a machine where the first
 * touch is dear that difference shows in its time. Linux only; no frd code.
 *
 * Usage: page_touch [PAGES]   (default 20000)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#    define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

#define PAGE 4096

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/** Writes one byte into each of n pages at p. @return microseconds per page. */
static double touch(volatile char *p, size_t n)
{
    double t0 = now_us();
    for (size_t i = 0; i < n; i++) {
        p[i * PAGE] = 1;
    }
    return (now_us() - t0) / (double)n;
}

static char *fresh(size_t n)
{
    void *p = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
    if (n == 0) {
        fprintf(stderr, "usage: page_touch [PAGES]\n");
        return 2;
    }
    char *a = fresh(n);
    double first = touch(a, n);
    double again = touch(a, n);
    char *b = fresh(n);
    double t0 = now_us();
    int rc = madvise(b, n * PAGE, MADV_POPULATE_WRITE);
    double populate = (now_us() - t0) / (double)n;
    double after = touch(b, n);
    printf("pages %zu: first touch %.2f us/page, again %.3f us/page", n, first, again);
    if (rc == 0) {
        printf(", MADV_POPULATE_WRITE %.2f us/page then first touch %.2f us/page", populate, after);
    }
    printf("\n");
    return 0;
}
