// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's listing side: the heap of directory tasks by pre-order position, and
 * the workers (the consumer too, while it waits) that take the first task allowed, list
 * and resolve it, and publish the result on the node (large listings: walker/ordered_big.c).
 * See walker/ordered.c for the whole protocol.
 */
#include "ordered.h"

#include <string.h>

/* ---- Pre-order labels ---- */

void frd__o_label_bits(struct frd__wnode *node, size_t n)
{
    unsigned bits = 1;
    while (bits < 64 && (n >> bits) != 0) {
        bits++; // ord + 1 <= n fits in bits
    }
    node->pre_child_bits = (uint8_t)bits;
}

void frd__o_label_child(const struct frd__wnode *parent, struct frd__wnode *child, size_t ord)
{
    unsigned bits = parent->pre_child_bits;
    FRD_ASSERT(bits >= 1 && bits <= 64 && (bits == 64 || ((uint64_t)ord + 1) >> bits == 0));
    if (parent->pre_used == FRD__PRE_NONE || parent->pre_used + bits > 128) {
        child->pre_used = FRD__PRE_NONE;
        return;
    }
    // ord + 1 in bits [128 - used - bits, 128 - used) of the parent's label: the parent,
    // with 0 there, comes first; a sibling's subtree, which only adds lower bits, keeps
    // its sibling's place.
    uint64_t v = (uint64_t)ord + 1;
    unsigned shift = 128 - parent->pre_used - bits;
    child->pre[0] = parent->pre[0];
    child->pre[1] = parent->pre[1];
    if (shift >= 64) {
        child->pre[0] |= v << (shift - 64);
    } else if (shift + bits <= 64) {
        child->pre[1] |= v << shift;
    } else {
        child->pre[0] |= v >> (64 - shift);
        child->pre[1] |= v << shift;
    }
    child->pre_used = (uint8_t)(parent->pre_used + bits);
}

/* ---- The heap, by pre-order position ---- */

/** Nodes by pre-order position, walking the ancestors: <0, 0 (the same node) or >0. */
static int pre_cmp(const struct frd__wnode *a, const struct frd__wnode *b)
{
    if (a == b) {
        return 0;
    }
    while (a->depth > b->depth) {
        a = a->parent;
        if (a == b) {
            return 1; // b is an ancestor: it comes first
        }
    }
    while (b->depth > a->depth) {
        b = b->parent;
        if (b == a) {
            return -1;
        }
    }
    while (a->parent != b->parent) {
        a = a->parent;
        b = b->parent;
    }
    return a->ord < b->ord ? -1 : 1;
}

/** Is label a below label b (128-bit numbers, the high half first)? */
static bool label_less(const uint64_t a[2], const uint64_t b[2])
{
    return a[0] != b[0] ? a[0] < b[0] : a[1] < b[1];
}

/** Does task a come before task b in pre-order? By their labels where both have one. */
static bool task_less(const struct o_task *a, const struct o_task *b)
{
    if (a->labeled && b->labeled && a->root == b->root) {
        bool less = label_less(a->pre, b->pre);
        FRD_ASSERT(a->node == b->node || less || label_less(b->pre, a->pre)); // distinct
        FRD_ASSERT(less == (pre_cmp(a->node, b->node) < 0));
        return less;
    }
    return pre_cmp(a->node, b->node) < 0;
}

/** The heap's order where a task settled (Debug builds): after its parent, before its
 *  children; the count within the capacity. */
static void heap_check_at(const struct frd__ordered *o, size_t i)
{
    FRD_ASSERT(o->heap_n <= o->heap_cap && i < o->heap_n);
    FRD_ASSERT(i == 0 || task_less(&o->heap[(i - 1) / 2], &o->heap[i]));
    FRD_ASSERT(2 * i + 1 >= o->heap_n || task_less(&o->heap[i], &o->heap[2 * i + 1]));
    FRD_ASSERT(2 * i + 2 >= o->heap_n || task_less(&o->heap[i], &o->heap[2 * i + 2]));
    (void)o;
    (void)i;
}

