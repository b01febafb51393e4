// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's evaluator: runs the expression tree on one walk entry, with GNU find's
 * semantics for each test (fnmatch flags, -size rounding, -mtime windows), and says which
 * metadata the tree needs so a names-only walk is used whenever it can be.
 */
#define _GNU_SOURCE // FNM_CASEFOLD

#include "errtext.h"
#include "frdfind.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <string.h>
#include <sys/stat.h>

unsigned ff_expr_needs(const struct ff_expr *expr)
{
    if (expr == NULL) {
        return 0;
    }
    unsigned needs = ff_expr_needs(expr->lhs) | ff_expr_needs(expr->rhs);
    switch (expr->kind) {
    case FF_SIZE:
    case FF_EMPTY: // the size of a file; a directory is listed
        needs |= FRD_FIELD_SIZE;
        break;
    case FF_PRED:
        needs |= expr->needs;
        break;
    case FF_INUM:
        needs |= FRD_FIELD_FILE_ID;
        break;
    case FF_LINKS:
        needs |= FRD_FIELD_NLINK;
        break;
    case FF_LS: // the ls -dils line
        needs |= FRD_FIELD_FILE_ID | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_MODE | FRD_FIELD_NLINK |
                 FRD_FIELD_UID | FRD_FIELD_GID | FRD_FIELD_SIZE | FRD_FIELD_RDEV | FRD_FIELD_MTIME;
        break;
    default:
        break;
    }
    // -printf's needs were added when its format was compiled (see ff_parse()).
    return needs;
}

const char *ff_base_name(const struct frd_walk_entry *we, struct ff_thread *thr, size_t *len)
{
    if (we->depth > 0) {
        *len = we->entry->name_len;
        return we->entry->name;
    }
    size_t end = we->path_len;
    while (end > 0 && we->path[end - 1] == '/') {
        end--;
    }
    if (end == 0) {
        *len = we->path_len > 0 ? 1 : 0;
        return we->path_len > 0 ? "/" : "";
    }
    size_t start = end;
    while (start > 0 && we->path[start - 1] != '/') {
        start--;
    }
    char *buf = ff_thread_scratch(thr, end - start + 1);
    if (buf == NULL) {
        return NULL;
    }
    memcpy(buf, we->path + start, end - start);
    buf[end - start] = '\0';
    *len = end - start;
    return buf;
}

static bool match_name(const struct ff_ctx *ctx, const struct ff_expr *expr, const char *name,
                       size_t len)
{
    switch (expr->match) {
    case FF_MATCH_ANY:
        return true;
    case FF_MATCH_EXACT:
        return len == expr->literal_len && memcmp(name, expr->pattern, len) == 0;
    case FF_MATCH_SUFFIX:
        // "*.h": the '*' matches any prefix, a leading dot included (no FNM_PERIOD).
        return len >= expr->literal_len &&
               memcmp(name + len - expr->literal_len, expr->pattern + 1, expr->literal_len) == 0;
    case FF_MATCH_FNMATCH:
    default:
        return ff_fnmatch(ctx, expr->pattern, expr->ascii, name, len, expr->fnm_flags);
    }
}

static bool compare(enum ff_cmp cmp, uint64_t value, uint64_t want)
{
    switch (cmp) {
    case FF_CMP_LT:
        return value < want;
    case FF_CMP_GT:
        return value > want;
    case FF_CMP_EQ:
    default:
        return value == want;
    }
}

/** -empty: a regular file of size 0, or a directory with no entries. */
static bool is_empty(struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    struct ff_thread *thr = st->thr;
    const struct frd_entry *e = we->entry;
    if (e->type == FRD_TYPE_REG) {
        return e->size == 0;
    }
    if (e->type != FRD_TYPE_DIR) {
        return false;
    }
    struct frd_lister *lister;
    struct frd_list *list;
    if (ff_thread_lister(thr, &lister, &list) < 0) {
        ff_error(st->ctx, "out of memory");
        return false;
    }
    // Relative to the directory holding the entry (a root: its name as given, from the
    // current directory), never by the full path: no PATH_MAX limit, and a directory
    // swapped for a link meanwhile is not followed.
    unsigned open_flags = we->followed_link || we->is_root ? 0 : FRD_OPEN_NOFOLLOW;
    int rc = frd_lister_list_at(lister, list, we->parent_fd, e->name, open_flags);
    if (rc < 0) {
        // GNU find reports the directory it could not open for -empty, then again when
        // the walk fails to read it.
        ff_out_before_error(thr);
        ff_error_path(st->ctx, we->path, tool_strerror(rc));
        return false;
    }
    return rc == 0;
}

static void print_path(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    struct ff_thread *thr = st->thr;
    // -print0's output is for programs: never marked (find's is not either).
    ff_out_to_tty(thr, expr->sep == '\n' && ff_out_stdout_is_tty(st->ctx));
    ff_out_append_name(thr, we->path, we->path_len);
    ff_out_byte(thr, expr->sep);
    ff_out_end_record(thr);
}

