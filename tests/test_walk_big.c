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
#include "platform.h"
#include "tree.h"
#include "walk_common.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>

static char *scratch; // holds the generated trees, made once for the group
static char *uboot;
static char *deep;      // scratch/deep: a chain of 5,000 directories
static char *wide;      // scratch/wide: 200,000 entries in one directory
static char *huge_root; // a private directory of HUGE_N entries (huge_dir()), changed by tests
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
    if (huge_root != NULL) {
        tree_remove(huge_root);
    }
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

/** The records of an ordered names-only walk of `root`, in visit order. */
static void ordered_names(const char *root, struct rec_ctx *c)
{
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY);
    o.on_error = rec_error;
    rec_ctx_init(c, REC_NAMES);
    assert_int_equal(frd_walk(root, &o, rec_visit, c), 0);
    assert_int_equal(c->errors.n, 0);
}

/** Every listing taken for a large one (the path of a directory whose one batch filled the
 *  kernel's buffer: a large listing of one run): the same entries in the same order. */
static void test_walk_ordered_every_listing_large_same_walk(void **state)
{
    (void)state;
    const char *roots[] = {uboot, many};
    for (size_t k = 0; k < 2; k++) {
        struct rec_ctx normal;
        struct rec_ctx large;
        ordered_names(roots[k], &normal);
        frd__test_batch_full = true;
        ordered_names(roots[k], &large);
        frd__test_batch_full = false;
        assert_true(normal.recs.n > 1000);
        assert_int_equal(large.recs.n, normal.recs.n);
        for (size_t i = 0; i < normal.recs.n; i++) {
            assert_string_equal(large.recs.v[i], normal.recs.v[i]);
        }
        rec_ctx_free(&normal);
        rec_ctx_free(&large);
    }
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
            o.on_error = NULL; // no rec_ctx here: a failure shows as visits missing
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

static atomic_size_t live_bytes; // bytes frd holds now (malloc_usable_size)
static atomic_size_t peak_bytes; // the most it held since the last reset

static void live_add(void *p)
{
    if (p != NULL) {
        size_t now =
            atomic_fetch_add_explicit(&live_bytes, malloc_usable_size(p), memory_order_relaxed) +
            malloc_usable_size(p);
        size_t peak = atomic_load_explicit(&peak_bytes, memory_order_relaxed);
        while (now > peak && !atomic_compare_exchange_weak(&peak_bytes, &peak, now)) {
        }
    }
}

static void counting_free(void *ptr)
{
    if (ptr != NULL) {
        atomic_fetch_sub_explicit(&live_bytes, malloc_usable_size(ptr), memory_order_relaxed);
    }
    free(ptr);
}

static void *counting_malloc(size_t size)
{
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    void *p = malloc(size);
    live_add(p);
    return p;
}

static void *counting_realloc(void *ptr, size_t size)
{
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    size_t old = ptr != NULL ? malloc_usable_size(ptr) : 0;
    void *p = realloc(ptr, size);
    if (p != NULL || size == 0) {
        atomic_fetch_sub_explicit(&live_bytes, old, memory_order_relaxed);
        live_add(p);
    }
    return p;
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

/* ---- One directory of 200,000 entries of its own, which the tests change ---- */

#define HUGE_N 200000

/** Entry i: a directory holding one file when i % 1000 == 0, else a file of i % 5 bytes. */
static bool huge_is_dir(size_t i)
{
    return i % 1000 == 0;
}

static void huge_make(int dfd, size_t i)
{
    char name[32];
    snprintf(name, sizeof(name), "h%06zu", i);
    if (huge_is_dir(i)) {
        assert_int_equal(mkdirat(dfd, name, 0755), 0);
        int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(sub >= 0);
        int f = openat(sub, "inner", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        assert_true(f >= 0);
        close(f);
        close(sub);
        return;
    }
    int f = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    assert_true(f >= 0);
    if (i % 5 != 0) {
        assert_int_equal(ftruncate(f, (off_t)(i % 5)), 0);
    }
    close(f);
}

static const char *huge_dir(void)
{
    if (huge_root == NULL) {
        huge_root = tree_make_root();
        assert_int_equal(chmod(huge_root, 0755), 0);
        int dfd = open(huge_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(dfd >= 0);
        for (size_t i = 0; i < HUGE_N; i++) {
            huge_make(dfd, i);
        }
        close(dfd);
    }
    return huge_root;
}

/** The index of a name h%06zu directly in the huge directory, or HUGE_N. */
static size_t huge_index(const struct frd_walk_entry *we)
{
    const char *n = we->entry->name;
    if (we->depth != 1 || n[0] != 'h' || strlen(n) != 7) {
        return HUGE_N;
    }
    return (size_t)strtoul(n + 1, NULL, 10);
}

/** What a walk of the huge directory saw. */
struct huge_seen {
    atomic_uchar *visits; // HUGE_N counters
    atomic_size_t entries, inner, bad, stat_errors, other_errors;
    atomic_uint_fast64_t dir_entries, dir_bytes; // the big directory's post-order totals
    atomic_int dir_done;
    int want_error;  // the error every entry must carry
    bool names_only; // sizes are not asked for
    bool ordered;
    // Ordered walks (one thread calls back): the index of the last entry visited directly in
    // the directory (HUGE_N before the first), and the visits that came after a later name.
    size_t last;
    size_t out_of_order;
};

static enum frd_action huge_visit(const struct frd_walk_entry *we, void *udata)
{
    struct huge_seen *h = udata;
    if (we->depth == 0) {
        return FRD_ACTION_CONTINUE;
    }
    if (we->depth == 2) {
        atomic_fetch_add(&h->inner, strcmp(we->entry->name, "inner") == 0);
        return FRD_ACTION_CONTINUE;
    }
    size_t i = huge_index(we);
    const struct frd_entry *e = we->entry;
    bool ok = i < HUGE_N && e->error == h->want_error &&
              e->type == (huge_is_dir(i) ? FRD_TYPE_DIR : FRD_TYPE_REG) &&
              (h->want_error != 0 || huge_is_dir(i) || h->names_only || e->size == i % 5);
    if (ok && h->ordered) {
        h->out_of_order += h->last != HUGE_N && i <= h->last; // h%06zu: byte order is index order
        h->last = i;
    }
    if (!ok) {
        atomic_fetch_add(&h->bad, 1);
        return FRD_ACTION_CONTINUE;
    }
    atomic_fetch_add(&h->visits[i], 1);
    atomic_fetch_add(&h->entries, 1);
    return FRD_ACTION_CONTINUE;
}

static enum frd_action huge_error(const struct frd_walk_error *err, void *udata)
{
    struct huge_seen *h = udata;
    if (err->call == FRD_OP_STAT && err->code == h->want_error) {
        atomic_fetch_add(&h->stat_errors, 1);
    } else if (err->call != FRD_OP_OPEN || h->want_error == 0) {
        atomic_fetch_add(&h->other_errors, 1); // an unsearchable directory's subdirectories
    }
    return FRD_ACTION_CONTINUE;
}

static void huge_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *t,
                      void *udata)
{
    struct huge_seen *h = udata;
    if (dir->depth == 0) {
        atomic_store(&h->dir_entries, t->entries);
        atomic_store(&h->dir_bytes, t->bytes);
        atomic_fetch_add(&h->dir_done, 1);
    }
}

/** The fields huge_walk() asks for: 0, every field; HUGE_SIZE_ONLY: type and size (the
 *  ordered mode stats a single field like that ahead, while it lists). */
#define HUGE_SIZE_ONLY (1u << 31)

/** Walks the huge directory with every field (or, with HUGE_SIZE_ONLY in flags, type and
 *  size), the hooks above, the given flags. */
static void huge_walk(const char *root, unsigned flags, unsigned workers, struct huge_seen *h)
{
    bool size_only = (flags & HUGE_SIZE_ONLY) != 0;
    flags &= ~HUGE_SIZE_ONLY;
    h->visits = calloc(HUGE_N, sizeof(*h->visits));
    assert_non_null(h->visits);
    h->last = HUGE_N;
    h->names_only = (flags & FRD_WALK_NAMES_ONLY) != 0;
    h->ordered = (flags & FRD_WALK_ORDERED) != 0;
    struct frd_walk_options o;
    walk_opts(&o, flags);
    if (size_only) {
        o.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE;
    }
    o.workers = workers;
    o.on_error = huge_error;
    o.on_dir_done = huge_done;
    assert_int_equal(frd_walk(root, &o, huge_visit, h), 0);
}

/** Sum of the sizes of the entries huge_make() made (a directory's as lstat says), minus
 *  those `gone` says vanished. */
static uint64_t huge_bytes(const char *root, bool (*gone)(size_t))
{
    int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dfd >= 0);
    uint64_t sum = 0;
    for (size_t i = 0; i < HUGE_N; i++) {
        if (huge_is_dir(i)) {
            char name[32];
            snprintf(name, sizeof(name), "h%06zu", i);
            struct stat st;
            assert_int_equal(fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW), 0);
            sum += (uint64_t)st.st_size;
        } else if (gone == NULL || !gone(i)) {
            sum += i % 5;
        }
    }
    close(dfd);
    return sum;
}

/** Walk mode m of the huge-directory tests: 0 unordered, 1 ordered, 2 ordered asking for
 *  type and size only. */
#define HUGE_FLAGS(m) \
    ((m) == 0 ? 0u : (m) == 1 ? FRD_WALK_ORDERED : FRD_WALK_ORDERED | HUGE_SIZE_ONLY)

static void test_walk_huge_directory_every_entry_once_in_both_modes(void **state)
{
    (void)state;
    const char *root = huge_dir();
    for (int mode = 0; mode < 3; mode++) {
        bool ordered = mode > 0; // 2: size only, stat'ed ahead
        struct huge_seen h = {0};
        atomic_store(&peak_bytes, atomic_load(&live_bytes));
        size_t base = atomic_load(&live_bytes);
        huge_walk(root, HUGE_FLAGS(mode), test_workers(), &h);
        size_t peak = atomic_load(&peak_bytes) - base;
        print_message("%s, %u workers: peak %zu KiB held\n",
                      mode == 0   ? "unordered"
                      : mode == 1 ? "ordered"
                                  : "ordered, size stat'ed ahead",
                      test_workers(), peak / 1024);
        assert_int_equal(atomic_load(&h.bad), 0);
        assert_int_equal(atomic_load(&h.entries), HUGE_N);
        for (size_t i = 0; i < HUGE_N; i++) {
            assert_int_equal(atomic_load(&h.visits[i]), 1);
        }
        assert_int_equal(atomic_load(&h.inner), HUGE_N / 1000);
        assert_int_equal(atomic_load(&h.dir_done), 1);
        assert_int_equal(atomic_load(&h.dir_entries), HUGE_N);
        assert_int_equal(atomic_load(&h.dir_bytes), huge_bytes(root, NULL));
        assert_int_equal(atomic_load(&h.other_errors) + atomic_load(&h.stat_errors), 0);
        if (!ordered) {
            // Bounded by the batches, not by the directory (its whole listing alone would
            // take HUGE_N * sizeof(struct frd_entry), over 20 MiB).
            assert_true(peak < 12u << 20);
        } else {
            // The names, a 24-byte record per entry and a bounded window of full items: an
            // item per entry (as the ordered mode held them before) alone is over 40 MiB.
            assert_true(peak < 20u << 20);
            assert_int_equal(h.out_of_order, 0);
        }
        free(h.visits);
    }
}

/** Ordered, names only (records hold all that is asked: no stat): every entry once, in
 *  byte order across the chunks the listing is resolved by, the subdirectories entered. */
static void test_walk_huge_directory_ordered_names_only(void **state)
{
    (void)state;
    const char *root = huge_dir();
    struct huge_seen h = {0};
    atomic_store(&peak_bytes, atomic_load(&live_bytes));
    size_t base = atomic_load(&live_bytes);
    huge_walk(root, FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY, test_workers(), &h);
    size_t peak = atomic_load(&peak_bytes) - base;
    print_message("ordered names only, %u workers: peak %zu KiB held\n", test_workers(),
                  peak / 1024);
    assert_int_equal(atomic_load(&h.bad), 0);
    assert_int_equal(h.out_of_order, 0);
    assert_int_equal(atomic_load(&h.entries), HUGE_N);
    for (size_t i = 0; i < HUGE_N; i++) {
        assert_int_equal(atomic_load(&h.visits[i]), 1);
    }
    assert_int_equal(atomic_load(&h.inner), HUGE_N / 1000);
    assert_int_equal(atomic_load(&h.dir_entries), HUGE_N);
    assert_true(peak < 20u << 20);
    free(h.visits);
}

/** Deletes the files whose names end in 3 just before their stat. */
static atomic_size_t huge_deleted;
static bool huge_gone(size_t i)
{
    return i % 10 == 3;
}

static void huge_delete_threes(frd_os_fd dir, const char *name)
{
    size_t len = strlen(name);
    if (len == 7 && name[0] == 'h' && name[6] == '3') {
        assert_int_equal(unlinkat(dir, name, 0), 0);
        atomic_fetch_add(&huge_deleted, 1);
    }
}

static void test_walk_huge_directory_entries_vanishing_mid_listing(void **state)
{
    (void)state;
    const char *root = huge_dir();
    for (int mode = 0; mode < 3; mode++) {
        struct huge_seen h = {0};
        atomic_store(&huge_deleted, 0);
        frd__test_before_stat = huge_delete_threes;
        huge_walk(root, HUGE_FLAGS(mode), test_workers(), &h);
        frd__test_before_stat = NULL;
        uint64_t want_bytes = huge_bytes(root, huge_gone);
        // Put them back first, so a failure below leaves the directory whole.
        int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(dfd >= 0);
        for (size_t i = 3; i < HUGE_N; i += 10) {
            huge_make(dfd, i);
        }
        close(dfd);
        assert_int_equal(atomic_load(&huge_deleted), HUGE_N / 10);
        assert_int_equal(atomic_load(&h.bad), 0);
        assert_int_equal(atomic_load(&h.entries), HUGE_N - HUGE_N / 10);
        assert_int_equal(h.out_of_order, 0);
        for (size_t i = 0; i < HUGE_N; i++) {
            assert_int_equal(atomic_load(&h.visits[i]), !huge_gone(i)); // none twice
        }
        // Vanished entries are no error, and are not counted as bytes.
        assert_int_equal(atomic_load(&h.other_errors) + atomic_load(&h.stat_errors), 0);
        assert_int_equal(atomic_load(&h.dir_bytes), want_bytes);
        free(h.visits);
    }
}

/** In a child as user 65534: every entry of the unsearchable directory comes with
 *  FRD_EACCES, reported once each. Exits 0 when so. */
static int huge_unsearchable_child(const char *root, unsigned flags)
{
    if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0) {
        return 3;
    }
    struct huge_seen h = {0};
    h.want_error = FRD_EACCES;
    huge_walk(root, flags, test_workers(), &h);
    for (size_t i = 0; i < HUGE_N; i++) {
        if (atomic_load(&h.visits[i]) != 1) {
            fprintf(stderr, "flags %u: entry %zu visited %u times (bad %zu)\n", flags, i,
                    (unsigned)atomic_load(&h.visits[i]), atomic_load(&h.bad));
            return 4;
        }
    }
    return atomic_load(&h.bad) == 0 && h.out_of_order == 0 &&
                   atomic_load(&h.stat_errors) == HUGE_N && atomic_load(&h.other_errors) == 0
               ? 0
               : 5;
}

