// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * frdmpi: frd's walks across the ranks of an MPI job (mpirun -np N frdmpi COMMAND ...), on
 * libfrd_mpi's frd_mpi_walk(). This file: the command line and what the subcommands share.
 * See frdmpi.1 and mpi/README.md.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdmpi.h"

#include "errtext.h"
#include "toolname.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: mpirun -np N frdmpi COMMAND [OPTION]... ROOT\n"
    "Walk ROOT across the ranks of an MPI job; results are reduced to rank 0.\n"
    "\n"
    "Commands:\n"
    "  walk [-j N] [-n] [-x] [-q] [--distribution=LIST] ROOT\n"
    "        entries, directories, files, links, bytes, errors and a file size histogram\n"
    "  du [-j N] [-b] [--apparent-size] [-d N] [-s] [-x] [-h] [-k] [-m] [-q] ROOT\n"
    "        disk usage of ROOT and of each directory down to -d N, as frddu and du print it\n"
    "  find [-H|-L|-P] [-s] [-j N] ROOT [EXPRESSION]\n"
    "        frdfind's expressions; each rank prints what it walked, -s merges them at\n"
    "        rank 0 in frdfind -s's order\n"
    "  index update [-q] [-x] [-j N] [-m MODE] PREFIX ROOT\n"
    "        one frdindex database per rank, PREFIX.rank0 ... (a new set each time)\n"
    "  index find [-i] [-b] [-0] [-c] [-e] [-l N] [-r|--regex] PREFIX PATTERN\n"
    "        frdindex find over the whole set, on rank 0\n"
    "\n"
    "  -h, --help     show this help (after a command: du's -h is human-readable sizes)\n"
    "      --version  show the version\n"
    "Exit status: 0 if all went well, 1 if some entry could not be read, 2 for a usage\n"
    "error. On a terminal, rank 0 draws a progress line on stderr.\n";

enum frd_action fm_error(const struct frd_walk_error *err, void *udata)
{
    struct fm_run *run = *(struct fm_run **)udata;
    atomic_fetch_add(&run->errors, 1);
    if (run->quiet) {
        return FRD_ACTION_CONTINUE;
    }
    tool_print_walk_error(err); // frdcount's words: the two agree line for line
    return FRD_ACTION_CONTINUE;
}

void fm_progress(const struct frd_mpi_progress *p, void *udata)
{
    struct fm_run *run = *(struct fm_run **)udata;
    progress_line_draw(&run->progress, p->entries, p->bytes);
}

frd_mpi_progress_fn *fm_progress_hook(struct fm_run *run)
{
    int on = progress_line_enabled(&run->progress) ? 1 : 0;
    MPI_Bcast(&on, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return on ? fm_progress : NULL;
}

unsigned fm_workers(const char *arg)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (*end != '\0' || n < 1 || n > 256) {
        fprintf(stderr, "%s: -j wants a number from 1 to 256\n", tool_name);
        return 0;
    }
    return (unsigned)n;
}

int fm_status(struct fm_run *run, int status)
{
    int mine = status != 0 || atomic_load(&run->errors) > 0 ? 1 : 0;
    int any = mine;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

const char *fm_strerror(int code)
{
    return code == FRD_EMALFORMED ? "malformed message between ranks" : tool_strerror(code);
}

int fm_gather(struct fm_run *run, const char *buf, long len, struct fm_gathered *out)
{
    *out = (struct fm_gathered){NULL, NULL, NULL};
    int mine = len < 0 || len > INT_MAX ? -1 : (int)len;
    bool root = run->rank == 0, room = false;
    if (root) {
        out->count = calloc((size_t)run->size, sizeof(int));
        out->offset = calloc((size_t)run->size, sizeof(int));
        room = out->count != NULL && out->offset != NULL;
    }
    int ok = room;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD); // room for the sizes
    if (ok) {
        MPI_Gather(&mine, 1, MPI_INT, out->count, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (root && room) {
        long total = 0;
        for (int r = 0; ok && r < run->size; r++) {
            ok = out->count[r] >= 0; // below 0: that rank could not make its bytes
            out->offset[r] = (int)total;
            total += ok ? out->count[r] + 1L : 0; // and a byte of room after them
            ok = ok && total <= INT_MAX;
        }
        out->all = ok ? malloc(total > 0 ? (size_t)total : 1) : NULL;
        ok = out->all != NULL;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD); // room for the bytes
    if (ok) {
        MPI_Gatherv(buf, mine, MPI_BYTE, out->all, out->count, out->offset, MPI_BYTE, 0,
                    MPI_COMM_WORLD);
        return 0;
    }
    fm_gathered_free(out);
    return -1;
}

void fm_gathered_free(struct fm_gathered *g)
{
    free(g->all);
    free(g->count);
    free(g->offset);
    *g = (struct fm_gathered){NULL, NULL, NULL};
}

int main(int argc, char **argv)
{
    tool_name_init(argv, "frdmpi");
    int provided = 0;
    // Serialized: frdmpi index's walk runs on frdindex's walk thread while the main thread,
    // which makes no MPI call meanwhile, writes the database.
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "%s: MPI_Init_thread failed\n", tool_name);
        return 1;
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        fprintf(stderr, "%s: this MPI offers no MPI_THREAD_SERIALIZED\n", tool_name);
        MPI_Finalize();
        return 1;
    }
    struct fm_run run = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &run.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run.size);
    // Progress goes to rank 0's terminal. mpirun hands ranks a pipe for stderr and, when its
    // own stdout is a terminal, a pty for stdout: then the line is drawn on /dev/tty.
    int progress_fd = -1;
    if (run.rank == 0) {
        progress_fd = STDERR_FILENO;
        if (!isatty(STDERR_FILENO) && isatty(STDOUT_FILENO)) {
            progress_fd = open("/dev/tty", O_WRONLY | O_CLOEXEC);
        }
    }
    progress_line_init(&run.progress, progress_fd, 0.5);
    int status = 2;
    const char *cmd = argc > 1 ? argv[1] : "";
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        status = run.rank == 0 ? (fputs(usage_text, stdout), tool_flush_stdout()) : 0;
    } else if (strcmp(cmd, "--version") == 0) {
        status = run.rank == 0 ? tool_print_version("frdmpi", NULL) : 0;
    } else if (strcmp(cmd, "walk") == 0) {
        status = fm_walk_main(&run, argc - 1, argv + 1);
    } else if (strcmp(cmd, "find") == 0) {
        status = fm_find_main(&run, argc - 1, argv + 1);
    } else if (strcmp(cmd, "du") == 0) {
        status = fm_du_main(&run, argc - 1, argv + 1);
    } else if (strcmp(cmd, "index") == 0) {
        status = fm_index_main(&run, argc - 1, argv + 1);
    } else {
        if (run.rank == 0) {
            if (cmd[0] == '\0') {
                fprintf(stderr, "%s: missing command\n", tool_name);
            } else {
                fprintf(stderr, "%s: unknown command '%s'\n", tool_name, cmd);
            }
            fprintf(stderr, "Try '%s --help' for more information.\n", tool_name);
        }
    }
    progress_line_clear(&run.progress);
    progress_line_destroy(&run.progress);
    if (progress_fd > STDERR_FILENO) {
        close(progress_fd);
    }
    MPI_Finalize();
    return status;
}
