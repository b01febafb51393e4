// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * git's wildmatch (WM_PATHNAME) as a compiled token list matched by simulating every pattern
 * position at once: each byte of the text advances the set of live positions, so `*a*a*a...`
 * or `a`, then `**` between slashes many times, then `b`, against a long name costs
 * (length x tokens), never an exponential
 * backtrack. Patterns without wildcards, and `*` followed by a literal (`*.o`), take a
 * shortcut: a compare of the whole text or of its tail.
 */
#include "wildmatch.h"

#include "internal.h"
#include "platform.h"

#include <string.h>

/** Token kinds (low byte of a token; the argument, a byte or a class index, above it). */
enum wm_tok {
    TOK_LIT = 0,    /**< one byte */
    TOK_ANY = 1,    /**< `?`: any byte but '/' */
    TOK_CLASS = 2,  /**< `[...]`: a bitmap (never '/') */
    TOK_STAR = 3,   /**< `*`: any run without '/' */
    TOK_DSTAR = 4,  /**< `**` at an end: any run */
    TOK_DSLASH = 5, /**< `**` + '/': nothing, or any run ending in '/' */
};

static inline unsigned char wm_lower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

static inline unsigned char wm_upper(unsigned char c)
{
    return (c >= 'a' && c <= 'z') ? (unsigned char)(c - 32) : c;
}

/** Compile-time state: the tokens and classes grown as the pattern is read. */
struct wm_build {
    struct frd__wm *wm;
    size_t tok_cap;
    size_t ncls;
    size_t cls_cap;
};

static int wm_push(struct wm_build *b, unsigned kind, unsigned arg)
{
    struct frd__wm *wm = b->wm;
    if (FRD__RESERVE(wm->tok, b->tok_cap, (size_t)wm->ntok + 1, 16) < 0) {
        return FRD_ENOMEM;
    }
    wm->tok[wm->ntok++] = kind | (arg << 8);
    return 0;
}

static void cls_set(uint8_t *bits, unsigned char c, bool icase)
{
    if (icase) {
        bits[wm_lower(c) >> 3] |= (uint8_t)(1u << (wm_lower(c) & 7));
        bits[wm_upper(c) >> 3] |= (uint8_t)(1u << (wm_upper(c) & 7));
    } else {
        bits[c >> 3] |= (uint8_t)(1u << (c & 7));
    }
}

/** Does byte c belong to POSIX class `name` (n bytes)? -1 for an unknown class. */
static int posix_class(const char *name, size_t n, unsigned char c)
{
    static const char *const names[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                        "lower", "print", "punct", "space", "upper", "xdigit"};
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    bool print = c >= 0x20 && c < 0x7f;
    bool ans[] = {
        alpha || digit,
        alpha,
        c == ' ' || c == '\t',
        c < 0x20 || c == 0x7f,
        digit,
        print && c != ' ',
        c >= 'a' && c <= 'z',
        print,
        print && c != ' ' && !alpha && !digit,
        c == ' ' || (c >= '\t' && c <= '\r'),
        c >= 'A' && c <= 'Z',
        digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'),
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (strlen(names[i]) == n && memcmp(names[i], name, n) == 0) {
            return ans[i];
        }
    }
    return -1;
}

/**
 * Reads the class at pat[*pos] ('['), as git's wildmatch does, into a new bitmap.
 * @return 0 (then *pos is past its ']'), 1 for a malformed class, or FRD_ENOMEM.
 */
