// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The spec tree of the walker tests that run on every platform (test_walk_portable.c; on
 * Windows also test_walk_win.c): a table of entries (Unicode names, hidden ones, a fan of
 * directories) made with the tree support, and a recorder that checks each visit's path,
 * depth, name and fields and compares the set with the table.
 */
#ifndef FRD_TESTS_WALK_SPEC_H
#define FRD_TESTS_WALK_SPEC_H

#include "frd.h"
#include "tree.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include <cmocka.h>

/** What the test makes below its root. Type 'd' or 'f'; size for files. */
static const struct spec {
    const char *rel; /**< relative path, '/' between components */
    char type;
    unsigned size;
} spec[] = {
    {"regular", 'f', 1234},
    {"empty", 'f', 0},
    {"big file", 'f', 70000},
    {".hidden", 'f', 3},
    {".hiddendir", 'd', 0},
    {".hiddendir/inside", 'f', 1},
    {"attrhidden", 'f', 4}, // FILE_ATTRIBUTE_HIDDEN, but no dot: not skipped
    {"dir", 'd', 0},
    {"dir/file", 'f', 5},
    {"dir/sub", 'd', 0},
    {"dir/sub/deeper", 'd', 0},
    {"dir/sub/deeper/leaf", 'f', 10},
    {"dir/.dotsub", 'd', 0},
    {"dir/.dotsub/x", 'f', 2},
    {"caf\xc3\xa9", 'f', 6},                             // é
    {"\xe2\x82\xac uro", 'd', 0},                        // €
    {"\xe2\x82\xac uro/\xf0\x9f\x98\x80 smile", 'f', 7}, // U+1F600: a surrogate pair
    {"\xe2\x82\xac uro/\xf0\x9d\x84\x9e clef", 'd', 0},  // U+1D11E
    {"\xe2\x82\xac uro/\xf0\x9d\x84\x9e clef/z", 'f', 8},
    {"\xd0\x94\xd0\xbe\xd0\xba\xd1\x83\xd0\xbc\xd0\xb5\xd0\xbd\xd1\x82\xd1\x8b", 'd',
     0}, // Документы
    {"\xd0\x94\xd0\xbe\xd0\xba\xd1\x83\xd0\xbc\xd0\xb5\xd0\xbd\xd1\x82\xd1\x8b/"
     "\xe6\x97\xa5\xe6\x9c\xac",
     'f', 9}, // 日本
};
#define SPEC_N (sizeof(spec) / sizeof(spec[0]))

/** The fan: FAN_DIRS directories of FAN_FILES files, enough for workers to share. */
#define FAN_DIRS  8
#define FAN_FILES 25

/** A growable, lock-protected array of strings (visits come from several threads). */
struct recs {
    uv_mutex_t lock;
    char **v;
    size_t n;
    size_t cap;
};

static inline void recs_init(struct recs *r)
{
    memset(r, 0, sizeof(*r));
    assert_int_equal(uv_mutex_init(&r->lock), 0);
}

static inline void recs_add(struct recs *r, const char *s)
{
    uv_mutex_lock(&r->lock);
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 256;
        r->v = realloc(r->v, r->cap * sizeof(*r->v));
        assert_non_null(r->v);
    }
    size_t len = strlen(s);
    char *copy = malloc(len + 1);
    assert_non_null(copy);
    memcpy(copy, s, len + 1);
    r->v[r->n++] = copy;
    uv_mutex_unlock(&r->lock);
}

static inline void recs_free(struct recs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i]);
    }
    free(r->v);
    uv_mutex_destroy(&r->lock);
    memset(r, 0, sizeof(*r));
}

static inline int recs_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/** Asserts two record sets are equal (sorting both); prints the first differences. */
static inline void recs_assert_equal(struct recs *got, struct recs *want, const char *what)
{
    if (got->n > 1) { // an empty set has no array: qsort() takes none
        qsort(got->v, got->n, sizeof(*got->v), recs_cmp);
    }
    if (want->n > 1) {
        qsort(want->v, want->n, sizeof(*want->v), recs_cmp);
    }
    size_t i = 0;
    size_t j = 0;
    int shown = 0;
    while ((i < got->n || j < want->n) && shown < 10) {
        int c = i == got->n ? 1 : j == want->n ? -1 : strcmp(got->v[i], want->v[j]);
        if (c == 0) {
            i++;
            j++;
            continue;
        }
        shown++;
        if (c < 0) {
            print_error("%s: only in the walk: %s\n", what, got->v[i++]);
        } else {
            print_error("%s: missing from the walk: %s\n", what, want->v[j++]);
        }
    }
    if (shown > 0 || got->n != want->n) {
        print_error("%s: walk %lu records, expected %lu\n", what, (unsigned long)got->n,
                    (unsigned long)want->n);
        fail();
    }
}

static inline unsigned rel_depth(const char *rel)
{
    unsigned d = 1;
    for (const char *p = rel; *p; p++) {
        d += *p == '/';
    }
    return d;
}

