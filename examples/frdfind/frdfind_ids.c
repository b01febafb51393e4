// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's owner tests, as GNU find 4.9 reads them: -user NAME and -group NAME (a name, or
 * a number when no user or group has that name), -uid N and -gid N (find's +N, -N, N; read
 * by ff_parse_cmp()), -nouser and -nogroup (an id with no name, through the run's cache).
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_ids.h"

#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_owner.h"
#include "frdfind_parse.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

bool ff_eval_uid(const struct ff_expr *expr, struct ff_eval *st)
{
    return ff_compare(expr->cmp, st->we->entry->uid, expr->num);
}

bool ff_eval_gid(const struct ff_expr *expr, struct ff_eval *st)
{
    return ff_compare(expr->cmp, st->we->entry->gid, expr->num);
}

bool ff_eval_nouser(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    return ff_user_name(st->ctx, st->we->entry->uid, st->we->worker) == NULL;
}

bool ff_eval_nogroup(const struct ff_expr *expr, struct ff_eval *st)
{
    (void)expr;
    return ff_group_name(st->ctx, st->we->entry->gid, st->we->worker) == NULL;
}

int ff_parse_owner(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    const char *arg = argv[1];
    bool group = expr->prim->param;
    if (*arg == '\0') {
        ff_parser_fail(fp, group ? "argument to -group is empty, but should be a group name"
                                 : "The argument to -user should not be empty");
        return -1;
    }
    uint64_t id = 0;
    bool known = false;
    if (group) {
        struct group *gr = getgrnam(arg);
        if (gr != NULL) {
            id = gr->gr_gid;
            known = true;
        }
    } else {
        struct passwd *pw = getpwnam(arg);
        if (pw != NULL) {
            id = pw->pw_uid;
            known = true;
        }
    }
    // No such name: a number (find's safe_atoi(), with its messages), if it is digits only;
    // for -group, leading digits with something after them get a message of their own.
    size_t digits = strspn(arg, "0123456789");
    if (!known && digits > 0 && arg[digits] == '\0') {
        int n;
        if (!ff_parser_int(fp, arg, &n)) {
            return -1;
        }
        id = (uint64_t)(uint32_t)n;
    } else if (!known && group && digits > 0) {
        char quoted[400];
        char msg[1024];
        snprintf(msg, sizeof(msg),
                 " is not the name of an existing group and it does not look "
                 "like a numeric group ID because it has the unexpected suffix %s",
                 ff_quoted(quoted, sizeof(quoted), arg + digits));
        ff_parser_fail_quoted(fp, "", arg, msg);
        return -1;
    } else if (!known) {
        ff_parser_fail_quoted(fp, "", arg,
                              group ? " is not the name of an existing group"
                                    : " is not the name of a known user");
        return -1;
    }
    expr->cmp = FF_CMP_EQ;
    expr->num = id;
    return 0;
}
