// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Walker tests of the pull iterator (frd_walk_iter_*(), issue 36): it yields exactly the
 * records of the callback walk (both modes, metadata, link targets, errors), closes cleanly
 * after 0, 1 and N batches and over 1,000 cycles (descriptors and threads back where they
 * were), keeps what it buffers under max_buffered when the consumer is slow, and numbers
 * directories so a consumer can keep per-directory state, and hands a waiting consumer the
 * records of batches not yet full in a slow walk. FRD_TEST_WORKERS sets the worker
 * count (ctest runs the file at 1, 2 and 8).
 */
#include "tree.h"
#include "walk_common.h"

#include <dirent.h>
#include <stdatomic.h>
#include <sys/xattr.h>
#include <time.h>

WALK_GROUP_TREE() // the generated tree, made once for the group

/** Whether records show the hard-link groups' numbers and first paths, which the ordered
 *  mode makes the same in every run (the concurrent mode: whichever thread comes first). */
static bool exact_groups;

/** Whether the walk compared gives names and types only (frd_walk_iter_open(): then its
 *  records have no entry, and carry the listing's part of it themselves). */
static bool names_only;

/** Whether options ask for names and types only, as frd_walk_iter_open() says. */
static bool opts_names_only(const struct frd_walk_options *o)
{
    unsigned ids = FRD_WALK_UNIQUE_FILES | FRD_WALK_UNIQUE_DIRS | FRD_WALK_LINK_GROUPS;
    unsigned fields =
        (o->flags & FRD_WALK_NAMES_ONLY) ? FRD_FIELD_TYPE : o->fields | FRD_FIELD_TYPE;
    return fields == FRD_FIELD_TYPE && (o->flags & ids) == 0;
}

/** What a visit shows, from a callback's frd_walk_entry or an iterator's record. */
struct view {
    const char *path;
    size_t path_len;
    const struct frd_entry *e; // NULL: the entry is `listed`
    struct frd_entry listed;   // what a names-only record carries
    unsigned depth, root_index;
    bool is_root, followed;
    const char *target;
    size_t target_len;
    uint64_t group;
    const char *first;
    const struct frd_xattr *xattrs;
    size_t xattr_count;
};

/** The part of an entry a names-only record carries: name, type, file id, error. */
static struct frd_entry listed_part(const char *name, size_t name_len, unsigned type,
                                    uint64_t file_id, unsigned fields, int error)
{
    return (struct frd_entry){.name = name,
                              .name_len = name_len,
                              .type = (enum frd_type)type,
                              .file_id = file_id,
                              .fields = fields & (FRD_FIELD_TYPE | FRD_FIELD_FILE_ID),
                              .error = error};
}

/** A visit's view (in a names-only walk, the part of its entry a record carries). */
static struct view view_of_visit(const struct frd_walk_entry *we)
{
    struct view v = {.path = we->path,
                     .path_len = we->path_len,
                     .e = we->entry,
                     .depth = we->depth,
                     .root_index = we->root_index,
                     .is_root = we->is_root,
                     .followed = we->followed_link,
                     .target = we->link_target,
                     .target_len = we->link_target_len,
                     .group = we->link_group,
                     .first = we->link_first,
                     .xattrs = we->xattrs,
                     .xattr_count = we->xattr_count};
    if (names_only) {
        const struct frd_entry *e = we->entry;
        v.listed = listed_part(e->name, e->name_len, e->type, e->file_id, e->fields, e->error);
        v.e = NULL;
    }
    return v;
}

/** A record's view; checks its entry (NULL exactly in a names-only walk, else what the
 *  record's own members repeat) and its extra part (NULL exactly for a plain visit). */
