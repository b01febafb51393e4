// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests on a generated tree, against GNU find: full and names-only walks, depth limits,
 * joins, links followed, hidden entries, odd names, frd_read_tree(), visit-once and one file
 * system.
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

/* ---- Agreement with find ---- */

static void test_walk_full_matches_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    assert_walk_matches_find(tree, &o, "", "");
}

static void test_walk_names_only_matches_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    assert_walk_matches_find(tree, &o, "", "");
}

static void test_walk_depth_limits_match_find(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    o.min_depth = 2;
    o.max_depth = 3;
    assert_walk_matches_find(tree, &o, "", "-mindepth 2 -maxdepth 3");
    o.min_depth = 0;
    o.max_depth = 0;
    assert_walk_matches_find(tree, &o, "", "-maxdepth 0");
    o.min_depth = 1;
    o.max_depth = 1;
    assert_walk_matches_find(tree, &o, "", "-mindepth 1 -maxdepth 1");
}

static void test_walk_trailing_slash_joins_like_find(void **state)
{
    (void)state;
    size_t n = strlen(tree);
    char *one = malloc(n + 3);
    assert_non_null(one);
    memcpy(one, tree, n);
    memcpy(one + n, "/", 2);
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    assert_walk_matches_find(one, &o, "", "");
    memcpy(one + n, "//", 3);
    assert_walk_matches_find(one, &o, "", "");
    free(one);
}

static void test_walk_follow_all_matches_find_L(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY);
    o.follow = FRD_FOLLOW_ALL;
    assert_walk_matches_find(tree, &o, "-L", "");
    o.flags = 0;
    assert_walk_matches_find(tree, &o, "-L", "");
}

static void test_walk_root_link_follow_never_is_a_link(void **state)
{
    (void)state;
    char *root = tree_path(tree, "dirlink");
    struct frd_walk_options o;
    walk_opts(&o, 0);
    assert_walk_matches_find(root, &o, "-P", "");
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
    assert_int_equal(c.recs.n, 1);
    rec_ctx_free(&c);
    o.follow = FRD_FOLLOW_ROOTS;
    assert_walk_matches_find(root, &o, "-H", "");
    free(root);
}

static void test_walk_skip_hidden_leaves_dot_entries_out(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY | FRD_WALK_SKIP_HIDDEN);
    assert_walk_matches_find(tree, &o, "", "-name '.*' -prune -o");
}

static void test_walk_odd_names_are_reported_byte_exact(void **state)
{
    (void)state;
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    int n = frd_read_tree(tree, FRD_WALK_NAMES_ONLY, list);
    assert_true(n > 0);
    bool newline = false;
    bool bad = false;
    const struct frd_entry *v = frd_list_entries(list);
    for (int i = 0; i < n; i++) {
        newline |= strcmp(v[i].name, "new\nline") == 0;
        bad |= strcmp(v[i].name, "bad\xff\xfeutf8") == 0;
    }
    assert_true(newline);
    assert_true(bad);
    frd_list_free(list);
}

static void test_walk_read_tree_matches_find_relative_paths(void **state)
{
    (void)state;
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    int n = frd_read_tree(tree, 0, list);
    assert_true(n > 0);
    struct recs mine;
    recs_init(&mine);
    const struct frd_entry *v = frd_list_entries(list);
    for (int i = 0; i < n; i++) {
        char buf[4096];
        int k = snprintf(buf, sizeof(buf), "%s\t%c\t%" PRIu64, v[i].name,
                         frd_type_letter(v[i].type), v[i].size);
        recs_add(&mine, buf, (size_t)k);
    }
    struct recs f;
    recs_init(&f);
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "find '%s' -mindepth 1 -printf '%%P\\t%%y\\t%%s\\0'", tree);
    run_recs(cmd, &f);
    recs_assert_equal(&mine, &f, "read_tree");
    recs_free(&f);
    recs_free(&mine);
    assert_int_equal(frd_read_tree("/nonexistent/frd", 0, list), FRD_ENOENT);
    frd_list_free(list);
}

static void test_walk_unique_visits_each_file_and_dir_once(void **state)
{
    (void)state;
    if (!backend_classifies_volumes()) {
        skip();
    }
    char *root = tree_make_root();
    tree_dir(root, "d");
    tree_file(root, "d/f", 3);
    char *a = tree_path(root, "d/f");
    char *b = tree_path(root, "g");
    assert_int_equal(link(a, b), 0);
    free(a);
    free(b);
    tree_symlink(root, "d", "dl");
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o,
                  FRD_WALK_UNIQUE_FILES | FRD_WALK_UNIQUE_DIRS | (ordered ? FRD_WALK_ORDERED : 0));
        o.follow = FRD_FOLLOW_ALL;
        struct rec_ctx c;
        rec_ctx_init(&c, REC_NAMES);
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        // root, d (or dl), f (or g): one of each identity.
        assert_int_equal(c.recs.n, 3);
        rec_ctx_free(&c);
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        o.follow = FRD_FOLLOW_ALL;
        rec_ctx_init(&c, REC_NAMES);
        assert_int_equal(frd_walk(root, &o, rec_visit, &c), 0);
        assert_int_equal(c.recs.n, 6); // root d d/f g dl dl/f
        rec_ctx_free(&c);
    }
    tree_remove(root);
}

