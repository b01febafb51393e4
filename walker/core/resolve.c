// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Resolving an entry before its visit, shared by both modes: a followed link's target,
 * volume classes, loops (by identity, or by canonical path on untrusted volumes),
 * visit-once dedupe, whether to descend, the child node; and a directory's identity and
 * class once it is opened, and a root's stat.
 */
#include "resolve.h"

#include "identity.h"

#include <stddef.h>
#include <string.h>

/** How many times a whole path's stat is asked before its ELOOP is believed. */
#define FRD__LINK_COUNT_TRIES 8

/** The canonical path of the directory `fd`, in the worker's scratch (valid until its next
 *  use), or NULL if the platform cannot tell or memory ran out. */
static const char *wn_canon_path(struct frd__worker *w, frd_os_fd fd)
{
    int n;
    while ((n = frd__plat_fd_path(fd, w->canon, w->canon_cap)) == FRD_ENAMETOOLONG) {
        if (frd__grow(&w->canon, &w->canon_cap, w->canon_cap * 2 + 256) < 0) {
            return NULL;
        }
    }
    return n >= 0 ? w->canon : NULL;
}

/** Volume class of the directory `fd` on device `dev` (cached per worker and per walk). */
static enum frd__vol_class wn_volume_class(struct frd__worker *w, frd_os_fd fd, uint64_t dev)
{
    if (w->last_class >= 0 && w->last_dev == dev) {
        return (enum frd__vol_class)w->last_class;
    }
    int cls = frd__volcache_get(w->walk->ids.volumes, dev);
    if (cls < 0) {
        enum frd__vol_class c;
        if (fd == FRD_INVALID_FD || frd__plat_volume_class(fd, &c) < 0) {
            return FRD__VOL_UNTRUSTED; // cannot tell now; not cached
        }
        frd__volcache_put(w->walk->ids.volumes, dev, c);
        cls = (int)c;
    }
    w->last_dev = dev;
    w->last_class = cls;
    return (enum frd__vol_class)cls;
}

/** Volume class of an entry (`name`, of `type`) on another device than its directory (a
 *  mount point). */
static enum frd__vol_class wn_entry_class(struct frd__worker *w, frd_os_fd dirfd, const char *name,
                                          enum frd_type type, uint64_t dev, bool follow)
{
    int cls = frd__volcache_get(w->walk->ids.volumes, dev);
    if (cls >= 0) {
        return (enum frd__vol_class)cls;
    }
    if (type != FRD_TYPE_DIR) {
        return FRD__VOL_UNTRUSTED;
    }
    frd_os_fd fd;
    if (frd__plat_open_dir(dirfd, name, follow ? 0 : FRD_OPEN_NOFOLLOW, &fd) < 0) {
        return FRD__VOL_UNTRUSTED;
    }
    enum frd__vol_class c = wn_volume_class(w, fd, dev);
    frd__plat_close_dir(fd);
    return c;
}

/**
 * Would the OS refuse the path of `e`, a link in `dir` whose path crosses a link already,
 * for crossing too many (Linux: more than 40)? The walk reaches each directory by
 * descriptor, a link at a time, and never meets that limit itself; find -L and du -L stat
 * the whole path and do (1/s -> ../2, 2/s -> ../3, ...: coreutils' long-sloop test). So the
 * OS is asked about the whole path, counting every link on it as it counts them: this stat
 * only asks; the entry is still read by descriptor. A path it cannot take for another reason
 * (too long) is not refused here.
 */
static bool wn_too_many_links(struct frd__worker *w, struct frd__wnode *dir,
                              const struct frd_entry *e)
{
    size_t len;
    if (frd__wnode_path(dir, &w->canon, &w->canon_cap, &len) < 0) {
        return false;
    }
    size_t sep = frd__path_sep(w->canon, len);
    if (frd__grow(&w->canon, &w->canon_cap, len + sep + e->name_len + 1) < 0) {
        return false;
    }
    if (sep) {
        w->canon[len] = '/';
    }
    memcpy(w->canon + len + sep, e->name, e->name_len + 1);
    // Linux counts the links that a lookup crossed in RCU mode again when it restarts the
    // lookup (a mount or rename elsewhere during it), so a path can fail early, never late:
    // a refusal is asked again before it is believed, so the walk does not depend on what
    // else the machine does (find -L does not ask again, and can stop early under load).
    int rc = 0;
    for (int tries = 0; tries < FRD__LINK_COUNT_TRIES; tries++) {
        struct frd_entry t;
        memset(&t, 0, sizeof(t));
        rc = frd__plat_stat_fields(FRD_INVALID_FD, w->canon, true, FRD_FIELD_TYPE, &t);
        if (rc != FRD_ELOOP) {
            break;
        }
    }
    return rc == FRD_ELOOP;
}

