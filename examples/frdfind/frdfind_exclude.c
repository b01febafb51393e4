// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * -exclude EXPR, as bfs has it: every path EXPR matches is left out of the walk, whatever
 * the rest of the expression, -depth or -mindepth say: it is not visited and, for a
 * directory, not entered. The test runs in the walker's children hook, on names and types
 * as listed, before any stat: an excluded entry is never stat'ed (unless EXPR itself reads
 * metadata, which the hook then asks for). Roots are tested at their visit.
 */
#include "frdfind.h"
#include "grow.h"

#include <stdlib.h>
#include <string.h>

/** The test in front of the expression: false for a root that EXPR matches. */
static bool test_root_kept(const struct ff_expr *expr, const struct frd_walk_entry *we,
                           struct ff_thread *thr)
{
    if (we->depth != 0) {
        return true;
    }
    struct ff_result res = {.prune = false};
    const struct ff_expr *exclude = expr->data;
    return !ff_eval(exclude, NULL, we, thr, &res);
}

int ff_exclude_finish(struct ff_options *opts,
                      struct ff_expr *(*and_node)(struct ff_expr *lhs, struct ff_expr *rhs))
{
    if (opts->exclude == NULL) {
        return 0;
    }
    struct ff_expr *keep = calloc(1, sizeof(*keep));
    if (keep == NULL) {
        ff_error("out of memory");
        return 1;
    }
    keep->kind = FF_PRED;
    keep->test = test_root_kept;
    keep->data = opts->exclude; // owned by opts
    keep->needs = ff_expr_needs(opts->exclude);
    struct ff_expr *both = and_node(keep, opts->expr);
    if (both == NULL) {
        return 1;
    }
    opts->expr = both;
    return 0;
}

void ff_exclude_children(const struct ff_options *opts, const struct frd_walk_entry *dir,
                         struct frd_walk_children *kids)
{
    struct ff_thread *thr = ff_thread_get(dir->worker);
    size_t n = frd_walk_children_count(kids);
    if (thr == NULL) {
        // No state to test with: nothing of the listing is let through untested.
        ff_error("out of memory");
        for (size_t i = 0; i < n; i++) {
            frd_walk_children_drop(kids, i);
        }
        return;
    }
    struct ff_result res = {.prune = false};
    if (dir->depth == 0 && ff_eval(opts->exclude, opts, dir, thr, &res)) {
        for (size_t i = 0; i < n; i++) {
            frd_walk_children_drop(kids, i);
        }
        return;
    }
    // Each entry as a visit would see it: the path below the directory, one level deeper.
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        size_t len;
        const char *path = frd_walk_children_path(kids, i, &len);
        if (path == NULL) {
            break;
        }
        struct frd_walk_entry we = {
            .path = path,
            .path_len = len,
            .entry = e,
            .depth = dir->depth + 1,
            .parent_fd = frd_walk_children_fd(kids),
            .persistent_ids = dir->persistent_ids,
            .root_index = dir->root_index,
            .worker = dir->worker,
        };
        if (ff_eval(opts->exclude, opts, &we, thr, &res)) {
            frd_walk_children_drop(kids, i);
        }
    }
}
