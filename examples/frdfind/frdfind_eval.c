// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's evaluator: the nodes of the expression tree, the operators, and find's rule
 * for an entry whose stat failed or was not made (ff_eval_unknowable()); what the tree
 * needs of each entry, so a names-only walk is used whenever it can be. Each test and
 * action evaluates itself (the table's eval functions, in their own files).
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_eval.h"

#include "errtext.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_printf.h"
#include "frdfind_table.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ff_entry_dir(const struct frd_walk_entry *we)
{
    return we->parent_fd != FRD_INVALID_FD ? we->parent_fd : AT_FDCWD;
}

const char *ff_entry_name(const struct frd_walk_entry *we)
{
    return we->parent_fd != FRD_INVALID_FD ? we->entry->name : we->path;
}

struct ff_expr *ff_expr_new(const struct ff_primary *prim)
{
    struct ff_expr *e = calloc(1, sizeof(*e));
    if (e != NULL) {
        e->prim = prim;
        e->eval = prim->eval;
        e->needs = prim->needs;
    }
    return e;
}

void ff_expr_free(struct ff_expr *e)
{
    if (e != NULL) {
        ff_expr_free(e->lhs);
        ff_expr_free(e->rhs);
        ff_format_free(e->format);
        if (e->free_data != NULL) {
            e->free_data(e->data);
        }
        free(e);
    }
}

unsigned ff_expr_needs(const struct ff_expr *expr)
{
    if (expr == NULL) {
        return 0;
    }
    return expr->needs | ff_expr_needs(expr->lhs) | ff_expr_needs(expr->rhs);
}

bool ff_expr_has_actions(const struct ff_expr *expr)
{
    return expr != NULL &&
           (expr->prim->kind == FF_PRIM_ACTION || expr->prim->kind == FF_PRIM_CONTROL ||
            ff_expr_has_actions(expr->lhs) || ff_expr_has_actions(expr->rhs));
}

bool ff_expr_uses_dir_fd(const struct ff_expr *expr, bool stat_may_fail)
{
    if (expr == NULL) {
        return false;
    }
    return (expr->needs & FF_NEED_DIR_FD) != 0 ||
           ((expr->needs & FF_NEED_STAT) != 0 && stat_may_fail) ||
           ff_expr_uses_dir_fd(expr->lhs, stat_may_fail) ||
           ff_expr_uses_dir_fd(expr->rhs, stat_may_fail);
}

bool ff_eval_unknowable(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    struct ff_result *res = &st->res;
    unsigned needs = expr->needs;
    const struct frd_entry *e = we->entry;
    if ((needs & FF_NEED_STAT) && st->stat_on_demand && !res->no_stat && !res->stat_tried &&
        we->depth > 0 && (e->fields & FF_STAT_FIELDS) == 0 && e->type != FRD_TYPE_DIR &&
        !we->followed_link) {
        // A test find answers from a stat the walk did not make (it stats directories and
        // followed links itself): made here, once per entry, only for the entries the test
        // is reached on, as find's lazy stat. Root searches every directory: no stat then.
        res->stat_tried = true;
        struct stat sb;
        if (fstatat(ff_entry_dir(we), e->name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
            int err = errno;
            ff_out_before_error(st->thr);
            ff_error_path(st->ctx, we->path, strerror(err));
            res->no_stat = true;
        }
    }
    if (!res->no_stat) {
        return false;
    }
    if ((needs & (FF_STAT_FIELDS | FF_NEED_STAT | FF_NEED_LINKSTAT)) != 0) {
        if (res->unreported < 0) {
            ff_out_before_error(st->thr);
            ff_error_path(st->ctx, we->path, tool_strerror(res->unreported));
            res->unreported = 0;
        }
        return true;
    }
    // find stats every directory; when that fails (an unsearchable parent) it cannot tell
    // the type, and -type is false.
    return res->no_type && (needs & (FRD_FIELD_TYPE | FRD_FIELD_FILE_ID)) != 0;
}

bool ff_eval_and(const struct ff_expr *expr, struct ff_eval *st)
{
    return ff_eval(expr->lhs, st) && !st->res.quit && ff_eval(expr->rhs, st);
}

bool ff_eval_or(const struct ff_expr *expr, struct ff_eval *st)
{
    return ff_eval(expr->lhs, st) || (!st->res.quit && ff_eval(expr->rhs, st));
}

bool ff_eval_comma(const struct ff_expr *expr, struct ff_eval *st)
{
    ff_eval(expr->lhs, st);
    return !st->res.quit && ff_eval(expr->rhs, st);
}

bool ff_eval_not(const struct ff_expr *expr, struct ff_eval *st)
{
    return !ff_eval(expr->lhs, st);
}

bool ff_eval_true(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    (void)st;
    return true;
}

bool ff_eval_false(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    (void)st;
    return false;
}