static void test_walk_one_file_system_matches_find_xdev(void **state)
{
    (void)state;
    // /dev is a devtmpfs with /dev/pts and /dev/shm mounted inside it on Linux hosts, and
    // its contents hold still while the tests run.
    struct frd_walk_options o;
    walk_opts(&o, FRD_WALK_NAMES_ONLY | FRD_WALK_ONE_FILE_SYSTEM);
    assert_walk_matches_find("/dev", &o, "", "-xdev");
    o.flags = FRD_WALK_ONE_FILE_SYSTEM;
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    assert_int_equal(frd_walk("/dev", &o, rec_visit, &c), 0);
    struct recs f;
    recs_init(&f);
    find_recs("", "/dev", "-xdev", REC_NAMES, &f);
    recs_assert_equal(&c.recs, &f, "xdev full");
    recs_free(&f);
    rec_ctx_free(&c);
}

static void test_walk_fields_type_only_is_names_only(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.fields = FRD_FIELD_TYPE;
    struct rec_ctx c;
    rec_ctx_init(&c, REC_NAMES);
    assert_int_equal(frd_walk(tree, &o, rec_visit, &c), 0);
    struct recs f;
    recs_init(&f);
    find_recs("", tree, "", REC_NAMES, &f);
    recs_assert_equal(&c.recs, &f, "fields=type");
    recs_free(&f);
    rec_ctx_free(&c);
}

/** Records path, type, depth and whether a link was followed (udata: a struct rec_ctx). */
static enum frd_action plain_visit(const struct frd_walk_entry *we, void *udata)
{
    struct rec_ctx *c = udata;
    char buf[8192];
    int n =
        snprintf(buf, sizeof(buf), "%s\t%c\t%u\t%d\t%d", we->path, frd_type_letter(we->entry->type),
                 we->depth, we->followed_link, we->entry->error);
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    recs_add(&c->recs, buf, (size_t)n);
    return FRD_ACTION_CONTINUE;
}

/*
 * The walk's shortcut for plain entries (walker/core/resolve.h frd__resolve_entry(): listed
 * with their type alone, neither a directory nor a link to follow, answered without
 * frd__resolve_look()) against the general resolution: a walk that also asks each entry's
 * size looks at every entry. Both meet the same entries with the same types,
 * depths, links followed and errors, links followed or not.
 */
static void test_walk_plain_entries_as_the_general_path(void **state)
{
    (void)state;
    const enum frd_follow follows[] = {FRD_FOLLOW_NEVER, FRD_FOLLOW_ALL};
    for (size_t f = 0; f < sizeof(follows) / sizeof(follows[0]); f++) {
        struct rec_ctx plain;
        struct rec_ctx general;
        rec_ctx_init(&plain, REC_NAMES);
        rec_ctx_init(&general, REC_NAMES);
        struct frd_walk_options o;
        walk_opts(&o, 0);
        o.follow = follows[f];
        o.on_error = rec_error;
        o.fields = FRD_FIELD_TYPE;
        assert_int_equal(frd_walk(tree, &o, plain_visit, &plain), 0);
        o.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE;
        assert_int_equal(frd_walk(tree, &o, plain_visit, &general), 0);
        assert_true(plain.recs.n > 10);
        recs_assert_equal(&plain.recs, &general.recs, "plain entries, visits");
        recs_assert_equal(&plain.errors, &general.errors, "plain entries, errors");
        rec_ctx_free(&plain);
        rec_ctx_free(&general);
    }
}

/** Records a visit's name as the callback sees it, path, type, depth, link followed and error
 *  (udata: a struct rec_ctx). */
static enum frd_action named_visit(const struct frd_walk_entry *we, void *udata)
{
    struct rec_ctx *c = udata;
    char buf[8192];
    int n = snprintf(buf, sizeof(buf), "%s\t%s\t%zu\t%c\t%u\t%d\t%d", we->path, we->entry->name,
                     we->entry->name_len, frd_type_letter(we->entry->type), we->depth,
                     we->followed_link, we->entry->error);
    assert_true(n > 0 && (size_t)n < sizeof(buf));
    recs_add(&c->recs, buf, (size_t)n);
    return FRD_ACTION_CONTINUE;
}

