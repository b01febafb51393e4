// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex find`: the indexed paths matching a glob or a regular expression, as locate. */
#define _GNU_SOURCE // FNM_CASEFOLD

#include "frdindex_find.h"

#include "frdindex_access.h"
#include "frdindex_candidates.h"
#include "frdindex_db.h"
#include "frdindex_dirs.h"
#include "frdindex_print.h"
#include "frdindex_regex.h"
#include "grow.h"
#include "toolname.h"

#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/** Paths found by `find`, printed only once the whole table has been read without error. */
struct found {
    char *buf;
    size_t len, cap;
    size_t count;
};

static int found_add(struct found *f, const char *path, size_t len)
{
    if (tool_reserve_chars(&f->buf, &f->cap, f->len + len + 1) < 0) {
        return -1;
    }
    memcpy(f->buf + f->len, path, len + 1);
    f->len += len + 1;
    f->count++;
    return 0;
}

/** The pattern of `find`: a glob (as locate: one without wildcards matches anywhere) or a
 *  regular expression. */
struct matcher {
    bool regex;
    /** the glob is '*' then bytes that stand for themselves, none a '/': a path matches it
     *  exactly when its last name does (the name is checked first, the path never built) */
    bool tail_only;
    regex_t re;
    char *glob;
    int glob_flags;
    /** its literal pieces (frdindex_candidates.h, frdindex_regex.h): every match holds each */
    struct index_piece pieces[64];
    size_t npieces;
    bool fold; /**< the pieces are held A-Z folded (-i) */
};

/** Finds the pattern's literal pieces. */
static void matcher_pieces(struct matcher *m, const struct index_find_options *opts)
{
    m->fold = opts->ignore_case;
    m->npieces = opts->regex == INDEX_REGEX_NONE
                     ? index_glob_pieces(opts->pattern, opts->ignore_case, m->pieces, 64)
                     : index_regex_pieces(opts->pattern, opts->regex == INDEX_REGEX_EXTENDED,
                                          opts->ignore_case, m->pieces, 64);
}

/** @return 0, or -1 after a message (a bad regular expression, out of memory). */
static int matcher_init(struct matcher *m, const struct index_find_options *opts)
{
    *m = (struct matcher){.regex = opts->regex != INDEX_REGEX_NONE};
    if (m->regex) {
        int flags = REG_NOSUB | (opts->regex == INDEX_REGEX_EXTENDED ? REG_EXTENDED : 0) |
                    (opts->ignore_case ? REG_ICASE : 0);
        int rc = regcomp(&m->re, opts->pattern, flags);
        if (rc != 0) {
            char why[256];
            regerror(rc, &m->re, why, sizeof(why));
            fprintf(stderr, "%s: invalid regular expression '%s': %s\n", tool_name, opts->pattern,
                    why);
            m->regex = false;
            return -1;
        }
        matcher_pieces(m, opts);
        return 0;
    }
    size_t len = strlen(opts->pattern);
    m->glob = malloc(len + 3);
    if (m->glob == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    if (strpbrk(opts->pattern, "*?[\\") == NULL) {
        m->glob[0] = '*';
        memcpy(m->glob + 1, opts->pattern, len);
        m->glob[len + 1] = '*';
        m->glob[len + 2] = '\0';
    } else {
        memcpy(m->glob, opts->pattern, len + 1);
    }
    m->glob_flags = opts->ignore_case ? FNM_CASEFOLD : 0;
    m->tail_only =
        m->glob[0] == '*' && m->glob[1] != '\0' && strpbrk(m->glob + 1, "*?[\\/") == NULL;
    matcher_pieces(m, opts);
    return 0;
}

/** @return the pieces of the pattern `subject` (`len` bytes) holds, as bits (1 << i). */
static uint64_t matcher_pieces_in(const struct matcher *m, const char *subject, size_t len,
                                  uint64_t skip)
{
    uint64_t held = 0;
    for (size_t i = 0; i < m->npieces; i++) {
        if (!(skip >> i & 1) && index_piece_in(subject, len, &m->pieces[i], m->fold)) {
            held |= (uint64_t)1 << i;
        }
    }
    return held;
}

/** @return whether `subject` (`len` bytes) holds every piece of the pattern: a cheap test
 *  a match must pass, made before the pattern itself (regexec() above all) on each row of a
 *  scan. `held`: the pieces known to be there already (a piece holds no '/', so it lies in
 *  the directory's path or in the name, and the directory's are found once). */
static bool matcher_may_match(const struct matcher *m, const char *subject, size_t len,
                              uint64_t held)
{
    uint64_t all = m->npieces == 64 ? UINT64_MAX : ((uint64_t)1 << m->npieces) - 1;
    return held == all || (held | matcher_pieces_in(m, subject, len, held)) == all;
}

static bool matcher_match(const struct matcher *m, const char *subject)
{
    return m->regex ? regexec(&m->re, subject, 0, NULL, 0) == 0
                    : fnmatch(m->glob, subject, m->glob_flags) == 0;
}

static void matcher_free(struct matcher *m)
{
    if (m->regex) {
        regfree(&m->re);
    }
    free(m->glob);
}

int index_find_parse(int argc, char **argv, struct index_find_options *opts)
{
    static const struct option options[] = {
        {"ignore-case", no_argument, NULL, 'i'},
        {"basename", no_argument, NULL, 'b'},
        {"null", no_argument, NULL, '0'},
        {"count", no_argument, NULL, 'c'},
        {"existing", no_argument, NULL, 'e'},
        {"limit", required_argument, NULL, 'l'},
        {"regexp", no_argument, NULL, 'r'},
        {"regex", no_argument, NULL, 'R'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "ib0cel:n:r", options, NULL)) != -1) {
        switch (c) {
        case 'i':
            opts->ignore_case = true;
            break;
        case 'b':
            opts->basename = true;
            break;
        case '0':
            opts->null = true;
            break;
        case 'c':
            opts->count = true;
            break;
        case 'e':
            opts->existing = true;
            break;
        case 'l':
        case 'n': { // -n: locate's old spelling of --limit
            char *end;
            errno = 0;
            unsigned long long n = strtoull(optarg, &end, 10);
            if (errno != 0 || end == optarg || *end != '\0' || optarg[0] == '-' || n > SIZE_MAX) {
                fprintf(stderr, "%s: invalid limit '%s'\n", tool_name, optarg);
                return tool_usage_error(NULL);
            }
            opts->limit = (size_t)n;
            break;
        }
        case 'r':
            opts->regex = INDEX_REGEX_BASIC;
            break;
        case 'R':
            opts->regex = INDEX_REGEX_EXTENDED;
            break;
        default:
            return tool_usage_error(NULL);
        }
    }
    return 0;
}

