// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The pull iterator (frd_walk_iter_open(), _next(), _close(), _stats()): a background walk
 * whose hooks copy each visit, error and finished directory into a record of a batch, one
 * batch per callback slot (frd_walk_entry.worker: one writer at a time, no lock per
 * record). A full batch goes on a queue the consumer pops under one mutex.
 *
 * The bound: a worker reserves room for a whole batch (batch_records) before it fills one,
 * and the room comes back when the consumer is done with that batch (its next call), so the
 * records that exist never exceed max_buffered. A worker that finds no room waits on `room`
 * (backpressure). batch_records is at most max_buffered / workers, and a full batch is
 * handed over as soon as its last record is written: when the queue is empty and the
 * consumer holds nothing (it gives its batch back before it waits, in _next() and _wait()),
 * the batches the other workers are filling leave room for one more, so a waiting worker is
 * always woken by the consumer and no wait lasts forever.
 *
 * The end: the walk's last thread (frd__walk_launch()'s hook) queues the partial batches
 * and marks the end; the consumer then joins the walk. Close sets `closing` and wakes the
 * waiting workers (their callbacks return FRD_ACTION_STOP), then cancels and joins.
 */
#include "api.h"
#include "internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uv.h>

enum {
    ITER_DEFAULT_BUFFERED = 16384, // records, when opts.max_buffered is 0
    // Records per batch at most: every hand-over may wake the consumer (a futex wake and two
    // context switches), so batches are large; 512 cost 4x the switches on /usr.
    ITER_BATCH_MAX = 2048,
    ITER_ARENA_PER_RECORD = 128, // a batch's first arena: bytes per record
};

/** A batch: its records, and an arena holding their strings. The arena grows only while the
 *  batch is empty, so the records' pointers into it never move. */
struct iter_batch {
    struct iter_batch *next;
    size_t n;
    char *arena;
    size_t alen, acap;
    struct frd_walk_iter_record recs[];
};

/** What one callback slot fills: its batch, and the numbers it gives directories. */
struct iter_slot {
    struct iter_batch *cur;
    uint64_t next_id;
    char pad[64 - sizeof(struct iter_batch *) - sizeof(uint64_t)]; // no false sharing
};

struct frd_walk_iter {
    uv_mutex_t mu;
    uv_cond_t ready;                // the consumer waits here for a batch or the end
    uv_cond_t room;                 // workers wait here for room
    struct iter_batch *head, *tail; // full batches, oldest first
    struct iter_batch *spare;       // batches to reuse
    struct iter_batch *held;        // the consumer's batch
    size_t cap;                     // max_buffered, resolved
    size_t bs;                      // records per batch
    size_t reserved;                // room reserved: bs per batch that exists
    size_t peak;
    uint64_t waits;
    unsigned waiting;
    bool closing; // frd_walk_iter_close(): every hook says stop
    bool ended;   // every walk thread has run to its end
    bool nomem;   // a batch could not be allocated: the walk stopped
    bool joined;
    int result;

    struct frd_walk *walk;
    unsigned nslots;
    struct iter_slot *slots;

    // The caller's hooks, run with its udata.
    frd_walk_error_fn *on_error;
    frd_walk_children_fn *on_children;
    frd_walk_progress_fn *on_progress;
    void *udata;
};

static void batch_free(struct iter_batch *b)
{
    if (b != NULL) {
        frd__free(b->arena);
        frd__free(b);
    }
}

static void batch_list_free(struct iter_batch *b)
{
    while (b != NULL) {
        struct iter_batch *next = b->next;
        batch_free(b);
        b = next;
    }
}

/** Gives a batch's room back (mu held) and keeps it for reuse. */
static void room_release(struct frd_walk_iter *it, struct iter_batch *b)
{
    it->reserved -= it->bs;
    b->n = 0;
    b->alen = 0;
    b->next = it->spare;
    it->spare = b;
    if (it->waiting > 0) {
        uv_cond_broadcast(&it->room);
    }
}

/** Hands a batch with records to the consumer. */
static void batch_push(struct frd_walk_iter *it, struct iter_batch *b)
{
    b->next = NULL;
    uv_mutex_lock(&it->mu);
    if (it->tail != NULL) {
        it->tail->next = b;
    } else {
        it->head = b;
    }
    it->tail = b;
    uv_cond_signal(&it->ready);
    uv_mutex_unlock(&it->mu);
}

