// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The entries a `find` pattern may match, looked up in the trigram index. */
#define _GNU_SOURCE // memmem

#include "frdindex_candidates.h"

#include "frdindex_db.h"
#include "frdindex_dirs.h"
#include "frdindex_trigram.h"
#include "grow.h"
#include "toolname.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** A directory whose entries are still to be read, and how many were counted in advance. */
struct queued_dir {
    int64_t node;
    size_t counted;
};

TOOL_RESERVE_DEFINE(nodes_reserve, struct queued_dir, 64)

/** @return the index just past the bracket expression opening at glob[i], or 0 when it has
 *  no end (fnmatch then reads the '[' as itself; the caller stops looking for pieces). */
static size_t bracket_end(const char *glob, size_t i)
{
    size_t j = i + 1;
    if (glob[j] == '!' || glob[j] == '^') {
        j++;
    }
    if (glob[j] == ']') {
        j++;
    }
    while (glob[j] != '\0' && glob[j] != ']') {
        if (glob[j] == '[' && (glob[j + 1] == ':' || glob[j + 1] == '.' || glob[j + 1] == '=')) {
            char kind = glob[j + 1];
            size_t k = j + 2;
            while (glob[k] != '\0' && !(glob[k] == kind && glob[k + 1] == ']')) {
                k++;
            }
            if (glob[k] == '\0') {
                return 0;
            }
            j = k + 2;
        } else if (glob[j] == '\\' && glob[j + 1] != '\0') {
            j += 2; // glibc's fnmatch escapes in brackets too; skipping is safe either way
        } else {
            j++;
        }
    }
    return glob[j] == ']' ? j + 1 : 0;
}

bool index_piece_byte(unsigned char c, bool ignore_case, bool multibyte)
{
    if (c == '/') {
        return false;
    }
    if (!ignore_case) {
        return true;
    }
    if (c >= 0x80) {
        return false;
    }
    if (multibyte) {
        return index_fold(c) != 'i' && index_fold(c) != 'k';
    }
    // A single-byte locale folds by tolower() (fnmatch, regcomp): c stands for itself (A-Z
    // folded, as the lists fold) only if no other byte folds as it does. In ISO-8859-9
    // (Turkish) 0xDD (I with a dot) folds to i, and I to 0xFD (dotless i): neither is one.
    int folded = tolower(c);
    for (int b = 0; b < 256; b++) {
        if (tolower(b) == folded && index_fold((unsigned char)b) != index_fold(c)) {
            return false;
        }
    }
    return true;
}

size_t index_glob_pieces(const char *glob, bool ignore_case, struct index_piece *out, size_t max)
{
    bool multibyte = MB_CUR_MAX > 1;
    size_t n = 0, start = 0;
    bool in_run = false;
#define END_RUN(at)                                                    \
    do {                                                               \
        if (in_run && (at)-start >= 3 && n < max) {                    \
            out[n++] = (struct index_piece){glob + start, (at)-start}; \
        }                                                              \
        in_run = false;                                                \
    } while (0)
    size_t i = 0;
    while (glob[i] != '\0') {
        unsigned char c = (unsigned char)glob[i];
        if (c == '[') {
            END_RUN(i);
            i = bracket_end(glob, i);
            if (i == 0) {
                return n;
            }
            continue;
        }
        if (c == '\\') {
            END_RUN(i);
            unsigned char e = (unsigned char)glob[i + 1];
            if (e == '\0') {
                return n;
            }
            if (index_piece_byte(e, ignore_case, multibyte)) {
                start = i + 1; // the escaped byte stands for itself, and so do those after it
                in_run = true;
            }
            i += 2;
            continue;
        }
        if (c == '*' || c == '?' || !index_piece_byte(c, ignore_case, multibyte)) {
            END_RUN(i);
        } else if (!in_run) {
            start = i;
            in_run = true;
        }
        i++;
    }
    END_RUN(i);
#undef END_RUN
    return n;
}

bool index_piece_in(const char *hay, size_t hlen, const struct index_piece *piece, bool fold)
{
    if (!fold) {
        return memmem(hay, hlen, piece->p, piece->len) != NULL;
    }
    unsigned char first = index_fold((unsigned char)piece->p[0]);
    for (size_t i = 0; i + piece->len <= hlen; i++) {
        if (index_fold((unsigned char)hay[i]) != first) {
            continue;
        }
        size_t k = 1;
        while (k < piece->len &&
               index_fold((unsigned char)hay[i + k]) == index_fold((unsigned char)piece->p[k])) {
            k++;
        }
        if (k == piece->len) {
            return true;
        }
    }
    return false;
}