static struct view view_of_record(const struct frd_walk_iter_record *r)
{
    const struct frd_walk_iter_extra *x = r->extra;
    struct view v = {.path = r->path,
                     .path_len = r->path_len,
                     .e = r->entry,
                     .depth = r->depth,
                     .root_index = r->root_index,
                     .is_root = r->is_root,
                     .followed = r->followed_link};
    assert_non_null(r->name);
    assert_int_equal(r->name[r->name_len], '\0');
    if (!r->is_root) {
        assert_ptr_equal(r->name, r->path + r->path_len - r->name_len);
    }
    if (names_only) {
        assert_null(r->entry);
        assert_int_equal(r->fields & ~(unsigned)(FRD_FIELD_TYPE | FRD_FIELD_FILE_ID), 0);
        v.listed = listed_part(r->name, r->name_len, r->type, r->file_id, r->fields, r->error);
        v.e = NULL;
    } else {
        const struct frd_entry *e = r->entry;
        assert_non_null(e);
        assert_ptr_equal(e->name, r->name);
        assert_true(e->name_len == r->name_len && e->type == (enum frd_type)r->type &&
                    e->file_id == r->file_id && e->fields == r->fields && e->error == r->error);
    }
    if (r->kind == FRD_WALK_ITER_ENTRY && x == NULL) {
        return v;
    }
    assert_non_null(x);
    assert_true(x->link_target != NULL || x->xattr_count > 0 || x->link_group != 0 ||
                r->kind == FRD_WALK_ITER_DIR_DONE);
    assert_true(x->code == 0 && x->op == NULL && x->other_path == NULL);
    assert_true((x->xattrs == NULL) == (x->xattr_count == 0));
    if (r->kind == FRD_WALK_ITER_ENTRY) {
        assert_true(x->totals.entries == 0 && x->totals.bytes == 0);
    }
    v.target = x->link_target;
    v.target_len = x->link_target_len;
    v.group = x->link_group;
    v.first = x->link_first;
    v.xattrs = x->xattrs;
    v.xattr_count = x->xattr_count;
    return v;
}

/** One record as text: everything a visit carries that a copy could get wrong. */
static size_t fmt_entry(char *buf, size_t cap, const struct view *v)
{
    const struct frd_entry *e = v->e != NULL ? v->e : &v->listed;
    int g = snprintf(buf, cap, "%" PRIu64 "\t%s\t", exact_groups ? v->group : v->group != 0,
                     exact_groups && v->first != NULL ? v->first : "-");
    assert_true(g > 0 && (size_t)g < cap);
    size_t n = (size_t)g;
    g = snprintf(buf + n, cap - n,
                 "V\t%.*s\t%s\t%u\t%c\t%" PRIu64 "\t%" PRId64 "\t%" PRId64 "\t%" PRIu64 "\t%" PRIu64
                 "\t%o\t%u\t%u\t%u\t%u\t%d\t%u\t%d%d\t%.*s",
                 (int)v->path_len, v->path, e->name, v->depth, frd_type_letter(e->type), e->size,
                 e->mtime_ns, e->ctime_ns, e->file_id, e->dev, (unsigned)e->mode, e->nlink, e->uid,
                 e->gid, e->fields, e->error, v->root_index, v->is_root, v->followed,
                 (int)v->target_len, v->target != NULL ? v->target : "-");
    assert_true(g > 0 && (size_t)g < cap - n);
    n += (size_t)g;
    for (size_t i = 0; i < v->xattr_count; i++) {
        const struct frd_xattr *x = &v->xattrs[i];
        g = snprintf(buf + n, cap - n, "\t%s=%zu%s:", x->name, x->value_len,
                     x->too_long ? "!" : "");
        assert_true(g > 0 && (size_t)g < cap - n);
        n += (size_t)g;
        for (size_t k = 0; x->value != NULL && k < x->value_len; k++) {
            g = snprintf(buf + n, cap - n, "%02x", ((const unsigned char *)x->value)[k]);
            assert_true(g > 0 && (size_t)g < cap - n);
            n += (size_t)g;
        }
    }
    return n;
}

static size_t fmt_error(char *buf, size_t cap, const char *path, int code, const char *op,
                        enum frd_op call, unsigned depth, const char *other)
{
    int n = snprintf(buf, cap, "E\t%s\t%s\t%s\t%d\t%u\t%s", path, frd_err_name(code), op, (int)call,
                     depth, other != NULL ? other : "-");
    assert_true(n > 0 && (size_t)n < cap);
    return (size_t)n;
}

