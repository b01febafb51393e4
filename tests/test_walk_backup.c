// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of what a backup scanner leans on (issue 36): the worker count a walk runs
 * (FRD_WALK_MAX_WORKERS, frd_walk_options_workers(), frd_walk_workers()), the post-order
 * guarantee a roll-up needs, per-directory states in the children hook of both modes, and
 * the current path in progress reports. FRD_TEST_WORKERS sets the worker count (ctest runs
 * the file at 1, 2 and 8).
 */
#include "tree.h"
#include "walk_common.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/xattr.h>
#include <time.h>

static char *tree; // the generated tree plus a deeper chain, made once for the group

static int group_setup(void **state)
{
    (void)state;
    tree = walk_tree_make();
    char rel[64] = "deep";
    tree_dir(tree, rel);
    for (int i = 0; i < 6; i++) {
        size_t n = strlen(rel);
        snprintf(rel + n, sizeof(rel) - n, "/%c", 'a' + i);
        tree_dir(tree, rel);
        char f[80];
        snprintf(f, sizeof(f), "%s/file", rel);
        tree_file(tree, f, (size_t)i);
    }
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    tree_remove(tree);
    return 0;
}

static unsigned flags_of(int ordered)
{
    return ordered ? FRD_WALK_ORDERED : 0;
}

/* ---- Worker counts ---- */

struct count_ctx {
    unsigned bound;
    atomic_uint max_seen;
    atomic_int over;
};

static enum frd_action count_visit(const struct frd_walk_entry *we, void *udata)
{
    struct count_ctx *c = udata;
    if (we->worker >= c->bound) {
        atomic_fetch_add(&c->over, 1);
    }
    unsigned seen = atomic_load(&c->max_seen);
    while (we->worker > seen && !atomic_compare_exchange_weak(&c->max_seen, &seen, we->worker)) {
    }
    return FRD_ACTION_CONTINUE;
}

/**
 * The count is known before the walk and from a started walk, equal; every callback's index
 * is below it, at the test's count and at 16 (more than the 8 of the default: the array of
 * 8 a user sized from the old frd.h overflowed there), and FRD_WALK_MAX_WORKERS is the cap.
 */
static void test_walk_worker_count_known_and_bounds_indices(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.workers = FRD_WALK_MAX_WORKERS + 1;
    assert_int_equal(frd_walk_options_workers(&o), FRD_EINVAL);
    assert_int_equal(frd_walk(tree, &o, count_visit, NULL), FRD_EINVAL);
    o.workers = 0;
    int dflt = frd_walk_options_workers(&o);
    assert_true(dflt >= 1 && dflt <= 8);
    assert_int_equal(frd_walk_options_workers(NULL), dflt);
    o.workers = FRD_WALK_MAX_WORKERS;
    int most = frd_walk_options_workers(&o);
    assert_true(most >= 1 && most <= (int)FRD_WALK_MAX_WORKERS);
    assert_int_equal(frd_walk_workers(NULL), 0);
    unsigned counts[] = {test_workers(), 16};
    for (int ordered = 0; ordered < 2; ordered++) {
        for (size_t k = 0; k < 2; k++) {
            walk_opts(&o, flags_of(ordered));
            o.workers = counts[k];
            int n = frd_walk_options_workers(&o);
            assert_int_equal(n, (int)counts[k]); // the descriptor budget allows them here
            struct count_ctx c = {.bound = (unsigned)n};
            const char *roots[] = {tree};
            struct frd_walk *walk;
            assert_int_equal(frd_walk_start(&walk, roots, 1, &o, count_visit, &c), 0);
            assert_int_equal(frd_walk_workers(walk), (unsigned)n);
            assert_int_equal(frd_walk_join(walk), 0);
            assert_int_equal(atomic_load(&c.over), 0);
        }
    }
}

/* ---- Post-order ---- */

/** A directory's state: its parent's, what is still open below it, and a roll-up. */
struct po_state {
    struct po_state *parent;
    atomic_int open_children; /**< subdirectories visited whose post-order has not returned */
    atomic_ulong below;       /**< entries below it, summed by the roll-up */
    unsigned long own;        /**< its own entries (totals.entries) */
};

