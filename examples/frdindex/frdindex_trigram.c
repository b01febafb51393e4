// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The trigram index of names: building its lists in an update, reading them in `find`. */
#include "frdindex_trigram.h"

#include "frdindex_db.h"
#include "frdindex_runs.h"
#include "grow.h"
#include "toolname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TOOL_RESERVE_DEFINE(trigrams_reserve, uint32_t, 64)
TOOL_RESERVE_DEFINE(bytes_reserve, unsigned char, 16)
TOOL_RESERVE_DEFINE(ids_reserve, int64_t, 16)
TOOL_RESERVE_DEFINE(lists_reserve, struct index_posting_list, 1024)
TOOL_RESERVE_DEFINE(offsets_reserve, size_t, 4)

/** Trigrams waiting to be sorted into their lists (8 bytes each, and as many for sorting). */
#define PENDING_MAX (1u << 20)

/** The radix sort of the pending trigrams: 24 bits in two digits. */
#define RADIX_BITS 12
#define RADIX      (1u << RADIX_BITS)

long index_trigrams_of(const char *name, size_t len, uint32_t **out, size_t *cap)
{
    if (len < 3) {
        return 0;
    }
    if (trigrams_reserve(out, cap, len - 2) < 0) {
        return -1;
    }
    const unsigned char *p = (const unsigned char *)name;
    uint32_t *t = *out;
    size_t n = 0;
    // Insertion into a sorted array, repeats dropped: a name has a few dozen trigrams.
    for (size_t i = 0; i + 2 < len; i++) {
        uint32_t v = index_trigram(p + i);
        size_t j = n;
        while (j > 0 && t[j - 1] > v) {
            j--;
        }
        if (j > 0 && t[j - 1] == v) {
            continue;
        }
        memmove(t + j + 1, t + j, (n - j) * sizeof(*t));
        t[j] = v;
        n++;
    }
    return (long)n;
}

int index_ids_decode(const unsigned char *data, size_t len, int64_t **ids, size_t *n)
{
    *ids = NULL;
    *n = 0;
    size_t cap = 0;
    uint64_t hi = 0, lo = 0;
    for (size_t off = 0; off < len;) {
        uint64_t dhi, v;
        size_t a = index_get_varint(data + off, len - off, &dhi);
        size_t b = a == 0 ? 0 : index_get_varint(data + off + a, len - off - a, &v);
        if (b == 0 || dhi > (uint64_t)INT32_MAX - hi || v > 0xffffffffu ||
            ids_reserve(ids, &cap, *n + 1) < 0) {
            free(*ids);
            *ids = NULL;
            *n = 0;
            return -1;
        }
        lo = dhi == 0 && *n > 0 ? lo + v : v;
        hi += dhi;
        if (lo > 0xffffffffu || (*n > 0 && dhi == 0 && v == 0)) {
            free(*ids);
            *ids = NULL;
            *n = 0;
            return -1;
        }
        (*ids)[(*n)++] = (int64_t)(hi << 32 | lo);
        off += a + b;
    }
    return 0;
}

/** Encodes ascending ids. @return 0, or -1 when out of memory. */
static int encode_ids(const int64_t *ids, size_t n, unsigned char **out, size_t *len, size_t *cap)
{
    *len = 0;
    if (bytes_reserve(out, cap, n * 10 + 20) < 0) {
        return -1;
    }
    int64_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        *len += index_put_id(*out + *len, prev, ids[i]);
        prev = ids[i];
    }
    return 0;
}