static void test_walk_huge_directory_stat_failures(void **state)
{
    (void)state;
    const char *root = huge_dir();
    assert_int_equal(chmod(root, 0444), 0); // readable, not searchable: every stat fails
    for (int mode = 0; mode < 3; mode++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            _exit(huge_unsearchable_child(root, HUGE_FLAGS(mode)));
        }
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    assert_int_equal(chmod(root, 0755), 0);
}

/* ---- The children hook over the huge directory, in parts (FRD_WALK_CHILDREN_PARTS) ---- */

/** The hook drops these (never stat'ed, never visited) ... */
static bool hook_drops(size_t i)
{
    return i % 3 == 1;
}

/** ... and marks these directories not to be entered (visited, never listed). */
static bool hook_no_descent(size_t i)
{
    return huge_is_dir(i) && i % 2000 == 0;
}

/** What the hook saw of the huge directory; `h` first, as huge_visit() reads it. */
struct hook_seen {
    struct huge_seen h;
    atomic_uchar *shown; // HUGE_N: times the hook was shown each entry
    atomic_uint *stats;  // HUGE_N: stats of each entry after the listing
    atomic_int in_hook;  // > 1: two calls for the directory at once
    atomic_size_t overlaps, calls, firsts, lasts, after_last, not_first_first, threads;
    atomic_size_t bad_part;
    pthread_t thread; // the thread of the first call
};

