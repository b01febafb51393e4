// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * backup_scan's snapshots: escaping, the line list, reading one back, writing one
 * atomically (temporary file, fsync, rename) and the diff of two (see backup_snapshot.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "backup_snapshot.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool snap_put(struct snap_buf *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *s = realloc(b->s, cap);
        if (s == NULL) {
            return false;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = '\0';
    return true;
}

bool snap_puts(struct snap_buf *b, const char *s)
{
    return snap_put(b, s, strlen(s));
}

bool snap_escape(struct snap_buf *b, const void *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c > 0x20 && c < 0x7f && c != '\\' && c != ',' && c != '=') {
            if (!snap_put(b, &c, 1)) {
                return false;
            }
        } else {
            char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
            if (!snap_put(b, e, sizeof(e))) {
                return false;
            }
        }
    }
    return true;
}

bool snap_add(struct snap *s, char *line)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        char **v = realloc(s->lines, cap * sizeof(*v));
        if (v == NULL) {
            free(line);
            return false;
        }
        s->lines = v;
        s->cap = cap;
    }
    s->lines[s->n++] = line;
    return true;
}

void snap_free(struct snap *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->lines[i]);
    }
    free(s->lines);
    memset(s, 0, sizeof(*s));
}

int snap_load(const char *path, struct snap *s)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return errno == ENOENT ? 0 : -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool header = false;
    int rc = 1;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') {
            line[--n] = '\0';
        }
        if (!header) {
            header = strcmp(line, SNAP_HEADER) == 0;
            if (!header) {
                errno = EINVAL;
                rc = -1;
                break;
            }
            continue;
        }
        char *copy = strdup(line);
        if (copy == NULL || !snap_add(s, copy)) {
            errno = ENOMEM;
            rc = -1;
            break;
        }
    }
    if (rc == 1 && (ferror(f) || !header)) {
        errno = ferror(f) ? EIO : EINVAL;
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

int snap_write(const char *path, const struct snap *s)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + sizeof(".XXXXXX"));
    if (tmp == NULL) {
        return -1;
    }
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    if (f == NULL) {
        int e = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    bool ok = fprintf(f, "%s\n", SNAP_HEADER) > 0;
    for (size_t i = 0; ok && i < s->n; i++) {
        ok = fputs(s->lines[i], f) >= 0 && fputc('\n', f) != EOF;
    }
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int e = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        unlink(tmp);
    }
    free(tmp);
    errno = e;
    return ok ? 0 : -1;
}

/* ---- The diff ---- */

/** The fields of a line, split at its tabs (not copied). */
struct fields {
    const char *p[SNAP_FIELDS];
    size_t len[SNAP_FIELDS];
};

static void split(const char *line, struct fields *f)
{
    const char *s = line;
    for (int i = 0; i < SNAP_FIELDS; i++) {
        const char *tab = i + 1 < SNAP_FIELDS ? strchr(s, '\t') : NULL;
        size_t n = tab != NULL ? (size_t)(tab - s) : strlen(s);
        f->p[i] = s;
        f->len[i] = n;
        s = tab != NULL ? tab + 1 : s + n;
    }
}

static bool field_eq(const struct fields *a, const struct fields *b, int i)
{
    return a->len[i] == b->len[i] && memcmp(a->p[i], b->p[i], a->len[i]) == 0;
}

/** Compares the first `n` fields of two lines, as byte strings field by field. */
static int cmp_fields(const char *a, const char *b, int n)
{
    struct fields fa, fb;
    split(a, &fa);
    split(b, &fb);
    for (int i = 0; i < n; i++) {
        size_t m = fa.len[i] < fb.len[i] ? fa.len[i] : fb.len[i];
        int c = memcmp(fa.p[i], fb.p[i], m);
        if (c != 0 || fa.len[i] != fb.len[i]) {
            return c != 0 ? c : (fa.len[i] < fb.len[i] ? -1 : 1);
        }
    }
    return 0;
}

static int by_path(const void *a, const void *b)
{
    return cmp_fields(*(char *const *)a, *(char *const *)b, 1);
}

/** By path, NULLs (lines a rename took) last. */
static int by_path_or_null(const void *a, const void *b)
{
    const char *x = *(char *const *)a;
    const char *y = *(char *const *)b;
    if (x == NULL || y == NULL) {
        return (x == NULL) - (y == NULL);
    }
    return by_path(a, b);
}

/** A rename: the old line and the new. */
struct rename {
    char *from, *to;
};

static int by_from(const void *a, const void *b)
{
    return by_path(&((const struct rename *)a)->from, &((const struct rename *)b)->from);
}

/** What a rename keeps: dev, ino and type, and size and mtime (an inode freed and reused for
 *  a new file is not taken for a rename). */
static int by_identity(const void *a, const void *b)
{
    struct fields fa, fb;
    split(*(char *const *)a, &fa);
    split(*(char *const *)b, &fb);
    static const int keys[] = {SNAP_DEV, SNAP_INO, SNAP_TYPE, SNAP_SIZE, SNAP_MTIME};
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        int i = keys[k];
        size_t m = fa.len[i] < fb.len[i] ? fa.len[i] : fb.len[i];
        int c = memcmp(fa.p[i], fb.p[i], m);
        if (c != 0 || fa.len[i] != fb.len[i]) {
            return c != 0 ? c : (fa.len[i] < fb.len[i] ? -1 : 1);
        }
    }
    return by_path(a, b); // stable whatever qsort does
}

/** qsort() that takes an empty array (whose pointer may be NULL). */
static void sort_lines(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1) {
        qsort(v, n, size, cmp);
    }
}

