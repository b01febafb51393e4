// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -type and -xtype, with GNU find 4.9's syntax and messages: a comma-separated
 * list of the letters f d l p s c b. -type reads the type the listing gave (no stat);
 * -xtype the type of what the walk would not look at: a link's target when links are not
 * followed (the link itself when it dangles, as ls -lL), the link itself when they are.
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_types.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/** @return the type a letter of -type names, or -1 for none (after find's message). */
static int type_letter(struct ff_parser *fp, const char *primary, char c)
{
    switch (c) {
    case 'f':
        return FRD_TYPE_REG;
    case 'd':
        return FRD_TYPE_DIR;
    case 'l':
        return FRD_TYPE_LNK;
    case 'p':
        return FRD_TYPE_FIFO;
    case 's':
        return FRD_TYPE_SOCK;
    case 'c':
        return FRD_TYPE_CHR;
    case 'b':
        return FRD_TYPE_BLK;
    case 'D':
        ff_parser_failf(fp,
                        "%s D is not supported because Solaris doors are not supported on the "
                        "platform find was compiled on.",
                        primary);
        return -1;
    default: {
        char letter[2] = {c, '\0'};
        ff_parser_failf(fp, "Unknown argument to %s: %s", primary, letter);
        return -1;
    }
    }
}

int ff_parse_type(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    const char *primary = argv[0];
    const char *arg = argv[1];
    if (*arg == '\0') {
        ff_parser_failf(fp, "Arguments to %s should contain at least one letter", primary);
        return -1;
    }
    unsigned types = 0;
    for (const char *s = arg; *s != '\0'; s++) {
        int t = type_letter(fp, primary, *s);
        if (t < 0) {
            return -1;
        }
        if (types & (1u << t)) {
            char letter[2] = {*s, '\0'};
            ff_parser_failf(fp, "Duplicate file type '%s' in the argument list to %s.", letter,
                            primary);
            return -1;
        }
        types |= 1u << t;
        if (s[1] == ',') {
            if (s[2] == '\0') {
                ff_parser_failf(fp,
                                "Last file type in list argument to %s is missing, i.e., list "
                                "is ending on: ','",
                                primary);
                return -1;
            }
            s++;
        } else if (s[1] != '\0') {
            ff_parser_failf(fp, "Must separate multiple arguments to %s using: ','", primary);
            return -1;
        }
    }
    expr->types = types;
    expr->num = (uint64_t)ff_parser_opts(fp)->follow; // -xtype: -H/-L at this point
    return 0;
}

bool ff_eval_type(const struct ff_expr *expr, struct ff_eval *st)
{
    // find stats every directory; when that fails (an unsearchable parent) it cannot tell
    // the type, and -type is false (see ff_eval_unknowable()).
    return (expr->types & (1u << st->we->entry->type)) != 0;
}

/** find's follow rule for -xtype: -L always, -H on the roots only. */
static bool following(const struct ff_expr *expr, const struct frd_walk_entry *we)
{
    return expr->num == FRD_FOLLOW_ALL || (expr->num == FRD_FOLLOW_ROOTS && we->depth == 0);
}

bool ff_eval_xtype(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    enum frd_type type = we->entry->type;
    if (following(expr, we)) {
        if (we->followed_link) {
            type = FRD_TYPE_LNK;
        }
    } else if (type == FRD_TYPE_LNK) {
        struct stat sb;
        if (fstatat(ff_entry_dir(we), ff_entry_name(we), &sb, 0) == 0) {
            type = frd_type_from_mode((unsigned)sb.st_mode);
        } else if (errno != ENOENT && errno != ENOTDIR) {
            // find falls back to the link itself only when it dangles; a loop is an error.
            int err = errno;
            ff_out_before_error(st->thr);
            ff_error_path(st->ctx, we->path, strerror(err));
            return false;
        }
    }
    return (expr->types & (1u << type)) != 0;
}
