// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * gitignore(5) lines into rules, and the match of a path against a file's rules: from the
 * last rule up, the first that matches decides (last match wins).
 */
#include "rules.h"

#include "internal.h"

#include <string.h>

/** The length of `line` without its trailing spaces, an escaped space ("\ ") kept. */
static size_t trim_trailing_spaces(const char *line, size_t len)
{
    size_t end = len;
    size_t last_space = len; // the first space of the trailing run, len if none
    for (size_t i = 0; i < len; i++) {
        if (line[i] == ' ') {
            if (last_space == len) {
                last_space = i;
            }
            continue;
        }
        last_space = len;
        if (line[i] == '\\' && i + 1 < len) {
            i++; // the escaped byte is never trimmed
        }
    }
    if (last_space < len) {
        end = last_space;
    }
    return end;
}

int frd__ign_parse_line(struct frd__ign_rules *r, const char *line, size_t len, bool icase)
{
    if (len == 0 || line[0] == '#') {
        return 0;
    }
    len = trim_trailing_spaces(line, len);
    uint8_t flags = 0;
    if (len > 0 && line[0] == '!') {
        flags |= FRD__IGN_NEGATE;
        line++;
        len--;
    }
    if (len == 0) {
        return 0;
    }
    if (line[len - 1] == '/') {
        flags |= FRD__IGN_DIR_ONLY;
        len--;
    }
    if (memchr(line, '/', len) == NULL) {
        flags |= FRD__IGN_BASENAME;
    } else if (line[0] == '/') {
        line++; // anchored: the path relative to the file's directory, as any with a '/'
        len--;
    }
    if (len == 0) {
        return 0; // "/" alone: matches nothing
    }
    if (FRD__RESERVE(r->v, r->cap, r->n + 1, 8) < 0) {
        return FRD_ENOMEM;
    }
    struct frd__ign_rule *rule = &r->v[r->n];
    int rc = frd__wm_compile(&rule->wm, line, len, icase);
    if (rc < 0) {
        return rc;
    }
    rule->flags = flags;
    r->n++;
    return 0;
}

int frd__ign_parse(struct frd__ign_rules *r, const char *buf, size_t len, bool icase)
{
    // A UTF-8 byte order mark at the start is no part of the first pattern.
    if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        buf += 3;
        len -= 3;
    }
    while (len > 0) {
        const char *nl = memchr(buf, '\n', len);
        size_t n = nl != NULL ? (size_t)(nl - buf) : len;
        size_t line_len = n;
        if (line_len > 0 && buf[line_len - 1] == '\r') {
            line_len--; // CRLF files
        }
        int rc = frd__ign_parse_line(r, buf, line_len, icase);
        if (rc < 0) {
            return rc;
        }
        if (nl == NULL) {
            break;
        }
        buf += n + 1;
        len -= n + 1;
    }
    return 0;
}

void frd__ign_rules_free(struct frd__ign_rules *r)
{
    for (size_t i = 0; i < r->n; i++) {
        frd__wm_free(&r->v[i].wm);
    }
    frd__free(r->v);
    memset(r, 0, sizeof(*r));
}

enum frd__ign_verdict frd__ign_rules_match(const struct frd__ign_rules *r, const char *rel,
                                           size_t rel_len, bool is_dir)
{
    const char *slash = NULL;
    for (size_t i = rel_len; i > 0; i--) {
        if (rel[i - 1] == '/') {
            slash = rel + i - 1;
            break;
        }
    }
    const char *base = slash != NULL ? slash + 1 : rel;
    size_t base_len = rel_len - (size_t)(base - rel);
    for (size_t i = r->n; i > 0; i--) {
        const struct frd__ign_rule *rule = &r->v[i - 1];
        if ((rule->flags & FRD__IGN_DIR_ONLY) && !is_dir) {
            continue;
        }
        bool hit = (rule->flags & FRD__IGN_BASENAME) ? frd__wm_match(&rule->wm, base, base_len)
                                                     : frd__wm_match(&rule->wm, rel, rel_len);
        if (hit) {
            return (rule->flags & FRD__IGN_NEGATE) ? FRD__IGN_INCLUDED : FRD__IGN_IGNORED;
        }
    }
    return FRD__IGN_NONE;
}