/** One query over one database (or several in turn, frdmpi's set). */
struct finder {
    const struct index_find_options *opts;
    const struct matcher *matcher;
    struct index_access *access;
    struct found *found;
    sqlite3 *db;
    const char *db_path;
    struct index_dirs dirs;
    char *path; // the current entry's path; its directory's path is its first dir_len bytes
    size_t len, cap, dir_len;
    int64_t dir;    // whose path the buffer holds (-1: none)
    int64_t parent; // dir's parent, whose path is the first parent_len bytes (-1: not known)
    size_t parent_len;
};

/**
 * Takes an entry that matched (`path` NULL: the one built in f->path): shown if this user
 * may list its directory and, with -e, it exists. @return 1 when the limit is reached, 0 to
 * go on, -1 after a message.
 */
static int accept(struct finder *f, const char *path, size_t len)
{
    if (path == NULL) { // the path built in f->path
        path = f->path;
        len = f->len;
    }
    int visible = index_access_visible(f->access, path, len);
    struct stat st;
    if (visible == 1 && f->opts->existing && lstat(path, &st) != 0) {
        visible = 0;
    }
    if (visible < 0 || (visible == 1 && !f->opts->count && found_add(f->found, path, len) < 0)) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    if (visible == 1 && f->opts->count) {
        f->found->count++; // -c: counted, no output built
    }
    return f->opts->limit != 0 && f->found->count >= f->opts->limit ? 1 : 0;
}

/**
 * Moves f->path to directory `dir` from the one it holds when `dir` is a child of it or a
 * sibling of it (an entry's directory follows its parent's in rowid order along a chain):
 * its name appended, not its whole path rebuilt, so a chain N deep costs N names, not N²/2.
 * @return whether it did (false: rebuild the path).
 */
static bool next_dir(struct finder *f, int64_t dir)
{
    bool failed = false;
    const struct index_dir *d = f->dir < 0 ? NULL : index_dirs_get(&f->dirs, dir, &failed);
    size_t base;
    if (d == NULL || d->parent == 0) {
        return false;
    }
    if (d->parent == f->dir) {
        base = f->dir_len;
        f->parent = f->dir;
        f->parent_len = f->dir_len;
    } else if (d->parent == f->parent) {
        base = f->parent_len;
    } else {
        return false;
    }
    if (tool_reserve_chars(&f->path, &f->cap, base + d->name_len + 2) < 0) {
        return false;
    }
    f->len = base;
    if (f->len > 0 && f->path[f->len - 1] != '/') {
        f->path[f->len++] = '/';
    }
    memcpy(f->path + f->len, index_dir_name(&f->dirs, d), d->name_len);
    f->len += d->name_len;
    f->dir = dir;
    f->dir_len = f->len;
    return true;
}