int frd__oheap_push(struct frd__ordered *o, struct frd__wnode *node)
{
    if (FRD__RESERVE(o->heap, o->heap_cap, o->heap_n + 1, 256) < 0) {
        return FRD_ENOMEM;
    }
    struct o_task t = {
        .pre = {node->pre[0], node->pre[1]},
        .node = node,
        .root = node->root_index,
        .labeled = node->pre_used != FRD__PRE_NONE,
    };
    size_t i = o->heap_n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (task_less(&o->heap[up], &t)) {
            break;
        }
        o->heap[i] = o->heap[up];
        i = up;
    }
    o->heap[i] = t;
    heap_check_at(o, i);
    return 0;
}

/** Takes the top off the heap (its next sibling is not pushed here). */
static struct frd__wnode *oheap_take_top(struct frd__ordered *o)
{
    FRD_ASSERT(o->heap_n > 0);
    struct frd__wnode *top = o->heap[0].node;
    struct o_task last = o->heap[--o->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= o->heap_n) {
            break;
        }
        if (c + 1 < o->heap_n && task_less(&o->heap[c + 1], &o->heap[c])) {
            c++;
        }
        if (task_less(&last, &o->heap[c])) {
            break;
        }
        o->heap[i] = o->heap[c];
        i = c;
    }
    if (o->heap_n > 0) {
        o->heap[i] = last;
        heap_check_at(o, i);
    }
    return top;
}

struct frd__wnode *frd__oheap_pop(struct frd__ordered *o)
{
    struct frd__wnode *top = oheap_take_top(o);
    struct frd__wnode *next = top->next_sib;
    if (next != NULL) {
        // It comes after top and its subtree, so nothing on the heap needs it sooner; the
        // slot top left is free, so this push never allocates.
        top->next_sib = NULL;
        int rc = frd__oheap_push(o, next);
        FRD_ASSERT(rc == 0);
        (void)rc;
    }
    return top;
}

/** Is the read-ahead at its cap (results or entries listed and not taken)? */
bool frd__o_window_full(const struct frd__ordered *o)
{
    return o->window >= o->window_max || o->window_entries >= O_WINDOW_ENTRIES;
}

void frd__o_drop_task(struct frd__worker *w, struct frd__wnode *node)
{
    if (node->flags & WN_ROOT) {
        frd__fd_release(w->walk, node); // the listing's ref, which the consumer took for it
    }
    frd__wnode_drop(w, node);
}

void frd__o_prune(struct frd__ordered *o, struct frd__wnode *node)
{
    atomic_store_explicit(&o->any_pruned, true, memory_order_relaxed);
    atomic_store_explicit(&node->pruned, true, memory_order_relaxed);
}

bool frd__o_chain_pruned(const struct frd__ordered *o, const struct frd__wnode *node)
{
    // Relaxed: a prune seen late only costs a listing nobody visits (purged or discarded).
    if (!atomic_load_explicit(&o->any_pruned, memory_order_relaxed)) {
        return false;
    }
    for (; node != NULL; node = node->parent) {
        if (atomic_load_explicit(&node->pruned, memory_order_relaxed)) {
            return true;
        }
    }
    return false;
}

/** Keeps a resolved entry in an item: the bare fields, or the whole entry in its full slot
 *  (more fields than an item holds, an identity, a link followed, an error, a long name). */
static void o_item_keep(struct o_item *it, struct o_full *full, const struct frd__resolved *res,
                        bool persistent)
{
    const struct frd_entry *e = &res->entry;
    if ((e->fields & ~O_BARE_FIELDS) != 0 || res->has_id || res->followed || persistent ||
        e->error != 0 || e->name_len > UINT16_MAX) {
        full->entry = *e;
        full->id = res->id;
        full->has_id = res->has_id;
        full->followed = res->followed;
        full->persistent = persistent;
        it->flags |= O_IT_WHOLE;
        return;
    }
    it->name_len = (uint16_t)e->name_len;
    it->type = (uint8_t)e->type;
    it->file_id = e->file_id;
    it->flags |= ((e->fields & FRD_FIELD_TYPE) ? O_IT_TYPE : 0u) |
                 ((e->fields & FRD_FIELD_FILE_ID) ? O_IT_FILE_ID : 0u);
}

/** Records a failure to report at the item's visit (in its full slot). */
static void o_item_fail(struct o_item *it, struct o_full *full, int err, struct frd__failure op,
                        const struct frd__wnode *loop)
{
    full->err = err;
    full->err_op = op;
    full->loop = loop;
    it->flags |= O_IT_ERR;
}

