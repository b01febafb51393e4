// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A walk's plan: its flags derived once from its options and the machine (walker/core/plan.h). */
#include "plan.h"

#include "platform.h"

#include <stdlib.h>
#include <string.h>
#include <uv.h>

/** Default cap on workers when the caller leaves it to us (bfs caps at 8 as well). */
#define PLAN_DEFAULT_MAX_WORKERS 8
/** Bound of a pool widened while its workers sit blocked on I/O (walker/sched/width.c): the
 *  knee of the cold-cache sweep in bench/README.md. */
#define PLAN_MAX_IO_WORKERS 32
/**
 * Address space a walk leaves free while it starts its threads, under a limit of it
 * (`ulimit -v`; walker/sched/threads.c): threads are started while they fit with this much
 * to spare, for what the walk and its caller allocate afterwards. A base of a thread's
 * default stack (8 MiB: as much as one thread fewer would leave), and per worker the pool
 * may have what a running worker was measured to add (frdfind over /usr/share, glibc with
 * MALLOC_ARENA_MAX=1, VmPeak less the stacks: about 0.2 MB set up and as much grown per
 * concurrent worker; 22 MB at 2 workers and 44 MB at 8 in the ordered mode, whose
 * read-ahead grows with the workers, against 10 MB at 1).
 */
#define PLAN_ROOM_BASE       ((size_t)8 << 20)
#define PLAN_ROOM_CONCURRENT ((size_t)1 << 20)
#define PLAN_ROOM_ORDERED    ((size_t)6 << 20)
/** Descriptor budget when the limit is unknown or unlimited. */
#define PLAN_DEFAULT_FD_BUDGET 4096u

static unsigned plan_host_cpus(void)
{
    return uv_available_parallelism();
}

static const char *plan_host_getenv(const char *name)
{
    return getenv(name);
}

void frd__walk_env_host(struct frd__walk_env *env)
{
    env->cpus = plan_host_cpus;
    env->fd_limit = frd__plat_fd_limit;
    env->mounts_may_cycle = frd__plat_mounts_may_cycle;
    env->searches_everything = frd__plat_searches_everything;
    env->getenv = plan_host_getenv;
}

/**
 * The pool's policy at the default worker count: adaptive, unless FRD_POOL (a benchmark's
 * knob, bench/README.md "Cold cache") asks "fixed" (the CPU-sized pool alone) or "wide"
 * (the bound from the start); either may end in ":N" to set the bound (*max).
 */
static enum frd__pool_policy plan_pool_policy(const struct frd__walk_env *env, unsigned *max)
{
    const char *v = env->getenv("FRD_POOL");
    if (v == NULL) {
        return FRD__POOL_ADAPTIVE;
    }
    const char *colon = strchr(v, ':');
    if (colon != NULL) {
        unsigned long n = strtoul(colon + 1, NULL, 10);
        if (n >= 1 && n <= FRD__WALK_MAX_WORKERS) {
            *max = (unsigned)n;
        }
    }
    size_t len = colon != NULL ? (size_t)(colon - v) : strlen(v);
    if (len == 5 && strncmp(v, "fixed", 5) == 0) {
        return FRD__POOL_FIXED;
    }
    if (len == 4 && strncmp(v, "wide", 4) == 0) {
        return FRD__POOL_WIDE;
    }
    return FRD__POOL_ADAPTIVE;
}

/** Descriptors `workers` may hold at once, apart from the kept ones: each its listing's and
 *  two while reopening along the ancestors, and two more. */
static unsigned plan_fd_reserve(unsigned workers)
{
    return 2 * workers + 2;
}

/** Are the options within range? */
static bool plan_options_valid(const struct frd_walk_options *o)
{
    return (o->fields & ~(unsigned)FRD_FIELDS_ALL) == 0 &&
           (o->flags & ~(unsigned)FRD__WALK_FLAGS_ALL) == 0 && o->follow <= FRD_FOLLOW_ALL &&
           o->min_depth >= 0 && o->max_depth >= -1 && o->workers <= FRD__WALK_MAX_WORKERS;
}

/** The fields: what the visits want plus what the walk needs to decide, and what the
 *  listers fill (the children hook's, where it is set). */
static void plan_fields(struct frd__walk_plan *p, const struct frd_walk_options *o)
{
    // Visiting each file once, and hard-link groups, need the ids a full listing gives (and
    // nlink for files); the lister may fill more, and entry->fields says what each entry
    // holds.
    p->unique = (o->flags & (FRD_WALK_UNIQUE_FILES | FRD_WALK_UNIQUE_DIRS)) != 0;
    unsigned wanted =
        (o->flags & FRD_WALK_NAMES_ONLY) ? FRD_FIELD_TYPE : o->fields | FRD_FIELD_TYPE;
    if (p->unique || (o->flags & FRD_WALK_LINK_GROUPS)) {
        wanted |= FRD_FIELD_FILE_ID | FRD_FIELD_DEV | FRD_FIELD_NLINK;
    }
    p->fields = wanted;
    p->names_only = wanted == FRD_FIELD_TYPE;
    p->children = o->on_children != NULL || o->ignore != NULL;
    // With the children hook, list what it asks for (names only by default: what it drops
    // is never stat'ed); the survivors are stat'ed after it if the visits need more.
    p->list_fields = wanted;
    if (p->children) {
        p->list_fields = (o->children_fields | FRD_FIELD_TYPE) & FRD_FIELDS_ALL;
        p->children_complete = (wanted & ~p->list_fields) == 0;
        p->children_parts =
            (o->flags & (FRD_WALK_CHILDREN_PARTS | FRD_WALK_ORDERED)) == FRD_WALK_CHILDREN_PARTS;
    }
    p->lister_flags = p->list_fields == FRD_FIELD_TYPE ? FRD_LIST_NAMES_ONLY : 0;
}