/**
 * Follows a link entry `e` of `dir` (FRD_FOLLOW_ALL): its target's stat replaces the entry.
 * A link to itself (or a chain too long, or a path through too many links) is an error and
 * is not visited, as find -L does; any other failure leaves the link reported as a link.
 * @return false to skip it (a loop).
 */
static bool wn_follow(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd,
                      const struct frd_entry *e, struct frd__resolved *r)
{
    struct frd_entry t;
    memset(&t, 0, sizeof(t));
    int rc = frd__plat_stat_fields(fd, e->name, true, w->walk->plan.fields | FRD__ID_FIELDS, &t);
    if ((rc == 0 || rc == FRD_ENOENT) && r->path_has_link && wn_too_many_links(w, dir, e)) {
        rc = FRD_ELOOP; // as the stat of the whole path fails (before a missing name, too)
    }
    if (rc == 0) {
        r->path_has_link = true;
        t.name = e->name;
        t.name_len = e->name_len;
        r->own = t;
        r->entry = &r->own;
        r->followed = true;
    } else if (rc != FRD_ENOENT) {
        r->err = rc;
        r->err_op = FRD__FAIL_STAT;
        return rc != FRD_ELOOP;
    }
    return true;
}

/**
 * A subdirectory listed without ids, where a directory may repeat an ancestor (links
 * followed, or mounts that can cycle): one stat of its identity, as fts pays for each
 * directory, so that it is checked before it is visited. Where the process may lack search
 * permission, the first subdirectory's stat tells whether `dir` can be searched; if not,
 * each fails as find's stat fails: reported once, visited with entry->error set (its type
 * unknown to find), not descended.
 */
static void wn_stat_dir_id(struct frd__wnode *dir, frd_os_fd fd, const struct frd_entry *e,
                           struct frd__resolved *r)
{
    struct frd_entry t;
    memset(&t, 0, sizeof(t));
    int rc = frd__plat_stat_fields(fd, e->name, r->followed, FRD__ID_FIELDS, &t);
    if (rc == 0 && t.type == FRD_TYPE_DIR && (t.fields & FRD__ID_FIELDS) == FRD__ID_FIELDS) {
        r->id.dev = t.dev;
        r->id.ino = t.file_id;
        r->has_id = true;
    }
    if (rc == 0 && dir->search == WN_SEARCH_UNKNOWN) {
        dir->search = WN_SEARCH_YES;
    } else if (rc == FRD_EACCES || rc == FRD_EPERM) {
        dir->search = WN_SEARCH_NO;
        if (r->entry != &r->own) {
            r->own = *r->entry;
            r->entry = &r->own;
        }
        r->own.error = rc;
        r->err = rc;
        r->err_op = FRD__FAIL_STAT;
    }
}

int frd__resolve_look(struct frd__worker *w, struct frd__wnode *dir, frd_os_fd fd,
                      enum frd__vol_class dir_class, bool dedupe, struct frd__resolved *r)
{
    struct frd_walk *walk = w->walk;
    const struct frd_entry *e = r->entry;
    if (walk->opts.follow == FRD_FOLLOW_ALL && e->type == FRD_TYPE_LNK &&
        !wn_follow(w, dir, fd, e, r)) {
        return RESOLVE_SKIP;
    }
    const struct frd_entry *x = r->entry;
    bool is_dir = x->type == FRD_TYPE_DIR;
    if ((x->fields & FRD__ID_FIELDS) == FRD__ID_FIELDS) {
        r->id.dev = x->dev;
        r->id.ino = x->file_id;
        r->has_id = true;
    } else if (is_dir && x->error >= 0 &&
               (walk->plan.stat_dir_ids ||
                (walk->plan.probe_search && dir->search != WN_SEARCH_YES))) {
        wn_stat_dir_id(dir, fd, e, r);
    }
    r->id.subvol = 0;
    enum frd__vol_class cls = dir_class;
    if (r->has_id) {
        if (r->id.dev != dir->id.dev || !(dir->flags & WN_HAS_ID)) {
            cls = wn_entry_class(w, fd, e->name, x->type, r->id.dev, r->followed);
        }
        r->persistent = cls == FRD__VOL_STRONG;
    }
    if (is_dir && (r->followed || cls != FRD__VOL_UNTRUSTED)) {
        // Every directory is compared with its ancestors, as fts does: a followed link, a
        // bind mount of an ancestor below itself, a real directory that repeats an ancestor
        // reached through a link. On an untrusted volume only a followed link is compared,
        // by canonical path: its ids may be invented.
        if (r->followed && cls == FRD__VOL_UNTRUSTED) {
            frd_os_fd tfd;
            if (frd__plat_open_dir(fd, e->name, 0, &tfd) == 0) {
                r->canon = wn_canon_path(w, tfd);
                frd__plat_close_dir(tfd);
            }
        }
        if (r->canon != NULL || r->has_id) {
            r->loop = frd__find_loop(&walk->ids.deep, dir, &r->id, r->canon);
            if (r->loop != NULL) {
                r->err = FRD_ELOOP;
                r->err_op = FRD__FAIL_LOOP;
                return RESOLVE_SKIP;
            }
        }
    }
    if (dedupe && frd__is_duplicate(walk, r)) {
        return RESOLVE_SKIP;
    }
    x = r->entry; // own, if a stat above set its error
    if (walk->plan.names_only && (x->fields & ~(unsigned)FRD_FIELD_TYPE) != 0) {
        // Names-only walks report names and types, also for a followed link's target. An
        // entry listed with no more (entries start zeroed) is seen as it is, not copied.
        struct frd_entry slim = {.name = x->name, .name_len = x->name_len, .type = x->type};
        slim.fields = x->fields & FRD_FIELD_TYPE;
        slim.error = x->error;
        r->own = slim;
        r->entry = &r->own;
    }
    return RESOLVE_VISIT;
}

