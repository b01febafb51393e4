// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex changes`: the history after a generation, folded per path, as text, JSON or -0. */
#define _GNU_SOURCE // memrchr, strptime

#include "frdindex_changes.h"

#include "frdindex.h"
#include "frdindex_access.h"
#include "frdindex_db.h"
#include "frdindex_print.h"
#include "grow.h"
#include "toolname.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/** @return the word `changes` prints for a kind: "added", "removed", ... */
static const char *change_name(enum index_change change)
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
    case INDEX_RENAMED_AWAY:
        return "removed";
    default:
        return "unchanged";
    }
}

/** @return find's %y letter for an enum frd_type value: f d l p s c b, or U. */
static char type_letter(unsigned type)
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

/** One row of table history after the --since generation, in path, then update order. */
struct event {
    int64_t gen;
    size_t path_off, path_len;
    size_t other_off, other_len; // other_len SIZE_MAX: none
    uint8_t change;
    uint8_t type;
};

/** events_reserve(&ev, &cap, need): the events of a history (first 1,024). */
TOOL_RESERVE_DEFINE(events_reserve, struct event, 1024)

/** What `changes` prints for one path: the fold of its events. */
struct folded {
    size_t first, count; // its events
    uint8_t change;      // enum index_change; INDEX_UNCHANGED: nothing to print
    bool hidden;         // printed only with --all
};

struct history {
    struct event *ev;
    size_t nev, cap;
    char *arena;
    size_t arena_len, arena_cap;
    struct folded *paths;
    size_t npaths;
};

static const char *ev_path(const struct history *h, const struct event *e)
{
    return h->arena + e->path_off;
}

/** Copies len bytes into the arena. @return their offset, or SIZE_MAX when out of memory. */
static size_t arena_add(struct history *h, const void *bytes, size_t len)
{
    if (tool_reserve_chars(&h->arena, &h->arena_cap, h->arena_len + len + 1) < 0) {
        return SIZE_MAX;
    }
    size_t off = h->arena_len;
    if (len > 0) {
        memcpy(h->arena + off, bytes, len);
    }
    h->arena[off + len] = '\0';
    h->arena_len += len + 1;
    return off;
}

/** SQLite's BLOB order: memcmp, then the shorter first. */
static int blob_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c != 0) {
        return c;
    }
    return alen < blen ? -1 : alen > blen;
}

