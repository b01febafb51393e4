// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The history's events, packed into blobs (see frdindex_history.h). */
#include "frdindex_history.h"

#include "frdindex_db.h"
#include "frdindex_varint.h"
#include "grow.h"
#include "toolname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENTS_VERSION 1
#define FLUSH_AT       (1024 * 1024)
#define HAS_OTHER      16

TOOL_RESERVE_DEFINE(bytes_reserve, unsigned char, 64 * 1024)

static int flush(struct index_history_writer *w)
{
    if (w->len <= 1) {
        return 0;
    }
    if (w->insert == NULL &&
        sqlite3_prepare_v2(w->db, "INSERT INTO history(gen, events) VALUES (?, ?)", -1, &w->insert,
                           NULL) != SQLITE_OK) {
        return index_db_fail(w->db, "recording the changes");
    }
    sqlite3_bind_int64(w->insert, 1, w->gen);
    sqlite3_bind_blob64(w->insert, 2, w->buf, w->len, SQLITE_STATIC);
    int rc = sqlite3_step(w->insert);
    sqlite3_reset(w->insert);
    if (rc != SQLITE_DONE) {
        return index_db_fail(w->db, "recording the changes");
    }
    w->len = 0;
    return 0;
}

int index_history_add(struct index_history_writer *w, const struct index_event *e)
{
    size_t need = w->len + 1 + 4 * 10 + 1 + e->name_len + (e->has_other ? e->other_len : 0);
    if (bytes_reserve(&w->buf, &w->cap, need) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    unsigned char *p = w->buf;
    if (w->len == 0) {
        p[w->len++] = EVENTS_VERSION;
    }
    w->len += index_put_varint(p + w->len, (uint64_t)e->change | (e->has_other ? HAS_OTHER : 0));
    p[w->len++] = e->type;
    w->len += index_put_varint(p + w->len, (uint64_t)e->dir);
    w->len += index_put_varint(p + w->len, e->name_len);
    memcpy(p + w->len, e->name, e->name_len);
    w->len += e->name_len;
    if (e->has_other) {
        w->len += index_put_varint(p + w->len, (uint64_t)e->other_dir);
        w->len += index_put_varint(p + w->len, e->other_len);
        memcpy(p + w->len, e->other, e->other_len);
        w->len += e->other_len;
    }
    return w->len >= FLUSH_AT ? flush(w) : 0;
}

void index_history_discard(struct index_history_writer *w)
{
    sqlite3_finalize(w->insert);
    free(w->buf);
    w->insert = NULL;
    w->buf = NULL;
    w->len = w->cap = 0;
}

int index_history_finish(struct index_history_writer *w)
{
    int result = flush(w);
    index_history_discard(w);
    return result;
}

/** Reads a name: a length, then the bytes. @return bytes used, or 0 if malformed. */
static size_t get_name(const unsigned char *p, size_t len, const char **name, size_t *name_len)
{
    uint64_t n;
    size_t a = index_get_varint(p, len, &n);
    if (a == 0 || n > len - a) {
        return 0;
    }
    *name = (const char *)p + a;
    *name_len = (size_t)n;
    return a + (size_t)n;
}

/** Decodes one blob. @return 0, 1 when it is malformed, -1 when fn failed. */
static int decode(int64_t gen, const unsigned char *p, size_t len, index_event_fn *fn, void *arg)
{
    if (len == 0 || p[0] != EVENTS_VERSION) {
        return 1;
    }
    for (size_t off = 1; off < len;) {
        struct index_event e = {.gen = gen};
        uint64_t change, dir, other_dir;
        size_t n = index_get_varint(p + off, len - off, &change);
        if (n == 0 || (change & ~(uint64_t)(HAS_OTHER | 15)) != 0 || off + n >= len) {
            return 1;
        }
        off += n;
        e.change = (uint8_t)(change & 15);
        e.has_other = (change & HAS_OTHER) != 0;
        e.type = p[off++];
        n = index_get_varint(p + off, len - off, &dir);
        size_t m = n == 0 ? 0 : get_name(p + off + n, len - off - n, &e.name, &e.name_len);
        if (m == 0 || dir > INT64_MAX) {
            return 1;
        }
        off += n + m;
        e.dir = (int64_t)dir;
        if (e.has_other) {
            n = index_get_varint(p + off, len - off, &other_dir);
            m = n == 0 ? 0 : get_name(p + off + n, len - off - n, &e.other, &e.other_len);
            if (m == 0 || other_dir > INT64_MAX) {
                return 1;
            }
            off += n + m;
            e.other_dir = (int64_t)other_dir;
        }
        if (fn(&e, arg) < 0) {
            return -1;
        }
    }
    return 0;
}

int index_history_read(sqlite3 *db, int64_t since, index_event_fn *fn, void *arg)
{
    sqlite3_stmt *stmt;
    if (sqlite3_prepare_v2(db, "SELECT gen, events FROM history WHERE gen > ? ORDER BY rowid", -1,
                           &stmt, NULL) != SQLITE_OK) {
        return index_db_fail(db, "reading changes");
    }
    sqlite3_bind_int64(stmt, 1, since);
    int rc;
    int result = 0;
    while (result == 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const unsigned char *p = sqlite3_column_blob(stmt, 1);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 1);
        int d = decode(sqlite3_column_int64(stmt, 0), p, p == NULL ? 0 : len, fn, arg);
        if (d == 1) {
            fprintf(stderr,
                    "%s: the history holds events frdindex did not write: the index is "
                    "damaged; remove it and run update again\n",
                    tool_name);
        }
        result = d == 0 ? 0 : -1;
    }
    sqlite3_finalize(stmt);
    if (result == 0 && rc != SQLITE_DONE) {
        return index_db_fail(db, "reading changes");
    }
    return result;
}
