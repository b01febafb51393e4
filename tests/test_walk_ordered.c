// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of the ordered mode: the same output at any worker count, a large directory's
 * byte order, each directory's listing order, trees deeper than the pre-order labels, and a
 * walk that keeps no directory open.
 * FRD_TEST_WORKERS sets the worker count (ctest runs each walker suite at 1, 2 and 8).
 */
#include "internal.h"
#include "platform.h"
#include "sched/sched.h"
#include "tree.h"
#include "walk_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <uv.h>

WALK_GROUP_TREE() // tree, group_setup(), group_teardown()

/* ---- Ordered and post-order ---- */

static enum frd_action path_visit(const struct frd_walk_entry *we, void *udata)
{
    struct recs *r = udata;
    recs_add(r, we->path, we->path_len);
    return FRD_ACTION_CONTINUE;
}

/** Compares two paths component by component in byte order (find -s order). */
static int path_order(const char *a, const char *b)
{
    for (;;) {
        size_t la = strcspn(a, "/");
        size_t lb = strcspn(b, "/");
        size_t n = la < lb ? la : lb;
        int c = memcmp(a, b, n);
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

static int path_order_qsort(const void *a, const void *b)
{
    return path_order(*(char *const *)a, *(char *const *)b);
}

/** The reference for ordered walks: find's output under root, sorted component by
 *  component (find -s order), into r (initialized here). */
static void find_in_s_order(const char *root, struct recs *r)
{
    recs_init(r);
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "find '%s' -print0", root);
    run_recs(cmd, r);
    qsort(r->v, r->n, sizeof(*r->v), path_order_qsort);
}

static void test_walk_ordered_output_identical_at_1_2_8_workers(void **state)
{
    (void)state;
    struct recs runs[4];
    unsigned workers[] = {1, 2, 8, test_workers()};
    for (int i = 0; i < 4; i++) {
        recs_init(&runs[i]);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY);
        o.workers = workers[i];
        assert_int_equal(frd_walk(tree, &o, path_visit, &runs[i]), 0);
    }
    struct recs f;
    find_in_s_order(tree, &f);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(runs[i].n, f.n);
        for (size_t j = 0; j < f.n; j++) {
            assert_string_equal(runs[i].v[j], f.v[j]);
        }
        recs_free(&runs[i]);
    }
    recs_free(&f);
}

/** A large directory (many kernel batches) whose names share their first 17 bytes, differ
 *  in length, and some hold bytes past 0x7f: made in an order unlike the names'. */
#define PREFIX_N 30000

/** Name i of that directory into buf; its size is i % 5. */
static void prefix_name(char *buf, size_t cap, size_t i)
{
    static const char *const tails[] = {"", "_z", "\xc3\xa9", "-"};
    snprintf(buf, cap, "same-first-bytes-%zu%s", (i * 7919) % PREFIX_N, tails[i % 4]);
}

struct prefix_seen {
    struct recs names; // the entries directly in the directory, in visit order
    size_t bad_size;
    const size_t *index_of; // the number in a name -> its i
    size_t sized;           // entries that came with their size
};

static enum frd_action prefix_visit(const struct frd_walk_entry *we, void *udata)
{
    struct prefix_seen *s = udata;
    if (we->depth != 1) {
        return FRD_ACTION_CONTINUE;
    }
    const struct frd_entry *e = we->entry;
    recs_add(&s->names, e->name, e->name_len);
    if (e->fields & FRD_FIELD_SIZE) {
        size_t num = strtoul(e->name + 17, NULL, 10);
        s->sized++;
        s->bad_size += num >= PREFIX_N || e->size != s->index_of[num] % 5;
    }
    return FRD_ACTION_CONTINUE;
}

/** The ordered mode on a directory read in many batches: its runs are sorted and merged
 *  while it is read and merged again chunk by chunk; names that tie on their first bytes
 *  and names that are prefixes of others come in byte order, each once, with every field,
 *  names only, and with the size alone (stat'ed ahead), at 1, 2 and 8 workers. */
