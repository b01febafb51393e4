// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The children hook (opts.on_children, as fts_children and jwalk's process_read_dir): a
 * directory's listing, names and types only, handed to the caller before any entry is
 * stat'ed or visited, so that it can drop entries, reorder them and mark directories not to
 * be entered; then the survivors are stat'ed relative to the directory's descriptor.
 *
 * With the hook set, each worker's lister lists names only (or the fields opts.children_fields
 * asks for, such as sizes to sort by) and the stat comes after the hook where the visits need
 * more (frd__children_entry()); without it nothing here runs and the listing is as before. The
 * view (struct frd_walk_children) is per worker and reused: an array of indices into the
 * worker's list, in the order the caller wants, and a mark per listed entry.
 */
#include "children.h"

#include "ignore/ignore.h"
#include "report.h"
#include "walk.h"

#include <string.h>

/** Marks of a listed entry. */
enum kid_mark {
    KID_DROP = 1u << 0,       /**< never stat'ed, never visited */
    KID_NO_DESCENT = 1u << 1, /**< visited, not entered */
};

size_t frd_walk_children_count(const struct frd_walk_children *kids)
{
    return kids == NULL ? 0 : kids->count;
}

const struct frd_entry *frd_walk_children_entry(const struct frd_walk_children *kids, size_t i)
{
    if (kids == NULL || i >= kids->count) {
        return NULL;
    }
    return &kids->v[kids->order[i]];
}

int frd_walk_children_drop(struct frd_walk_children *kids, size_t i)
{
    if (kids == NULL || i >= kids->count) {
        return FRD_EINVAL;
    }
    kids->marks[kids->order[i]] |= KID_DROP;
    return 0;
}

int frd_walk_children_skip_descent(struct frd_walk_children *kids, size_t i)
{
    if (kids == NULL || i >= kids->count) {
        return FRD_EINVAL;
    }
    kids->marks[kids->order[i]] |= KID_NO_DESCENT;
    return 0;
}

frd_os_fd frd_walk_children_fd(const struct frd_walk_children *kids)
{
    return kids == NULL ? FRD_INVALID_FD : kids->fd;
}

const char *frd_walk_children_path(struct frd_walk_children *kids, size_t i, size_t *len)
{
    const struct frd_entry *e = frd_walk_children_entry(kids, i);
    if (e == NULL || kids->dir == NULL) {
        return NULL;
    }
    // Joined as the visits' paths are (walker/concurrent/visit.c, walker/ordered/consumer.c).
    const struct frd_walk_entry *dir = kids->dir;
    size_t sep = frd__path_sep(dir->path, dir->path_len);
    size_t n = dir->path_len + sep + e->name_len;
    if (FRD__RESERVE(kids->path, kids->path_cap, n + 1, 256) < 0) {
        return NULL;
    }
    memcpy(kids->path, dir->path, dir->path_len);
    if (sep) {
        kids->path[dir->path_len] = '/';
    }
    memcpy(kids->path + dir->path_len + sep, e->name, e->name_len);
    kids->path[n] = '\0';
    if (len != NULL) {
        *len = n;
    }
    return kids->path;
}

