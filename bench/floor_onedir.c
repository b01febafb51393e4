// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The floor for one huge directory (bench/huge_dir_bench.sh): what listing it with a stat
 * per entry costs on THREADS threads (1 or 2) that share the work and keep nothing. One
 * thread reads the directory with getdents64 into 64 KiB buffers and queues them; every
 * thread (the reader too, when enough buffers wait or the directory is read) takes a buffer
 * and calls statx(dirfd, name, AT_SYMLINK_NOFOLLOW, STATX_SIZE) for each of its records,
 * summing the sizes so the work is not optimized away. Linux only; no frd code.
 *
 * Usage: floor_onedir DIR [THREADS]   prints "entries bytes"
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUF_SIZE (64 * 1024)
#define QUEUE    8 /* buffers read ahead at most */

struct rec {
    uint64_t ino;
    int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

struct buf {
    long len;
    char data[BUF_SIZE];
};

static int dirfd_g;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static struct buf *queue[QUEUE];
static size_t qhead, qcount;
static int done;
static uint64_t total_entries, total_bytes;

static void stat_buffer(const struct buf *b)
{
    uint64_t n = 0, bytes = 0;
    for (long pos = 0; pos < b->len;) {
        const struct rec *r = (const struct rec *)(const void *)(b->data + pos);
        pos += r->reclen;
        if (r->name[0] == '.' && (r->name[1] == '\0' || (r->name[1] == '.' && r->name[2] == 0))) {
            continue;
        }
        struct statx stx;
        if (statx(dirfd_g, r->name, AT_SYMLINK_NOFOLLOW, STATX_SIZE, &stx) == 0) {
            bytes += stx.stx_size;
        }
        n++;
    }
    pthread_mutex_lock(&lock);
    total_entries += n;
    total_bytes += bytes;
    pthread_mutex_unlock(&lock);
}

/** Takes a queued buffer; NULL when the directory is read and the queue empty. */
static struct buf *take(void)
{
    pthread_mutex_lock(&lock);
    while (qcount == 0 && !done) {
        pthread_cond_wait(&cond, &lock);
    }
    struct buf *b = NULL;
    if (qcount > 0) {
        b = queue[qhead];
        qhead = (qhead + 1) % QUEUE;
        qcount--;
        pthread_cond_broadcast(&cond);
    }
    pthread_mutex_unlock(&lock);
    return b;
}

static void *helper(void *arg)
{
    (void)arg;
    struct buf *b;
    while ((b = take()) != NULL) {
        stat_buffer(b);
        free(b);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: floor_onedir DIR [THREADS]\n");
        return 2;
    }
    long threads = 2;
    if (argc > 2) {
        char *end;
        errno = 0;
        threads = strtol(argv[2], &end, 10);
        if (errno != 0 || end == argv[2] || *end != '\0' || threads < 1) {
            fprintf(stderr, "floor_onedir: THREADS must be a positive integer: '%s'\n", argv[2]);
            return 2;
        }
    }
    dirfd_g = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd_g < 0) {
        perror(argv[1]);
        return 1;
    }
    pthread_t t;
    if (threads > 1 && pthread_create(&t, NULL, helper, NULL) != 0) {
        return 1;
    }
    for (;;) {
        struct buf *b = malloc(sizeof(*b));
        if (b == NULL) {
            return 1;
        }
        b->len = syscall(SYS_getdents64, dirfd_g, b->data, BUF_SIZE);
        if (b->len <= 0) {
            free(b);
            break;
        }
        pthread_mutex_lock(&lock);
        // With one thread, or a queue that holds enough for the helper, stat it here.
        int mine = threads < 2 || qcount >= 2;
        while (!mine && qcount == QUEUE) {
            pthread_cond_wait(&cond, &lock);
        }
        if (!mine) {
            queue[(qhead + qcount) % QUEUE] = b;
            qcount++;
            pthread_cond_broadcast(&cond);
        }
        pthread_mutex_unlock(&lock);
        if (mine) {
            stat_buffer(b);
            free(b);
        }
    }
    pthread_mutex_lock(&lock);
    done = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    helper(NULL); // the reader helps empty the queue
    if (threads > 1) {
        pthread_join(t, NULL);
    }
    printf("%llu %llu\n", (unsigned long long)total_entries, (unsigned long long)total_bytes);
    return 0;
}
