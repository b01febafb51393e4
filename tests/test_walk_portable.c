// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests that run on every platform (ctest walk_portable_wN; on Windows under Wine by
 * tests/run-windows.sh): the spec tree (tests/support/walk_spec.h) is walked and every visit
 * is checked against the table it was made from, by relative path, type and size; then each
 * option, prune, stop and cancel, ordered and post-order visits, the descriptor budget,
 * Unicode names. Paths: the root as given, then '/' joins (frd.h, struct frd_walk_entry).
 * FRD_TEST_WORKERS sets the worker count of the walks that set none (1, 2 and 8 in ctest).
 */
#include "platform.h"
#include "tree.h"
#include "walk_spec.h"

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

static char *tree;          // the spec tree, made once for the group
static size_t tree_entries; // entries below the root

static int group_setup(void **state)
{
    (void)state;
    tree = walk_spec_make(&tree_entries);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    tree_remove(tree);
    return 0;
}

/* ---- The expected set ---- */

static void test_walk_full_walk_gives_expected_set_at_1_2_8_workers(void **state)
{
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        for (int ordered = 0; ordered < 2; ordered++) {
            struct frd_walk_options o;
            walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
            o.workers = worker_counts[i];
            assert_walk_gives(tree, &o, 1, 99, "full");
        }
    }
}

static void test_walk_names_only_gives_names_and_types_at_1_2_8_workers(void **state)
{
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY);
        o.workers = worker_counts[i];
        assert_walk_gives(tree, &o, 1, 99, "names only");
    }
}

static void test_walk_depth_limits_select_levels(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    o.min_depth = 2;
    o.max_depth = 3;
    assert_walk_gives(tree, &o, 2, 3, "depth 2-3");
    o.min_depth = 1;
    o.max_depth = 1;
    assert_walk_gives(tree, &o, 1, 1, "depth 1");
    o.min_depth = 0;
    o.max_depth = 0;
    assert_walk_gives(tree, &o, 1, 0, "depth 0"); // the root alone
    o.flags |= FRD_WALK_ORDERED;
    o.min_depth = 3;
    o.max_depth = -1;
    assert_walk_gives(tree, &o, 3, 99, "ordered, depth 3-");
}

static void test_walk_root_ending_in_separator_joins_once(void **state)
{
    (void)state;
    size_t n = strlen(tree);
    char *root = malloc(n + 2);
    assert_non_null(root);
    memcpy(root, tree, n);
    for (int k = 0; k < 2; k++) {
        if (k == 0 && !FRD_HAS_BACKSLASH_SEPARATOR) {
            continue; // '\\' separates components on Windows only
        }
        root[n] = k == 0 ? '\\' : '/';
        root[n + 1] = '\0';
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY);
        assert_walk_gives(root, &o, 1, 99, "root ending in a separator");
        o.flags |= FRD_WALK_ORDERED;
        assert_walk_gives(root, &o, 1, 99, "ordered, root ending in a separator");
        struct frd_list *list;
        assert_int_equal(frd_list_new(&list), 0);
        assert_int_equal(frd_read_tree(root, FRD_WALK_NAMES_ONLY, list), (int)tree_entries);
        const struct frd_entry *v = frd_list_entries(list);
        for (size_t i = 0; i < tree_entries; i++) {
            assert_true(v[i].name[0] != '/' && v[i].name[0] != '\\');
        }
        frd_list_free(list);
    }
    free(root);
}

static void test_walk_skip_hidden_leaves_dot_entries_out(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        // "attrhidden" has the hidden attribute but no dot: the flag is about names.
        walk_opts(&o, FRD_WALK_SKIP_HIDDEN | (ordered ? FRD_WALK_ORDERED : 0));
        assert_walk_gives(tree, &o, 1, 99, "skip hidden");
    }
}

static void test_walk_small_handle_budget_reopens_along_ancestors(void **state)
{
    (void)state;
    // A budget of one keeps no directory handle for the children: each directory is opened
    // again from the root, one component at a time, relative to the handle before it.
    for (size_t i = 0; i < 3; i++) {
        for (int ordered = 0; ordered < 2; ordered++) {
            struct frd_walk_options o;
            walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
            o.workers = worker_counts[i];
            o.fd_budget = 1;
            print_message("budget 1: %u workers, ordered %d\n", o.workers, ordered);
            assert_walk_gives(tree, &o, 1, 99, "handle budget 1");
        }
    }
}

