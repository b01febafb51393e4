// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frdmpi du: frddu's totals across MPI ranks. A directory's total cannot be summed in
 * post-order when its subtree is split between ranks, so each rank adds every entry's size
 * to the root's total and to its ancestors down to -d N (a table path -> bytes); files with
 * several hard links are kept aside with their (dev, ino). Rank 0 gathers the tables and the
 * hard links, counts each (dev, ino) once (as du does, in the directory of one of its
 * names), and prints the lines in post-order, sizes formatted by frddu's du_format_size().
 */
#define _POSIX_C_SOURCE 200809L

#include "errtext.h"
#include "frddu_size.h"
#include "frdmpi.h"
#include "frdmpi_du_wire.h"
#include "grow.h"
#include "hash.h"
#include "toolname.h"

#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** A line's total: a directory at depth 1..N (the root's is kept apart). */
struct du_sum {
    uint64_t bytes;
    char *path; /**< malloc'd */
    size_t len;
};

/** A file with several hard links, counted once at rank 0. */
struct du_link {
    uint64_t dev, ino, bytes;
    char *path; /**< malloc'd */
    size_t len;
};

TOOL_RESERVE_DEFINE(du_reserve_sums, struct du_sum, 256)
TOOL_RESERVE_DEFINE(du_reserve_links, struct du_link, 64)

struct du_run {
    struct fm_run *run; /**< first, for fm_progress() */
    bool apparent, count_links, one_fs;
    long max_depth; /**< lines for depth <= this (-1: every directory) */
    struct du_units units;
    size_t root_len; /**< the walk's root, as the paths start with it */
    const char *root;
    _Atomic uint64_t root_dev;
    atomic_bool out_of_memory;
    pthread_mutex_t lock;  /**< guards the table and the links */
    struct tool_hash sums; /**< records: size_t index into lines */
    struct du_sum *lines;
    size_t nlines, cap;
    uint64_t root_bytes;
    struct du_link *links;
    size_t nlinks, links_cap;
};

static struct du_sum *du_key_lines; // the table's records index this array (eq below)
static const char *du_key_path;
static size_t du_key_len;

static bool du_eq(const void *record, const void *key)
{
    (void)key;
    size_t i;
    memcpy(&i, record, sizeof i);
    return du_key_lines[i].len == du_key_len &&
           memcmp(du_key_lines[i].path, du_key_path, du_key_len) == 0;
}

/** Adds bytes to the line of path[0, len). Call with the lock held. @return 0 or -1. */
static int du_add(struct du_run *d, const char *path, size_t len, uint64_t bytes)
{
    du_key_lines = d->lines;
    du_key_path = path;
    du_key_len = len;
    uint64_t h = tool_hash_bytes(path, len);
    bool found;
    void *rec = tool_hash_insert(&d->sums, h, du_eq, NULL, &found);
    if (rec == NULL) {
        return -1;
    }
    if (found) {
        size_t i;
        memcpy(&i, rec, sizeof i);
        d->lines[i].bytes += bytes;
        return 0;
    }
    char *copy = du_reserve_sums(&d->lines, &d->cap, d->nlines + 1) == 0 ? malloc(len + 1) : NULL;
    if (copy == NULL) {
        tool_hash_remove(&d->sums, rec);
        return -1;
    }
    memcpy(copy, path, len);
    copy[len] = '\0';
    size_t i = d->nlines++;
    d->lines[i] = (struct du_sum){bytes, copy, len};
    memcpy(rec, &i, sizeof i);
    return 0;
}

/** Keeps a file with several hard links (a copy of its path) for rank 0 to count once.
 *  Call with the lock held. @return 0, or -1 when out of memory (nothing kept). */
static int du_keep_link(struct du_run *d, uint64_t dev, uint64_t ino, uint64_t bytes,
                        const char *path, size_t len)
{
    char *copy =
        du_reserve_links(&d->links, &d->links_cap, d->nlinks + 1) == 0 ? malloc(len + 1) : NULL;
    if (copy == NULL) {
        return -1;
    }
    memcpy(copy, path, len);
    copy[len] = '\0';
    d->links[d->nlinks++] = (struct du_link){dev, ino, bytes, copy, len};
    return 0;
}