static int wm_class(struct wm_build *b, const char *pat, size_t len, size_t *pos)
{
    struct frd__wm *wm = b->wm;
    bool icase = wm->icase;
    uint8_t bits[32];
    memset(bits, 0, sizeof(bits));
    size_t p = *pos + 1;
    bool negated = false;
    if (p < len && (pat[p] == '!' || pat[p] == '^')) {
        negated = true;
        p++;
    }
    int prev = -1; // the byte a '-' ranges from; -1: none
    for (bool first = true;; first = false, p++) {
        if (p >= len) {
            return 1;
        }
        unsigned char c = (unsigned char)pat[p];
        if (c == ']' && !first) {
            break;
        }
        if (c == '\\') {
            if (++p >= len) {
                return 1;
            }
            c = (unsigned char)pat[p];
            cls_set(bits, c, icase);
            prev = c;
        } else if (c == '-' && prev > 0 && p + 1 < len && pat[p + 1] != ']') {
            unsigned char hi = (unsigned char)pat[++p];
            if (hi == '\\') {
                if (++p >= len) {
                    return 1;
                }
                hi = (unsigned char)pat[p];
            }
            for (unsigned t = 0; t < 256; t++) {
                unsigned char tl = icase ? wm_lower((unsigned char)t) : (unsigned char)t;
                if ((tl >= prev && tl <= hi) ||
                    (icase && wm_upper(tl) >= prev && wm_upper(tl) <= hi)) {
                    bits[t >> 3] |= (uint8_t)(1u << (t & 7));
                }
            }
            prev = -1;
        } else if (c == '[' && p + 1 < len && pat[p + 1] == ':') {
            size_t s = p + 2;
            size_t e = s;
            while (e < len && pat[e] != ']') {
                e++;
            }
            if (e >= len) {
                return 1;
            }
            if (e == s || pat[e - 1] != ':') {
                cls_set(bits, '[', icase); // no ":]": a plain '[', and go on at the ':'
                prev = '[';
                continue;
            }
            for (unsigned t = 0; t < 256; t++) {
                unsigned char tc = icase ? wm_lower((unsigned char)t) : (unsigned char)t;
                int in = posix_class(pat + s, e - 1 - s, tc);
                if (in < 0) {
                    return 1;
                }
                if (in || (icase && posix_class(pat + s, e - 1 - s, wm_upper(tc)) > 0)) {
                    bits[t >> 3] |= (uint8_t)(1u << (t & 7));
                }
            }
            p = e;
            prev = -1;
        } else {
            cls_set(bits, c, icase);
            prev = c;
        }
    }
    if (negated) {
        for (size_t i = 0; i < sizeof(bits); i++) {
            bits[i] = (uint8_t)~bits[i];
        }
    }
    bits['/' >> 3] &= (uint8_t) ~(1u << ('/' & 7));
    if (FRD__RESERVE(wm->cls, b->cls_cap, b->ncls + 1, 4) < 0) {
        return FRD_ENOMEM;
    }
    memcpy(wm->cls[b->ncls], bits, sizeof(bits));
    int rc = wm_push(b, TOK_CLASS, (unsigned)b->ncls);
    b->ncls++;
    *pos = p + 1;
    return rc;
}

/** Reads a run of '*' at pat[*pos]. @return 0 or FRD_ENOMEM. */
static int wm_stars(struct wm_build *b, const char *pat, size_t len, size_t *pos)
{
    size_t p = *pos;
    size_t e = p;
    while (e < len && pat[e] == '*') {
        e++;
    }
    bool at_start = p == 0 || pat[p - 1] == '/';
    if (e - p >= 2 && at_start) {
        if (e == len) {
            *pos = e;
            return wm_push(b, TOK_DSTAR, 0);
        }
        if (pat[e] == '/' || (pat[e] == '\\' && e + 1 < len && pat[e + 1] == '/')) {
            *pos = e + (pat[e] == '/' ? 1 : 2);
            return wm_push(b, TOK_DSLASH, 0);
        }
    }
    *pos = e;
    struct frd__wm *wm = b->wm;
    if (wm->ntok > 0 && (wm->tok[wm->ntok - 1] & 0xff) == TOK_STAR) {
        return 0; // `**` that is no `**`, or `*` twice: one `*`
    }
    return wm_push(b, TOK_STAR, 0);
}

/** Keeps the longest run of literal bytes of a general pattern (a text without it cannot
 *  match: a memmem() rules most texts out before any simulation). @return 0 or FRD_ENOMEM. */
static int wm_required(struct frd__wm *wm)
{
    size_t best = 0;
    size_t best_at = 0;
    for (size_t i = 0; i < wm->ntok;) {
        size_t j = i;
        while (j < wm->ntok && (wm->tok[j] & 0xff) == TOK_LIT) {
            j++;
        }
        if (j - i > best) {
            best = j - i;
            best_at = i;
        }
        i = j > i ? j : i + 1;
    }
    if (best < 2) {
        return 0;
    }
    wm->lit = frd__malloc(best + 1);
    if (wm->lit == NULL) {
        return FRD_ENOMEM;
    }
    for (size_t i = 0; i < best; i++) {
        wm->lit[i] = (char)(wm->tok[best_at + i] >> 8);
    }
    wm->lit[best] = '\0';
    wm->lit_len = best;
    return 0;
}

/** Picks a shortcut for a token list that is a literal, or `*` and a literal. */
static int wm_shortcut(struct frd__wm *wm)
{
    size_t first = 0;
    if (wm->ntok > 0 && (wm->tok[0] & 0xff) == TOK_STAR) {
        first = 1;
    }
    for (size_t i = first; i < wm->ntok; i++) {
        if ((wm->tok[i] & 0xff) != TOK_LIT) {
            return wm_required(wm);
        }
    }
    size_t n = wm->ntok - first;
    wm->lit = frd__malloc(n + 1);
    if (wm->lit == NULL) {
        return FRD_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        wm->lit[i] = (char)(wm->tok[first + i] >> 8);
    }
    wm->lit[n] = '\0';
    wm->lit_len = n;
    wm->kind = first ? FRD__WM_SUFFIX : FRD__WM_LITERAL;
    return 0;
}

