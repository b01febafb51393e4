// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex changes`, `find` and `check`: questions answered from the database alone. */
#define _GNU_SOURCE // FNM_CASEFOLD

#include "frdindex.h"
#include "grow.h"
#include "toolname.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *index_change_name(enum index_change change)
{
    switch (change) {
    case INDEX_ADDED:
        return "added";
    case INDEX_MODIFIED:
        return "modified";
    case INDEX_METADATA:
        return "metadata";
    case INDEX_REPLACED:
        return "replaced";
    case INDEX_RENAMED:
    case INDEX_RENAMED_WITH_PARENT:
        return "renamed";
    case INDEX_REMOVED:
        return "removed";
    default:
        return "unchanged";
    }
}

char index_type_letter(unsigned type)
{
    static const char letters[] = "Ufdlpscb"; // enum frd_type order
    return type < sizeof(letters) - 1 ? letters[type] : 'U';
}

/** Length of the valid UTF-8 sequence at s (at most len bytes), or 0 if it is not one. */
static size_t utf8_sequence(const unsigned char *s, size_t len)
{
    size_t need;
    uint32_t min;
    if (s[0] < 0x80) {
        return 1;
    } else if ((s[0] & 0xe0) == 0xc0) {
        need = 2;
        min = 0x80;
    } else if ((s[0] & 0xf0) == 0xe0) {
        need = 3;
        min = 0x800;
    } else if ((s[0] & 0xf8) == 0xf0) {
        need = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (len < need) {
        return 0;
    }
    uint32_t cp = s[0] & (0x7f >> need);
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        return 0;
    }
    return need;
}

/**
 * Writes a path as a JSON string. File names are bytes: a byte that is not part of valid
 * UTF-8 is written as the escape \udcXX (Python's "surrogateescape"), so no name is lost.
 */
static void json_path(FILE *out, const unsigned char *s, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\u%04x", c);
            i++;
        } else {
            size_t n = utf8_sequence(s + i, len - i);
            if (n == 0) {
                fprintf(out, "\\udc%02x", c);
                i++;
            } else {
                fwrite(s + i, 1, n, out);
                i += n;
            }
        }
    }
    fputc('"', out);
}

/**
 * Compares the number of rows with the count the last update wrote: a cheap check (SQLite
 * counts b-tree cells without decoding rows) that catches rows lost or added behind
 * frdindex's back. @return 0, or -1 after an error message.
 */
static int check_row_count(sqlite3 *db, const char *db_path)
{
    int64_t expected, rows = -1;
    sqlite3_stmt *stmt;
    if (index_db_meta_get(db, "entries", &expected) < 0) {
        return -1;
    }
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM entries", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, db_path);
    }
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) {
        rows = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW) {
        return index_db_fail(db, db_path);
    }
    if (rows != expected) {
        fprintf(stderr,
                "%s: %s: the index holds %lld entries where its last update wrote %lld: "
                "it is damaged; remove it and run update again\n",
                tool_name, db_path, (long long)rows, (long long)expected);
        return -1;
    }
    return 0;
}

