// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Ignore rules during a walk (walker/ignore/): the public struct frd_ignore (ignore.c: what
 * to read, git's global configuration), and the per-directory levels (level.c): each
 * directory that holds ignore files gets a level with their rules and a pointer to its
 * parent's, so rule sets are shared down the tree by reference; a directory without any
 * uses its parent's level as it is. A level belongs to the walk node of its directory and
 * lives as long as it (nodes keep their ancestors alive), so memory is bounded by the
 * depth and the rules, not by the number of directories.
 */
#ifndef FRD_WALKER_IGNORE_IGNORE_H
#define FRD_WALKER_IGNORE_IGNORE_H

#include "frd.h"
#include "rules.h"

#include <stdbool.h>
#include <stddef.h>

/** Rule groups of a level, in precedence order (ripgrep's: custom names, .ignore, git). */
enum frd__ign_group { FRD__IGN_CUSTOM = 0, FRD__IGN_DOT = 1, FRD__IGN_GIT = 2, FRD__IGN_NGROUPS };

/** The public ignore object: what to read, fixed once walks use it. */
struct frd_ignore {
    unsigned flags; /**< enum frd_ignore_flag */
    char **names;   /**< per-directory custom file names, later ones win */
    size_t nnames;
    size_t names_cap;
    char **present; /**< exclude-if-present names */
    size_t npresent;
    size_t present_cap;
    struct frd__ign_rules extra; /**< root-relative rules (add_file, add_pattern) */
    char *global_text;           /**< the global excludes file's text, NULL if none */
    size_t global_len;
    bool global_icase;     /**< core.ignoreCase of the global configuration */
    char *global_excludes; /**< core.excludesFile of the global configuration, or NULL */
};

/** A git repository the walk is in: its own rules, matched relative to its top. */
struct frd__ign_repo {
    struct frd__ign_rules exclude; /**< $GIT_DIR/info/exclude */
    struct frd__ign_rules global;  /**< the global excludes file */
    bool icase;
    size_t base_off; /**< where a path relative to the top starts in a walk path */
    char *prefix;    /**< what precedes that (the root's path below the top, with '/') */
    size_t prefix_len;
};

/** A directory's rules and the chain above it. */
struct frd__ign_level {
    const struct frd__ign_level *parent;
    const struct frd__ign_repo *repo; /**< NULL: git's rules do not apply here */
    struct frd__ign_rules lists[FRD__IGN_NGROUPS];
    size_t base_off; /**< where a path relative to this directory starts in a walk path */
    char *prefix;    /**< what precedes that (above a root), or NULL */
    size_t prefix_len;
    size_t root_off;                   /**< where a path relative to the root starts */
    bool git;                          /**< git's rules apply (a repository, or no-require-git) */
    struct frd__ign_repo *own_repo;    /**< the repository this level started, if any */
    struct frd__ign_level *own_parent; /**< the parent when it is freed with this level */
    size_t real_len;                   /**< above a root: the length of its directory's real path */
};

/** A rule file that could not be read, for the walk's error channel. */
typedef void frd__ign_report_fn(void *ctx, const char *path, int code);

/** What frd__ign_enter() decided for a directory. */
struct frd__ign_dir {
    struct frd__ign_level *level; /**< for its children (the parent's, or a new one) */
    bool owned;                   /**< level is new: the directory's to free */
    bool drop_all;                /**< a tag or exclude-if-present name: skip all */
};

/**
 * Decides a directory's rules: reads its ignore files relative to `fd`, starts a repository
 * where it has a .git (or, for a root, finds the repository above it), and checks its tags.
 * `path` (path_len bytes) is its walk path, `sep` 1 if its children's paths add a '/' to it;
 * `parent` is its parent's level (NULL for a root); `names`, when not NULL, is the whole
 * listing (n entries), which saves opening files that are not there. Failures to read a
 * file go to `report` (once each) and leave the file out. @return 0 or FRD_ENOMEM.
 */
int frd__ign_enter(const struct frd_ignore *ig, struct frd__ign_level *parent, frd_os_fd fd,
                   const char *path, size_t path_len, size_t sep, const struct frd_entry *names,
                   size_t n, frd__ign_report_fn *report, void *ctx, struct frd__ign_dir *out);

/**
 * Is the entry at walk path `full` (full_len bytes; its name at name_off) ignored under
 * `level`? `is_dir` for a directory. buf and cap: the caller's scratch, grown as needed.
 */
bool frd__ign_ignored(const struct frd_ignore *ig, const struct frd__ign_level *level,
                      const char *full, size_t full_len, size_t name_off, bool is_dir, char **buf,
                      size_t *cap);

/** Frees a level frd__ign_enter() made (and the levels above it that it owns). */
void frd__ign_level_free(struct frd__ign_level *level);

/** Reads a git config text's core.excludesFile and core.ignoreCase into *excludes
 *  (replaced, heap) and *icase, where it sets them. @return 0 or FRD_ENOMEM. */
int frd__ign_read_config(const char *text, size_t len, char **excludes, bool *icase);

#endif // FRD_WALKER_IGNORE_IGNORE_H