/** Adds bytes to the root and to the entry's ancestors (and itself when `self`) down to -d.
 *  Call with the lock held. @return 0 or -1. */
static int du_account(struct du_run *d, const char *path, size_t len, unsigned depth, bool self,
                      uint64_t bytes)
{
    d->root_bytes += bytes;
    size_t i = d->root_len;
    if (i < len && path[i] == '/') {
        i++; // the separator after a root that does not end in one
    }
    long k = 1;
    for (; i < len && (d->max_depth < 0 || k <= d->max_depth); i++) {
        if (path[i] == '/') {
            if (du_add(d, path, i, bytes) != 0) {
                return -1;
            }
            k++;
        }
    }
    if (self && depth > 0 && (d->max_depth < 0 || (long)depth <= d->max_depth)) {
        return du_add(d, path, len, bytes);
    }
    return 0;
}

static enum frd_action du_visit(const struct frd_walk_entry *we, void *udata)
{
    struct du_run *d = udata;
    const struct frd_entry *e = we->entry;
    if (e->error < 0) {
        return FRD_ACTION_PRUNE; // reported as "cannot access"
    }
    bool is_dir = e->type == FRD_TYPE_DIR;
    if (we->depth == 0) {
        atomic_store(&d->root_dev, e->dev);
    } else if (d->one_fs && e->dev != atomic_load(&d->root_dev)) {
        return FRD_ACTION_PRUNE; // du -x leaves out a mount point and what is on it
    }
    uint64_t size = d->apparent ? e->size : e->alloc_size;
    int rc = 0;
    pthread_mutex_lock(&d->lock);
    if (!d->count_links && !is_dir && e->nlink > 1) {
        rc = du_keep_link(d, e->dev, e->file_id, size, we->path, we->path_len);
    } else {
        rc = du_account(d, we->path, we->path_len, we->depth, is_dir, size);
    }
    pthread_mutex_unlock(&d->lock);
    if (rc != 0) {
        atomic_store(&d->out_of_memory, true);
        return FRD_ACTION_STOP;
    }
    return FRD_ACTION_CONTINUE;
}

static enum frd_action du_error(const struct frd_walk_error *err, void *udata)
{
    struct du_run *d = udata;
    atomic_fetch_add(&d->run->errors, 1);
    bool listing = err->call == FRD_OP_OPEN || err->call == FRD_OP_READ_DIR;
    fprintf(stderr, "%s: %s '%s': %s\n", tool_name,
            listing ? "cannot read directory" : "cannot access", err->path,
            tool_strerror(err->code));
    return FRD_ACTION_CONTINUE;
}

/** Post-order: a directory after every path below it; siblings by bytes ('/' lowest). */
static int post_order_cmp(const void *pa, const void *pb)
{
    const struct du_sum *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    for (size_t i = 0; i < n; i++) {
        if (a->path[i] != b->path[i]) {
            unsigned char ca = a->path[i] == '/' ? 0 : (unsigned char)a->path[i];
            unsigned char cb = b->path[i] == '/' ? 0 : (unsigned char)b->path[i];
            return ca < cb ? -1 : 1;
        }
    }
    return a->len == b->len ? 0 : a->len > b->len ? -1 : 1; // the longer is below
}

/** Rank 0: adds what another rank sent (frdmpi_du_wire.h): its lines, and its hard links
 *  to d->links. @return 0, FRD_ENOMEM, or FRD_EMALFORMED (what was added stays). */
