// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex find`: the indexed paths matching a glob or a regular expression, as locate. */
#define _GNU_SOURCE // FNM_CASEFOLD

#include "frdindex_find.h"

#include "frdindex_access.h"
#include "frdindex_db.h"
#include "frdindex_print.h"
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
    regex_t re;
    char *glob;
    int glob_flags;
};

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
    return 0;
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

/**
 * Reads one database's paths into `found` (those matching, visible to this user and, with
 * -e, existing). @return 1 when the limit was reached, 0 when the whole table was read,
 * -1 after a message.
 */
static int find_in(const struct index_find_options *opts, const char *db_path,
                   const struct matcher *matcher, struct index_access *access, struct found *found)
{
    sqlite3 *db;
    if (index_db_open(db_path, INDEX_OPEN_READ, &db) < 0) {
        return -1;
    }
    index_access_for_db(access, db_path);
    int status = -1;
    sqlite3_stmt *stmt = NULL;
    int64_t expected;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        index_db_meta_get(db, "entries", &expected) < 0) {
        goto done;
    }
    if (sqlite3_prepare_v2(db, "SELECT path FROM entries", -1, &stmt, NULL) != SQLITE_OK) {
        index_db_fail(db, "reading the index");
        goto done;
    }
    int64_t rows = 0;
    int rc;
    bool limited = false;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        rows++;
        // For a BLOB, sqlite3_column_text() gives the same bytes with a NUL after them.
        const char *path = (const char *)sqlite3_column_text(stmt, 0);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 0);
        if (path == NULL) {
            continue;
        }
        const char *subject = path;
        if (opts->basename) {
            const char *slash = strrchr(path, '/');
            if (slash != NULL && slash[1] != '\0') {
                subject = slash + 1;
            }
        }
        if (!matcher_match(matcher, subject)) {
            continue;
        }
        int visible = index_access_visible(access, path, len);
        struct stat st;
        if (visible < 0 || (visible == 1 && (!opts->existing || lstat(path, &st) == 0) &&
                            found_add(found, path, len) < 0)) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            goto done;
        }
        if (opts->limit != 0 && found->count >= opts->limit) {
            limited = true; // enough: the rest of the table is not read
            break;
        }
    }
    if (!limited && rc != SQLITE_DONE) {
        index_db_fail(db, "reading the index");
        goto done;
    }
    if (!limited && rows != expected) {
        fprintf(stderr,
                "%s: %s: the index holds %lld entries where its last update wrote %lld: "
                "it is damaged; remove it and run update again\n",
                tool_name, db_path, (long long)rows, (long long)expected);
        goto done;
    }
    status = limited ? 1 : 0;
done:
    sqlite3_finalize(stmt);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
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
    size_t ndbs = opts->ndbs > 0 ? opts->ndbs : 1;
    int rc = 0;
    for (size_t i = 0; i < ndbs && rc == 0; i++) {
        rc = find_in(opts, opts->ndbs > 0 ? opts->db_paths[i] : opts->db_path, &matcher, &access,
                     &found);
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
    index_access_free(&access);
    free(found.buf);
    matcher_free(&matcher);
    return status;
}
