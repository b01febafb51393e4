// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's tests beyond names, types and sizes, with GNU find 4.9's syntax, results and
 * messages: -perm (octal, symbolic, -MODE, /MODE), -user -group -uid -gid -nouser -nogroup,
 * -regex -iregex -regextype, -lname -ilname, -xtype, -samefile, -fstype, -readable
 * -writable -executable, and the options find accepts that change nothing here
 * (-ignore_readdir_race, -noleaf, -warn...).
 *
 * Each test is an FF_PRED node: a function, its data, and the entry fields it reads, so a
 * walk asks the kernel only for those (-regex, -lname, -readable read none: no stat).
 * Tests that touch the file system go through the walker's parent descriptor
 * (ff_entry_dir()), never through the path again.
 */
#define _GNU_SOURCE // re_compile_pattern, RE_SYNTAX_*, FNM_CASEFOLD, makedev

#include "frdfind.h"
#include "gnuquote.h"
#include "grow.h"
#include "toolname.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <grp.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <pwd.h>
#include <regex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

typedef bool ff_test_fn(const struct ff_expr *expr, struct ff_eval *st);

int ff_entry_dir(const struct frd_walk_entry *we)
{
    return we->parent_fd != FRD_INVALID_FD ? we->parent_fd : AT_FDCWD;
}

/** The name to reach an entry by from ff_entry_dir(): its name, a root's path as given. */
static const char *entry_name(const struct frd_walk_entry *we)
{
    return we->parent_fd != FRD_INVALID_FD ? we->entry->name : we->path;
}

/** @return a new FF_PRED node, or NULL (reported). */
static struct ff_expr *pred(struct ff_parser *fp, ff_test_fn *test, unsigned needs)
{
    struct ff_expr *e = ff_parser_node(fp, FF_PRED);
    if (e != NULL) {
        e->test = test;
        e->needs = needs;
    }
    return e;
}

/** Reports "before 'arg' after" as a parse error, arg quoted as find quotes it (gnulib's
 *  locale style: ‘arg’ in a UTF-8 locale, with C escapes). */
static void fail_quoted(struct ff_parser *fp, const char *before, const char *arg,
                        const char *after)
{
    char quoted[1024];
    char msg[2048];
    snprintf(msg, sizeof(msg), "%s%s%s", before, ff_quoted(quoted, sizeof(quoted), arg), after);
    ff_parser_fail(fp, msg);
}

void ff_parser_fail_stat(struct ff_parser *fp, const char *path)
{
    char reason[256];
    snprintf(reason, sizeof(reason), ": %s", strerror(errno));
    char *msg = ff_quoted_in("", path, reason);
    ff_parser_fail(fp, msg != NULL ? msg : reason + 2);
    free(msg);
}

int ff_parser_stat(struct ff_parser *fp, const char *path, struct stat *st)
{
    if (ff_parser_opts(fp)->follow == FRD_FOLLOW_NEVER) {
        return lstat(path, st);
    }
    int rc = stat(path, st);
    if (rc != 0 && (errno == ENOENT || errno == ENOTDIR)) {
        rc = lstat(path, st); // a dangling link: the link, as find's fallback_stat()
    }
    return rc;
}

/* ---- -perm ----------------------------------------------------------------------------- */

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

static bool test_perm(const struct ff_expr *expr, struct ff_eval *st)
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

static struct ff_expr *parse_perm(struct ff_parser *fp, const char *tok)
{
    const char *arg = ff_parser_arg(fp, tok);
    if (arg == NULL) {
        return NULL;
    }
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
        fail_quoted(fp, "invalid mode ", arg, "");
        return NULL;
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
    struct ff_expr *e = pred(fp, test_perm, FRD_FIELD_MODE);
    struct perm_test *data = e != NULL ? malloc(sizeof(*data)) : NULL;
    if (data == NULL) {
        free(e);
        ff_parser_fail(fp, "out of memory");
        return NULL;
    }
    *data = pt;
    e->data = data;
    e->free_data = free;
    return e;
}

/* ---- owners ---------------------------------------------------------------------------- */

static bool compare(enum ff_cmp cmp, uint64_t value, uint64_t want)
{
    return cmp == FF_CMP_LT ? value < want : cmp == FF_CMP_GT ? value > want : value == want;
}

static bool test_uid(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    return compare(expr->cmp, we->entry->uid, expr->num);
}

