// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frdmpi find: frdfind's expressions (its parser, evaluator and output, linked from
 * examples/frdfind/) on frd_mpi_walk(). Each rank evaluates the entries it walked and
 * writes its results to its stdout. With -s the ranks write into a temporary file instead
 * (in $TMPDIR, or /tmp);
 * rank 0 gathers the records and writes them sorted as frdfind -s orders paths: depth-first
 * by name, that is byte order with '/' lowest (records are split at '\n', or at '\0' when
 * the expression has -print0 or -fprint0 style NUL endings: see -0 below).
 */
#define _POSIX_C_SOURCE 200809L

#include "errtext.h"
#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"
#include "frdmpi.h"
#include "toolname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct find_run {
    struct fm_run *run; /**< first, for fm_progress() */
    struct ff_ctx *ctx;
    atomic_bool quit;
};

static enum frd_action find_visit(const struct frd_walk_entry *we, void *udata)
{
    struct find_run *f = udata;
    const struct ff_options *opts = &f->ctx->opts;
    if (atomic_load_explicit(&f->quit, memory_order_relaxed)) {
        return FRD_ACTION_STOP;
    }
    struct ff_thread *thr = ff_thread_get(f->ctx, we->worker);
    if (thr == NULL) {
        ff_error(f->ctx, "out of memory");
        return FRD_ACTION_STOP;
    }
    if ((opts->needs & FF_STAT_FIELDS) && we->entry->error < 0) {
        return FRD_ACTION_PRUNE; // find evaluates nothing it cannot stat (reported already)
    }
    struct ff_eval st = {
        .ctx = f->ctx, .we = we, .thr = thr, .stat_on_demand = opts->stat_may_fail};
    ff_eval(opts->expr, &st);
    if (st.res.quit) {
        atomic_store(&f->quit, true);
        return FRD_ACTION_STOP;
    }
    return st.res.prune && we->entry->type == FRD_TYPE_DIR ? FRD_ACTION_PRUNE : FRD_ACTION_CONTINUE;
}

static enum frd_action find_error(const struct frd_walk_error *err, void *udata)
{
    struct find_run *f = udata;
    atomic_fetch_add(&f->run->errors, 1);
    ff_error_path(f->ctx, err->path, tool_strerror(err->code));
    return FRD_ACTION_CONTINUE;
}

/** Depth-first by name: byte order with '/' below every other byte. */
static int path_cmp(const void *pa, const void *pb)
{
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    for (;; a++, b++) {
        unsigned char ca = *a == '/' ? 1 : (unsigned char)*a;
        unsigned char cb = *b == '/' ? 1 : (unsigned char)*b;
        if (ca != cb || ca == 0) {
            return ca < cb ? -1 : ca > cb;
        }
    }
}

/** Reads all of fd from the start. @return a malloc'd buffer (*len bytes) or NULL. */
static char *slurp(int fd, size_t *len)
{
    off_t end = lseek(fd, 0, SEEK_END);
    if (end < 0 || lseek(fd, 0, SEEK_SET) != 0 || end > INT32_MAX) {
        return NULL;
    }
    char *buf = malloc((size_t)end + 1);
    size_t got = 0;
    while (buf != NULL && got < (size_t)end) {
        ssize_t n = read(fd, buf + got, (size_t)end - got);
        if (n <= 0) {
            free(buf);
            return NULL;
        }
        got += (size_t)n;
    }
    *len = got;
    return buf;
}

/**
 * A file for this rank's records (-s), removed at once (the descriptor keeps it): in
 * $TMPDIR when it is set, as sort(1) does, else in /tmp. @return the descriptor, or -1 with
 * errno set.
 */
static int records_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/frdmpi.XXXXXX",
                     dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    if (n < 0 || (size_t)n >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(path);
    if (fd >= 0) {
        unlink(path);
        (void)fcntl(fd, F_SETFD, FD_CLOEXEC); // not for -exec's commands
    }
    return fd;
}

/**
 * Splits rank 0's gathered records at `sep` into *recs, each NUL-terminated in place, rank
 * by rank: a rank's last record without `sep` is a record of its own (ended in the free byte
 * after that rank's bytes), not the start of the next rank's.
 * @return the number of records, or -1 when out of memory.
 */
static long split_records(struct fm_run *run, struct fm_gathered *g, char sep, char ***recs)
{
    size_t n = 0;
    for (int r = 0; r < run->size; r++) {
        const char *p = g->all + g->offset[r];
        for (int i = 0; i < g->count[r]; i++) {
            n += p[i] == sep;
        }
        n += g->count[r] > 0 && p[g->count[r] - 1] != sep;
    }
    *recs = malloc((n + 1) * sizeof(**recs));
    if (*recs == NULL) {
        return -1;
    }
    size_t k = 0;
    for (int r = 0; r < run->size; r++) {
        char *p = g->all + g->offset[r], *start = p;
        for (int i = 0; i < g->count[r]; i++) {
            if (p[i] == sep) {
                p[i] = '\0';
                (*recs)[k++] = start;
                start = p + i + 1;
            }
        }
        if (start < p + g->count[r]) {
            p[g->count[r]] = '\0';
            (*recs)[k++] = start;
        }
    }
    return (long)k;
}