void frd__o_item_fill(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                      enum frd__vol_class cls, const struct frd_entry *e, bool no_descent,
                      size_t ord, bool *keep, struct o_item *it, struct o_full *full)
{
    struct frd_walk *walk = w->walk;
    it->child = NULL;
    it->flags = 0;
    if ((walk->opts.flags & FRD_WALK_SKIP_HIDDEN) && e->name[0] == '.') {
        it->flags = O_IT_SKIP;
        return;
    }
    struct frd__resolved res;
    int how = frd__resolve_entry(w, node, fd, cls, e, false, &res);
    o_item_keep(it, full, &res, res.persistent && !walk->plan.names_only);
    if (res.err < 0) {
        o_item_fail(it, full, res.err, res.err_op, res.loop);
    } else if (e->error < 0) {
        o_item_fail(it, full, e->error, FRD__FAIL_STAT, NULL);
    }
    if (how == RESOLVE_SKIP) {
        it->flags |= O_IT_SKIP;
        return;
    }
    if (no_descent || !frd__may_descend(walk, node, &res)) {
        return;
    }
    struct frd__wnode *c = frd__child_node(w, node, &res);
    if (c == NULL) {
        o_item_fail(it, full, FRD_ENOMEM, FRD__FAIL_ALLOC, NULL);
        return;
    }
    c->ord = (uint32_t)ord;
    frd__o_label_child(node, c, ord);
    if (!*keep && !(node->flags & WN_KEEP_DECIDED)) {
        *keep = frd__keep_fd(w, node, fd);
    }
    if (*keep) {
        atomic_fetch_add(&node->fd_refs, 1);
        c->flags |= WN_HOLDS_PARENT_FD;
    }
    it->child = c;
}

void frd__o_push_children(struct frd__worker *w, struct frd__ordered *o, struct o_item *items,
                          size_t n, int *list_err, struct frd__failure *list_op)
{
    // The first subdirectory goes onto the heap, each of the others behind the one before
    // it (next_sib), pushed when that one is taken off: a smaller heap, a shorter hold of mu.
    struct frd__wnode *first = NULL;
    struct frd__wnode **link = &first;
    size_t pushed = 0;
    for (size_t i = 0; i < n; i++) {
        struct frd__wnode *c = items[i].child;
        if (c != NULL) {
            *link = c;
            link = &c->next_sib;
            pushed++;
        }
    }
    if (first != NULL && frd__oheap_push(o, first) < 0) {
        for (size_t i = 0; i < n; i++) {
            struct frd__wnode *c = items[i].child;
            if (c != NULL) {
                items[i].child = NULL;
                c->next_sib = NULL;
                frd__wnode_drop(w, c);
            }
        }
        *list_err = FRD_ENOMEM;
        *list_op = FRD__FAIL_QUEUE;
        return;
    }
    // New tasks: wake as many idle workers as there are tasks beyond the one this thread
    // takes next (a broadcast per listing woke every worker for one task, and mostly for
    // nothing: most directories have no subdirectory).
    if (pushed > 1 && o->idle > 0) {
        if (pushed - 1 >= o->idle) {
            uv_cond_broadcast(&o->work_cond);
        } else {
            for (size_t i = 1; i < pushed; i++) {
                uv_cond_signal(&o->work_cond);
            }
        }
    }
}