static bool test_gid(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    return compare(expr->cmp, we->entry->gid, expr->num);
}

static bool test_nouser(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    (void)expr;
    return ff_user_name(st->ctx, we->entry->uid, we->worker) == NULL;
}

static bool test_nogroup(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    (void)expr;
    return ff_group_name(st->ctx, we->entry->gid, we->worker) == NULL;
}

/** -uid N, -gid N: a number with +/-, as -links. */
static struct ff_expr *parse_id_number(struct ff_parser *fp, const char *tok, ff_test_fn *test,
                                       unsigned field)
{
    char msg[512];
    if (ff_parser_peek(fp) == NULL) {
        // find 4.9 words a missing number so, naming the primary twice.
        snprintf(msg, sizeof(msg), "invalid argument `%s' to `%s'", tok, tok);
        ff_parser_fail(fp, msg);
        return NULL;
    }
    const char *arg = ff_parser_arg(fp, tok);
    enum ff_cmp cmp;
    uint64_t n;
    if (!ff_parse_number(arg, &cmp, &n)) {
        snprintf(msg, sizeof(msg), "invalid argument `%s' to `%s'", arg, tok);
        ff_parser_fail(fp, msg);
        return NULL;
    }
    struct ff_expr *e = pred(fp, test, field);
    if (e != NULL) {
        e->cmp = cmp;
        e->num = n;
    }
    return e;
}

/** -user NAME, -group NAME: a name, or a number when no user (group) has that name. */
static struct ff_expr *parse_owner(struct ff_parser *fp, const char *tok, bool group)
{
    const char *arg = ff_parser_arg(fp, tok);
    if (arg == NULL) {
        return NULL;
    }
    if (*arg == '\0') {
        ff_parser_fail(fp, group ? "argument to -group is empty, but should be a group name"
                                 : "The argument to -user should not be empty");
        return NULL;
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
            return NULL;
        }
        id = (uint64_t)(uint32_t)n;
    } else if (!known && group && digits > 0) {
        char quoted[400];
        char msg[1024];
        snprintf(msg, sizeof(msg),
                 " is not the name of an existing group and it does not look "
                 "like a numeric group ID because it has the unexpected suffix %s",
                 ff_quoted(quoted, sizeof(quoted), arg + digits));
        fail_quoted(fp, "", arg, msg);
        return NULL;
    } else if (!known) {
        fail_quoted(fp, "", arg,
                    group ? " is not the name of an existing group"
                          : " is not the name of a known user");
        return NULL;
    }
    struct ff_expr *e =
        pred(fp, group ? test_gid : test_uid, group ? FRD_FIELD_GID : FRD_FIELD_UID);
    if (e != NULL) {
        e->cmp = FF_CMP_EQ;
        e->num = id;
    }
    return e;
}

/* ---- -regex ---------------------------------------------------------------------------- */

/**
 * The worker indexes the visits will run on: one for an ordered walk (its consumer) or -j 1,
 * N for -j N, else the walker's default count, the CPUs up to 8 (its callbacks keep to
 * those indexes when its pool widens). An index past them shares the first pattern.
 */