int index_changes(const char *db_path, bool json, bool all)
{
    sqlite3 *db;
    if (index_db_open(db_path, INDEX_OPEN_READ, &db) < 0) {
        return 1;
    }
    int status = 1;
    sqlite3_stmt *stmt = NULL;
    int64_t generation;
    // One read transaction: the rows and the generation come from the same update.
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        index_db_meta_get(db, "generation", &generation) < 0 || check_row_count(db, db_path) < 0) {
        goto done;
    }
    if (sqlite3_prepare_v2(db,
                           "SELECT path, change, old_path, type FROM entries "
                           "WHERE gen = ?1 AND change != 0 "
                           "UNION ALL SELECT path, 7, NULL, type FROM removed ORDER BY 1",
                           -1, &stmt, NULL) != SQLITE_OK) {
        index_db_fail(db, "reading changes");
        goto done;
    }
    sqlite3_bind_int64(stmt, 1, generation);
    if (json) {
        printf("{\"generation\":%lld,\"changes\":[", (long long)generation);
    }
    bool first = true;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const unsigned char *path = sqlite3_column_blob(stmt, 0);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 0);
        enum index_change change = (enum index_change)sqlite3_column_int(stmt, 1);
        const unsigned char *old = sqlite3_column_blob(stmt, 2);
        size_t old_len = (size_t)sqlite3_column_bytes(stmt, 2);
        unsigned type = (unsigned)sqlite3_column_int(stmt, 3);
        // A directory's mtime moves whenever an entry in it comes or goes, and each of those
        // entries is reported itself; likewise a rename under a renamed directory.
        if (!all && (change == INDEX_RENAMED_WITH_PARENT ||
                     (change == INDEX_MODIFIED && type == 2 /* FRD_TYPE_DIR */))) {
            continue;
        }
        const char *name = index_change_name(change);
        bool renamed = change == INDEX_RENAMED || change == INDEX_RENAMED_WITH_PARENT;
        if (json) {
            printf("%s{\"change\":\"%s\",\"type\":\"%c\",\"path\":", first ? "" : ",", name,
                   index_type_letter(type));
            json_path(stdout, path, len);
            if (renamed && old != NULL) {
                fputs(",\"old_path\":", stdout);
                json_path(stdout, old, old_len);
            }
            fputc('}', stdout);
        } else {
            fputs(name, stdout);
            fputc('\t', stdout);
            if (renamed && old != NULL) {
                fwrite(old, 1, old_len, stdout);
                fputc('\t', stdout);
            }
            fwrite(path, 1, len, stdout);
            fputc('\n', stdout);
        }
        first = false;
    }
    if (rc != SQLITE_DONE) {
        fflush(stdout);
        index_db_fail(db, "reading changes");
        goto done;
    }
    if (json) {
        puts("]}");
    }
    status = 0;
done:
    sqlite3_finalize(stmt);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    return status;
}

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

int index_find(const struct index_find_options *opts)
{
    // As locate: a pattern without wildcards matches anywhere in the path.
    const char *pattern = opts->pattern;
    char *wrapped = NULL;
    if (strpbrk(pattern, "*?[\\") == NULL) {
        size_t len = strlen(pattern);
        wrapped = malloc(len + 3);
        if (wrapped == NULL) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            return 1;
        }
        wrapped[0] = '*';
        memcpy(wrapped + 1, pattern, len);
        wrapped[len + 1] = '*';
        wrapped[len + 2] = '\0';
        pattern = wrapped;
    }
    int flags = opts->ignore_case ? FNM_CASEFOLD : 0;

    sqlite3 *db;
    if (index_db_open(opts->db_path, INDEX_OPEN_READ, &db) < 0) {
        free(wrapped);
        return 1;
    }
    int status = 1;
    struct found found = {0};
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
        if (fnmatch(pattern, subject, flags) == 0 && found_add(&found, path, len) < 0) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            goto done;
        }
    }
    if (rc != SQLITE_DONE) {
        index_db_fail(db, "reading the index");
        goto done;
    }
    if (rows != expected) {
        fprintf(stderr,
                "%s: %s: the index holds %lld entries where its last update wrote %lld: "
                "it is damaged; remove it and run update again\n",
                tool_name, opts->db_path, (long long)rows, (long long)expected);
        goto done;
    }
    if (opts->count) {
        printf("%zu\n", found.count);
    } else {
        for (size_t off = 0; off < found.len;) {
            size_t len = strlen(found.buf + off);
            fwrite(found.buf + off, 1, len, stdout);
            fputc(opts->null ? '\0' : '\n', stdout);
            off += len + 1;
        }
    }
    status = found.count > 0 ? 0 : 1; // as locate: 1 when nothing matched
done:
    sqlite3_finalize(stmt);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    free(found.buf);
    free(wrapped);
    return status;
}

int index_check(const char *db_path)
{
    sqlite3 *db;
    if (index_db_open(db_path, INDEX_OPEN_READ, &db) < 0) {
        return 1;
    }
    sqlite3_stmt *stmt;
    int status = 1;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, NULL) != SQLITE_OK) {
        index_db_fail(db, "checking");
        sqlite3_close(db);
        return 1;
    }
    bool ok = false;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(stmt, 0);
        if (line != NULL && strcmp(line, "ok") == 0) {
            ok = true;
        } else {
            fprintf(stderr, "%s: %s: %s\n", tool_name, db_path, line ? line : "?");
        }
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        index_db_fail(db, "checking");
    } else if (ok && check_row_count(db, db_path) == 0) {
        puts("ok");
        status = 0;
    }
    sqlite3_close(db);
    return status;
}