/** Lists one directory into a result. */
static void o_list(struct frd__worker *w, struct frd__wnode *node, struct o_result *r)
{
    struct frd_walk *walk = w->walk;
    r->count = 0;
    r->open_err = 0;
    r->list_err = 0;
    r->listed = false;
    r->has_fd = false;
    r->names_len = 0;
    frd_os_fd fd;
    enum frd__vol_class cls;
    if (node->flags & WN_ROOT) {
        // The consumer opened it (and holds the listing's ref for us).
        fd = node->fd;
        cls = (enum frd__vol_class)node->vclass;
    } else {
        int rc = frd__wnode_open(w, node, &fd);
        if (rc < 0) {
            r->open_err = rc;
            r->open_op = FRD__FAIL_OPEN;
            return;
        }
        node->fd = fd;
        atomic_store(&node->fd_refs, 1);
        rc = frd__dir_opened(w, node, fd, &cls);
        if (rc < 0) {
            if (rc != FRD_EXDEV) {
                r->open_err = rc;
                r->open_op = FRD__FAIL_OPEN;
            }
            frd__fd_release(walk, node);
            return;
        }
    }
    bool kids = walk->plan.children;
    // In the directory's own order, the listing is read whole, as with the hook: the large
    // listing's runs and merges exist to sort it.
    bool as_listed = (walk->opts.flags & FRD_WALK_LISTING_ORDER) != 0;
    int rc;
    if (kids || as_listed) {
        frd_list_clear(w->list);
        rc = frd_lister_list_fd(w->lister, w->list, fd, NULL);
    } else {
        rc = frd__o_read(w, node, fd, cls, r);
    }
    if (rc < 0) {
        r->list_err = rc;
        r->list_op =
            rc == FRD_ENOMEM && r->lg != NULL ? FRD__FAIL_ALLOC : frd__list_failure(w->lister);
    }
    r->listed = true;
    atomic_fetch_add_explicit(&w->n_dirs, 1, memory_order_relaxed);
    if (r->lg != NULL) {
        // Items come by chunks; the listing's descriptor ref stays for them (and is the
        // frame's parent_fd for its visits).
        r->count = r->lg->nrecs;
        frd__o_label_bits(node, r->count);
        r->window_cost = O_CHUNK;
        r->has_fd = true;
        node->totals.entries = 0; // the consumer adds up the chunks
        node->totals.bytes = 0;
        return;
    }
    size_t count = frd_list_count(w->list);
    const struct frd_entry *v = frd_list_entries(w->list);
    const struct o_key *order = kids || as_listed ? NULL : frd__o_sort_order(w, v, count);
    if (order == NULL && !as_listed) {
        frd_list_sort(w->list);
    }
    if (kids) {
        // The children hook, on this worker, ahead of the consumer: it sees the sorted
        // listing (or the directory's order), and the order it leaves is the visit order.
        size_t plen;
        int krc = frd__wnode_path(w, node, &w->path2, &w->path2_cap, &plen);
        if (krc == 0) {
            frd_os_fd pfd;
            int how = frd__parent_fd_get(w, node, fd, &pfd);
            // No states: the consumer sets them, and may be doing so right now.
            struct frd_walk_entry dir =
                frd__wnode_walk_entry_stateless(node, w->path2, plen, pfd, frd__slot(w));
            krc = frd__children_run(w, &dir, fd);
            frd__parent_fd_put(w, node, how, pfd);
        }
        if (krc < 0) {
            r->list_err = krc;
            r->list_op = FRD__FAIL_ALLOC;
            w->kids.count = 0;
        }
        count = w->kids.count;
    }
    size_t names = 0;
    for (size_t i = 0; i < count; i++) {
        names += (kids ? v[w->kids.order[i]] : v[i]).name_len + 1; // any order: a sum
    }
    // Items name their entries by 32-bit offsets: a listing of more than 4 GiB of names (a
    // children hook's whole directory, never a batch) is refused as if memory ran out.
    if (names > UINT32_MAX || frd__ores_reserve(walk->ordered.state, r, count, names) < 0) {
        r->list_err = FRD_ENOMEM;
        r->list_op = FRD__FAIL_ALLOC;
        count = 0;
    }
    frd__o_label_bits(node, count);
    bool keep = false;
    uint64_t bytes = 0;
    size_t n = 0; // items made: an entry that vanished before its stat is left out
    for (size_t i = 0; i < count; i++) {
        struct frd_entry kst;
        bool no_descent;
        const struct frd_entry *e = order != NULL
                                        ? (no_descent = false, &v[order[i].index])
                                        : frd__dir_entry_at(w, kids, v, i, fd, &kst, &no_descent);
        if (e == NULL) {
            continue; // removed since the listing: left out, as a listing leaves it out
        }
        struct o_item *it = &r->items[n++];
        bytes += e->size;
        FRD_ASSERT(r->names_len <= UINT32_MAX);
        it->name_off = (uint32_t)r->names_len;
        memcpy(r->names + r->names_len, e->name, e->name_len + 1);
        r->names_len += e->name_len + 1;
        frd__o_item_fill(w, node, fd, cls, e, no_descent, n - 1, &keep, it, &r->fulls[n - 1]);
    }
    r->count = n;
    r->window_cost = n;
    node->totals.entries = n;
    node->totals.bytes = bytes;
    // The consumer's frame keeps the descriptor (parent_fd of its visits) while at most half
    // the budget is in use: the rest stays for children to open relative to their parents,
    // so that a tree deeper than the budget never has to be reopened along its path.
    // Callbacks that make no *at() call need none: the directory is closed here, on the
    // thread that listed it, as soon as its subdirectories are open.
    if (walk->opts.flags & FRD_WALK_NO_PARENT_FD) {
        // Nothing to keep or reopen.
    } else if (atomic_load_explicit(&walk->fds.open_fds, memory_order_relaxed) <
               walk->plan.keep_limit / 2) {
        atomic_fetch_add(&node->fd_refs, 1);
        r->has_fd = true;
    } else if (!(node->flags & WN_HAS_ID) && frd__plat_fd_identity(fd, &node->id) == 0) {
        // The consumer will reopen it for its callbacks: record what it must find there.
        node->flags |= WN_HAS_ID;
    }
    frd__fd_release(walk, node);
}