/*
 * A names-only concurrent walk visits each entry straight from the kernel's buffer
 * (walker/concurrent/list.c wn_list_in_place()), with no list between. It meets what the
 * walks that list first meet (the record's own fields: type and file id; a stat per entry:
 * type and size), with the same names, paths, types, depths, links followed and errors: in
 * a directory of several kernel buffers (shared out from the second on when another worker
 * waits for work), among odd names (a newline, a tab, bytes that are not UTF-8, 255 bytes, hidden)
 * and in the common tree, links followed or not, hidden entries skipped or not.
 */
static void test_walk_names_in_place_as_the_lists(void **state)
{
    (void)state;
    char *root = tree_make_root();
    assert_int_equal(chmod(root, 0755), 0);
    tree_dir(root, "big");
    char rel[600];
    for (int i = 0; i < 2500; i++) {
        snprintf(rel, sizeof(rel), "big/%s%04d-a-name-long-enough-to-fill-a-kernel-buffer-soon",
                 i % 100 == 7 ? "." : "", i);
        if (i % 250 == 3) {
            tree_dir(root, rel);
            snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "/inner");
        }
        tree_file(root, rel, (size_t)(i % 3));
    }
    tree_dir(root, "odd");
    tree_file(root, "odd/new\nline", 1);
    tree_file(root, "odd/tab\there", 1);
    tree_file(root, "odd/\xff\xfe", 1);
    tree_file(root, "odd/.hidden", 1);
    tree_dir(root, "odd/ lead space");
    memset(rel, 'n', sizeof(rel));
    memcpy(rel, "odd/", 4);
    rel[4 + 255] = '\0';
    tree_file(root, rel, 1);
    tree_symlink(root, "../big", "odd/biglink");
    tree_symlink(root, "/nonexistent/frd", "odd/dangling");
    tree_fifo(root, "odd/fifo");
    tree_dir(root, "odd/empty");
    const char *roots[] = {root, tree};
    const unsigned general[] = {FRD_FIELD_TYPE | FRD_FIELD_FILE_ID,
                                FRD_FIELD_TYPE | FRD_FIELD_SIZE};
    for (size_t r = 0; r < 2; r++) {
        for (int run = 0; run < 4; run++) {
            struct frd_walk_options o;
            walk_opts(&o, run & 1 ? FRD_WALK_SKIP_HIDDEN : 0);
            o.follow = run & 2 ? FRD_FOLLOW_ALL : FRD_FOLLOW_NEVER;
            o.on_error = rec_error;
            o.fields = FRD_FIELD_TYPE;
            struct rec_ctx in_place;
            rec_ctx_init(&in_place, REC_NAMES);
            assert_int_equal(frd_walk(roots[r], &o, named_visit, &in_place), 0);
            assert_true(in_place.recs.n > (r == 0 ? 2400u : 600u));
            for (size_t g = 0; g < 2; g++) {
                struct rec_ctx listed;
                rec_ctx_init(&listed, REC_NAMES);
                o.fields = general[g];
                assert_int_equal(frd_walk(roots[r], &o, named_visit, &listed), 0);
                recs_assert_equal(&in_place.recs, &listed.recs, "in place, visits");
                recs_assert_equal(&in_place.errors, &listed.errors, "in place, errors");
                rec_ctx_free(&listed);
            }
            rec_ctx_free(&in_place);
        }
    }
    tree_remove(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_full_matches_find),
        cmocka_unit_test(test_walk_names_only_matches_find),
        cmocka_unit_test(test_walk_depth_limits_match_find),
        cmocka_unit_test(test_walk_trailing_slash_joins_like_find),
        cmocka_unit_test(test_walk_follow_all_matches_find_L),
        cmocka_unit_test(test_walk_root_link_follow_never_is_a_link),
        cmocka_unit_test(test_walk_skip_hidden_leaves_dot_entries_out),
        cmocka_unit_test(test_walk_odd_names_are_reported_byte_exact),
        cmocka_unit_test(test_walk_read_tree_matches_find_relative_paths),
        cmocka_unit_test(test_walk_unique_visits_each_file_and_dir_once),
        cmocka_unit_test(test_walk_one_file_system_matches_find_xdev),
        cmocka_unit_test(test_walk_fields_type_only_is_names_only),
        cmocka_unit_test(test_walk_plain_entries_as_the_general_path),
        cmocka_unit_test(test_walk_names_in_place_as_the_lists),
    };
    if (getenv("FRD_TEST_FILTER") != NULL) {
        cmocka_set_test_filter(getenv("FRD_TEST_FILTER"));
    }
    return cmocka_run_group_tests_name("walk_find", tests, group_setup, group_teardown);
}