static void test_walk_ordered_large_directory_shared_prefixes_in_byte_order(void **state)
{
    (void)state;
    char *root = tree_make_root();
    char name[64];
    struct recs want;
    recs_init(&want);
    size_t *index_of = calloc(PREFIX_N, sizeof(*index_of));
    assert_non_null(index_of);
    int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dfd >= 0);
    for (size_t i = 0; i < PREFIX_N; i++) {
        prefix_name(name, sizeof(name), i);
        int f = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        assert_int_equal(ftruncate(f, (off_t)(i % 5)), 0);
        close(f);
        recs_add(&want, name, strlen(name));
        index_of[(i * 7919) % PREFIX_N] = i;
    }
    close(dfd);
    recs_sort(&want); // strcmp: byte order
    unsigned workers[] = {1, 2, 8};
    for (int w = 0; w < 3; w++) {
        // Every field; names only; type and size only (the size stat'ed ahead, while listed).
        for (int mode = 0; mode < 3; mode++) {
            struct prefix_seen s = {.index_of = index_of};
            recs_init(&s.names);
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_ORDERED | (mode == 1 ? FRD_WALK_NAMES_ONLY : 0));
            if (mode == 2) {
                o.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE;
            }
            o.workers = workers[w];
            assert_int_equal(frd_walk(root, &o, prefix_visit, &s), 0);
            assert_int_equal(s.names.n, want.n);
            for (size_t i = 0; i < want.n; i++) {
                assert_string_equal(s.names.v[i], want.v[i]);
            }
            assert_int_equal(s.bad_size, 0);
            assert_int_equal(s.sized, mode == 1 ? 0 : PREFIX_N);
            recs_free(&s.names);
        }
    }
    recs_free(&want);
    free(index_of);
    tree_remove(root);
}

/** The reference for FRD_WALK_LISTING_ORDER: `path` and below, depth first, each directory's
 *  entries in readdir()'s order (the kernel's, as getdents64 gives it), into r. */
static void readdir_order(const char *path, struct recs *r)
{
    recs_add(r, path, strlen(path));
    DIR *d = opendir(path);
    if (d == NULL) {
        return; // not a directory (or a link to one: not followed)
    }
    struct dirent *de;
    char sub[4096];
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
            continue;
        }
        int n = snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
        assert_true(n > 0 && (size_t)n < sizeof(sub));
        if (de->d_type == DT_DIR) {
            readdir_order(sub, r);
        } else {
            recs_add(r, sub, (size_t)n);
        }
    }
    closedir(d);
}

/** A children hook that leaves the listing as it is (the walk then stats after it). */
static void keep_all_hook(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    (void)dir;
    (void)kids;
    (void)udata;
}

/** The paths of a walk, and how many of its entries came without their size. */
struct listed_ctx {
    struct recs paths;
    size_t unsized;
};

static enum frd_action listed_visit(const struct frd_walk_entry *we, void *udata)
{
    struct listed_ctx *x = udata;
    recs_add(&x->paths, we->path, we->path_len);
    x->unsized += !(we->entry->fields & FRD_FIELD_SIZE);
    return FRD_ACTION_CONTINUE;
}

/** FRD_WALK_LISTING_ORDER: the ordered walk in each directory's own order (on this file
 *  system unlike the names', one directory read in many batches), the same as readdir's
 *  depth first, at 1, 2 and 8 workers, names only, with every field (each entry stat'ed),
 *  and through a children hook. */
static void test_walk_ordered_listing_order_is_readdir_order(void **state)
{
    (void)state;
    char *root = tree_make_root();
    char rel[64];
    tree_dir(root, "big");
    for (int i = 0; i < 3000; i++) {
        snprintf(rel, sizeof(rel), "big/entry-with-a-longish-name-%04d", (i * 7919) % 3000);
        tree_file(root, rel, 0);
    }
    for (int i = 0; i < 40; i++) {
        snprintf(rel, sizeof(rel), "d%02d", (i * 17) % 40);
        tree_dir(root, rel);
        snprintf(rel, sizeof(rel), "d%02d/f%02d", (i * 17) % 40, i);
        tree_file(root, rel, 1);
        snprintf(rel, sizeof(rel), "d%02d/g", (i * 17) % 40);
        tree_dir(root, rel);
    }
    struct recs want, by_name;
    recs_init(&want);
    readdir_order(root, &want);
    find_in_s_order(root, &by_name);
    size_t same_as_names = 0;
    for (size_t j = 0; j < want.n; j++) {
        same_as_names += strcmp(want.v[j], by_name.v[j]) == 0;
    }
    assert_true(same_as_names < want.n); // else the test could not tell the orders apart
    unsigned workers[] = {1, 2, 8};
    for (int w = 0; w < 3; w++) {
        for (int mode = 0; mode < 3; mode++) {
            struct listed_ctx x = {.unsized = 0};
            recs_init(&x.paths);
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_ORDERED | FRD_WALK_LISTING_ORDER |
                              (mode == 0 ? FRD_WALK_NAMES_ONLY : 0));
            o.workers = workers[w];
            if (mode == 2) {
                o.on_children = keep_all_hook;
            }
            assert_int_equal(frd_walk(root, &o, listed_visit, &x), 0);
            assert_int_equal(x.paths.n, want.n);
            for (size_t j = 0; j < want.n; j++) {
                assert_string_equal(x.paths.v[j], want.v[j]);
            }
            // Every entry stat'ed where the walk wants fields: names only, none.
            assert_int_equal(x.unsized, mode == 0 ? want.n : 0);
            recs_free(&x.paths);
        }
    }
    recs_free(&by_name);
    recs_free(&want);
    tree_remove(root);
}