/** What one node (not its operands) reads of the entry: enum frd_field / ff_need bits. */
static unsigned node_needs(const struct ff_expr *expr)
{
    switch (expr->kind) {
    case FF_TYPE:
        return FRD_FIELD_TYPE;
    case FF_PRED:
    case FF_PRINTF:
    case FF_FPRINTF:
        return expr->needs;
    case FF_SIZE:
    case FF_EMPTY:
    case FF_INUM:
    case FF_LINKS:
    case FF_LS:
        return ff_expr_needs(expr);
    case FF_PRUNE:
        return FF_NEED_STAT; // find's -prune is false where the stat fails

    default:
        return 0;
    }
}

bool ff_expr_uses_dir_fd(const struct ff_expr *expr, bool stat_may_fail)
{
    if (expr == NULL) {
        return false;
    }
    if (ff_expr_uses_dir_fd(expr->lhs, stat_may_fail) ||
        ff_expr_uses_dir_fd(expr->rhs, stat_may_fail)) {
        return true;
    }
    switch (expr->kind) {
    case FF_AND:
    case FF_OR:
    case FF_COMMA:
    case FF_NOT:
    case FF_TRUE:
    case FF_FALSE:
    case FF_NAME:
    case FF_PATH:
    case FF_TYPE:
    case FF_SIZE:
    case FF_INUM:
    case FF_LINKS:
    case FF_PRUNE:
    case FF_QUIT:
    case FF_PRINT:
    case FF_COUNT:
    case FF_FPRINT:
    case FF_PRED:
    case FF_PRINTF:
    case FF_FPRINTF: {
        unsigned needs = node_needs(expr);
        return (needs & FF_NEED_DIR_FD) != 0 || ((needs & FF_NEED_STAT) && stat_may_fail);
    }
    default: // -exec and its kin, -delete, -empty (lists it), -ls (a link's target)
        return true;
    }
}

/**
 * find on an entry whose stat failed: a test that needs the stat is false, and the error
 * is reported the first time one needs it (once per entry); where the type is unknown too
 * (see struct ff_result), so are the tests of type and inode.
 * @return whether expr cannot be evaluated on the entry.
 */
static bool unknowable(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    struct ff_result *res = &st->res;
    unsigned needs = node_needs(expr);
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
    return res->no_type && (needs & (FRD_FIELD_TYPE | FRD_FIELD_FILE_ID)) != 0;
}

bool ff_eval(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    const struct ff_options *opts = &st->ctx->opts;
    struct ff_thread *thr = st->thr;
    struct ff_result *res = &st->res;
    const struct frd_entry *e = we->entry;
    if ((res->no_stat || expr->kind == FF_PRUNE || expr->kind == FF_PRED ||
         expr->kind == FF_PRINTF || expr->kind == FF_FPRINTF) &&
        unknowable(expr, st)) {
        return false;
    }
    switch (expr->kind) {
    case FF_AND:
        return ff_eval(expr->lhs, st) && !res->quit && ff_eval(expr->rhs, st);
    case FF_OR:
        return ff_eval(expr->lhs, st) || (!res->quit && ff_eval(expr->rhs, st));
    case FF_COMMA:
        ff_eval(expr->lhs, st);
        return !res->quit && ff_eval(expr->rhs, st);
    case FF_NOT:
        return !ff_eval(expr->lhs, st);
    case FF_TRUE:
        return true;
    case FF_FALSE:
        return false;
    case FF_NAME: {
        size_t len;
        const char *name = ff_base_name(we, thr, &len);
        return name != NULL && match_name(st->ctx, expr, name, len);
    }
    case FF_PATH:
        return ff_fnmatch(st->ctx, expr->pattern, expr->ascii, we->path, we->path_len,
                          expr->fnm_flags);
    case FF_TYPE:
        // find stats every directory; when that fails (an unsearchable parent) it cannot
        // tell the type, and -type is false (see unknowable()).
        return (expr->types & (1u << e->type)) != 0;
    case FF_SIZE: {
        // GNU find rounds the size up to whole units, then compares.
        uint64_t units = e->size / expr->unit + (e->size % expr->unit != 0);
        return compare(expr->cmp, units, expr->num);
    }
    case FF_EMPTY:
        return is_empty(st);
    case FF_INUM:
        return compare(expr->cmp, e->file_id, expr->num);
    case FF_LINKS:
        return compare(expr->cmp, e->nlink, expr->num);
    case FF_PRUNE:
        if (!opts->depth) {
            res->prune = true;
        }
        return true;
    case FF_QUIT:
        res->quit = true;
        return true;
    case FF_PRINT:
        if (opts->color && expr->sep == '\n') {
            ff_color_print(st); // bfs's -color writes names as they are, as bfs does
            return true;
        }
        print_path(expr, st);
        return true;
    case FF_PRINTF:
        ff_out_to_tty(thr, ff_out_stdout_is_tty(st->ctx));
        ff_format_render(expr->format, st);
        ff_out_end_record(thr);
        return true;
    case FF_COUNT:
        ff_out_count(thr);
        return true;
    case FF_EXEC:
        return ff_exec_eval(expr->exec, st);
    case FF_DELETE:
        return ff_delete_eval(st);
    case FF_LS:
        ff_ls_eval(expr->file, st);
        return true;
    case FF_FPRINT:
    case FF_FPRINTF:
        ff_file_eval(expr, st);
        return true;
    case FF_PRED:
        return expr->test(expr, st);
    }
    return false;
}
