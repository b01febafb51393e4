// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The orders tests/cli/frdfind_vs_find.sh compares outputs in, as one small program (it ran
 * a Python interpreter per case before: 0.6 s each on the project's VM, most of the test's
 * time). Reads standard input, writes standard output:
 *   path_order pre | post [-l]  NUL-separated paths (-l: lines), sorted component by
 *                               component in byte order (find -s order); post: each after
 *                               what is below it
 *   path_order roots ARGS...    lines sorted within each run of lines under one root (the
 *                               roots: ARGS up to the first that starts with '-' or is '!'
 *                               or '('; a line belongs to the longest root it is under), the
 *                               runs kept in the order they came
 *   path_order postcheck        lines sorted, after an "ORDER: P before L" line for each
 *                               line L printed after an ancestor P of its own (-depth order)
 *   path_order same [-z] A B    exit status 0 if files A and B hold the same lines (-z:
 *                               NUL-separated records) in any order, 1 if not; prints
 *                               nothing (one process where two sorts and a cmp were)
 * Exit status 0 (same: 0 or 1), or 2 on a usage or I/O error (said on standard error).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
    const char *s;
    size_t len;
    size_t index; /**< position in the input, for a stable sort */
};

struct recs {
    struct rec *v;
    size_t n;
    size_t cap;
};

_Noreturn static void die(const char *what)
{
    fprintf(stderr, "path_order: %s\n", what);
    exit(2);
}

/** All of in, NUL-terminated past its end. */
static char *read_all(FILE *in, size_t *len)
{
    size_t cap = 1 << 16;
    size_t n = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        die("out of memory");
    }
    for (;;) {
        if (cap - n < 4096) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (buf == NULL) {
                die("out of memory");
            }
        }
        size_t got = fread(buf + n, 1, cap - n - 1, in);
        n += got;
        if (got == 0) {
            break;
        }
    }
    if (ferror(in)) {
        die("cannot read its input");
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/** Splits buf at sep into records; a last record without sep counts too. */
static void split(char *buf, size_t len, char sep, struct recs *r)
{
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && buf[i] != sep) {
            continue;
        }
        if (i == len && start == len) {
            break; // nothing after the last separator
        }
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 1024;
            r->v = realloc(r->v, r->cap * sizeof(*r->v));
            if (r->v == NULL) {
                die("out of memory");
            }
        }
        r->v[r->n] = (struct rec){buf + start, i - start, r->n};
        r->n++;
        start = i + 1;
    }
}

static bool post_mode;

/** Paths component by component; post: a path after those below it. */
static int component_cmp(const struct rec *a, const struct rec *b)
{
    size_t i = 0;
    size_t j = 0;
    for (;;) {
        const char *sa = memchr(a->s + i, '/', a->len - i);
        const char *sb = memchr(b->s + j, '/', b->len - j);
        size_t ea = sa ? (size_t)(sa - a->s) : a->len;
        size_t eb = sb ? (size_t)(sb - b->s) : b->len;
        size_t la = ea - i;
        size_t lb = eb - j;
        int c = memcmp(a->s + i, b->s + j, la < lb ? la : lb);
        if (c != 0) {
            return c;
        }
        if (la != lb) {
            return la < lb ? -1 : 1;
        }
        bool a_end = sa == NULL;
        bool b_end = sb == NULL;
        if (a_end || b_end) {
            if (a_end && b_end) {
                return 0;
            }
            // One is the other's ancestor: first in pre-order, last in post-order.
            return (a_end ? -1 : 1) * (post_mode ? -1 : 1);
        }
        i = ea + 1;
        j = eb + 1;
    }
}