/** A finished directory as text: its path and totals. */
static size_t fmt_done(char *buf, size_t cap, const char *path, const struct frd_walk_dir_totals *t)
{
    int n = snprintf(buf, cap, "D\t%s\t%" PRIu64 "\t%" PRIu64, path, t->entries, t->bytes);
    assert_true(n > 0 && (size_t)n < cap);
    return (size_t)n;
}

/* ---- The callback walk's records ---- */

static enum frd_action cb_visit(const struct frd_walk_entry *we, void *udata)
{
    char buf[8192];
    struct view v = view_of_visit(we);
    recs_add(udata, buf, fmt_entry(buf, sizeof(buf), &v));
    return FRD_ACTION_CONTINUE;
}

static enum frd_action cb_error(const struct frd_walk_error *err, void *udata)
{
    char buf[8192];
    size_t n = fmt_error(buf, sizeof(buf), err->path, err->code, err->op, err->call, err->depth,
                         err->other_path);
    recs_add(udata, buf, n);
    return FRD_ACTION_CONTINUE;
}

static void cb_done(const struct frd_walk_entry *dir, const struct frd_walk_dir_totals *totals,
                    void *udata)
{
    char buf[8192];
    recs_add(udata, buf, fmt_done(buf, sizeof(buf), dir->path, totals));
}

/** Walks with callbacks into `out` (visits, errors and, with FRD_WALK_DIR_DONE_RECORDS,
 *  finished directories in one sequence). @return the result. */
static int callback_walk(const char *const *roots, size_t nroots, const struct frd_walk_options *o,
                         struct recs *out)
{
    struct frd_walk_options oo = *o;
    names_only = opts_names_only(o);
    oo.on_error = cb_error;
    oo.on_dir_done = (o->flags & FRD_WALK_DIR_DONE_RECORDS) ? cb_done : NULL;
    return frd_walk_roots(roots, nroots, &oo, cb_visit, out);
}

/** Pulls every record into `out`. @return the end's result; *batches: batches taken. */
static int iter_walk(const char *const *roots, size_t nroots, const struct frd_walk_options *o,
                     struct recs *out, size_t *batches)
{
    struct frd_walk_iter *it;
    names_only = opts_names_only(o);
    assert_int_equal(frd_walk_iter_open(&it, roots, nroots, o, NULL), 0);
    struct frd_walk_iter_batch b;
    int rc;
    size_t nb = 0;
    for (;;) {
        assert_int_equal(frd_walk_iter_wait(it, 600000), 1); // next() will not wait then
        if ((rc = frd_walk_iter_next(it, &b)) != 1) {
            break;
        }
        assert_true(b.count >= 1);
        nb++;
        for (size_t i = 0; i < b.count; i++) {
            const struct frd_walk_iter_record *r = &b.records[i];
            char buf[8192];
            size_t n;
            assert_int_equal(r->path[r->path_len], '\0');
            if (r->kind == FRD_WALK_ITER_ERROR) {
                const struct frd_walk_iter_extra *x = r->extra;
                assert_non_null(x);
                n = fmt_error(buf, sizeof(buf), r->path, x->code, x->op, x->call, r->depth,
                              x->other_path);
            } else if (r->kind == FRD_WALK_ITER_DIR_DONE) {
                struct view v = view_of_record(r);
                (void)v; // checks the extra part
                n = fmt_done(buf, sizeof(buf), r->path, &r->extra->totals);
            } else {
                assert_int_equal(r->kind, FRD_WALK_ITER_ENTRY);
                struct view v = view_of_record(r);
                n = fmt_entry(buf, sizeof(buf), &v);
            }
            recs_add(out, buf, n);
        }
    }
    assert_int_equal(b.count, 0);
    assert_int_equal(frd_walk_iter_next(it, &b), rc); // the end's result, again
    frd_walk_iter_close(it);
    if (batches != NULL) {
        *batches = nb;
    }
    return rc;
}

