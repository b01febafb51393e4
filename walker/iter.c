// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The pull iterator (frd_walk_iter_open(), _next(), _close(), _stats()): a background walk
 * whose hooks copy each visit, error and finished directory into a record of a batch, one
 * batch per callback slot (frd_walk_entry.worker: one writer at a time, no lock per
 * record). A record holds what a listing gives; the entry's stat fields (struct frd_entry)
 * go into an array of the batch beside its records, except in a walk of names and types,
 * which has none: the record and the path are then all a visit writes. A full batch goes on a queue
 * the consumer pops under one mutex; a consumer asleep on an empty queue is woken when
 * ITER_WAKE_BATCHES are queued, when a worker waits for room, at the end, or by itself
 * every ITER_NOTICE_NS.
 *
 * The bound: a worker reserves room for a whole batch (batch_records) before it fills one,
 * and the room comes back when the consumer is done with that batch (its next call), so the
 * records that exist never exceed max_buffered. A worker that finds no room waits on `room`
 * (backpressure). batch_records is at most max_buffered / workers, and a full batch is
 * handed over as soon as its last record is written: when the queue is empty and the
 * consumer holds nothing (it gives its batch back before it waits, in _next() and _wait()),
 * the batches the other workers are filling leave room for one more, so a waiting worker is
 * always woken by the consumer (which the worker wakes before it waits: the queue may hold
 * fewer than ITER_WAKE_BATCHES) and no wait lasts forever.
 *
 * A slow walk (a cold disk, a network file system) may take long to fill a batch: a consumer
 * that has waited ITER_NOTICE_NS on an empty queue (across frd_walk_iter_wait() calls, which
 * a binding makes short) asks for what there is, by a number (`ask`) each slot compares at
 * its next record: a slot that sees it changed hands over its partial batch, and the
 * consumer is woken for it.
 *
 * The end: the walk's last thread (frd__walk_launch()'s hook) queues the partial batches
 * and marks the end; the consumer then joins the walk. Close sets `closing` and wakes the
 * waiting workers (their callbacks return FRD_ACTION_STOP), then cancels and joins.
 */
#include "api.h"
#include "internal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uv.h>

enum {
    ITER_DEFAULT_BUFFERED = 16384, // records, when opts.max_buffered is 0
    // Records per batch at most. Batches in flight (one per worker being filled, the queue,
    // the consumer's) are memory touched afresh, page faults and cache misses, so they are
    // not larger; wake-ups are cut by ITER_WAKE_BATCHES instead.
    ITER_BATCH_MAX = 1024,
    ITER_ARENA_PER_RECORD = 128, // a batch's first arena: bytes per record
    ITER_LINE = 64,              // the records' alignment: a cache line
    // A consumer that sleeps is woken when this many batches are queued (or a worker waits
    // for room, or the walk ends), not for each: a wake-up costs a futex call and two
    // context switches. On /usr (175k entries, 2 workers) batches of 2048 and a wake-up
    // each made 87 wake-ups and 8192 records in flight at most; batches of 1024 and 4 to a
    // wake-up make 43, with the same records in flight.
    ITER_WAKE_BATCHES = 4,
};

// A record's worker member holds every worker's number.
_Static_assert(FRD_WALK_MAX_WORKERS - 1 <= UINT16_MAX, "frd_walk_iter_record.worker too narrow");

/** A sleeping consumer looks at the queue at least this often (ns): a batch queued while
 *  fewer than ITER_WAKE_BATCHES are reaches it within this time even in a slow walk; and
 *  a consumer that has found the queue empty for this long asks for partial batches. */
#define ITER_NOTICE_NS 20000000u

/** A batch: its records, their entries (none in a walk of names and types), and an arena
 *  holding their strings. The arena grows only while the batch is empty, so the records'
 *  pointers into it never move. The records, then the entries, follow the batch in its
 *  block, from a cache line's start. */
struct iter_batch {
    struct iter_batch *next;
    size_t n; // records, set when the batch is handed over
    char *arena;
    size_t acap;
    struct frd_walk_iter_record *recs;
    struct frd_entry *ents; // as many as records; NULL in a walk of names and types
};

/** What one callback slot fills: its batch, where its next record and bytes go, and the
 *  numbers it gives directories. No batch: rec == rec_end (a full batch is handed over at
 *  once, so that test is the one test of the fast path with the arena's). */
