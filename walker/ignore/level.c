// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Per-directory rule levels: what a directory's ignore files add (read relative to its
 * descriptor, never by path), the repository a .git starts (its info/exclude, its config's
 * core.ignoreCase and core.excludesFile, the global excludes file), the repository above a
 * root (found once by the root's real path, with the .gitignore files between its top and
 * the root), and the verdict on an entry: per group (custom names, .ignore, git), the
 * deepest level that has a matching rule decides; then info/exclude, the global file, and
 * the caller's root-relative rules.
 */
#include "ignore.h"
#include "internal.h"
#include "platform.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/** Ignore files larger than this are reported (FRD_EOVERFLOW) and left out. */
#define IGN_RULES_MAX ((size_t)64 << 20)

/** The Cache Directory Tagging Specification's signature, at the start of CACHEDIR.TAG. */
static const char cachedir_sig[] = "Signature: 8a477f597d28d172789f06886806bc55";

/** Where a directory's presence checks come from: its listing, or a probe of the name. */
struct ign_src {
    frd_os_fd fd;
    const char *path; /**< the directory's walk path, for reports */
    size_t path_len;
    size_t sep;
    const struct frd_entry *names; /**< the whole listing, or NULL */
    size_t n;
    frd__ign_report_fn *report;
    void *ctx;
};

static bool ign_listed(const struct ign_src *s, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < s->n; i++) {
        if (s->names[i].name_len == len && memcmp(s->names[i].name, name, len) == 0) {
            return true;
        }
    }
    return false;
}

/** Is there an entry `name` in the directory? */
static bool ign_has(const struct ign_src *s, const char *name)
{
    if (s->names != NULL) {
        return ign_listed(s, name);
    }
    struct frd_entry e;
    memset(&e, 0, sizeof(e));
    return frd__plat_stat_fields(s->fd, name, false, FRD_FIELD_TYPE, &e) == 0;
}

/** Reports a rule file that could not be read, by its path below the directory. */
static void ign_report(const struct ign_src *s, const char *name, int code)
{
    size_t nl = strlen(name);
    char *p = frd__malloc(s->path_len + 1 + nl + 1);
    if (p == NULL) {
        return;
    }
    memcpy(p, s->path, s->path_len);
    size_t o = s->path_len;
    if (s->sep) {
        p[o++] = '/';
    }
    memcpy(p + o, name, nl + 1);
    s->report(s->ctx, p, code);
    frd__free(p);
}

/**
 * Appends the rules of file `name` (relative to the directory; a path below it for
 * $GIT_DIR files) to r, if it is there. @return 0 or FRD_ENOMEM.
 */
static int ign_load(const struct ign_src *s, const char *name, bool listed_name,
                    struct frd__ign_rules *r, bool icase)
{
    if (listed_name && s->names != NULL && !ign_listed(s, name)) {
        return 0; // the listing says it is not there: no open
    }
    char *text;
    size_t len;
    int rc = frd__plat_read_file_at(s->fd, name, false, IGN_RULES_MAX, &text, &len);
    if (rc == FRD_ENOENT) {
        return 0;
    }
    if (rc == FRD_ENOMEM) {
        return rc;
    }
    if (rc < 0) {
        if (s->report != NULL) {
            ign_report(s, name, rc);
        }
        return 0;
    }
    rc = frd__ign_parse(r, text, len, icase);
    frd__free(text);
    return rc;
}

/** Does the directory's CACHEDIR.TAG begin with the signature? */
static bool ign_cachedir(const struct ign_src *s)
{
    if (!ign_has(s, "CACHEDIR.TAG")) {
        return false;
    }
    char *text;
    size_t len;
    if (frd__plat_read_file_at(s->fd, "CACHEDIR.TAG", false, 4096, &text, &len) < 0) {
        return false; // not a regular file, unreadable or too big: no valid tag
    }
    bool ok = len >= sizeof(cachedir_sig) - 1 &&
              memcmp(text, cachedir_sig, sizeof(cachedir_sig) - 1) == 0;
    frd__free(text);
    return ok;
}

static void ign_repo_free(struct frd__ign_repo *repo)
{
    if (repo == NULL) {
        return;
    }
    frd__ign_rules_free(&repo->exclude);
    frd__ign_rules_free(&repo->global);
    frd__free(repo->prefix);
    frd__free(repo);
}

/** The path of the git directory of a work tree whose .git is at `s`: ".git", or what a
 *  .git file names ("gitdir: X"), in a new string. @return it, or NULL (no memory). */