/** Marks the pieces found in a root's path (not looked up: the names above the roots are no
 *  entries). @return 0, or -1 after a message. */
static int pieces_in_roots(sqlite3 *db, const struct index_piece *pieces, size_t n, bool *in_root)
{
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "SELECT path FROM roots", -1, &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, "reading the index");
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *path = sqlite3_column_blob(stmt, 0);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 0);
        for (size_t i = 0; i < n; i++) {
            in_root[i] = in_root[i] || index_piece_in(path, len, &pieces[i], true);
        }
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? 0 : index_db_fail(db, "reading the index");
}

/** What one lookup needs. */
struct lookup {
    sqlite3 *db;
    sqlite3_stmt *length, *list, *row, *range, *count;
    uint32_t *trigrams;
    size_t trigrams_cap;
    int64_t *ids;
    size_t nids;
    /** a min-heap (by node) of the directories whose entries are still to be read */
    struct queued_dir *nodes;
    size_t nnodes, nodes_cap;
    bool basename, whole;
    size_t rows, max;
    /** with `whole`: the entries of the directories queued, not read yet */
    size_t queued;
    index_candidate_fn *each;
    void *ctx;
};

/**
 * The size of the smallest list of a piece's trigrams (0: a trigram no name holds, so the
 * piece matches nothing). @return 0, or -1 after a message.
 */
static int piece_size(struct lookup *l, const struct index_piece *piece, int64_t *size)
{
    long n = index_trigrams_of(piece->p, piece->len, &l->trigrams, &l->trigrams_cap);
    if (n < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    *size = INT64_MAX;
    for (long i = 0; i<n && * size> 0; i++) {
        sqlite3_bind_int64(l->length, 1, l->trigrams[i]);
        int rc = sqlite3_step(l->length);
        int64_t len = rc == SQLITE_ROW ? sqlite3_column_int64(l->length, 0) : 0;
        sqlite3_reset(l->length);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            return index_db_fail(l->db, "reading the index");
        }
        *size = len < *size ? len : *size;
    }
    return 0;
}

/** @return the ids in both sorted lists, into `a` (their number). */
static size_t intersect(int64_t *a, size_t na, const int64_t *b, size_t nb)
{
    size_t i = 0, j = 0, n = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j]) {
            i++;
        } else if (a[i] > b[j]) {
            j++;
        } else {
            a[n++] = a[i];
            i++;
            j++;
        }
    }
    return n;
}

