// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's tests of an entry's size, identity and access, with GNU find 4.9's syntax,
 * results and messages: -size (rounded up to whole units, then compared), -empty, -inum,
 * -links (and -uid, -gid: find's +N, -N, N, read by ff_parse_cmp()), -samefile, -fstype,
 * -readable, -writable, -executable. Tests that touch the file system go through the
 * walker's parent descriptor (ff_entry_dir()), never through the path again.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_tests.h"

#include "errtext.h"
#include "frdfind_eval.h"
#include "frdfind_mounts.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ff_parse_size(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    // GNU find reads the unit from the last character, then the number before it.
    const char *arg = argv[1];
    size_t len = strlen(arg);
    if (len == 0) {
        ff_parser_fail(fp, "invalid null argument to -size");
        return -1;
    }
    char last = arg[len - 1];
    uint64_t unit = 512;
    size_t num_len = len;
    if (last < '0' || last > '9') {
        const char *units = "c\1w\2b\3k\4M\5G\6";
        const char *hit = strchr(units, last);
        if (hit == NULL || (hit - units) % 2 != 0) {
            char letter[2] = {last, '\0'};
            ff_parser_failf(fp, "invalid -size type `%s'", letter);
            return -1;
        }
        static const uint64_t sizes[] = {0, 1, 2, 512, 1024, 1024 * 1024, 1024 * 1024 * 1024};
        unit = sizes[(unsigned char)hit[1]];
        num_len = len - 1;
    }
    char *num = strndup(arg, num_len);
    if (num == NULL) {
        ff_parser_fail(fp, "out of memory");
        return -1;
    }
    bool valid = ff_parse_number(num, &expr->cmp, &expr->num);
    free(num);
    if (!valid) {
        ff_parser_failf(fp, "Invalid argument `%s' to -size", arg);
        return -1;
    }
    expr->unit = unit;
    return 0;
}

bool ff_eval_size(const struct ff_expr *expr, struct ff_eval *st)
{
    // GNU find rounds the size up to whole units, then compares.
    uint64_t size = st->we->entry->size;
    uint64_t units = size / expr->unit + (size % expr->unit != 0);
    return ff_compare(expr->cmp, units, expr->num);
}

int ff_parse_cmp(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    if (!ff_parse_number(argv[1], &expr->cmp, &expr->num)) {
        ff_parser_failf(fp, "invalid argument `%s' to `%s'", argv[1], argv[0]);
        return -1;
    }
    return 0;
}

bool ff_eval_inum(const struct ff_expr *expr, struct ff_eval *st)
{
    return ff_compare(expr->cmp, st->we->entry->file_id, expr->num);
}

bool ff_eval_links(const struct ff_expr *expr, struct ff_eval *st)
{
    return ff_compare(expr->cmp, st->we->entry->nlink, expr->num);
}

bool ff_eval_empty(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    const struct frd_walk_entry *we = st->we;
    const struct frd_entry *e = we->entry;
    if (e->type == FRD_TYPE_REG) {
        return e->size == 0;
    }
    if (e->type != FRD_TYPE_DIR) {
        return false;
    }
    struct frd_lister *lister;
    struct frd_list *list;
    if (ff_thread_lister(st->thr, &lister, &list) < 0) {
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
        ff_out_before_error(st->thr);
        ff_error_path(st->ctx, we->path, tool_strerror(rc));
        return false;
    }
    return rc == 0;
}

int ff_parse_samefile(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    // The file's (dev, inode), stat'ed as -H/-L say at this point of the line.
    struct stat sb;
    if (ff_parser_stat(fp, argv[1], &sb) != 0) {
        ff_parser_fail_stat(fp, argv[1]);
        return -1;
    }
    expr->num = (uint64_t)sb.st_ino;
    expr->unit = (uint64_t)sb.st_dev;
    return 0;
}

bool ff_eval_samefile(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_entry *e = st->we->entry;
    return e->file_id == expr->num && e->dev == expr->unit;
}

int ff_parse_fstype(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    (void)fp;
    expr->pattern = argv[1];
    return 0;
}

bool ff_eval_fstype(const struct ff_expr *expr, struct ff_eval *st)
{
    return strcmp(ff_fstype_name(st->ctx, st->we->entry->dev), expr->pattern) == 0;
}

bool ff_eval_access(const struct ff_expr *expr, struct ff_eval *st)
{
    // access(2) with the real ids, as find's faccessat (the row's param: R_OK, W_OK, X_OK).
    const struct frd_walk_entry *we = st->we;
    return faccessat(ff_entry_dir(we), ff_entry_name(we), expr->prim->param, 0) == 0;
}