/**
 * Puts the path of entry (dir, name) in f->path, its directory's path kept from the last
 * entry when it is the same directory. @return 0, or -1 after a message.
 */
static int entry_path(struct finder *f, int64_t dir, const char *name, size_t name_len)
{
    if (dir != f->dir && !next_dir(f, dir)) {
        f->len = 0;
        if (index_dirs_path(&f->dirs, dir, NULL, 0, &f->path, &f->len, &f->cap) < 0) {
            f->dir = -1;
            return -1;
        }
        f->dir = dir;
        f->dir_len = f->len;
        f->parent = -1;
    }
    f->len = f->dir_len;
    if (tool_reserve_chars(&f->path, &f->cap, f->len + name_len + 2) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    if (f->len > 0 && f->path[f->len - 1] != '/') {
        f->path[f->len++] = '/';
    }
    memcpy(f->path + f->len, name, name_len);
    f->len += name_len;
    f->path[f->len] = '\0';
    return 0;
}

static void damaged(const char *db_path, int64_t rows, int64_t expected)
{
    fprintf(stderr,
            "%s: %s: the index holds %lld entries where its last update wrote %lld: "
            "it is damaged; remove it and run update again\n",
            tool_name, db_path, (long long)rows, (long long)expected);
}

/**
 * Reads every row: the paths of the entries, directory by directory (rowid order), each
 * matched in turn. @return 1 when the limit was reached, 0 when the whole table was read,
 * -1 after a message.
 */
static int scan(struct finder *f, int64_t expected)
{
    sqlite3_stmt *stmt;
    f->dirs.ids_only = true;
    if (index_dirs_load(&f->dirs, f->db) < 0) {
        return -1;
    }
    if (sqlite3_prepare_v2(f->db, "SELECT id, name FROM entries", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(f->db, "reading the index");
    }
    int64_t rows = 0;
    int rc, result = 0;
    bool basename = f->opts->basename, by_name = basename || f->matcher->tail_only;
    int64_t held_dir = -1; // the directory whose path holds the pieces in `held`
    uint64_t held = 0;
    while (result == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        rows++;
        int64_t dir = index_entry_dir(sqlite3_column_int64(stmt, 0));
        // For a BLOB, sqlite3_column_text() gives the same bytes with a NUL after them.
        const char *name = (const char *)sqlite3_column_text(stmt, 1);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 1);
        if (name == NULL) {
            continue;
        }
        if (by_name &&
            (!matcher_may_match(f->matcher, name, len, 0) || !matcher_match(f->matcher, name))) {
            continue;
        }
        if (entry_path(f, dir, name, len) < 0) {
            result = -1;
            break;
        }
        if (!by_name && f->dir != held_dir) {
            held_dir = f->dir;
            held = matcher_pieces_in(f->matcher, f->path, f->dir_len, 0);
        }
        if (!by_name && (!matcher_may_match(f->matcher, name, len, held) ||
                         !matcher_match(f->matcher, f->path))) {
            continue;
        }
        result = accept(f, NULL, 0);
    }
    sqlite3_finalize(stmt);
    if (result == 0 && rc != SQLITE_DONE) {
        return index_db_fail(f->db, "reading the index");
    }
    if (result == 0 && rows != expected) {
        damaged(f->db_path, rows, expected);
        return -1;
    }
    return result;
}

/** Takes a candidate of the trigram index (index_candidate_fn): matched as scan() does. */
static int take(void *ctx, int64_t id, const char *name, size_t len)
{
    struct finder *f = ctx;
    bool by_name = f->opts->basename || f->matcher->tail_only;
    if (by_name && !matcher_match(f->matcher, name)) {
        return 0;
    }
    if (entry_path(f, index_entry_dir(id), name, len) < 0) {
        return -1;
    }
    if (!by_name && !matcher_match(f->matcher, f->path)) {
        return 0;
    }
    return accept(f, NULL, 0);
}

/**
 * Reads the candidates of the trigram index only (frdindex_candidates.h), in rowid order as
 * scan() reads them, so both print the same paths in the same order, and -l stops reading
 * at the same path. @return as scan(), or 2 when the index cannot narrow this pattern down
 * (the caller scans; what was found here is forgotten).
 */
static int indexed(struct finder *f, int64_t expected)
{
    const struct index_piece *pieces = f->matcher->pieces;
    size_t npieces = f->matcher->npieces;
    if (npieces == 0) {
        return 2;
    }
    // Past an eighth of the rows, reading them in order costs less than one by one.
    size_t max = (size_t)(expected / 8) + 64;
    f->dirs.ids_only = true;
    if (index_dirs_lazy(&f->dirs, f->db) < 0) {
        return -1;
    }
    size_t len = f->found->len, count = f->found->count;
    int rc = index_candidates_find(f->db, pieces, npieces, f->opts->basename, f->opts->limit == 0,
                                   max, take, f);
    if (rc == 1) {
        f->found->len = len;
        f->found->count = count;
        return 2;
    }
    return rc == 2 ? 1 : rc;
}

/**
 * A database of an older schema (whole paths, see frdindex_db.c), read as it is.
 * @return as scan().
 */
static int scan_paths(struct finder *f, int64_t expected)
{
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(f->db, "SELECT path FROM entries", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(f->db, "reading the index");
    }
    int64_t rows = 0;
    int rc, result = 0;
    while (result == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        rows++;
        const char *path = (const char *)sqlite3_column_text(stmt, 0);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 0);
        if (path == NULL) {
            continue;
        }
        const char *subject = path;
        if (f->opts->basename) {
            const char *slash = strrchr(path, '/');
            if (slash != NULL && slash[1] != '\0') {
                subject = slash + 1;
            }
        }
        if (matcher_match(f->matcher, subject)) {
            result = accept(f, path, len);
        }
    }
    sqlite3_finalize(stmt);
    if (result == 0 && rc != SQLITE_DONE) {
        return index_db_fail(f->db, "reading the index");
    }
    if (result == 0 && rows != expected) {
        damaged(f->db_path, rows, expected);
        return -1;
    }
    return result;
}