static void test_walk_read_tree_gives_relative_paths(void **state)
{
    (void)state;
    for (int names = 0; names < 2; names++) {
        struct frd_list *list;
        assert_int_equal(frd_list_new(&list), 0);
        int n = frd_read_tree(tree, names ? FRD_WALK_NAMES_ONLY : 0, list);
        assert_int_equal(n, (int)tree_entries);
        struct recs got;
        recs_init(&got);
        const struct frd_entry *v = frd_list_entries(list);
        for (int i = 0; i < n; i++) {
            char buf[1024];
            char type = v[i].type == FRD_TYPE_DIR ? 'd' : v[i].type == FRD_TYPE_REG ? 'f' : 'l';
            assert_int_equal(strlen(v[i].name), v[i].name_len);
            rec_format(buf, sizeof(buf), v[i].name, type, v[i].size, names ? REC_NAMES : REC_FULL);
            recs_add(&got, buf);
        }
        struct recs want;
        recs_init(&want);
        expected(&want, names ? REC_NAMES : REC_FULL, 1, 99, false);
        recs_assert_equal(&got, &want, "read_tree");
        recs_free(&want);
        recs_free(&got);
        char *missing = tree_path(tree, "no such dir");
        assert_int_equal(frd_read_tree(missing, 0, list), FRD_ENOENT);
        free(missing);
        frd_list_free(list);
    }
}

/* ---- Prune, stop, cancel ---- */

static enum frd_action prune_visit(const struct frd_walk_entry *we, void *udata)
{
    rec_visit(we, udata);
    return strcmp(we->entry->name, "dir") == 0 || strcmp(we->entry->name, "fan") == 0
               ? FRD_ACTION_PRUNE
               : FRD_ACTION_CONTINUE;
}

static void test_walk_prune_skips_children(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        struct rec_ctx c;
        rec_init(&c, tree, REC_NAMES);
        assert_int_equal(frd_walk(tree, &o, prune_visit, &c), 0);
        assert_int_equal(atomic_load(&c.bad), 0);
        struct recs want;
        recs_init(&want);
        struct recs all;
        recs_init(&all);
        expected(&all, REC_NAMES, 1, 99, false);
        for (size_t i = 0; i < all.n; i++) {
            if (strncmp(all.v[i], "dir/", 4) != 0 && strncmp(all.v[i], "fan/", 4) != 0) {
                recs_add(&want, all.v[i]);
            }
        }
        recs_assert_equal(&c.recs, &want, "prune");
        recs_free(&all);
        recs_free(&want);
        rec_free(&c);
    }
}

struct stop_ctx {
    atomic_int visits;
    atomic_bool stop_returned; /**< set by the stopping callback just before it returns */
    atomic_int after_stop;     /**< callbacks that began after that */
    int stop_at;
};

static enum frd_action stop_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct stop_ctx *s = udata;
    if (atomic_load(&s->stop_returned)) {
        atomic_fetch_add(&s->after_stop, 1);
    }
    int n = atomic_fetch_add(&s->visits, 1) + 1;
    if (n == s->stop_at) {
        atomic_store(&s->stop_returned, true);
        return FRD_ACTION_STOP;
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_stop_ends_walk_with_estopped(void **state)
{
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        for (int ordered = 0; ordered < 2; ordered++) {
            struct frd_walk_options o;
            walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
            o.workers = worker_counts[i];
            struct stop_ctx s = {.stop_at = 10};
            assert_int_equal(frd_walk(tree, &o, stop_visit, &s), FRD_ESTOPPED);
            assert_true(atomic_load(&s.visits) >= 10);
            if (ordered || o.workers == 1) {
                // One thread runs the callbacks: none may begin after the stop.
                assert_int_equal(atomic_load(&s.after_stop), 0);
                assert_int_equal(atomic_load(&s.visits), 10);
            } else {
                // Callbacks that other workers began before the stop took hold may finish,
                // but no directory is listed after it: far fewer than the tree's entries.
                assert_true(atomic_load(&s.visits) < 10 + 64 * (int)o.workers);
            }
        }
    }
}