static struct hook_seen *hook_current; // for the stat hook, which has no udata

static void hook_count_stat(frd_os_fd dir, const char *name)
{
    (void)dir;
    size_t len = strlen(name);
    if (len == 7 && name[0] == 'h') {
        size_t i = (size_t)strtoul(name + 1, NULL, 10);
        if (i < HUGE_N) {
            atomic_fetch_add(&hook_current->stats[i], 1);
        }
    }
}

static void hook_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    struct hook_seen *s = udata;
    if (dir->depth != 0) {
        return; // the one-file subdirectories
    }
    if (atomic_fetch_add(&s->in_hook, 1) != 0) {
        atomic_fetch_add(&s->overlaps, 1);
    }
    unsigned part = frd_walk_children_part(kids);
    size_t calls = atomic_fetch_add(&s->calls, 1);
    if (atomic_load(&s->lasts) != 0) {
        atomic_fetch_add(&s->after_last, 1);
    }
    if (part & FRD_CHILDREN_FIRST) {
        if (calls != 0) {
            atomic_fetch_add(&s->not_first_first, 1);
        }
        atomic_fetch_add(&s->firsts, 1);
        s->thread = pthread_self(); // read only by later calls, which follow on this thread
    } else if (!pthread_equal(s->thread, pthread_self())) {
        atomic_fetch_add(&s->threads, 1);
    }
    if (part & FRD_CHILDREN_LAST) {
        atomic_fetch_add(&s->lasts, 1);
    }
    if ((part & ~(unsigned)(FRD_CHILDREN_FIRST | FRD_CHILDREN_LAST)) != 0 ||
        frd_walk_children_count(kids) == 0) {
        atomic_fetch_add(&s->bad_part, 1);
    }
    for (size_t k = 0; k < frd_walk_children_count(kids); k++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, k);
        size_t i = (size_t)strtoul(e->name + 1, NULL, 10);
        if (e->name[0] != 'h' || i >= HUGE_N) {
            atomic_fetch_add(&s->bad_part, 1);
            continue;
        }
        atomic_fetch_add(&s->shown[i], 1);
        if (hook_drops(i)) {
            assert_int_equal(frd_walk_children_drop(kids, k), 0);
        } else if (hook_no_descent(i)) {
            assert_int_equal(frd_walk_children_skip_descent(kids, k), 0);
        }
    }
    atomic_fetch_sub(&s->in_hook, 1);
}

