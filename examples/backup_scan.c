// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * backup_scan: an example for programs that embed frd, in one file, on the public API only.
 *
 * What a backup tool's scanner needs: every regular file below a root with its path, size,
 * mtime, owner and mode, read in one pass; `.git` directories and --exclude patterns left
 * out before anything is stat'ed (the children hook drops them from each listing); only the
 * fields it prints asked of the kernel (opts.fields); each error reported once, with its
 * path, and the scan going on, as it must on a live tree where files vanish meanwhile.
 *
 *   backup_scan [-0] [-j N] [--exclude PATTERN]... ROOT
 *
 * Prints one line per regular file, sorted by path (an ordered walk):
 *   path TAB size TAB mtime_ns TAB uid TAB mode (permission bits, octal)
 * With -0 the lines end in NUL instead of newline. Exit status 1 if anything failed.
 */
#define _POSIX_C_SOURCE 200809L

#include <fnmatch.h>
#include <frd.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scan {
    const char **excludes; /**< fnmatch patterns matched against each name */
    size_t nexcludes;
    char terminator;
    atomic_uint errors;
};

/** Drops `.git` directories and excluded names from a directory's listing, before stat. */
static void scan_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    (void)dir;
    const struct scan *sc = udata; // read only: this hook runs on several threads at once
    size_t n = frd_walk_children_count(kids);
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        bool drop = e->type == FRD_TYPE_DIR && strcmp(e->name, ".git") == 0;
        for (size_t p = 0; !drop && p < sc->nexcludes; p++) {
            drop = fnmatch(sc->excludes[p], e->name, 0) == 0;
        }
        if (drop) {
            frd_walk_children_drop(kids, i);
        }
    }
}

static enum frd_action scan_visit(const struct frd_walk_entry *we, void *udata)
{
    struct scan *sc = udata;
    const struct frd_entry *e = we->entry;
    // An entry whose stat failed was reported by scan_error already: skip it, and do not
    // enter it if it is a directory (opening it would fail again: a second report).
    if (e->error < 0) {
        return FRD_ACTION_PRUNE;
    }
    if (e->type == FRD_TYPE_REG) {
        printf("%s\t%" PRIu64 "\t%" PRId64 "\t%" PRIu32 "\t%" PRIo32 "%c", we->path, e->size,
               e->mtime_ns, e->uid, e->mode & 07777u, sc->terminator);
    }
    return FRD_ACTION_CONTINUE;
}

/** One line per failure, with its path; the scan goes on (a live tree loses files). */
static enum frd_action scan_error(const struct frd_walk_error *err, void *udata)
{
    struct scan *sc = udata;
    atomic_fetch_add(&sc->errors, 1);
    const char *what =
        err->call == FRD_OP_OPEN || err->call == FRD_OP_READ_DIR ? "cannot read" : "cannot access";
    fprintf(stderr, "backup_scan: %s '%s': %s\n", what, err->path, frd_strerror(err->code));
    return FRD_ACTION_CONTINUE;
}

static int usage(void)
{
    fputs("usage: backup_scan [-0] [-j N] [--exclude PATTERN]... ROOT\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    struct scan sc = {.terminator = '\n'};
    sc.excludes = calloc((size_t)argc, sizeof(*sc.excludes));
    if (sc.excludes == NULL) {
        fputs("backup_scan: out of memory\n", stderr);
        return 1;
    }
    struct frd_walk_options opts;
    frd_walk_options_init(&opts);
    const char *root = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-0") == 0) {
            sc.terminator = '\0';
        } else if (strcmp(argv[i], "--exclude") == 0 && i + 1 < argc) {
            sc.excludes[sc.nexcludes++] = argv[++i];
        } else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
            opts.workers = (unsigned)strtoul(argv[++i], NULL, 10);
        } else if (root == NULL && (argv[i][0] != '-' || argv[i][1] == '\0')) {
            root = argv[i];
        } else {
            free(sc.excludes);
            return usage();
        }
    }
    if (root == NULL) {
        free(sc.excludes);
        return usage();
    }
    atomic_init(&sc.errors, 0);
    // Sorted output, and the visits on one thread: printf needs no lock.
    opts.flags = FRD_WALK_ORDERED;
    // Only what is printed (the type always comes along): no btime, no attributes, ...
    opts.fields = FRD_FIELD_SIZE | FRD_FIELD_MTIME | FRD_FIELD_UID | FRD_FIELD_MODE;
    opts.on_children = scan_children;
    opts.on_error = scan_error;
    int rc = frd_walk(root, &opts, scan_visit, &sc);
    free(sc.excludes);
    // With an error hook that always continues: a root that could not be walked (the hook
    // printed it: not twice), out of memory, bad options.
    if (rc < 0) {
        if (atomic_load(&sc.errors) == 0) {
            fprintf(stderr, "backup_scan: %s\n", frd_strerror(rc));
        }
        return 1;
    }
    if (fflush(stdout) != 0) {
        fputs("backup_scan: write error\n", stderr);
        return 1;
    }
    return atomic_load(&sc.errors) > 0 ? 1 : 0;
}