static int du_merge(struct du_run *d, const char *buf, size_t len)
{
    size_t off = 0;
    struct du_wire_rec rec;
    int got;
    while ((got = du_wire_next(buf, len, &off, d->root, d->root_len, &rec)) > 0) {
        int rc;
        if (!du_wire_is_line(&rec)) {
            rc = du_keep_link(d, rec.dev, rec.ino, rec.bytes, rec.path, rec.len);
        } else if (rec.len == 0) {
            d->root_bytes += rec.bytes;
            rc = 0;
        } else {
            rc = du_add(d, rec.path, rec.len, rec.bytes);
        }
        if (rc != 0) {
            return FRD_ENOMEM;
        }
    }
    return got < 0 ? FRD_EMALFORMED : 0;
}

static int link_cmp(const void *pa, const void *pb)
{
    const struct du_link *a = pa, *b = pb;
    if (a->dev != b->dev) {
        return a->dev < b->dev ? -1 : 1;
    }
    if (a->ino != b->ino) {
        return a->ino < b->ino ? -1 : 1;
    }
    return strcmp(a->path, b->path);
}

/** Packs this rank's root total, lines and links (frdmpi_du_wire.h) into *buf (*len bytes).
 *  @return 0, or -1 when out of memory. */
static int du_pack(const struct du_run *d, char **buf, size_t *len)
{
    size_t cap = 0;
    struct du_wire_rec root = {d->root_bytes, UINT64_MAX, UINT64_MAX, "", 0};
    int rc = du_wire_put(buf, len, &cap, &root);
    for (size_t i = 0; i < d->nlines && rc == 0; i++) {
        const struct du_sum *l = &d->lines[i];
        struct du_wire_rec line = {l->bytes, UINT64_MAX, UINT64_MAX, l->path, l->len};
        rc = du_wire_put(buf, len, &cap, &line);
    }
    for (size_t i = 0; i < d->nlinks && rc == 0; i++) {
        const struct du_link *l = &d->links[i];
        struct du_wire_rec link = {l->bytes, l->dev, l->ino, l->path, l->len};
        rc = du_wire_put(buf, len, &cap, &link);
    }
    return rc;
}

/**
 * Gathers every rank's lines and links at rank 0 and counts each hard-linked file once
 * there. @return 0, or 1 after a message on rank 0 (out of memory; a rank whose records do
 * not decode is named).
 */
static int du_reduce(struct du_run *d)
{
    char *buf = NULL;
    size_t len = 0;
    int rc = d->run->rank != 0 ? du_pack(d, &buf, &len) : 0;
    struct fm_gathered g;
    rc = fm_gather(d->run, buf, rc == 0 ? (long)len : -1, &g);
    free(buf);
    if (d->run->rank != 0) {
        return 0;
    }
    for (int r = 1; r < d->run->size && rc == 0; r++) {
        rc = du_merge(d, g.all + g.offset[r], (size_t)g.count[r]);
        if (rc == FRD_EMALFORMED) {
            fprintf(stderr, "%s: the totals from rank %d are malformed\n", tool_name, r);
            fm_gathered_free(&g);
            return 1;
        }
    }
    fm_gathered_free(&g);
    // Each hard-linked file once, in the directory of its first name in byte order.
    if (rc == 0 && d->nlinks > 0) {
        qsort(d->links, d->nlinks, sizeof(*d->links), link_cmp);
    }
    for (size_t i = 0; i < d->nlinks && rc == 0; i++) {
        const struct du_link *l = &d->links[i];
        if (i == 0 || l->dev != l[-1].dev || l->ino != l[-1].ino) {
            rc = du_account(d, l->path, l->len, 0, false, l->bytes);
        }
    }
    if (rc != 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return 1;
    }
    return 0;
}

/** Rank 0: prints the lines in post-order, the root last. @return 0 or 1. */
static int du_print(struct du_run *d)
{
    if (d->nlines > 0) {
        qsort(d->lines, d->nlines, sizeof(*d->lines), post_order_cmp);
    }
    char size[DU_SIZE_MAX_LEN];
    for (size_t i = 0; i < d->nlines; i++) {
        printf("%s\t%s\n", du_format_size(d->lines[i].bytes, &d->units, size), d->lines[i].path);
    }
    printf("%s\t%s\n", du_format_size(d->root_bytes, &d->units, size), d->root);
    return tool_flush_stdout();
}