struct po_ctx {
    atomic_int violations;   /**< a post-order call that ran before a subdirectory's returned */
    atomic_int posts;        /**< post-order calls */
    atomic_int dirs;         /**< directories visited */
    atomic_ulong visits;     /**< entries visited below the root */
    atomic_ulong root_below; /**< the root's roll-up, read in its own post-order call */
    atomic_int frees;
};

static enum frd_action po_visit(const struct frd_walk_entry *we, void *udata)
{
    struct po_ctx *c = udata;
    if (!we->is_root) {
        atomic_fetch_add(&c->visits, 1);
    }
    if (we->entry->type != FRD_TYPE_DIR || we->dir_state == NULL) {
        return FRD_ACTION_CONTINUE;
    }
    atomic_fetch_add(&c->dirs, 1);
    struct po_state *s = calloc(1, sizeof(*s));
    assert_non_null(s);
    s->parent = we->parent_state;
    if (s->parent != NULL) {
        atomic_fetch_add(&s->parent->open_children, 1);
    }
    *we->dir_state = s;
    return FRD_ACTION_CONTINUE;
}

static void po_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *totals,
                    void *udata)
{
    struct po_ctx *c = udata;
    atomic_fetch_add(&c->posts, 1);
    struct po_state *s = *dir->dir_state;
    if (atomic_load(&s->open_children) != 0) {
        atomic_fetch_add(&c->violations, 1);
    }
    // Widen the window a late parent call would fall into (no timing is asserted).
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
    unsigned long sum = atomic_load(&s->below) + totals->entries;
    if (s->parent != NULL) {
        atomic_fetch_add(&s->parent->below, sum);
        atomic_fetch_sub(&s->parent->open_children, 1); // last: this call has returned next
    } else {
        atomic_store(&c->root_below, sum);
    }
}

static void po_free(void *state, void *udata)
{
    struct po_ctx *c = udata;
    atomic_fetch_add(&c->frees, 1);
    free(state);
}

/**
 * A directory's post-order call starts after its subdirectories' have returned, in both
 * modes: the roll-up of each directory's own entries into its parent's state (no lock of
 * the caller's) sums to every entry below the root.
 */
static void test_walk_post_order_children_before_parent(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        for (int round = 0; round < 3; round++) {
            struct frd_walk_options o;
            walk_opts(&o, flags_of(ordered));
            o.on_dir_done = po_done;
            o.on_dir_state_free = po_free;
            struct po_ctx c = {0};
            assert_int_equal(frd_walk(tree, &o, po_visit, &c), 0);
            assert_int_equal(atomic_load(&c.violations), 0);
            assert_int_equal(atomic_load(&c.posts), atomic_load(&c.dirs));
            assert_int_equal(atomic_load(&c.frees), atomic_load(&c.dirs));
            assert_true(atomic_load(&c.dirs) > 20);
            assert_int_equal(atomic_load(&c.root_below), atomic_load(&c.visits));
        }
    }
}

/* ---- States in the children hook ---- */

/** A hook's state: the directory's path. */
struct hk_state {
    char path[4096];
};

struct hk_ctx {
    atomic_int hooks;
    atomic_int bad; /**< a parent_state that is not the parent's */
    atomic_int stored;
    atomic_int frees;
};

static void hk_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                        void *udata)
{
    (void)kids;
    struct hk_ctx *c = udata;
    atomic_fetch_add(&c->hooks, 1);
    const struct hk_state *p = dir->parent_state;
    if (dir->is_root) {
        if (p != NULL) {
            atomic_fetch_add(&c->bad, 1);
        }
    } else {
        size_t plen = p != NULL ? strlen(p->path) : 0;
        if (p == NULL || strncmp(dir->path, p->path, plen) != 0 || dir->path[plen] != '/' ||
            strchr(dir->path + plen + 1, '/') != NULL) {
            atomic_fetch_add(&c->bad, 1);
        }
    }
    if (dir->dir_state == NULL || *dir->dir_state != NULL) {
        atomic_fetch_add(&c->bad, 1);
        return;
    }
    struct hk_state *s = calloc(1, sizeof(*s));
    assert_non_null(s);
    snprintf(s->path, sizeof(s->path), "%s", dir->path);
    *dir->dir_state = s;
    atomic_fetch_add(&c->stored, 1);
}

