// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * backup_scan: an example for programs that embed frd, on the public API only (the snapshot
 * format and its diff are in examples/backup_snapshot.c).
 *
 * What a backup tool's scanner needs: every regular file below a root with its path, size,
 * mtime, owner and mode, read in one pass; `.git` directories and --exclude patterns left
 * out before anything is stat'ed (the children hook drops them from each listing); only the
 * fields it prints asked of the kernel (opts.fields); each error reported once, with its
 * path, and the scan going on, as it must on a live tree where files vanish meanwhile.
 *
 *   backup_scan [-0] [-j N] [--exclude PATTERN]... ROOT
 *   backup_scan --snapshot FILE [-j N] [--exclude PATTERN]... ROOT
 *
 * Prints one line per regular file, sorted by path (an ordered walk):
 *   path TAB size TAB mtime_ns TAB uid TAB mode (permission bits, octal)
 * With -0 the lines end in NUL instead of newline. Exit status 1 if anything failed.
 *
 * With --snapshot, an incremental scanner: every entry with its type, size, mtime, mode,
 * owner, device and inode, hard-link group (FRD_WALK_LINK_GROUPS), symlink target
 * (FRD_WALK_LINK_TARGETS) and extended attributes (FRD_WALK_XATTRS) goes into a snapshot
 * (examples/backup_snapshot.h); what changed since the snapshot FILE held is printed, and
 * FILE is replaced atomically. Errors are collected and listed at the end (exit status 1
 * if anything was skipped). See backup_scan(1).
 */
#define _POSIX_C_SOURCE 200809L

#include "backup_snapshot.h"

#include <errno.h>
#include <fnmatch.h>
#include <frd.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** The name messages start with: argv[0]'s base name. */
static const char *prog = "backup_scan";