static inline bool rel_hidden(const char *rel)
{
    for (const char *p = rel; *p; p++) {
        if (*p == '.' && (p == rel || p[-1] == '/')) {
            return true;
        }
    }
    return false;
}

/** What to record of an entry. */
enum rec_mode { REC_FULL, REC_NAMES };

/** Formats "rel\ttype[\tsize]" (no size for directories, whose size Windows leaves open). */
static inline void rec_format(char *buf, size_t cap, const char *rel, char type, uint64_t size,
                              enum rec_mode m)
{
    int n;
    if (m == REC_NAMES || type == 'd') {
        n = snprintf(buf, cap, "%s\t%c", rel, type);
    } else {
        n = snprintf(buf, cap, "%s\t%c\t%" PRIu64, rel, type, size);
    }
    assert_true(n > 0 && (size_t)n < cap);
}

/** Every spec and fan entry within the depths, as rec_format() writes them. */
static inline void expected(struct recs *out, enum rec_mode m, unsigned min_depth,
                            unsigned max_depth, bool skip_hidden)
{
    char buf[512];
    char rel[64];
    for (size_t i = 0; i < SPEC_N; i++) {
        unsigned d = rel_depth(spec[i].rel);
        if (d >= min_depth && d <= max_depth && !(skip_hidden && rel_hidden(spec[i].rel))) {
            rec_format(buf, sizeof(buf), spec[i].rel, spec[i].type, spec[i].size, m);
            recs_add(out, buf);
        }
    }
    for (int d = 0; d < FAN_DIRS; d++) {
        snprintf(rel, sizeof(rel), "fan/d%02d", d);
        if (2 >= min_depth && 2 <= max_depth) {
            rec_format(buf, sizeof(buf), rel, 'd', 0, m);
            recs_add(out, buf);
        }
        for (int f = 0; f < FAN_FILES && 3 >= min_depth && 3 <= max_depth; f++) {
            snprintf(rel, sizeof(rel), "fan/d%02d/f%03d", d, f);
            rec_format(buf, sizeof(buf), rel, 'f', (uint64_t)(f % 7), m);
            recs_add(out, buf);
        }
    }
    if (1 >= min_depth && 1 <= max_depth) {
        rec_format(buf, sizeof(buf), "fan", 'd', 0, m);
        recs_add(out, buf);
    }
}

/**
 * Makes the spec tree (spec[] and the fan) under a new root. @return the root (tree_remove()
 * it); *entries: the entries below it.
 */
static inline char *walk_spec_make(size_t *entries)
{
    char *tree = tree_make_root();
    for (size_t i = 0; i < SPEC_N; i++) {
        if (spec[i].type == 'd') {
            tree_dir(tree, spec[i].rel);
        } else {
            tree_file(tree, spec[i].rel, spec[i].size);
        }
    }
    tree_hide(tree, "attrhidden");
    tree_dir(tree, "fan");
    char rel[64];
    for (int d = 0; d < FAN_DIRS; d++) {
        snprintf(rel, sizeof(rel), "fan/d%02d", d);
        tree_dir(tree, rel);
        for (int f = 0; f < FAN_FILES; f++) {
            snprintf(rel, sizeof(rel), "fan/d%02d/f%03d", d, f);
            tree_file(tree, rel, (size_t)(f % 7));
        }
    }
    *entries = SPEC_N + 1 + FAN_DIRS * (1 + FAN_FILES);
    return tree;
}

/** Worker count of the walks that do not set their own: FRD_TEST_WORKERS, else 2. */
static inline unsigned test_workers(void)
{
    const char *s = getenv("FRD_TEST_WORKERS");
    long n = s != NULL ? strtol(s, NULL, 10) : 0;
    return n > 0 && n <= 256 ? (unsigned)n : 2;
}

static inline void walk_opts(struct frd_walk_options *o, unsigned flags)
{
    frd_walk_options_init(o);
    o->flags = flags;
    o->workers = test_workers();
}

/* ---- Recording visits ---- */

/** A visit recorder: checks each path against the root and records it relative to it. */
struct rec_ctx {
    const char *root; /**< the root as passed to the walk */
    size_t root_len;
    size_t prefix; /**< bytes of root + separator before a relative path */
    enum rec_mode mode;
    struct recs recs;
    struct recs errors; /**< "path\tcode\top" */
    atomic_int roots;   /**< visits of the root itself */
    atomic_int bad;     /**< visits whose path, name, depth or fields were wrong */
    /** Ordered mode on a spent handle budget passes no parent handle (frd.h). */
    bool parent_fd_optional;
};

static inline void rec_init(struct rec_ctx *c, const char *root, enum rec_mode m)
{
    memset(c, 0, sizeof(*c));
    c->root = root;
    c->root_len = strlen(root);
    char last = root[c->root_len - 1];
    c->prefix = c->root_len + (last == '/' || last == '\\' ? 0 : 1);
    c->mode = m;
    recs_init(&c->recs);
    recs_init(&c->errors);
}