/**
 * Takes the next listing task allowed now and does it: called with mu held, returns with it
 * held (dropped while listing). Used by the workers and by the consumer while it waits.
 * @return true if it did something (listed a directory or dropped a pruned one), false if
 * there is nothing it may take now.
 */
bool frd__o_work_one(struct frd__worker *w, struct frd__ordered *o)
{
    struct frd_walk *walk = w->walk;
    // The chunks of the large listings the consumer is in come first: it needs them before
    // anything listed below them, and they are bounded by their slots.
    for (struct o_large *lg = o->large; lg != NULL; lg = lg->next) {
        if (frd__o_chunk_take(w, o, lg)) {
            return true;
        }
    }
    // Then the runs of a large listing being read: sorted and merged while it is.
    if (frd__o_run_task(o)) {
        return true;
    }
    // Past the read-ahead cap only the awaited node may be listed; a pruned node at the top
    // is dropped whatever the cap, so that it never hides the awaited one below it. The
    // consumer lists read-ahead only while the listing it awaits is in flight (else it lists
    // that one): it may go up to twice the cap in results then, where it would sleep (a large
    // directory in flight on a worker, with the window full of what comes after it, kept it
    // asleep 7 ms a walk of /usr).
    bool full = w == walk->consumer
                    ? o->window >= 2 * o->window_max || o->window_entries >= O_WINDOW_ENTRIES
                    : frd__o_window_full(o);
    if (o->heap_n == 0 ||
        (full && o->heap[0].node != o->awaited && !frd__o_chain_pruned(o, o->heap[0].node))) {
        return false;
    }
    struct frd__wnode *node = frd__oheap_pop(o);
    if (frd__o_chain_pruned(o, node)) {
        // Below a directory the consumer skipped: nothing to list.
        frd__o_drop_task(w, node);
        return true;
    }
    struct o_result *r = frd__ores_get(o);
    if (r == NULL) {
        if (frd__oheap_push(o, node) < 0) { // back, so the final drain frees it
            frd__o_drop_task(w, node);
        }
        uv_mutex_unlock(&o->mu);
        frd__walk_stop(walk, FRD_ENOMEM, w);
        uv_mutex_lock(&o->mu);
        return true;
    }
    r->node = node;
    r->state = O_INFLIGHT;
    o->window++;
    uv_mutex_unlock(&o->mu);

    o_list(w, node, r);
    frd__progress_tick(w);

    frd__o_lock(o);
    if (r->lg == NULL) {
        frd__o_push_children(w, o, r->items, r->count, &r->list_err, &r->list_op);
    }
    r->state = O_READY;
    o->window_entries += r->window_cost;
    node->result = r;
    if (node == o->awaited && o->consumer_waits) {
        uv_cond_signal(&o->ready_cond);
    }
    return true;
}

void frd__ordered_worker_run(struct frd__worker *w)
{
    struct frd_walk *walk = w->walk;
    struct frd__ordered *o = walk->ordered.state;
    uv_mutex_lock(&o->mu);
    for (;;) {
        if (o->consumer_done || frd__walk_stopping(walk)) {
            break;
        }
        if (!frd__o_work_one(w, o)) {
            o->idle++;
            uv_cond_wait(&o->work_cond, &o->mu);
            o->idle--;
        }
    }
    uv_mutex_unlock(&o->mu);
}