static void hk_free(void *state, void *udata)
{
    struct hk_ctx *c = udata;
    atomic_fetch_add(&c->frees, 1);
    free(state);
}

static enum frd_action hk_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)we;
    (void)udata;
    return FRD_ACTION_CONTINUE;
}

/**
 * The children hook keeps a per-directory stack in both modes: it stores a state in
 * *dir_state and each subdirectory's hook sees it as parent_state (ordered: the hooks'
 * own chain, NULL before this fix); each state is released once.
 */
static void test_walk_children_hook_states_both_modes(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, flags_of(ordered));
        o.on_children = hk_children;
        o.on_dir_state_free = hk_free;
        struct hk_ctx c = {0};
        assert_int_equal(frd_walk(tree, &o, hk_visit, &c), 0);
        assert_true(atomic_load(&c.hooks) > 20);
        assert_int_equal(atomic_load(&c.bad), 0);
        assert_int_equal(atomic_load(&c.stored), atomic_load(&c.hooks));
        assert_int_equal(atomic_load(&c.frees), atomic_load(&c.stored));
    }
}

/* ---- Link targets ---- */

struct lk_ctx {
    bool want;          /**< FRD_WALK_LINK_TARGETS set */
    atomic_int links;   /**< links visited */
    atomic_int long_ok; /**< the long target seen whole */
    atomic_int bad;
};

static enum frd_action lk_visit(const struct frd_walk_entry *we, void *udata)
{
    struct lk_ctx *c = udata;
    if (we->entry->type != FRD_TYPE_LNK) {
        if (we->link_target != NULL || we->link_target_len != 0) {
            atomic_fetch_add(&c->bad, 1);
        }
        return FRD_ACTION_CONTINUE;
    }
    atomic_fetch_add(&c->links, 1);
    if (!c->want) {
        if (we->link_target != NULL) {
            atomic_fetch_add(&c->bad, 1);
        }
        return FRD_ACTION_CONTINUE;
    }
    char buf[8192]; // read by path here, in the test only (the walk never does)
    ssize_t n = readlink(we->path, buf, sizeof(buf));
    if (n < 0 || we->link_target == NULL || (size_t)n != we->link_target_len ||
        memcmp(buf, we->link_target, (size_t)n) != 0 || we->link_target[n] != '\0') {
        atomic_fetch_add(&c->bad, 1);
    } else if (n > 3000) {
        atomic_fetch_add(&c->long_ok, 1);
    }
    return FRD_ACTION_CONTINUE;
}

/** Any error is unexpected in the link-target walks: counted as bad (the walk goes on). */
static enum frd_action lk_error(const struct frd_walk_error *err, void *udata)
{
    (void)err;
    atomic_fetch_add(&((struct lk_ctx *)udata)->bad, 1);
    return FRD_ACTION_CONTINUE;
}

/**
 * FRD_WALK_LINK_TARGETS: every link's target equals readlink(2) of its path (a target of
 * 4,000 bytes, dangling links and a root given as a link included), in both modes, with
 * FRD_WALK_NO_PARENT_FD asked too; nothing for other entries or without the flag.
 */
static void test_walk_link_targets_equal_readlink(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "d");
    tree_file(root, "d/f", 3);
    char target[4001];
    memset(target, 'x', sizeof(target) - 1);
    target[sizeof(target) - 1] = '\0';
    for (size_t i = 200; i < sizeof(target) - 1; i += 200) {
        target[i] = '/'; // components under NAME_MAX, 4,000 bytes in all
    }
    tree_symlink(root, target, "d/long");
    tree_symlink(root, "f", "d/short");
    tree_symlink(root, "/nonexistent/target", "dangling");
    tree_symlink(root, "d", "dirlink");
    char *rootlink = tree_path(root, "dirlink");
    for (int ordered = 0; ordered < 2; ordered++) {
        for (int want = 0; want < 2; want++) {
            struct frd_walk_options o;
            walk_opts(&o, flags_of(ordered) | FRD_WALK_NO_PARENT_FD |
                              (want ? FRD_WALK_LINK_TARGETS : 0));
            o.on_error = lk_error; // its udata is the walk's: a struct lk_ctx
            struct lk_ctx c = {.want = want};
            assert_int_equal(frd_walk(root, &o, lk_visit, &c), 0);
            assert_int_equal(atomic_load(&c.links), 4);
            assert_int_equal(atomic_load(&c.bad), 0);
            assert_int_equal(atomic_load(&c.long_ok), want ? 1 : 0);
            // A root given as a link, not followed: visited as a link, with its target.
            struct lk_ctx r = {.want = want};
            assert_int_equal(frd_walk(rootlink, &o, lk_visit, &r), 0);
            assert_int_equal(atomic_load(&r.links), 1);
            assert_int_equal(atomic_load(&r.bad), 0);
        }
    }
    free(rootlink);
    tree_remove(root);
}