static int by_components(const void *x, const void *y)
{
    const struct rec *a = x;
    const struct rec *b = y;
    int c = component_cmp(a, b);
    return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

/** Bytes, then position (a stable sort by bytes). */
static int by_bytes(const void *x, const void *y)
{
    const struct rec *a = x;
    const struct rec *b = y;
    int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
    if (c == 0) {
        c = (a->len > b->len) - (a->len < b->len);
    }
    return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

static void put(const struct rec *r, char end)
{
    if (fwrite(r->s, 1, r->len, stdout) != r->len || putchar(end) == EOF) {
        die("cannot write standard output");
    }
}

/** Which root a line is under: the index of the longest, or -1. */
static long root_of(const struct rec *line, char **roots, size_t nroots)
{
    long best = -1;
    size_t best_len = 0;
    for (size_t i = 0; i < nroots; i++) {
        size_t rl = strlen(roots[i]);
        bool slash = rl > 0 && roots[i][rl - 1] == '/';
        bool under =
            (line->len == rl && memcmp(line->s, roots[i], rl) == 0) ||
            (line->len > rl && memcmp(line->s, roots[i], rl) == 0 && (slash || line->s[rl] == '/'));
        if (under && (best < 0 || rl > best_len)) {
            best = (long)i;
            best_len = rl;
        }
    }
    return best;
}

static void roots_runs(struct recs *lines, char **args, size_t nargs)
{
    size_t nroots = 0;
    while (nroots < nargs && args[nroots][0] != '-' && strcmp(args[nroots], "!") != 0 &&
           strcmp(args[nroots], "(") != 0) {
        nroots++;
    }
    size_t start = 0;
    long last = -2;
    for (size_t i = 0; i <= lines->n; i++) {
        long r = i < lines->n ? root_of(&lines->v[i], args, nroots) : -3;
        if (i > 0 && r != last) {
            qsort(lines->v + start, i - start, sizeof(*lines->v), by_bytes);
            start = i;
        }
        last = r;
    }
    for (size_t i = 0; i < lines->n; i++) {
        put(&lines->v[i], '\n');
    }
}

static void post_check(struct recs *lines)
{
    // Sorted copies to look ancestors up in, each with the place it was printed at.
    struct rec *sorted = malloc((lines->n ? lines->n : 1) * sizeof(*sorted));
    if (sorted == NULL) {
        die("out of memory");
    }
    if (lines->n > 0) {
        memcpy(sorted, lines->v, lines->n * sizeof(*sorted));
        qsort(sorted, lines->n, sizeof(*sorted), by_bytes);
    }
    for (size_t i = 0; i < lines->n; i++) {
        const struct rec *l = &lines->v[i];
        size_t plen = l->len;
        for (;;) {
            const char *slash = NULL;
            for (size_t k = plen; k-- > 0;) {
                if (l->s[k] == '/') {
                    slash = l->s + k;
                    break;
                }
            }
            if (slash == NULL) {
                break;
            }
            plen = (size_t)(slash - l->s);
            // The first line equal to the ancestor: printed before this one?
            struct rec key = {l->s, plen, 0};
            size_t lo = 0;
            size_t hi = lines->n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (by_bytes(&sorted[mid], &key) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if (lo < lines->n && sorted[lo].len == plen && memcmp(sorted[lo].s, l->s, plen) == 0 &&
                sorted[lo].index < i) {
                if (printf("ORDER: %.*s before %.*s\n", (int)plen, l->s, (int)l->len, l->s) < 0) {
                    die("cannot write standard output");
                }
            }
        }
    }
    for (size_t i = 0; i < lines->n; i++) {
        put(&sorted[i], '\n');
    }
    free(sorted);
}

/** Whether files a and b hold the same records (split at sep) in any order. */
static bool same_records(const char *a, const char *b, char sep)
{
    const char *names[2] = {a, b};
    char *bufs[2];
    struct recs r[2] = {{0}};
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(names[k], "rb");
        if (f == NULL) {
            die("cannot open a file to compare");
        }
        size_t len;
        bufs[k] = read_all(f, &len);
        fclose(f);
        split(bufs[k], len, sep, &r[k]);
        if (r[k].n > 0) {
            qsort(r[k].v, r[k].n, sizeof(*r[k].v), by_bytes);
        }
    }
    bool same = r[0].n == r[1].n;
    for (size_t i = 0; same && i < r[0].n; i++) {
        same =
            r[0].v[i].len == r[1].v[i].len && memcmp(r[0].v[i].s, r[1].v[i].s, r[0].v[i].len) == 0;
    }
    for (int k = 0; k < 2; k++) {
        free(r[k].v);
        free(bufs[k]);
    }
    return same;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        die("usage: path_order pre|post [-l] | roots ARGS... | postcheck | same [-z] A B");
    }
    const char *mode = argv[1];
    if (strcmp(mode, "same") == 0) {
        bool nul = argc == 5 && strcmp(argv[2], "-z") == 0;
        if (argc != 4 + nul) {
            die("usage: path_order same [-z] A B");
        }
        return same_records(argv[2 + nul], argv[3 + nul], nul ? '\0' : '\n') ? 0 : 1;
    }
    size_t len;
    char *buf = read_all(stdin, &len);
    struct recs r = {0};
    if (strcmp(mode, "pre") == 0 || strcmp(mode, "post") == 0) {
        post_mode = mode[1] == 'o';
        char sep = argc > 2 && strcmp(argv[2], "-l") == 0 ? '\n' : '\0';
        split(buf, len, sep, &r);
        if (r.n > 0) {
            qsort(r.v, r.n, sizeof(*r.v), by_components);
        }
        for (size_t i = 0; i < r.n; i++) {
            put(&r.v[i], sep);
        }
    } else if (strcmp(mode, "roots") == 0) {
        split(buf, len, '\n', &r);
        roots_runs(&r, argv + 2, (size_t)argc - 2);
    } else if (strcmp(mode, "postcheck") == 0) {
        split(buf, len, '\n', &r);
        post_check(&r);
    } else {
        die("unknown mode");
    }
    if (fflush(stdout) != 0) {
        die("cannot write standard output");
    }
    free(r.v);
    free(buf);
    return 0;
}