/** Stable merge sort of order[lo, hi) through tmp. */
static void kids_msort(struct frd_walk_children *k, uint32_t *tmp, size_t lo, size_t hi,
                       frd_walk_children_cmp_fn *cmp, void *arg)
{
    if (hi - lo < 2) {
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
    kids_msort(k, tmp, lo, mid, cmp, arg);
    kids_msort(k, tmp, mid, hi, cmp, arg);
    size_t a = lo;
    size_t b = mid;
    size_t o = lo;
    while (a < mid && b < hi) {
        if (cmp(&k->v[k->order[b]], &k->v[k->order[a]], arg) < 0) {
            tmp[o++] = k->order[b++];
        } else {
            tmp[o++] = k->order[a++];
        }
    }
    while (a < mid) {
        tmp[o++] = k->order[a++];
    }
    while (b < hi) {
        tmp[o++] = k->order[b++];
    }
    memcpy(k->order + lo, tmp + lo, (hi - lo) * sizeof(*tmp));
}

int frd_walk_children_sort(struct frd_walk_children *kids, frd_walk_children_cmp_fn *cmp, void *arg)
{
    if (kids == NULL || cmp == NULL) {
        return FRD_EINVAL;
    }
    kids_msort(kids, kids->tmp, 0, kids->count, cmp, arg);
    return 0;
}

int frd_walk_children_sort_range(struct frd_walk_children *kids, size_t first, size_t count,
                                 frd_walk_children_cmp_fn *cmp, void *arg)
{
    if (kids == NULL || cmp == NULL || first > kids->count || count > kids->count - first) {
        return FRD_EINVAL;
    }
    kids_msort(kids, kids->tmp, first, first + count, cmp, arg);
    return 0;
}

unsigned frd_walk_children_part(const struct frd_walk_children *kids)
{
    return kids == NULL ? 0 : kids->part;
}

/** Sizes a view `k` for `n` entries: its three arrays grow together, to one capacity.
 *  @return 0 or FRD_ENOMEM. */
static int kids_reserve(struct frd_walk_children *k, size_t n)
{
    if (n <= k->cap) {
        return 0;
    }
    if (n > UINT32_MAX) {
        return FRD_ENOMEM;
    }
    size_t cap_order = k->cap;
    size_t cap_tmp = k->cap;
    size_t cap_marks = k->cap;
    if (FRD__RESERVE(k->order, cap_order, n, 256) < 0 ||
        FRD__RESERVE(k->tmp, cap_tmp, n, 256) < 0 ||
        FRD__RESERVE(k->marks, cap_marks, n, 256) < 0) {
        return FRD_ENOMEM; // those grown keep their room: the next call grows them again
    }
    FRD_ASSERT(cap_order == cap_tmp && cap_tmp == cap_marks); // one doubling for all three
    k->cap = cap_order;
    return 0;
}

void frd__children_view_free(struct frd_walk_children *k)
{
    frd__free(k->order);
    frd__free(k->tmp);
    frd__free(k->marks);
    frd__free(k->path);
    frd__free(k->ign_buf);
    memset(k, 0, sizeof(*k));
}

int frd__children_run(struct frd__worker *w, struct frd__wnode *node,
                      const struct frd_walk_entry *dir, frd_os_fd fd)
{
    return frd__children_run_part(w, node, &w->kids, w->list, dir, fd,
                                  FRD_CHILDREN_FIRST | FRD_CHILDREN_LAST);
}

/** Where the ignore rules report a rule file they could not read. */
struct kids_ign_report {
    struct frd__worker *w;
    unsigned depth;
};

static void kids_ign_report(void *ctx, const char *path, int code)
{
    struct kids_ign_report *r = ctx;
    (void)frd__report(r->w, path, FRD__FAIL_OPEN, code, r->depth);
}

/**
 * The ignore rules over the view: on the first part, the directory's rules (its files read
 * relative to fd); on every part, the ignored entries dropped, never stat'ed.
 * @return 0 or FRD_ENOMEM.
 */
static int kids_ignore(struct frd__worker *w, struct frd__wnode *node, struct frd_walk_children *k,
                       const struct frd_list *list, const struct frd_walk_entry *dir, frd_os_fd fd,
                       unsigned part)
{
    const struct frd_ignore *ig = w->walk->opts.ignore;
    size_t sep = frd__path_sep(dir->path, dir->path_len);
    if (part & FRD_CHILDREN_FIRST) {
        bool whole = (part & FRD_CHILDREN_LAST) != 0;
        struct kids_ign_report rep = {.w = w, .depth = node->depth + 1};
        struct frd__ign_dir d;
        int rc = frd__ign_enter(ig, node->parent != NULL ? node->parent->ign : NULL, fd, dir->path,
                                dir->path_len, sep, whole ? k->v : NULL,
                                whole ? frd_list_count(list) : 0, kids_ign_report, &rep, &d);
        if (rc < 0) {
            return rc;
        }
        node->ign = d.level;
        node->ign_own = d.owned;
        node->ign_drop_all = d.drop_all;
    }
    for (size_t i = 0; i < k->count; i++) {
        const struct frd_entry *e = &k->v[k->order[i]];
        if (node->ign_drop_all) {
            k->marks[k->order[i]] |= KID_DROP;
            continue;
        }
        size_t n = dir->path_len + sep + e->name_len;
        if (FRD__RESERVE(k->path, k->path_cap, n + 1, 256) < 0) {
            return FRD_ENOMEM;
        }
        memcpy(k->path, dir->path, dir->path_len);
        if (sep) {
            k->path[dir->path_len] = '/';
        }
        memcpy(k->path + dir->path_len + sep, e->name, e->name_len);
        k->path[n] = '\0';
        if (frd__ign_ignored(ig, node->ign, k->path, n, dir->path_len + sep,
                             e->type == FRD_TYPE_DIR, &k->ign_buf, &k->ign_cap)) {
            k->marks[k->order[i]] |= KID_DROP;
        }
    }
    return 0;
}

/** Keeps the entries not marked KID_DROP, in the view's order. */
static void kids_compact(struct frd_walk_children *k)
{
    size_t m = 0;
    for (size_t i = 0; i < k->count; i++) {
        if (!(k->marks[k->order[i]] & KID_DROP)) {
            k->order[m++] = k->order[i];
        }
    }
    k->count = m;
}

int frd__children_run_part(struct frd__worker *w, struct frd__wnode *node,
                           struct frd_walk_children *k, const struct frd_list *list,
                           const struct frd_walk_entry *dir, frd_os_fd fd, unsigned part)
{
    struct frd_walk *walk = w->walk;
    size_t n = frd_list_count(list);
    if (kids_reserve(k, n) < 0) {
        return FRD_ENOMEM;
    }
    k->v = frd_list_entries(list);
    k->fd = fd;
    k->part = part;
    k->dir = dir;
    // Hidden entries the walk skips anyway never reach the hook.
    bool hidden = (walk->opts.flags & FRD_WALK_SKIP_HIDDEN) != 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!hidden || k->v[i].name[0] != '.') {
            k->order[m++] = (uint32_t)i;
        }
    }
    k->count = m;
    if (n > 0) {
        memset(k->marks, 0, n); // marks is NULL until a listing has had entries
    }
    if (walk->opts.ignore != NULL) {
        int rc = kids_ignore(w, node, k, list, dir, fd, part);
        if (rc < 0) {
            k->fd = FRD_INVALID_FD;
            k->dir = NULL;
            return rc;
        }
        kids_compact(k); // the hook sees the survivors only
    }
    if (walk->opts.on_children != NULL && frd__cb_enter(w)) {
        walk->opts.on_children(dir, k, walk->hooks.udata);
        frd__cb_leave(w);
    }
    kids_compact(k); // the survivors, in the caller's order
    k->fd = FRD_INVALID_FD;
    k->dir = NULL;
    return 0;
}

