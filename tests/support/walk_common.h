// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Helpers of the walker tests: the generated tree, collecting visits, running GNU find,
 *  comparing the two, a child process as uid 65534. */
#ifndef FRD_TESTS_WALK_COMMON_H
#define FRD_TESTS_WALK_COMMON_H

#include "frd.h"
#include "platform.h"
#include "tree.h"

#include <grp.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

/** Worker count of every walk in these tests: FRD_TEST_WORKERS, or 2 by default. */
static inline unsigned test_workers(void)
{
    const char *s = getenv("FRD_TEST_WORKERS");
    if (s == NULL || *s == '\0') {
        return 2;
    }
    long n = strtol(s, NULL, 10);
    return n > 0 && n <= 256 ? (unsigned)n : 2;
}

/** A growable, lock-protected array of formatted records ("path\ty\tsize\tmtime\tino"). */
struct recs {
    pthread_mutex_t lock;
    char **v;
    size_t n;
    size_t cap;
};

static inline void recs_init(struct recs *r)
{
    memset(r, 0, sizeof(*r));
    pthread_mutex_init(&r->lock, NULL);
}

static inline void recs_add(struct recs *r, const char *s, size_t len)
{
    pthread_mutex_lock(&r->lock);
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->v = realloc(r->v, r->cap * sizeof(*r->v));
        assert_non_null(r->v);
    }
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, s, len);
    copy[len] = '\0';
    r->v[r->n++] = copy;
    pthread_mutex_unlock(&r->lock);
}

static inline void recs_free(struct recs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i]);
    }
    free(r->v);
    pthread_mutex_destroy(&r->lock);
    memset(r, 0, sizeof(*r));
}

static inline int recs_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void recs_sort(struct recs *r)
{
    if (r->n > 1) { // (an empty set has no array: qsort() may not be given NULL)
        qsort(r->v, r->n, sizeof(*r->v), recs_cmp);
    }
}

/**
 * Defines, in a test file, `tree` (the generated tree of walk_tree_make(), which the file's
 * tests share) and the cmocka group hooks group_setup() and group_teardown() that make it
 * once and remove it.
 */
#define WALK_GROUP_TREE()                   \
    static char *tree;                      \
    static int group_setup(void **state)    \
    {                                       \
        (void)state;                        \
        tree = walk_tree_make();            \
        return 0;                           \
    }                                       \
    static int group_teardown(void **state) \
    {                                       \
        (void)state;                        \
        tree_remove(tree);                  \
        return 0;                           \
    }

/** Are two record sets equal after sorting? (Prints nothing.) */
static inline bool recs_equal(struct recs *a, struct recs *b)
{
    recs_sort(a);
    recs_sort(b);
    if (a->n != b->n) {
        return false;
    }
    for (size_t i = 0; i < a->n; i++) {
        if (strcmp(a->v[i], b->v[i]) != 0) {
            return false;
        }
    }
    return true;
}

/** Asserts two record sets are equal after sorting; prints the first difference. */
static inline void recs_assert_equal(struct recs *a, struct recs *b, const char *what)
{
    recs_sort(a);
    recs_sort(b);
    size_t i = 0;
    size_t j = 0;
    int shown = 0;
    while ((i < a->n || j < b->n) && shown < 10) {
        int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i], b->v[j]);
        if (c == 0) {
            i++;
            j++;
            continue;
        }
        shown++;
        if (c < 0) {
            print_error("%s: only in walk: %s\n", what, a->v[i++]);
        } else {
            print_error("%s: only in find: %s\n", what, b->v[j++]);
        }
    }
    if (shown > 0 || a->n != b->n) {
        print_error("%s: walk %zu records, find %zu\n", what, a->n, b->n);
        fail();
    }
}

/** What to record of each visited entry. */
enum rec_mode { REC_FULL, REC_NAMES };