/**
 * Reads one database's matching paths into `found` (those visible to this user and, with
 * -e, existing). @return 1 when the limit was reached, 0 when done, -1 after a message.
 */
static int find_in(struct finder *f, const char *db_path)
{
    if (index_db_open(db_path, INDEX_OPEN_READ, &f->db) < 0) {
        return -1;
    }
    f->db_path = db_path;
    f->dir = -1;
    f->parent = -1;
    index_access_for_db(f->access, db_path);
    int status = -1;
    int64_t expected;
    if (sqlite3_exec(f->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        index_db_meta_get(f->db, "entries", &expected) < 0) {
        goto done;
    }
    if (index_db_schema(f->db) < INDEX_SCHEMA_NAMES) {
        status = scan_paths(f, expected);
    } else if ((status = indexed(f, expected)) == 2) {
        index_dirs_free(&f->dirs);
        f->dir = -1;
        status = scan(f, expected);
    }
done:
    index_dirs_free(&f->dirs);
    sqlite3_exec(f->db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(f->db);
    f->db = NULL;
    return status;
}

int index_find(const struct index_find_options *opts)
{
    struct matcher matcher;
    if (matcher_init(&matcher, opts) < 0) {
        return 1;
    }
    struct index_access access;
    index_access_init(&access);
    int status = 1;
    struct found found = {0};
    struct finder f = {.opts = opts, .matcher = &matcher, .access = &access, .found = &found};
    size_t ndbs = opts->ndbs > 0 ? opts->ndbs : 1;
    int rc = 0;
    for (size_t i = 0; i < ndbs && rc == 0; i++) {
        rc = find_in(&f, opts->ndbs > 0 ? opts->db_paths[i] : opts->db_path);
    }
    if (rc < 0) {
        goto done;
    }
    if (opts->count) {
        printf("%zu\n", found.count);
    } else {
        // As plocate: each path as it is, but escaped on a terminal (frdindex_print.h).
        bool tty = !opts->null && opts->terminal;
        for (size_t off = 0; off < found.len;) {
            size_t len = strlen(found.buf + off);
            if (opts->null) {
                fwrite(found.buf + off, 1, len + 1, stdout);
            } else {
                index_print_plocate(stdout, found.buf + off, len, tty);
            }
            off += len + 1;
        }
    }
    status = found.count > 0 ? 0 : 1; // as locate: 1 when nothing matched
done:
    free(f.path);
    index_access_free(&access);
    free(found.buf);
    matcher_free(&matcher);
    return status;
}