enum { OPT_APPARENT = 256, OPT_SI };

static const struct option du_options[] = {
    {"apparent-size", no_argument, NULL, OPT_APPARENT},
    {"bytes", no_argument, NULL, 'b'},
    {"count-links", no_argument, NULL, 'l'},
    {"max-depth", required_argument, NULL, 'd'},
    {"human-readable", no_argument, NULL, 'h'},
    {"si", no_argument, NULL, OPT_SI},
    {"summarize", no_argument, NULL, 's'},
    {"one-file-system", no_argument, NULL, 'x'},
    {"jobs", required_argument, NULL, 'j'},
    {NULL, 0, NULL, 0},
};

int fm_du_main(struct fm_run *run, int argc, char **argv)
{
    struct du_run d = {.run = run, .max_depth = -1, .units = {1024, 0}};
    struct frd_mpi_options opts;
    frd_mpi_options_init(&opts);
    opts.walk.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_DEV |
                       FRD_FIELD_FILE_ID | FRD_FIELD_NLINK;
    opterr = run->rank == 0;
    int c;
    while ((c = getopt_long(argc, argv, "bd:hklmsxj:q", du_options, NULL)) != -1) {
        switch (c) {
        case OPT_APPARENT:
            d.apparent = true;
            break;
        case 'b':
            d.apparent = true;
            d.units = (struct du_units){1, 0};
            break;
        case 'l':
            d.count_links = true;
            break;
        case 'd': {
            char *end;
            d.max_depth = strtol(optarg, &end, 10);
            if (*end != '\0' || d.max_depth < 0) {
                fprintf(stderr, "%s: invalid maximum depth '%s'\n", tool_name, optarg);
                return 2;
            }
            break;
        }
        case 'h':
            d.units = (struct du_units){1024, 1024};
            break;
        case OPT_SI:
            d.units = (struct du_units){1000, 1000};
            break;
        case 'k':
            d.units = (struct du_units){1024, 0};
            break;
        case 'm':
            d.units = (struct du_units){1048576, 0};
            break;
        case 's':
            d.max_depth = 0;
            break;
        case 'x':
            d.one_fs = true;
            opts.walk.flags |= FRD_WALK_ONE_FILE_SYSTEM;
            break;
        case 'j':
            if ((opts.walk.workers = fm_workers(optarg)) == 0) {
                return 2;
            }
            break;
        case 'q':
            run->quiet = true;
            break;
        default:
            return 2;
        }
    }
    if (optind != argc - 1) {
        if (run->rank == 0) {
            fprintf(stderr, "%s: du wants one ROOT\n", tool_name);
        }
        return 2;
    }
    d.root = argv[optind];
    d.root_len = strlen(d.root);
    pthread_mutex_init(&d.lock, NULL);
    tool_hash_init(&d.sums, sizeof(size_t));
    struct frd_mpi_callbacks cb = {.visit = du_visit, .on_error = du_error};
    cb.on_progress = fm_progress_hook(run);
    int rc = frd_mpi_walk(MPI_COMM_WORLD, d.root, &opts, &cb, &d);
    bool oom = atomic_load(&d.out_of_memory);
    if (run->rank == 0) {
        progress_line_clear(&run->progress);
        if (oom) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
        } else if (rc < 0 && rc != FRD_ESTOPPED) {
            fprintf(stderr, "%s: walk failed: %s\n", tool_name, fm_strerror(rc));
        }
    }
    int status = du_reduce(&d) != 0 || oom;
    if (run->rank == 0 && status == 0) {
        status = du_print(&d);
    }
    for (size_t i = 0; i < d.nlines; i++) {
        free(d.lines[i].path);
    }
    for (size_t i = 0; i < d.nlinks; i++) {
        free(d.links[i].path);
    }
    free(d.lines);
    free(d.links);
    tool_hash_free(&d.sums);
    pthread_mutex_destroy(&d.lock);
    return fm_status(run, status != 0 || (rc < 0 && rc != FRD_ESTOPPED));
}
