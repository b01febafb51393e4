// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The entries a `find` pattern may match, from the trigram index (frdindex_trigram.h), so
 * that a query reads those rows and not the whole table.
 *
 * A pattern's literal pieces are its runs of three or more bytes that any match must hold
 * byte for byte (outside `*`, `?` and bracket expressions, split at '/'; with -i also at
 * bytes above 0x7f, and in a multibyte locale at i and k: fnmatch folds U+0130 to i and
 * U+212A, the Kelvin sign, to k). A piece without '/' lies inside one name
 * of the path: the entry's own, or one of its directories'. So the candidates are the
 * entries whose name holds every trigram of the piece, and (unless -b) everything below
 * the directories among them. Only the most selective piece is looked up; the caller
 * checks the whole pattern on each candidate, so a candidate too many costs a match, never
 * a wrong answer. The names above the roots (the "/tmp" of root /tmp/x) are no entries:
 * a piece found in a root's path makes the caller scan.
 */
#ifndef FRD_EXAMPLES_FRDINDEX_CANDIDATES_H
#define FRD_EXAMPLES_FRDINDEX_CANDIDATES_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** A literal piece of a pattern: `len` (>= 3) bytes at `p`. */
struct index_piece {
    const char *p;
    size_t len;
};

/**
 * @return whether byte `c` may stand for itself in a piece: not a '/', and with -i not a
 * byte the locale may fold to or from another character than its ASCII case pair (bytes
 * above 0x7f; in a multibyte locale (`multibyte`: MB_CUR_MAX > 1) also i and k, which
 * U+0130 and U+212A fold to, and which the Turkish locales fold to dotless and dotted forms;
 * in a single-byte locale an ASCII letter another byte folds with, by tolower(): i and I
 * in ISO-8859-9's Turkish locale).
 */
bool index_piece_byte(unsigned char c, bool ignore_case, bool multibyte);

/**
 * The literal pieces of a glob (as fnmatch reads it, without flags) into `out` (room for
 * `max`). @return their number; 0 when the glob has none (the caller scans).
 */
size_t index_glob_pieces(const char *glob, bool ignore_case, struct index_piece *out, size_t max);

/**
 * @return whether `hay` (`hlen` bytes) holds `piece`, with `fold` A-Z folded on both sides
 * as the trigram lists fold: what every path a pattern matches holds, so a scan skips the
 * paths without it before it matches the pattern itself.
 */
bool index_piece_in(const char *hay, size_t hlen, const struct index_piece *piece, bool fold);

/**
 * Takes one candidate: its rowid and its name (`len` bytes, then a NUL). @return 0 to go
 * on, 1 to stop, -1 after a message.
 */
typedef int index_candidate_fn(void *ctx, int64_t id, const char *name, size_t len);

/**
 * Looks the pieces up in `db` (schema 4, in a read transaction) and passes the entries that
 * may match to `each` in rowid order (the order a scan reads them), each once, as they are
 * read: a caller that stops early (-l) reads no more; with `basename` only entries whose
 * own name holds the piece. `whole`: the caller takes every candidate (no -l), so when the
 * ids and the entries of the directories among them are more than `max` rows, that is
 * known before any is passed (with -l, stopping early may read far fewer). @return 0 when
 * every candidate was passed; 1 when the caller
 * should scan instead (more than `max` candidates, a piece in a root's path, a directory
 * moved below one of a later id, whose entries the merge cannot put in order): what it was
 * passed is to be forgotten; 2 when `each` stopped; -1 after a message (or when `each`
 * failed).
 */
int index_candidates_find(sqlite3 *db, const struct index_piece *pieces, size_t npieces,
                          bool basename, bool whole, size_t max, index_candidate_fn *each,
                          void *ctx);

#endif // FRD_EXAMPLES_FRDINDEX_CANDIDATES_H
