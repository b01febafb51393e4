// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of errors: bad arguments, missing and empty roots, the ready error policies,
 * unreadable directories as an unprivileged user, each failure reported once with its kind.
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

/* ---- Errors ---- */

static enum frd_action rec_visit_count(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    (void)udata;
    return FRD_ACTION_CONTINUE;
}

struct err_ctx {
    struct recs errs;
    atomic_int visits_with_error;
    atomic_int visits;
};

static enum frd_action err_record(const struct frd_walk_error *err, void *udata)
{
    struct err_ctx *x = udata;
    char buf[8192];
    int n = snprintf(buf, sizeof(buf), "%s\t%s\t%s", err->path, frd_err_name(err->code),
                     frd_op_name(err->call));
    recs_add(&x->errs, buf, (size_t)n);
    return FRD_ACTION_CONTINUE;
}

static enum frd_action err_visit(const struct frd_walk_entry *we, void *udata)
{
    struct err_ctx *x = udata;
    atomic_fetch_add(&x->visits, 1);
    if (we->entry->error < 0) {
        atomic_fetch_add(&x->visits_with_error, 1);
    }
    return FRD_ACTION_CONTINUE;
}

static void test_walk_missing_and_empty_roots_reported_once_with_path(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        o.on_error = err_record;
        struct err_ctx x = {0};
        recs_init(&x.errs);
        const char *roots[] = {"", "/nonexistent/frd/root", tree};
        // The hook hears each once and says go on; the walk returns the first failed root
        // all the same (FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY: 0, the hook alone hears them).
        assert_int_equal(frd_walk_roots(roots, 3, &o, err_visit, &x), FRD_ENOENT);
        assert_int_equal(x.errs.n, 2);
        size_t visited = (size_t)atomic_load(&x.visits);
        assert_true(visited > 0); // the tree was walked past the failed roots
        recs_free(&x.errs);
        recs_init(&x.errs);
        atomic_store(&x.visits, 0);
        o.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY;
        assert_int_equal(frd_walk_roots(roots, 3, &o, err_visit, &x), 0);
        assert_int_equal((size_t)atomic_load(&x.visits), visited);
        assert_int_equal(x.errs.n, 2);
        recs_sort(&x.errs);
        assert_string_equal(x.errs.v[0], "\tENOENT\tstat"); // path "", as find names it
        assert_string_equal(x.errs.v[1], "/nonexistent/frd/root\tENOENT\tstat");
        recs_free(&x.errs);
        // Without a hook: the tree is walked all the same, the first failed root returned.
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        assert_int_equal(frd_walk_roots(roots, 3, &o, rec_visit_count, NULL), FRD_ENOENT);
        struct frd_list *l;
        assert_int_equal(frd_list_new(&l), 0);
        assert_int_equal(frd_read_tree("", 0, l), FRD_ENOENT);
        frd_list_free(l);
    }
}

static void test_walk_ready_error_policies(void **state)
{
    (void)state;
    struct frd_walk_error e = {.path = "x", .op = "open", .code = FRD_EACCES, .call = FRD_OP_OPEN};
    static const int live[] = {FRD_EACCES,  FRD_EPERM, FRD_ENOENT,
                               FRD_ENOTDIR, FRD_ELOOP, FRD_ECHANGED};
    for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
        e.code = live[i];
        assert_int_equal(frd_walk_ignore_denied_and_vanished(&e, NULL), FRD_ACTION_CONTINUE);
        assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_CONTINUE);
        assert_int_equal(frd_walk_continue_on_errors(&e, NULL), FRD_ACTION_CONTINUE);
        assert_int_equal(frd_walk_stop_on_error(&e, NULL), FRD_ACTION_STOP);
    }
    e.code = FRD_EIO;
    assert_int_equal(frd_walk_ignore_denied_and_vanished(&e, NULL), FRD_ACTION_STOP);
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_STOP);
    assert_int_equal(frd_walk_continue_on_errors(&e, NULL), FRD_ACTION_CONTINUE);
    assert_string_equal(frd_op_name(FRD_OP_OPEN), "open");
    assert_string_equal(frd_op_name(FRD_OP_LOOP), "loop");
    assert_string_equal(frd_op_name((enum frd_op)99), "other");
    // A dangling entry of a live tree under the policy: the walk goes on to its end.
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.on_error = frd_walk_ignore_denied_and_vanished;
    const char *roots[] = {"/nonexistent/frd/root", tree};
    // Walked to its end, the missing root returned (not hidden by the policy).
    assert_int_equal(frd_walk_roots(roots, 2, &o, rec_visit_count, NULL), FRD_ENOENT);
    o.on_error = frd_walk_stop_on_error;
    assert_int_equal(frd_walk_roots(roots, 2, &o, rec_visit_count, NULL), FRD_ENOENT);
}