/**
 * Takes an empty batch with room for `need` arena bytes, waiting for room while the
 * consumer is behind. @return the batch, or NULL when the iterator is closing or out of
 * memory (the walk is to stop).
 */
static struct iter_batch *batch_take(struct frd_walk_iter *it, size_t need)
{
    uv_mutex_lock(&it->mu);
    if (!it->closing && it->reserved + it->bs > it->cap) {
        it->waits++;
        it->waiting++;
        do {
            uv_cond_wait(&it->room, &it->mu);
        } while (!it->closing && it->reserved + it->bs > it->cap);
        it->waiting--;
    }
    if (it->closing) {
        uv_mutex_unlock(&it->mu);
        return NULL;
    }
    it->reserved += it->bs;
    if (it->reserved > it->peak) {
        it->peak = it->reserved;
    }
    struct iter_batch *b = it->spare;
    if (b != NULL) {
        it->spare = b->next;
    }
    uv_mutex_unlock(&it->mu);
    if (b == NULL) {
        b = frd__calloc(1, sizeof(*b) + it->bs * sizeof(b->recs[0]));
    }
    if (b != NULL && FRD__RESERVE(b->arena, b->acap, need, it->bs * ITER_ARENA_PER_RECORD) < 0) {
        batch_free(b);
        b = NULL;
    }
    if (b == NULL) {
        uv_mutex_lock(&it->mu);
        it->reserved -= it->bs;
        it->nomem = true;
        if (it->waiting > 0) {
            uv_cond_broadcast(&it->room);
        }
        uv_mutex_unlock(&it->mu);
    }
    return b;
}

/** slot_record()'s slow path: the slot has no batch, or its arena lacks `need` bytes. */
static struct iter_batch *slot_batch(struct frd_walk_iter *it, struct iter_slot *s, size_t need)
{
    struct iter_batch *b = s->cur;
    if (b != NULL) {
        if (b->n == 0) { // a record longer than the arena: grow it, still empty
            if (FRD__RESERVE(b->arena, b->acap, need, need) < 0) {
                uv_mutex_lock(&it->mu);
                it->nomem = true; // the walk stops: its end says FRD_ENOMEM
                uv_mutex_unlock(&it->mu);
                return NULL;
            }
            return b;
        }
        s->cur = NULL;
        batch_push(it, b);
    }
    return s->cur = batch_take(it, need);
}

/**
 * A record in slot `worker`'s batch with `need` arena bytes at *mem: a batch whose arena is
 * full is handed over first, and an empty one taken. Finish the record, then call
 * slot_record_done(). @return the record (its caller writes every member), or NULL when the
 * walk is to stop.
 */
static inline struct frd_walk_iter_record *slot_record(struct frd_walk_iter *it, unsigned worker,
                                                       size_t need, char **mem)
{
    struct iter_slot *s = &it->slots[worker];
    struct iter_batch *b = s->cur;
    if (b == NULL || b->acap - b->alen < need) {
        if ((b = slot_batch(it, s, need)) == NULL) {
            return NULL;
        }
    }
    struct frd_walk_iter_record *r = &b->recs[b->n++];
    *mem = b->arena + b->alen;
    b->alen += need;
    return r;
}

/** A record of slot `worker` is finished: a full batch goes to the consumer at once (not
 *  held until the worker's next record, which may come late or never). */
static inline void slot_record_done(struct frd_walk_iter *it, unsigned worker)
{
    struct iter_slot *s = &it->slots[worker];
    if (s->cur->n == it->bs) {
        batch_push(it, s->cur);
        s->cur = NULL;
    }
}

/** Copies `len` bytes and a NUL to *mem, moving it on. @return the copy. */
static const char *put_str(char **mem, const char *s, size_t len)
{
    char *d = *mem;
    memcpy(d, s, len);
    d[len] = '\0';
    *mem = d + len + 1;
    return d;
}

/** Whether the entry's name is the end of its path (then it is not copied twice). */
static bool name_in_path(const struct frd_walk_entry *we)
{
    const struct frd_entry *e = we->entry;
    return e->name_len <= we->path_len &&
           memcmp(we->path + we->path_len - e->name_len, e->name, e->name_len) == 0;
}