static char *ign_git_dir(const struct ign_src *s)
{
    char *text;
    size_t len;
    if (frd__plat_read_file_at(s->fd, ".git", false, 4096, &text, &len) == 0) {
        char *out = NULL;
        if (len > 8 && memcmp(text, "gitdir: ", 8) == 0) {
            size_t e = 8;
            while (e < len && text[e] != '\n' && text[e] != '\r') {
                e++;
            }
            out = frd__malloc(e - 8 + 1);
            if (out != NULL) {
                memcpy(out, text + 8, e - 8);
                out[e - 8] = '\0';
            }
        }
        frd__free(text);
        return out != NULL ? out : frd__strdup(".git");
    }
    return frd__strdup(".git");
}

/** `dir` + "/" + `name`, in a new string. */
static char *ign_join(const char *dir, const char *name)
{
    size_t a = strlen(dir);
    size_t b = strlen(name);
    char *p = frd__malloc(a + 1 + b + 1);
    if (p != NULL) {
        memcpy(p, dir, a);
        p[a] = '/';
        memcpy(p + a + 1, name, b + 1);
    }
    return p;
}

/**
 * The repository whose work tree's top is the directory `s` (a .git there), or, with
 * `have_git` false, the rules git would read outside one (the global file only).
 * @return it, or NULL (no memory).
 */
static struct frd__ign_repo *ign_repo_new(const struct frd_ignore *ig, const struct ign_src *s,
                                          bool have_git)
{
    struct frd__ign_repo *repo = frd__calloc(1, sizeof(*repo));
    if (repo == NULL) {
        return NULL;
    }
    repo->icase = ig->global_icase;
    char *excludes = NULL;
    char *gd = have_git ? ign_git_dir(s) : NULL;
    int rc = have_git && gd == NULL ? FRD_ENOMEM : 0;
    if (gd != NULL) {
        char *cfg = ign_join(gd, "config");
        char *text;
        size_t len;
        if (cfg == NULL) {
            rc = FRD_ENOMEM;
        } else if (frd__plat_read_file_at(s->fd, cfg, true, IGN_RULES_MAX, &text, &len) == 0) {
            rc = frd__ign_read_config(text, len, &excludes, &repo->icase);
            frd__free(text);
        }
        frd__free(cfg);
    }
    bool icase = repo->icase || (ig->flags & FRD_IGNORE_ICASE);
    repo->icase = icase;
    if (rc == 0 && gd != NULL) {
        char *ex = ign_join(gd, "info/exclude");
        rc = ex == NULL ? FRD_ENOMEM : ign_load(s, ex, false, &repo->exclude, icase);
        frd__free(ex);
    }
    if (rc == 0 && excludes != NULL) {
        // The repository's own core.excludesFile replaces the global one.
        char *text;
        size_t len;
        const char *home = getenv("HOME");
        char *path = excludes;
        char *tmp = NULL;
        if (strncmp(excludes, "~/", 2) == 0 && home != NULL) {
            tmp = ign_join(home, excludes + 2);
            path = tmp;
        }
        if (path != NULL &&
            frd__plat_read_file_at(s->fd, path, true, IGN_RULES_MAX, &text, &len) == 0) {
            rc = frd__ign_parse(&repo->global, text, len, icase);
            frd__free(text);
        }
        frd__free(tmp);
    } else if (rc == 0 && ig->global_text != NULL) {
        rc = frd__ign_parse(&repo->global, ig->global_text, ig->global_len, icase);
    }
    frd__free(excludes);
    frd__free(gd);
    if (rc < 0) {
        ign_repo_free(repo);
        return NULL;
    }
    repo->base_off = s->path_len + s->sep;
    return repo;
}

void frd__ign_level_free(struct frd__ign_level *level)
{
    while (level != NULL) {
        struct frd__ign_level *up = level->own_parent;
        for (int g = 0; g < FRD__IGN_NGROUPS; g++) {
            frd__ign_rules_free(&level->lists[g]);
        }
        ign_repo_free(level->own_repo);
        frd__free(level->prefix);
        frd__free(level);
        level = up;
    }
}