/** Both walks agree: the same records (the same sequence in the ordered mode) and result. */
static void assert_iter_equals_callbacks(const char *const *roots, size_t nroots,
                                         const struct frd_walk_options *o)
{
    struct recs a, b;
    recs_init(&a);
    recs_init(&b);
    int ra = callback_walk(roots, nroots, o, &a);
    int rb = iter_walk(roots, nroots, o, &b, NULL);
    assert_int_equal(rb, ra);
    assert_true(a.n > 0);
    if (o->flags & FRD_WALK_ORDERED) {
        assert_int_equal(a.n, b.n); // the callbacks' order, record for record
        for (size_t i = 0; i < a.n; i++) {
            assert_string_equal(b.v[i], a.v[i]);
        }
    }
    recs_assert_equal(&a, &b, roots[0]);
    recs_free(&a);
    recs_free(&b);
}

/** The records of both modes, full metadata and names only, link targets included. */
static void test_iter_yields_the_callback_walks_records(void **state)
{
    (void)state;
    const unsigned flags[] = {0,
                              FRD_WALK_ORDERED,
                              FRD_WALK_NAMES_ONLY,
                              FRD_WALK_ORDERED | FRD_WALK_NAMES_ONLY,
                              FRD_WALK_LINK_TARGETS,
                              FRD_WALK_ORDERED | FRD_WALK_LINK_TARGETS};
    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
        struct frd_walk_options o;
        walk_opts(&o, flags[i]);
        assert_iter_equals_callbacks((const char *const[]){tree}, 1, &o);
        o.max_buffered = 3; // batches of one record: every hand-over path
        assert_iter_equals_callbacks((const char *const[]){tree}, 1, &o);
    }
    // Hard-link groups: which entries have one (both modes), and in the ordered mode their
    // numbers and first paths too.
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_LINK_GROUPS | (ordered ? FRD_WALK_ORDERED : 0));
        exact_groups = ordered;
        assert_iter_equals_callbacks((const char *const[]){tree}, 1, &o);
        exact_groups = false;
    }
}

/** A missing root, a loop (FRD_FOLLOW_ALL) and, as uid 65534, an unreadable directory
 *  arrive as error records, as the error hook gets them, and the end says the root's code. */
static void test_iter_errors_as_the_callback_walk(void **state)
{
    (void)state;
    char *missing = tree_path(tree, "no-such-root");
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        assert_iter_equals_callbacks((const char *const[]){missing, tree}, 2, &o);
        struct recs r;
        recs_init(&r);
        assert_int_equal(iter_walk((const char *const[]){missing}, 1, &o, &r, NULL), FRD_ENOENT);
        assert_int_equal(r.n, 1);
        assert_true(strncmp(r.v[0], "E\t", 2) == 0);
        recs_free(&r);
    }
    free(missing);

    char *root = tree_make_root();
    chmod(root, 0755);
    tree_dir(root, "loop");
    tree_symlink(root, "..", "loop/up");
    tree_dir(root, "closed");
    tree_file(root, "closed/f", 1);
    tree_file(root, "open", 1);
    char *closed = tree_path(root, "closed");
    assert_int_equal(chmod(closed, 0), 0);
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        o.follow = FRD_FOLLOW_ALL;
        assert_iter_equals_callbacks((const char *const[]){root}, 1, &o);
        // As uid 65534, "closed" cannot be read: both walks report it the same way.
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            become_nobody();
            struct recs a, b;
            recs_init(&a);
            recs_init(&b);
            int ra = callback_walk((const char *const[]){root}, 1, &o, &a);
            int rb = iter_walk((const char *const[]){root}, 1, &o, &b, NULL);
            bool has_error = false;
            for (size_t i = 0; i < a.n; i++) {
                has_error |= strstr(a.v[i], "E\t") == a.v[i] && strstr(a.v[i], "closed") != NULL;
            }
            _exit(ra == rb && has_error && recs_equal(&a, &b) ? 0 : 1);
        }
        int st = wait_child(pid);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    chmod(closed, 0755);
    free(closed);
    tree_remove(root);
}