/** Arena bytes for a visit's strings and extended attributes (with room to align). */
static size_t entry_need(const struct frd_walk_entry *we, bool name_apart)
{
    size_t need = we->path_len + 1 + (name_apart ? we->entry->name_len + 1 : 0);
    if (we->link_target != NULL) {
        need += we->link_target_len + 1;
    }
    if (we->link_first != NULL) {
        need += we->link_first_len + 1;
    }
    if (we->xattr_count > 0) {
        need += _Alignof(struct frd_xattr) + we->xattr_count * sizeof(struct frd_xattr);
        for (size_t i = 0; i < we->xattr_count; i++) {
            need +=
                we->xattrs[i].name_len + 1 + (we->xattrs[i].value ? we->xattrs[i].value_len : 0);
        }
    }
    return need;
}

/** Copies the extended attributes into the arena at *mem. */
static void put_xattrs(struct frd_walk_iter_record *r, const struct frd_walk_entry *we, char **mem)
{
    uintptr_t a = _Alignof(struct frd_xattr);
    char *p = *mem + ((a - (uintptr_t)*mem % a) % a);
    struct frd_xattr *xs = (struct frd_xattr *)(void *)p;
    *mem = p + we->xattr_count * sizeof(*xs);
    for (size_t i = 0; i < we->xattr_count; i++) {
        const struct frd_xattr *x = &we->xattrs[i];
        xs[i] = *x;
        xs[i].name = put_str(mem, x->name, x->name_len);
        if (x->value != NULL) {
            memcpy(*mem, x->value, x->value_len);
            xs[i].value = *mem;
            *mem += x->value_len;
        }
    }
    r->xattrs = xs;
    r->xattr_count = we->xattr_count;
}

/** A record of a visit or a finished directory. @return false when the walk is to stop. */
static bool put_entry(struct frd_walk_iter *it, const struct frd_walk_entry *we,
                      enum frd_walk_iter_kind kind, struct frd_walk_iter_record **out)
{
    // Below a root the name ends the path (frd.h): compared only for a root.
    bool apart = we->is_root && !name_in_path(we);
    char *mem;
    struct frd_walk_iter_record *r = slot_record(it, we->worker, entry_need(we, apart), &mem);
    if (r == NULL) {
        return false;
    }
    FRD_ASSERT(apart || name_in_path(we));
    // Every member is stored once (a memset of the tail and then the stores, or a compound
    // literal, wrote most of the record twice: a third of the iterator's cost per entry).
    r->kind = kind;
    r->path = put_str(&mem, we->path, we->path_len);
    r->path_len = we->path_len;
    r->entry = *we->entry;
    r->entry.name = apart ? put_str(&mem, we->entry->name, we->entry->name_len)
                          : r->path + we->path_len - we->entry->name_len;
    r->depth = we->depth;
    r->root_index = we->root_index;
    r->worker = we->worker;
    r->is_root = we->is_root;
    r->followed_link = we->followed_link;
    r->persistent_ids = we->persistent_ids;
    r->dir_id = 0;
    r->parent_id = (uint64_t)(uintptr_t)we->parent_state;
    r->code = 0;
    r->call = 0;
    r->op = NULL;
    r->other_path = NULL;
    r->link_target = NULL;
    r->link_target_len = 0;
    if (we->link_target != NULL) {
        r->link_target = put_str(&mem, we->link_target, we->link_target_len);
        r->link_target_len = we->link_target_len;
    }
    r->xattrs = NULL;
    r->xattr_count = 0;
    if (we->xattr_count > 0) {
        put_xattrs(r, we, &mem);
    }
    r->totals.entries = 0;
    r->totals.bytes = 0;
    r->link_group = we->link_group;
    r->link_first = NULL;
    r->link_first_len = 0;
    if (we->link_first != NULL) {
        r->link_first = put_str(&mem, we->link_first, we->link_first_len);
        r->link_first_len = we->link_first_len;
    }
    *out = r;
    return true;
}

static enum frd_action iter_visit(const struct frd_walk_entry *we, void *udata)
{
    struct frd_walk_iter *it = udata;
    struct frd_walk_iter_record *r;
    if (!put_entry(it, we, FRD_WALK_ITER_ENTRY, &r)) {
        return FRD_ACTION_STOP;
    }
    if (we->dir_state != NULL) {
        // A number no other directory of this walk has: the slot's count, times the slots.
        struct iter_slot *s = &it->slots[we->worker];
        uint64_t id = ++s->next_id * it->nslots + we->worker;
        *we->dir_state = (void *)(uintptr_t)id;
        r->dir_id = id;
    }
    slot_record_done(it, we->worker);
    return FRD_ACTION_CONTINUE;
}

