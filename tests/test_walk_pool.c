// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's adaptive pool (walker/sched/): at the default worker count it starts more
 * workers while listings block, and none while they do not; callbacks keep indices below the
 * CPU-sized count, never two at once on one index, however wide the pool; explicit worker
 * counts and the ordered mode keep a fixed pool. Blocking is declared by a test hook
 * (frd__test_pool_blocked) or made real by a stat that sleeps (frd__test_before_stat), and
 * the assertions are on the pool's counters (frd__test_pool_done), never on time.
 */
#include "internal.h"
#include "platform.h"
#include "sched/sched.h"
#include "tree.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

#include <cmocka.h>

#define DIRS    48
#define SUBDIRS 4
#define FILES   3

static char *tree;

static struct frd__pool_stats last; // copied by the done hook
static int hook_verdict;            // what frd__test_pool_blocked answers

static void on_done(const struct frd__pool_stats *st)
{
    last.base = st->base;
    last.max = st->max;
    last.started = st->started;
    last.peak = st->peak;
    atomic_store(&last.widenings, atomic_load(&st->widenings));
}

static int verdict(void)
{
    return hook_verdict;
}

/** Per callback index: in a callback now (must never be 2), and the highest index seen. */
struct counts {
    atomic_int busy[64];
    atomic_uint max_index;
    atomic_uint visits;
    atomic_uint hooks; /**< children hook calls */
    atomic_bool overlap;
};

static void enter(struct counts *c, unsigned index)
{
    unsigned seen = atomic_load(&c->max_index);
    while (index > seen && !atomic_compare_exchange_weak(&c->max_index, &seen, index)) {
    }
    if (index < 64 && atomic_fetch_add(&c->busy[index], 1) != 0) {
        atomic_store(&c->overlap, true);
    }
}

static void leave(struct counts *c, unsigned index)
{
    if (index < 64) {
        atomic_fetch_sub(&c->busy[index], 1);
    }
}

static enum frd_action visit(const struct frd_walk_entry *we, void *udata)
{
    struct counts *c = udata;
    enter(c, we->worker);
    atomic_fetch_add(&c->visits, 1);
    leave(c, we->worker);
    return FRD_ACTION_CONTINUE;
}

static void post(const struct frd_walk_entry *we, const struct frd_walk_dir_totals *totals,
                 void *udata)
{
    (void)totals;
    struct counts *c = udata;
    enter(c, we->worker);
    leave(c, we->worker);
}

/** The children hook: counted with the other callbacks (index, overlap). */
static void children(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    (void)kids;
    struct counts *c = udata;
    enter(c, dir->worker);
    atomic_fetch_add(&c->hooks, 1);
    leave(c, dir->worker);
}

/** Every entry of the tree: the root, DIRS dirs, their subdirs and files. */
static unsigned tree_entries(void)
{
    return 1 + DIRS * (1 + SUBDIRS * (1 + FILES));
}

static int setup(void **state)
{
    (void)state;
    tree = tree_make_root();
    char rel[64];
    for (int d = 0; d < DIRS; d++) {
        snprintf(rel, sizeof(rel), "d%02d", d);
        tree_dir(tree, rel);
        for (int s = 0; s < SUBDIRS; s++) {
            snprintf(rel, sizeof(rel), "d%02d/s%d", d, s);
            tree_dir(tree, rel);
            for (int f = 0; f < FILES; f++) {
                snprintf(rel, sizeof(rel), "d%02d/s%d/f%d", d, s, f);
                tree_file(tree, rel, 1);
            }
        }
    }
    frd__test_pool_done = on_done;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    frd__test_pool_done = NULL;
    frd__test_pool_blocked = NULL;
    frd__test_before_stat = NULL;
    tree_remove(tree);
    return 0;
}

/** Walks the tree with `workers` and `flags`, post-order on, and the children hook if
 *  `hooked` (FRD_WALK_CHILDREN_PARTS in flags: in parts); checks the visits and slots. */
static void walk_hooked(unsigned workers, unsigned flags, bool hooked)
{
    memset(&last, 0, sizeof(last));
    struct counts *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.workers = workers;
    o.flags = flags;
    o.on_dir_done = post;
    o.on_children = hooked ? children : NULL;
    assert_int_equal(frd_walk(tree, &o, visit, c), 0);
    assert_int_equal(atomic_load(&c->visits), tree_entries());
    if (hooked) {
        assert_true(atomic_load(&c->hooks) >= 1 + DIRS * (1 + SUBDIRS)); // a call per directory
    }
    assert_false(atomic_load(&c->overlap));
    assert_true(last.base > 0);
    assert_true(atomic_load(&c->max_index) < last.base);
    free(c);
}

static void walk_checked(unsigned workers, unsigned flags)
{
    walk_hooked(workers, flags, false);
}

static void widens_when_listings_block(void **state)
{
    (void)state;
    hook_verdict = 1;
    frd__test_pool_blocked = verdict;
    walk_checked(0, 0);
    frd__test_pool_blocked = NULL;
    assert_true(last.max > last.base);
    assert_true(last.started > last.base);
    assert_true(last.started <= last.max);
    assert_true(last.peak > last.base);
    assert_true(atomic_load(&last.widenings) > 0);
}

/** The children hook, whole or in parts, keeps its index below the base when widened too
 *  (a hook in parts ran with no slot once: index UINT32_MAX, and frdfind's -exclude, which
 *  indexes its per-thread state with it, let entries through untested). */