/** What the walk checks without the ids a full listing gives: loops, other file systems,
 *  search permission, and the parent descriptors of the hooks. */
static void plan_ids(struct frd__walk_plan *p, const struct frd_walk_options *o,
                     const struct frd__walk_env *env)
{
    unsigned ids = FRD_FIELD_FILE_ID | FRD_FIELD_DEV;
    bool listed_ids = (p->fields & ids) == ids;
    // Without entry ids, loops and other file systems are found when a directory is opened.
    p->need_dir_ids =
        !listed_ids && (o->follow == FRD_FOLLOW_ALL || (o->flags & FRD_WALK_ONE_FILE_SYSTEM));
    // Every directory is checked against its ancestors before its visit; a listing without
    // ids pays a stat per directory for it only where a cycle can happen (links followed,
    // or a mount of a device below another mount of it: rare, so usually nothing).
    p->stat_dir_ids = !listed_ids && (o->follow == FRD_FOLLOW_ALL || env->mounts_may_cycle());
    p->probe_search = !p->stat_dir_ids && !listed_ids && !env->searches_everything();
    // The post-order hook's parent_fd is often reopened by ".." (the parent's descriptor is
    // gone by then), which is checked against the identity recorded at the parent's open. The
    // children hook's is not: the directory keeps the ref on its parent's descriptor that it
    // was opened through until its hook has run (hook_pins_parent); a parent whose
    // descriptor was not kept recorded its identity then (frd__keep_fd()).
    // With FRD_WALK_NO_PARENT_FD there is no parent_fd to give, so neither is needed.
    bool parent_fds = !(o->flags & (FRD_WALK_ORDERED | FRD_WALK_NO_PARENT_FD));
    p->need_parent_ids = parent_fds && !listed_ids && o->on_dir_done != NULL;
    p->hook_pins_parent = parent_fds && o->on_children != NULL;
    p->post_order_on_release = !(o->flags & FRD_WALK_ORDERED) && o->on_dir_done != NULL;
}

/** The workers, the pool's policy and the descriptors kept, within the budget. */
static void plan_pool(struct frd__walk_plan *p, const struct frd_walk_options *o,
                      const struct frd__walk_env *env)
{
    unsigned workers = o->workers;
    if (workers == 0) {
        unsigned n = env->cpus();
        workers = n < 1 ? 1 : n > PLAN_DEFAULT_MAX_WORKERS ? PLAN_DEFAULT_MAX_WORKERS : n;
    }
    unsigned budget = o->fd_budget;
    if (budget == 0) {
        unsigned limit = env->fd_limit();
        budget = limit == 0 ? PLAN_DEFAULT_FD_BUDGET : limit / 2;
        if (budget > PLAN_DEFAULT_FD_BUDGET) {
            budget = PLAN_DEFAULT_FD_BUDGET;
        }
    }
    // Each worker may hold two descriptors at once (the reserve below). A budget that leaves
    // little beyond that for the directories kept open for their children costs more than
    // threads give: a directory not kept is reopened along the ancestors by each child,
    // and a chain deeper than the budget then takes a step per level for every directory
    // (3,000 levels with a budget of 20 and 8 workers: 4.4 million reopen steps, 90 s
    // instead of 0.2 s). So the workers are as many as leave half the budget to keep, one
    // at least.
    while (workers > 1 && plan_fd_reserve(workers) > budget / 2) {
        workers--;
    }
    bool ordered = (o->flags & FRD_WALK_ORDERED) != 0;
    enum frd__pool_policy policy = FRD__POOL_FIXED;
    unsigned max_workers = PLAN_MAX_IO_WORKERS;
    if (o->workers == 0 && !ordered) {
        policy = plan_pool_policy(env, &max_workers);
    }
    // A widened pool's workers each hold descriptors too: at most an eighth of the budget.
    if (max_workers > budget / 8) {
        max_workers = budget / 8;
    }
    p->sched = (struct frd__sched_config){
        .nworkers = workers,
        .policy = policy,
        .max_workers = max_workers,
        .consumer = ordered,
    };
    frd__sched_config_settle(&p->sched);
    p->sched.room = PLAN_ROOM_BASE + (size_t)p->sched.max_workers *
                                         (ordered ? PLAN_ROOM_ORDERED : PLAN_ROOM_CONCURRENT);
    // Each worker may hold its listing's descriptor and two while reopening along the
    // ancestors (every worker a widened pool may add, too); the ordered consumer's frames
    // hold theirs out of the kept ones.
    unsigned reserve = plan_fd_reserve(p->sched.max_workers);
    p->fd_budget = budget;
    p->keep_limit = budget > reserve ? (int)(budget - reserve) : 0;
}

int frd__walk_plan(struct frd__walk_plan *plan, const struct frd_walk_options *opts,
                   const struct frd__walk_env *env)
{
    if (!plan_options_valid(opts)) {
        return FRD_EINVAL;
    }
    memset(plan, 0, sizeof(*plan));
    plan_fields(plan, opts);
    plan_ids(plan, opts, env);
    plan_pool(plan, opts, env);
    plan->progress_ns =
        (uint64_t)(opts->progress_interval_ms ? opts->progress_interval_ms : 1000) * 1000000u;
    return 0;
}