bool frd__children_entry(struct frd__worker *w, size_t i, frd_os_fd fd, struct frd_entry *out,
                         bool *no_descent)
{
    return frd__children_entry_in(w->walk, &w->kids, i, fd, out, no_descent);
}

bool frd__children_entry_in(struct frd_walk *walk, const struct frd_walk_children *k, size_t i,
                            frd_os_fd fd, struct frd_entry *out, bool *no_descent)
{
    const struct frd_entry *e = &k->v[k->order[i]];
    *no_descent = (k->marks[k->order[i]] & KID_NO_DESCENT) != 0;
    if (walk->plan.names_only || walk->plan.children_complete || e->error < 0) {
        *out = *e;
        return true; // the listing already holds all that was asked
    }
    return frd__entry_stat_late(walk, e, fd, out);
}

bool frd__entry_stat_late(struct frd_walk *walk, const struct frd_entry *e, frd_os_fd fd,
                          struct frd_entry *out)
{
    *out = *e;
    if (e->error < 0) {
        return true;
    }
    if (frd__test_before_stat != NULL) {
        frd__test_before_stat(fd, e->name);
    }
    struct frd_entry st;
    memset(&st, 0, sizeof(st));
    int rc = frd__plat_stat_fields(fd, e->name, false, walk->plan.fields, &st);
    if (rc == FRD_ENOENT) {
        return false; // removed since the listing: left out, as a listing leaves it out
    }
    if (rc < 0) {
        out->error = rc; // name and type only, as a listing keeps an entry it cannot stat
        return true;
    }
    st.name = e->name;
    st.name_len = e->name_len;
    *out = st;
    return true;
}