/** Sets user.NAME to `len` bytes of a pattern on ROOT/REL (not following a link). */
static void set_xattr(const char *root, const char *rel, const char *name, size_t len)
{
    char *p = tree_path(root, rel);
    char v[300];
    assert_true(len <= sizeof(v));
    for (size_t i = 0; i < len; i++) {
        v[i] = (char)(i * 7 + 1);
    }
    if (lsetxattr(p, name, v, len, 0) != 0) {
        fail_msg("lsetxattr %s %s: %s", p, name, strerror(errno));
    }
    free(p);
}

/** What only some records carry (their extra part: link targets, extended attributes, a
 *  value too long, hard-link groups, finished directories' totals) equals the callback
 *  walk's, in both modes, with batches of one record too; a plain visit has none. */
static void test_iter_extra_parts_as_the_callback_walk(void **state)
{
    (void)state;
    char *root = tree_make_root();
    chmod(root, 0755);
    tree_dir(root, "d");
    tree_file(root, "d/plain", 3);
    tree_file(root, "d/attrs", 5);
    set_xattr(root, "d/attrs", "user.one", 1);
    set_xattr(root, "d/attrs", "user.empty", 0);
    set_xattr(root, "d/attrs", "user.long", 300);
    set_xattr(root, "d", "user.dir", 10);
    tree_symlink(root, "plain", "d/link");
    tree_file(root, "a", 7);
    char *a = tree_path(root, "a"), *b = tree_path(root, "d/b");
    assert_int_equal(link(a, b), 0);
    free(a);
    free(b);
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, FRD_WALK_XATTRS | FRD_WALK_LINK_TARGETS | FRD_WALK_LINK_GROUPS |
                          FRD_WALK_DIR_DONE_RECORDS | (ordered ? FRD_WALK_ORDERED : 0));
        o.xattr_value_max = 100; // user.long is reported as too long
        exact_groups = ordered;
        assert_iter_equals_callbacks((const char *const[]){root}, 1, &o);
        o.max_buffered = 3;
        assert_iter_equals_callbacks((const char *const[]){root}, 1, &o);
        exact_groups = false;
        // Without opt-in fields, no visit has an extra part.
        walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
        struct frd_walk_iter *it;
        assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){root}, 1, &o, NULL), 0);
        struct frd_walk_iter_batch bt;
        size_t n = 0;
        while (frd_walk_iter_next(it, &bt) == 1) {
            for (size_t i = 0; i < bt.count; i++, n++) {
                assert_int_equal(bt.records[i].kind, FRD_WALK_ITER_ENTRY);
                assert_null(bt.records[i].extra);
            }
        }
        frd_walk_iter_close(it);
        assert_int_equal(n, 7);
    }
    tree_remove(root);
}

/* ---- Closing ---- */

/** Entries in a /proc/self directory (fd, task), "." and ".." aside. */
static int proc_count(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        n += e->d_name[0] != '.';
    }
    closedir(d);
    return n - (strcmp(dir, "/proc/self/fd") == 0); // the DIR's own descriptor
}

/** Opens a walk, takes `take` batches (or all), closes it. */
static void open_take_close(const struct frd_walk_options *o, size_t take)
{
    struct frd_walk_iter *it;
    assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){tree}, 1, o, NULL), 0);
    struct frd_walk_iter_batch b;
    for (size_t i = 0; i < take && frd_walk_iter_next(it, &b) == 1; i++) {
    }
    frd_walk_iter_close(it);
}

/** Close after 0, 1 and N batches and at the end, in both modes, with a small bound (the
 *  workers wait for room when it comes): descriptors and threads back where they were. */
static void test_iter_close_after_0_1_n_batches(void **state)
{
    (void)state;
    int fds = proc_count("/proc/self/fd");
    int tasks = proc_count("/proc/self/task");
    const size_t takes[] = {0, 1, 5, SIZE_MAX};
    for (int ordered = 0; ordered < 2; ordered++) {
        for (size_t i = 0; i < sizeof(takes) / sizeof(takes[0]); i++) {
            struct frd_walk_options o;
            walk_opts(&o, ordered ? FRD_WALK_ORDERED : 0);
            o.max_buffered = 32;
            open_take_close(&o, takes[i]);
            assert_int_equal(proc_count("/proc/self/fd"), fds);
            assert_int_equal(proc_count("/proc/self/task"), tasks);
            o.max_buffered = 0;
            open_take_close(&o, takes[i]);
            assert_int_equal(proc_count("/proc/self/fd"), fds);
            assert_int_equal(proc_count("/proc/self/task"), tasks);
        }
    }
}