/** Formats a record the way find_recs() asks find to print it. */
static inline size_t rec_format(char *buf, size_t cap, const struct frd_walk_entry *we,
                                enum rec_mode m)
{
    const struct frd_entry *e = we->entry;
    int n;
    if (m == REC_NAMES) {
        n = snprintf(buf, cap, "%s\t%c", we->path, frd_type_letter(e->type));
    } else {
        n = snprintf(buf, cap, "%s\t%c\t%" PRIu64 "\t%" PRId64 ".%09" PRId64 "0\t%" PRIu64,
                     we->path, frd_type_letter(e->type), e->size, e->mtime_ns / 1000000000,
                     e->mtime_ns % 1000000000, e->file_id);
    }
    assert_true(n > 0 && (size_t)n < cap);
    return (size_t)n;
}

/** Runs a shell command and splits its stdout at NUL bytes into records. */
static inline void run_recs(const char *cmd, struct recs *out)
{
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getdelim(&line, &cap, '\0', f)) > 0) {
        if (line[n - 1] == '\0') {
            n--;
        }
        recs_add(out, line, (size_t)n);
    }
    free(line);
    int st = pclose(f);
    (void)st; // find's status: 1 after unreadable directories, which some tests expect
}

/** find ROOT with `args`, printing records as rec_format() does (NUL-terminated). */
static inline void find_recs(const char *opts, const char *root, const char *args, enum rec_mode m,
                             struct recs *out)
{
    char cmd[8192];
    const char *fmt = m == REC_NAMES ? "%p\\t%y\\0" : "%p\\t%y\\t%s\\t%T@\\t%i\\0";
    int n = snprintf(cmd, sizeof(cmd), "LC_ALL=C find %s '%s' %s -printf '%s' 2>/dev/null", opts,
                     root, args, fmt);
    assert_true(n > 0 && (size_t)n < sizeof(cmd));
    run_recs(cmd, out);
}

/** A visit callback that records entries; udata is a struct rec_ctx. */
struct rec_ctx {
    struct recs recs;
    enum rec_mode mode;
    struct recs errors; /**< "path\tcode\top" of each error */
};

static inline enum frd_action rec_visit(const struct frd_walk_entry *we, void *udata)
{
    struct rec_ctx *c = udata;
    char buf[8192];
    size_t n = rec_format(buf, sizeof(buf), we, c->mode);
    recs_add(&c->recs, buf, n);
    return FRD_ACTION_CONTINUE;
}

static inline enum frd_action rec_error(const struct frd_walk_error *err, void *udata)
{
    struct rec_ctx *c = udata;
    char buf[8192];
    int n = snprintf(buf, sizeof(buf), "%s\t%s\t%s%s%s", err->path, frd_err_name(err->code),
                     err->op, err->other_path ? "\t" : "", err->other_path ? err->other_path : "");
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    recs_add(&c->errors, buf, (size_t)n);
    return FRD_ACTION_CONTINUE;
}

static inline void rec_ctx_init(struct rec_ctx *c, enum rec_mode m)
{
    recs_init(&c->recs);
    recs_init(&c->errors);
    c->mode = m;
}

static inline void rec_ctx_free(struct rec_ctx *c)
{
    recs_free(&c->recs);
    recs_free(&c->errors);
}

static inline void walk_opts(struct frd_walk_options *o, unsigned flags)
{
    frd_walk_options_init(o);
    o->flags = flags;
    o->workers = test_workers();
}

/** Walks `root` with the given options and compares the records with find's. */
static inline void assert_walk_matches_find(const char *root, const struct frd_walk_options *o,
                                            const char *find_opts, const char *find_args)
{
    struct rec_ctx c;
    enum rec_mode m = (o->flags & FRD_WALK_NAMES_ONLY) ? REC_NAMES : REC_FULL;
    rec_ctx_init(&c, m);
    struct frd_walk_options oo = *o;
    oo.on_error = rec_error;
    assert_int_equal(frd_walk(root, &oo, rec_visit, &c), 0);
    struct recs f;
    recs_init(&f);
    find_recs(find_opts, root, find_args, m, &f);
    recs_assert_equal(&c.recs, &f, root);
    recs_free(&f);
    rec_ctx_free(&c);
}