static void widened_hooks_keep_their_index(void **state)
{
    (void)state;
    hook_verdict = 1;
    frd__test_pool_blocked = verdict;
    walk_hooked(0, 0, true);
    assert_true(last.peak > last.base);
    walk_hooked(0, FRD_WALK_CHILDREN_PARTS, true);
    assert_true(last.peak > last.base);
    frd__test_pool_blocked = NULL;
}

static void stays_at_base_when_listings_do_not_block(void **state)
{
    (void)state;
    hook_verdict = 0;
    frd__test_pool_blocked = verdict;
    walk_checked(0, 0);
    frd__test_pool_blocked = NULL;
    assert_int_equal(last.started, last.base);
    assert_int_equal(last.peak, last.base);
    assert_int_equal(atomic_load(&last.widenings), 0);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static void slow_stat(frd_os_fd dir, const char *name)
{
    (void)dir;
    if (name[0] == 'f') {
        sleep_ms(2); // a disk that makes each stat wait: the thread blocks, off the CPU
    }
}

static void widens_when_stats_really_block(void **state)
{
    (void)state;
    frd__test_before_stat = slow_stat;
    walk_checked(0, 0);
    frd__test_before_stat = NULL;
    assert_true(last.started > last.base);
}

static void fixed_when_workers_are_asked(void **state)
{
    (void)state;
    hook_verdict = 1;
    frd__test_pool_blocked = verdict;
    walk_checked(2, 0);
    frd__test_pool_blocked = NULL;
    assert_int_equal(last.base, 2);
    assert_int_equal(last.started, 2);
}

static void fixed_in_ordered_mode(void **state)
{
    (void)state;
    hook_verdict = 1;
    frd__test_pool_blocked = verdict;
    walk_checked(0, FRD_WALK_ORDERED);
    frd__test_pool_blocked = NULL;
    assert_int_equal(last.started, last.base);
}

static void read_tree_collects_from_added_workers(void **state)
{
    (void)state;
    hook_verdict = 1;
    frd__test_pool_blocked = verdict;
    memset(&last, 0, sizeof(last));
    struct frd_list *l;
    assert_int_equal(frd_list_new(&l), 0);
    int n = frd_read_tree(tree, 0, l);
    frd__test_pool_blocked = NULL;
    assert_int_equal(n, (int)tree_entries() - 1); // all but the root
    assert_true(last.started > last.base);
    frd_list_free(l);
}

/** Open descriptors of the process below 1024. */
static int open_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 1024; fd++) {
        n += fcntl(fd, F_GETFD) != -1;
    }
    return n;
}

struct fd_ctx {
    atomic_uint visits;
    atomic_int peak;
};

static enum frd_action fd_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    struct fd_ctx *c = udata;
    if (atomic_fetch_add(&c->visits, 1) % 8 == 0) {
        int n = open_fds();
        int seen = atomic_load(&c->peak);
        while (n > seen && !atomic_compare_exchange_weak(&c->peak, &seen, n)) {
        }
    }
    return FRD_ACTION_CONTINUE;
}

static void widened_pool_keeps_the_descriptor_budget(void **state)
{
    (void)state;
    hook_verdict = 1;
    frd__test_pool_blocked = verdict;
    memset(&last, 0, sizeof(last));
    struct fd_ctx c = {0};
    int before = open_fds();
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.fd_budget = 48; // the bound: 48 / 8 = 6 workers
    assert_int_equal(frd_walk(tree, &o, fd_visit, &c), 0);
    frd__test_pool_blocked = NULL;
    assert_int_equal(atomic_load(&c.visits), tree_entries());
    assert_true(last.max <= 6 || last.max == last.base); // fixed where 6 CPUs or more
    assert_true(atomic_load(&c.peak) - before <= 48);
}

static enum frd_action stop_visit(const struct frd_walk_entry *we, void *udata)
{
    struct counts *c = udata;
    enter(c, we->worker);
    unsigned n = atomic_fetch_add(&c->visits, 1) + 1;
    leave(c, we->worker);
    return n == 10 ? FRD_ACTION_STOP : FRD_ACTION_CONTINUE;
}

static void stop_in_a_widened_pool(void **state)
{
    (void)state;
    hook_verdict = 1;
    frd__test_pool_blocked = verdict;
    memset(&last, 0, sizeof(last));
    struct counts *c = calloc(1, sizeof(*c));
    assert_non_null(c);
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    assert_int_equal(frd_walk(tree, &o, stop_visit, c), FRD_ESTOPPED);
    frd__test_pool_blocked = NULL;
    // Visits under way as the stop comes may finish (a slot's batch at most); no directory
    // is listed after it, so the total stays far below the tree's.
    assert_true(atomic_load(&c->visits) >= 10);
    assert_true(atomic_load(&c->visits) < 10 + 64 * last.base);
    assert_true(atomic_load(&c->visits) < tree_entries());
    assert_false(atomic_load(&c->overlap));
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(widens_when_listings_block),
        cmocka_unit_test(widened_hooks_keep_their_index),
        cmocka_unit_test(stays_at_base_when_listings_do_not_block),
        cmocka_unit_test(widens_when_stats_really_block),
        cmocka_unit_test(fixed_when_workers_are_asked),
        cmocka_unit_test(fixed_in_ordered_mode),
        cmocka_unit_test(read_tree_collects_from_added_workers),
        cmocka_unit_test(stop_in_a_widened_pool),
        cmocka_unit_test(widened_pool_keeps_the_descriptor_budget),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