/** 1,000 open/close cycles (0, 1 or 2 batches each, both modes): nothing accumulates. */
static void test_iter_1000_open_close_cycles(void **state)
{
    (void)state;
    int fds = proc_count("/proc/self/fd");
    int tasks = proc_count("/proc/self/task");
    char *small = tree_path(tree, "dir");
    for (int i = 0; i < 1000; i++) {
        struct frd_walk_options o;
        walk_opts(&o, (i & 4) ? FRD_WALK_ORDERED : 0);
        o.max_buffered = (i & 8) ? 8 : 0;
        struct frd_walk_iter *it;
        assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){small}, 1, &o, NULL), 0);
        struct frd_walk_iter_batch b;
        for (int k = 0; k < i % 3 && frd_walk_iter_next(it, &b) == 1; k++) {
        }
        frd_walk_iter_close(it);
    }
    free(small);
    assert_int_equal(proc_count("/proc/self/fd"), fds);
    assert_int_equal(proc_count("/proc/self/task"), tasks);
}

/* ---- The bound ---- */

/** Waits (polling) until a worker waits for room; the bound holds all along. A walk that
 *  ignored the bound would go past it (failing here) or never wait (failing after 10
 *  minutes, a hang's deadline, not a timing assertion). */
static void wait_for_a_waiting_worker(struct frd_walk_iter *it, struct frd_walk_iter_stats *st)
{
    for (int i = 0; i < 600000; i++) {
        assert_int_equal(frd_walk_iter_stats(it, st), 0);
        assert_true(st->buffered_peak <= st->max_buffered);
        if (st->waiting > 0) {
            return;
        }
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
    fail_msg("no worker waited for room");
}

/** Sets `o` for a walk of the tree (ordered or not) and fills `a` with the callback walk's
 *  records, which an iterator's are compared with. */
static void tree_by_callbacks(struct frd_walk_options *o, int ordered, struct recs *a)
{
    walk_opts(o, ordered ? FRD_WALK_ORDERED : 0);
    recs_init(a);
    assert_int_equal(callback_walk((const char *const[]){tree}, 1, o, a), 0);
}

/** A consumer that stops taking: the workers run ahead up to max_buffered and wait there,
 *  never past it; then every record still arrives, and a close while they wait returns. */
static void test_iter_slow_consumer_stays_under_the_bound(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        struct recs a;
        tree_by_callbacks(&o, ordered, &a);
        o.max_buffered = 64; // the tree has ten times as many entries
        assert_true(a.n > 10 * o.max_buffered);

        struct frd_walk_iter *it;
        assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){tree}, 1, &o, NULL), 0);
        struct frd_walk_iter_stats st;
        wait_for_a_waiting_worker(it, &st); // before any batch is taken
        assert_int_equal(st.max_buffered, 64);
        assert_true(st.buffered <= st.max_buffered);
        assert_true(st.waits >= 1);
        size_t records = 0;
        struct frd_walk_iter_batch b;
        int rc;
        while ((rc = frd_walk_iter_next(it, &b)) == 1) {
            records += b.count;
            assert_int_equal(frd_walk_iter_stats(it, &st), 0);
            assert_true(b.count <= st.batch_records);
            assert_true(st.buffered <= st.max_buffered);
        }
        assert_int_equal(rc, 0);
        assert_int_equal(records, a.n);
        assert_int_equal(frd_walk_iter_stats(it, &st), 0);
        assert_true(st.buffered_peak <= st.max_buffered);
        assert_true(st.buffered_peak > 0);
        frd_walk_iter_close(it);

        // Closed while the workers wait for room: no deadlock, nothing left behind.
        int tasks = proc_count("/proc/self/task");
        assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){tree}, 1, &o, NULL), 0);
        wait_for_a_waiting_worker(it, &st);
        frd_walk_iter_close(it);
        assert_int_equal(proc_count("/proc/self/task"), tasks);
        recs_free(&a);
    }
}