struct iter_slot {
    struct iter_batch *cur;
    struct frd_walk_iter_record *rec, *rec_end; // cur's next record, and its end
    char *mem, *mem_end;                        // cur's free arena bytes
    struct frd_entry *ent;                      // cur's next entry (NULL: the walk has none)
    uint64_t next_id;
    unsigned asked; // the consumer's last `ask` this slot answered
    char pad[64 - 5 * sizeof(void *) - sizeof(struct iter_batch *) - sizeof(uint64_t) -
             sizeof(unsigned)];
};
_Static_assert(sizeof(struct iter_slot) == ITER_LINE, "a slot is a cache line");

struct frd_walk_iter {
    uv_mutex_t mu;
    uv_cond_t ready;                // the consumer waits here for a batch or the end
    uv_cond_t room;                 // workers wait here for room
    struct iter_batch *head, *tail; // full batches, oldest first
    size_t queued;                  // batches from head to tail
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
    bool opt_in;     // the walk may give link targets, extended attributes or hard-link groups
    bool names_only; // a walk of names and types: records without entries
    // Of an entry's fields, those its record says it has: all, but in a walk of names and
    // types those the record itself holds.
    unsigned fields_kept;
    int result;
    uint64_t empty_since; // uv_hrtime() the consumer found the queue empty; 0: not waiting
    uint64_t asks;        // times it asked for partial batches

    // Read by the workers at each record: set before the walk starts, but `ask`, which the
    // consumer bumps at most every ITER_NOTICE_NS.
    struct frd_walk *walk;
    unsigned nslots;
    atomic_uint ask;         // bumped when the consumer asks for partial batches
    struct iter_slot *slots; // from a cache line's start, in slots_mem
    void *slots_mem;

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
    b->next = it->spare;
    it->spare = b;
    if (it->waiting > 0) {
        uv_cond_broadcast(&it->room);
    }
}

/** Appends a batch to the consumer's queue (mu held). */
static void queue_push(struct frd_walk_iter *it, struct iter_batch *b)
{
    b->next = NULL;
    if (it->tail != NULL) {
        it->tail->next = b;
    } else {
        it->head = b;
    }
    it->tail = b;
    it->queued++;
}

/** The slot's batch as it stands: its record count set, the slot emptied. @return it. */
static struct iter_batch *slot_detach(struct iter_slot *s)
{
    struct iter_batch *b = s->cur;
    if (b != NULL) {
        b->n = (size_t)(s->rec - b->recs);
    }
    s->cur = NULL;
    s->rec = s->rec_end = NULL;
    s->mem = s->mem_end = NULL;
    s->ent = NULL;
    return b;
}

/** Hands the slot's batch (with records) to the consumer. The consumer is woken after the
 *  mutex is let go: woken under it, it would block at once on the mutex this worker still
 *  holds (a futex wait and wake more, and two context switches). No wake-up is lost, the
 *  queue having changed under the mutex; the iterator outlives the signal, being freed only
 *  after the walk's threads are joined. */
