// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests on big and hostile trees, all made by the test: the u-boot tree (from
 * tests/data) and a tree of 20,000 directories against GNU find, a directory 5,000 deep
 * (past PATH_MAX), one with 200,000 entries, 64 descriptors in all, a tiny descriptor
 * budget, and the allocation count per directory.
 * FRD_TEST_WORKERS sets the worker count.
 */
#include "internal.h"
#include "tree.h"
#include "walk_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>

static char *scratch; // holds the generated trees, made once for the group
static char *uboot;
static char *deep; // scratch/deep: a chain of 5,000 directories
static char *wide; // scratch/wide: 200,000 entries in one directory
static char *many; // scratch/many: MANY_TOP * MANY_MID * MANY_LEAF directories, as many as /usr

#define DEEP_LEVELS  5000
#define WIDE_ENTRIES 200000
#define MANY_TOP     20
#define MANY_MID     20
#define MANY_LEAF    50
#define MANY_FILES   3 // regular files per leaf directory
#define MANY_DIRS    (1 + MANY_TOP + MANY_TOP * MANY_MID + MANY_TOP * MANY_MID * MANY_LEAF)

static void make_deep(const char *root)
{
    // mkdir relative to the last level's descriptor: the path is far past PATH_MAX.
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(fd >= 0);
    for (int i = 0; i < DEEP_LEVELS; i++) {
        assert_int_equal(mkdirat(fd, "dd", 0755), 0);
        int f = openat(fd, "ff", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        close(f);
        int next = openat(fd, "dd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(next >= 0);
        close(fd);
        fd = next;
    }
    close(fd);
}

/**
 * The trees take a while to make (tens of seconds on a slow disk), so they are made once
 * per build directory (FRD_FIXTURE_DIR) under a lock and reused by every run at every worker
 * count; a marker file says a set is complete.
 */
/** Makes name in the directory fd (a directory if dir, else an empty file). */
static void make_at(int fd, const char *name, int dir)
{
    if (dir) {
        assert_int_equal(mkdirat(fd, name, 0755), 0);
        return;
    }
    int f = openat(fd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    assert_true(f >= 0);
    close(f);
}

/** Fills root with the many tree: three levels of directories, files in the leaves. */
static void make_many(const char *root)
{
    char rel[64];
    for (int t = 0; t < MANY_TOP; t++) {
        snprintf(rel, sizeof(rel), "t%02d", t);
        char *top = tree_path(root, rel);
        assert_int_equal(mkdir(top, 0755), 0);
        free(top);
        for (int m = 0; m < MANY_MID; m++) {
            snprintf(rel, sizeof(rel), "t%02d/m%02d", t, m);
            char *mid = tree_path(root, rel);
            assert_int_equal(mkdir(mid, 0755), 0);
            int fd = open(mid, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            assert_true(fd >= 0);
            for (int l = 0; l < MANY_LEAF; l++) {
                char name[32];
                snprintf(name, sizeof(name), "leaf%02d", l);
                make_at(fd, name, 1);
                int leaf = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                assert_true(leaf >= 0);
                for (int f = 0; f < MANY_FILES; f++) {
                    snprintf(name, sizeof(name), "file%d.txt", f);
                    make_at(leaf, name, 0);
                }
                close(leaf);
            }
            close(fd);
            free(mid);
        }
    }
}

static int group_setup(void **state)
{
    (void)state;
    const char *dir = getenv("FRD_FIXTURE_DIR");
    if (dir == NULL || *dir == '\0') {
        dir = "/tmp";
    }
    mkdir(dir, 0755);
    scratch = tree_path(dir, "walk-big-v2");
    char *lock = tree_path(dir, "walk-big-v2.lock");
    int lfd = open(lock, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    assert_true(lfd >= 0);
    assert_int_equal(flock(lfd, LOCK_EX), 0);
    char *done = tree_path(scratch, "complete");
    uboot = tree_path(scratch, "u-boot");
    deep = tree_path(scratch, "deep");
    wide = tree_path(scratch, "wide");
    many = tree_path(scratch, "many");
    if (access(done, F_OK) != 0) {
        char cmd[4096];
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
        assert_int_equal(system(cmd), 0);
        assert_int_equal(mkdir(scratch, 0755), 0);
        free(materialize_uboot(scratch));
        assert_int_equal(mkdir(deep, 0755), 0);
        make_deep(deep);
        assert_int_equal(mkdir(wide, 0755), 0);
        int fd = open(wide, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(fd >= 0);
        for (int i = 0; i < WIDE_ENTRIES; i++) {
            char name[32];
            snprintf(name, sizeof(name), "entry-%06d", i);
            if (i % 1000 == 0) {
                assert_int_equal(mkdirat(fd, name, 0755), 0);
            } else {
                int f = openat(fd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
                assert_true(f >= 0);
                close(f);
            }
        }
        close(fd);
        assert_int_equal(mkdir(many, 0755), 0);
        make_many(many);
        int f = open(done, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        close(f);
    }
    flock(lfd, LOCK_UN);
    close(lfd);
    free(lock);
    free(done);
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    free(deep);
    free(wide);
    free(many);
    free(uboot);
    free(scratch);
    return 0;
}

static void test_walk_uboot_matches_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    assert_walk_matches_find(uboot, &o, "", "");
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    assert_walk_matches_find(uboot, &o, "", "");
    o.follow = FRD_FOLLOW_ALL;
    assert_walk_matches_find(uboot, &o, "-L", "");
}

static void test_walk_many_dirs_matches_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    assert_walk_matches_find(many, &o, "", "");
    walk_opts(&o, 0);
    assert_walk_matches_find(many, &o, "", "");
}

static atomic_uint max_depth_seen;
static atomic_size_t deep_visits;

static enum frd_action depth_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)udata;
    unsigned d = atomic_load(&max_depth_seen);
    while (we->depth > d && !atomic_compare_exchange_weak(&max_depth_seen, &d, we->depth)) {
    }
    atomic_fetch_add(&deep_visits, 1);
    // Paths stay exact at any depth: root + "/dd" per level + "/" name.
    size_t want = strlen(deep) + 3 * (we->depth - 1) + 3;
    if (we->depth > 0) {
        assert_int_equal(we->path_len, want);
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_depth_5000_past_path_max(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
        atomic_store(&max_depth_seen, 0);
        atomic_store(&deep_visits, 0);
        assert_int_equal(frd_walk(deep, &o, depth_visit, NULL), 0);
        assert_int_equal(atomic_load(&max_depth_seen), DEEP_LEVELS);
        assert_int_equal(atomic_load(&deep_visits), 1 + 2 * DEEP_LEVELS);
    }
}

static atomic_size_t wide_visits;

static enum frd_action count_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    (void)udata;
    atomic_fetch_add(&wide_visits, 1);
    return FRD_ACTION_CONTINUE;
}

static void test_walk_directory_with_200000_entries(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        atomic_store(&wide_visits, 0);
        assert_int_equal(frd_walk(wide, &o, count_visit, NULL), 0);
        assert_int_equal(atomic_load(&wide_visits), 1 + WIDE_ENTRIES);
    }
}

/** Runs the u-boot and deep walks in a child limited to 64 descriptors. */
static void test_walk_completes_under_ulimit_n_64(void **state)
{
    (void)state;
    struct recs want;
    recs_init(&want);
    find_recs("", uboot, "", REC_NAMES, &want);
    recs_sort(&want);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {64, 64};
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
            _exit(3);
        }
        for (int ordered = 0; ordered < 2; ordered++) {
            struct frd_walk_options o;
            walk_opts(&o, FRD_WALK_NAMES_ONLY | (ordered ? FRD_WALK_ORDERED : 0));
            struct rec_ctx c;
            rec_ctx_init(&c, REC_NAMES);
            o.on_error = rec_error;
            if (frd_walk(uboot, &o, rec_visit, &c) != 0 || c.errors.n != 0) {
                _exit(4);
            }
            recs_assert_equal(&c.recs, &want, "ulimit 64");
            rec_ctx_free(&c);
            atomic_store(&deep_visits, 0);
            atomic_store(&max_depth_seen, 0);
            if (frd_walk(deep, &o, depth_visit, NULL) != 0 ||
                atomic_load(&deep_visits) != 1 + 2 * DEEP_LEVELS) {
                _exit(5);
            }
        }
        _exit(0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    recs_free(&want);
}

static void test_walk_tiny_fd_budget_reopens_by_path(void **state)
{
    (void)state;
    // A budget of 1 keeps no directory open past its listing: every child is reopened
    // along its ancestors, with identities checked, and the result is the same.
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.fd_budget = 1;
    assert_walk_matches_find(uboot, &o, "", "");
    o.flags = FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY;
    assert_walk_matches_find(uboot, &o, "", "");
}

// Allocation counting through frd_replace_allocator(), installed in main().
static atomic_size_t allocations;

static void *counting_malloc(size_t size)
{
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return malloc(size);
}

static void *counting_realloc(void *ptr, size_t size)
{
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    return realloc(ptr, size);
}

static atomic_size_t dirs_seen;

static enum frd_action dir_count_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)udata;
    if (we->entry->type == FRD_TYPE_DIR) {
        atomic_fetch_add_explicit(&dirs_seen, 1, memory_order_relaxed);
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_allocations_below_one_per_hundred_dirs(void **state)
{
    (void)state;
    // The bar is for the default of this 2-core machine (2 workers); at other worker counts
    // the count may grow with the workers, never with the directories.
    unsigned flags[] = {0, FRD_WALK_NAMES_ONLY, FRD_WALK_ORDERED};
    for (size_t i = 0; i < 3; i++) {
        struct frd_walk_options o;
        walk_opts(&o, flags[i]);
        o.workers = 2;
        atomic_store(&dirs_seen, 0);
        size_t before = atomic_load(&allocations);
        assert_int_equal(frd_walk(many, &o, dir_count_visit, NULL), 0);
        size_t used = atomic_load(&allocations) - before;
        size_t dirs = atomic_load(&dirs_seen);
        print_message("flags %u: %zu allocations for %zu directories\n", flags[i], used, dirs);
        assert_int_equal(dirs, MANY_DIRS);
        assert_true(used * 100 < dirs);
        o.workers = test_workers();
        before = atomic_load(&allocations);
        assert_int_equal(frd_walk(many, &o, dir_count_visit, NULL), 0);
        used = atomic_load(&allocations) - before;
        assert_true(used < 128 + 40 * (size_t)o.workers);
    }
}

int main(void)
{
    assert_int_equal(frd_replace_allocator(counting_malloc, counting_realloc, free), 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_uboot_matches_find),
        cmocka_unit_test(test_walk_many_dirs_matches_find),
        cmocka_unit_test(test_walk_depth_5000_past_path_max),
        cmocka_unit_test(test_walk_directory_with_200000_entries),
        cmocka_unit_test(test_walk_completes_under_ulimit_n_64),
        cmocka_unit_test(test_walk_tiny_fd_budget_reopens_by_path),
        cmocka_unit_test(test_walk_allocations_below_one_per_hundred_dirs),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_big", tests, group_setup, group_teardown);
}