static const char *const field_names[SNAP_FIELDS] = {"path", "type",   "size",  "mtime", "mode",
                                                     "uid",  "gid",    "dev",   "ino",   "nlink",
                                                     "link", "target", "xattrs"};

/** Prints one "changed" line if anything but the path differs. @return lines printed. */
static long diff_one(const char *a, const char *b, FILE *out)
{
    struct fields fa, fb;
    split(a, &fa);
    split(b, &fb);
    long printed = 0;
    for (int i = 1; i < SNAP_FIELDS; i++) {
        if (!field_eq(&fa, &fb, i)) {
            if (printed++ == 0) {
                fprintf(out, "changed\t%.*s\t", (int)fb.len[SNAP_PATH], fb.p[SNAP_PATH]);
            } else {
                fputc(',', out);
            }
            fputs(field_names[i], out);
        }
    }
    if (printed > 0) {
        fputc('\n', out);
    }
    return printed > 0;
}

/** Prints "KIND\tPATH" for each line of `v` not matched by a rename. */
static long print_paths(const char *kind, char **v, size_t n, FILE *out)
{
    long printed = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] != NULL) {
            struct fields f;
            split(v[i], &f);
            fprintf(out, "%s\t%.*s\n", kind, (int)f.len[SNAP_PATH], f.p[SNAP_PATH]);
            printed++;
        }
    }
    return printed;
}

/** Is the path of `line` below one of the directories `unread`? */
static bool below_unread(const char *line, const struct snap *unread)
{
    struct fields f;
    split(line, &f);
    for (size_t i = 0; i < unread->n; i++) {
        size_t n = strlen(unread->lines[i]);
        if (f.len[SNAP_PATH] > n && memcmp(f.p[SNAP_PATH], unread->lines[i], n) == 0 &&
            f.p[SNAP_PATH][n] == '/') {
            return true;
        }
    }
    return false;
}

long snap_diff(struct snap *old, struct snap *now, const struct snap *unread, FILE *out)
{
    sort_lines(old->lines, old->n, sizeof(char *), by_path);
    sort_lines(now->lines, now->n, sizeof(char *), by_path);
    char **gone = malloc((old->n + 1) * sizeof(char *));
    char **added = malloc((now->n + 1) * sizeof(char *));
    struct rename *renamed = malloc((old->n + 1) * sizeof(*renamed));
    if (gone == NULL || added == NULL || renamed == NULL) {
        free(gone);
        free(added);
        free(renamed);
        return -1;
    }
    size_t ngone = 0, nadded = 0, nrenamed = 0, carried = 0;
    long printed = 0;
    size_t i = 0, j = 0;
    while (i < old->n || j < now->n) {
        int c = i == old->n ? 1 : j == now->n ? -1 : by_path(&old->lines[i], &now->lines[j]);
        if (c < 0 && below_unread(old->lines[i], unread)) {
            carried++; // kept below, once the merge no longer reads `now`
            i++;
        } else if (c < 0) {
            gone[ngone++] = old->lines[i++];
        } else if (c > 0) {
            added[nadded++] = now->lines[j++];
        } else {
            printed += diff_one(old->lines[i++], now->lines[j++], out);
        }
    }
    // Renamed: a path gone and one added with the same dev, ino, type, size and mtime (a
    // directory's entries move with it: each is reported as renamed too).
    sort_lines(gone, ngone, sizeof(char *), by_identity);
    sort_lines(added, nadded, sizeof(char *), by_identity);
    for (i = 0, j = 0; i < ngone && j < nadded;) {
        int c = by_identity(&gone[i], &added[j]);
        struct fields fa, fb;
        split(gone[i], &fa);
        split(added[j], &fb);
        bool same = field_eq(&fa, &fb, SNAP_DEV) && field_eq(&fa, &fb, SNAP_INO) &&
                    field_eq(&fa, &fb, SNAP_TYPE) && field_eq(&fa, &fb, SNAP_SIZE) &&
                    field_eq(&fa, &fb, SNAP_MTIME);
        if (same) {
            renamed[nrenamed++] = (struct rename){gone[i], added[j]};
            gone[i++] = NULL;
            added[j++] = NULL;
        } else if (c < 0) {
            i++;
        } else {
            j++;
        }
    }
    sort_lines(gone, ngone, sizeof(char *), by_path_or_null);
    sort_lines(added, nadded, sizeof(char *), by_path_or_null);
    printed += print_paths("removed", gone, ngone, out);
    printed += print_paths("added", added, nadded, out);
    sort_lines(renamed, nrenamed, sizeof(*renamed), by_from);
    bool ok = true;
    size_t listed = now->n; // the lines of this scan, sorted; carried ones go after them
    for (i = 0, j = 0; carried > 0 && i < old->n; i++) {
        // Carried over: what the scan could not read stays as it was (sorted again below).
        while (j < listed && by_path(&now->lines[j], &old->lines[i]) < 0) {
            j++;
        }
        bool in_now = j < listed && by_path(&now->lines[j], &old->lines[i]) == 0;
        if (!in_now && below_unread(old->lines[i], unread)) {
            char *copy = strdup(old->lines[i]);
            ok = ok && copy != NULL && snap_add(now, copy);
        }
    }
    for (size_t k = 0; k < nrenamed; k++) {
        struct fields fa, fb;
        split(renamed[k].from, &fa);
        split(renamed[k].to, &fb);
        fprintf(out, "renamed\t%.*s\t%.*s\n", (int)fa.len[SNAP_PATH], fa.p[SNAP_PATH],
                (int)fb.len[SNAP_PATH], fb.p[SNAP_PATH]);
        printed++;
    }
    free(gone);
    free(added);
    free(renamed);
    if (carried > 0) {
        sort_lines(now->lines, now->n, sizeof(char *), by_path);
    }
    return ok ? printed : -1;
}