/** Levels of the deep tree below, and entries in each of its directories. */
#define LABEL_LEVELS  48
#define LABEL_ENTRIES 40

/**
 * The ordered mode past the end of its pre-order labels: a chain 48 deep whose directories
 * hold 40 entries each (6 bits of label a level, so labels run out near depth 21 and nodes
 * below compare by their ancestors), two of them subdirectories (the chain, a sibling with a
 * file), the others files whose names share their first 8 or 16 bytes, are 8 or 16 bytes
 * long, or a prefix of another. At 1, 2 and 8 workers, names only and with every field:
 * find's output, sorted component by component, every time. (The output's order is the
 * consumer's; the labels order the listing work: Debug builds check each comparison of two
 * labels against the order of the nodes' ancestors.)
 */
static void test_walk_ordered_deep_tree_past_its_labels_in_find_s_order(void **state)
{
    (void)state;
    static const char *const names[] = {
        "abcdefgh",
        "abcdefg",
        "abcdefghi",
        "abcdefgh-same16",
        "abcdefgh-same16!",
        "abcdefgh-same16",
        "abcdefgh-same17x",
        "abcdefgh-same16z",
        "\xc3\xa9t\xc3\xa9",
        "z",
        "Z",
        "0",
    };
    char *root = tree_make_root();
    int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dfd >= 0);
    char name[64];
    for (int level = 0; level < LABEL_LEVELS; level++) {
        for (int i = 0; i < LABEL_ENTRIES - 2; i++) {
            size_t nnames = sizeof(names) / sizeof(names[0]);
            if ((size_t)i < nnames) {
                snprintf(name, sizeof(name), "%s", names[i]);
            } else {
                snprintf(name, sizeof(name), "%s%02d", names[(size_t)i % nnames], i);
            }
            int f = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
            if (f < 0 && errno == EEXIST) {
                continue;
            }
            assert_true(f >= 0);
            close(f);
        }
        assert_int_equal(mkdirat(dfd, "abcdefgh-side", 0755), 0);
        int side = openat(dfd, "abcdefgh-side", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(side >= 0);
        int f = openat(side, "leaf", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        close(f);
        close(side);
        assert_int_equal(mkdirat(dfd, "abcdefgh-down", 0755), 0);
        int down = openat(dfd, "abcdefgh-down", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(down >= 0);
        close(dfd);
        dfd = down;
    }
    close(dfd);
    struct recs want;
    find_in_s_order(root, &want);
    assert_true(want.n > (size_t)LABEL_LEVELS * LABEL_ENTRIES / 2);
    unsigned workers[] = {1, 2, 8};
    for (int w = 0; w < 3; w++) {
        for (int names_only = 0; names_only < 2; names_only++) {
            struct recs got;
            recs_init(&got);
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_ORDERED | (names_only ? FRD_WALK_NAMES_ONLY : 0));
            o.workers = workers[w];
            assert_int_equal(frd_walk(root, &o, path_visit, &got), 0);
            assert_int_equal(got.n, want.n);
            for (size_t i = 0; i < want.n; i++) {
                assert_string_equal(got.v[i], want.v[i]);
            }
            recs_free(&got);
        }
    }
    recs_free(&want);
    tree_remove(root);
}

/** Descriptors this process has open now (those of /proc/self/fd's own listing not counted). */
static int open_fd_count(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n - 1;
}

/** A chain of `depth` directories "d" below root, with a file "f" in each. */
static void make_chain(const char *root, unsigned depth)
{
    char rel[1024] = "c";
    size_t len = 1;
    tree_dir(root, rel);
    for (unsigned i = 0; i < depth; i++) {
        memcpy(rel + len, "/d", 3);
        len += 2;
        tree_dir(root, rel);
        memcpy(rel + len, "/f", 3);
        tree_file(root, rel, 1);
        rel[len] = '\0';
    }
}

struct nofd_ctx {
    struct recs events; /**< "V path" and "D path" in the order of the calls */
    int baseline;       /**< descriptors open before the walk */
    int max_open;       /**< most descriptors open at any call, beyond the baseline */
    bool any_parent_fd; /**< a callback below a root got a valid parent_fd */
};

static void nofd_call(struct nofd_ctx *x, char tag, const struct frd_walk_entry *we)
{
    char buf[1200];
    int n = snprintf(buf, sizeof(buf), "%c %s", tag, we->path);
    recs_add(&x->events, buf, (size_t)n);
    int open = open_fd_count() - x->baseline;
    x->max_open = open > x->max_open ? open : x->max_open;
    x->any_parent_fd |= !we->is_root && we->parent_fd != FRD_INVALID_FD;
}

static enum frd_action nofd_visit(const struct frd_walk_entry *we, void *udata)
{
    nofd_call(udata, 'V', we);
    return FRD_ACTION_CONTINUE;
}

static void nofd_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *t,
                      void *udata)
{
    (void)t;
    nofd_call(udata, 'D', dir);
}

