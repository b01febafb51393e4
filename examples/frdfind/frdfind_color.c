// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -color: -print's paths colored from LS_COLORS as bfs (2.6) colors them, when
 * stdout is a terminal (never into a pipe or a file).
 *
 * A path is printed as its leading directories ("dir/sub/") in the di color, then its last
 * component in the color of its type: di, or tw/ow/st for sticky or other-writable
 * directories; ln, or `or` for a dangling link when `or` is set; pi, so, bd, cd; for a
 * regular file su, sg, ex (any execute bit), mh (several hard links), then the
 * `*.ext` it ends with (in any case; of several, the last given), then fi. bfs's defaults apply to what LS_COLORS does
 * not set; an empty value unsets a key (the next rule applies), one of zeros prints no escape. Each colored piece is
 * lc COLOR rc TEXT then ec (lc rs rc when ec is unset).
 */
#define _POSIX_C_SOURCE 200809L

#include "frdfind_color.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_out.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/** The two-letter keys frdfind uses, in the order of the table below. */
enum slot {
    C_DI,
    C_LN,
    C_OR,
    C_PI,
    C_SO,
    C_BD,
    C_CD,
    C_SU,
    C_SG,
    C_EX,
    C_MH,
    C_FI,
    C_TW,
    C_OW,
    C_ST,
    C_RS,
    C_LC,
    C_RC,
    C_EC,
    C_COUNT,
};

static const char *const keys[C_COUNT] = {"di", "ln", "or", "pi", "so", "bd", "cd",
                                          "su", "sg", "ex", "mh", "fi", "tw", "ow",
                                          "st", "rs", "lc", "rc", "ec"};

/** bfs 2.6's defaults (NULL: unset). */
static const char *const defaults[C_COUNT] = {
    "01;34", "01;36", NULL,    "33",    "01;35", "01;33", "01;33", "37;41", "30;43", "01;32",
    NULL,    NULL,    "30;42", "34;42", "37;44", "0",     "\033[", "m",     NULL,
};

struct ext_color {
    char *ext; /**< without the '*' */
    size_t len;
    char *color;
};

/** The run's colors (ctx->colors): what LS_COLORS sets, over bfs's defaults. */
struct ff_colors {
    const char *slots[C_COUNT]; /**< each key's color, or NULL (unset) */
    struct ext_color *exts;     /**< the `*.ext` rules in LS_COLORS's order */
    size_t nexts;
    char *env_copy; /**< LS_COLORS, cut into the strings above */
};

/** Decodes ls's escapes (\e \n \\ ^X and octal) in place. */
static void unescape(char *s)
{
    char *o = s;
    for (char *p = s; *p != '\0'; p++) {
        if (*p == '\\' && p[1] != '\0') {
            p++;
            switch (*p) {
            case 'e':
            case 'E':
                *o++ = '\033';
                break;
            case 'n':
                *o++ = '\n';
                break;
            case 't':
                *o++ = '\t';
                break;
            case '_':
                *o++ = ' ';
                break;
            default:
                if (*p >= '0' && *p <= '7') {
                    int v = 0;
                    for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++, p++) {
                        v = v * 8 + (*p - '0');
                    }
                    p--;
                    *o++ = (char)v;
                } else {
                    *o++ = *p;
                }
                break;
            }
        } else if (*p == '^' && p[1] != '\0') {
            p++;
            *o++ = (char)(*p == '?' ? 127 : (*p & 0x1f));
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
}

int ff_color_init(struct ff_ctx *ctx)
{
    struct ff_colors *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return -1;
    }
    ctx->colors = c;
    for (int k = 0; k < C_COUNT; k++) {
        c->slots[k] = defaults[k];
    }
    const char *env = getenv("LS_COLORS");
    if (env == NULL || *env == '\0') {
        return 0;
    }
    c->env_copy = strdup(env);
    size_t max = 1;
    for (const char *p = env; *p != '\0'; p++) {
        max += *p == ':';
    }
    c->exts = calloc(max, sizeof(*c->exts));
    if (c->env_copy == NULL || c->exts == NULL) {
        return -1;
    }
    for (char *item = c->env_copy, *next; item != NULL; item = next) {
        next = strchr(item, ':');
        if (next != NULL) {
            *next++ = '\0';
        }
        char *eq = strchr(item, '=');
        if (eq == NULL) {
            continue;
        }
        *eq = '\0';
        char *value = eq + 1;
        unescape(value);
        if (item[0] == '*') {
            unescape(item);
            c->exts[c->nexts].ext = item + 1;
            c->exts[c->nexts].len = strlen(item + 1);
            c->exts[c->nexts].color = value;
            c->nexts++;
            continue;
        }
        for (int k = 0; k < C_COUNT; k++) {
            if (strcmp(item, keys[k]) == 0) {
                // "ex=" unsets: the file falls through to the next rule (bfs).
                c->slots[k] = *value != '\0' ? value : NULL;
            }
        }
    }
    return 0;
}

