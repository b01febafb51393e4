// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdindex's exclude rules: parsing, storing, matching (see frdindex_exclude.h). */
#define _GNU_SOURCE // strcasecmp, strndup

#include "frdindex_exclude.h"

#include "errtext.h"
#include "frdindex_db.h"
#include "toolname.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int push(char ***list, size_t *n, const char *s, size_t len)
{
    size_t cap = *n; // grown one at a time: the lists are short
    char **grown = realloc(*list, (cap + 1) * sizeof(**list));
    if (grown == NULL) {
        return -1;
    }
    *list = grown;
    char *copy = strndup(s, len);
    if (copy == NULL) {
        return -1;
    }
    // A path rule without its trailing slashes, as the walk spells directories.
    while (len > 1 && copy[len - 1] == '/') {
        copy[--len] = '\0';
    }
    grown[(*n)++] = copy;
    return 0;
}

int index_excludes_add(struct index_excludes *x, enum index_exclude_kind kind, const char *value)
{
    x->given = true;
    if (kind == INDEX_EXCLUDE_GLOB || kind == INDEX_EXCLUDE_IGNORE ||
        kind == INDEX_EXCLUDE_IF_PRESENT) {
        return push(&x->rules[kind], &x->count[kind], value, strlen(value));
    }
    for (const char *p = value; *p != '\0';) {
        size_t blank = strspn(p, " \t\n");
        p += blank;
        size_t word = strcspn(p, " \t\n");
        if (word > 0 && push(&x->rules[kind], &x->count[kind], p, word) < 0) {
            return -1;
        }
        p += word;
    }
    return 0;
}

bool index_excludes_any(const struct index_excludes *x)
{
    return x->count[INDEX_EXCLUDE_GLOB] + x->count[INDEX_EXCLUDE_NAME] +
               x->count[INDEX_EXCLUDE_PATH] + x->nmounts >
           0;
}

