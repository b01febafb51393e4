// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Glob patterns as git's wildmatch reads them with WM_PATHNAME (walker/ignore/wildmatch.c):
 * `*` and `?` never match '/', `[...]` classes with ranges, `!`/`^` negation and POSIX
 * `[:name:]` classes (never matching '/'), `\` escapes, and `**` crossing '/' where it stands
 * alone between slashes or at an end of the pattern (elsewhere it is a `*`). Compiled once
 * into tokens; matched by a simulation of all positions at once, so a match costs at most
 * (name length) x (tokens) steps whatever the pattern (no backtracking).
 */
#ifndef FRD_WALKER_IGNORE_WILDMATCH_H
#define FRD_WALKER_IGNORE_WILDMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** How a compiled pattern is matched: the general simulation, or a shortcut. */
enum frd__wm_kind {
    FRD__WM_GENERAL = 0, /**< token simulation */
    FRD__WM_LITERAL = 1, /**< no wildcard: the whole text equals lit */
    FRD__WM_SUFFIX = 2,  /**< `*` then a literal: text holds no '/' and ends with lit */
    FRD__WM_NEVER = 3,   /**< malformed (an unclosed class, a trailing `\`): matches nothing */
};

/** A compiled pattern. */
struct frd__wm {
    uint8_t kind;       /**< enum frd__wm_kind */
    bool icase;         /**< ASCII letters match either case */
    uint32_t ntok;      /**< tokens (FRD__WM_GENERAL) */
    uint32_t *tok;      /**< each: kind in the low byte, argument above (char or class index) */
    uint8_t (*cls)[32]; /**< class bitmaps, 256 bits each */
    /** The literal of FRD__WM_LITERAL and FRD__WM_SUFFIX; of FRD__WM_GENERAL, its longest
     *  run of literal bytes (2 or more), which a matching text holds, or NULL */
    char *lit;
    size_t lit_len;
};

/** Compiles `pat` (`len` bytes, may hold any byte but NUL). @return 0 or FRD_ENOMEM. */
int frd__wm_compile(struct frd__wm *wm, const char *pat, size_t len, bool icase);
/** Frees what compiling allocated (not wm itself). */
void frd__wm_free(struct frd__wm *wm);
/** Does `text` (`len` bytes) match? Thread-safe on a shared compiled pattern. */
bool frd__wm_match(const struct frd__wm *wm, const char *text, size_t len);

#endif // FRD_WALKER_IGNORE_WILDMATCH_H
