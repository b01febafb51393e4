// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A walk's plan (walker/core/plan.c): every decision its options and the machine make, derived
 * once, before anything is allocated. The rest of the walker reads these flags and never
 * derives them again from the options.
 */
#ifndef FRD_WALKER_PLAN_H
#define FRD_WALKER_PLAN_H

#include "frd.h"
#include "sched/sched.h"

#include <stdbool.h>
#include <stdint.h>

/** Every enum frd_walk_flag bit this version knows. */
#define FRD__WALK_FLAGS_ALL                                                                     \
    (FRD_WALK_NAMES_ONLY | FRD_WALK_ONE_FILE_SYSTEM | FRD_WALK_UNIQUE_FILES |                   \
     FRD_WALK_UNIQUE_DIRS | FRD_WALK_SKIP_HIDDEN | FRD_WALK_ORDERED | FRD_WALK_CHILDREN_PARTS | \
     FRD_WALK_NO_PARENT_FD | FRD_WALK_LISTING_ORDER | FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY |       \
     FRD_WALK_LINK_TARGETS | FRD_WALK_XATTRS | FRD_WALK_LINK_GROUPS | FRD_WALK_DIR_DONE_RECORDS)

/** Hard cap on workers: past this, more threads only contend. */
#define FRD__WALK_MAX_WORKERS FRD_WALK_MAX_WORKERS

/**
 * What the plan asks of the machine. Each is called only where the options make the answer
 * matter (a walk that lists ids never reads the mount table), so a plan costs the calls the
 * walk needs and no more; frd__walk_env_host() gives the machine's own, tests give others.
 */
struct frd__walk_env {
    unsigned (*cpus)(void);                  /**< CPUs this process may use */
    unsigned (*fd_limit)(void);              /**< RLIMIT_NOFILE, or 0 when unlimited */
    bool (*mounts_may_cycle)(void);          /**< a mount below another of its device */
    bool (*searches_everything)(void);       /**< no directory's search bit holds it back */
    const char *(*getenv)(const char *name); /**< FRD_POOL (a benchmark's knob) */
};

/** The machine's own answers (libuv and platform/). */
void frd__walk_env_host(struct frd__walk_env *env);

/** The decisions of one walk. */
struct frd__walk_plan {
    /** The pool: workers (fewer than asked where the descriptor budget is small), its policy
     *  and bound, already settled as the scheduler will (frd__sched_config_settle()), and
     *  the ordered mode's consumer. */
    struct frd__sched_config sched;
    unsigned fields;        /**< enum frd_field bits the listers fill: wanted plus the walk's own */
    unsigned list_fields;   /**< the listers' fields: `fields`, or the children hook's */
    unsigned lister_flags;  /**< FRD_LIST_NAMES_ONLY when list_fields is the type alone */
    bool names_only;        /**< fields is FRD_FIELD_TYPE alone */
    bool unique;            /**< visit each file or directory once: a set of identities */
    bool children;          /**< opts.on_children is set: list names, hook, then stat */
    bool children_complete; /**< the hook's listing holds all `fields`: no stat after it */
    /** Concurrent mode, FRD_WALK_CHILDREN_PARTS: the hook sees a big listing batch by batch. */
    bool children_parts;
    bool need_dir_ids; /**< fstat every directory opened (names-only + follow or xdev) */
    /** The listing gives no ids, and a directory may repeat an ancestor (links followed, or
     *  mounts that can cycle): stat each directory's identity before its visit. */
    bool stat_dir_ids;
    /** The listing gives no stat and the process may lack search permission: stat the first
     *  subdirectory of each directory, and every one of an unsearchable directory. */
    bool probe_search;
    /** Concurrent mode with a post-order or children hook and no entry ids: record each
     *  directory's identity when it is opened, so that its descriptor can be reopened for
     *  those hooks one step away (by "..") and checked. */
    bool need_parent_ids;
    /** Concurrent mode with the children hook: a directory opened through the descriptor its
     *  parent kept for it holds that ref (WN_HOLDS_PARENT_FD) until its hook has run, so
     *  that the hook's parent_fd is at hand, with no reopen and no identity to record. */
    bool hook_pins_parent;
    /** Concurrent mode with a post-order hook: a directory's last release calls it (the
     *  ordered mode's consumer calls it as it leaves the directory). */
    bool post_order_on_release;
    /** The descriptor budget, and the open descriptors below which a directory's is kept
     *  for its children (the budget less what the workers may hold at once). */
    unsigned fd_budget;
    int keep_limit;
    uint64_t progress_ns; /**< between progress reports */
};

/**
 * Checks a walk's options and derives its plan from them and from `env`. Pure: it allocates
 * nothing, changes nothing, and reads the machine only through `env`.
 * @return 0, or FRD_EINVAL when an option is out of range (unknown flags or fields, follow,
 * depths, workers).
 */
int frd__walk_plan(struct frd__walk_plan *plan, const struct frd_walk_options *opts,
                   const struct frd__walk_env *env);

#endif // FRD_WALKER_PLAN_H