/** @return the list of `trigram`, made if new, or NULL when out of memory. */
static struct index_posting_list *list_of(struct index_postings *p, uint32_t trigram)
{
    // Two levels of arrays, by the first two bytes, then the third: two loads, no hashing
    // (a fresh index adds some 15 trigrams per entry). Names use few byte pairs.
    if (p->by_pair == NULL) {
        p->by_pair = calloc(1u << 16, sizeof(*p->by_pair));
        if (p->by_pair == NULL) {
            return NULL;
        }
    }
    uint32_t *third = p->by_pair[trigram >> 8];
    if (third == NULL) {
        third = malloc(256 * sizeof(*third));
        if (third == NULL) {
            return NULL;
        }
        memset(third, 0xff, 256 * sizeof(*third));
        p->by_pair[trigram >> 8] = third;
    }
    uint32_t i = third[trigram & 0xff];
    if (i != UINT32_MAX) {
        return &p->lists[i];
    }
    if (p->count >= UINT32_MAX - 1 || lists_reserve(&p->lists, &p->cap, p->count + 1) < 0) {
        return NULL;
    }
    i = (uint32_t)p->count++;
    third[trigram & 0xff] = i;
    p->lists[i] = (struct index_posting_list){.trigram = trigram};
    return &p->lists[i];
}

/**
 * Appends `id` to a list (in ascending runs; the id just appended again is dropped).
 * @return 0, or -1 when out of memory.
 */
static int list_append(struct index_posting_list *l, int64_t id)
{
    int64_t prev = l->last;
    if (l->enc_len > 0 && id == prev) {
        return 0; // the name holds the trigram more than once
    }
    if (bytes_reserve(&l->enc, &l->enc_cap, l->enc_len + 20) < 0) {
        return -1;
    }
    if (l->enc_len > 0 && id < prev) {
        if (offsets_reserve(&l->runs, &l->runs_cap, l->nruns + 1) < 0) {
            return -1;
        }
        l->runs[l->nruns++] = l->enc_len;
        prev = 0;
    }
    l->enc_len += index_put_id(l->enc + l->enc_len, prev, id);
    l->last = id;
    return 0;
}

/** An entry of the pending chunk, for sorting by id. */
struct entry_key {
    int64_t id;
    uint32_t entry;
};

static int cmp_entry(const void *x, const void *y)
{
    int64_t a = ((const struct entry_key *)x)->id, b = ((const struct entry_key *)y)->id;
    return (a > b) - (a < b);
}

/**
 * Puts the pending trigrams of the entries in the order of their ids, into pending_tmp
 * (p->pending_sorted), when they came out of order (two workers' directories interleave):
 * the radix sort that follows keeps that order within each trigram, so a list takes one
 * ascending run per chunk, not one each time the workers' directories alternate (merging
 * the runs was a twentieth of an update from empty). @return 0, or -1 when out of memory.
 */
static int sort_entries(struct index_postings *p)
{
    size_t n = p->npending_ids;
    p->pending_sorted = false;
    size_t i = 1;
    while (i < n && p->pending_ids[i - 1] < p->pending_ids[i]) {
        i++;
    }
    if (i >= n) {
        return 0; // in order already
    }
    struct entry_key *order = malloc(n * sizeof(*order));
    uint32_t *start = malloc((n + 1) * sizeof(*start));
    if (order == NULL || start == NULL) {
        free(order);
        free(start);
        return -1;
    }
    for (uint32_t e = 0; e < n; e++) {
        order[e] = (struct entry_key){p->pending_ids[e], e};
    }
    qsort(order, n, sizeof(*order), cmp_entry);
    // Each entry's trigrams are one slice of `pending`, the entries in the order they came.
    size_t at = 0;
    for (uint32_t e = 0; e < n; e++) {
        start[e] = (uint32_t)at;
        while (at < p->npending && p->pending[at].entry == e) {
            at++;
        }
    }
    start[n] = (uint32_t)at;
    size_t out = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t e = order[k].entry;
        memcpy(p->pending_tmp + out, p->pending + start[e],
               (start[e + 1] - start[e]) * sizeof(*p->pending));
        out += start[e + 1] - start[e];
    }
    free(order);
    free(start);
    p->pending_sorted = true;
    return 0;
}

/**
 * Sorts the pending trigrams by trigram (a stable radix sort, two 12-bit digits: the ids of one
 * trigram stay in the order they came) and appends them to their lists.
 * @return 0, or -1 when out of memory.
 */
