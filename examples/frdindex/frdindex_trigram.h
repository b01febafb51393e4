// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The trigram index of names, for `find`: table `trigrams`, one row per trigram (three
 * bytes of a name, ASCII letters folded to lower case), holding the sorted ids of the
 * entries whose name contains it:
 *
 *   trigrams(trigram INTEGER PRIMARY KEY, ids BLOB)
 *   trigram = b0 << 16 | b1 << 8 | b2
 *   ids     = per id, ascending: varint(dir - previous dir), then varint(seq - previous
 *             seq) when the directory is the same, or varint(seq) when it is not
 *             (entries.id = dir << 32 | seq, see frdindex_dirs.h)
 *
 * A name of n bytes gives at most n - 2 trigrams, each counted once. Names, not paths, are
 * indexed: a path is its directories' names and its own, so a substring without '/' lies
 * in one of them (`find` looks a pattern's literal runs up here, see frdindex_find.c).
 * Bytes are bytes: a name that is not valid UTF-8 is indexed as well as any other, and only
 * A-Z fold, so a case-sensitive query never misses a name. Why not SQLite's FTS5 trigram
 * tokenizer: it reads names as UTF-8 (an invalid byte changes which trigrams a name gives)
 * and folds by Unicode's tables rather than the locale's; and it is larger and slower to
 * write. Measured on /usr's 175,077 names: a contentless FTS5 table (detail=none, trigram
 * tokenizer) takes 10.2 MB and 0.77-0.85 s to fill; these lists 6.0 MB of blobs (a 7.0 MB
 * table) and 0.15-0.19 s of an update.
 *
 * An update collects what it adds and removes (struct index_postings) and rewrites only the
 * rows of the trigrams it touched, in its own transaction.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_TRIGRAM_H
#define FRD_EXAMPLES_FRDINDEX_TRIGRAM_H

#include "frdindex_varint.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** @return `c` with A-Z folded to a-z, as the index stores names. */
static inline unsigned char index_fold(unsigned char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
}

/** @return the trigram of three bytes (folded). */
static inline uint32_t index_trigram(const unsigned char *p)
{
    return (uint32_t)index_fold(p[0]) << 16 | (uint32_t)index_fold(p[1]) << 8 | index_fold(p[2]);
}

/**
 * Encodes `id` after `prev` (ascending; 0 for a list's first id) into p (room for 20 bytes),
 * as a list stores it. @return the bytes written.
 */
static inline size_t index_put_id(unsigned char *p, int64_t prev, int64_t id)
{
    uint64_t hi = (uint64_t)id >> 32, lo = (uint64_t)id & 0xffffffffu;
    uint64_t phi = (uint64_t)prev >> 32, plo = (uint64_t)prev & 0xffffffffu;
    size_t n = index_put_varint(p, hi - phi);
    return n + index_put_varint(p + n, hi == phi ? lo - plo : lo);
}

/**
 * The distinct trigrams of `name`, sorted, into `*out` (grown as needed, capacity `*cap`).
 * @return their number, or -1 when out of memory.
 */
long index_trigrams_of(const char *name, size_t len, uint32_t **out, size_t *cap);

/** Decodes a list. @return 0 with *ids (malloc'd) and *n set, or -1 (malformed, or memory). */
int index_ids_decode(const unsigned char *data, size_t len, int64_t **ids, size_t *n);

/**
 * One trigram's changes in an update. Added ids are encoded as they come, in ascending
 * runs: ids come in ascending order within a directory, but two workers' directories
 * interleave, so an id below the last one starts a new run (encoded from 0); the runs are
 * merged into one before the list is written (frdindex_runs.h). Removed ids are kept plain
 * (an update removes few).
 */
struct index_posting_list {
    uint32_t trigram;
    unsigned char *enc;
    size_t enc_len, enc_cap;
    int64_t last; /**< the last id added */
    size_t *runs; /**< where each run after the first starts in `enc` */
    size_t nruns, runs_cap;
    int64_t *removed;
    size_t nremoved, removed_cap;
};

/** A trigram of a name added, waiting to be sorted into its list (see index_postings_add). */
struct index_pending {
    uint32_t trigram;
    uint32_t entry; /**< index in index_postings.pending_ids */
};

/** What an update adds to and removes from the index. Zero-initialise. */
struct index_postings {
    /** Added trigrams not yet in their lists: appending each to its list as it comes would
     *  touch a list at random per trigram (a cache miss each); they are sorted by trigram a
     *  chunk at a time instead, and each list then takes a run of ids. */
    struct index_pending *pending, *pending_tmp;
    size_t npending;
    int64_t *pending_ids;
    size_t npending_ids;
    bool pending_sorted; /**< flush: the pending trigrams are in pending_tmp, in id order */
    struct index_posting_list *lists;
    size_t count, cap;
    uint32_t **by_pair; /**< list numbers (UINT32_MAX: none) by the first two bytes, third */
    uint32_t *scratch;  /**< a name's trigrams */
    size_t scratch_cap;
    /** the table was empty when the update began: lists are written as they were built */
    bool fresh;
    bool sealed; /**< index_postings_seal() ran */
};

/** Notes that entry `id` named `name` is added. @return 0, or -1 when out of memory. */
int index_postings_add(struct index_postings *p, int64_t id, const char *name, size_t len);

/**
 * Sorts the trigrams pending into their lists now (as index_postings_add() does when its
 * chunk is full): names added in ascending ids since the last flush then give each list
 * one ascending run, with no sort by id. @return 0, or -1 when out of memory.
 */
int index_postings_flush(struct index_postings *p);

/** Notes that entry `id` named `name` is removed. @return 0, or -1 when out of memory. */
int index_postings_remove(struct index_postings *p, int64_t id, const char *name, size_t len);

/**
 * Sorts what is pending into the lists and the lists by trigram, so that their runs can be
 * merged (frdindex_runs.h) before index_postings_write(); nothing may be added or removed
 * after it. @return 0, or -1 after a message.
 */
int index_postings_seal(struct index_postings *p);

/** Writes every list touched into `db` (sealing them first if need be).
 *  @return 0, or -1 after a message. */
int index_postings_write(struct index_postings *p, sqlite3 *db);

/** Frees what `p` holds. */
void index_postings_free(struct index_postings *p);

#endif // FRD_EXAMPLES_FRDINDEX_TRIGRAM_H