/**
 * Lays out the u-boot tree from tests/data (tests/data/materialize-tree) COPIES times under
 * PARENT/NAME, which must not exist. Returns PARENT/NAME (free it).
 */
static inline char *materialize_uboot_copies(const char *parent, const char *name, unsigned copies)
{
    size_t len = strlen(parent) + strlen(name) + 2;
    char *dest = malloc(len);
    assert_non_null(dest);
    snprintf(dest, len, "%s/%s", parent, name);
    char cmd[8192];
    int n = snprintf(cmd, sizeof(cmd),
                     "python3 '%s/tests/data/materialize-tree' '%s/tests/data/u-boot.tsv.gz' "
                     "'%s' %u >/dev/null",
                     FRD_SOURCE_DIR, FRD_SOURCE_DIR, dest, copies);
    assert_true(n > 0 && (size_t)n < sizeof(cmd));
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return dest;
}

/** Lays out one u-boot tree under PARENT/u-boot. Returns the path (free it). */
static inline char *materialize_uboot(const char *parent)
{
    return materialize_uboot_copies(parent, "u-boot", 1);
}

/** Makes `dir` under root with `dirs` directories of `files` files each (sizes 0 to 6). */
static inline void make_big_fanout(const char *root, const char *dir, int dirs, int files)
{
    tree_dir(root, dir);
    char rel[512];
    for (int d = 0; d < dirs; d++) {
        snprintf(rel, sizeof(rel), "%s/d%02d", dir, d);
        tree_dir(root, rel);
        for (int f = 0; f < files; f++) {
            snprintf(rel, sizeof(rel), "%s/d%02d/f%03d", dir, d, f);
            tree_file(root, rel, (size_t)(f % 7));
        }
    }
}

/**
 * The generated tree most walker suites walk: files, hidden entries, a directory chain,
 * links (to a file, dangling, to a directory), a fifo, a socket, a hard link, names with a
 * newline, bytes that are not UTF-8 and a tab, and a fan of 20 directories of 30 files.
 * @return its root (tree_remove() it).
 */
static inline char *walk_tree_make(void)
{
    char *tree = tree_make_root();
    chmod(tree, 0755);
    tree_file(tree, "regular", 1234);
    tree_file(tree, ".hidden", 3);
    tree_dir(tree, ".hiddendir");
    tree_file(tree, ".hiddendir/inside", 1);
    tree_dir(tree, "dir");
    tree_dir(tree, "dir/sub");
    tree_dir(tree, "dir/sub/deeper");
    tree_file(tree, "dir/sub/deeper/leaf", 10);
    tree_file(tree, "dir/file", 5);
    tree_symlink(tree, "regular", "link");
    tree_symlink(tree, "/nonexistent/target", "dangling");
    tree_symlink(tree, "dir", "dirlink");
    tree_fifo(tree, "fifo");
    tree_socket(tree, "socket");
    char *a = tree_path(tree, "regular");
    char *b = tree_path(tree, "dir/hardlink");
    assert_int_equal(link(a, b), 0);
    free(a);
    free(b);
    tree_file(tree, "new\nline", 1);
    tree_file(tree, "bad\xff\xfeutf8", 2);
    tree_dir(tree, "tab\tdir");
    tree_file(tree, "tab\tdir/x", 0);
    make_big_fanout(tree, "fan", 20, 30);
    return tree;
}

/** In a child process: becomes uid and gid 65534 with no groups, or exits with status 3. */
static inline void become_nobody(void)
{
    if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0 || getuid() != 65534) {
        _exit(3);
    }
}

/** Waits for a child process. @return its wait status. */
static inline int wait_child(pid_t pid)
{
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

/** The portable backend (FRD_BACKEND=posix) cannot tell file system types: every volume is
 *  untrusted there, so nothing is deduplicated and the Linux table does not apply. */
static inline bool backend_classifies_volumes(void)
{
    return frd__plat_classify_fs_type(0xEF53) != FRD__VOL_UNTRUSTED;
}

#endif // FRD_TESTS_WALK_COMMON_H