/** Undoes the octal escapes of /proc/self/mounts (\040 for a space) in place. */
static void unescape(char *s)
{
    char *out = s;
    for (char *in = s; *in != '\0'; in++) {
        if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
            in[3] >= '0' && in[3] <= '7') {
            *out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
            in += 3;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
}

/** Adds the mount points whose type is a --prunefs one. @return 0 or -1. */
static int find_mounts(struct index_excludes *x)
{
    if (x->count[INDEX_EXCLUDE_FS] == 0) {
        return 0;
    }
    FILE *f = fopen("/proc/self/mounts", "r");
    if (f == NULL) {
        fprintf(stderr, "%s: warning: cannot read /proc/self/mounts: --prunefs is not applied\n",
                tool_name);
        return 0;
    }
    char *line = NULL;
    size_t cap = 0;
    int result = 0;
    while (result == 0 && getline(&line, &cap, f) > 0) {
        char *save = NULL;
        char *dev = strtok_r(line, " \n", &save);
        char *dir = dev ? strtok_r(NULL, " \n", &save) : NULL;
        char *type = dir ? strtok_r(NULL, " \n", &save) : NULL;
        if (type == NULL) {
            continue;
        }
        for (size_t i = 0; i < x->count[INDEX_EXCLUDE_FS]; i++) {
            if (strcasecmp(type, x->rules[INDEX_EXCLUDE_FS][i]) == 0) {
                unescape(dir);
                result = push(&x->mounts, &x->nmounts, dir, strlen(dir));
                break;
            }
        }
    }
    free(line);
    fclose(f);
    return result;
}

/** The walk's ignore rules from the IGNORE and IF_PRESENT kinds. @return 0 or FRD_E*. */
static int make_ignore(struct index_excludes *x)
{
    unsigned flags = 0;
    for (size_t i = 0; i < x->count[INDEX_EXCLUDE_IGNORE]; i++) {
        const char *what = x->rules[INDEX_EXCLUDE_IGNORE][i];
        flags |= strcmp(what, "gitignore") == 0 ? FRD_IGNORE_GIT
                 : strcmp(what, "caches") == 0  ? FRD_IGNORE_CACHEDIR_TAG
                                                : 0; // a later frdindex's: not known here
    }
    if (flags == 0 && x->count[INDEX_EXCLUDE_IF_PRESENT] == 0) {
        return 0;
    }
    int rc = frd_ignore_new(&x->ignore, flags);
    for (size_t i = 0; rc == 0 && i < x->count[INDEX_EXCLUDE_IF_PRESENT]; i++) {
        rc = frd_ignore_add_if_present(x->ignore, x->rules[INDEX_EXCLUDE_IF_PRESENT][i]);
    }
    return rc;
}

int index_excludes_sync(struct index_excludes *x, sqlite3 *db)
{
    sqlite3_stmt *stmt;
    if (x->given) {
        if (sqlite3_exec(db, "DELETE FROM excludes", NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_prepare_v2(db, "INSERT INTO excludes(kind, value) VALUES (?, ?)", -1, &stmt,
                               NULL) != SQLITE_OK) {
            return index_db_fail(db, "writing the excludes");
        }
        int rc = SQLITE_DONE;
        for (int kind = 1; kind < INDEX_EXCLUDE_KINDS && rc == SQLITE_DONE; kind++) {
            for (size_t i = 0; i < x->count[kind] && rc == SQLITE_DONE; i++) {
                sqlite3_bind_int(stmt, 1, kind);
                sqlite3_bind_blob(stmt, 2, x->rules[kind][i], (int)strlen(x->rules[kind][i]),
                                  SQLITE_STATIC);
                rc = sqlite3_step(stmt);
                sqlite3_reset(stmt);
            }
        }
        sqlite3_finalize(stmt);
        if (rc != SQLITE_DONE) {
            return index_db_fail(db, "writing the excludes");
        }
    } else {
        if (sqlite3_prepare_v2(db, "SELECT kind, value FROM excludes ORDER BY rowid", -1, &stmt,
                               NULL) != SQLITE_OK) {
            return index_db_fail(db, "reading the excludes");
        }
        int rc;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            int kind = sqlite3_column_int(stmt, 0);
            const char *value = sqlite3_column_blob(stmt, 1);
            int len = sqlite3_column_bytes(stmt, 1);
            if (kind >= 1 && kind < INDEX_EXCLUDE_KINDS && value != NULL &&
                push(&x->rules[kind], &x->count[kind], value, (size_t)len) < 0) {
                sqlite3_finalize(stmt);
                fprintf(stderr, "%s: out of memory\n", tool_name);
                return -1;
            }
        }
        sqlite3_finalize(stmt);
        if (rc != SQLITE_DONE) {
            return index_db_fail(db, "reading the excludes");
        }
    }
    if (find_mounts(x) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    int rc = make_ignore(x);
    if (rc < 0) {
        fprintf(stderr, "%s: %s\n", tool_name, tool_strerror(rc));
        return -1;
    }
    return 0;
}

static bool path_in(char *const *list, size_t n, const char *path, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        if (strlen(list[i]) == len && memcmp(list[i], path, len) == 0) {
            return true;
        }
    }
    return false;
}

bool index_excludes_match(const struct index_excludes *x, const char *path, size_t len,
                          const char *name, bool is_dir)
{
    for (size_t i = 0; i < x->count[INDEX_EXCLUDE_GLOB]; i++) {
        const char *glob = x->rules[INDEX_EXCLUDE_GLOB][i];
        if (fnmatch(glob, strchr(glob, '/') != NULL ? path : name, 0) == 0) {
            return true;
        }
    }
    if (!is_dir) {
        return false;
    }
    for (size_t i = 0; i < x->count[INDEX_EXCLUDE_NAME]; i++) {
        if (strcmp(x->rules[INDEX_EXCLUDE_NAME][i], name) == 0) {
            return true;
        }
    }
    return path_in(x->rules[INDEX_EXCLUDE_PATH], x->count[INDEX_EXCLUDE_PATH], path, len) ||
           path_in(x->mounts, x->nmounts, path, len);
}

void index_excludes_free(struct index_excludes *x)
{
    frd_ignore_free(x->ignore);
    for (int kind = 1; kind < INDEX_EXCLUDE_KINDS; kind++) {
        for (size_t i = 0; i < x->count[kind]; i++) {
            free(x->rules[kind][i]);
        }
        free(x->rules[kind]);
    }
    for (size_t i = 0; i < x->nmounts; i++) {
        free(x->mounts[i]);
    }
    free(x->mounts);
    *x = (struct index_excludes){0};
}