/** Runs fn(arg) with stderr going to a file; @return what it wrote (malloc'ed). */
static char *stderr_of(void (*fn)(void *), void *arg)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    assert_true(saved >= 0 && dup2(fileno(tmp), 2) == 2);
    fn(arg);
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    assert_int_equal(fseek(tmp, 0, SEEK_END), 0);
    long n = ftell(tmp);
    assert_true(n >= 0);
    char *text = calloc(1, (size_t)n + 1);
    assert_non_null(text);
    rewind(tmp);
    assert_int_equal(fread(text, 1, (size_t)n, tmp), (size_t)n);
    fclose(tmp);
    return text;
}

static void print_eio(void *arg)
{
    struct frd_walk_error e = {.path = "/a/b", .op = "statx", .code = FRD_EIO, .call = FRD_OP_STAT};
    *(enum frd_action *)arg = frd_walk_print_errors_and_continue(&e, NULL);
}

struct print_walk {
    const char *const *roots;
    unsigned flags;
    struct err_ctx x;
    int rc;
};

static void print_walk_run(void *arg)
{
    struct print_walk *pw = arg;
    struct frd_walk_options o;
    walk_opts(&o, pw->flags);
    o.on_error = frd_walk_print_errors_and_continue;
    pw->rc = frd_walk_roots(pw->roots, 2, &o, err_visit, &pw->x);
}

/**
 * "Skip what cannot be read, report everything, never stop": an FRD_EIO is printed as one
 * line and the policy says go on (frd_walk_ignore_denied_and_vanished stops there); a walk
 * under it goes past a failed root to the end of the tree, prints the failure once, and
 * returns the failed root's code.
 */
static void test_walk_print_errors_and_continue_policy(void **state)
{
    (void)state;
    enum frd_action act = FRD_ACTION_STOP;
    char *text = stderr_of(print_eio, &act);
    assert_int_equal(act, FRD_ACTION_CONTINUE);
    char want[256];
    snprintf(want, sizeof(want), "frd: /a/b: statx: %s\n", frd_strerror(FRD_EIO));
    assert_string_equal(text, want);
    free(text);
    for (int ordered = 0; ordered < 2; ordered++) {
        const char *roots[] = {"/nonexistent/frd/root", tree};
        struct print_walk pw = {.roots = roots, .flags = ordered ? FRD_WALK_ORDERED : 0};
        text = stderr_of(print_walk_run, &pw);
        assert_int_equal(pw.rc, FRD_ENOENT);
        snprintf(want, sizeof(want), "frd: /nonexistent/frd/root: stat: %s\n",
                 frd_strerror(FRD_ENOENT));
        assert_string_equal(text, want);
        free(text);
        struct frd_walk_options o;
        walk_opts(&o, 0);
        struct err_ctx all = {0};
        assert_int_equal(frd_walk(tree, &o, err_visit, &all), 0);
        assert_int_equal(atomic_load(&pw.x.visits), atomic_load(&all.visits));
    }
}

static void test_walk_ignore_permission_errors_policy(void **state)
{
    (void)state;
    struct frd_walk_error e = {.path = "x", .op = "open", .code = FRD_EACCES};
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_CONTINUE);
    e.code = FRD_EPERM;
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_CONTINUE);
    e.code = FRD_EIO;
    assert_int_equal(frd_walk_ignore_permission_errors(&e, NULL), FRD_ACTION_STOP);
}