int frd__wm_compile(struct frd__wm *wm, const char *pat, size_t len, bool icase)
{
    memset(wm, 0, sizeof(*wm));
    wm->icase = icase;
    struct wm_build b = {.wm = wm};
    int rc = 0;
    for (size_t p = 0; p < len && rc == 0;) {
        unsigned char c = (unsigned char)pat[p];
        if (c == '*') {
            rc = wm_stars(&b, pat, len, &p);
        } else if (c == '?') {
            rc = wm_push(&b, TOK_ANY, 0);
            p++;
        } else if (c == '[') {
            rc = wm_class(&b, pat, len, &p);
        } else {
            if (c == '\\') {
                if (p + 1 >= len) {
                    rc = 1; // a trailing '\' matches nothing
                    break;
                }
                c = (unsigned char)pat[++p];
            }
            rc = wm_push(&b, TOK_LIT, icase ? wm_lower(c) : c);
            p++;
        }
    }
    if (rc == 1) {
        frd__wm_free(wm);
        wm->icase = icase;
        wm->kind = FRD__WM_NEVER;
        return 0;
    }
    if (rc == 0) {
        rc = wm_shortcut(wm);
    }
    if (rc < 0) {
        frd__wm_free(wm);
    }
    return rc;
}

void frd__wm_free(struct frd__wm *wm)
{
    frd__free(wm->tok);
    frd__free(wm->cls);
    frd__free(wm->lit);
    memset(wm, 0, sizeof(*wm));
}

static bool lit_eq(const char *a, const char *lit, size_t n, bool icase)
{
    if (!icase) {
        return memcmp(a, lit, n) == 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (wm_lower((unsigned char)a[i]) != (unsigned char)lit[i]) {
            return false;
        }
    }
    return true;
}

/** Adds the positions reached for free (past `*`, `**`, `**\/`) to the set. */
static void wm_closure(const struct frd__wm *wm, uint8_t *set)
{
    for (uint32_t i = 0; i < wm->ntok; i++) {
        unsigned k = wm->tok[i] & 0xff;
        if (set[i] && (k == TOK_STAR || k == TOK_DSTAR || k == TOK_DSLASH)) {
            set[i + 1] = 1;
        }
    }
}

static bool wm_simulate(const struct frd__wm *wm, const char *text, size_t len, uint8_t *cur,
                        uint8_t *nxt)
{
    size_t m = wm->ntok;
    memset(cur, 0, m + 1);
    cur[0] = 1;
    wm_closure(wm, cur);
    for (size_t t = 0; t < len; t++) {
        unsigned char c = (unsigned char)text[t];
        if (wm->icase) {
            c = wm_lower(c);
        }
        memset(nxt, 0, m + 1);
        bool live = false;
        for (size_t i = 0; i < m; i++) {
            if (!cur[i]) {
                continue;
            }
            uint32_t tok = wm->tok[i];
            unsigned arg = tok >> 8;
            switch (tok & 0xff) {
            case TOK_LIT:
                nxt[i + 1] |= c == arg;
                break;
            case TOK_ANY:
                nxt[i + 1] |= c != '/';
                break;
            case TOK_CLASS:
                nxt[i + 1] |= (wm->cls[arg][c >> 3] >> (c & 7)) & 1;
                break;
            case TOK_STAR:
                nxt[i] |= c != '/';
                break;
            case TOK_DSTAR:
                nxt[i] = 1;
                break;
            default: // TOK_DSLASH
                nxt[i] = 1;
                nxt[i + 1] |= c == '/';
                break;
            }
            live = true;
        }
        if (!live) {
            return false;
        }
        wm_closure(wm, nxt);
        uint8_t *swap = cur;
        cur = nxt;
        nxt = swap;
    }
    return cur[m] != 0;
}

bool frd__wm_match(const struct frd__wm *wm, const char *text, size_t len)
{
    switch (wm->kind) {
    case FRD__WM_NEVER:
        return false;
    case FRD__WM_LITERAL:
        return len == wm->lit_len && lit_eq(text, wm->lit, len, wm->icase);
    case FRD__WM_SUFFIX:
        return len >= wm->lit_len && memchr(text, '/', len - wm->lit_len) == NULL &&
               lit_eq(text + len - wm->lit_len, wm->lit, wm->lit_len, wm->icase);
    default:
        break;
    }
    if (wm->lit_len > 0 && !wm->icase &&
        frd__plat_memmem(text, len, wm->lit, wm->lit_len) == NULL) {
        return false; // the pattern's longest literal is not in the text
    }
    uint8_t small[2][256];
    if (wm->ntok < sizeof(small[0])) {
        return wm_simulate(wm, text, len, small[0], small[1]);
    }
    uint8_t *big = frd__malloc(2 * ((size_t)wm->ntok + 1));
    if (big == NULL) {
        return false; // no memory: no match (the rule counts as absent)
    }
    bool ok = wm_simulate(wm, text, len, big, big + wm->ntok + 1);
    frd__free(big);
    return ok;
}