/** Reads a directory's own rule files into lv. @return 0 or FRD_ENOMEM. */
static int ign_read_files(const struct frd_ignore *ig, const struct ign_src *s,
                          struct frd__ign_level *lv)
{
    bool icase = (ig->flags & FRD_IGNORE_ICASE) || (lv->repo != NULL && lv->repo->icase);
    int rc = 0;
    if (lv->git) {
        rc = ign_load(s, ".gitignore", true, &lv->lists[FRD__IGN_GIT], icase);
    }
    if (rc == 0 && (ig->flags & FRD_IGNORE_DOT_IGNORE)) {
        rc = ign_load(s, ".ignore", true, &lv->lists[FRD__IGN_DOT], icase);
    }
    for (size_t i = 0; rc == 0 && i < ig->nnames; i++) {
        rc = ign_load(s, ig->names[i], true, &lv->lists[FRD__IGN_CUSTOM], icase);
    }
    return rc;
}

static bool ign_empty(const struct frd__ign_level *lv)
{
    for (int g = 0; g < FRD__IGN_NGROUPS; g++) {
        if (lv->lists[g].n > 0) {
            return false;
        }
    }
    return true;
}

/**
 * Is the directory real[0..d) ignored by the levels above a root (chain: the deepest of
 * those above it) and their repository? Directories are matched by their path below each
 * level's directory, as git matches the root's ancestors.
 */
static bool ign_dir_ignored_above(const struct frd__ign_level *chain, const char *real, size_t d)
{
    enum frd__ign_verdict v = FRD__IGN_NONE;
    const struct frd__ign_level *top = NULL;
    for (int g = 0; g < FRD__IGN_NGROUPS && v == FRD__IGN_NONE; g++) {
        for (const struct frd__ign_level *l = chain; l != NULL && v == FRD__IGN_NONE;
             l = l->parent) {
            size_t off = l->real_len + (l->real_len > 1);
            v = frd__ign_rules_match(&l->lists[g], real + off, d - off, true);
            top = l;
        }
    }
    if (v == FRD__IGN_NONE && top != NULL && top->repo != NULL) {
        size_t off = top->real_len + (top->real_len > 1);
        v = frd__ign_rules_match(&top->repo->exclude, real + off, d - off, true);
        if (v == FRD__IGN_NONE) {
            v = frd__ign_rules_match(&top->repo->global, real + off, d - off, true);
        }
    }
    return v == FRD__IGN_IGNORED;
}

/**
 * Above a root that is no work tree's top: finds the repository by the root's real path and
 * makes the levels of the directories from its top down to the root's parent, each with
 * the root's path below it as prefix. *top gets the top level (the chain's lowest level in
 * *bottom), both NULL when there is no repository. @return 0 or FRD_ENOMEM.
 */