static int flush_pending(struct index_postings *p)
{
    struct index_pending *a = p->pending, *b = p->pending_tmp;
    size_t n = p->npending;
    if (sort_entries(p) < 0) {
        return -1;
    }
    if (p->pending_sorted) {
        a = p->pending_tmp;
        b = p->pending;
    }
    // Two passes of 12 bits (a third pass over the chunk cost more than the larger counts).
    size_t count[RADIX + 1];
    for (int shift = 0; shift < 24; shift += RADIX_BITS) {
        memset(count, 0, sizeof(count));
        for (size_t i = 0; i < n; i++) {
            count[((a[i].trigram >> shift) & (RADIX - 1)) + 1]++;
        }
        for (size_t k = 1; k <= RADIX; k++) {
            count[k] += count[k - 1];
        }
        for (size_t i = 0; i < n; i++) {
            b[count[(a[i].trigram >> shift) & (RADIX - 1)]++] = a[i];
        }
        struct index_pending *t = a;
        a = b;
        b = t;
    }
    int result = 0;
    for (size_t i = 0; i < n && result == 0;) {
        struct index_posting_list *l = list_of(p, a[i].trigram);
        if (l == NULL) {
            return -1;
        }
        for (uint32_t t = a[i].trigram; i < n && a[i].trigram == t && result == 0; i++) {
            result = list_append(l, p->pending_ids[a[i].entry]);
        }
    }
    p->npending = 0;
    p->npending_ids = 0;
    return result;
}

int index_postings_add(struct index_postings *p, int64_t id, const char *name, size_t len)
{
    if (p->pending == NULL) {
        p->pending = malloc(PENDING_MAX * sizeof(*p->pending));
        p->pending_tmp = malloc(PENDING_MAX * sizeof(*p->pending_tmp));
        p->pending_ids = malloc(PENDING_MAX * sizeof(*p->pending_ids));
        if (p->pending == NULL || p->pending_tmp == NULL || p->pending_ids == NULL) {
            return -1;
        }
    }
    // Every trigram as it comes, repeats too: the sort below keeps a name's repeats next to
    // each other, and list_append drops them (sorting each name's trigrams here cost more).
    size_t n = len < 3 ? 0 : len - 2;
    if (n > PENDING_MAX) {
        return -1; // a name of four million bytes
    }
    if (p->npending + n > PENDING_MAX && flush_pending(p) < 0) {
        return -1;
    }
    uint32_t entry = (uint32_t)p->npending_ids;
    p->pending_ids[p->npending_ids++] = id;
    const unsigned char *s = (const unsigned char *)name;
    struct index_pending *out = p->pending + p->npending;
    for (size_t i = 0; i < n; i++) {
        out[i] = (struct index_pending){index_trigram(s + i), entry};
    }
    p->npending += n;
    return 0;
}

int index_postings_flush(struct index_postings *p)
{
    return p->npending > 0 ? flush_pending(p) : 0;
}

int index_postings_remove(struct index_postings *p, int64_t id, const char *name, size_t len)
{
    long n = index_trigrams_of(name, len, &p->scratch, &p->scratch_cap);
    for (long i = 0; i < n; i++) {
        struct index_posting_list *l = list_of(p, p->scratch[i]);
        if (l == NULL || ids_reserve(&l->removed, &l->removed_cap, l->nremoved + 1) < 0) {
            return -1;
        }
        l->removed[l->nremoved++] = id;
    }
    return n < 0 ? -1 : 0;
}

/**
 * Sorts ids that come as ascending runs (a natural merge sort: runs merged pairwise, so
 * k runs cost n log k) and drops repeats. @return how many are left, or -1 (memory).
 */