bool frd__is_duplicate(struct frd_walk *walk, const struct frd__resolved *r)
{
    // Visit each file or directory once: only where ids are strong (weak ids may be reused
    // once unpinned, and FAT has no hard links; untrusted ids mean nothing).
    if (!r->has_id || !r->persistent || walk->ids.seen == NULL) {
        return false;
    }
    bool is_dir = r->entry->type == FRD_TYPE_DIR;
    if ((is_dir && (walk->opts.flags & FRD_WALK_UNIQUE_DIRS)) ||
        (!is_dir && (walk->opts.flags & FRD_WALK_UNIQUE_FILES) && r->entry->nlink > 1)) {
        return frd__idset_insert(walk->ids.seen, &r->id) == 0;
    }
    return false;
}

bool frd__may_descend_dir(struct frd_walk *walk, const struct frd__wnode *dir,
                          const struct frd__resolved *r)
{
    FRD_ASSERT(r->entry->type == FRD_TYPE_DIR);
    if (r->entry->error < 0) {
        // Its stat failed (a directory that can be read but not searched): that failure was
        // reported once; opening it would only fail again (find does not descend either).
        return false;
    }
    if (walk->opts.max_depth >= 0 && (int)dir->depth + 1 >= walk->opts.max_depth) {
        return false;
    }
    if ((walk->opts.flags & FRD_WALK_ONE_FILE_SYSTEM) && r->has_id && r->id.dev != dir->root_dev) {
        return false;
    }
    return true;
}

/** Makes the node of a subdirectory to descend into. */
struct frd__wnode *frd__child_node(struct frd__worker *w, struct frd__wnode *dir,
                                   const struct frd__resolved *r)
{
    struct frd__wnode *c = frd__wnode_new(w, dir, r->entry->name, r->entry->name_len);
    if (c == NULL) {
        return NULL;
    }
    c->entry = *r->entry;
    c->entry.name = c->name;
    c->persistent_ids = r->persistent;
    if (r->path_has_link) {
        c->flags |= WN_PATH_HAS_LINK;
    }
    if (r->followed) {
        c->flags |= WN_VIA_LINK;
    }
    if (r->has_id) {
        c->id = r->id;
        c->flags |= WN_HAS_ID;
        frd__deep_dirs_add(&w->walk->ids.deep, c);
    }
    if (r->canon != NULL) {
        c->canon = frd__strdup(r->canon);
    }
    return c;
}

/**
 * After opening a directory: its identity where the walk needs it, and its volume class.
 * @return 0, or a negative code (FRD_ECHANGED) if it must not be listed.
 */
int frd__dir_opened(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                    enum frd__vol_class *cls)
{
    struct frd_walk *walk = w->walk;
    if (!(node->flags & WN_HAS_ID) &&
        (walk->plan.need_dir_ids || walk->plan.need_parent_ids || (node->flags & WN_ROOT))) {
        int rc = frd__plat_fd_identity(fd, &node->id);
        if (rc < 0) {
            return rc;
        }
        node->flags |= WN_HAS_ID;
        frd__deep_dirs_add(&walk->ids.deep, node);
    }
    if (node->flags & WN_ROOT) {
        node->root_dev = node->id.dev;
    }
    *cls = FRD__VOL_UNTRUSTED;
    if (node->flags & WN_HAS_ID) {
        *cls = wn_volume_class(w, fd, node->id.dev);
        if (node->flags & WN_ROOT) {
            node->persistent_ids = *cls == FRD__VOL_STRONG && !walk->plan.names_only;
        }
        if (*cls == FRD__VOL_UNTRUSTED && walk->opts.follow == FRD_FOLLOW_ALL &&
            node->canon == NULL) {
            // Loops on this volume are found by path: remember this directory's.
            const char *canon = wn_canon_path(w, fd);
            if (canon != NULL) {
                node->canon = frd__strdup(canon);
            }
        }
        if ((walk->opts.flags & FRD_WALK_ONE_FILE_SYSTEM) && node->id.dev != node->root_dev) {
            return FRD_EXDEV; // names-only: seen only now; visited, not descended
        }
    }
    return 0;
}