static void iter_dir_done(const struct frd_walk_entry *dir,
                          const struct frd_walk_dir_totals *totals, void *udata)
{
    struct frd_walk_iter *it = udata;
    struct frd_walk_iter_record *r;
    if (put_entry(it, dir, FRD_WALK_ITER_DIR_DONE, &r)) {
        r->dir_id = dir->dir_state != NULL ? (uint64_t)(uintptr_t)*dir->dir_state : 0;
        r->totals = *totals;
        slot_record_done(it, dir->worker);
    }
}

static enum frd_action iter_error(const struct frd_walk_error *err, void *udata)
{
    struct frd_walk_iter *it = udata;
    size_t plen = strlen(err->path);
    size_t olen = err->other_path != NULL ? strlen(err->other_path) : 0;
    char *mem;
    size_t need = plen + 1 + (err->other_path != NULL ? olen + 1 : 0);
    struct frd_walk_iter_record *r = slot_record(it, err->worker, need, &mem);
    if (r == NULL) {
        return FRD_ACTION_STOP;
    }
    *r = (struct frd_walk_iter_record){
        .kind = FRD_WALK_ITER_ERROR,
        .path = put_str(&mem, err->path, plen),
        .path_len = plen,
    };
    if (err->other_path != NULL) {
        r->other_path = put_str(&mem, err->other_path, olen);
    }
    r->depth = err->depth;
    r->worker = err->worker;
    r->code = err->code;
    r->call = err->call;
    r->op = err->op;
    slot_record_done(it, err->worker);
    return it->on_error != NULL ? it->on_error(err, it->udata) : FRD_ACTION_CONTINUE;
}

static void iter_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                          void *udata)
{
    struct frd_walk_iter *it = udata;
    it->on_children(dir, kids, it->udata);
}

static void iter_progress(const struct frd_walk_progress *progress, void *udata)
{
    struct frd_walk_iter *it = udata;
    it->on_progress(progress, it->udata);
}

/** The walk's last thread has run to its end: the partial batches go on the queue. */
static void iter_ended(void *ctx)
{
    struct frd_walk_iter *it = ctx;
    uv_mutex_lock(&it->mu);
    for (unsigned i = 0; i < it->nslots; i++) {
        struct iter_batch *b = it->slots[i].cur;
        it->slots[i].cur = NULL;
        if (b == NULL) {
            continue;
        }
        if (b->n == 0 || it->closing) {
            room_release(it, b);
            continue;
        }
        b->next = NULL;
        if (it->tail != NULL) {
            it->tail->next = b;
        } else {
            it->head = b;
        }
        it->tail = b;
    }
    it->ended = true;
    uv_cond_signal(&it->ready);
    uv_mutex_unlock(&it->mu);
}

static void iter_free(struct frd_walk_iter *it)
{
    batch_list_free(it->head);
    batch_list_free(it->spare);
    batch_free(it->held);
    for (unsigned i = 0; it->slots != NULL && i < it->nslots; i++) {
        batch_free(it->slots[i].cur);
    }
    frd__free(it->slots);
    uv_cond_destroy(&it->room);
    uv_cond_destroy(&it->ready);
    uv_mutex_destroy(&it->mu);
    frd__free(it);
}

/** The iterator's own options: the caller's, its hooks wrapped. @return 0 or FRD_EINVAL. */
static int iter_options(struct frd_walk_iter *it, struct frd_walk_options *o,
                        const struct frd_walk_options *opts)
{
    if (frd__walk_options_copy(o, opts) < 0 || o->on_dir_done != NULL ||
        o->on_dir_state_free != NULL) {
        return FRD_EINVAL;
    }
    it->on_error = o->on_error;
    it->on_children = o->on_children;
    it->on_progress = o->on_progress;
    o->on_error = iter_error;
    o->on_children = o->on_children != NULL ? iter_children : NULL;
    o->on_progress = o->on_progress != NULL ? iter_progress : NULL;
    o->on_dir_done = (o->flags & FRD_WALK_DIR_DONE_RECORDS) ? iter_dir_done : NULL;
    it->cap = o->max_buffered != 0 ? o->max_buffered : ITER_DEFAULT_BUFFERED;
    return 0;
}