static long sort_unique(int64_t *ids, size_t n)
{
    if (n < 2) {
        return (long)n;
    }
    int64_t *tmp = malloc(n * sizeof(*tmp));
    if (tmp == NULL) {
        return -1;
    }
    for (;;) {
        // One pass: merge each pair of neighbouring runs into tmp, then copy back.
        size_t runs = 0, out = 0;
        for (size_t i = 0; i < n;) {
            size_t mid = i + 1;
            while (mid < n && ids[mid - 1] <= ids[mid]) {
                mid++;
            }
            size_t end = mid;
            if (mid < n) {
                end = mid + 1;
                while (end < n && ids[end - 1] <= ids[end]) {
                    end++;
                }
            }
            size_t a = i, b = mid;
            while (a < mid && b < end) {
                tmp[out++] = ids[b] < ids[a] ? ids[b++] : ids[a++];
            }
            while (a < mid) {
                tmp[out++] = ids[a++];
            }
            while (b < end) {
                tmp[out++] = ids[b++];
            }
            runs++;
            i = end;
        }
        memcpy(ids, tmp, n * sizeof(*ids));
        if (runs <= 1) {
            break;
        }
    }
    free(tmp);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept == 0 || ids[kept - 1] != ids[i]) {
            ids[kept++] = ids[i];
        }
    }
    return (long)kept;
}

/** Decodes a list's added ids (one run: merged, see frdindex_runs.h). @return 0, or -1. */
static int added_ids(const struct index_posting_list *l, int64_t **ids, size_t *n)
{
    *ids = NULL;
    *n = 0;
    if (l->enc == NULL) {
        return 0; // only removals
    }
    return index_ids_decode(l->enc, l->enc_len, ids, n);
}

/**
 * The stored list (old, ascending) without `removed`, with `added` (both sorted, unique):
 * into `out` (room for nold + nadded). @return its length.
 */
static size_t merge(const int64_t *old, size_t nold, const int64_t *removed, size_t nremoved,
                    const int64_t *added, size_t nadded, int64_t *out)
{
    size_t n = 0, r = 0, a = 0;
    for (size_t i = 0; i < nold; i++) {
        while (r < nremoved && removed[r] < old[i]) {
            r++;
        }
        bool gone = r < nremoved && removed[r] == old[i];
        // A removed id that is added again (a rowid reused in the same update) stays.
        while (a < nadded && added[a] < old[i]) {
            out[n++] = added[a++];
        }
        if (a < nadded && added[a] == old[i]) {
            out[n++] = added[a++];
        } else if (!gone) {
            out[n++] = old[i];
        }
    }
    while (a < nadded) {
        out[n++] = added[a++];
    }
    return n;
}

