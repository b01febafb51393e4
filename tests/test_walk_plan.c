// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walk's plan (walker/core/plan.c): the flags a walk's options decide, derived from them and
 * from a machine the test makes up (CPUs, descriptor limit, mount table, privilege,
 * FRD_POOL), and which of the machine's answers each decision asks for.
 */
#include "core/plan.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/** The made-up machine, and how often each of its answers was asked for. */
static struct {
    unsigned cpus;
    unsigned fd_limit;
    bool mounts_may_cycle;
    bool root;
    const char *pool; /**< FRD_POOL, or NULL */
    unsigned asked_cpus, asked_fd_limit, asked_mounts, asked_root, asked_env;
} m;

static unsigned fake_cpus(void)
{
    m.asked_cpus++;
    return m.cpus;
}

static unsigned fake_fd_limit(void)
{
    m.asked_fd_limit++;
    return m.fd_limit;
}

static bool fake_mounts_may_cycle(void)
{
    m.asked_mounts++;
    return m.mounts_may_cycle;
}

static bool fake_searches_everything(void)
{
    m.asked_root++;
    return m.root;
}

static const char *fake_getenv(const char *name)
{
    m.asked_env++;
    return strcmp(name, "FRD_POOL") == 0 ? m.pool : NULL;
}

static const struct frd__walk_env fake_env = {
    .cpus = fake_cpus,
    .fd_limit = fake_fd_limit,
    .mounts_may_cycle = fake_mounts_may_cycle,
    .searches_everything = fake_searches_everything,
    .getenv = fake_getenv,
};

/** A machine with 4 CPUs, 1,024 descriptors, an ordinary mount table, not root. */
static int machine_setup(void **state)
{
    (void)state;
    memset(&m, 0, sizeof(m));
    m.cpus = 4;
    m.fd_limit = 1024;
    return 0;
}

static struct frd__walk_plan plan_of(const struct frd_walk_options *o)
{
    struct frd__walk_plan p;
    assert_int_equal(frd__walk_plan(&p, o, &fake_env), 0);
    return p;
}

static void test_plan_defaults_adaptive_pool_of_the_cpus_full_fields(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    struct frd__walk_plan p = plan_of(&o);
    assert_int_equal(p.sched.nworkers, 4);
    assert_int_equal(p.sched.policy, FRD__POOL_ADAPTIVE);
    assert_int_equal(p.sched.max_workers, 32);
    assert_false(p.sched.consumer);
    assert_int_equal(p.fields, FRD_FIELDS_ALL);
    assert_int_equal(p.list_fields, FRD_FIELDS_ALL);
    assert_int_equal(p.lister_flags, 0);
    assert_false(p.names_only);
    assert_false(p.unique);
    // A full listing gives ids: nothing is stat'ed for loops or search permission, and
    // neither the mount table nor the privilege is asked for.
    assert_false(p.need_dir_ids);
    assert_false(p.stat_dir_ids);
    assert_false(p.probe_search);
    assert_int_equal(m.asked_mounts, 0);
    assert_int_equal(m.asked_root, 0);
    // Half the limit; the keep limit leaves room for what 32 workers hold at once.
    assert_int_equal(p.fd_budget, 512);
    assert_int_equal(p.keep_limit, 512 - (2 * 32 + 2));
    assert_int_equal(p.progress_ns, 1000000000u);
}

static void test_plan_default_workers_capped_at_8(void **state)
{
    (void)state;
    m.cpus = 64;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    assert_int_equal(plan_of(&o).sched.nworkers, 8);
    m.cpus = 0; // unknown: one
    assert_int_equal(plan_of(&o).sched.nworkers, 1);
}

static void test_plan_workers_asked_are_a_fixed_pool_and_ask_no_cpus(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.workers = 3;
    struct frd__walk_plan p = plan_of(&o);
    assert_int_equal(p.sched.nworkers, 3);
    assert_int_equal(p.sched.policy, FRD__POOL_FIXED);
    assert_int_equal(p.sched.max_workers, 3);
    assert_int_equal(m.asked_cpus, 0);
    assert_int_equal(m.asked_env, 0); // FRD_POOL applies to the default count only
    assert_int_equal(p.keep_limit, 512 - (2 * 3 + 2));
}

static void test_plan_small_budget_leaves_half_to_keep(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.workers = 8;
    o.fd_budget = 20;
    struct frd__walk_plan p = plan_of(&o);
    // 2n + 2 <= 10: four workers, and the limit is not asked for.
    assert_int_equal(p.sched.nworkers, 4);
    assert_int_equal(p.keep_limit, 20 - 10);
    assert_int_equal(m.asked_fd_limit, 0);
    o.fd_budget = 3;
    p = plan_of(&o);
    assert_int_equal(p.sched.nworkers, 1);
    assert_int_equal(p.keep_limit, 0);
}