/** Callbacks that all return FRD_ACTION_STOP together, once `from` visits were made: each
 *  waits (2 s at most) until `together` are inside at once. */
struct stop_together_ctx {
    atomic_int visits;
    atomic_int inside;
    int from;
    int together;
};

static enum frd_action stop_together_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct stop_together_ctx *s = udata;
    if (atomic_fetch_add(&s->visits, 1) < s->from) {
        return FRD_ACTION_CONTINUE;
    }
    atomic_fetch_add(&s->inside, 1);
    for (int ms = 0; ms < 2000 && atomic_load(&s->inside) < s->together; ms++) {
        uv_sleep(1);
    }
    return FRD_ACTION_STOP;
}

/*
 * Workers whose callbacks return FRD_ACTION_STOP at the same time each stop the walk from
 * inside a run of visits that holds their in-callback mark (walker/sched/threads.c): each
 * stop waits for the others' marks, so each worker clears its own first, or the two wait
 * for each other for ever. The walk ends, stopped, names only (visited in place) and with
 * every field (visited from lists).
 */
static void test_walk_workers_stopping_at_once_end_the_walk(void **state)
{
    (void)state;
    for (size_t i = 1; i < 3; i++) {
        for (int names = 0; names < 2; names++) {
            struct frd_walk_options o;
            walk_opts(&o, names ? FRD_WALK_NAMES_ONLY : 0);
            o.workers = worker_counts[i];
            struct stop_together_ctx s = {.from = 8, .together = 2};
            assert_int_equal(frd_walk(tree, &o, stop_together_visit, &s), FRD_ESTOPPED);
            assert_true(atomic_load(&s.inside) >= 1);
        }
    }
}

struct cancel_ctx {
    atomic_bool cancelled; /**< set by the test thread once frd_walk_cancel() has returned */
    atomic_int late;       /**< callbacks that began after that */
    atomic_int visits;
    atomic_bool started;
};

static enum frd_action cancel_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct cancel_ctx *c = udata;
    if (atomic_load(&c->cancelled)) {
        atomic_fetch_add(&c->late, 1);
    }
    atomic_fetch_add(&c->visits, 1);
    atomic_store(&c->started, true);
    uv_sleep(1); // slow the walk down so that the cancel lands in the middle
    return FRD_ACTION_CONTINUE;
}

static void test_walk_cancel_from_another_thread_stops_callbacks(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        struct cancel_ctx c;
        memset(&c, 0, sizeof(c));
        struct frd_walk *walk;
        const char *roots[] = {tree};
        assert_int_equal(frd_walk_start(&walk, roots, 1, &o, cancel_visit, &c), 0);
        while (!atomic_load(&c.started)) {
            uv_sleep(1);
        }
        frd_walk_cancel(walk);
        atomic_store(&c.cancelled, true);
        frd_walk_cancel(walk); // twice is fine
        assert_int_equal(frd_walk_join(walk), FRD_ECANCELED);
        assert_int_equal(atomic_load(&c.late), 0);
        assert_true(atomic_load(&c.visits) < (int)tree_entries);
    }
}

/* ---- Ordered and post-order ---- */

static void test_walk_ordered_gives_exact_sorted_order_at_1_2_8_workers(void **state)
{
    (void)state;
    // The expected sequence: the root, then every relative path sorted component-wise.
    struct recs want;
    recs_init(&want);
    expected(&want, REC_NAMES, 1, 99, false);
    for (size_t i = 0; i < want.n; i++) {
        *strchr(want.v[i], '\t') = '\0';
    }
    qsort(want.v, want.n, sizeof(*want.v), path_order_qsort);
    size_t prefix = strlen(tree) + 1;
    for (size_t i = 0; i < 3; i++) {
        for (int names = 0; names < 2; names++) {
            struct recs got;
            recs_init(&got);
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_ORDERED | (names ? FRD_WALK_NAMES_ONLY : 0));
            o.workers = worker_counts[i];
            assert_int_equal(frd_walk(tree, &o, path_visit, &got), 0);
            assert_int_equal(got.n, want.n + 1);
            assert_string_equal(got.v[0], tree);
            for (size_t j = 0; j < want.n; j++) {
                assert_string_equal(got.v[j + 1] + prefix, want.v[j]);
            }
            recs_free(&got);
        }
    }
    recs_free(&want);
}

