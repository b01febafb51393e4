// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * One ignore file's rules (walker/ignore/rules.c): the lines of a .gitignore read as
 * gitignore(5) says (blank lines and `#` comments skipped, trailing spaces trimmed unless
 * escaped, `!` negation, a trailing `/` for directories only, a leading or middle `/`
 * anchoring to the file's directory), and the match of a path against them: the last rule
 * that matches decides.
 */
#ifndef FRD_WALKER_IGNORE_RULES_H
#define FRD_WALKER_IGNORE_RULES_H

#include "wildmatch.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Rule flags. */
enum frd__ign_rule_flag {
    FRD__IGN_NEGATE = 1u << 0,   /**< `!pattern`: re-includes */
    FRD__IGN_DIR_ONLY = 1u << 1, /**< `pattern/`: directories only */
    FRD__IGN_BASENAME = 1u << 2, /**< no '/' in it: matched against the last component */
};

/** One rule. */
struct frd__ign_rule {
    struct frd__wm wm;
    uint8_t flags; /**< enum frd__ign_rule_flag */
};

/** A file's rules, in file order. */
struct frd__ign_rules {
    struct frd__ign_rule *v;
    size_t n;
    size_t cap;
};

/** The verdict of a rule list on a path. */
enum frd__ign_verdict {
    FRD__IGN_NONE = 0,     /**< no rule matched */
    FRD__IGN_IGNORED = 1,  /**< the last rule that matched ignores it */
    FRD__IGN_INCLUDED = 2, /**< the last rule that matched is a negation */
};

/** Appends the rules of `buf` (len bytes, the whole file) to r. @return 0 or FRD_ENOMEM. */
int frd__ign_parse(struct frd__ign_rules *r, const char *buf, size_t len, bool icase);
/** Appends one line's rule (no newline in it), if it is one. @return 0 or FRD_ENOMEM. */
int frd__ign_parse_line(struct frd__ign_rules *r, const char *line, size_t len, bool icase);
/** Frees the rules (not r itself) and empties r. */
void frd__ign_rules_free(struct frd__ign_rules *r);
/**
 * The verdict on `rel` (rel_len bytes), a path relative to the rules' directory ('/'
 * between components), a directory if is_dir. Thread-safe on shared rules.
 */
enum frd__ign_verdict frd__ign_rules_match(const struct frd__ign_rules *r, const char *rel,
                                           size_t rel_len, bool is_dir);

#endif // FRD_WALKER_IGNORE_RULES_H