/** Writes one list (deletes its row when it is empty). @return 0, or -1 (SQLite's error). */
static int write_list(sqlite3_stmt *put, sqlite3_stmt *del, uint32_t trigram,
                      const unsigned char *data, size_t len)
{
    sqlite3_stmt *stmt = len > 0 ? put : del;
    sqlite3_bind_int64(stmt, 1, trigram);
    if (len > 0) {
        sqlite3_bind_blob64(stmt, 2, data, len, SQLITE_STATIC);
    }
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

/** One trigram's new list, read back, changed and written. @return 0, or -1 (message). */
static int rewrite_list(struct index_postings *p, struct index_posting_list *l, sqlite3 *db,
                        sqlite3_stmt *get, sqlite3_stmt *put, sqlite3_stmt *del)
{
    int64_t *old = NULL, *added = NULL, *out = NULL;
    size_t nold = 0, nadded = 0;
    unsigned char *enc = NULL;
    size_t enc_len = 0, enc_cap = 0;
    int result = -1;
    if (!p->fresh) {
        sqlite3_bind_int64(get, 1, l->trigram);
        int rc = sqlite3_step(get);
        if (rc == SQLITE_ROW) {
            const unsigned char *data = sqlite3_column_blob(get, 0);
            size_t len = (size_t)sqlite3_column_bytes(get, 0);
            if (index_ids_decode(data, len, &old, &nold) < 0) {
                sqlite3_reset(get);
                fprintf(stderr,
                        "%s: the list of trigram %06x is not one frdindex writes: the index "
                        "is damaged; remove it and run update again\n",
                        tool_name, (unsigned)l->trigram);
                return -1;
            }
        } else if (rc != SQLITE_DONE) {
            sqlite3_reset(get);
            return index_db_fail(db, "reading the trigram index");
        }
        sqlite3_reset(get);
    }
    long nremoved = sort_unique(l->removed, l->nremoved);
    if (nremoved < 0 || added_ids(l, &added, &nadded) < 0) {
        goto oom;
    }
    out = malloc((nold + nadded + 1) * sizeof(*out));
    if (out == NULL) {
        goto oom;
    }
    size_t n = merge(old, nold, l->removed, (size_t)nremoved, added, nadded, out);
    if (encode_ids(out, n, &enc, &enc_len, &enc_cap) < 0) {
        goto oom;
    }
    result = write_list(put, del, l->trigram, enc, enc_len) == 0
                 ? 0
                 : index_db_fail(db, "writing the trigram index");
    goto done;
oom:
    fprintf(stderr, "%s: out of memory\n", tool_name);
done:
    free(old);
    free(added);
    free(out);
    free(enc);
    return result;
}

static int cmp_lists(const void *a, const void *b)
{
    const struct index_posting_list *x = a, *y = b;
    return (x->trigram > y->trigram) - (x->trigram < y->trigram);
}

int index_postings_seal(struct index_postings *p)
{
    if (p->sealed) {
        return 0;
    }
    if (p->npending > 0 && flush_pending(p) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    // In trigram order: the rows are written (and read) in the order of the table's b-tree.
    // The lookup arrays go stale here, and are not used again.
    if (p->count > 1) { // none: lists may be NULL
        qsort(p->lists, p->count, sizeof(*p->lists), cmp_lists);
    }
    p->sealed = true;
    return 0;
}

int index_postings_write(struct index_postings *p, sqlite3 *db)
{
    sqlite3_stmt *get = NULL, *put = NULL, *del = NULL;
    int result = 0;
    if (index_postings_seal(p) < 0) {
        return -1;
    }
    if (p->count == 0) {
        return 0;
    }
    if (sqlite3_prepare_v2(db, "SELECT ids FROM trigrams WHERE trigram = ?", -1, &get, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO trigrams(trigram, ids) VALUES (?, ?)", -1,
                           &put, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "DELETE FROM trigrams WHERE trigram = ?", -1, &del, NULL) !=
            SQLITE_OK) {
        result = index_db_fail(db, "writing the trigram index");
        goto done;
    }
    for (size_t i = 0; i < p->count && result == 0; i++) {
        struct index_posting_list *l = &p->lists[i];
        if (index_runs_merge_list(l) < 0) { // if the caller did not merge them
            fprintf(stderr, "%s: out of memory\n", tool_name);
            result = -1;
            break;
        }
        if (p->fresh && l->nremoved == 0) {
            // A new index: the list as it was built is the list to store.
            if (write_list(put, del, l->trigram, l->enc, l->enc_len) < 0) {
                result = index_db_fail(db, "writing the trigram index");
            }
        } else {
            result = rewrite_list(p, l, db, get, put, del);
        }
    }
done:
    sqlite3_finalize(get);
    sqlite3_finalize(put);
    sqlite3_finalize(del);
    return result;
}

void index_postings_free(struct index_postings *p)
{
    for (size_t i = 0; i < p->count; i++) {
        free(p->lists[i].enc);
        free(p->lists[i].runs);
        free(p->lists[i].removed);
    }
    free(p->lists);
    free(p->scratch);
    free(p->pending);
    free(p->pending_tmp);
    free(p->pending_ids);
    if (p->by_pair != NULL) {
        for (size_t i = 0; i < (1u << 16); i++) {
            free(p->by_pair[i]);
        }
        free(p->by_pair);
    }
    memset(p, 0, sizeof(*p));
}