static void slot_push(struct frd_walk_iter *it, struct iter_slot *s, bool asked)
{
    struct iter_batch *b = slot_detach(s);
    uv_mutex_lock(&it->mu);
    queue_push(it, b);
    bool wake = asked || it->queued >= ITER_WAKE_BATCHES;
    uv_mutex_unlock(&it->mu);
    if (wake) {
        uv_cond_signal(&it->ready);
    }
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
        uv_cond_signal(&it->ready); // the room is in the queue: the consumer takes it now
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
    // The records from a line's start, the entries from the next line's after them.
    size_t rbytes = (it->bs * sizeof(*b->recs) + ITER_LINE - 1) / ITER_LINE * ITER_LINE;
    size_t ebytes = it->names_only ? 0 : it->bs * sizeof(*b->ents);
    if (b == NULL && (b = frd__calloc(1, sizeof(*b) + ITER_LINE + rbytes + ebytes)) != NULL) {
        char *p = (char *)(b + 1);
        p += (ITER_LINE - (uintptr_t)p % ITER_LINE) % ITER_LINE;
        b->recs = (void *)p;
        b->ents = it->names_only ? NULL : (void *)(p + rbytes);
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

/** Whether the consumer has asked for partial batches since the slot last looked. */
static inline bool slot_asked(struct frd_walk_iter *it, const struct iter_slot *s)
{
    return s->asked != atomic_load_explicit(&it->ask, memory_order_relaxed);
}

/**
 * slot_record()'s slow path: the consumer asked for partial batches, or the slot has no
 * batch, or its arena lacks `need` bytes. A batch with records goes to the consumer (at
 * once when asked) and an empty one is taken; an empty batch's arena grows. @return false
 * when the walk is to stop.
 */
static bool slot_refill(struct frd_walk_iter *it, struct iter_slot *s, size_t need)
{
    if (slot_asked(it, s)) {
        s->asked = atomic_load_explicit(&it->ask, memory_order_relaxed);
        if (s->cur != NULL && s->rec != s->cur->recs) {
            slot_push(it, s, true);
        }
        if (s->rec != s->rec_end && (size_t)(s->mem_end - s->mem) >= need) {
            return true;
        }
    }
    struct iter_batch *b = s->cur;
    if (b != NULL && s->rec == b->recs) { // a record longer than the arena: grow it, still empty
        if (FRD__RESERVE(b->arena, b->acap, need, need) < 0) {
            uv_mutex_lock(&it->mu);
            it->nomem = true; // the walk stops: its end says FRD_ENOMEM
            uv_mutex_unlock(&it->mu);
            return false;
        }
    } else {
        if (b != NULL) {
            slot_push(it, s, false);
        }
        if ((b = batch_take(it, need)) == NULL) {
            return false;
        }
        s->cur = b;
        s->rec = b->recs;
        s->rec_end = b->recs + it->bs;
        s->ent = b->ents;
    }
    s->mem = b->arena;
    s->mem_end = b->arena + b->acap;
    return true;
}

/**
 * The next record of slot `s`, with `need` arena bytes at s->mem: a batch whose arena is
 * full is handed over first, and an empty one taken. Write every member of the record, then
 * call slot_record_done(). @return the record, or NULL when the walk is to stop.
 */
static inline struct frd_walk_iter_record *slot_record(struct frd_walk_iter *it,
                                                       struct iter_slot *s, size_t need)
{
    if (s->rec == s->rec_end || (size_t)(s->mem_end - s->mem) < need || slot_asked(it, s)) {
        if (!slot_refill(it, s, need)) {
            return NULL;
        }
    }
    return s->rec;
}

/** The slot's record is finished: a full batch goes to the consumer at once (not held until
 *  the worker's next record, which may come late or never). */
static inline void slot_record_done(struct frd_walk_iter *it, struct iter_slot *s)
{
    if (++s->rec == s->rec_end) {
        slot_push(it, s, false);
    }
}

/** Copies `len` bytes and a NUL to *mem, moving it on. @return the copy. */
static inline const char *put_str(char **mem, const char *s, size_t len)
{
    char *d = *mem;
    memcpy(d, s, len);
    d[len] = '\0';
    *mem = d + len + 1;
    return d;
}

/** Room for an object of `size` bytes and alignment `align` at *mem. @return it. */
static inline void *put_obj(char **mem, size_t size, size_t align)
{
    char *p = *mem + ((align - (uintptr_t)*mem % align) % align);
    *mem = p + size;
    return p;
}

/** Whether the entry's name is the end of its path (then it is not copied twice). */
static bool name_in_path(const struct frd_walk_entry *we)
{
    const struct frd_entry *e = we->entry;
    return e->name_len <= we->path_len &&
           memcmp(we->path + we->path_len - e->name_len, e->name, e->name_len) == 0;
}

/** Whether a visit's record has an extra part (frd.h: NULL only for a plain visit). */
static inline bool entry_has_extra(const struct frd_walk_entry *we)
{
    return we->link_target != NULL || we->xattr_count > 0 || we->link_group != 0;
}

/** Arena bytes for a visit's extra part, its strings and extended attributes (with room to
 *  align). */
static size_t extra_need(const struct frd_walk_entry *we)
{
    size_t need = _Alignof(struct frd_walk_iter_extra) + sizeof(struct frd_walk_iter_extra);
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
static void put_xattrs(struct frd_walk_iter_extra *x, const struct frd_walk_entry *we, char **mem)
{
    struct frd_xattr *xs = put_obj(mem, we->xattr_count * sizeof(*xs), _Alignof(struct frd_xattr));
    for (size_t i = 0; i < we->xattr_count; i++) {
        const struct frd_xattr *a = &we->xattrs[i];
        xs[i] = *a;
        xs[i].name = put_str(mem, a->name, a->name_len);
        if (a->value != NULL) {
            memcpy(*mem, a->value, a->value_len);
            xs[i].value = *mem;
            *mem += a->value_len;
        }
    }
    x->xattrs = xs;
    x->xattr_count = we->xattr_count;
}

/** A visit's extra part in the arena at *mem (room from extra_need()). @return it. */
static struct frd_walk_iter_extra *put_extra(const struct frd_walk_entry *we, char **mem)
{
    struct frd_walk_iter_extra *x = put_obj(mem, sizeof(*x), _Alignof(struct frd_walk_iter_extra));
    *x = (struct frd_walk_iter_extra){.link_group = we->link_group};
    if (we->link_target != NULL) {
        x->link_target = put_str(mem, we->link_target, we->link_target_len);
        x->link_target_len = we->link_target_len;
    }
    if (we->xattr_count > 0) {
        put_xattrs(x, we, mem);
    }
    if (we->link_first != NULL) {
        x->link_first = put_str(mem, we->link_first, we->link_first_len);
        x->link_first_len = we->link_first_len;
    }
    return x;
}

/** The slot's copy of a visit's entry, its name `name`. @return it; NULL in a walk of names
 *  and types (no entries). */
static inline struct frd_entry *put_entry(struct iter_slot *s, const struct frd_entry *e,
                                          const char *name)
{
    struct frd_entry *c = s->ent;
    if (c != NULL) {
        s->ent = c + 1;
        *c = *e;
        c->name = name;
    }
    return c;
}

/**
 * Writes every member of a visit's record but dir_id and extra, its path in the slot's
 * arena, its name after the path when `name_apart` (a root whose path does not end with
 * it), and its entry but in a walk of names and types.
 */
static inline void put_visit(const struct frd_walk_iter *it, struct iter_slot *s,
                             struct frd_walk_iter_record *r, const struct frd_walk_entry *we,
                             enum frd_walk_iter_kind kind, bool name_apart)
{
    char **mem = &s->mem;
    const struct frd_entry *e = we->entry;
    r->path = put_str(mem, we->path, we->path_len);
    r->name =
        name_apart ? put_str(mem, e->name, e->name_len) : r->path + we->path_len - e->name_len;
    r->entry = put_entry(s, e, r->name);
    r->parent_id = (uint64_t)(uintptr_t)we->parent_state;
    r->file_id = e->file_id;
    r->path_len = (uint32_t)we->path_len;
    r->name_len = (uint32_t)e->name_len;
    r->depth = we->depth;
    r->root_index = we->root_index;
    r->error = e->error;
    r->fields = e->fields & it->fields_kept;
    r->kind = (uint8_t)kind;
    r->type = (uint8_t)e->type;
    r->worker = (uint16_t)we->worker;
    r->is_root = we->is_root;
    r->followed_link = we->followed_link;
    r->persistent_ids = we->persistent_ids;
}

/**
 * A record of a visit or a finished directory with its extra part (a root, an opt-in field,
 * or a finished directory). @return the record (dir_id left to the caller), or NULL when the
 * walk is to stop.
 */
static struct frd_walk_iter_record *put_entry_extra(struct frd_walk_iter *it, struct iter_slot *s,
                                                    const struct frd_walk_entry *we,
                                                    enum frd_walk_iter_kind kind, bool extra)
{
    // Below a root the name ends the path (frd.h): compared only for a root.
    bool apart = we->is_root && !name_in_path(we);
    size_t need =
        we->path_len + 1 + (apart ? we->entry->name_len + 1 : 0) + (extra ? extra_need(we) : 0);
    struct frd_walk_iter_record *r = slot_record(it, s, need);
    if (r == NULL) {
        return NULL;
    }
    put_visit(it, s, r, we, kind, apart);
    r->extra = extra ? put_extra(we, &s->mem) : NULL;
    return r;
}

/** A number no other directory of this walk has (the slot's count, times the slots, plus the
 *  slot), stored in the directory's state for its entries' parent_id. @return it. */
static inline uint64_t dir_number(struct frd_walk_iter *it, struct iter_slot *s,
                                  const struct frd_walk_entry *we)
{
    uint64_t id = ++s->next_id * it->nslots + we->worker;
    *we->dir_state = (void *)(uintptr_t)id;
    return id;
}

/** A visit's record the general way: a root, an opt-in field, or a batch to hand over or
 *  take first (see visit()). */
static enum frd_action visit_slow(struct frd_walk_iter *it, const struct frd_walk_entry *we)
{
    struct iter_slot *s = &it->slots[we->worker];
    bool extra = entry_has_extra(we);
    struct frd_walk_iter_record *r = put_entry_extra(it, s, we, FRD_WALK_ITER_ENTRY, extra);
    if (r == NULL) {
        return FRD_ACTION_STOP;
    }
    r->dir_id = we->dir_state != NULL ? dir_number(it, s, we) : 0;
    slot_record_done(it, s);
    return FRD_ACTION_CONTINUE;
}

/**
 * A visit's record. The fast path, most of a walk, is a plain visit below a root (the walk
 * has no opt-in fields, or this entry none) with room in the slot's batch for it and one
 * more record (so no hand-over), the consumer asking for nothing: it writes the record (and
 * the entry, but in a walk of names and types), then copies the path last, with nothing
 * left to do after that call.
 */
static enum frd_action iter_visit(const struct frd_walk_entry *we, void *udata)
{
    struct frd_walk_iter *it = udata;
    struct iter_slot *s = &it->slots[we->worker];
    struct frd_walk_iter_record *r = s->rec;
    char *d = s->mem;
    const char *path = we->path;
    size_t len = we->path_len;
    if (we->is_root || (it->opt_in && entry_has_extra(we)) || s->rec_end - r < 2 ||
        (size_t)(s->mem_end - d) <= len || slot_asked(it, s)) {
        return visit_slow(it, we);
    }
    FRD_ASSERT(name_in_path(we));
    const struct frd_entry *e = we->entry;
    s->rec = r + 1;
    s->mem = d + len + 1;
    const char *name = d + len - e->name_len;
    r->path = d;
    r->name = name;
    r->entry = put_entry(s, e, name);
    r->extra = NULL;
    r->dir_id = we->dir_state != NULL ? dir_number(it, s, we) : 0;
    r->parent_id = (uint64_t)(uintptr_t)we->parent_state;
    r->file_id = e->file_id;
    r->path_len = (uint32_t)len;
    r->name_len = (uint32_t)e->name_len;
    r->depth = we->depth;
    r->root_index = we->root_index;
    r->error = e->error;
    r->fields = e->fields & it->fields_kept;
    r->kind = FRD_WALK_ITER_ENTRY;
    r->type = (uint8_t)e->type;
    r->worker = (uint16_t)we->worker;
    r->is_root = false;
    r->followed_link = we->followed_link;
    r->persistent_ids = we->persistent_ids;
    d[len] = '\0';
    memcpy(d, path, len);
    return FRD_ACTION_CONTINUE;
}

static void iter_dir_done(const struct frd_walk_entry *dir,
                          const struct frd_walk_dir_totals *totals, void *udata)
{
    struct frd_walk_iter *it = udata;
    struct iter_slot *s = &it->slots[dir->worker];
    struct frd_walk_iter_record *r = put_entry_extra(it, s, dir, FRD_WALK_ITER_DIR_DONE, true);
    if (r != NULL) {
        r->dir_id = dir->dir_state != NULL ? (uint64_t)(uintptr_t)*dir->dir_state : 0;
        ((struct frd_walk_iter_extra *)(uintptr_t)r->extra)->totals = *totals;
        slot_record_done(it, s);
    }
}

static enum frd_action iter_error(const struct frd_walk_error *err, void *udata)
{
    struct frd_walk_iter *it = udata;
    struct iter_slot *s = &it->slots[err->worker];
    size_t plen = strlen(err->path);
    size_t olen = err->other_path != NULL ? strlen(err->other_path) : 0;
    size_t need = plen + 1 + (err->other_path != NULL ? olen + 1 : 0) +
                  _Alignof(struct frd_walk_iter_extra) + sizeof(struct frd_walk_iter_extra);
    struct frd_walk_iter_record *r = slot_record(it, s, need);
    if (r == NULL) {
        return FRD_ACTION_STOP;
    }
    struct frd_walk_iter_extra *x =
        put_obj(&s->mem, sizeof(*x), _Alignof(struct frd_walk_iter_extra));
    *x = (struct frd_walk_iter_extra){.code = err->code, .call = err->call, .op = err->op};
    if (err->other_path != NULL) {
        x->other_path = put_str(&s->mem, err->other_path, olen);
    }
    *r = (struct frd_walk_iter_record){
        .path = put_str(&s->mem, err->path, plen),
        .extra = x,
        .path_len = (uint32_t)plen,
        .depth = err->depth,
        .kind = FRD_WALK_ITER_ERROR,
        .worker = (uint16_t)err->worker,
    };
    slot_record_done(it, s);
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
        struct iter_batch *b = slot_detach(&it->slots[i]);
        if (b == NULL) {
            continue;
        }
        if (b->n == 0 || it->closing) {
            room_release(it, b);
        } else {
            queue_push(it, b);
        }
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
    frd__free(it->slots_mem);
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
    o->on_names = NULL; // each entry is a record
    o->on_children = o->on_children != NULL ? iter_children : NULL;
    o->on_progress = o->on_progress != NULL ? iter_progress : NULL;
    o->on_dir_done = (o->flags & FRD_WALK_DIR_DONE_RECORDS) ? iter_dir_done : NULL;
    it->opt_in = o->flags & (FRD_WALK_LINK_TARGETS | FRD_WALK_XATTRS | FRD_WALK_LINK_GROUPS);
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
    atomic_init(&it->ask, 0);
    it->udata = udata;
    struct frd_walk_options o;
    struct frd_walk *walk = NULL;
    int rc = iter_options(it, &o, opts);
    if (rc == 0) {
        rc = frd__walk_prepare(&walk, roots, nroots, &o, iter_visit, it);
    }
    if (rc == 0) {
        it->nslots = frd_walk_workers(walk);
        it->names_only = frd__walk_names_only(walk);
        it->fields_kept = it->names_only ? FRD_FIELD_TYPE | FRD_FIELD_FILE_ID : ~0u;
        if (it->cap < it->nslots) {
            it->cap = it->nslots; // a record per worker at least
        }
        it->bs = it->cap / it->nslots;
        it->bs = it->bs < ITER_BATCH_MAX ? it->bs : ITER_BATCH_MAX;
        // A slot a line: each is written at every record by its worker alone (malloc aligns
        // to 16 bytes, so a slot would share a line with its neighbour, written by another).
        it->slots_mem = frd__calloc(1, ITER_LINE + it->nslots * sizeof(*it->slots));
        if (it->slots_mem != NULL) {
            char *p = it->slots_mem;
            it->slots = (void *)(p + (ITER_LINE - (uintptr_t)p % ITER_LINE) % ITER_LINE);
        }
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

/**
 * The consumer finds the queue empty, the walk not ended (mu held): once it has waited so
 * for ITER_NOTICE_NS (across calls), it asks the slots for their partial batches, and again
 * every ITER_NOTICE_NS. @return uv_hrtime().
 */
static uint64_t consumer_waits(struct frd_walk_iter *it)
{
    uint64_t now = uv_hrtime();
    if (it->empty_since == 0) {
        it->empty_since = now;
    } else if (now - it->empty_since >= ITER_NOTICE_NS) {
        it->empty_since = now;
        it->asks++;
        atomic_fetch_add_explicit(&it->ask, 1, memory_order_relaxed);
    }
    return now;
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
        consumer_waits(it);
        (void)uv_cond_timedwait(&it->ready, &it->mu, ITER_NOTICE_NS);
    }
    it->empty_since = 0;
    struct iter_batch *b = it->head;
    if (b != NULL) {
        it->head = b->next;
        if (it->head == NULL) {
            it->tail = NULL;
        }
        it->queued--;
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
            it->empty_since = 0;
            break;
        }
        uint64_t now = consumer_waits(it);
        if (now >= until) {
            break;
        }
        (void)uv_cond_timedwait(&it->ready, &it->mu,
                                until - now < ITER_NOTICE_NS ? until - now : ITER_NOTICE_NS);
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
    st->asks = it->asks;
    uv_mutex_unlock(&it->mu);
    return 0;
}