/** @return the folded path equal to (path, len), or NULL. */
static struct folded *find_path(struct history *h, const char *path, size_t len)
{
    size_t lo = 0, hi = h->npaths;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct event *e = &h->ev[h->paths[mid].first];
        int c = blob_cmp(ev_path(h, e), e->path_len, path, len);
        if (c == 0) {
            return &h->paths[mid];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

/** Whether an event says the path held an entry before it (rather than none). */
static bool present_before(uint8_t change)
{
    return change != INDEX_ADDED && change != INDEX_RENAMED && change != INDEX_RENAMED_WITH_PARENT;
}

/** Whether an event leaves an entry at the path. */
static bool present_after(uint8_t change)
{
    return change != INDEX_REMOVED && change != INDEX_RENAMED_AWAY;
}

/*
 * Folding, per path, the events of the updates after the --since generation:
 *   - nothing there before nor after (added then removed): nothing;
 *   - not there before, there after: added; or renamed when its only event is a rename
 *     from a path that held the file at --since (that path's first event is the rename's);
 *   - there before, not after: removed (not printed for the old path of a rename printed);
 *   - there before and after: replaced if it was ever gone or replaced in between (removed
 *     then added again is replaced), else modified if any event was, else metadata.
 */
static void fold_path(struct folded *f, const struct event *ev)
{
    const struct event *first = &ev[f->first], *last = &ev[f->first + f->count - 1];
    bool before = present_before(first->change), after = present_after(last->change);
    if (!before && !after) {
        f->change = INDEX_UNCHANGED;
    } else if (!before) {
        f->change = f->count == 1 ? first->change : INDEX_ADDED; // renames: see fold_renames
    } else if (!after) {
        f->change = INDEX_REMOVED;
    } else {
        uint8_t kind = INDEX_METADATA;
        for (size_t i = 0; i < f->count; i++) {
            uint8_t c = ev[f->first + i].change;
            if (c == INDEX_MODIFIED && kind == INDEX_METADATA) {
                kind = INDEX_MODIFIED;
            } else if (c != INDEX_MODIFIED && c != INDEX_METADATA) {
                kind = INDEX_REPLACED;
            }
        }
        f->change = kind;
    }
}

/** Second pass: a rename stays one only if its old path held the file at --since. */
static void fold_renames(struct history *h)
{
    for (size_t i = 0; i < h->npaths; i++) {
        struct folded *f = &h->paths[i];
        if (f->change != INDEX_RENAMED && f->change != INDEX_RENAMED_WITH_PARENT) {
            continue;
        }
        const struct event *e = &h->ev[f->first];
        if (e->other_len == SIZE_MAX) {
            f->change = INDEX_ADDED;
            continue;
        }
        struct folded *old = find_path(h, h->arena + e->other_off, e->other_len);
        // No events: a database migrated from schema 2 did not record the old path's side.
        if (old != NULL &&
            (h->ev[old->first].gen != e->gen || !present_before(h->ev[old->first].change))) {
            f->change = INDEX_ADDED;
        }
    }
    for (size_t i = 0; i < h->npaths; i++) {
        struct folded *f = &h->paths[i];
        const struct event *last = &h->ev[f->first + f->count - 1];
        if (f->change == INDEX_REMOVED && last->change == INDEX_RENAMED_AWAY) {
            const struct folded *to = find_path(h, h->arena + last->other_off, last->other_len);
            if (to != NULL &&
                (to->change == INDEX_RENAMED || to->change == INDEX_RENAMED_WITH_PARENT)) {
                f->change = INDEX_UNCHANGED; // printed as the rename's line
            }
        }
    }
}

/** Marks what is printed only with --all. */
static void fold_hidden(struct history *h)
{
    for (size_t i = 0; i < h->npaths; i++) {
        struct folded *f = &h->paths[i];
        const struct event *last = &h->ev[f->first + f->count - 1];
        // A directory's mtime moves whenever an entry in it comes or goes, and each of
        // those entries is reported itself.
        if (f->change == INDEX_MODIFIED && last->type == 2 /* FRD_TYPE_DIR */) {
            f->hidden = true;
        }
        // Renamed only because a directory above it was, and that rename is printed.
        if (f->change == INDEX_RENAMED_WITH_PARENT) {
            const char *path = ev_path(h, last);
            const char *slash = memrchr(path, '/', last->path_len);
            const struct folded *parent =
                slash != NULL && slash > path ? find_path(h, path, (size_t)(slash - path)) : NULL;
            f->hidden = parent != NULL && (parent->change == INDEX_RENAMED ||
                                           parent->change == INDEX_RENAMED_WITH_PARENT);
        }
    }
}

/** Reads history after generation `since` and folds it per path. @return 0 or -1. */
static int load_history(sqlite3 *db, int64_t since, struct history *h)
{
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db,
                           "SELECT gen, path, change, type, other_path FROM history "
                           "WHERE gen > ? ORDER BY path, gen, rowid",
                           -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, "reading changes");
    }
    sqlite3_bind_int64(stmt, 1, since);
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (events_reserve(&h->ev, &h->cap, h->nev + 1) < 0) {
            goto oom;
        }
        struct event *e = &h->ev[h->nev];
        e->gen = sqlite3_column_int64(stmt, 0);
        const void *path = sqlite3_column_blob(stmt, 1);
        e->path_len = (size_t)sqlite3_column_bytes(stmt, 1);
        e->change = (uint8_t)sqlite3_column_int(stmt, 2);
        e->type = (uint8_t)sqlite3_column_int(stmt, 3);
        const void *other = sqlite3_column_blob(stmt, 4);
        size_t other_len = (size_t)sqlite3_column_bytes(stmt, 4);
        e->path_off = arena_add(h, path, e->path_len);
        e->other_len = other != NULL ? other_len : SIZE_MAX;
        e->other_off = other != NULL ? arena_add(h, other, other_len) : 0;
        if (e->path_off == SIZE_MAX || e->other_off == SIZE_MAX) {
            goto oom;
        }
        h->nev++;
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) {
        return index_db_fail(db, "reading changes");
    }
    h->paths = calloc(h->nev ? h->nev : 1, sizeof(*h->paths));
    if (h->paths == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    for (size_t i = 0; i < h->nev; i++) {
        const struct event *e = &h->ev[i];
        struct folded *cur = h->npaths ? &h->paths[h->npaths - 1] : NULL;
        const struct event *head = cur ? &h->ev[cur->first] : NULL;
        if (cur != NULL && head->path_len == e->path_len &&
            memcmp(ev_path(h, head), ev_path(h, e), e->path_len) == 0) {
            cur->count++;
        } else {
            h->paths[h->npaths++] = (struct folded){.first = i, .count = 1};
        }
    }
    for (size_t i = 0; i < h->npaths; i++) {
        fold_path(&h->paths[i], h->ev);
    }
    fold_renames(h);
    fold_hidden(h);
    return 0;
oom:
    sqlite3_finalize(stmt);
    fprintf(stderr, "%s: out of memory\n", tool_name);
    return -1;
}