static int ign_above_root(const struct frd_ignore *ig, const struct ign_src *s,
                          struct frd__ign_level **bottom, bool *ignored)
{
    *bottom = NULL;
    *ignored = false;
    char *real = frd__plat_real_path(s->path);
    if (real == NULL) {
        return 0; // nothing to find above it
    }
    size_t rl = strlen(real);
    size_t top = SIZE_MAX; // length of the top's path in real
    char *probe = frd__malloc(rl + 6);
    if (probe == NULL) {
        free(real);
        return FRD_ENOMEM;
    }
    for (size_t l = rl; l > 0 && top == SIZE_MAX;) {
        while (l > 0 && real[l - 1] != '/') {
            l--; // up one component
        }
        size_t dl = l > 1 ? l - 1 : l; // the directory's path without its last '/'
        memcpy(probe, real, dl);
        memcpy(probe + dl, dl == 1 ? ".git" : "/.git", dl == 1 ? 5 : 6);
        struct frd_entry e;
        memset(&e, 0, sizeof(e));
        if (frd__plat_stat_fields(FRD_INVALID_FD, probe, false, FRD_FIELD_TYPE, &e) == 0) {
            top = dl;
        }
        l = l > 1 ? l - 1 : 0;
    }
    int rc = 0;
    struct frd__ign_level *prev = NULL;
    size_t base_off = s->path_len + s->sep;
    // Each directory from the top down to the root's parent: its files, its prefix.
    for (size_t d = top; rc == 0 && top != SIZE_MAX && d < rl;) {
        memcpy(probe, real, d);
        probe[d] = '\0';
        if (d == 0) {
            probe[0] = '/';
            probe[1] = '\0';
        }
        if (prev != NULL && !*ignored && ign_dir_ignored_above(prev, real, d)) {
            *ignored = true; // git reads nothing below an ignored directory
        }
        frd_os_fd dfd;
        struct frd__ign_level *lv = frd__calloc(1, sizeof(*lv));
        if (lv == NULL) {
            rc = FRD_ENOMEM;
            break;
        }
        size_t rest = rl - d - (real[d] == '/'); // the root's path below this one
        const char *rest_s = real + rl - rest;
        lv->prefix = frd__malloc(rest + 2);
        if (lv->prefix == NULL) {
            frd__free(lv);
            rc = FRD_ENOMEM;
            break;
        }
        memcpy(lv->prefix, rest_s, rest);
        lv->prefix[rest] = '/';
        lv->prefix_len = rest + 1;
        lv->parent = prev;
        lv->own_parent = prev;
        lv->git = true;
        lv->base_off = base_off;
        lv->root_off = base_off;
        lv->real_len = d == 0 ? 1 : d;
        if (frd__plat_open_dir(FRD_INVALID_FD, probe, 0, &dfd) == 0) {
            struct ign_src as = {.fd = dfd,
                                 .path = probe,
                                 .path_len = strlen(probe),
                                 .sep = 1,
                                 .report = s->report,
                                 .ctx = s->ctx};
            if (prev == NULL) {
                lv->own_repo = ign_repo_new(ig, &as, true);
                if (lv->own_repo == NULL) {
                    rc = FRD_ENOMEM;
                } else {
                    lv->own_repo->base_off = base_off;
                    lv->own_repo->prefix = frd__malloc(rest + 2);
                    if (lv->own_repo->prefix == NULL) {
                        rc = FRD_ENOMEM;
                    } else {
                        memcpy(lv->own_repo->prefix, lv->prefix, rest + 1);
                        lv->own_repo->prefix_len = rest + 1;
                    }
                }
                lv->repo = lv->own_repo;
            } else {
                lv->repo = prev->repo;
            }
            if (rc == 0 && lv->repo != NULL) {
                rc = ign_read_files(ig, &as, lv);
            }
            frd__plat_close_dir(dfd);
        } else if (prev == NULL) {
            rc = 0; // the top cannot be opened: no rules from above (git could not run)
            frd__ign_level_free(lv);
            break;
        } else {
            lv->repo = prev->repo;
        }
        prev = lv;
        // Down one component.
        size_t next = d + 1;
        if (d == 0) {
            next = 1;
        }
        while (next < rl && real[next] != '/') {
            next++;
        }
        d = next;
    }
    if (rc == 0 && prev != NULL && !*ignored && ign_dir_ignored_above(prev, real, rl)) {
        *ignored = true; // the root itself
    }
    frd__free(probe);
    free(real);
    if (rc < 0) {
        frd__ign_level_free(prev);
        return rc;
    }
    *bottom = prev;
    return 0;
}

/** The level of a root: the repository and levels above it, its own files. */
static int ign_enter_root(const struct frd_ignore *ig, const struct ign_src *s,
                          struct frd__ign_level *lv, bool *drop_all)
{
    bool git = (ig->flags & FRD_IGNORE_GIT) != 0;
    if (git && ign_has(s, ".git")) {
        lv->own_repo = ign_repo_new(ig, s, true);
        if (lv->own_repo == NULL) {
            return FRD_ENOMEM;
        }
        lv->repo = lv->own_repo;
        lv->git = true;
        return 0;
    }
    if (git) {
        struct frd__ign_level *above;
        int rc = ign_above_root(ig, s, &above, drop_all);
        if (rc < 0) {
            return rc;
        }
        if (above != NULL) {
            lv->parent = above;
            lv->own_parent = above;
            lv->repo = above->repo;
            lv->git = true;
            return 0;
        }
    }
    if (git && (ig->flags & FRD_IGNORE_NO_REQUIRE_GIT)) {
        lv->own_repo = ign_repo_new(ig, s, false);
        if (lv->own_repo == NULL) {
            return FRD_ENOMEM;
        }
        lv->repo = lv->own_repo;
        lv->git = true;
    }
    return 0;
}

