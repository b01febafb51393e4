// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex changes`: the history after a generation, folded per path, as text, JSON or -0. */
#define _GNU_SOURCE // memrchr, strptime

#include "frdindex_changes.h"

#include "frdindex.h"
#include "frdindex_access.h"
#include "frdindex_db.h"
#include "frdindex_dirs.h"
#include "frdindex_history.h"
#include "frdindex_print.h"
#include "grow.h"
#include "hash.h"
#include "toolname.h"

#include <errno.h>
#include <frd.h>
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

/*
 * `changes` folds, per path, the events of the updates after --since, then prints the paths
 * in byte order. A path is an entry's key (its directory's id and its name, see
 * frdindex_dirs.h): the events are grouped by key, and the byte order of the whole paths
 * comes from the tree of directories (each directory's children sorted by name, a
 * directory's subtree placed as its name followed by "/"), so no path is built but the one
 * being printed: a history as deep as the file system allows costs its names.
 */

/** One event after the --since generation. */
struct event {
    int64_t gen;
    size_t seq;                  // order read: within a generation, the order written
    size_t key_off, key_len;     // its key in the arena
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
    struct folded *paths; // sorted by key
    size_t npaths;
    struct index_dirs *dirs;
};

static const char *ev_key(const struct history *h, const struct event *e)
{
    return h->arena + e->key_off;
}

/** Adds a key (a directory and a name) to the arena. @return its offset, or SIZE_MAX. */
static size_t arena_key(struct history *h, int64_t dir, const char *name, size_t len)
{
    if (tool_reserve_chars(&h->arena, &h->arena_cap, h->arena_len + INDEX_KEY_DIR_BYTES + len + 1) <
        0) {
        return SIZE_MAX;
    }
    size_t off = h->arena_len;
    index_key_make(h->arena + off, dir, name, len);
    h->arena[off + INDEX_KEY_DIR_BYTES + len] = '\0';
    h->arena_len += INDEX_KEY_DIR_BYTES + len + 1;
    return off;
}

/** Byte order: memcmp, then the shorter first. */
static int blob_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
    int c = memcmp(a, b, alen < blen ? alen : blen);
    if (c != 0) {
        return c;
    }
    return alen < blen ? -1 : alen > blen;
}

/** @return the folded path whose key is (key, len), or NULL. */
static struct folded *find_key(struct history *h, const char *key, size_t len)
{
    size_t lo = 0, hi = h->npaths;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct event *e = &h->ev[h->paths[mid].first];
        int c = blob_cmp(ev_key(h, e), e->key_len, key, len);
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
        struct folded *old = find_key(h, h->arena + e->other_off, e->other_len);
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
            const struct folded *to = find_key(h, h->arena + last->other_off, last->other_len);
            if (to != NULL &&
                (to->change == INDEX_RENAMED || to->change == INDEX_RENAMED_WITH_PARENT)) {
                f->change = INDEX_UNCHANGED; // printed as the rename's line
            }
        }
    }
}

/**
 * The folded path of the directory holding key `e`'s entry (an entry itself: its
 * directory's directory and its name), or NULL.
 */
static const struct folded *parent_of(struct history *h, const struct event *e, char **buf,
                                      size_t *cap)
{
    bool failed = false;
    int64_t dir = index_key_dir(ev_key(h, e));
    const struct index_dir *d = dir != 0 ? index_dirs_get(h->dirs, dir, &failed) : NULL;
    if (d == NULL || tool_reserve_chars(buf, cap, INDEX_KEY_DIR_BYTES + d->name_len + 1) < 0 ||
        *buf == NULL) {
        return NULL;
    }
    index_key_make(*buf, d->parent, index_dir_name(h->dirs, d), d->name_len);
    return find_key(h, *buf, INDEX_KEY_DIR_BYTES + d->name_len);
}

/** Marks what is printed only with --all. */
static void fold_hidden(struct history *h)
{
    char *buf = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < h->npaths; i++) {
        struct folded *f = &h->paths[i];
        const struct event *last = &h->ev[f->first + f->count - 1];
        // A directory's mtime moves whenever an entry in it comes or goes, and each of
        // those entries is reported itself.
        if (f->change == INDEX_MODIFIED && last->type == FRD_TYPE_DIR) {
            f->hidden = true;
        }
        // Renamed only because a directory above it was, and that rename is printed.
        if (f->change == INDEX_RENAMED_WITH_PARENT) {
            const struct folded *parent = parent_of(h, last, &buf, &cap);
            f->hidden = parent != NULL && (parent->change == INDEX_RENAMED ||
                                           parent->change == INDEX_RENAMED_WITH_PARENT);
        }
    }
    free(buf);
}

