// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * -exclude EXPR, as bfs has it: every path EXPR matches is left out of the walk, whatever
 * the rest of the expression, -depth or -mindepth say: it is not visited and, for a
 * directory, not entered. The test runs in the walker's children hook, on names and types
 * as listed, before any stat: an excluded entry is never stat'ed (unless EXPR itself reads
 * metadata, which the hook then asks for). Roots are tested at their visit.
 */
#include "frdfind_exclude.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_table.h"

#include <stdlib.h>
#include <string.h>

/** The test in front of the expression: false for a root that EXPR matches. */
static bool eval_root_kept(const struct ff_expr *expr, struct ff_eval *st)
{
    if (st->we->depth != 0) {
        return true;
    }
    // EXCLUDE on its own: nothing known of the root, and no stat made on demand.
    struct ff_eval sub = {.ctx = st->ctx, .we = st->we, .thr = st->thr};
    const struct ff_expr *exclude = expr->data;
    return !ff_eval(exclude, &sub);
}

/** The row of the test in front of the expression (not in the table: no word names it). */
static const struct ff_primary root_kept = {
    "-exclude", FF_PRIM_TEST, 0, NULL, eval_root_kept, 0, 0, FF_MISSING_ARGUMENT};

int ff_exclude_finish(struct ff_ctx *ctx)
{
    struct ff_options *opts = &ctx->opts;
    if (opts->exclude == NULL) {
        return 0;
    }
    struct ff_expr *keep = ff_expr_new(&root_kept);
    struct ff_expr *both = keep != NULL ? ff_expr_new(&ff_op_and) : NULL;
    if (both == NULL) {
        free(keep);
        ff_error(ctx, "out of memory");
        return 1;
    }
    keep->data = opts->exclude; // owned by opts
    // What EXCLUDE reads, but the type: the test evaluates EXCLUDE afresh on a root, so a
    // root whose type is unknown (its stat failed) is still tested.
    keep->needs = ff_expr_needs(opts->exclude) & ~(unsigned)FRD_FIELD_TYPE;
    both->lhs = keep;
    both->rhs = opts->expr;
    opts->expr = both;
    return 0;
}

void ff_exclude_children(struct ff_ctx *ctx, const struct frd_walk_entry *dir,
                         struct frd_walk_children *kids)
{
    const struct ff_options *opts = &ctx->opts;
    struct ff_thread *thr = ff_thread_get(ctx, dir->worker);
    size_t n = frd_walk_children_count(kids);
    if (thr == NULL) {
        // No state to test with: nothing of the listing is let through untested.
        ff_error(ctx, "out of memory");
        for (size_t i = 0; i < n; i++) {
            frd_walk_children_drop(kids, i);
        }
        return;
    }
    // One evaluation state for the directory and its entries: what the first lazy stat
    // learns (see struct ff_result) holds for the rest of the listing.
    struct ff_eval st = {.ctx = ctx, .we = dir, .thr = thr, .stat_on_demand = opts->stat_may_fail};
    if (dir->depth == 0 && ff_eval(opts->exclude, &st)) {
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
        st.we = &we;
        if (ff_eval(opts->exclude, &st)) {
            frd_walk_children_drop(kids, i);
        }
    }
}