/* ---- Extended attributes ---- */

struct xa_ctx {
    struct recs recs;   /**< "path\tname=0xhex", or "path\tname\ttoo_long\tsize" */
    struct recs errors; /**< "path\top\tcode" */
};

/** The record of one attribute as this test writes it for either side. */
static void xa_record(struct recs *r, const char *path, const char *name, const uint8_t *value,
                      size_t len, bool too_long)
{
    size_t cap = strlen(path) + strlen(name) + 2 * len + 64;
    char *buf = malloc(cap);
    assert_non_null(buf);
    int n = too_long ? snprintf(buf, cap, "%s\t%s\ttoo_long\t%zu", path, name, len)
                     : snprintf(buf, cap, "%s\t%s=0x", path, name);
    assert_true(n > 0 && (size_t)n < cap);
    for (size_t i = 0; !too_long && value != NULL && i < len; i++) {
        n += snprintf(buf + n, cap - (size_t)n, "%02x", value[i]);
    }
    recs_add(r, buf, (size_t)n);
    free(buf);
}

static enum frd_action xa_visit(const struct frd_walk_entry *we, void *udata)
{
    struct xa_ctx *c = udata;
    if ((we->xattrs == NULL) != (we->xattr_count == 0)) {
        recs_add(&c->errors, "xattrs and xattr_count disagree", 31);
        return FRD_ACTION_CONTINUE;
    }
    for (size_t i = 0; i < we->xattr_count; i++) {
        const struct frd_xattr *x = &we->xattrs[i];
        if (strlen(x->name) != x->name_len || (x->too_long && x->value != NULL) ||
            (!x->too_long && x->value_len > 0 && x->value == NULL)) {
            recs_add(&c->errors, x->name, x->name_len);
        }
        xa_record(&c->recs, we->path, x->name, x->value, x->value_len, x->too_long);
    }
    return FRD_ACTION_CONTINUE;
}

static enum frd_action xa_error(const struct frd_walk_error *err, void *udata)
{
    struct xa_ctx *c = udata;
    char buf[4096];
    int n = snprintf(buf, sizeof(buf), "%s\t%s\t%s", err->path, err->op, frd_err_name(err->code));
    recs_add(&c->errors, buf, (size_t)n);
    return FRD_ACTION_CONTINUE;
}

/** getfattr's view of `root` as records, values over `max` bytes as too_long. */
static void xa_getfattr(const char *root, size_t max, struct recs *out)
{
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "getfattr -R -d -m - -h --absolute-names -e hex '%s' 2>/dev/null",
             root);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    char path[4096] = "";
    uint8_t *val = malloc(70000);
    assert_non_null(val);
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n') {
            line[--n] = '\0';
        }
        if (strncmp(line, "# file: ", 8) == 0) {
            snprintf(path, sizeof(path), "%s", line + 8);
            continue;
        }
        char *eq = strstr(line, "=0x");
        if (eq == NULL) {
            continue; // the blank line between files
        }
        *eq = '\0';
        size_t len = strlen(eq + 3) / 2;
        assert_true(len <= 70000);
        for (size_t i = 0; i < len; i++) {
            char hex[3] = {eq[3 + 2 * i], eq[4 + 2 * i], '\0'};
            char *end;
            val[i] = (uint8_t)strtoul(hex, &end, 16);
            assert_true(end == hex + 2);
        }
        xa_record(out, path, line, val, len, len > max);
    }
    free(val);
    free(line);
    pclose(f);
}

static bool have_tool(const char *name)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
    return system(cmd) == 0;
}

static void xa_set(const char *root, const char *rel, const char *name, const void *v, size_t n)
{
    char *p = tree_path(root, rel);
    if (lsetxattr(p, name, v, n, 0) != 0) {
        fail_msg("lsetxattr %s %s: %s", p, name, strerror(errno));
    }
    free(p);
}