/**
 * Unreadable directories, as the unprivileged user 65534 (root reads everything): the walk
 * reports each once, goes on, and visits exactly what find (as the same user) prints.
 * Runs in a forked child that drops its privileges; never skipped.
 */
static void test_walk_unreadable_dirs_as_unprivileged_user(void **state)
{
    (void)state;
    char *root = tree_make_root();
    assert_int_equal(chmod(root, 0755), 0);
    tree_dir(root, "open");
    tree_file(root, "open/f", 1);
    tree_dir(root, "closed");
    tree_file(root, "closed/secret", 1);
    tree_dir(root, "noexec");
    tree_file(root, "noexec/g", 1);
    tree_dir(root, "deep");
    tree_dir(root, "deep/closed2");
    char *p = tree_path(root, "closed");
    assert_int_equal(chmod(p, 0000), 0);
    free(p);
    p = tree_path(root, "noexec");
    assert_int_equal(chmod(p, 0644), 0); // readable, not searchable: names, no stat
    free(p);
    p = tree_path(root, "deep/closed2");
    assert_int_equal(chmod(p, 0000), 0);
    free(p);
    // The group must be able to reach the root too.
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        become_nobody();
        if (access(root, R_OK) != 0) {
            _exit(4);
        }
        for (int ordered = 0; ordered < 2; ordered++) {
            struct frd_walk_options o;
            walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
            struct rec_ctx c;
            rec_ctx_init(&c, REC_NAMES);
            o.on_error = rec_error;
            if (frd_walk(root, &o, rec_visit, &c) != 0) {
                _exit(5);
            }
            struct recs f;
            recs_init(&f);
            find_recs("", root, "", REC_NAMES, &f);
            recs_assert_equal(&c.recs, &f, "unprivileged");
            // closed and deep/closed2 cannot be opened; noexec/g cannot be stat'ed.
            size_t eacces = 0;
            for (size_t i = 0; i < c.errors.n; i++) {
                eacces += strstr(c.errors.v[i], "\tEACCES\t") != NULL;
            }
            if (eacces != 3 || c.errors.n != 3) {
                _exit(6);
            }
            recs_free(&f);
            rec_ctx_free(&c);
            // The ready policy goes on after permission errors.
            o.on_error = frd_walk_ignore_permission_errors;
            rec_ctx_init(&c, REC_NAMES);
            if (frd_walk(root, &o, rec_visit, &c) != 0) {
                _exit(7);
            }
            rec_ctx_free(&c);
        }
        _exit(0);
    }
    int st = wait_child(pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    p = tree_path(root, "closed");
    chmod(p, 0755);
    free(p);
    p = tree_path(root, "noexec");
    chmod(p, 0755);
    free(p);
    p = tree_path(root, "deep/closed2");
    chmod(p, 0755);
    free(p);
    tree_remove(root);
}

static void kids_keep_all(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    (void)dir;
    (void)kids;
    (void)udata;
}

/**
 * As uid 65534, names only: nothing is stat'ed, yet a directory listed in a directory that
 * cannot be searched is reported as find reports it (its stat fails: once, by its stat,
 * visited with the error, not entered), also at the depth limit where nothing is opened.
 * @return 0 or a step.
 */
static int names_only_unsearchable_child(const char *root)
{
    char want_open[4200];
    char want_sub[4200];
    snprintf(want_open, sizeof(want_open), "%s/closed\tEACCES\topen", root);
    snprintf(want_sub, sizeof(want_sub), "%s/noexec/sub\tEACCES\tstat", root);
    for (int run = 0; run < 8; run++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_NAMES_ONLY | (run & 1 ? FRD_WALK_ORDERED : 0));
        o.on_error = err_record;
        if (run & 2) {
            o.on_children = kids_keep_all;
        }
        if (run & 4) {
            o.max_depth = 2; // noexec/sub is visited, never opened
        }
        struct err_ctx x = {0};
        recs_init(&x.errs);
        if (frd_walk(root, &o, err_visit, &x) != 0) {
            return 20 + run;
        }
        recs_sort(&x.errs);
        if (x.errs.n != 2 || strcmp(x.errs.v[0], want_open) != 0 ||
            strcmp(x.errs.v[1], want_sub) != 0) {
            for (size_t i = 0; i < x.errs.n; i++) {
                fprintf(stderr, "error: %s\n", x.errs.v[i]);
            }
            return 30 + run;
        }
        if (atomic_load(&x.visits_with_error) != 1) {
            return 40 + run;
        }
        recs_free(&x.errs);
    }
    return 0;
}