struct post_ctx {
    uv_mutex_t lock;
    struct recs events; /**< "V path" and "D path", in the order they happened */
    atomic_int bad;
};

static enum frd_action post_visit(const struct frd_walk_entry *we, void *udata)
{
    struct post_ctx *p = udata;
    char buf[1024];
    snprintf(buf, sizeof(buf), "V %s", we->path);
    uv_mutex_lock(&p->lock); // so that the order of events is the order of the calls
    recs_add(&p->events, buf);
    uv_mutex_unlock(&p->lock);
    return FRD_ACTION_CONTINUE;
}

static void post_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *t,
                      void *udata)
{
    struct post_ctx *p = udata;
    if (dir->entry->type != FRD_TYPE_DIR) {
        atomic_fetch_add(&p->bad, 1);
    }
    (void)t;
    char buf[1024];
    snprintf(buf, sizeof(buf), "D %s", dir->path);
    uv_mutex_lock(&p->lock);
    recs_add(&p->events, buf);
    uv_mutex_unlock(&p->lock);
}

static void test_walk_post_order_after_all_descendants(void **state)
{
    (void)state;
    size_t dirs = 1 + 1 + FAN_DIRS; // the root and the fan
    for (size_t i = 0; i < SPEC_N; i++) {
        dirs += spec[i].type == 'd';
    }
    for (int ordered = 0; ordered < 2; ordered++) {
        struct post_ctx p;
        memset(&p, 0, sizeof(p));
        assert_int_equal(uv_mutex_init(&p.lock), 0);
        recs_init(&p.events);
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        o.on_dir_done = post_done;
        assert_int_equal(frd_walk(tree, &o, post_visit, &p), 0);
        assert_int_equal(atomic_load(&p.bad), 0);
        // Each directory is done once, after its own visit and every visit below it.
        size_t done = 0;
        for (size_t i = 0; i < p.events.n; i++) {
            const char *e = p.events.v[i];
            if (e[0] != 'D') {
                continue;
            }
            done++;
            const char *path = e + 2;
            size_t len = strlen(path);
            bool visited = false;
            for (size_t j = 0; j < i; j++) {
                visited |= p.events.v[j][0] == 'V' && strcmp(p.events.v[j] + 2, path) == 0;
            }
            assert_true(visited);
            for (size_t j = i + 1; j < p.events.n; j++) {
                const char *x = p.events.v[j] + 2;
                bool below_or_same = strncmp(x, path, len) == 0 && (x[len] == '/' || !x[len]);
                assert_false(below_or_same);
            }
        }
        assert_int_equal(done, dirs);
        recs_free(&p.events);
        uv_mutex_destroy(&p.lock);
    }
}

/* ---- Errors ---- */

static void test_walk_missing_root_goes_to_error_hook(void **state)
{
    (void)state;
    char *missing = tree_path(tree, "no such dir");
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        o.on_error = rec_error;
        struct rec_ctx c;
        // With a hook the failure reaches the hook once, and the walk still returns it
        // (a walk of nothing is no walk of an empty tree), whatever the hook said;
        // FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY: the hook alone, the walk returns 0.
        for (int hook_only = 0; hook_only < 2; hook_only++) {
            o.flags = (ordered ? FRD_WALK_ORDERED : 0) |
                      (hook_only ? FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY : 0);
            rec_init(&c, missing, REC_FULL);
            assert_int_equal(frd_walk(missing, &o, rec_visit, &c), hook_only ? 0 : FRD_ENOENT);
            assert_int_equal(c.recs.n, 0);
            assert_int_equal(atomic_load(&c.roots), 0);
            assert_int_equal(c.errors.n, 1);
            char want[1024];
            snprintf(want, sizeof(want), "%s\tENOENT\tstat", missing);
            assert_string_equal(c.errors.v[0], want);
            rec_free(&c);
        }
    }
    // A file is not a directory to walk: visited as the root, nothing below it.
    char *file = tree_path(tree, "regular");
    struct frd_walk_options o;
    walk_opts(&o, 0);
    struct recs got;
    recs_init(&got);
    assert_int_equal(frd_walk(file, &o, path_visit, &got), 0);
    assert_int_equal(got.n, 1);
    assert_string_equal(got.v[0], file);
    recs_free(&got);
    free(file);
    free(missing);
}