static inline void rec_free(struct rec_ctx *c)
{
    recs_free(&c->recs);
    recs_free(&c->errors);
}

static inline enum frd_action rec_visit(const struct frd_walk_entry *we, void *udata)
{
    struct rec_ctx *c = udata;
    const struct frd_entry *e = we->entry;
    if (we->depth == 0) {
        bool ok = we->is_root && strcmp(we->path, c->root) == 0 &&
                  we->parent_fd == FRD_INVALID_FD && e->type == FRD_TYPE_DIR;
        atomic_fetch_add(ok ? &c->roots : &c->bad, 1);
        return FRD_ACTION_CONTINUE;
    }
    // Below the root: root as given, then one '/' unless it ends in a separator, then the
    // relative path; its last component is the entry's name.
    const char *rel = we->path + c->prefix;
    size_t rel_len = we->path_len - c->prefix;
    bool ok = we->path_len > c->prefix && memcmp(we->path, c->root, c->root_len) == 0 &&
              (c->prefix == c->root_len || we->path[c->root_len] == '/') &&
              strlen(we->path) == we->path_len && rel_depth(rel) == we->depth && !we->is_root &&
              (we->parent_fd != FRD_INVALID_FD || c->parent_fd_optional) && e->error == 0 &&
              e->name_len <= rel_len && strcmp(rel + rel_len - e->name_len, e->name) == 0 &&
              (e->name_len == rel_len || rel[rel_len - e->name_len - 1] == '/');
    if (c->mode == REC_NAMES) {
        ok = ok && e->fields == FRD_FIELD_TYPE;
    } else {
        unsigned need = FRD_FIELD_TYPE | FRD_FIELD_SIZE | FRD_FIELD_MTIME | FRD_FIELD_DEV;
        ok = ok && (e->fields & need) == need;
    }
    if (!ok) {
        print_error("bad visit: %s (depth %u, name %s)\n", we->path, we->depth, e->name);
        atomic_fetch_add(&c->bad, 1);
    }
    char type = e->type == FRD_TYPE_DIR ? 'd' : e->type == FRD_TYPE_REG ? 'f' : 'l';
    char buf[1024];
    rec_format(buf, sizeof(buf), rel, type, e->size, c->mode);
    recs_add(&c->recs, buf);
    return FRD_ACTION_CONTINUE;
}

static inline enum frd_action rec_error(const struct frd_walk_error *err, void *udata)
{
    struct rec_ctx *c = udata;
    char buf[1024];
    snprintf(buf, sizeof(buf), "%s\t%s\t%s", err->path, frd_err_name(err->code), err->op);
    recs_add(&c->errors, buf);
    return FRD_ACTION_CONTINUE;
}

/** Walks `root` and checks the visits against the expected set. */
static inline void assert_walk_gives(const char *root, struct frd_walk_options *o,
                                     unsigned min_depth, unsigned max_depth, const char *what)
{
    enum rec_mode m = (o->flags & FRD_WALK_NAMES_ONLY) ? REC_NAMES : REC_FULL;
    struct rec_ctx c;
    rec_init(&c, root, m);
    c.parent_fd_optional = (o->flags & FRD_WALK_ORDERED) && o->fd_budget != 0;
    o->on_error = rec_error;
    assert_int_equal(frd_walk(root, o, rec_visit, &c), 0);
    assert_int_equal(c.errors.n, 0);
    assert_int_equal(atomic_load(&c.bad), 0);
    assert_int_equal(atomic_load(&c.roots), o->min_depth == 0 ? 1 : 0);
    struct recs want;
    recs_init(&want);
    expected(&want, m, min_depth, max_depth, (o->flags & FRD_WALK_SKIP_HIDDEN) != 0);
    recs_assert_equal(&c.recs, &want, what);
    recs_free(&want);
    rec_free(&c);
}

/** A visit that records each path (udata: a struct recs). */
static inline enum frd_action path_visit(const struct frd_walk_entry *we, void *udata)
{
    recs_add(udata, we->path);
    return FRD_ACTION_CONTINUE;
}

/** Compares two relative paths component by component in byte order (find -s order). */
static inline int path_order(const char *a, const char *b)
{
    for (;;) {
        size_t la = strcspn(a, "/");
        size_t lb = strcspn(b, "/");
        int c = memcmp(a, b, la < lb ? la : lb);
        if (c != 0) {
            return c;
        }
        if (la != lb) {
            return la < lb ? -1 : 1;
        }
        if (a[la] == '\0' || b[lb] == '\0') {
            return (a[la] != '\0') - (b[lb] != '\0');
        }
        a += la + 1;
        b += lb + 1;
    }
}

static inline int path_order_qsort(const void *a, const void *b)
{
    return path_order(*(char *const *)a, *(char *const *)b);
}

/** The worker counts the set tests walk at within each run. */
static const unsigned worker_counts[] = {1, 2, 8};

#endif // FRD_TESTS_WALK_SPEC_H
