// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The syscall floor of a whole walk (bench/floor_bench.sh): what walking a tree costs when a
 * program does nothing but the system calls, to measure frdfind and frdcount against. Each of
 * THREADS threads has a queue of directories to read, a lock each; a thread takes from its
 * own queue's end and, when it is empty, from the front of another's; an idle thread yields
 * the CPU and looks again (it never sleeps: no wake-up latency counts against the floor). A
 * directory is opened when it is taken (openat() on its parent's descriptor, which stays
 * open until every child is opened), read with getdents64 into a 64 KiB buffer, and closed.
 * With -s each entry gets a statx(dirfd, name, AT_SYMLINK_NOFOLLOW) as a tool that needs
 * sizes or times does; with -p each path is printed, a line each, from a buffer per thread
 * written out under one lock. No frd code, Linux only.
 *
 * Usage: floor_walk [-t THREADS] [-s] [-p] ROOT   (without -p it prints the entry count)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUF_SIZE    (64 * 1024)
#define OUT_SIZE    (64 * 1024)
#define MAX_THREADS 64

/** A directory to read: its parent (whose descriptor it is opened on), its name, its path. */
struct dir {
    struct dir *parent;
    atomic_int refs; /* its own task + its children not yet opened */
    int fd;
    size_t path_len;
    char path[]; /* its path; the name is the part after the last '/' */
};

struct queue {
    pthread_mutex_t lock;
    struct dir **items;
    size_t head, count, cap;
};

static struct queue queues[MAX_THREADS];
static int nthreads = 1;
static int opt_stat, opt_print;
static atomic_long pending; /* directories queued or being read */
static atomic_long entries;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what)
{
    perror(what);
    exit(1);
}

static void queue_push(struct queue *q, struct dir *d)
{
    pthread_mutex_lock(&q->lock);
    if (q->head + q->count == q->cap) {
        if (q->head > 0) {
            memmove(q->items, q->items + q->head, q->count * sizeof(*q->items));
            q->head = 0;
        } else {
            q->cap = q->cap ? 2 * q->cap : 256;
            q->items = realloc(q->items, q->cap * sizeof(*q->items));
            if (q->items == NULL) {
                die("realloc");
            }
        }
    }
    q->items[q->head + q->count++] = d;
    pthread_mutex_unlock(&q->lock);
}

/** Takes from the end of its own queue (`own`) or from the front of another's. */
static struct dir *queue_take(struct queue *q, int own)
{
    struct dir *d = NULL;
    pthread_mutex_lock(&q->lock);
    if (q->count > 0) {
        if (own) {
            d = q->items[q->head + --q->count];
        } else {
            d = q->items[q->head++];
            q->count--;
        }
    }
    pthread_mutex_unlock(&q->lock);
    return d;
}

/** Drops a ref on `d`: the last one closes its descriptor and frees it. */
static void dir_release(struct dir *d)
{
    if (atomic_fetch_sub(&d->refs, 1) == 1) {
        if (d->fd >= 0) {
            close(d->fd);
        }
        free(d);
    }
}

struct out {
    char *buf;
    size_t len;
};

static void out_flush(struct out *o)
{
    pthread_mutex_lock(&out_lock);
    for (size_t done = 0; done < o->len;) {
        ssize_t n = write(1, o->buf + done, o->len - done);
        if (n <= 0) {
            die("write");
        }
        done += (size_t)n;
    }
    pthread_mutex_unlock(&out_lock);
    o->len = 0;
}

static void out_line(struct out *o, const struct dir *d, const char *name, size_t name_len)
{
    size_t need = d->path_len + 1 + name_len + 1;
    if (o->len + need > OUT_SIZE) {
        out_flush(o);
    }
    if (need > OUT_SIZE) {
        return; /* a path longer than the buffer: not printed (the floor's trees have none) */
    }
    memcpy(o->buf + o->len, d->path, d->path_len);
    o->buf[o->len + d->path_len] = '/';
    memcpy(o->buf + o->len + d->path_len + 1, name, name_len);
    o->buf[o->len + need - 1] = '\n';
    o->len += need;
}