void ff_color_free(struct ff_ctx *ctx)
{
    struct ff_colors *c = ctx->colors;
    if (c != NULL) {
        free(c->exts);
        free(c->env_copy);
        free(c);
        ctx->colors = NULL;
    }
}

/** Empty or all zeros: no color at all. */
static bool no_color(const char *c)
{
    return c == NULL || c[strspn(c, "0")] == '\0';
}

static void colored(const struct ff_colors *c, struct ff_thread *thr, const char *color,
                    const char *text, size_t len)
{
    const char *const *slots = c->slots;
    if (no_color(color)) {
        ff_out_append(thr, text, len);
        return;
    }
    ff_out_append(thr, slots[C_LC], strlen(slots[C_LC]));
    ff_out_append(thr, color, strlen(color));
    ff_out_append(thr, slots[C_RC], strlen(slots[C_RC]));
    ff_out_append(thr, text, len);
    if (slots[C_EC] != NULL) {
        ff_out_append(thr, slots[C_EC], strlen(slots[C_EC]));
    } else {
        ff_out_append(thr, slots[C_LC], strlen(slots[C_LC]));
        ff_out_append(thr, slots[C_RS], strlen(slots[C_RS]));
        ff_out_append(thr, slots[C_RC], strlen(slots[C_RC]));
    }
}

/** Picks the first slot that is set among a..., else fallback. */
static const char *first_set(const char *a, const char *b)
{
    return a != NULL ? a : b;
}

/** The `*.ext` the name ends with, in any case; of several, the one LS_COLORS gives last. */
static const char *ext_color(const struct ff_colors *c, const char *name, size_t len)
{
    const char *color = NULL;
    for (size_t k = 0; k < c->nexts; k++) {
        size_t el = c->exts[k].len;
        if (el <= len && strncasecmp(name + len - el, c->exts[k].ext, el) == 0) {
            color = c->exts[k].color;
        }
    }
    return color;
}

static bool dangling(const struct frd_walk_entry *we)
{
    struct stat st;
    if (we->depth > 0 && we->parent_fd != FRD_INVALID_FD) {
        return fstatat((int)we->parent_fd, we->entry->name, &st, 0) != 0;
    }
    return stat(we->path, &st) != 0;
}

static const char *entry_color(const struct ff_colors *c, const struct frd_walk_entry *we,
                               const char *name, size_t len)
{
    const char *const *slots = c->slots;
    const struct frd_entry *e = we->entry;
    uint32_t mode = e->mode;
    switch (e->type) {
    case FRD_TYPE_DIR:
        if ((mode & 01000) && (mode & 0002)) {
            return first_set(slots[C_TW], slots[C_DI]);
        }
        if (mode & 0002) {
            return first_set(slots[C_OW], slots[C_DI]);
        }
        if (mode & 01000) {
            return first_set(slots[C_ST], slots[C_DI]);
        }
        return slots[C_DI];
    case FRD_TYPE_LNK:
        if (slots[C_OR] != NULL && dangling(we)) {
            return slots[C_OR];
        }
        return slots[C_LN];
    case FRD_TYPE_FIFO:
        return slots[C_PI];
    case FRD_TYPE_SOCK:
        return slots[C_SO];
    case FRD_TYPE_BLK:
        return slots[C_BD];
    case FRD_TYPE_CHR:
        return slots[C_CD];
    case FRD_TYPE_REG:
        if ((mode & 04000) && slots[C_SU] != NULL) {
            return slots[C_SU];
        }
        if ((mode & 02000) && slots[C_SG] != NULL) {
            return slots[C_SG];
        }
        if ((mode & 0111) && slots[C_EX] != NULL) {
            return slots[C_EX];
        }
        if (e->nlink > 1 && slots[C_MH] != NULL) {
            return slots[C_MH];
        }
        return first_set(ext_color(c, name, len), slots[C_FI]);
    default:
        return NULL;
    }
}

void ff_color_print(struct ff_eval *st)
{
    const struct ff_colors *c = st->ctx->colors;
    const struct frd_walk_entry *we = st->we;
    struct ff_thread *thr = st->thr;
    size_t split = we->path_len;
    while (split > 0 && we->path[split - 1] != '/') {
        split--;
    }
    if (split == we->path_len) {
        // "dir/" as a root: the whole path is the name.
        split = 0;
    }
    if (split > 0) {
        colored(c, thr, c->slots[C_DI], we->path, split);
    }
    const char *name = we->path + split;
    size_t len = we->path_len - split;
    colored(c, thr, entry_color(c, we, name, len), name, len);
    ff_out_byte(thr, '\n');
    ff_out_end_record(thr);
}