static void test_walk_bad_arguments_are_einval(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    assert_int_equal(frd_walk(NULL, &o, path_visit, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk(tree, &o, NULL, NULL), FRD_EINVAL);
    o.flags = 1u << 30;
    assert_int_equal(frd_walk(tree, &o, path_visit, NULL), FRD_EINVAL);
    walk_opts(&o, 0);
    o.min_depth = -1;
    assert_int_equal(frd_walk(tree, &o, path_visit, NULL), FRD_EINVAL);
    walk_opts(&o, 0);
    o.follow = (enum frd_follow)7;
    assert_int_equal(frd_walk(tree, &o, path_visit, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_roots(NULL, 0, NULL, path_visit, NULL), FRD_EINVAL);
    assert_int_equal(frd_read_tree(tree, FRD_WALK_ORDERED, NULL), FRD_EINVAL);
    // A missing root without an error hook: the walk's result says it (with one, the hook
    // hears it once: test_walk_missing_root_goes_to_error_hook).
    char *missing = tree_path(tree, "no such dir");
    walk_opts(&o, 0);
    struct recs got;
    recs_init(&got);
    assert_int_equal(frd_walk(missing, &o, path_visit, &got), FRD_ENOENT);
    assert_int_equal(got.n, 0);
    recs_free(&got);
    free(missing);
}

/* ---- Names, identity, reparse points ---- */

static void test_walk_unicode_names_round_trip(void **state)
{
    (void)state;
    // Every non-ASCII name of the table appears byte for byte (covered by the set tests);
    // here a Unicode root: the walk's paths start with it exactly as given.
    char *root = tree_path(tree, "\xe2\x82\xac uro");
    struct recs got;
    recs_init(&got);
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_ORDERED);
    assert_int_equal(frd_walk(root, &o, path_visit, &got), 0);
    assert_int_equal(got.n, 4);
    char want[1024];
    assert_string_equal(got.v[0], root);
    snprintf(want, sizeof(want), "%s/\xf0\x9d\x84\x9e clef", root);
    assert_string_equal(got.v[1], want);
    snprintf(want, sizeof(want), "%s/\xf0\x9d\x84\x9e clef/z", root);
    assert_string_equal(got.v[2], want);
    snprintf(want, sizeof(want), "%s/\xf0\x9f\x98\x80 smile", root);
    assert_string_equal(got.v[3], want);
    recs_free(&got);
    free(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_full_walk_gives_expected_set_at_1_2_8_workers),
        cmocka_unit_test(test_walk_names_only_gives_names_and_types_at_1_2_8_workers),
        cmocka_unit_test(test_walk_depth_limits_select_levels),
        cmocka_unit_test(test_walk_root_ending_in_separator_joins_once),
        cmocka_unit_test(test_walk_skip_hidden_leaves_dot_entries_out),
        cmocka_unit_test(test_walk_small_handle_budget_reopens_along_ancestors),
        cmocka_unit_test(test_walk_read_tree_gives_relative_paths),
        cmocka_unit_test(test_walk_prune_skips_children),
        cmocka_unit_test(test_walk_stop_ends_walk_with_estopped),
        cmocka_unit_test(test_walk_workers_stopping_at_once_end_the_walk),
        cmocka_unit_test(test_walk_cancel_from_another_thread_stops_callbacks),
        cmocka_unit_test(test_walk_ordered_gives_exact_sorted_order_at_1_2_8_workers),
        cmocka_unit_test(test_walk_post_order_after_all_descendants),
        cmocka_unit_test(test_walk_missing_root_goes_to_error_hook),
        cmocka_unit_test(test_walk_bad_arguments_are_einval),
        cmocka_unit_test(test_walk_unicode_names_round_trip),
    };
    return cmocka_run_group_tests_name("walk_portable", tests, group_setup, group_teardown);
}