/** -s: gathers every rank's records at rank 0 and writes them sorted. @return 0 or 1. */
static int merge_sorted(struct fm_run *run, int fd, int saved_stdout, char sep)
{
    size_t len = 0;
    char *buf = slurp(fd, &len);
    struct fm_gathered g;
    int status = fm_gather(run, buf, buf != NULL ? (long)len : -1, &g) != 0;
    free(buf);
    if (run->rank == 0 && status == 0) {
        char **recs = NULL;
        long k = split_records(run, &g, sep, &recs);
        if (k < 0) {
            status = 1;
        } else {
            if (k > 0) {
                qsort(recs, (size_t)k, sizeof(*recs), path_cmp);
            }
            FILE *out = fdopen(saved_stdout, "w");
            for (long i = 0; out != NULL && i < k; i++) {
                fputs(recs[i], out);
                fputc(sep, out);
            }
            status = out == NULL || fflush(out) != 0 || ferror(out);
            if (out != NULL) {
                fclose(out);
                saved_stdout = -1;
            }
        }
        free(recs);
    }
    if (saved_stdout >= 0) {
        close(saved_stdout);
    }
    fm_gathered_free(&g);
    if (status != 0) {
        fprintf(stderr, "%s: cannot merge the sorted output\n", tool_name);
    }
    return status;
}

int fm_find_main(struct fm_run *run, int argc, char **argv)
{
    struct ff_ctx ctx;
    struct ff_options *fo = &ctx.opts;
    int rc = ff_ctx_init(&ctx) == 0 ? ff_parse(&ctx, argc, argv) : 1;
    if (rc != 0) {
        ff_ctx_free(&ctx);
        return rc < 0 ? 0 : 1;
    }
    if (fo->npaths != 1 || fo->depth) {
        if (run->rank == 0) {
            fprintf(stderr, "%s: find takes one ROOT, and no -depth\n", tool_name);
        }
        ff_ctx_free(&ctx);
        return 2;
    }
    fo->roots = fo->paths;
    fo->nroots = 1;
    struct frd_mpi_options opts;
    frd_mpi_options_init(&opts);
    opts.walk.follow = fo->follow;
    opts.walk.workers = fo->workers;
    opts.walk.min_depth = fo->mindepth;
    opts.walk.max_depth = fo->maxdepth;
    opts.walk.fields = FRD_FIELD_TYPE | (fo->needs & FRD_FIELDS_ALL);
    if (fo->xdev) {
        opts.walk.flags |= FRD_WALK_ONE_FILE_SYSTEM;
    }
    struct find_run f = {.run = run, .ctx = &ctx};
    struct frd_mpi_callbacks cb = {.visit = find_visit, .on_error = find_error};
    cb.on_progress = fm_progress_hook(run);
    int saved_stdout = -1, tmp = -1, failed = 0;
    if (fo->ordered) {
        // The records go to a file of this rank's own, read back for the merge.
        tmp = records_file();
        int err = errno;
        saved_stdout = dup(STDOUT_FILENO);
        if (saved_stdout < 0 || tmp < 0) {
            err = tmp < 0 ? err : errno;
        } else if (dup2(tmp, STDOUT_FILENO) < 0) {
            err = errno;
            close(saved_stdout);
            saved_stdout = -1;
        }
        if (tmp < 0 || saved_stdout < 0) {
            fprintf(stderr, "%s: cannot make a temporary file: %s\n", tool_name, strerror(err));
            failed = 1;
        }
    }
    bool out_ready = !failed && ff_out_init(&ctx, fo->workers > 8 ? fo->workers : 8, false) == 0;
    if (!failed && !out_ready) {
        ff_error(&ctx, "out of memory");
        failed = 1;
    }
    // Every rank walks or none does: the others would wait for a missing rank.
    int any = failed;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (out_ready) {
            ff_out_free_all(&ctx);
        }
        if (saved_stdout >= 0) {
            dup2(saved_stdout, STDOUT_FILENO);
            close(saved_stdout);
        }
        if (tmp >= 0) {
            close(tmp);
        }
        ff_ctx_free(&ctx);
        return fm_status(run, 1);
    }
    rc = frd_mpi_walk(MPI_COMM_WORLD, fo->paths[0], &opts, &cb, &f);
    if (rc < 0 && rc != FRD_ESTOPPED && run->rank == 0) {
        ff_error(&ctx, fm_strerror(rc)); // the same code on every rank: said once
    }
    ff_out_flush_all(&ctx);
    int status = ff_out_write_error(&ctx) != 0;
    ff_out_free_all(&ctx);
    if (run->rank == 0) {
        progress_line_clear(&run->progress);
    }
    if (fo->ordered) {
        fflush(stdout);
        dup2(saved_stdout, STDOUT_FILENO);
        status |= merge_sorted(run, tmp, dup(saved_stdout), '\n');
        close(saved_stdout);
        close(tmp);
    }
    bool failed_run = ff_failed(&ctx);
    ff_ctx_free(&ctx);
    return fm_status(run, status != 0 || failed_run);
}