/** Reads directory `d` (open), queueing its subdirectories on queue `self`. */
static void read_dir(int self, struct dir *d, char *buf, struct out *o)
{
    long n;
    while ((n = syscall(SYS_getdents64, d->fd, buf, BUF_SIZE)) > 0) {
        for (long pos = 0; pos < n;) {
            const char *rec = buf + pos;
            unsigned short reclen;
            memcpy(&reclen, rec + 16, sizeof(reclen));
            unsigned char type = (unsigned char)rec[18];
            const char *name = rec + 19;
            pos += reclen;
            if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) {
                continue;
            }
            if (opt_stat || type == DT_UNKNOWN) {
                struct statx stx;
                if (statx(d->fd, name, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) == 0 &&
                    type == DT_UNKNOWN) {
                    type = S_ISDIR(stx.stx_mode) ? DT_DIR : DT_REG;
                }
            }
            atomic_fetch_add_explicit(&entries, 1, memory_order_relaxed);
            size_t name_len = strlen(name);
            if (opt_print) {
                out_line(o, d, name, name_len);
            }
            if (type == DT_DIR) {
                struct dir *c = malloc(sizeof(*c) + d->path_len + 1 + name_len + 1);
                if (c == NULL) {
                    die("malloc");
                }
                c->parent = d;
                atomic_init(&c->refs, 1);
                c->fd = -1;
                memcpy(c->path, d->path, d->path_len);
                c->path[d->path_len] = '/';
                memcpy(c->path + d->path_len + 1, name, name_len + 1);
                c->path_len = d->path_len + 1 + name_len;
                atomic_fetch_add(&d->refs, 1);
                atomic_fetch_add(&pending, 1);
                queue_push(&queues[self], c);
            }
        }
    }
}

static void *worker(void *arg)
{
    int self = (int)(intptr_t)arg;
    char *buf = malloc(BUF_SIZE);
    struct out o = {opt_print ? malloc(OUT_SIZE) : NULL, 0};
    if (buf == NULL || (opt_print && o.buf == NULL)) {
        die("malloc");
    }
    for (;;) {
        struct dir *d = queue_take(&queues[self], 1);
        for (int k = 1; d == NULL && k < nthreads; k++) {
            d = queue_take(&queues[(self + k) % nthreads], 0);
        }
        if (d == NULL) {
            if (atomic_load(&pending) == 0) {
                break;
            }
            sched_yield();
            continue;
        }
        const char *name = strrchr(d->path, '/') + 1;
        d->fd = openat(d->parent->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        dir_release(d->parent); /* opened: the parent's descriptor is not needed for it */
        d->parent = NULL;
        if (d->fd >= 0) {
            read_dir(self, d, buf, &o);
        }
        dir_release(d); /* its own task: closed once its children are opened */
        atomic_fetch_sub(&pending, 1);
    }
    if (opt_print && o.len > 0) {
        out_flush(&o);
    }
    free(o.buf);
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "t:sp")) != -1) {
        if (c == 't') {
            nthreads = (int)strtol(optarg, NULL, 10);
        } else if (c == 's') {
            opt_stat = 1;
        } else if (c == 'p') {
            opt_print = 1;
        } else {
            return 2;
        }
    }
    if (optind != argc - 1 || nthreads < 1 || nthreads > MAX_THREADS) {
        fprintf(stderr, "usage: floor_walk [-t THREADS] [-s] [-p] ROOT\n");
        return 2;
    }
    const char *root = argv[optind];
    size_t root_len = strlen(root);
    while (root_len > 1 && root[root_len - 1] == '/') {
        root_len--;
    }
    /* The root is a directory opened by path; its own line as find prints it. */
    struct dir *r = malloc(sizeof(*r) + root_len + 1);
    if (r == NULL) {
        die("malloc");
    }
    r->parent = NULL;
    atomic_init(&r->refs, 1);
    memcpy(r->path, root, root_len);
    r->path[root_len] = '\0';
    r->path_len = root_len;
    r->fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (r->fd < 0) {
        die(root);
    }
    if (opt_print) {
        printf("%s\n", root);
        fflush(stdout);
    }
    for (int i = 0; i < nthreads; i++) {
        pthread_mutex_init(&queues[i].lock, NULL);
    }
    /* The root's children are read by thread 0: the root is listed like any directory. */
    char *buf = malloc(BUF_SIZE);
    struct out o = {opt_print ? malloc(OUT_SIZE) : NULL, 0};
    if (buf == NULL || (opt_print && o.buf == NULL)) {
        die("malloc");
    }
    atomic_store(&pending, 1);
    read_dir(0, r, buf, &o);
    if (opt_print && o.len > 0) {
        out_flush(&o);
    }
    free(o.buf);
    free(buf);
    dir_release(r);
    atomic_fetch_sub(&pending, 1);
    pthread_t threads[MAX_THREADS];
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i) != 0) {
            die("pthread_create");
        }
    }
    worker((void *)(intptr_t)0);
    for (int i = 1; i < nthreads; i++) {
        pthread_join(threads[i], NULL);
    }
    if (!opt_print) {
        printf("%ld\n", atomic_load(&entries));
    }
    return 0;
}