/** Runs `tool` on root/rel, as in "setfacl -m u:65534:r PATH". */
static void xa_shell(const char *root, const char *tool, const char *rel)
{
    char *p = tree_path(root, rel);
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "%s '%s'", tool, p);
    assert_int_equal(system(cmd), 0);
    free(p);
}

/**
 * FRD_WALK_XATTRS: every entry's attributes, names and values, equal getfattr -d -m - -h
 * (user attributes set here with empty, binary and long values; an access ACL and a
 * default ACL set by setfacl; a capability set by setcap; a link whose target has
 * attributes, visited with its own, not its target's; a FIFO, not blocked on), in both
 * modes; with links followed, the link visited as its target carries the target's; with a limit, the longer value is flagged too_long with its size; nothing without
 * the flag. ctest runs the file once more with FRD_XATTR_NO_AT=1, the O_PATH fallback.
 */
static void test_walk_xattrs_equal_getfattr(void **state)
{
    (void)state;
    char *root = tree_make_root();
    tree_dir(root, "d");
    tree_file(root, "d/plain", 3);
    tree_file(root, "d/f", 5);
    tree_file(root, "acl", 1);
    tree_file(root, "cap", 1);
    tree_fifo(root, "fifo");
    tree_symlink(root, "d/f", "link");
    const uint8_t bin[] = {0, 0xff, 1, '\n', 0, 0x80};
    uint8_t big[3000]; // over the buffer's first 256 bytes, in one ext4 block
    for (size_t i = 0; i < sizeof(big); i++) {
        big[i] = (uint8_t)(i * 7);
    }
    xa_set(root, "d/f", "user.empty", "", 0);
    xa_set(root, "d/f", "user.bin", bin, sizeof(bin));
    xa_set(root, "d/f", "user.big", big, sizeof(big));
    xa_set(root, "d/f", "user.at_limit", big, 100);
    xa_set(root, "d/f", "user.over_limit", big, 101);
    xa_set(root, "d", "user.dir", "v", 1);
    xa_set(root, "", "user.root", "r", 1);
    bool acl = have_tool("setfacl");
    if (acl) {
        xa_shell(root, "setfacl -m u:65534:r", "acl");
        xa_shell(root, "setfacl -d -m u:65534:rx", "d");
    } else {
        print_message("setfacl not installed (package acl): no ACLs in the tree\n");
    }
    if (have_tool("setcap")) {
        xa_shell(root, "setcap cap_net_raw+ep", "cap");
    } else {
        print_message("setcap not installed (package libcap2-bin): no capability in the tree\n");
    }
    bool getfattr = have_tool("getfattr");
    if (!getfattr) {
        print_message("getfattr not installed (package attr): values checked directly only\n");
    }
    for (int ordered = 0; ordered < 2; ordered++) {
        for (int limit = 0; limit < 2; limit++) {
            struct frd_walk_options o;
            walk_opts(&o, flags_of(ordered) | FRD_WALK_XATTRS | FRD_WALK_NO_PARENT_FD);
            o.on_error = xa_error;
            o.xattr_value_max = limit ? 100 : 0;
            struct xa_ctx c;
            recs_init(&c.recs);
            recs_init(&c.errors);
            assert_int_equal(frd_walk(root, &o, xa_visit, &c), 0);
            assert_int_equal(c.errors.n, 0);
            // The values set here, whatever getfattr says.
            char *f = tree_path(root, "d/f");
            struct recs want;
            recs_init(&want);
            xa_record(&want, f, "user.empty", NULL, 0, false);
            xa_record(&want, f, "user.bin", bin, sizeof(bin), false);
            xa_record(&want, f, "user.big", big, sizeof(big), limit);
            xa_record(&want, f, "user.at_limit", big, 100, false);
            xa_record(&want, f, "user.over_limit", big, 101, limit);
            size_t found = 0;
            for (size_t i = 0; i < want.n; i++) {
                for (size_t j = 0; j < c.recs.n; j++) {
                    found += strcmp(want.v[i], c.recs.v[j]) == 0;
                }
            }
            assert_int_equal(found, want.n);
            recs_free(&want);
            free(f);
            if (getfattr) {
                struct recs g;
                recs_init(&g);
                xa_getfattr(root, limit ? 100 : 65536, &g);
                if (acl) { // the ACLs are there, and so compared
                    size_t acls = 0;
                    for (size_t j = 0; j < g.n; j++) {
                        acls += strstr(g.v[j], "system.posix_acl_") != NULL;
                    }
                    assert_true(acls >= 2);
                }
                recs_assert_equal(&c.recs, &g, "xattrs vs getfattr");
                recs_free(&g);
            }
            recs_free(&c.recs);
            recs_free(&c.errors);
        }
        // Links followed: the link is visited as its target, with the target's attributes.
        {
            struct frd_walk_options o;
            walk_opts(&o, flags_of(ordered) | FRD_WALK_XATTRS);
            o.follow = FRD_FOLLOW_ALL;
            o.on_error = xa_error;
            struct xa_ctx c;
            recs_init(&c.recs);
            recs_init(&c.errors);
            assert_int_equal(frd_walk(root, &o, xa_visit, &c), 0);
            assert_int_equal(c.errors.n, 0);
            char *f = tree_path(root, "d/f");
            char *l = tree_path(root, "link");
            struct recs of_f, of_link;
            recs_init(&of_f);
            recs_init(&of_link);
            for (size_t j = 0; j < c.recs.n; j++) {
                const char *tab = strchr(c.recs.v[j], '\t');
                size_t plen = (size_t)(tab - c.recs.v[j]);
                if (plen == strlen(f) && strncmp(c.recs.v[j], f, plen) == 0) {
                    recs_add(&of_f, tab, strlen(tab));
                } else if (plen == strlen(l) && strncmp(c.recs.v[j], l, plen) == 0) {
                    recs_add(&of_link, tab, strlen(tab));
                }
            }
            assert_int_equal(of_f.n, 5);
            recs_assert_equal(&of_link, &of_f, "a followed link's xattrs vs its target's");
            recs_free(&of_f);
            recs_free(&of_link);
            free(f);
            free(l);
            recs_free(&c.recs);
            recs_free(&c.errors);
        }
        // Without the flag: none.
        struct frd_walk_options o;
        walk_opts(&o, flags_of(ordered));
        struct xa_ctx c;
        recs_init(&c.recs);
        recs_init(&c.errors);
        assert_int_equal(frd_walk(root, &o, xa_visit, &c), 0);
        assert_int_equal(c.recs.n, 0);
        assert_int_equal(c.errors.n, 0);
        recs_free(&c.recs);
        recs_free(&c.errors);
    }
    tree_remove(root);
}

