// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * A rank that lies to frd_mpi_walk() (tests/mpi/liar.sh runs it): short, truncated and lying
 * messages of every kind mpi/proto.h names, and lying records at the end of frdmpi du.
 *
 *   mpirun -np 2 mpi_liar CASE ROOT
 *       One rank (the victim) calls frd_mpi_walk() on ROOT and prints "rc=NAME" (frd's
 *       code name, "OK" for 0). The other (the liar: rank 1, or rank 0 for the cases whose
 *       name ends in "-from-0") takes part as frd_mpi_walk()'s own protocol requires of a
 *       rank, but for one lie: it duplicates the communicator as frd_mpi_walk() does, sends
 *       the lie, waits for the victim's MP_ABORT (but after its own valid abort), then ends
 *       as every rank does (the counts' MPI_Alltoall, the drain, the result's
 *       MPI_Allreduce). A victim that took the lie
 *       for a message would go on and wait: the script runs each case under a timeout.
 *   mpirun -np 1 frdmpi du [-b] ROOT : -np 1 mpi_liar du-CASE ROOT
 *       Rank 1 walks its share honestly (frd_mpi_walk(), counting nothing), then takes part
 *       in frdmpi du's end as its rank 1 would (examples/frdmpi: fm_gather(), fm_status())
 *       but sends the records of CASE (frdmpi_du_wire.h's layout).
 */
#include "proto.h"

#include <frd_mpi.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Bytes of a WORK item before its path, as queue.h packs it. */
#define ITEM_HEADER 36

/** An MP_WORK body of one item: dev, ino, root_dev, depth, check, path length, path. */
static size_t work_item(char *out, const char *path, uint32_t plen_claimed, uint32_t depth,
                        uint32_t check)
{
    uint64_t zero = 0;
    uint32_t plen = (uint32_t)strlen(path);
    memcpy(out, &zero, 8);
    memcpy(out + 8, &zero, 8);
    memcpy(out + 16, &zero, 8);
    memcpy(out + 24, &depth, 4);
    memcpy(out + 28, &check, 4);
    memcpy(out + 32, &plen_claimed, 4);
    memcpy(out + ITEM_HEADER, path, plen);
    return ITEM_HEADER + plen;
}

/** Sends the lie of `name` to rank `to` on comm. @return the messages sent, or -1 for an
 *  unknown case. */
static int lie(const char *name, const char *root, MPI_Comm comm, int to)
{
    char buf[8192];
    char path[4096];
    snprintf(path, sizeof path, "%s/sub", root);
    uint32_t plen = (uint32_t)strlen(path);
    size_t n;
    int32_t i32;
    uint64_t u64[5] = {0};
    if (strncmp(name, "work-", 5) == 0) {
        if (strcmp(name, "work-plen-past-end") == 0 ||
            strcmp(name, "work-plen-past-end-from-0") == 0) {
            n = work_item(buf, path, plen + 100, 1, 0);
        } else if (strcmp(name, "work-plen-huge") == 0) {
            n = work_item(buf, path, UINT32_MAX, 1, 0);
        } else if (strcmp(name, "work-plen-short") == 0) {
            n = work_item(buf, path, plen - 3, 1, 0); // its last 3 bytes read as a header
        } else if (strcmp(name, "work-truncated") == 0) {
            n = work_item(buf, path, plen, 1, 0) - plen - 10;
        } else if (strcmp(name, "work-empty") == 0) {
            n = 0;
        } else if (strcmp(name, "work-outside-root") == 0) {
            n = work_item(buf, "/etc", 4, 1, 0);
        } else if (strcmp(name, "work-root-itself") == 0) {
            n = work_item(buf, root, (uint32_t)strlen(root), 1, 0);
        } else if (strcmp(name, "work-nul-in-path") == 0) {
            n = work_item(buf, path, plen, 1, 0);
            buf[ITEM_HEADER + plen - 2] = '\0';
        } else if (strcmp(name, "work-depth-0") == 0) {
            n = work_item(buf, path, plen, 0, 0);
        } else if (strcmp(name, "work-depth-beyond-path") == 0) {
            n = work_item(buf, path, plen, 1000, 0);
        } else if (strcmp(name, "work-check-2") == 0) {
            n = work_item(buf, path, plen, 1, 2);
        } else if (strcmp(name, "work-second-item-bad") == 0) {
            n = work_item(buf, path, plen, 1, 0);
            n += work_item(buf + n, path, plen + 1, 1, 0);
        } else {
            return -1;
        }
        return MPI_Send(buf, (int)n, MPI_BYTE, to, MP_WORK, comm) == MPI_SUCCESS ? 1 : -1;
    }
    if (strncmp(name, "token-", 6) == 0) {
        int64_t count = 0;
        memcpy(buf, &count, 8);
        i32 = strcmp(name, "token-black-5-from-0") == 0 ? 5
              : strcmp(name, "token-black-7") == 0      ? 7
                                                        : 0;
        memcpy(buf + 8, &i32, 4);
        n = strcmp(name, "token-short") == 0 ? 8 : strcmp(name, "token-long") == 0 ? 16 : 12;
        return MPI_Send(buf, (int)n, MPI_BYTE, to, MP_TOKEN, comm) == MPI_SUCCESS ? 1 : -1;
    }
    if (strcmp(name, "abort-short") == 0 || strcmp(name, "abort-code-0") == 0 ||
        strcmp(name, "abort-valid") == 0) {
        i32 = strcmp(name, "abort-valid") == 0 ? FRD_ECANCELED : 0;
        memcpy(buf, &i32, 4);
        n = strcmp(name, "abort-short") == 0 ? 2 : 4;
        return MPI_Send(buf, (int)n, MPI_BYTE, to, MP_ABORT, comm) == MPI_SUCCESS ? 1 : -1;
    }
    if (strcmp(name, "progress-short") == 0 || strcmp(name, "progress-idle-2") == 0 ||
        strcmp(name, "progress-to-rank-1-from-0") == 0) {
        u64[4] = strcmp(name, "progress-idle-2") == 0 ? 2 : 0;
        n = strcmp(name, "progress-short") == 0 ? 39 : 40;
        return MPI_Send(u64, (int)n, MPI_BYTE, to, MP_PROGRESS, comm) == MPI_SUCCESS ? 1 : -1;
    }
    if (strcmp(name, "req-with-body") == 0 || strcmp(name, "nowork-with-body") == 0 ||
        strcmp(name, "done-with-body-from-0") == 0) {
        int tag = name[0] == 'r' ? MP_REQ : name[0] == 'n' ? MP_NOWORK : MP_DONE;
        return MPI_Send("abc", 3, MPI_BYTE, to, tag, comm) == MPI_SUCCESS ? 1 : -1;
    }
    if (strcmp(name, "done-from-1") == 0) {
        return MPI_Send(NULL, 0, MPI_BYTE, to, MP_DONE, comm) == MPI_SUCCESS ? 1 : -1;
    }
    if (strcmp(name, "unknown-tag") == 0) {
        return MPI_Send("x", 1, MPI_BYTE, to, 99, comm) == MPI_SUCCESS ? 1 : -1;
    }
    return -1;
}

/** The liar's side of a walk: the lie, then the end frd_mpi_walk() goes through. */
static int liar_walk(const char *name, const char *root)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm); // frd_mpi_walk()'s own duplicate
    int victim = 1 - rank;
    int sent = lie(name, root, comm, victim);
    if (sent < 0) {
        fprintf(stderr, "mpi_liar: unknown case %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    // The victim stops every rank with MP_ABORT; what it sent before (work, a token) is
    // received and dropped, as its drain would. (A rank stopped by an abort, as the victim
    // by abort-valid, sends none: it ends at once.)
    uint64_t received = 0;
    while (strcmp(name, "abort-valid") != 0) {
        MPI_Status st;
        int count;
        MPI_Probe(victim, MPI_ANY_TAG, comm, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        char *buf = malloc(count > 0 ? (size_t)count : 1);
        MPI_Recv(buf, count, MPI_BYTE, victim, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
        free(buf);
        received++;
        if (st.MPI_TAG == MP_ABORT) {
            break;
        }
    }
    uint64_t sent_to[2] = {0, 0}, expect[2] = {0, 0};
    sent_to[victim] = (uint64_t)sent;
    MPI_Alltoall(sent_to, 1, MPI_UINT64_T, expect, 1, MPI_UINT64_T, comm);
    for (; received < expect[victim]; received++) {
        MPI_Status st;
        int count;
        MPI_Probe(victim, MPI_ANY_TAG, comm, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        char *buf = malloc(count > 0 ? (size_t)count : 1);
        MPI_Recv(buf, count, MPI_BYTE, victim, st.MPI_TAG, comm, MPI_STATUS_IGNORE);
        free(buf);
    }
    int local = 0, result = 0;
    MPI_Allreduce(&local, &result, 1, MPI_INT, MPI_MIN, comm);
    MPI_Comm_free(&comm);
    return 0;
}

static enum frd_action count_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    atomic_fetch_add((atomic_ulong *)udata, 1);
    return FRD_ACTION_CONTINUE;
}

static enum frd_action quiet_error(const struct frd_walk_error *err, void *udata)
{
    (void)err;
    (void)udata;
    return FRD_ACTION_CONTINUE;
}

/** The victim: an honest frd_mpi_walk(). */
static int victim_walk(const char *root)
{
    struct frd_mpi_options opts;
    frd_mpi_options_init(&opts);
    struct frd_mpi_callbacks cb = {.visit = count_visit, .on_error = quiet_error};
    atomic_ulong visited = 0;
    int rc = frd_mpi_walk(MPI_COMM_WORLD, root, &opts, &cb, &visited);
    printf("rc=%s\n", rc == 0 ? "OK" : frd_err_name(rc));
    fflush(stdout);
    return 0;
}

/** Appends one of frdmpi du's records (frdmpi_du_wire.h). @return the new length. */
static size_t du_record(char *buf, size_t len, uint64_t bytes, uint64_t dev, uint64_t ino,
                        const char *path, uint32_t plen_claimed)
{
    size_t plen = strlen(path);
    memcpy(buf + len, &bytes, 8);
    memcpy(buf + len + 8, &dev, 8);
    memcpy(buf + len + 16, &ino, 8);
    memcpy(buf + len + 24, &plen_claimed, 4);
    memcpy(buf + len + 28, path, plen);
    return len + 28 + plen;
}

/** Rank 1 of frdmpi du, honest to the end of the walk, then sending the records of `name`. */
static int liar_du(const char *name, const char *root)
{
    int on = 0;
    MPI_Bcast(&on, 1, MPI_INT, 0, MPI_COMM_WORLD); // fm_progress_hook()
    struct frd_mpi_options opts;
    frd_mpi_options_init(&opts);
    struct frd_mpi_callbacks cb = {.visit = count_visit, .on_error = quiet_error};
    atomic_ulong visited = 0;
    frd_mpi_walk(MPI_COMM_WORLD, root, &opts, &cb, &visited);

    char buf[8192], path[4096];
    snprintf(path, sizeof path, "%s/sub", root);
    uint32_t plen = (uint32_t)strlen(path);
    size_t len = du_record(buf, 0, 0, UINT64_MAX, UINT64_MAX, "", 0); // the root's total
    if (strcmp(name, "du-honest") == 0) {
        len = du_record(buf, len, 1000000, UINT64_MAX, UINT64_MAX, path, plen);
    } else if (strcmp(name, "du-plen-past-end") == 0) {
        len = du_record(buf, len, 1, UINT64_MAX, UINT64_MAX, path, plen + 1000);
    } else if (strcmp(name, "du-plen-huge") == 0) {
        len = du_record(buf, len, 1, 1, 2, path, UINT32_MAX);
    } else if (strcmp(name, "du-truncated") == 0) {
        len = du_record(buf, len, 1, UINT64_MAX, UINT64_MAX, path, plen) - plen - 5;
    } else if (strcmp(name, "du-outside-root") == 0) {
        len = du_record(buf, len, 1, UINT64_MAX, UINT64_MAX, "/etc", 4);
    } else if (strcmp(name, "du-nul-in-path") == 0) {
        len = du_record(buf, len, 1, UINT64_MAX, UINT64_MAX, path, plen);
        buf[len - 2] = '\0';
    } else {
        fprintf(stderr, "mpi_liar: unknown case %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    // fm_gather(): rank 0's room for the sizes, the sizes, its room for the bytes, the bytes.
    int ok = 0, mine = (int)len;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok) {
        MPI_Gather(&mine, 1, MPI_INT, NULL, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok) {
        MPI_Gatherv(buf, mine, MPI_BYTE, NULL, NULL, NULL, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    int status = 0, any = 0;
    MPI_Allreduce(&status, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); // fm_status()
    return 0;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    if (argc != 3) {
        fprintf(stderr, "usage: mpi_liar CASE ROOT\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *name = argv[1], *root = argv[2];
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t len = strlen(name);
    int liar_rank = len > 7 && strcmp(name + len - 7, "-from-0") == 0 ? 0 : 1;
    if (strncmp(name, "du-", 3) == 0) {
        liar_du(name, root);
    } else if (rank == liar_rank) {
        liar_walk(name, root);
    } else {
        victim_walk(root);
    }
    MPI_Finalize();
    return 0;
}
