// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of races with a thread that changes the tree under the walk: stable entries
 * reported once, and a directory swapped for a symlink never leads outside the root.
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

/* ---- Races ---- */

struct churn {
    char *root;
    atomic_bool stop;
};

static void *churn_main(void *arg)
{
    struct churn *c = arg;
    char path[4096];
    unsigned i = 0;
    while (!atomic_load(&c->stop)) {
        snprintf(path, sizeof(path), "%s/churn/c%u", c->root, i % 50);
        if (i % 3 == 0) {
            mkdir(path, 0755);
        } else if (i % 3 == 1) {
            char f[4200];
            snprintf(f, sizeof(f), "%s/f", path);
            int fd = open(f, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
            if (fd >= 0) {
                close(fd);
            }
        } else {
            char f[4200];
            snprintf(f, sizeof(f), "%s/f", path);
            unlink(f);
            rmdir(path);
        }
        i++;
    }
    return NULL;
}

static void test_walk_tree_mutated_during_walk_reports_stable_entries_once(void **state)
{
    (void)state;
    char *root = tree_make_root();
    make_big_fanout(root, "stable", 10, 20);
    tree_dir(root, "churn");
    struct churn ch = {.root = root};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, churn_main, &ch), 0);
    struct recs want;
    recs_init(&want);
    char sroot[4096];
    snprintf(sroot, sizeof(sroot), "%s/stable", root);
    find_recs("", sroot, "", REC_NAMES, &want);
    recs_sort(&want);
    for (int round = 0; round < 20; round++) {
        struct frd_walk_options o;
        walk_opts(&o, round % 2 ? FRD_WALK_NAMES_ONLY : 0);
        struct rec_ctx c;
        rec_ctx_init(&c, REC_NAMES);
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        recs_sort(&c.recs);
        // Every stable entry exactly once (the churning ones may or may not appear).
        size_t j = 0;
        for (size_t i = 0; i < want.n; i++) {
            while (j < c.recs.n && strcmp(c.recs.v[j], want.v[i]) < 0) {
                j++;
            }
            assert_true(j < c.recs.n);
            assert_string_equal(c.recs.v[j], want.v[i]);
            assert_true(j + 1 == c.recs.n || strcmp(c.recs.v[j + 1], want.v[i]) != 0);
        }
        rec_ctx_free(&c);
    }
    atomic_store(&ch.stop, true);
    pthread_join(t, NULL);
    recs_free(&want);
    tree_remove(root);
}

struct swapper {
    char *root;
    atomic_bool stop;
};

/** Swaps root/s/d (a directory) with a symlink to "/" over and over, atomically. */
static void *swap_main(void *arg)
{
    struct swapper *s = arg;
    char d[4096], dsave[4096], lnk[4096];
    snprintf(d, sizeof(d), "%s/s/d", s->root);
    snprintf(dsave, sizeof(dsave), "%s/s/dsave", s->root);
    snprintf(lnk, sizeof(lnk), "%s/s/lnk", s->root);
    while (!atomic_load(&s->stop)) {
        if (rename(d, dsave) == 0) {
            rename(lnk, d); // d is now a link to /
            rename(d, lnk);
            rename(dsave, d);
        }
    }
    return NULL;
}

struct escape_ctx {
    const char *root;
    size_t root_len;
    atomic_int escapes;
};

static enum frd_action escape_visit(const struct frd_walk_entry *we, void *udata)
{
    struct escape_ctx *e = udata;
    // Everything under root/s/d is named x*, y* or d itself; a name of "/" would be an
    // escape (usr, proc, etc, ...).
    const char *rel = we->path + e->root_len;
    if (strncmp(we->path, e->root, e->root_len) != 0) {
        atomic_fetch_add(&e->escapes, 1);
    } else if (strncmp(rel, "/s/d/", 5) == 0) {
        const char *last = strrchr(rel, '/') + 1;
        if (last[0] != 'x' && last[0] != 'y') {
            atomic_fetch_add(&e->escapes, 1);
        }
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_swapped_dir_symlink_race_never_escapes_root(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "s");
    tree_dir(root, "s/d");
    for (int i = 0; i < 8; i++) {
        char rel[64];
        snprintf(rel, sizeof(rel), "s/d/x%d", i);
        tree_dir(root, rel);
        snprintf(rel, sizeof(rel), "s/d/x%d/y", i);
        tree_file(root, rel, 1);
    }
    tree_symlink(root, "/", "s/lnk");
    struct swapper sw = {.root = root};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, swap_main, &sw), 0);
    struct escape_ctx e = {.root = root, .root_len = strlen(root)};
    for (int i = 0; i < 1000; i++) {
        struct frd_walk_options o;
        walk_opts(&o, (i % 2 ? FRD_WALK_NAMES_ONLY : 0) | (i % 3 == 0 ? FRD_WALK_ORDERED : 0));
        o.fd_budget = i % 5 == 0 ? 1 : 0; // also through the reopen-by-path fallback
        assert_int_equal(frd_walk(root, &o, escape_visit, &e), 0);
    }
    atomic_store(&sw.stop, true);
    pthread_join(t, NULL);
    assert_int_equal(atomic_load(&e.escapes), 0);
    tree_remove(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_tree_mutated_during_walk_reports_stable_entries_once),
        cmocka_unit_test(test_walk_swapped_dir_symlink_race_never_escapes_root),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_races", tests, group_setup, group_teardown);
}