/* ---- A slow walk ---- */

/** What the hooks of test_iter_slow_walk_hands_over_partial_batches share with its
 *  consumer. */
struct slow_walk {
    _Atomic(struct frd_walk_iter *) it; // set once open returned
    atomic_uint calls;                  // children hooks started
    atomic_bool got;                    // the consumer has its first batch
    atomic_bool late;                   // a hook stopped waiting for it
};

/** The asks the consumer has made so far (0 before the iterator is known). */
static uint64_t slow_asks(struct slow_walk *sw)
{
    struct frd_walk_iter *it = atomic_load(&sw->it);
    struct frd_walk_iter_stats st;
    return it != NULL && frd_walk_iter_stats(it, &st) == 0 ? st.asks : 0;
}

/** A directory's children hook that makes the walk slow without timing: the first call
 *  (the root's) waits until the consumer has asked for partial batches; each later one
 *  until it has its first batch, or, so that nothing waits forever, until it has asked
 *  three times more (then the batch came late). */
static void slow_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    (void)dir;
    (void)kids;
    struct slow_walk *sw = udata;
    bool first = atomic_fetch_add(&sw->calls, 1) == 0;
    if (atomic_load(&sw->late)) {
        return; // failed already: the rest of the walk runs on
    }
    uint64_t until = first ? 1 : slow_asks(sw) + 3;
    while (first || !atomic_load(&sw->got)) {
        if (slow_asks(sw) >= until) {
            if (!first) {
                atomic_store(&sw->late, true);
            }
            return;
        }
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    }
}

/** A walk slower than its batches fill: the consumer, waiting, asks for what the workers
 *  hold and gets the records before the walk ends (it used to get them only at the end),
 *  in batches not full; every record still arrives once. */
static void test_iter_slow_walk_hands_over_partial_batches(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        struct recs a;
        tree_by_callbacks(&o, ordered, &a);
        o.on_children = slow_children;
        struct slow_walk sw = {.calls = 0};
        struct frd_walk_iter *it;
        assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){tree}, 1, &o, &sw), 0);
        atomic_store(&sw.it, it);
        struct frd_walk_iter_batch b;
        struct frd_walk_iter_stats st;
        size_t records = 0;
        int rc;
        while ((rc = frd_walk_iter_next(it, &b)) == 1) {
            if (!atomic_load(&sw.got)) {
                // The first batch: handed over when asked, while hooks still wait for it.
                assert_int_equal(frd_walk_iter_stats(it, &st), 0);
                assert_true(st.asks >= 1);
                assert_true(b.count < st.batch_records);
                atomic_store(&sw.got, true);
            }
            records += b.count;
        }
        assert_int_equal(rc, 0);
        assert_false(atomic_load(&sw.late));
        assert_true(atomic_load(&sw.calls) > 1); // a hook did wait for the first batch
        assert_int_equal(records, a.n);
        frd_walk_iter_close(it);
        recs_free(&a);
    }
}

/* ---- Per-directory context ---- */

/** Every entry's parent_id names its directory's record, whose path is the entry's
 *  dirname; with FRD_WALK_DIR_DONE_RECORDS each entered directory is finished once (in
 *  the ordered mode after every record below it). */
