// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frdmpi index: one frdindex database per rank (PREFIX.rankK, frdindex's schema, the rows
 * of the entries rank K walked) and `find` over the whole set, with frdindex's own code
 * (frdindex_core): `update` is frdindex's update with frd_mpi_walk() in place of the local
 * walk, `find` is frdindex's find reading the set's databases in turn.
 *
 * Which rank walks which directory changes from run to run, so a rank's database cannot be
 * compared with its previous contents: every update writes a fresh set (PREFIX.rankK.new,
 * renamed over PREFIX.rankK once every rank succeeded), and the ranks of a larger earlier set
 * are removed. Each database's meta table names its set (mpi_run, mpi_rank, mpi_ranks,
 * mpi_generation); find refuses a set that is incomplete or mixed.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdindex_db.h"
#include "frdindex_exclude.h"
#include "frdindex_find.h"
#include "frdindex_update.h"
#include "frdmpi.h"
#include "grow.h"
#include "jobs.h"
#include "toolname.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/** @return "PREFIX.rankK" (with `suffix` appended), malloc'd, or NULL when out of memory. */
static char *rank_path(const char *prefix, long rank, const char *suffix)
{
    size_t len = strlen(prefix) + strlen(suffix) + 32;
    char *p = malloc(len);
    if (p != NULL) {
        snprintf(p, len, "%s.rank%ld%s", prefix, rank, suffix);
    }
    return p;
}

/** Removes a database file and SQLite's side files (what a failed update leaves). */
static void remove_db(const char *path)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    size_t len = strlen(path);
    char name[PATH_MAX];
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
        if (len + strlen(suffixes[i]) < sizeof(name)) {
            snprintf(name, sizeof(name), "%s%s", path, suffixes[i]);
            unlink(name);
        }
    }
}

/** The walk of every rank's update: frd_mpi_walk() with frdindex's hooks moved over. */
static int index_mpi_walk(const char *const *roots, size_t nroots, const struct frd_walk_options *o,
                          frd_visit_fn *visit, void *udata, void *arg)
{
    const struct fm_run *run = arg;
    if (nroots != 1 || o->on_children != NULL) {
        return FRD_EINVAL; // frdmpi index offers one root and no excludes
    }
    struct frd_mpi_options mo;
    frd_mpi_options_init(&mo);
    mo.walk = *o;
    mo.walk.on_error = NULL;
    mo.walk.on_dir_done = NULL;
    mo.walk.on_progress = NULL;
    struct frd_mpi_callbacks cb = {.visit = visit, .on_error = o->on_error};
    int rc = frd_mpi_walk(MPI_COMM_WORLD, roots[0], &mo, &cb, udata);
    if (rc == FRD_EMALFORMED && run->rank == 0) {
        // frdindex names the code in its own words ("the walk failed: ..."); this is what it is.
        fprintf(stderr, "%s: %s\n", tool_name, fm_strerror(rc));
    }
    return rc;
}

/** @return 1 on every rank if `ok` is true on every rank, else 0 (collective). */
static bool all_ok(bool ok)
{
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
}