static void nofd_walk(const char *root, unsigned flags, unsigned workers, struct nofd_ctx *x)
{
    recs_init(&x->events);
    x->baseline = open_fd_count();
    x->max_open = 0;
    x->any_parent_fd = false;
    struct frd_walk_options o;
    walk_opts(&o, flags);
    o.workers = workers;
    o.on_dir_done = nofd_done;
    assert_int_equal(frd_walk(root, &o, nofd_visit, x), 0);
}

/*
 * FRD_WALK_NO_PARENT_FD: the same calls in the same order as without it, no valid parent_fd
 * in any of them, and in ordered mode no directory held open for them: on a chain 200 deep
 * the walk without the flag holds a descriptor per level at the bottom (its frames keep
 * them for the visits' parent_fd), with it a few per thread at most.
 */
static void test_walk_ordered_no_parent_fd_keeps_no_directory_open(void **state)
{
    (void)state;
    char *root = tree_make_root();
    make_chain(root, 200);
    unsigned workers[] = {1, 2, 8};
    for (size_t k = 0; k < sizeof(workers) / sizeof(workers[0]); k++) {
        struct nofd_ctx with, without;
        nofd_walk(root, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY, workers[k], &without);
        nofd_walk(root, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY | FRD_WALK_NO_PARENT_FD, workers[k],
                  &with);
        assert_int_equal(with.events.n, without.events.n);
        assert_int_equal(with.events.n,
                         2 * 2 + 3 * 200); // root and c, V and D; d, f, D d per level
        for (size_t i = 0; i < with.events.n; i++) {
            assert_string_equal(with.events.v[i], without.events.v[i]);
        }
        assert_true(without.any_parent_fd);
        assert_false(with.any_parent_fd);
        assert_true(without.max_open > 150);
        assert_true(with.max_open <= 2 * (int)workers[k] + 2);
        recs_free(&with.events);
        recs_free(&without.events);
    }
    // Concurrent mode: the same entries, none with a parent_fd.
    struct nofd_ctx with, without;
    nofd_walk(root, FRD_WALK_NAMES_ONLY, 2, &without);
    nofd_walk(root, FRD_WALK_NAMES_ONLY | FRD_WALK_NO_PARENT_FD, 2, &with);
    assert_int_equal(with.events.n, without.events.n);
    assert_true(without.any_parent_fd);
    assert_false(with.any_parent_fd);
    recs_free(&with.events);
    recs_free(&without.events);
    tree_remove(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_ordered_output_identical_at_1_2_8_workers),
        cmocka_unit_test(test_walk_ordered_large_directory_shared_prefixes_in_byte_order),
        cmocka_unit_test(test_walk_ordered_listing_order_is_readdir_order),
        cmocka_unit_test(test_walk_ordered_deep_tree_past_its_labels_in_find_s_order),
        cmocka_unit_test(test_walk_ordered_no_parent_fd_keeps_no_directory_open),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_ordered", tests, group_setup, group_teardown);
}