static void test_iter_directory_numbers_and_done_records(void **state)
{
    (void)state;
    for (int ordered = 0; ordered < 2; ordered++) {
        struct frd_walk_options o;
        walk_opts(&o, (ordered ? FRD_WALK_ORDERED : 0) | FRD_WALK_DIR_DONE_RECORDS);
        struct frd_walk_iter *it;
        assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){tree}, 1, &o, NULL), 0);
        struct recs dirs, kids, done;
        recs_init(&dirs);
        recs_init(&kids);
        recs_init(&done);
        struct frd_walk_iter_batch b;
        char buf[8192];
        size_t entries = 0, post = 0;
        while (frd_walk_iter_next(it, &b) == 1) {
            for (size_t i = 0; i < b.count; i++) {
                const struct frd_walk_iter_record *r = &b.records[i];
                if (r->kind == FRD_WALK_ITER_DIR_DONE) {
                    assert_true(r->dir_id != 0);
                    int n = snprintf(buf, sizeof(buf), "%020" PRIu64 "\t%s\t%zu", r->dir_id,
                                     r->path, entries);
                    recs_add(&done, buf, (size_t)n);
                    post++;
                    continue;
                }
                assert_int_equal(r->kind, FRD_WALK_ITER_ENTRY);
                entries++;
                if (r->type == FRD_TYPE_DIR) {
                    assert_true(r->dir_id != 0);
                    int n = snprintf(buf, sizeof(buf), "%020" PRIu64 "\t%s", r->dir_id, r->path);
                    recs_add(&dirs, buf, (size_t)n);
                } else {
                    assert_true(r->dir_id == 0);
                }
                if (r->is_root) {
                    assert_true(r->parent_id == 0);
                    continue;
                }
                const char *slash = strrchr(r->path, '/');
                assert_non_null(slash);
                int n = snprintf(buf, sizeof(buf), "%020" PRIu64 "\t%.*s", r->parent_id,
                                 (int)(slash - r->path), r->path);
                recs_add(&kids, buf, (size_t)n);
            }
        }
        frd_walk_iter_close(it);
        // Each parent (number and path) is a directory's record.
        recs_sort(&dirs);
        for (size_t i = 0; i < kids.n; i++) {
            assert_non_null(bsearch(&kids.v[i], dirs.v, dirs.n, sizeof(char *), recs_cmp));
        }
        // Each directory is finished once, under its own number and path (the tree's
        // directories are all entered), in the ordered mode after all entries below it.
        assert_int_equal(post, dirs.n);
        recs_sort(&done);
        for (size_t i = 0; i < done.n; i++) {
            char *tab = strrchr(done.v[i], '\t');
            size_t seen = strtoull(tab + 1, NULL, 10);
            *tab = '\0';
            assert_string_equal(done.v[i], dirs.v[i]);
            if (ordered && strcmp(strchr(done.v[i], '\t') + 1, tree) == 0) {
                assert_int_equal(seen, entries); // the root is finished last
            }
        }
        recs_free(&dirs);
        recs_free(&kids);
        recs_free(&done);
    }
}

/** Options the iterator cannot run and bad arguments are refused; nothing starts. */
static void test_iter_refuses_bad_arguments(void **state)
{
    (void)state;
    struct frd_walk_options o;
    walk_opts(&o, 0);
    o.on_dir_done = (frd_walk_post_fn *)(void (*)(void))abort; // never called
    struct frd_walk_iter *it = NULL;
    const char *const roots[] = {tree};
    assert_int_equal(frd_walk_iter_open(&it, roots, 1, &o, NULL), FRD_EINVAL);
    assert_null(it);
    walk_opts(&o, 0);
    assert_int_equal(frd_walk_iter_open(NULL, roots, 1, &o, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_iter_open(&it, roots, 0, &o, NULL), FRD_EINVAL);
    assert_int_equal(frd_walk_iter_open(&it, (const char *const[]){NULL}, 1, &o, NULL), FRD_EINVAL);
    assert_null(it);
    struct frd_walk_iter_batch b;
    assert_int_equal(frd_walk_iter_next(NULL, &b), FRD_EINVAL);
    assert_int_equal(frd_walk_iter_wait(NULL, 1), FRD_EINVAL);
    frd_walk_iter_close(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_iter_yields_the_callback_walks_records),
        cmocka_unit_test(test_iter_errors_as_the_callback_walk),
        cmocka_unit_test(test_iter_extra_parts_as_the_callback_walk),
        cmocka_unit_test(test_iter_close_after_0_1_n_batches),
        cmocka_unit_test(test_iter_1000_open_close_cycles),
        cmocka_unit_test(test_iter_slow_consumer_stays_under_the_bound),
        cmocka_unit_test(test_iter_slow_walk_hands_over_partial_batches),
        cmocka_unit_test(test_iter_directory_numbers_and_done_records),
        cmocka_unit_test(test_iter_refuses_bad_arguments),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