/** Collects one event read from the history. */
static int take_event(const struct index_event *e, void *arg)
{
    struct history *h = arg;
    if (events_reserve(&h->ev, &h->cap, h->nev + 1) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    struct event *ev = &h->ev[h->nev];
    *ev = (struct event){
        .gen = e->gen,
        .seq = h->nev,
        .key_len = INDEX_KEY_DIR_BYTES + e->name_len,
        .other_len = e->has_other ? INDEX_KEY_DIR_BYTES + e->other_len : SIZE_MAX,
        .change = e->change,
        .type = e->type,
    };
    ev->key_off = arena_key(h, e->dir, e->name, e->name_len);
    ev->other_off = e->has_other ? arena_key(h, e->other_dir, e->other, e->other_len) : 0;
    if (ev->key_off == SIZE_MAX || ev->other_off == SIZE_MAX) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    h->nev++;
    return 0;
}

static const struct history *sort_history; // qsort has no context argument

/** Orders events by key, then generation, then the order they were written. */
static int event_order(const void *a, const void *b)
{
    const struct event *x = a, *y = b;
    int c = blob_cmp(ev_key(sort_history, x), x->key_len, ev_key(sort_history, y), y->key_len);
    if (c != 0) {
        return c;
    }
    if (x->gen != y->gen) {
        return x->gen < y->gen ? -1 : 1;
    }
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/** Reads history after generation `since` and folds it per path. @return 0 or -1. */
static int load_history(sqlite3 *db, int64_t since, struct history *h)
{
    if (index_history_read(db, since, take_event, h) < 0) {
        return -1;
    }
    sort_history = h;
    if (h->nev > 1) {
        qsort(h->ev, h->nev, sizeof(*h->ev), event_order);
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
        if (cur != NULL && head->key_len == e->key_len &&
            memcmp(ev_key(h, head), ev_key(h, e), e->key_len) == 0) {
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
}

static void history_free(struct history *h)
{
    free(h->ev);
    free(h->arena);
    free(h->paths);
}

/*
 * Printing in byte order. Every line to print, and every directory above one, is a node of
 * a tree: a line sits in its directory, a directory in its parent. Among the nodes of one
 * directory, a line sorts by its name and a directory by its name and "/" (what its
 * subtree's paths continue with), which is byte order of the whole paths; the tree is
 * walked depth first with the current directory's path in one buffer.
 */

/** A node of the printing tree: a line (a folded path) or a directory. */
struct tnode {
    int64_t parent; // the directory holding it (0: the top)
    int64_t dir;    // a directory's id; 0 for a line
    size_t line;    // a line's index in h->paths
};

TOOL_RESERVE_DEFINE(tnodes_reserve, struct tnode, 1024)

static struct history *tree_history; // qsort has no context argument

/** The name a node sorts by, and whether "/" follows it (a directory below "/"). */
static const char *tnode_name(const struct tnode *n, size_t *len, bool *slash)
{
    struct history *h = tree_history;
    if (n->dir == 0) {
        const struct event *e = &h->ev[h->paths[n->line].first];
        *len = e->key_len - INDEX_KEY_DIR_BYTES;
        *slash = false;
        return ev_key(h, e) + INDEX_KEY_DIR_BYTES;
    }
    bool failed = false;
    const struct index_dir *d = index_dirs_get(h->dirs, n->dir, &failed);
    *len = d->name_len;
    const char *name = index_dir_name(h->dirs, d);
    // The path of "/" already ends with the "/" its entries' paths continue with.
    *slash = !(d->parent == 0 && d->name_len == 1 && name[0] == '/');
    return name;
}

static int tnode_order(const void *a, const void *b)
{
    const struct tnode *x = a, *y = b;
    if (x->parent != y->parent) {
        return x->parent < y->parent ? -1 : 1;
    }
    size_t xl, yl;
    bool xs, ys;
    const char *xn = tnode_name(x, &xl, &xs), *yn = tnode_name(y, &yl, &ys);
    size_t n = xl < yl ? xl : yl;
    int c = memcmp(xn, yn, n);
    if (c != 0) {
        return c;
    }
    // Past the common part: the next byte of each ("/" after a directory's name), or none.
    int xc = xl > n ? (unsigned char)xn[n] : xs ? '/' : -1;
    int yc = yl > n ? (unsigned char)yn[n] : ys ? '/' : -1;
    if (xl > n && yl > n) {
        return 0; // cannot happen: memcmp would have told
    }
    if (xc != yc) {
        return xc < yc ? -1 : 1;
    }
    if (xl != yl) {
        // One name is longer; the other's "/" matched its next byte, which is a '/' in a
        // name: impossible, names hold no '/'. Order by length for a total order.
        return xl < yl ? -1 : 1;
    }
    // The same name: a line before the directory of the same name (its path is shorter).
    return (x->dir != 0) - (y->dir != 0);
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

/** What printing needs besides the history. */
struct printer {
    const struct index_changes_options *opts;
    struct index_access access;
    bool first; // no line printed yet (JSON's commas)
    char *old;  // a rename's old path
    size_t old_len, old_cap;
};

/** Prints one folded path at `path`. @return 0, or -1 after a message. */
static int print_line(struct printer *pr, struct history *h, const struct folded *f,
                      const char *path, size_t len)
{
    const struct index_changes_options *opts = pr->opts;
    const struct event *last = &h->ev[f->first + f->count - 1];
    enum index_change change = f->change;
    bool renamed = change == INDEX_RENAMED || change == INDEX_RENAMED_WITH_PARENT;
    if (renamed) {
        const char *other = h->arena + last->other_off;
        pr->old_len = 0;
        if (index_dirs_path(h->dirs, index_key_dir(other), other + INDEX_KEY_DIR_BYTES,
                            last->other_len - INDEX_KEY_DIR_BYTES, &pr->old, &pr->old_len,
                            &pr->old_cap) < 0) {
            return -1;
        }
    }
    // Only what this user may list now (see frdindex_access.h); a rename from a place
    // hidden from the user shows as an addition.
    int visible = index_access_visible(&pr->access, path, len);
    int old_visible =
        renamed && visible == 1 ? index_access_visible(&pr->access, pr->old, pr->old_len) : 1;
    if (visible < 0 || old_visible < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    if (visible == 0) {
        return 0;
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
        printf("%s{\"change\":\"%s\",\"type\":\"%c\",\"path\":", pr->first ? "" : ",", name,
               type_letter(last->type));
        json_path(stdout, (const unsigned char *)path, len);
        if (renamed) {
            fputs(",\"old_path\":", stdout);
            json_path(stdout, (const unsigned char *)pr->old, pr->old_len);
        }
        fputc('}', stdout);
    } else {
        // One change, one line: a name with a newline, a tab or another unprintable
        // character is quoted (frdindex_print.h).
        fputs(name, stdout);
        fputc('\t', stdout);
        if ((renamed && (index_print_quoted(stdout, pr->old) < 0 || fputc('\t', stdout) == EOF)) ||
            index_print_quoted(stdout, path) < 0) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            return -1;
        }
        fputc('\n', stdout);
    }
    pr->first = false;
    return 0;
}

static uint64_t id_hash(int64_t id)
{
    return tool_hash_mix((uint64_t)id);
}

static bool record_is_id(const void *record, const void *key)
{
    return memcmp(record, key, sizeof(int64_t)) == 0;
}

/**
 * The nodes to print: the lines, and the directories above them, once each.
 * @return 0, or -1 after a message.
 */
static int tree_nodes(struct history *h, bool all, struct tnode **nodes, size_t *n, size_t *cap)
{
    struct tool_hash seen;
    tool_hash_init(&seen, sizeof(int64_t));
    int result = 0;
    bool failed = false;
    for (size_t i = 0; i < h->npaths && result == 0; i++) {
        const struct folded *f = &h->paths[i];
        if (f->change == INDEX_UNCHANGED || (f->hidden && !all)) {
            continue;
        }
        int64_t dir = index_key_dir(ev_key(h, &h->ev[f->first]));
        if (tnodes_reserve(nodes, cap, *n + 1) < 0) {
            result = -1;
            break;
        }
        (*nodes)[(*n)++] = (struct tnode){.parent = dir, .line = i};
        // The directories above it, up to one already in the tree.
        while (dir != 0) {
            bool found;
            void *slot = tool_hash_insert(&seen, id_hash(dir), record_is_id, &dir, &found);
            if (slot == NULL) {
                result = -1;
                break;
            }
            if (found) {
                break;
            }
            memcpy(slot, &dir, sizeof(dir));
            const struct index_dir *d = index_dirs_get(h->dirs, dir, &failed);
            if (d == NULL) {
                fprintf(stderr,
                        "%s: directory %lld of the history is missing: the index is damaged; "
                        "remove it and run update again\n",
                        tool_name, (long long)dir);
                tool_hash_free(&seen);
                return -1;
            }
            if (tnodes_reserve(nodes, cap, *n + 1) < 0) {
                result = -1;
                break;
            }
            (*nodes)[(*n)++] = (struct tnode){.parent = d->parent, .dir = dir};
            dir = d->parent;
        }
    }
    tool_hash_free(&seen);
    if (result < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
    }
    return result;
}

/** @return the first node (sorted) whose parent is `parent`. */
static size_t first_child(const struct tnode *nodes, size_t n, int64_t parent)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (nodes[mid].parent < parent) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/** A directory being printed: its nodes from `pos`, its path the buffer's first `len`. */
struct frame {
    int64_t dir;
    size_t pos;
    size_t len;
};

TOOL_RESERVE_DEFINE(frames_reserve, struct frame, 64)

/** Appends "/" (unless the path ends with one) and `name`. @return 0, or -1 (memory). */
static int join(char **buf, size_t *len, size_t *cap, const char *name, size_t name_len)
{
    if (tool_reserve_chars(buf, cap, *len + name_len + 2) < 0) {
        return -1;
    }
    if (*len > 0 && (*buf)[*len - 1] != '/') {
        (*buf)[(*len)++] = '/';
    }
    memcpy(*buf + *len, name, name_len);
    *len += name_len;
    (*buf)[*len] = '\0';
    return 0;
}

/** Prints the folded paths in byte order, depth first. @return 0, or -1 after a message. */
static int print_tree(struct printer *pr, struct history *h)
{
    struct tnode *nodes = NULL;
    size_t n = 0, cap = 0;
    struct frame *stack = NULL;
    size_t depth = 0, stack_cap = 0;
    char *path = NULL;
    size_t len = 0, path_cap = 0;
    int result = tree_nodes(h, pr->opts->all, &nodes, &n, &cap);
    if (result < 0) {
        goto done;
    }
    tree_history = h;
    if (n > 1) {
        qsort(nodes, n, sizeof(*nodes), tnode_order);
    }
    if (frames_reserve(&stack, &stack_cap, 1) < 0 || tool_reserve_chars(&path, &path_cap, 1) < 0) {
        result = -1;
        goto oom;
    }
    path[0] = '\0';
    stack[depth++] = (struct frame){.dir = 0, .pos = first_child(nodes, n, 0), .len = 0};
    while (depth > 0 && result == 0) {
        struct frame *top = &stack[depth - 1];
        if (top->pos >= n || nodes[top->pos].parent != top->dir) {
            depth--;
            continue;
        }
        const struct tnode *node = &nodes[top->pos++];
        len = top->len;
        size_t name_len;
        bool slash;
        const char *name = tnode_name(node, &name_len, &slash);
        if (join(&path, &len, &path_cap, name, name_len) < 0) {
            result = -1;
            goto oom;
        }
        if (node->dir == 0) {
            result = print_line(pr, h, &h->paths[node->line], path, len);
        } else {
            if (frames_reserve(&stack, &stack_cap, depth + 1) < 0) {
                result = -1;
                goto oom;
            }
            stack[depth++] = (struct frame){
                .dir = node->dir, .pos = first_child(nodes, n, node->dir), .len = len};
        }
    }
    goto done;
oom:
    fprintf(stderr, "%s: out of memory\n", tool_name);
done:
    free(nodes);
    free(stack);
    free(path);
    return result;
}

int index_changes(const struct index_changes_options *opts)
{
    sqlite3 *db;
    if (index_db_open(opts->db_path, INDEX_OPEN_READ, &db) < 0) {
        return 1;
    }
    int status = 1;
    struct index_dirs dirs = {0};
    struct history h = {.dirs = &dirs};
    struct printer pr = {.opts = opts, .first = true};
    index_access_init(&pr.access);
    index_access_for_db(&pr.access, opts->db_path);
    int64_t generation, since;
    // One read transaction: the rows and the generation come from the same update.
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
        index_db_meta_get(db, "generation", &generation) < 0 ||
        index_db_check_count(db, opts->db_path) < 0) {
        goto done;
    }
    if (index_db_schema(db) < INDEX_SCHEMA_NAMES) {
        fprintf(stderr,
                "%s: %s: made by an older frdindex: run 'frdindex update %s' once to "
                "upgrade it\n",
                tool_name, opts->db_path, opts->db_path);
        goto done;
    }
    since = generation > 0 ? generation - 1 : 0;
    if ((opts->since != NULL && since_generation(db, opts->since, &since) < 0) ||
        check_since(db, opts->db_path, since, generation) < 0 || index_dirs_load(&dirs, db) < 0 ||
        load_history(db, since, &h) < 0) {
        goto done;
    }
    if (opts->json) {
        printf("{\"generation\":%lld,\"since\":%lld,\"changes\":[", (long long)generation,
               (long long)since);
    }
    if (print_tree(&pr, &h) < 0) {
        goto done;
    }
    if (opts->json) {
        puts("]}");
    }
    status = 0;
done:
    history_free(&h);
    index_dirs_free(&dirs);
    free(pr.old);
    index_access_free(&pr.access);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    sqlite3_close(db);
    return status;
}
