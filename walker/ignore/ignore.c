// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The public ignore object (frd_ignore_new() and the frd_ignore_add_*() calls): the names
 * of per-directory files, the exclude-if-present names, root-relative rules, and git's
 * global configuration read once (core.excludesFile, core.ignoreCase, the global excludes
 * file). Configuration files are read by path: they are the user's, not the walked tree's.
 */
#include "ignore.h"

#include "internal.h"
#include "platform.h"

#include <stdlib.h>
#include <string.h>

/** A git configuration or excludes file is read whole if it is below this. */
#define IGN_FILE_MAX ((size_t)64 << 20)

static char *ign_strndup(const char *s, size_t n)
{
    char *d = frd__malloc(n + 1);
    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static bool ign_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool ign_true(const char *v, size_t n)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strlen(yes[i]) == n && strncasecmp(v, yes[i], n) == 0) {
            return true;
        }
    }
    return false;
}

int frd__ign_read_config(const char *text, size_t len, char **excludes, bool *icase)
{
    bool core = false;
    while (len > 0) {
        const char *nl = memchr(text, '\n', len);
        size_t n = nl != NULL ? (size_t)(nl - text) : len;
        const char *l = text;
        size_t ln = n;
        text += n + (nl != NULL);
        len -= n + (nl != NULL);
        while (ln > 0 && ign_space(*l)) {
            l++;
            ln--;
        }
        while (ln > 0 && ign_space(l[ln - 1])) {
            ln--;
        }
        if (ln == 0 || *l == '#' || *l == ';') {
            continue;
        }
        if (*l == '[') {
            size_t e = 1;
            while (e < ln && l[e] != ']' && !ign_space(l[e]) && l[e] != '"') {
                e++;
            }
            core = e - 1 == 4 && strncasecmp(l + 1, "core", 4) == 0;
            continue;
        }
        if (!core) {
            continue;
        }
        size_t k = 0;
        while (k < ln && l[k] != '=' && !ign_space(l[k])) {
            k++;
        }
        size_t v = k;
        while (v < ln && (ign_space(l[v]) || l[v] == '=')) {
            v++;
        }
        const char *val = l + v;
        size_t vn = ln - v;
        if (vn >= 2 && val[0] == '"' && val[vn - 1] == '"') {
            val++;
            vn -= 2;
        }
        if (k == 10 && strncasecmp(l, "ignorecase", 10) == 0) {
            *icase = v == k || ign_true(val, vn); // a bare key is true
        } else if (k == 12 && strncasecmp(l, "excludesfile", 12) == 0) {
            char *d = ign_strndup(val, vn);
            if (d == NULL) {
                return FRD_ENOMEM;
            }
            frd__free(*excludes);
            *excludes = d;
        }
    }
    return 0;
}

/** Reads a whole file by path into a new buffer. @return 0 or a negative code. */
static int ign_slurp(const char *path, char **buf, size_t *len)
{
    return frd__plat_read_file_at(FRD_INVALID_FD, path, true, IGN_FILE_MAX, buf, len);
}

/** Reads one configuration file, if it is there. @return 0 or FRD_ENOMEM. */
static int ign_config_file(struct frd_ignore *ig, const char *path)
{
    char *text;
    size_t len;
    if (ign_slurp(path, &text, &len) < 0) {
        return 0; // unreadable or absent: git says nothing either for its global files
    }
    int rc = frd__ign_read_config(text, len, &ig->global_excludes, &ig->global_icase);
    frd__free(text);
    return rc;
}

/** `dir` then `rest`, in a new string, or NULL (no memory). */
static char *ign_concat(const char *dir, const char *rest)
{
    size_t a = strlen(dir);
    size_t b = strlen(rest);
    char *p = frd__malloc(a + b + 1);
    if (p != NULL) {
        memcpy(p, dir, a);
        memcpy(p + a, rest, b + 1);
    }
    return p;
}

/** `rest` below $HOME, in a new string, or NULL. */
static char *ign_home_path(const char *rest)
{
    const char *home = getenv("HOME");
    if (home == NULL || *home == '\0') {
        return NULL;
    }
    return ign_concat(home, rest);
}

/** `rest` below $XDG_CONFIG_HOME, else below ~/.config, in a new string, or NULL. */
static char *ign_xdg_path(const char *rest)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    if (xdg == NULL || *xdg == '\0') {
        char tail[64];
        snprintf(tail, sizeof(tail), "/.config%s", rest);
        return ign_home_path(tail);
    }
    return ign_concat(xdg, rest);
}