static void history_free(struct history *h)
{
    free(h->ev);
    free(h->arena);
    free(h->paths);
}

/**
 * Turns --since's argument into a generation: a number is one; `@SECONDS`, `YYYY-MM-DD`,
 * `YYYY-MM-DD HH:MM[:SS]` (or with a T) a time, local, whose generation is the last update
 * made at or before it. @return 0, or -1 after a message.
 */
static int since_generation(sqlite3 *db, const char *arg, int64_t *out)
{
    char *end;
    if (arg[0] >= '0' && arg[0] <= '9' && strspn(arg, "0123456789") == strlen(arg)) {
        errno = 0;
        unsigned long long g = strtoull(arg, &end, 10);
        if (errno != 0 || g > INT64_MAX) {
            fprintf(stderr, "%s: invalid generation '%s'\n", tool_name, arg);
            return -1;
        }
        *out = (int64_t)g;
        return 0;
    }
    int64_t when_ns;
    if (arg[0] == '@') {
        errno = 0;
        long long secs = strtoll(arg + 1, &end, 10);
        if (errno != 0 || end == arg + 1 || *end != '\0' || secs > INT64_MAX / 1000000000 ||
            secs < 0) {
            fprintf(stderr, "%s: invalid time '%s'\n", tool_name, arg);
            return -1;
        }
        when_ns = (int64_t)secs * 1000000000;
    } else {
        static const char *const formats[] = {"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
                                              "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d"};
        struct tm tm;
        const char *rest = NULL;
        for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && rest == NULL; i++) {
            memset(&tm, 0, sizeof(tm));
            rest = strptime(arg, formats[i], &tm);
            if (rest != NULL && *rest != '\0') {
                rest = NULL;
            }
        }
        tm.tm_isdst = -1;
        time_t t = rest != NULL ? mktime(&tm) : (time_t)-1;
        if (t == (time_t)-1) {
            fprintf(stderr,
                    "%s: invalid time '%s' (a generation number, @SECONDS, YYYY-MM-DD or "
                    "'YYYY-MM-DD HH:MM[:SS]')\n",
                    tool_name, arg);
            return -1;
        }
        when_ns = (int64_t)t * 1000000000;
    }
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "SELECT coalesce(max(gen), 0) FROM generations WHERE time_ns <= ?",
                           -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, "reading generations");
    }
    sqlite3_bind_int64(stmt, 1, when_ns);
    int rc = sqlite3_step(stmt);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
    sqlite3_finalize(stmt);
    return rc == SQLITE_ROW ? 0 : index_db_fail(db, "reading generations");
}