/**
 * The options' growth: the exported frd_walk_options_init() (what a program built against
 * frd 0.2.0 calls) writes no byte past 0.2.0's struct, which ended before ignore;
 * the macro writes the caller's sizeof; options of the old size walk, with the new
 * member's default (values of up to 65536 bytes read).
 */
/* ---- Hard-link groups ---- */

/** What a link-group walk saw: each grouped visit in call order, and wrong entries. */
struct lg_ctx {
    struct recs recs; /**< "dev ino path\tgroup\tfirst" (first empty in the first's visit) */
    atomic_int bad;   /**< a group on an entry that should have none, or the other way */
};

static enum frd_action lg_visit(const struct frd_walk_entry *we, void *udata)
{
    struct lg_ctx *c = udata;
    const struct frd_entry *e = we->entry;
    bool multi = e->type != FRD_TYPE_DIR && e->nlink > 1;
    if (multi != (we->link_group != 0) ||
        (we->link_first != NULL) != (we->link_first_len != 0 && we->link_group != 0)) {
        atomic_fetch_add(&c->bad, 1);
    }
    if (we->link_group != 0) {
        char buf[8192];
        int n = snprintf(buf, sizeof(buf), "%" PRIu64 " %" PRIu64 " %s\t%" PRIu64 "\t%s", e->dev,
                         e->file_id, we->path, we->link_group,
                         we->link_first != NULL ? we->link_first : "");
        assert_true(n > 0 && (size_t)n < sizeof(buf));
        recs_add(&c->recs, buf, (size_t)n);
    }
    return FRD_ACTION_CONTINUE;
}