/** The ids of the entries whose name holds every trigram of `piece`, into l->ids. */
static int piece_ids(struct lookup *l, const struct index_piece *piece)
{
    long n = index_trigrams_of(piece->p, piece->len, &l->trigrams, &l->trigrams_cap);
    if (n < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    for (long i = 0; i < n; i++) {
        sqlite3_bind_int64(l->list, 1, l->trigrams[i]);
        int rc = sqlite3_step(l->list);
        if (rc == SQLITE_DONE) {
            sqlite3_reset(l->list);
            l->nids = 0;
            return 0;
        }
        if (rc != SQLITE_ROW) {
            sqlite3_reset(l->list);
            return index_db_fail(l->db, "reading the index");
        }
        int64_t *ids;
        size_t nids;
        int bad = index_ids_decode(sqlite3_column_blob(l->list, 0),
                                   (size_t)sqlite3_column_bytes(l->list, 0), &ids, &nids);
        sqlite3_reset(l->list);
        if (bad < 0) {
            fprintf(stderr, "%s: the trigram index is damaged (or out of memory)\n", tool_name);
            return -1;
        }
        if (i == 0) {
            l->ids = ids;
            l->nids = nids;
        } else {
            l->nids = intersect(l->ids, l->nids, ids, nids);
            free(ids);
        }
        if (l->nids == 0) {
            return 0;
        }
    }
    return 0;
}

static void heap_push(struct lookup *l, struct queued_dir dir)
{
    size_t i = l->nnodes++;
    while (i > 0 && l->nodes[(i - 1) / 2].node > dir.node) {
        l->nodes[i] = l->nodes[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    l->nodes[i] = dir;
}

static struct queued_dir heap_pop(struct lookup *l)
{
    struct queued_dir top = l->nodes[0], last = l->nodes[--l->nnodes];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= l->nnodes) {
            break;
        }
        if (child + 1 < l->nnodes && l->nodes[child + 1].node < l->nodes[child].node) {
            child++;
        }
        if (l->nodes[child].node >= last.node) {
            break;
        }
        l->nodes[i] = l->nodes[child];
        i = child;
    }
    if (l->nnodes > 0) {
        l->nodes[i] = last;
    }
    return top;
}

/**
 * Counts the entries of a directory whose own name holds the piece (with `whole`), up to
 * what would make too many, by stepping through its range's b-tree cells (no row decoded),
 * into dir->counted and l->queued. Then the rows still to read are known to be more than
 * `max` as soon as the large directories are met, not after their rows were matched one by
 * one (`man` on /usr names 266 directories holding more than an eighth of the rows). The
 * directories below them are not counted: their entries come with what is read anyway.
 * @return 1 when too many rows, 0 when not, -1 after a message.
 */
static int count_dir(struct lookup *l, struct queued_dir *dir)
{
    int64_t node = dir->node;
    size_t room = l->max - l->rows - l->queued; // pass_row keeps rows + queued <= max
    sqlite3_bind_int64(l->count, 1, index_entry_id(node, 0));
    sqlite3_bind_int64(l->count, 2, index_entry_id(node + 1, 0));
    sqlite3_bind_int64(l->count, 3, (int64_t)room + 1);
    int rc = sqlite3_step(l->count);
    if (rc == SQLITE_ROW) {
        dir->counted = (size_t)sqlite3_column_int64(l->count, 0);
        l->queued += dir->counted;
    }
    sqlite3_reset(l->count);
    if (rc != SQLITE_ROW) {
        return index_db_fail(l->db, "reading the index");
    }
    return l->rows + l->queued > l->max ? 1 : 0;
}

/**
 * Passes the row of `stmt` (id, name, node) to the caller, its directory node kept to read
 * what it holds (`listed`: the row's own name holds the piece). @return 0 to go on, 1 to
 * scan instead (too many rows; a directory whose entries come before its own row, which a
 * move leaves: the order could not be kept), 2 when the caller stopped, -1 after a message.
 */
static int pass_row(struct lookup *l, sqlite3_stmt *stmt, int64_t id, bool listed)
{
    if (++l->rows + l->queued > l->max) {
        return 1; // the rows read and those certain to be read
    }
    if (!l->basename && sqlite3_column_type(stmt, 2) != SQLITE_NULL) {
        int64_t node = sqlite3_column_int64(stmt, 2);
        if (index_entry_id(node, 0) <= id) {
            return 1;
        }
        if (nodes_reserve(&l->nodes, &l->nodes_cap, l->nnodes + 1) < 0) {
            fprintf(stderr, "%s: out of memory\n", tool_name);
            return -1;
        }
        struct queued_dir dir = {.node = node};
        int many = l->whole && listed ? count_dir(l, &dir) : 0;
        heap_push(l, dir);
        if (many != 0) {
            return many;
        }
    }
    // For a BLOB, sqlite3_column_text() gives the same bytes with a NUL after them.
    const char *name = (const char *)sqlite3_column_text(stmt, 1);
    size_t len = (size_t)sqlite3_column_bytes(stmt, 1);
    int rc = l->each(l->ctx, id, name != NULL ? name : "", name != NULL ? len : 0);
    return rc == 0 ? 0 : rc > 0 ? 2 : -1;
}

/** Reads the row of id `want` through l->row, which steps on while `want` is a few rows
 *  ahead (the ids are sorted; names of a kind share directories) and seeks past that.
 *  @return as pass_row(). */
static int pass_id(struct lookup *l, int64_t want, bool *positioned)
{
    int rc = *positioned ? SQLITE_ROW : SQLITE_DONE;
    for (int ahead = 0; *positioned && ahead < 32 && sqlite3_column_int64(l->row, 0) < want;
         ahead++) {
        if ((rc = sqlite3_step(l->row)) != SQLITE_ROW) {
            break;
        }
    }
    if (!*positioned || rc != SQLITE_ROW || sqlite3_column_int64(l->row, 0) < want) {
        sqlite3_reset(l->row);
        sqlite3_bind_int64(l->row, 1, want);
        rc = sqlite3_step(l->row);
        *positioned = true;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        return index_db_fail(l->db, "reading the index");
    }
    if (rc == SQLITE_DONE || sqlite3_column_int64(l->row, 0) != want) {
        fprintf(stderr,
                "%s: the trigram index names an entry the index does not hold: "
                "it is damaged; remove it and run update again\n",
                tool_name);
        return -1;
    }
    return pass_row(l, l->row, want, true);
}

/**
 * Reads every entry of a directory (one rowid range); the listed ids inside it (from *next
 * on) are its rows, passed once, *next moved past them. @return as pass_row().
 */
static int pass_range(struct lookup *l, struct queued_dir *dir, size_t *next)
{
    sqlite3_bind_int64(l->range, 1, index_entry_id(dir->node, 0));
    sqlite3_bind_int64(l->range, 2, index_entry_id(dir->node + 1, 0));
    int rc, status = 0;
    while (status == 0 && (rc = sqlite3_step(l->range)) == SQLITE_ROW) {
        if (dir->counted > 0) {
            dir->counted--; // counted as queued, now as read
            l->queued--;
        }
        int64_t id = sqlite3_column_int64(l->range, 0);
        while (*next < l->nids && l->ids[*next] < id) {
            ++*next;
        }
        status = pass_row(l, l->range, id, *next < l->nids && l->ids[*next] == id);
    }
    sqlite3_reset(l->range);
    if (status == 0 && rc != SQLITE_DONE) {
        return index_db_fail(l->db, "reading the index");
    }
    return status;
}

/** @return as index_candidates_find, with the statements of `l` prepared. */
static int lookup(struct lookup *l, const struct index_piece *pieces, size_t npieces)
{
    bool in_root[64] = {false};
    if (npieces > 64) {
        npieces = 64;
    }
    if (pieces_in_roots(l->db, pieces, npieces, in_root) < 0) {
        return -1;
    }
    // The most selective piece: the one whose rarest trigram is rarest.
    size_t best = npieces;
    int64_t best_size = INT64_MAX;
    for (size_t i = 0; i < npieces; i++) {
        int64_t size;
        if (piece_size(l, &pieces[i], &size) < 0) {
            return -1;
        }
        if (size == 0 && (l->basename || !in_root[i])) {
            return 0; // no name holds it (and no root's path): nothing matches
        }
        if ((l->basename || !in_root[i]) && size < best_size) {
            best = i;
            best_size = size;
        }
    }
    if (best == npieces) {
        return 1;
    }
    if (piece_ids(l, &pieces[best]) < 0) {
        return -1;
    }
    if (l->nids > l->max) {
        return 1;
    }
    // The ids and the directories' ranges merged in rowid order; a range is read whole (no
    // other range starts inside it) and the ids inside it are its rows, passed once.
    bool positioned = false;
    size_t i = 0;
    int status = 0;
    while (status == 0 && (i < l->nids || l->nnodes > 0)) {
        if (l->nnodes > 0 && (i == l->nids || index_entry_id(l->nodes[0].node, 0) <= l->ids[i])) {
            struct queued_dir dir = heap_pop(l);
            while (l->nnodes > 0 && l->nodes[0].node == dir.node) {
                // One directory named twice (by a damaged index): read once.
                l->queued -= heap_pop(l).counted;
            }
            status = pass_range(l, &dir, &i);
            l->queued -= dir.counted; // fewer rows than counted (cannot happen in one read)
            while (i < l->nids && l->ids[i] < index_entry_id(dir.node + 1, 0)) {
                i++;
            }
        } else {
            status = pass_id(l, l->ids[i++], &positioned);
        }
    }
    sqlite3_reset(l->row);
    return status;
}

int index_candidates_find(sqlite3 *db, const struct index_piece *pieces, size_t npieces,
                          bool basename, bool whole, size_t max, index_candidate_fn *each,
                          void *ctx)
{
    struct lookup l = {
        .db = db, .basename = basename, .whole = whole, .max = max, .each = each, .ctx = ctx};
    int status = -1;
    if (sqlite3_prepare_v2(db, "SELECT length(ids) FROM trigrams WHERE trigram = ?", -1, &l.length,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT ids FROM trigrams WHERE trigram = ?", -1, &l.list, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT id, name, node FROM entries WHERE id >= ?", -1, &l.row,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT id, name, node FROM entries WHERE id >= ? AND id < ?", -1,
                           &l.range, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM (SELECT 1 FROM entries "
                           "WHERE id >= ?1 AND id < ?2 LIMIT ?3)",
                           -1, &l.count, NULL) != SQLITE_OK) {
        index_db_fail(db, "reading the index");
    } else {
        status = lookup(&l, pieces, npieces);
    }
    sqlite3_finalize(l.length);
    sqlite3_finalize(l.list);
    sqlite3_finalize(l.row);
    sqlite3_finalize(l.range);
    sqlite3_finalize(l.count);
    free(l.trigrams);
    free(l.ids);
    free(l.nodes);
    return status;
}