int frd_walk_iter_open(struct frd_walk_iter **out, const char *const *roots, size_t nroots,
                       const struct frd_walk_options *opts, void *udata)
{
    if (out == NULL) {
        return FRD_EINVAL;
    }
    struct frd_walk_iter *it = frd__calloc(1, sizeof(*it));
    if (it == NULL) {
        return FRD_ENOMEM;
    }
    if (uv_mutex_init(&it->mu) != 0) {
        frd__free(it);
        return FRD_ENOMEM;
    }
    if (uv_cond_init(&it->ready) != 0) {
        uv_mutex_destroy(&it->mu);
        frd__free(it);
        return FRD_ENOMEM;
    }
    if (uv_cond_init(&it->room) != 0) {
        uv_cond_destroy(&it->ready);
        uv_mutex_destroy(&it->mu);
        frd__free(it);
        return FRD_ENOMEM;
    }
    it->udata = udata;
    struct frd_walk_options o;
    struct frd_walk *walk = NULL;
    int rc = iter_options(it, &o, opts);
    if (rc == 0) {
        rc = frd__walk_prepare(&walk, roots, nroots, &o, iter_visit, it);
    }
    if (rc == 0) {
        it->nslots = frd_walk_workers(walk);
        if (it->cap < it->nslots) {
            it->cap = it->nslots; // a record per worker at least
        }
        it->bs = it->cap / it->nslots;
        it->bs = it->bs < ITER_BATCH_MAX ? it->bs : ITER_BATCH_MAX;
        it->slots = frd__calloc(it->nslots, sizeof(*it->slots));
        rc = it->slots != NULL ? 0 : FRD_ENOMEM;
    }
    if (rc == 0) {
        rc = frd__walk_launch(walk, &it->walk, iter_ended, it);
    }
    if (rc < 0) {
        if (walk != NULL) {
            frd__walk_discard(walk);
        }
        iter_free(it);
        return rc;
    }
    *out = it;
    return 0;
}

int frd_walk_iter_next(struct frd_walk_iter *it, struct frd_walk_iter_batch *batch)
{
    if (it == NULL || batch == NULL) {
        return FRD_EINVAL;
    }
    batch->records = NULL;
    batch->count = 0;
    uv_mutex_lock(&it->mu);
    if (it->held != NULL) {
        room_release(it, it->held);
        it->held = NULL;
    }
    while (it->head == NULL && !it->ended) {
        uv_cond_wait(&it->ready, &it->mu);
    }
    struct iter_batch *b = it->head;
    if (b != NULL) {
        it->head = b->next;
        if (it->head == NULL) {
            it->tail = NULL;
        }
        it->held = b;
    }
    uv_mutex_unlock(&it->mu);
    if (b != NULL) {
        batch->records = b->recs;
        batch->count = b->n;
        return 1;
    }
    if (!it->joined) {
        it->result = frd_walk_join(it->walk);
        it->walk = NULL;
        it->joined = true;
        if (it->nomem) {
            it->result = FRD_ENOMEM;
        }
    }
    return it->result;
}

int frd_walk_iter_wait(struct frd_walk_iter *it, unsigned timeout_ms)
{
    if (it == NULL) {
        return FRD_EINVAL;
    }
    uint64_t until = uv_hrtime() + (uint64_t)timeout_ms * 1000000u;
    uv_mutex_lock(&it->mu);
    if (it->held != NULL) { // the workers may need its room to make the batch waited for
        room_release(it, it->held);
        it->held = NULL;
    }
    for (;;) {
        if (it->head != NULL || it->ended || it->joined) {
            break;
        }
        uint64_t now = uv_hrtime();
        if (now >= until) {
            break;
        }
        (void)uv_cond_timedwait(&it->ready, &it->mu, until - now);
    }
    int ready = it->head != NULL || it->ended || it->joined;
    uv_mutex_unlock(&it->mu);
    return ready;
}

void frd_walk_iter_close(struct frd_walk_iter *it)
{
    if (it == NULL) {
        return;
    }
    uv_mutex_lock(&it->mu);
    it->closing = true;
    uv_cond_broadcast(&it->room);
    uv_mutex_unlock(&it->mu);
    if (!it->joined) {
        frd_walk_cancel(it->walk);
        (void)frd_walk_join(it->walk);
    }
    iter_free(it);
}

int frd_walk_iter_stats(struct frd_walk_iter *it, struct frd_walk_iter_stats *st)
{
    if (it == NULL || st == NULL) {
        return FRD_EINVAL;
    }
    uv_mutex_lock(&it->mu);
    st->max_buffered = it->cap;
    st->batch_records = it->bs;
    st->buffered = it->reserved;
    st->buffered_peak = it->peak;
    st->waits = it->waits;
    st->waiting = it->waiting;
    st->workers = it->nslots;
    uv_mutex_unlock(&it->mu);
    return 0;
}