/** Writes which set this database belongs to into its meta table. @return 0 or -1. */
static int mark_set(const char *path, int rank, int size, int64_t run)
{
    sqlite3 *db;
    if (index_db_open(path, INDEX_OPEN_UPDATE, &db) < 0) {
        return -1;
    }
    int64_t generation = 0;
    int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK &&
                     index_db_meta_get(db, "generation", &generation) == 0 &&
                     index_db_meta_set(db, "mpi_run", run) == 0 &&
                     index_db_meta_set(db, "mpi_rank", rank) == 0 &&
                     index_db_meta_set(db, "mpi_ranks", size) == 0 &&
                     index_db_meta_set(db, "mpi_generation", generation) == 0 &&
                     sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK
                 ? 0
                 : index_db_fail(db, "marking the database's set");
    // At rest in rollback-journal mode, as frdindex leaves it (readable without -shm).
    sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

static const char update_usage[] = "usage: mpirun -np N frdmpi index update [-q] [-x] [-j N] "
                                   "[-m MODE] PREFIX ROOT\n";

static int index_update_main(struct fm_run *run, int argc, char **argv)
{
    struct index_excludes excludes = {0}; // none: the children hook does not cross ranks
    struct index_update_options opts = {
        .excludes = &excludes, .quiet = true, .walk = index_mpi_walk, .walk_arg = run};
    bool quiet = false;
    int c;
    optind = 1;
    while ((c = getopt(argc, argv, "qxj:m:")) != -1) {
        switch (c) {
        case 'q':
            quiet = true;
            break;
        case 'x':
            opts.one_file_system = true;
            break;
        case 'j':
            if (tool_parse_jobs(optarg, "-j", &opts.workers) < 0) {
                return 2;
            }
            break;
        case 'm':
            if (index_parse_mode(optarg, &opts.mode) < 0) {
                if (run->rank == 0) {
                    fprintf(stderr, "%s: invalid mode '%s' (octal, at most 0777)\n", tool_name,
                            optarg);
                }
                return 2;
            }
            break;
        default:
            if (run->rank == 0) {
                fputs(update_usage, stderr);
            }
            return 2;
        }
    }
    if (argc - optind != 2 || argv[optind][0] == '\0') {
        if (run->rank == 0) {
            fputs(update_usage, stderr);
        }
        return 2;
    }
    const char *prefix = argv[optind];
    const char *root = argv[optind + 1];
    opts.roots = &root;
    opts.nroots = 1;

    // Everything that could make one rank give up before the walk is checked first, on
    // every rank, and agreed on: a rank that left before the collective walk would leave
    // the others waiting for it.
    char *final = rank_path(prefix, run->rank, "");
    char *fresh = rank_path(prefix, run->rank, ".new");
    bool ok = final != NULL && fresh != NULL;
    opts.db_path = fresh;
    struct stat st;
    if (ok && stat(root, &st) < 0) {
        fprintf(stderr, "%s: cannot access '%s': %s\n", tool_name, root, strerror(errno));
        ok = false;
    }
    if (ok) {
        remove_db(fresh); // what an interrupted update left
        int fd = open(fresh, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 || fchmod(fd, opts.mode != 0 ? opts.mode : 0600) < 0) {
            fprintf(stderr, "%s: cannot create '%s': %s\n", tool_name, fresh, strerror(errno));
            ok = false;
        }
        if (fd >= 0) {
            close(fd);
        }
    }
    int64_t set_id = 0;
    if (run->rank == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        set_id = ((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec) ^ ((int64_t)getpid() << 20);
    }
    MPI_Bcast(&set_id, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    int status = 1;
    if (!all_ok(ok)) {
        goto done;
    }
    opts.entries = -1;
    status = index_update(&opts);
    // Committed (entries set), perhaps with some entries unreadable (status 1), or not.
    bool committed = opts.entries >= 0 && mark_set(fresh, run->rank, run->size, set_id) == 0;
    if (!all_ok(committed)) {
        if (run->rank == 0) {
            fprintf(stderr,
                    "%s: the update failed on a rank; the databases %s.rank* are "
                    "unchanged\n",
                    tool_name, prefix);
        }
        status = 1;
        goto done;
    }
    if (rename(fresh, final) < 0) {
        fprintf(stderr, "%s: cannot rename '%s' to '%s': %s\n", tool_name, fresh, final,
                strerror(errno));
        status = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (run->rank == 0) {
        // A set written before by more ranks: its higher ranks are no longer part of it.
        for (long k = run->size;; k++) {
            char *stale = rank_path(prefix, k, "");
            bool gone = stale == NULL || lstat(stale, &st) < 0;
            if (!gone) {
                remove_db(stale);
            }
            free(stale);
            if (gone) {
                break;
            }
        }
    }
    int64_t entries = opts.entries, total = 0;
    MPI_Reduce(&entries, &total, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (run->rank == 0 && !quiet) {
        // frdindex update's line for a new database, then where the rows went.
        printf("%lld entries: %lld added, 0 removed, 0 modified, 0 metadata, 0 replaced, "
               "0 renamed\n",
               (long long)total, (long long)total);
        printf("%d databases: %s.rank0 to %s.rank%d\n", run->size, prefix, prefix, run->size - 1);
    }
done:
    if (fresh != NULL) {
        remove_db(fresh); // after the rename there is none: only a failed update's is left
    }
    free(final);
    free(fresh);
    return fm_status(run, status);
}

/**
 * Finds the databases of the set PREFIX and checks they belong together.
 * @return the number of databases with *paths set (malloc'd), or -1 after a message.
 */
static long set_paths(const char *prefix, char ***paths)
{
    *paths = NULL;
    int64_t ranks = 0, run = 0;
    long n = 0;
    char **list = NULL;
    size_t cap = 0;
    for (long k = 0; k == 0 || k < ranks; k++) {
        char *path =
            tool_reserve_strs(&list, &cap, (size_t)n + 1) == 0 ? rank_path(prefix, k, "") : NULL;
        if (path == NULL) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            goto fail;
        }
        list[n++] = path;
        sqlite3 *db;
        if (index_db_open(path, INDEX_OPEN_READ, &db) < 0) {
            goto fail;
        }
        int64_t r_ranks = 0, r_rank = -1, r_run = 0, r_gen = 0, gen = 0;
        int rc = index_db_meta_get(db, "mpi_ranks", &r_ranks) == 0 &&
                         index_db_meta_get(db, "mpi_rank", &r_rank) == 0 &&
                         index_db_meta_get(db, "mpi_run", &r_run) == 0 &&
                         index_db_meta_get(db, "mpi_generation", &r_gen) == 0 &&
                         index_db_meta_get(db, "generation", &gen) == 0
                     ? 0
                     : -1;
        sqlite3_close(db);
        if (rc < 0) {
            goto fail;
        }
        if (k == 0) {
            ranks = r_ranks;
            run = r_run;
        }
        const char *why = NULL;
        if (r_ranks < 1 || r_run == 0) {
            why = "it was not written by 'frdmpi index update'";
        } else if (r_rank != k || r_ranks != ranks || r_run != run) {
            why = "it was written by another update than the set's rank 0 (an update was "
                  "interrupted or is running)";
        } else if (r_gen != gen) {
            why = "it was updated on its own since (by frdindex update)";
        }
        if (why != NULL) {
            fprintf(stderr, "%s: %s: %s; run 'mpirun -np N frdmpi index update %s ROOT' again\n",
                    tool_name, path, why, prefix);
            goto fail;
        }
    }
    *paths = list;
    return n;
fail:
    for (long i = 0; i < n; i++) {
        free(list[i]);
    }
    free(list);
    return -1;
}

static int index_find_main(struct fm_run *run, int argc, char **argv)
{
    // Reading a few databases needs no parallelism: rank 0 answers, the others wait.
    struct index_find_options opts = {0};
    optind = 1;
    int status = index_find_parse(argc, argv, &opts);
    if (status == 0 && argc - optind != 2) {
        fprintf(stderr, "%s: find needs a database prefix and a pattern\n", tool_name);
        status = 2;
    }
    if (status != 0 || run->rank != 0) {
        return run->rank == 0 ? status : 0;
    }
    char **paths;
    long n = set_paths(argv[optind], &paths);
    if (n < 0) {
        return 1;
    }
    opts.db_paths = (const char *const *)paths;
    opts.ndbs = (size_t)n;
    opts.pattern = argv[optind + 1];
    status = index_find(&opts);
    for (long i = 0; i < n; i++) {
        free(paths[i]);
    }
    free(paths);
    return status;
}

int fm_index_main(struct fm_run *run, int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : "";
    int status = 2;
    if (strcmp(sub, "update") == 0) {
        status = index_update_main(run, argc - 1, argv + 1);
    } else if (strcmp(sub, "find") == 0) {
        status = index_find_main(run, argc - 1, argv + 1);
        MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (run->rank == 0) {
        fprintf(stderr, "%s: index wants 'update' or 'find'\n", tool_name);
    }
    return status;
}