/** Walks the huge directory with the hook above, every field, and `flags`. */
static void hook_walk(const char *root, unsigned flags, unsigned workers, struct hook_seen *s)
{
    s->h.visits = calloc(HUGE_N, sizeof(*s->h.visits));
    s->shown = calloc(HUGE_N, sizeof(*s->shown));
    s->stats = calloc(HUGE_N, sizeof(*s->stats));
    assert_true(s->h.visits != NULL && s->shown != NULL && s->stats != NULL);
    struct frd_walk_options o;
    walk_opts(&o, flags);
    o.workers = workers;
    o.on_error = huge_error;
    o.on_dir_done = huge_done;
    o.on_children = hook_children;
    hook_current = s;
    frd__test_before_stat = hook_count_stat;
    assert_int_equal(frd_walk(root, &o, huge_visit, s), 0);
    frd__test_before_stat = NULL;
}

static void hook_free(struct hook_seen *s)
{
    free(s->h.visits);
    free(s->shown);
    free(s->stats);
}

static void test_walk_huge_directory_children_hook_in_parts(void **state)
{
    (void)state;
    const char *root = huge_dir();
    uint64_t want_bytes = 0;
    size_t survivors = 0;
    size_t inner = 0;
    int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    assert_true(dfd >= 0);
    for (size_t i = 0; i < HUGE_N; i++) {
        if (hook_drops(i)) {
            continue;
        }
        survivors++;
        if (huge_is_dir(i)) {
            char name[32];
            snprintf(name, sizeof(name), "h%06zu", i);
            struct stat st;
            assert_int_equal(fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW), 0);
            want_bytes += (uint64_t)st.st_size;
            inner += !hook_no_descent(i);
        } else {
            want_bytes += i % 5;
        }
    }
    close(dfd);
    static const unsigned workers[] = {1, 2, 8};
    for (size_t wi = 0; wi < sizeof(workers) / sizeof(workers[0]); wi++) {
        struct hook_seen s = {0};
        atomic_store(&peak_bytes, atomic_load(&live_bytes));
        size_t base = atomic_load(&live_bytes);
        hook_walk(root, FRD_WALK_CHILDREN_PARTS, workers[wi], &s);
        size_t peak = atomic_load(&peak_bytes) - base;
        print_message("children hook in parts, %u workers: %zu calls, peak %zu KiB held\n",
                      workers[wi], atomic_load(&s.calls), peak / 1024);
        // The hook: every entry shown once, in parts, in order, one call at a time, on the
        // thread of the first part.
        for (size_t i = 0; i < HUGE_N; i++) {
            assert_int_equal(atomic_load(&s.shown[i]), 1);
        }
        assert_true(atomic_load(&s.calls) > 1); // 64 KiB batches: about 100 of them
        assert_int_equal(atomic_load(&s.firsts), 1);
        assert_int_equal(atomic_load(&s.lasts), 1);
        assert_int_equal(atomic_load(&s.after_last), 0);
        assert_int_equal(atomic_load(&s.not_first_first), 0);
        assert_int_equal(atomic_load(&s.overlaps), 0);
        assert_int_equal(atomic_load(&s.threads), 0);
        assert_int_equal(atomic_load(&s.bad_part), 0);
        // The walk: survivors stat'ed and visited once; the dropped never.
        assert_int_equal(atomic_load(&s.h.bad), 0);
        for (size_t i = 0; i < HUGE_N; i++) {
            assert_int_equal(atomic_load(&s.h.visits[i]), !hook_drops(i));
            if (hook_drops(i)) {
                assert_int_equal(atomic_load(&s.stats[i]), 0);
            } else {
                assert_true(atomic_load(&s.stats[i]) >= 1);
            }
        }
        assert_int_equal(atomic_load(&s.h.entries), survivors);
        assert_int_equal(atomic_load(&s.h.inner), inner);
        assert_int_equal(atomic_load(&s.h.dir_done), 1);
        assert_int_equal(atomic_load(&s.h.dir_entries), survivors);
        assert_int_equal(atomic_load(&s.h.dir_bytes), want_bytes);
        assert_int_equal(atomic_load(&s.h.other_errors) + atomic_load(&s.h.stat_errors), 0);
        // Bounded by the batches, not by the directory (as the walk without the hook).
        assert_true(peak < 12u << 20);
        hook_free(&s);
    }
    // Without the flag, and in ordered mode with it, the hook has the whole directory.
    static const unsigned whole[] = {0, FRD_WALK_CHILDREN_PARTS | FRD_WALK_ORDERED};
    for (size_t f = 0; f < 2; f++) {
        struct hook_seen s = {0};
        hook_walk(root, whole[f], test_workers(), &s);
        assert_int_equal(atomic_load(&s.calls), 1);
        assert_int_equal(atomic_load(&s.firsts), 1);
        assert_int_equal(atomic_load(&s.lasts), 1);
        assert_int_equal(atomic_load(&s.h.entries), survivors);
        assert_int_equal(atomic_load(&s.h.dir_entries), survivors);
        hook_free(&s);
    }
    assert_int_equal(frd_walk_children_part(NULL), 0);
}

int main(void)
{
    assert_int_equal(frd_replace_allocator(counting_malloc, counting_realloc, counting_free), 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_uboot_matches_find),
        cmocka_unit_test(test_walk_many_dirs_matches_find),
        cmocka_unit_test(test_walk_ordered_every_listing_large_same_walk),
        cmocka_unit_test(test_walk_depth_5000_past_path_max),
        cmocka_unit_test(test_walk_directory_with_200000_entries),
        cmocka_unit_test(test_walk_completes_under_ulimit_n_64),
        cmocka_unit_test(test_walk_tiny_fd_budget_reopens_by_path),
        cmocka_unit_test(test_walk_allocations_below_one_per_hundred_dirs),
        cmocka_unit_test(test_walk_huge_directory_every_entry_once_in_both_modes),
        cmocka_unit_test(test_walk_huge_directory_ordered_names_only),
        cmocka_unit_test(test_walk_huge_directory_entries_vanishing_mid_listing),
        cmocka_unit_test(test_walk_huge_directory_stat_failures),
        cmocka_unit_test(test_walk_huge_directory_children_hook_in_parts),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_big", tests, group_setup, group_teardown);
}