static void hard_link(const char *root, const char *from, const char *to)
{
    char *a = tree_path(root, from);
    char *b = tree_path(root, to);
    assert_int_equal(link(a, b), 0);
    free(a);
    free(b);
}

/** Checks one walk's groups: as find's, one first each, the others naming it; in ordered
 *  mode the first is the first visited and groups are numbered 1, 2, ... in that order. */
static void lg_check(struct lg_ctx *c, struct recs *find, bool ordered)
{
    assert_int_equal(atomic_load(&c->bad), 0);
    struct recs ids; // "dev ino path", as find prints them
    recs_init(&ids);
    uint64_t next_group = 1;
    for (size_t i = 0; i < c->recs.n; i++) {
        char *r = c->recs.v[i];
        char *tab = strchr(r, '\t');
        recs_add(&ids, r, (size_t)(tab - r));
        uint64_t group = strtoull(tab + 1, NULL, 10);
        const char *first = strchr(tab + 1, '\t') + 1;
        // The same file (dev ino) <=> the same group; the first named is one of it.
        size_t key_len = (size_t)(strchr(strchr(r, ' ') + 1, ' ') - r);
        size_t firsts = 0;
        for (size_t j = 0; j < c->recs.n; j++) {
            char *q = c->recs.v[j];
            char *qtab = strchr(q, '\t');
            bool same_file = strncmp(q, r, key_len + 1) == 0;
            assert_int_equal(same_file, strtoull(qtab + 1, NULL, 10) == group);
            const char *qfirst = strchr(qtab + 1, '\t') + 1;
            if (same_file && *qfirst == '\0') {
                firsts++;
                if (*first != '\0') { // r names its first: q's path
                    assert_int_equal(strlen(first), (size_t)(qtab - q) - key_len - 1);
                    assert_memory_equal(first, q + key_len + 1, strlen(first));
                }
                if (ordered) {
                    assert_true(j <= i); // the first visited of its group
                }
            }
        }
        assert_int_equal(firsts, 1);
        if (ordered && *first == '\0') {
            assert_int_equal(group, next_group); // numbered in visit order
            next_group++;
        }
    }
    recs_assert_equal(&ids, find, "link groups");
    recs_free(&ids);
}

static void test_walk_link_groups_equal_find_links(void **state)
{
    (void)state;
    // Groups across directories and in one, a group of three, single files and a link.
    char *root = tree_make_root();
    tree_dir(root, "a");
    tree_dir(root, "b");
    tree_dir(root, "c");
    tree_dir(root, "c/d");
    tree_file(root, "a/f", 3);
    hard_link(root, "a/f", "b/f-link");
    hard_link(root, "a/f", "c/d/x");
    tree_file(root, "a/g", 4);
    hard_link(root, "a/g", "a/g2");
    tree_file(root, "c/h", 5);
    hard_link(root, "c/h", "c/d/h2");
    tree_file(root, "b/single", 1);
    tree_symlink(root, "../a/f", "b/sym");
    for (int i = 0; i < 40; i++) {
        char rel[32];
        snprintf(rel, sizeof(rel), "c/d/n%02d", i);
        tree_file(root, rel, 1);
        if (i % 4 == 0) {
            char to[32];
            snprintf(to, sizeof(to), "b/n%02d", i);
            hard_link(root, rel, to);
        }
    }
    struct recs find;
    recs_init(&find);
    char cmd[8192];
    int n = snprintf(cmd, sizeof(cmd),
                     "LC_ALL=C find '%s' ! -type d -links +1 -printf '%%D %%i %%p\\0'", root);
    assert_true(n > 0 && (size_t)n < sizeof(cmd));
    run_recs(cmd, &find);
    assert_int_equal(find.n, 3 + 2 + 2 + 10 * 2);
    for (int ordered = 0; ordered < 2; ordered++) {
        for (int names = 0; names < 2; names++) {
            struct lg_ctx c;
            memset(&c, 0, sizeof(c));
            recs_init(&c.recs);
            struct frd_walk_options o;
            walk_opts(&o,
                      flags_of(ordered) | FRD_WALK_LINK_GROUPS | (names ? FRD_WALK_NAMES_ONLY : 0));
            assert_int_equal(frd_walk(root, &o, lg_visit, &c), 0);
            lg_check(&c, &find, ordered);
            recs_free(&c.recs);
        }
    }
    // Without the flag: no groups.
    struct lg_ctx none;
    memset(&none, 0, sizeof(none));
    recs_init(&none.recs);
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.fields = FRD_FIELD_TYPE; // no nlink: lg_visit expects no group
    assert_int_equal(frd_walk(root, &o, lg_visit, &none), 0);
    assert_int_equal(none.recs.n, 0);
    recs_free(&none.recs);
    recs_free(&find);
    tree_remove(root);
}