/** git's global configuration and its global excludes file. @return 0 or FRD_ENOMEM. */
static int ign_git_global(struct frd_ignore *ig)
{
    const char *nosystem = getenv("GIT_CONFIG_NOSYSTEM");
    if (nosystem == NULL || !ign_true(nosystem, strlen(nosystem))) {
        if (ign_config_file(ig, "/etc/gitconfig") < 0) {
            return FRD_ENOMEM;
        }
    }
    char *xdg = ign_xdg_path("/git/config");
    char *home = ign_home_path("/.gitconfig");
    int rc = 0;
    if (xdg != NULL) {
        rc = ign_config_file(ig, xdg);
    }
    if (rc == 0 && home != NULL) {
        rc = ign_config_file(ig, home);
    }
    frd__free(xdg);
    frd__free(home);
    if (rc < 0) {
        return rc;
    }
    char *path = NULL;
    if (ig->global_excludes != NULL && strncmp(ig->global_excludes, "~/", 2) == 0) {
        path = ign_home_path(ig->global_excludes + 1);
    } else if (ig->global_excludes != NULL) {
        path = frd__strdup(ig->global_excludes);
    } else {
        path = ign_xdg_path("/git/ignore");
    }
    if (path != NULL && ign_slurp(path, &ig->global_text, &ig->global_len) < 0) {
        ig->global_text = NULL; // absent or unreadable: left out, as git does
    }
    frd__free(path);
    return 0;
}

int frd_ignore_new(struct frd_ignore **out, unsigned flags)
{
    unsigned known = FRD_IGNORE_GIT | FRD_IGNORE_NO_REQUIRE_GIT | FRD_IGNORE_DOT_IGNORE |
                     FRD_IGNORE_CACHEDIR_TAG | FRD_IGNORE_ICASE;
    if (out == NULL || (flags & ~known) != 0) {
        return FRD_EINVAL;
    }
    struct frd_ignore *ig = frd__calloc(1, sizeof(*ig));
    if (ig == NULL) {
        return FRD_ENOMEM;
    }
    ig->flags = flags;
    if ((flags & FRD_IGNORE_GIT) && ign_git_global(ig) < 0) {
        frd_ignore_free(ig);
        return FRD_ENOMEM;
    }
    *out = ig;
    return 0;
}

void frd_ignore_free(struct frd_ignore *ig)
{
    if (ig == NULL) {
        return;
    }
    for (size_t i = 0; i < ig->nnames; i++) {
        frd__free(ig->names[i]);
    }
    frd__free(ig->names);
    for (size_t i = 0; i < ig->npresent; i++) {
        frd__free(ig->present[i]);
    }
    frd__free(ig->present);
    frd__ign_rules_free(&ig->extra);
    frd__free(ig->global_text);
    frd__free(ig->global_excludes);
    frd__free(ig);
}

/** Appends a copy of a plain file name to a list. @return 0, FRD_EINVAL or FRD_ENOMEM. */
static int ign_add_name(char ***v, size_t *n, size_t *cap, const char *name)
{
    if (name == NULL || *name == '\0' || strchr(name, '/') != NULL || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0) {
        return FRD_EINVAL;
    }
    if (FRD__RESERVE(*v, *cap, *n + 1, 4) < 0) {
        return FRD_ENOMEM;
    }
    char *d = frd__strdup(name);
    if (d == NULL) {
        return FRD_ENOMEM;
    }
    (*v)[(*n)++] = d;
    return 0;
}

int frd_ignore_add_name(struct frd_ignore *ig, const char *name)
{
    return ig == NULL ? FRD_EINVAL : ign_add_name(&ig->names, &ig->nnames, &ig->names_cap, name);
}

int frd_ignore_add_if_present(struct frd_ignore *ig, const char *name)
{
    return ig == NULL ? FRD_EINVAL
                      : ign_add_name(&ig->present, &ig->npresent, &ig->present_cap, name);
}

int frd_ignore_add_pattern(struct frd_ignore *ig, const char *line)
{
    if (ig == NULL || line == NULL || strchr(line, '\n') != NULL) {
        return FRD_EINVAL;
    }
    return frd__ign_parse_line(&ig->extra, line, strlen(line), (ig->flags & FRD_IGNORE_ICASE) != 0);
}

int frd_ignore_add_file(struct frd_ignore *ig, const char *path)
{
    if (ig == NULL || path == NULL) {
        return FRD_EINVAL;
    }
    char *text;
    size_t len;
    int rc = frd__plat_read_file_at(FRD_INVALID_FD, path, true, IGN_FILE_MAX, &text, &len);
    if (rc < 0) {
        return rc;
    }
    size_t before = ig->extra.n;
    rc = frd__ign_parse(&ig->extra, text, len, (ig->flags & FRD_IGNORE_ICASE) != 0);
    frd__free(text);
    if (rc < 0) {
        while (ig->extra.n > before) {
            frd__wm_free(&ig->extra.v[--ig->extra.n].wm);
        }
    }
    return rc;
}
