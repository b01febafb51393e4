// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -perm, as GNU find 4.9 reads and compares it: MODE (exactly these permission
 * bits), -MODE (all of them), /MODE (any of them; none asked: every file, with find's
 * warning), each MODE octal or symbolic as chmod(1) reads it (gnulib's mode_compile(),
 * applied to 0 with no umask, once for files and once for directories, where X differs).
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_perm.h"

#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_parse.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** How -perm compares. */
enum perm_kind {
    PERM_EXACT, /**< MODE: the permission bits are exactly these */
    PERM_ALL,   /**< -MODE: all of these bits are set */
    PERM_ANY,   /**< /MODE: any of these bits is set (none asked: every file) */
};

struct perm_test {
    enum perm_kind kind;
    uint32_t mode[2]; /**< for files, and for directories (X differs) */
};

bool ff_eval_perm(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    const struct perm_test *pt = expr->data;
    uint32_t want = pt->mode[we->entry->type == FRD_TYPE_DIR];
    uint32_t mode = we->entry->mode & 07777;
    switch (pt->kind) {
    case PERM_ALL:
        return (mode & want) == want;
    case PERM_ANY:
        return want == 0 || (mode & want) != 0;
    case PERM_EXACT:
    default:
        return mode == want;
    }
}

/** How one change of a symbolic mode computes its bits (gnulib's mode_change flags). */
enum change_kind {
    CHANGE_ORDINARY, /**< the bits written */
    CHANGE_X,        /**< ... and x too if some x is set already or it is a directory */
    CHANGE_COPY,     /**< the bits the u, g or o class has so far, copied to all three */
};

/**
 * Applies one change to `mode`, as chmod(1) (gnulib's mode_adjust()) does with no umask:
 * `affected` is the who mask (0: none written), `mentioned` the bits the change names; on a
 * directory the set-id bits it does not name are left as they are.
 */
static uint32_t apply_change(uint32_t mode, bool dir, char op, enum change_kind kind,
                             uint32_t affected, uint32_t value, uint32_t mentioned)
{
    uint32_t omit = (dir ? 06000u : 0u) & ~mentioned;
    if (kind == CHANGE_COPY) {
        value &= mode;
        value |= ((value & 0444) ? 0444u : 0u) | ((value & 0222) ? 0222u : 0u) |
                 ((value & 0111) ? 0111u : 0u);
    } else if (kind == CHANGE_X && ((mode & 0111) != 0 || dir)) {
        value |= 0111;
    }
    value &= (affected != 0 ? affected : 07777u) & ~omit;
    if (op == '+') {
        return mode | value;
    }
    if (op == '-') {
        return mode & ~value;
    }
    uint32_t preserved = (affected != 0 ? ~affected : 0u) | omit;
    return (mode & preserved) | value;
}

/**
 * A mode as chmod(1) and gnulib's mode_compile() read it, applied to 0 with no umask as
 * find does (mode_adjust(0, dir, 0, ...)): octal up to 07777, or symbolic clauses
 * "[ugoa]*([-+=]([rwxXst]*|[ugo]|[0-7]+))+" separated by commas (an octal number only with
 * no class before it). @return false if malformed.
 */
static bool mode_compile(const char *s, bool dir, uint32_t *out)
{
    if (*s >= '0' && *s <= '7') {
        uint32_t v = 0;
        for (; *s >= '0' && *s <= '7'; s++) {
            v = v * 8 + (uint32_t)(*s - '0');
            if (v > 07777) {
                return false;
            }
        }
        *out = v;
        return *s == '\0';
    }
    uint32_t mode = 0;
    for (;;) {
        uint32_t who = 0;
        for (;; s++) {
            if (*s == 'u') {
                who |= 04700;
            } else if (*s == 'g') {
                who |= 02070;
            } else if (*s == 'o') {
                who |= 01007;
            } else if (*s == 'a') {
                who |= 07777;
            } else {
                break;
            }
        }
        if (*s != '+' && *s != '-' && *s != '=') {
            return false;
        }
        uint32_t affected = who;
        while (*s == '+' || *s == '-' || *s == '=') {
            char op = *s++;
            uint32_t value = 0;
            uint32_t mentioned = 0;
            enum change_kind kind = CHANGE_ORDINARY;
            if (*s >= '0' && *s <= '7') {
                // "=644": an octal mode after the operator, only with no class before it.
                for (; *s >= '0' && *s <= '7'; s++) {
                    value = value * 8 + (uint32_t)(*s - '0');
                    if (value > 07777) {
                        return false;
                    }
                }
                if (affected != 0 || (*s != '\0' && *s != ',')) {
                    return false;
                }
                affected = mentioned = 07777;
            } else if (*s == 'u' || *s == 'g' || *s == 'o') {
                kind = CHANGE_COPY;
                value = *s == 'u' ? 0700u : *s == 'g' ? 0070u : 0007u;
                s++;
            } else {
                for (;; s++) {
                    if (*s == 'r') {
                        value |= 0444;
                    } else if (*s == 'w') {
                        value |= 0222;
                    } else if (*s == 'x') {
                        value |= 0111;
                    } else if (*s == 'X') {
                        kind = CHANGE_X;
                    } else if (*s == 's') {
                        value |= 06000;
                    } else if (*s == 't') {
                        value |= 01000;
                    } else {
                        break;
                    }
                }
            }
            if (mentioned == 0) {
                mentioned = affected != 0 ? affected & value : value;
            }
            mode = apply_change(mode, dir, op, kind, affected, value, mentioned);
        }
        if (*s == '\0') {
            *out = mode;
            return true;
        }
        if (*s++ != ',') {
            return false;
        }
    }
}

int ff_parse_perm(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    const char *arg = argv[1];
    struct perm_test pt = {PERM_EXACT, {0, 0}};
    const char *mode = arg;
    if (*mode == '-') {
        pt.kind = PERM_ALL;
        mode++;
    } else if (*mode == '/') {
        pt.kind = PERM_ANY;
        mode++;
    }
    // find 4.9 refuses "+" then a digit: +MODE once meant what /MODE means now.
    bool old_plus = arg[0] == '+' && arg[1] >= '0' && arg[1] <= '9';
    if (old_plus || !mode_compile(mode, false, &pt.mode[0]) ||
        !mode_compile(mode, true, &pt.mode[1])) {
        ff_parser_fail_quoted(fp, "invalid mode ", arg, "");
        return -1;
    }
    if (pt.kind == PERM_ANY && pt.mode[0] == 0 && pt.mode[1] == 0) {
        char msg[512];
        snprintf(msg, sizeof(msg),
                 "warning: you have specified a mode pattern %s (which is equivalent to "
                 "/000). The meaning of -perm /000 has now been changed to be consistent "
                 "with -perm -000; that is, while it used to match no files, it now matches "
                 "all files.",
                 arg);
        ff_warning(ff_parser_ctx(fp), msg, strlen(msg));
    }
    struct perm_test *data = malloc(sizeof(*data));
    if (data == NULL) {
        ff_parser_fail(fp, "out of memory");
        return -1;
    }
    *data = pt;
    expr->data = data;
    expr->free_data = free;
    return 0;
}