static void test_walk_options_init_writes_only_the_callers_size(void **state)
{
    (void)state;
    size_t old = offsetof(struct frd_walk_options, ignore);
    unsigned char buf[sizeof(struct frd_walk_options) + 16];
    memset(buf, 0xa5, sizeof(buf));
    struct frd_walk_options *o = (struct frd_walk_options *)(void *)buf;
    (frd_walk_options_init)(o); // the function, not the macro
    assert_int_equal(o->struct_size, old);
    for (size_t i = old; i < sizeof(buf); i++) {
        assert_int_equal(buf[i], 0xa5);
    }
    memset(buf, 0xa5, sizeof(buf));
    frd_walk_options_init(o);
    assert_int_equal(o->struct_size, sizeof(*o));
    assert_int_equal(o->xattr_value_max, 0);
    for (size_t i = sizeof(*o); i < sizeof(buf); i++) {
        assert_int_equal(buf[i], 0xa5);
    }
    // An old caller's options: the walk reads struct_size bytes, the rest is its default.
    memset(buf, 0xa5, sizeof(buf));
    (frd_walk_options_init)(o);
    o->flags = FRD_WALK_XATTRS;
    o->workers = test_workers();
    o->on_error = xa_error;
    char *root = tree_make_root();
    tree_file(root, "f", 1);
    uint8_t v[300] = {1};
    xa_set(root, "f", "user.v", v, sizeof(v));
    struct xa_ctx c;
    recs_init(&c.recs);
    recs_init(&c.errors);
    assert_int_equal(frd_walk(root, o, xa_visit, &c), 0);
    assert_int_equal(c.errors.n, 0);
    assert_int_equal(c.recs.n, 1);
    assert_null(strstr(c.recs.v[0], "too_long")); // not 0xa5a5... bytes as a limit
    recs_free(&c.recs);
    recs_free(&c.errors);
    tree_remove(root);
}

/* ---- Progress ---- */

struct pg_ctx {
    atomic_int reports;
    atomic_int bad;
};

static enum frd_action pg_visit(const struct frd_walk_entry *we, void *udata)
{
    (void)udata;
    if (we->entry->type == FRD_TYPE_DIR) {
        struct timespec ts = {0, 2000000}; // past the 1 ms interval: a report is due
        nanosleep(&ts, NULL);
    }
    return FRD_ACTION_CONTINUE;
}

static void pg_progress(const struct frd_walk_progress *p, void *udata)
{
    struct pg_ctx *c = udata;
    atomic_fetch_add(&c->reports, 1);
    if (p->path == NULL || strlen(p->path) != p->path_len ||
        (p->path_len > 0 && strncmp(p->path, tree, strlen(tree)) != 0)) {
        atomic_fetch_add(&c->bad, 1);
    }
}

/** Progress reports say where the walk is: a path below the root, its length right. */
static void test_walk_progress_reports_current_path(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, flags_of(ordered));
        o.on_progress = pg_progress;
        o.progress_interval_ms = 1;
        struct pg_ctx c = {0};
        // The progress hook's udata is the walk's.
        assert_int_equal(frd_walk(tree, &o, pg_visit, &c), 0);
        assert_true(atomic_load(&c.reports) > 0);
        assert_int_equal(atomic_load(&c.bad), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_worker_count_known_and_bounds_indices),
        cmocka_unit_test(test_walk_post_order_children_before_parent),
        cmocka_unit_test(test_walk_children_hook_states_both_modes),
        cmocka_unit_test(test_walk_progress_reports_current_path),
        cmocka_unit_test(test_walk_link_targets_equal_readlink),
        cmocka_unit_test(test_walk_xattrs_equal_getfattr),
        cmocka_unit_test(test_walk_options_init_writes_only_the_callers_size),
        cmocka_unit_test(test_walk_link_groups_equal_find_links),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