static void test_plan_unlimited_descriptors_budget_4096(void **state)
{
    (void)state;
    m.fd_limit = 0;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    struct frd__walk_plan p = plan_of(&o);
    assert_int_equal(p.fd_budget, 4096);
    m.fd_limit = 1u << 20;
    p = plan_of(&o);
    assert_int_equal(p.fd_budget, 4096);
}

static void test_plan_widening_bound_is_an_eighth_of_the_budget(void **state)
{
    (void)state;
    m.fd_limit = 256; // budget 128: at most 16 workers
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    struct frd__walk_plan p = plan_of(&o);
    assert_int_equal(p.sched.policy, FRD__POOL_ADAPTIVE);
    assert_int_equal(p.sched.max_workers, 16);
    m.fd_limit = 64; // budget 32: a bound of 4 leaves no room above 4 workers
    p = plan_of(&o);
    assert_int_equal(p.sched.policy, FRD__POOL_FIXED);
    assert_int_equal(p.sched.max_workers, p.sched.nworkers);
}

static void test_plan_frd_pool_env_picks_fixed_or_wide_and_bound(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    m.pool = "fixed";
    struct frd__walk_plan p = plan_of(&o);
    assert_int_equal(p.sched.policy, FRD__POOL_FIXED);
    assert_int_equal(p.sched.max_workers, 4);
    m.pool = "wide:16";
    p = plan_of(&o);
    assert_int_equal(p.sched.policy, FRD__POOL_WIDE);
    assert_int_equal(p.sched.max_workers, 16);
    m.pool = "adaptive:9999"; // out of range: the default bound
    p = plan_of(&o);
    assert_int_equal(p.sched.policy, FRD__POOL_ADAPTIVE);
    assert_int_equal(p.sched.max_workers, 32);
}

static void test_plan_ordered_is_fixed_with_a_consumer(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = FRD_WALK_ORDERED;
    m.pool = "wide";
    struct frd__walk_plan p = plan_of(&o);
    assert_true(p.sched.consumer);
    assert_int_equal(p.sched.policy, FRD__POOL_FIXED);
    assert_int_equal(p.sched.max_workers, p.sched.nworkers);
    assert_int_equal(m.asked_env, 0);
}

static void test_plan_names_only_follow_all_stats_directory_ids(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = FRD_WALK_NAMES_ONLY;
    o.follow = FRD_FOLLOW_ALL;
    struct frd__walk_plan p = plan_of(&o);
    assert_true(p.names_only);
    assert_int_equal(p.fields, FRD_FIELD_TYPE);
    assert_int_equal(p.lister_flags, FRD_LIST_NAMES_ONLY);
    assert_true(p.need_dir_ids);
    assert_true(p.stat_dir_ids);
    assert_false(p.probe_search);
    // Links followed decide it: the mount table and the privilege are not asked for.
    assert_int_equal(m.asked_mounts, 0);
    assert_int_equal(m.asked_root, 0);
}

static void test_plan_names_only_checks_mounts_then_search_permission(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = FRD_WALK_NAMES_ONLY;
    struct frd__walk_plan p = plan_of(&o);
    assert_false(p.need_dir_ids);
    assert_false(p.stat_dir_ids);
    assert_true(p.probe_search); // not root: a directory may not be searchable
    assert_int_equal(m.asked_mounts, 1);
    assert_int_equal(m.asked_root, 1);
    m.root = true;
    assert_false(plan_of(&o).probe_search);
    m.mounts_may_cycle = true; // a bind mount below itself: every directory's identity
    m.asked_root = 0;
    p = plan_of(&o);
    assert_true(p.stat_dir_ids);
    assert_false(p.probe_search);
    assert_int_equal(m.asked_root, 0);
    o.flags |= FRD_WALK_ONE_FILE_SYSTEM;
    assert_true(plan_of(&o).need_dir_ids);
}

static void test_plan_unique_adds_ids_and_nlink(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = FRD_WALK_NAMES_ONLY | FRD_WALK_UNIQUE_FILES;
    struct frd__walk_plan p = plan_of(&o);
    assert_true(p.unique);
    assert_int_equal(p.fields,
                     FRD_FIELD_TYPE | FRD_FIELD_FILE_ID | FRD_FIELD_DEV | FRD_FIELD_NLINK);
    assert_false(p.names_only);
    assert_false(p.stat_dir_ids);
    assert_int_equal(m.asked_mounts, 0);
}

static void hook(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    (void)dir;
    (void)kids;
    (void)udata;
}

static void done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *t, void *udata)
{
    (void)dir;
    (void)t;
    (void)udata;
}