struct scan {
    const char **excludes; /**< fnmatch patterns matched against each name */
    size_t nexcludes;
    char terminator;
    atomic_uint errors;
    // --snapshot:
    const char *root;          /**< as given: paths in the snapshot are relative to it */
    struct snap now;           /**< this scan's lines, in walk order */
    atomic_bool out_of_memory; /**< a line could not be kept: the snapshot is not written */
    pthread_mutex_t lock;      /**< the error list (the hook may run on any walk thread) */
    struct snap errors_seen;   /**< one message per failure, reported at the end */
    struct snap unread;        /**< directories not read: their old lines are carried over */
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

/** `path` relative to the root ("." for the root), into `b`, escaped. */
static bool put_relative(struct snap_buf *b, const char *root, const char *path, size_t len)
{
    size_t skip = strlen(root);
    if (skip > len) {
        skip = len;
    }
    if (skip < len && path[skip] == '/') {
        skip++;
    }
    if (skip == len) {
        return snap_puts(b, ".");
    }
    return snap_escape(b, path + skip, len - skip);
}

/** The snapshot line of one entry (backup_snapshot.h). @return false without memory. */
static bool snapshot_line(const struct scan *sc, const struct frd_walk_entry *we,
                          struct snap_buf *b)
{
    const struct frd_entry *e = we->entry;
    char num[200];
    snprintf(num, sizeof(num),
             "\t%c\t%" PRIu64 "\t%" PRId64 "\t%" PRIo32 "\t%" PRIu32 "\t%" PRIu32 "\t%" PRIu64
             "\t%" PRIu64 "\t%" PRIu32 "\t",
             frd_type_letter(e->type), e->size, e->mtime_ns, e->mode & 07777u, e->uid, e->gid,
             e->dev, e->file_id, e->nlink);
    bool ok = put_relative(b, sc->root, we->path, we->path_len) && snap_puts(b, num);
    if (we->link_group == 0) {
        ok = ok && snap_puts(b, "-");
    } else if (we->link_first == NULL) {
        ok = ok && snap_puts(b, "=");
    } else {
        ok = ok && put_relative(b, sc->root, we->link_first, we->link_first_len);
    }
    ok = ok && snap_puts(b, "\t");
    if (we->link_target != NULL) {
        ok = ok && snap_escape(b, we->link_target, we->link_target_len);
    } else {
        ok = ok && snap_puts(b, "-");
    }
    ok = ok && snap_puts(b, "\t");
    if (we->xattr_count == 0) {
        ok = ok && snap_puts(b, "-");
    }
    for (size_t i = 0; ok && i < we->xattr_count; i++) {
        const struct frd_xattr *x = &we->xattrs[i];
        ok = (i == 0 || snap_puts(b, ",")) && snap_escape(b, x->name, x->name_len) &&
             snap_puts(b, "=");
        if (ok && x->too_long) {
            snprintf(num, sizeof(num), "!%zu", x->value_len);
            ok = snap_puts(b, num);
        }
        for (size_t k = 0; ok && !x->too_long && k < x->value_len; k++) {
            snprintf(num, sizeof(num), "%02x", ((const unsigned char *)x->value)[k]);
            ok = snap_puts(b, num);
        }
    }
    return ok;
}

/** --snapshot: one line per entry (the visits run on one thread: ordered walk). */
static enum frd_action snapshot_visit(const struct frd_walk_entry *we, void *udata)
{
    struct scan *sc = udata;
    if (we->entry->error < 0) {
        return FRD_ACTION_PRUNE; // reported to snapshot_error: skipped, listed at the end
    }
    struct snap_buf b = {0};
    if (!snapshot_line(sc, we, &b)) {
        free(b.s);
        atomic_store(&sc->out_of_memory, true);
        return FRD_ACTION_STOP;
    }
    if (!snap_add(&sc->now, b.s)) { // it freed the line
        atomic_store(&sc->out_of_memory, true);
        return FRD_ACTION_STOP;
    }
    return FRD_ACTION_CONTINUE;
}

/** --snapshot: each failure kept for the report at the end; the scan goes on. */
static enum frd_action snapshot_error(const struct frd_walk_error *err, void *udata)
{
    struct scan *sc = udata;
    atomic_fetch_add(&sc->errors, 1);
    const char *what = err->call == FRD_OP_OPEN || err->call == FRD_OP_READ_DIR ? "cannot read"
                       : err->call == FRD_OP_LOOP     ? "file system loop at"
                       : err->call == FRD_OP_READLINK ? "cannot read link"
                       : err->call == FRD_OP_XATTR    ? "cannot read attributes of"
                                                      : "cannot access";
    size_t n = strlen(err->path) + strlen(what) + 128;
    char *msg = malloc(n);
    if (msg != NULL) {
        snprintf(msg, n, "%s '%s': %s", what, err->path, frd_strerror(err->code));
        pthread_mutex_lock(&sc->lock);
        if (!snap_add(&sc->errors_seen, msg)) {
            atomic_store(&sc->out_of_memory, true);
        }
        if (err->call == FRD_OP_OPEN || err->call == FRD_OP_READ_DIR) {
            struct snap_buf b = {0};
            if (!put_relative(&b, sc->root, err->path, strlen(err->path))) {
                free(b.s);
                atomic_store(&sc->out_of_memory, true);
            } else if (!snap_add(&sc->unread, b.s)) { // it freed the line
                atomic_store(&sc->out_of_memory, true);
            }
        }
        pthread_mutex_unlock(&sc->lock);
    } else {
        atomic_store(&sc->out_of_memory, true);
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
    fprintf(stderr, "%s: %s '%s': %s\n", prog, what, err->path, frd_strerror(err->code));
    return FRD_ACTION_CONTINUE;
}

static const char usage_text[] =
    "usage: %s [-0] [-j N] [--exclude PATTERN]... ROOT\n"
    "       %s --snapshot FILE [-j N] [--exclude PATTERN]... ROOT\n"
    "List the regular files below ROOT, or with --snapshot record every entry in FILE and\n"
    "print what changed since FILE was last written.\n"
    "  -0                 end listed lines with NUL\n"
    "  -j N               walk with N threads\n"
    "      --exclude P    leave out names matching the shell pattern P\n"
    "      --snapshot F   incremental scan against the snapshot F, then replace F\n"
    "      --help         show this help\n"
    "      --version      show the version\n";

static int usage(void)
{
    fprintf(stderr, "Try '%s --help' for more information.\n", prog);
    return 2;
}

/**
 * --snapshot: walks `root`, prints the changes since the snapshot at `file` and replaces
 * it, then lists the errors. @return the exit status.
 */
static int run_snapshot(struct scan *sc, struct frd_walk_options *opts, const char *root,
                        const char *file)
{
    struct snap old = {0};
    if (snap_load(file, &old) < 0) {
        fprintf(stderr, "%s: cannot read snapshot '%s': %s\n", prog, file,
                errno == EINVAL ? "not a backup_scan snapshot" : strerror(errno));
        snap_free(&old);
        return 1;
    }
    sc->root = root;
    pthread_mutex_init(&sc->lock, NULL);
    // In walk order on one thread: hard-link groups' first links are the same every run.
    opts->flags = FRD_WALK_ORDERED | FRD_WALK_LINK_GROUPS | FRD_WALK_LINK_TARGETS | FRD_WALK_XATTRS;
    opts->fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_MTIME | FRD_FIELD_MODE |
                   FRD_FIELD_UID | FRD_FIELD_GID | FRD_FIELD_DEV | FRD_FIELD_FILE_ID |
                   FRD_FIELD_NLINK;
    opts->on_error = snapshot_error;
    int rc = frd_walk(root, opts, snapshot_visit, sc);
    int status = 0;
    bool oom = atomic_load(&sc->out_of_memory);
    if (rc < 0 || oom) {
        // A root that failed was listed by the hook (below); no snapshot of nothing.
        if (rc < 0 && !oom && atomic_load(&sc->errors) == 0) {
            fprintf(stderr, "%s: %s: %s\n", prog, root, frd_strerror(rc));
        }
        status = 1;
    } else if (snap_diff(&old, &sc->now, &sc->unread, stdout) < 0) {
        oom = true;
        status = 1;
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        // The changes were not all told: the old snapshot stays, the next run tells them.
        fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
        status = 1;
    } else if (snap_write(file, &sc->now) != 0) {
        fprintf(stderr, "%s: cannot write snapshot '%s': %s\n", prog, file, strerror(errno));
        status = 1;
    }
    if (oom) {
        fprintf(stderr, "%s: out of memory\n", prog);
    }
    size_t nerr = sc->errors_seen.n;
    if (nerr > 0) {
        fprintf(stderr, "%s: %zu %s, skipped:\n", prog, nerr, nerr == 1 ? "error" : "errors");
        for (size_t i = 0; i < nerr; i++) {
            fprintf(stderr, "%s: %s\n", prog, sc->errors_seen.lines[i]);
        }
        status = 1;
    }
    snap_free(&old);
    snap_free(&sc->now);
    snap_free(&sc->errors_seen);
    snap_free(&sc->unread);
    pthread_mutex_destroy(&sc->lock);
    return status;
}

int main(int argc, char **argv)
{
    if (argc > 0) {
        char *slash = strrchr(argv[0], '/');
        argv[0] = slash != NULL ? slash + 1 : argv[0]; // getopt's messages start with it too
        prog = argv[0];
    }
    struct scan sc = {.terminator = '\n'};
    sc.excludes = calloc((size_t)argc + 1, sizeof(*sc.excludes));
    if (sc.excludes == NULL) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 1;
    }
    struct frd_walk_options opts;
    frd_walk_options_init(&opts);
    const char *snapshot = NULL;
    static const struct option longs[] = {
        {"exclude", required_argument, NULL, 'x'},
        {"snapshot", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "0j:", longs, NULL)) != -1) {
        switch (c) {
        case '0':
            sc.terminator = '\0';
            break;
        case 'j':
            opts.workers = (unsigned)strtoul(optarg, NULL, 10);
            break;
        case 'x':
            sc.excludes[sc.nexcludes++] = optarg;
            break;
        case 's':
            snapshot = optarg;
            break;
        case 'h':
            free(sc.excludes);
            printf(usage_text, prog, prog);
            return fflush(stdout) == 0 ? 0 : 1;
        case 'V':
            free(sc.excludes);
            printf("%s (frd) %s\n", prog, FRD_VERSION_STRING);
            return fflush(stdout) == 0 ? 0 : 1;
        default:
            free(sc.excludes);
            return usage();
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "%s: %s\n", prog, optind == argc ? "missing ROOT" : "one ROOT only");
        free(sc.excludes);
        return usage();
    }
    const char *root = argv[optind];
    atomic_init(&sc.errors, 0);
    opts.on_children = scan_children;
    if (snapshot != NULL) {
        int status = run_snapshot(&sc, &opts, root, snapshot);
        free(sc.excludes);
        return status;
    }
    // Sorted output, and the visits on one thread: printf needs no lock.
    opts.flags = FRD_WALK_ORDERED;
    // Only what is printed (the type always comes along): no btime, no attributes, ...
    opts.fields = FRD_FIELD_SIZE | FRD_FIELD_MTIME | FRD_FIELD_UID | FRD_FIELD_MODE;
    opts.on_error = scan_error;
    int rc = frd_walk(root, &opts, scan_visit, &sc);
    free(sc.excludes);
    // With an error hook that always continues: a root that could not be walked (the hook
    // printed it: not twice), out of memory, bad options.
    if (rc < 0) {
        if (atomic_load(&sc.errors) == 0) {
            fprintf(stderr, "%s: %s\n", prog, frd_strerror(rc));
        }
        return 1;
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
        return 1;
    }
    return atomic_load(&sc.errors) > 0 ? 1 : 0;
}