/** As uid 65534: each failure once in the hook, with its kind of call. @return 0 or a step. */
static int errors_once_child(const char *root)
{
    char want_open[4200];
    char want_stat[4200];
    char want_sub[4200];
    snprintf(want_open, sizeof(want_open), "%s/closed\tEACCES\topen", root);
    snprintf(want_stat, sizeof(want_stat), "%s/noexec/f\tEACCES\tstat", root);
    // A directory whose stat failed is reported once, by its stat, and not entered.
    snprintf(want_sub, sizeof(want_sub), "%s/noexec/sub\tEACCES\tstat", root);
    for (int run = 0; run < 4; run++) {
        struct frd_walk_options o;
        walk_opts(&o, run & 1 ? FRD_WALK_ORDERED : 0);
        o.on_error = err_record;
        if (run & 2) {
            o.on_children = kids_keep_all; // stat after the hook: the same failures, once
        }
        struct err_ctx x = {0};
        recs_init(&x.errs);
        if (frd_walk(root, &o, err_visit, &x) != 0) {
            return 20 + run;
        }
        recs_sort(&x.errs);
        if (x.errs.n != 3 || strcmp(x.errs.v[0], want_open) != 0 ||
            strcmp(x.errs.v[1], want_stat) != 0 || strcmp(x.errs.v[2], want_sub) != 0) {
            for (size_t i = 0; i < x.errs.n; i++) {
                fprintf(stderr, "error: %s\n", x.errs.v[i]);
            }
            return 30 + run;
        }
        // The entries whose stat failed are visited, once each, with their error as data.
        if (atomic_load(&x.visits_with_error) != 2) {
            return 40 + run;
        }
        recs_free(&x.errs);
    }
    return 0;
}

/**
 * One failure, one report: an unreadable directory (open), an entry that cannot be stat'ed
 * (stat) and a directory that cannot be stat'ed (stat, not entered) reach the hook once
 * each, in both modes and with the children hook.
 */
static void test_walk_each_failure_reported_once_as_unprivileged_user(void **state)
{
    (void)state;
    char *root = tree_make_root();
    assert_int_equal(chmod(root, 0755), 0);
    tree_dir(root, "closed");
    tree_file(root, "closed/x", 1);
    tree_dir(root, "noexec");
    tree_file(root, "noexec/f", 1);
    tree_dir(root, "noexec/sub");
    tree_file(root, "noexec/sub/g", 1);
    char *closed = tree_path(root, "closed");
    char *noexec = tree_path(root, "noexec");
    assert_int_equal(chmod(closed, 0000), 0);
    assert_int_equal(chmod(noexec, 0644), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        become_nobody();
        int rc = errors_once_child(root);
        _exit(rc != 0 ? rc : names_only_unsearchable_child(root));
    }
    int st = wait_child(pid);
    chmod(closed, 0755);
    chmod(noexec, 0755);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    free(closed);
    free(noexec);
    tree_remove(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_missing_and_empty_roots_reported_once_with_path),
        cmocka_unit_test(test_walk_ready_error_policies),
        cmocka_unit_test(test_walk_ignore_permission_errors_policy),
        cmocka_unit_test(test_walk_print_errors_and_continue_policy),
        cmocka_unit_test(test_walk_unreadable_dirs_as_unprivileged_user),
        cmocka_unit_test(test_walk_each_failure_reported_once_as_unprivileged_user),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_errors", tests, group_setup, group_teardown);
}