static void test_plan_children_hook_lists_its_fields_then_stats(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.on_children = hook;
    struct frd__walk_plan p = plan_of(&o);
    assert_true(p.children);
    assert_int_equal(p.list_fields, FRD_FIELD_TYPE);
    assert_int_equal(p.lister_flags, FRD_LIST_NAMES_ONLY);
    assert_false(p.children_complete);
    assert_false(p.children_parts);
    assert_true(p.hook_pins_parent);
    o.children_fields = FRD_FIELDS_ALL;
    o.flags = FRD_WALK_CHILDREN_PARTS;
    p = plan_of(&o);
    assert_true(p.children_complete);
    assert_true(p.children_parts);
    assert_int_equal(p.lister_flags, 0);
    o.flags = FRD_WALK_CHILDREN_PARTS | FRD_WALK_ORDERED; // parts: the concurrent mode's
    p = plan_of(&o);
    assert_false(p.children_parts);
    assert_false(p.hook_pins_parent);
}

static void test_plan_post_order_hook_where_and_with_what_ids(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.on_dir_done = done;
    struct frd__walk_plan p = plan_of(&o);
    assert_true(p.post_order_on_release);
    assert_false(p.need_parent_ids); // the listing gives ids
    o.flags = FRD_WALK_NAMES_ONLY;
    assert_true(plan_of(&o).need_parent_ids);
    o.flags = FRD_WALK_NAMES_ONLY | FRD_WALK_NO_PARENT_FD;
    assert_false(plan_of(&o).need_parent_ids);
    o.flags = FRD_WALK_NAMES_ONLY | FRD_WALK_ORDERED; // the consumer calls it
    p = plan_of(&o);
    assert_false(p.post_order_on_release);
    assert_false(p.need_parent_ids);
}

static void test_plan_progress_interval(void **state)
{
    (void)state;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.progress_interval_ms = 250;
    assert_int_equal(plan_of(&o).progress_ns, 250000000u);
}

static void test_plan_out_of_range_options_are_einval(void **state)
{
    (void)state;
    struct frd__walk_plan p;
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.flags = 1u << 30;
    assert_int_equal(frd__walk_plan(&p, &o, &fake_env), FRD_EINVAL);
    frd_walk_options_init(&o);
    o.fields = 1u << 30;
    assert_int_equal(frd__walk_plan(&p, &o, &fake_env), FRD_EINVAL);
    frd_walk_options_init(&o);
    o.follow = (enum frd_follow)(FRD_FOLLOW_ALL + 1);
    assert_int_equal(frd__walk_plan(&p, &o, &fake_env), FRD_EINVAL);
    frd_walk_options_init(&o);
    o.min_depth = -1;
    assert_int_equal(frd__walk_plan(&p, &o, &fake_env), FRD_EINVAL);
    frd_walk_options_init(&o);
    o.max_depth = -2;
    assert_int_equal(frd__walk_plan(&p, &o, &fake_env), FRD_EINVAL);
    frd_walk_options_init(&o);
    o.workers = FRD__WALK_MAX_WORKERS + 1;
    assert_int_equal(frd__walk_plan(&p, &o, &fake_env), FRD_EINVAL);
    o.workers = FRD__WALK_MAX_WORKERS;
    assert_int_equal(frd__walk_plan(&p, &o, &fake_env), 0);
    // Nothing was asked of the machine for options it refused.
    assert_int_equal(m.asked_fd_limit, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_plan_defaults_adaptive_pool_of_the_cpus_full_fields,
                               machine_setup),
        cmocka_unit_test_setup(test_plan_default_workers_capped_at_8, machine_setup),
        cmocka_unit_test_setup(test_plan_workers_asked_are_a_fixed_pool_and_ask_no_cpus,
                               machine_setup),
        cmocka_unit_test_setup(test_plan_small_budget_leaves_half_to_keep, machine_setup),
        cmocka_unit_test_setup(test_plan_unlimited_descriptors_budget_4096, machine_setup),
        cmocka_unit_test_setup(test_plan_widening_bound_is_an_eighth_of_the_budget, machine_setup),
        cmocka_unit_test_setup(test_plan_frd_pool_env_picks_fixed_or_wide_and_bound, machine_setup),
        cmocka_unit_test_setup(test_plan_ordered_is_fixed_with_a_consumer, machine_setup),
        cmocka_unit_test_setup(test_plan_names_only_follow_all_stats_directory_ids, machine_setup),
        cmocka_unit_test_setup(test_plan_names_only_checks_mounts_then_search_permission,
                               machine_setup),
        cmocka_unit_test_setup(test_plan_unique_adds_ids_and_nlink, machine_setup),
        cmocka_unit_test_setup(test_plan_children_hook_lists_its_fields_then_stats, machine_setup),
        cmocka_unit_test_setup(test_plan_post_order_hook_where_and_with_what_ids, machine_setup),
        cmocka_unit_test_setup(test_plan_progress_interval, machine_setup),
        cmocka_unit_test_setup(test_plan_out_of_range_options_are_einval, machine_setup),
    };
    return cmocka_run_group_tests_name("walk_plan", tests, NULL, NULL);
}