static unsigned regex_slots(const struct ff_options *o)
{
    if (o->ordered || o->workers == 1) {
        return 1;
    }
    if (o->workers > 0) {
        return o->workers;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > 8 ? 8 : (unsigned)cpus;
}

/**
 * One compiled pattern per worker index: glibc's matcher locks each pattern buffer, so a
 * shared one would make the workers take turns. Only as many as there are workers: a
 * pattern can take seconds to compile (nested repetitions; find takes as long, once). In
 * a multibyte locale an ASCII pattern is also compiled in the C locale (`bytes`), for the
 * ASCII paths: the same matches, without the wide-character matcher (which made -regex 2.4
 * times slower on /usr).
 */
struct regex_test {
    unsigned n;
    struct re_pattern_buffer *re;    /**< n of them, compiled alike in the locale */
    struct re_pattern_buffer *bytes; /**< n of them in the C locale, or NULL */
};

static void regex_free(void *data)
{
    struct regex_test *rt = data;
    if (rt != NULL) {
        for (unsigned i = 0; i < rt->n; i++) {
            regfree(&rt->re[i]);
            if (rt->bytes != NULL) {
                regfree(&rt->bytes[i]);
            }
        }
        free(rt->re);
        free(rt->bytes);
        free(rt);
    }
}

static bool test_regex(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    const struct regex_test *rt = expr->data;
    unsigned w = we->worker < rt->n ? we->worker : 0;
    struct re_pattern_buffer *re =
        rt->bytes != NULL && ff_is_ascii(we->path, we->path_len) ? &rt->bytes[w] : &rt->re[w];
    if (we->path_len > INT32_MAX) {
        return false;
    }
    // find: the whole path must match (re_match's length is the path's).
    return re_match(re, we->path, (regoff_t)we->path_len, 0, NULL) == (regoff_t)we->path_len;
}

/** The -regextype names find 4.9 takes, in the order its error lists them. */
static const struct {
    const char *name;
    int syntax;
} regex_types[] = {
    {"findutils-default", RE_SYNTAX_EMACS | RE_DOT_NEWLINE},
    {"ed", RE_SYNTAX_ED},
    {"emacs", RE_SYNTAX_EMACS},
    {"gnu-awk", RE_SYNTAX_GNU_AWK},
    {"grep", RE_SYNTAX_GREP},
    {"posix-awk", RE_SYNTAX_POSIX_AWK},
    {"awk", RE_SYNTAX_AWK},
    {"posix-basic", RE_SYNTAX_POSIX_BASIC},
    {"posix-egrep", RE_SYNTAX_POSIX_EGREP},
    {"egrep", RE_SYNTAX_EGREP},
    {"posix-extended", RE_SYNTAX_POSIX_EXTENDED},
    {"posix-minimal-basic", RE_SYNTAX_POSIX_MINIMAL_BASIC},
    {"sed", RE_SYNTAX_SED},
};

static struct ff_expr *parse_regextype(struct ff_parser *fp, const char *tok)
{
    const char *arg = ff_parser_arg(fp, tok);
    if (arg == NULL) {
        return NULL;
    }
    size_t ntypes = sizeof(regex_types) / sizeof(regex_types[0]);
    for (size_t i = 0; i < ntypes; i++) {
        if (strcmp(arg, regex_types[i].name) == 0) {
            ff_parser_opts(fp)->regex_syntax = regex_types[i].syntax;
            return ff_parser_node(fp, FF_TRUE);
        }
    }
    char list[512] = "";
    size_t len = 0;
    for (size_t i = 0; i < ntypes; i++) {
        if (i > 0 && len + 2 < sizeof(list)) {
            memcpy(list + len, ", ", 2);
            len += 2;
        }
        size_t q = tool_quote_locale_to(list + len, sizeof(list) - 1 - len, regex_types[i].name);
        len += q < sizeof(list) - 1 - len ? q : sizeof(list) - 1 - len;
        list[len] = '\0';
    }
    char after[600];
    snprintf(after, sizeof(after), "; valid types are %s.", list);
    fail_quoted(fp, "Unknown regular expression type ", arg, after);
    return NULL;
}

static struct ff_expr *parse_regex(struct ff_parser *fp, const char *tok, bool icase)
{
    const char *arg = ff_parser_arg(fp, tok);
    if (arg == NULL) {
        return NULL;
    }
    struct ff_options *o = ff_parser_opts(fp);
    struct regex_test *rt = calloc(1, sizeof(*rt));
    unsigned n = regex_slots(o);
    if (rt == NULL || (rt->re = calloc(n, sizeof(*rt->re))) == NULL) {
        free(rt);
        ff_parser_fail(fp, "out of memory");
        return NULL;
    }
    // -regextype not given: emacs, find's default. re_compile_pattern reads the syntax
    // from a global; the parse runs before any worker does.
    reg_syntax_t syntax =
        (reg_syntax_t)(o->regex_syntax >= 0 ? o->regex_syntax : (int)RE_SYNTAX_EMACS);
    if (icase) {
        syntax |= RE_ICASE;
    }
    re_set_syntax(syntax);
    locale_t c_locale = (locale_t)0;
    if (MB_CUR_MAX > 1 && ff_is_ascii(arg, strlen(arg))) {
        c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        rt->bytes = c_locale != (locale_t)0 ? calloc(n, sizeof(*rt->bytes)) : NULL;
    }
    const char *err = NULL;
    for (; rt->n < n && err == NULL; rt->n++) {
        err = re_compile_pattern(arg, strlen(arg), &rt->re[rt->n]);
        if (err == NULL && rt->bytes != NULL) {
            // The C locale for this thread, for this one call (parsing is single-threaded).
            locale_t old = uselocale(c_locale);
            err = re_compile_pattern(arg, strlen(arg), &rt->bytes[rt->n]);
            uselocale(old);
        }
    }
    if (c_locale != (locale_t)0) {
        freelocale(c_locale);
    }
    if (err != NULL) {
        // find quotes this one as it is, with no escapes and in every locale.
        char msg[1024];
        snprintf(msg, sizeof(msg), "failed to compile regular expression '%s': %s", arg, err);
        ff_parser_fail(fp, msg);
        regex_free(rt);
        return NULL;
    }
    struct ff_expr *e = pred(fp, test_regex, 0);
    if (e == NULL) {
        regex_free(rt);
        return NULL;
    }
    e->data = rt;
    e->free_data = regex_free;
    return e;
}

/* ---- -lname, -xtype, -samefile, -fstype, -readable ------------------------------------- */

static bool test_lname(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    if (we->entry->type != FRD_TYPE_LNK) {
        return false;
    }
    for (size_t cap = 256;; cap *= 2) {
        char *buf = ff_thread_scratch(st->thr, cap);
        if (buf == NULL) {
            return false;
        }
        ssize_t n = readlinkat(ff_entry_dir(we), entry_name(we), buf, cap);
        if (n < 0) {
            return false;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            return ff_fnmatch(st->ctx, expr->pattern, expr->ascii, buf, (size_t)n, expr->fnm_flags);
        }
    }
}

/** find's follow rule for -xtype: -L always, -H on the roots only. */
static bool following(const struct ff_expr *expr, const struct frd_walk_entry *we)
{
    return expr->num == FRD_FOLLOW_ALL || (expr->num == FRD_FOLLOW_ROOTS && we->depth == 0);
}

/**
 * -xtype: -type of what the walk would not look at: a link's target when links are not
 * followed (the link itself when it dangles, as ls -lL), the link itself when they are.
 */
bool ff_test_xtype(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    enum frd_type type = we->entry->type;
    if (following(expr, we)) {
        if (we->followed_link) {
            type = FRD_TYPE_LNK;
        }
    } else if (type == FRD_TYPE_LNK) {
        struct stat sb;
        if (fstatat(ff_entry_dir(we), entry_name(we), &sb, 0) == 0) {
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

/** -samefile: the file's (dev, inode), stat'ed as -H/-L say at that point of the line. */
static bool test_samefile(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    return we->entry->file_id == expr->num && we->entry->dev == expr->unit;
}

static struct ff_expr *parse_samefile(struct ff_parser *fp, const char *tok)
{
    const char *arg = ff_parser_arg(fp, tok);
    if (arg == NULL) {
        return NULL;
    }
    struct stat st;
    if (ff_parser_stat(fp, arg, &st) != 0) {
        ff_parser_fail_stat(fp, arg);
        return NULL;
    }
    struct ff_expr *e = pred(fp, test_samefile, FRD_FIELD_FILE_ID | FRD_FIELD_DEV);
    if (e != NULL) {
        e->num = (uint64_t)st.st_ino;
        e->unit = (uint64_t)st.st_dev;
    }
    return e;
}

/** The mount table as -fstype and %F read it: device numbers and their type names. */
struct mount_type {
    uint64_t dev;
    char *type;
};
TOOL_RESERVE_DEFINE(mount_types_reserve, struct mount_type, 32)

/** The run's mount table (ctx->mounts), read on first use by any worker. */
struct ff_mounts {
    atomic_bool ready;    /**< the table is read (release: list and n are final) */
    pthread_mutex_t lock; /**< taken by the threads that find it not ready */
    size_t n, cap;
    struct mount_type *list;
};

int ff_mounts_new(struct ff_ctx *ctx)
{
    struct ff_mounts *m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return -1;
    }
    atomic_init(&m->ready, false);
    pthread_mutex_init(&m->lock, NULL);
    ctx->mounts = m;
    return 0;
}

void ff_mounts_free(struct ff_ctx *ctx)
{
    struct ff_mounts *m = ctx->mounts;
    if (m != NULL) {
        for (size_t i = 0; i < m->n; i++) {
            free(m->list[i].type);
        }
        free(m->list);
        pthread_mutex_destroy(&m->lock);
        free(m);
        ctx->mounts = NULL;
    }
}

/**
 * Reads /proc/self/mountinfo ("id parent MAJ:MIN root mountpoint opts ... - TYPE source
 * superopts"), as find's gnulib mountlist does on Linux. A missing table leaves it empty:
 * every file is then of type "unknown", as find says.
 */
static void read_mounts(struct ff_mounts *mounts)
{
    // "ID PARENT MAJOR:MINOR ...": each field digits then its separator (strtoul alone would
    // take a sign or spaces, sscanf would not report an overflow).
    const char seps[] = {' ', ' ', ':', ' '};
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (f == NULL) {
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        unsigned long field[4] = {0};
        const char *p = line;
        bool ok = true;
        for (int i = 0; ok && i < 4; i++) {
            char *end = NULL;
            errno = 0;
            field[i] = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
            ok = end != NULL && errno == 0 && *end == seps[i] && field[i] <= UINT_MAX;
            p = ok ? end + 1 : p;
        }
        unsigned maj = (unsigned)field[2];
        unsigned min = (unsigned)field[3];
        const char *dash = strstr(line, " - ");
        char type[256];
        if (!ok || dash == NULL || sscanf(dash + 3, "%255s", type) != 1) {
            continue;
        }
        char *copy = NULL;
        if (mount_types_reserve(&mounts->list, &mounts->cap, mounts->n + 1) < 0 ||
            (copy = strdup(type)) == NULL) {
            break;
        }
        mounts->list[mounts->n++] = (struct mount_type){(uint64_t)makedev(maj, min), copy};
    }
    free(line);
    fclose(f);
}

const char *ff_fstype_name(struct ff_ctx *ctx, uint64_t dev)
{
    struct ff_mounts *m = ctx->mounts;
    if (!atomic_load_explicit(&m->ready, memory_order_acquire)) {
        pthread_mutex_lock(&m->lock);
        if (!atomic_load_explicit(&m->ready, memory_order_relaxed)) {
            read_mounts(m);
            atomic_store_explicit(&m->ready, true, memory_order_release);
        }
        pthread_mutex_unlock(&m->lock);
    }
    for (size_t i = 0; i < m->n; i++) {
        if (m->list[i].dev == dev) {
            return m->list[i].type;
        }
    }
    return "unknown";
}

static bool test_fstype(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    return strcmp(ff_fstype_name(st->ctx, we->entry->dev), expr->pattern) == 0;
}

/** -readable, -writable, -executable: access(2) with the real ids, as find's faccessat. */
static bool test_access(const struct ff_expr *expr, struct ff_eval *st)
{
    const struct frd_walk_entry *we = st->we;
    return faccessat(ff_entry_dir(we), entry_name(we), (int)expr->num, 0) == 0;
}

/* ---- leading options ------------------------------------------------------------------ */

int ff_pred_leading(struct ff_parser *fp, const char *arg, const char *next)
{
    if (strcmp(arg, "-D") == 0) {
        if (next == NULL || *next == '\0') {
            ff_parser_fail(fp, next == NULL ? "Missing argument after the -D option."
                                            : "Empty argument to the -D option.");
            tool_usage_error(NULL);
            return -1;
        }
        static const char *const known[] = {"exec", "opt",  "rates", "search", "stat",
                                            "time", "tree", "all",   "help"};
        const char *s = next;
        while (*s != '\0') {
            size_t len = strcspn(s, ",");
            bool ok = false;
            for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
                ok = ok || (strlen(known[i]) == len && strncmp(s, known[i], len) == 0);
            }
            if (!ok) {
                char flag[200];
                snprintf(flag, sizeof(flag), "%.*s", (int)(len < 199 ? len : 199), s);
                char quoted[1024];
                char msg[1100];
                snprintf(msg, sizeof(msg), "Ignoring unrecognised debug flag %s",
                         ff_quoted(quoted, sizeof(quoted), flag));
                ff_warning(ff_parser_ctx(fp), msg, strlen(msg));
            }
            s += len + (s[len] == ',');
        }
        return 2;
    }
    if (strncmp(arg, "-O", 2) == 0) {
        if (arg[2] == '\0') {
            ff_parser_fail(fp, "The -O option must be immediately followed by a decimal integer");
            return -1;
        }
        if (strspn(arg + 2, "0123456789") != strlen(arg + 2)) {
            ff_parser_fail(fp, "Please specify a decimal number immediately after -O");
            return -1;
        }
        return 1;
    }
    return 0;
}

/* ---- -files0-from --------------------------------------------------------------------- */

/**
 * Reads fd to its end, or to a read error (*err: its errno, else 0), into a malloc'd
 * NUL-terminated buffer: find walks the names read before an error, the last one even
 * without its NUL, then reports it. @return the buffer, or NULL (errno ENOMEM).
 */
static char *read_all(int fd, size_t *len, int *err)
{
    size_t cap = 0;
    size_t n = 0;
    char *buf = NULL;
    *err = 0;
    for (;;) {
        if (tool_reserve_chars(&buf, &cap, n + 2) < 0) { // a byte to read, and the NUL
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            *err = got < 0 ? errno : 0;
            buf[n] = '\0';
            *len = n;
            return buf;
        }
        n += (size_t)got;
    }
}

/** find's name for the list in its messages: FILE, or "(standard input)" for "-". */
static const char *files0_shown(const char *file)
{
    return strcmp(file, "-") == 0 ? "(standard input)" : file;
}

/**
 * -ok and -okdir read their answers from stdin, so find refuses a list read from it too
 * (its message ends in an empty line). A list on the same file as stdin counts as stdin,
 * and so does any list when stdin was closed at start: find opens FILE on descriptor 0
 * then, frdfind leaves it taken (frdfind_stdfd.c) and says what find says.
 * @return 0, or 1 after the error.
 */
static int files0_check_ok(struct ff_ctx *ctx, bool std_in, int fd)
{
    const struct ff_options *opts = &ctx->opts;
    if (!opts->ok_prompt) {
        return 0;
    }
    if (std_in) {
        ff_error(ctx, "option -files0-from reading from standard input cannot be combined with "
                      "-ok, -okdir\n");
        return 1;
    }
    struct stat a;
    struct stat b;
    if (ff_std_was_closed(ctx, STDIN_FILENO) ||
        (fstat(fd, &a) == 0 && fstat(STDIN_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino)) {
        char *line = ff_quoted_in("option -files0-from: standard input must not refer to the "
                                  "same file when combined with -ok, -okdir: ",
                                  opts->files0_from, "\n");
        ff_error(ctx, line != NULL ? line : "out of memory");
        free(line);
        return 1;
    }
    return 0;
}

int ff_pred_files0(struct ff_ctx *ctx, bool paths_given)
{
    struct ff_options *opts = &ctx->opts;
    const char *file = opts->files0_from;
    char msg[512];
    if (paths_given) {
        char quoted[400];
        snprintf(msg, sizeof(msg), "extra operand %s",
                 ff_quoted(quoted, sizeof(quoted), opts->paths[0]));
        ff_error(ctx, msg);
        ff_error(ctx, "file operands cannot be combined with -files0-from");
        return 1;
    }
    bool std_in = strcmp(file, "-") == 0;
    int fd = std_in ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(msg, sizeof(msg), " for reading: %s", strerror(errno));
        char *line = ff_quoted_in("cannot open ", file, msg);
        ff_error(ctx, line != NULL ? line : "out of memory");
        free(line);
        return 1;
    }
    if (files0_check_ok(ctx, std_in, fd) != 0) {
        if (!std_in) {
            close(fd);
        }
        return 1;
    }
    size_t len = 0;
    char *buf = read_all(fd, &len, &opts->files0_error);
    if (!std_in) {
        close(fd);
    }
    if (buf == NULL) {
        ff_error(ctx, "out of memory");
        return 1;
    }
    size_t count = 1; // a last name without its NUL
    for (size_t i = 0; i < len; i++) {
        count += buf[i] == '\0';
    }
    const char **paths = calloc(count + 1, sizeof(*paths));
    if (paths == NULL) {
        free(buf);
        ff_error(ctx, "out of memory");
        return 1;
    }
    size_t n = 0;
    for (size_t start = 0; start < len;) { // an empty name stays: reported in its turn
        paths[n++] = buf + start;
        start += strlen(buf + start) + 1;
    }
    free(opts->paths);
    opts->paths = paths;
    opts->npaths = n;
    opts->files0_buf = buf;
    return 0;
}

void ff_files0_report_read_error(struct ff_ctx *ctx)
{
    const struct ff_options *opts = &ctx->opts;
    if (opts->files0_from == NULL || opts->files0_error == 0) {
        return;
    }
    char text[256];
    snprintf(text, sizeof(text), "read error: %s", strerror(opts->files0_error));
    ff_error_path(ctx, files0_shown(opts->files0_from), text);
}

void ff_files0_report_empty(struct ff_ctx *ctx, size_t index)
{
    const struct ff_options *opts = &ctx->opts;
    assert(opts->files0_from != NULL && index < opts->npaths && opts->paths[index][0] == '\0');
    const char *shown = files0_shown(opts->files0_from);
    char line[64];
    snprintf(line, sizeof(line), ":%zu: invalid zero-length file name", index + 1);
    char *text = ff_quoted_in("", shown, line);
    ff_error(ctx, text != NULL ? text : "out of memory");
    free(text);
}

/* ---- the table ------------------------------------------------------------------------- */

/** Options find 4.9 accepts that change nothing in frdfind (each is true where it stands). */
static const char *const accepted[] = {"-noleaf", "-warn", "-nowarn"};

struct ff_expr *ff_pred_parse(struct ff_parser *fp, const char *tok, bool *handled)
{
    *handled = true;
    struct ff_expr *e;
    const char *arg;
    if (strcmp(tok, "-perm") == 0) {
        return parse_perm(fp, tok);
    }
    if (strcmp(tok, "-user") == 0 || strcmp(tok, "-group") == 0) {
        return parse_owner(fp, tok, tok[1] == 'g');
    }
    if (strcmp(tok, "-uid") == 0) {
        return parse_id_number(fp, tok, test_uid, FRD_FIELD_UID);
    }
    if (strcmp(tok, "-gid") == 0) {
        return parse_id_number(fp, tok, test_gid, FRD_FIELD_GID);
    }
    if (strcmp(tok, "-nouser") == 0) {
        return pred(fp, test_nouser, FRD_FIELD_UID);
    }
    if (strcmp(tok, "-nogroup") == 0) {
        return pred(fp, test_nogroup, FRD_FIELD_GID);
    }
    if (strcmp(tok, "-regextype") == 0) {
        return parse_regextype(fp, tok);
    }
    if (strcmp(tok, "-regex") == 0 || strcmp(tok, "-iregex") == 0) {
        return parse_regex(fp, tok, tok[1] == 'i');
    }
    if (strcmp(tok, "-lname") == 0 || strcmp(tok, "-ilname") == 0) {
        if ((arg = ff_parser_arg(fp, tok)) == NULL || ff_matcher_need(ff_parser_ctx(fp)) != 0 ||
            (e = pred(fp, test_lname, FF_NEED_STAT | FF_NEED_DIR_FD)) == NULL) {
            return NULL;
        }
        e->pattern = arg;
        e->ascii = ff_is_ascii(arg, strlen(arg));
        e->fnm_flags = tok[1] == 'i' ? FNM_CASEFOLD : 0;
        return e;
    }
    if (strcmp(tok, "-samefile") == 0) {
        return parse_samefile(fp, tok);
    }
    if (strcmp(tok, "-fstype") == 0) {
        if ((arg = ff_parser_arg(fp, tok)) == NULL ||
            (e = pred(fp, test_fstype, FRD_FIELD_DEV)) == NULL) {
            return NULL;
        }
        e->pattern = arg;
        return e;
    }
    static const char *const access_names[] = {"-readable", "-writable", "-executable"};
    static const int access_modes[] = {R_OK, W_OK, X_OK};
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(tok, access_names[i]) == 0) {
            if ((e = pred(fp, test_access, FF_NEED_DIR_FD)) != NULL) {
                e->num = (uint64_t)access_modes[i];
            }
            return e;
        }
    }
    if (strcmp(tok, "-files0-from") == 0) {
        if ((arg = ff_parser_arg(fp, tok)) == NULL) {
            return NULL;
        }
        ff_parser_opts(fp)->files0_from = arg;
        return ff_parser_node(fp, FF_TRUE);
    }
    if (strcmp(tok, "-ignore_readdir_race") == 0 || strcmp(tok, "-noignore_readdir_race") == 0) {
        ff_parser_opts(fp)->ignore_race = tok[1] == 'i';
        return ff_parser_node(fp, FF_TRUE);
    }
    for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
        if (strcmp(tok, accepted[i]) == 0) {
            return ff_parser_node(fp, FF_TRUE);
        }
    }
    *handled = false;
    return NULL;
}