/** Checks that the history holds everything after `since`. @return 0 or -1. */
static int check_since(sqlite3 *db, const char *db_path, int64_t since, int64_t generation)
{
    if (since > generation) {
        fprintf(stderr, "%s: %s: generation %lld is after the last update (%lld)\n", tool_name,
                db_path, (long long)since, (long long)generation);
        return -1;
    }
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "SELECT min(gen) FROM generations", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, "reading generations");
    }
    int rc = sqlite3_step(stmt);
    int64_t first = rc == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : 0;
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW) {
        return index_db_fail(db, "reading generations");
    }
    if (first > 0 && since < first - 1) {
        fprintf(stderr,
                "%s: %s: the history starts after generation %lld (the database was made "
                "by an older frdindex): changes since %lld are not known\n",
                tool_name, db_path, (long long)(first - 1), (long long)since);
        return -1;
    }
    return 0;
}

int index_changes(const struct index_changes_options *opts)
{
    sqlite3 *db;
    if (index_db_open(opts->db_path, INDEX_OPEN_READ, &db) < 0) {
        return 1;
    }
    int status = 1;
    struct history h = {0};
    struct index_access access;
    index_access_init(&access);
    index_access_for_db(&access, opts->db_path);
    int64_t generation, since;
    // One read transaction: the rows and the generation come from the same update.
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        index_db_meta_get(db, "generation", &generation) < 0 ||
        index_db_check_count(db, opts->db_path) < 0) {
        goto done;
    }
    if (index_db_schema(db) == 2) {
        fprintf(stderr,
                "%s: %s: made by an older frdindex: run 'frdindex update %s' once to "
                "upgrade it\n",
                tool_name, opts->db_path, opts->db_path);
        goto done;
    }
    since = generation > 0 ? generation - 1 : 0;
    if ((opts->since != NULL && since_generation(db, opts->since, &since) < 0) ||
        check_since(db, opts->db_path, since, generation) < 0 || load_history(db, since, &h) < 0) {
        goto done;
    }
    if (opts->json) {
        printf("{\"generation\":%lld,\"since\":%lld,\"changes\":[", (long long)generation,
               (long long)since);
    }
    bool first = true;
    for (size_t i = 0; i < h.npaths; i++) {
        const struct folded *f = &h.paths[i];
        if (f->change == INDEX_UNCHANGED || (f->hidden && !opts->all)) {
            continue;
        }
        const struct event *last = &h.ev[f->first + f->count - 1];
        const unsigned char *path = (const unsigned char *)ev_path(&h, last);
        size_t len = last->path_len;
        enum index_change change = f->change;
        bool renamed = change == INDEX_RENAMED || change == INDEX_RENAMED_WITH_PARENT;
        const unsigned char *old = (const unsigned char *)h.arena + last->other_off;
        size_t old_len = last->other_len;
        // Only what this user may list now (see frdindex_access.h); a rename from a place
        // hidden from the user shows as an addition.
        int visible = index_access_visible(&access, (const char *)path, len);
        int old_visible =
            renamed && visible == 1 ? index_access_visible(&access, (const char *)old, old_len) : 1;
        if (visible < 0 || old_visible < 0) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            goto done;
        }
        if (visible == 0) {
            continue;
        }
        if (old_visible == 0) {
            change = INDEX_ADDED;
            renamed = false;
        }
        const char *name = change_name(change);
        if (opts->null) {
            if (change != INDEX_REMOVED) {
                fwrite(path, 1, len, stdout);
                fputc('\0', stdout);
            }
        } else if (opts->json) {
            printf("%s{\"change\":\"%s\",\"type\":\"%c\",\"path\":", first ? "" : ",", name,
                   type_letter(last->type));
            json_path(stdout, path, len);
            if (renamed) {
                fputs(",\"old_path\":", stdout);
                json_path(stdout, old, old_len);
            }
            fputc('}', stdout);
        } else {
            // One change, one line: a name with a newline, a tab or another unprintable
            // character is quoted (frdindex_print.h).
            fputs(name, stdout);
            fputc('\t', stdout);
            if ((renamed && (index_print_quoted(stdout, (const char *)old) < 0 ||
                             fputc('\t', stdout) == EOF)) ||
                index_print_quoted(stdout, (const char *)path) < 0) {
                fprintf(stderr, "%s: out of memory\n", tool_name);
                goto done;
            }
            fputc('\n', stdout);
        }
        first = false;
    }
    if (opts->json) {
        puts("]}");
    }
    status = 0;
done:
    history_free(&h);
    index_access_free(&access);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    return status;
}