int frd__ign_enter(const struct frd_ignore *ig, struct frd__ign_level *parent, frd_os_fd fd,
                   const char *path, size_t path_len, size_t sep, const struct frd_entry *names,
                   size_t n, frd__ign_report_fn *report, void *ctx, struct frd__ign_dir *out)
{
    struct ign_src s = {.fd = fd,
                        .path = path,
                        .path_len = path_len,
                        .sep = sep,
                        .names = names,
                        .n = n,
                        .report = report,
                        .ctx = ctx};
    out->level = parent;
    out->owned = false;
    out->drop_all = false;
    for (size_t i = 0; i < ig->npresent; i++) {
        if (ign_has(&s, ig->present[i])) {
            out->drop_all = true;
            return 0;
        }
    }
    if ((ig->flags & FRD_IGNORE_CACHEDIR_TAG) && ign_cachedir(&s)) {
        out->drop_all = true;
        return 0;
    }
    struct frd__ign_level *lv = frd__calloc(1, sizeof(*lv));
    if (lv == NULL) {
        return FRD_ENOMEM;
    }
    lv->base_off = path_len + sep;
    int rc = 0;
    if (parent == NULL) {
        lv->root_off = lv->base_off;
        rc = ign_enter_root(ig, &s, lv, &out->drop_all);
    } else {
        lv->parent = parent;
        lv->repo = parent->repo;
        lv->git = parent->git;
        lv->root_off = parent->root_off;
        if ((ig->flags & FRD_IGNORE_GIT) && ign_has(&s, ".git")) {
            // A nested repository starts afresh: none of the rules above apply in it.
            lv->parent = NULL;
            lv->own_repo = ign_repo_new(ig, &s, true);
            rc = lv->own_repo == NULL ? FRD_ENOMEM : 0;
            lv->repo = lv->own_repo;
            lv->git = true;
        }
    }
    if (rc == 0) {
        rc = ign_read_files(ig, &s, lv);
    }
    if (rc < 0) {
        frd__ign_level_free(lv);
        return rc;
    }
    if (parent != NULL && lv->own_repo == NULL && ign_empty(lv)) {
        frd__ign_level_free(lv); // nothing of its own: the parent's level serves
        return 0;
    }
    out->level = lv;
    out->owned = true;
    return 0;
}

/** The path relative to a level (or a repository): `prefix` then full + off. */
static const char *ign_rel(const char *full, size_t full_len, size_t off, const char *prefix,
                           size_t prefix_len, char **buf, size_t *cap, size_t *len)
{
    if (off > full_len) {
        off = full_len;
    }
    if (prefix_len == 0) {
        *len = full_len - off;
        return full + off;
    }
    size_t n = prefix_len + full_len - off;
    if (FRD__RESERVE(*buf, *cap, n + 1, 256) < 0) {
        return NULL;
    }
    memcpy(*buf, prefix, prefix_len);
    memcpy(*buf + prefix_len, full + off, full_len - off);
    (*buf)[n] = '\0';
    *len = n;
    return *buf;
}

/** The verdict of one rule list on the entry, relative to (off, prefix). */
static enum frd__ign_verdict ign_match(const struct frd__ign_rules *r, const char *full,
                                       size_t full_len, size_t off, const char *prefix,
                                       size_t prefix_len, bool is_dir, char **buf, size_t *cap)
{
    if (r->n == 0) {
        return FRD__IGN_NONE;
    }
    size_t len;
    const char *rel = ign_rel(full, full_len, off, prefix, prefix_len, buf, cap, &len);
    if (rel == NULL) {
        return FRD__IGN_NONE; // no memory for the path: the rules are passed over
    }
    return frd__ign_rules_match(r, rel, len, is_dir);
}

bool frd__ign_ignored(const struct frd_ignore *ig, const struct frd__ign_level *level,
                      const char *full, size_t full_len, size_t name_off, bool is_dir, char **buf,
                      size_t *cap)
{
    if (level != NULL && level->git && full_len - name_off == 4 &&
        memcmp(full + name_off, ".git", 4) == 0) {
        return true; // the repository itself is no part of its work tree
    }
    enum frd__ign_verdict v = FRD__IGN_NONE;
    for (int g = 0; g < FRD__IGN_NGROUPS && v == FRD__IGN_NONE; g++) {
        for (const struct frd__ign_level *l = level; l != NULL && v == FRD__IGN_NONE;
             l = l->parent) {
            v = ign_match(&l->lists[g], full, full_len, l->base_off, l->prefix, l->prefix_len,
                          is_dir, buf, cap);
        }
    }
    const struct frd__ign_repo *repo = level != NULL && level->git ? level->repo : NULL;
    if (v == FRD__IGN_NONE && repo != NULL) {
        v = ign_match(&repo->exclude, full, full_len, repo->base_off, repo->prefix,
                      repo->prefix_len, is_dir, buf, cap);
        if (v == FRD__IGN_NONE) {
            v = ign_match(&repo->global, full, full_len, repo->base_off, repo->prefix,
                          repo->prefix_len, is_dir, buf, cap);
        }
    }
    if (v == FRD__IGN_NONE && level != NULL) {
        v = ign_match(&ig->extra, full, full_len, level->root_off, NULL, 0, is_dir, buf, cap);
    }
    return v == FRD__IGN_IGNORED;
}
