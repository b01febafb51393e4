// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's large listings (directories of more than one kernel batch): the lister
 * turns each batch into a run of 24-byte records and names, idle threads sort the runs and
 * merge those of a level while the directory is still being read, and when it is read the
 * runs left are merged a chunk at a time, each chunk resolved into items (stat, links,
 * child nodes) by the thread that merged it. So the sort costs the listing little wall time,
 * the first entries come out as soon as the listing ends, and memory is the names and
 * records, not an item per entry. See walker/ordered/consumer.c for the whole protocol.
 */
#include "large.h"

#include "introsort.h"
#include "ordered_int.h"
#include "results.h"
#include "sort.h"

#include <string.h>

/* ---- Records ---- */

/** Names a and b (at na and nb) in byte order: <0, 0 (equal) or >0. */
static int rec_cmp(const char *na, const struct o_rec *a, const char *nb, const struct o_rec *b)
{
    if (a->key != b->key) {
        return a->key < b->key ? -1 : 1;
    }
    return frd__o_name_cmp_past(na + a->name_off, a->name_len, nb + b->name_off, b->name_len, 8);
}

/** The order of frd_list_sort(): by name in byte order, then by position in the listing. */
static bool rec_less(const char *names, const struct o_rec *a, const struct o_rec *b)
{
    if (a->key != b->key) {
        return a->key < b->key;
    }
    int c = rec_cmp(names, a, names, b);
    return c != 0 ? c < 0 : a->name_off < b->name_off;
}

/** Sorts n records whose names are at `names` + name_off. */
FRD__INTROSORT(rec_sort_all, struct o_rec, const char *, rec_less)

/** The record of an entry whose name is at `names` + name_off. */
static void rec_set(struct o_rec *rec, const struct frd_entry *e, size_t name_off)
{
    rec->key = frd__name_key(e->name, e->name_len);
    rec->name_off = (uint32_t)name_off;
    rec->name_len = (uint16_t)e->name_len;
    rec->type = (uint8_t)e->type;
    rec->state = O_REC_READY;
}

/** Bytes a name of len bytes takes in lg's names: its NUL, and the early field's 8 after
 *  it in a walk that stats one ahead. */
static size_t name_room(const struct o_large *lg, size_t len)
{
    return len + 1 + (lg->early != 0 ? sizeof(uint64_t) : 0);
}

/** The early field (or stat error) of the record whose names are at `names`. */
static uint64_t rec_early(const char *names, const struct o_rec *rec)
{
    uint64_t v;
    memcpy(&v, names + rec->name_off + rec->name_len + 1, sizeof(v));
    return v;
}

/** Sets the early field (or stat error) of the record whose names are at `names`. */
static void rec_early_set(char *names, const struct o_rec *rec, uint64_t v)
{
    memcpy(names + rec->name_off + rec->name_len + 1, &v, sizeof(v));
}

/** The one field of an entry stat'ed ahead (bit: an FRD_FIELD_ that fits in 8 bytes). */
static uint64_t early_get(unsigned bit, const struct frd_entry *e)
{
    switch (bit) {
    case FRD_FIELD_SIZE:
        return e->size;
    case FRD_FIELD_ALLOC_SIZE:
        return e->alloc_size;
    case FRD_FIELD_MTIME:
        return (uint64_t)e->mtime_ns;
    case FRD_FIELD_CTIME:
        return (uint64_t)e->ctime_ns;
    case FRD_FIELD_ATIME:
        return (uint64_t)e->atime_ns;
    case FRD_FIELD_BTIME:
        return (uint64_t)e->btime_ns;
    case FRD_FIELD_DEV:
        return e->dev;
    case FRD_FIELD_RDEV:
        return e->rdev;
    default:
        return e->nlink;
    }
}

static void early_put(unsigned bit, uint64_t v, struct frd_entry *e)
{
    switch (bit) {
    case FRD_FIELD_SIZE:
        e->size = v;
        break;
    case FRD_FIELD_ALLOC_SIZE:
        e->alloc_size = v;
        break;
    case FRD_FIELD_MTIME:
        e->mtime_ns = (int64_t)v;
        break;
    case FRD_FIELD_CTIME:
        e->ctime_ns = (int64_t)v;
        break;
    case FRD_FIELD_ATIME:
        e->atime_ns = (int64_t)v;
        break;
    case FRD_FIELD_BTIME:
        e->btime_ns = (int64_t)v;
        break;
    case FRD_FIELD_DEV:
        e->dev = v;
        break;
    case FRD_FIELD_RDEV:
        e->rdev = v;
        break;
    default:
        e->nlink = (uint32_t)v;
        break;
    }
}

/** The field a walk that wants `fields` may have stat'ed ahead (records hold type and
 *  inode): the one beyond those, if it is one of 8 bytes; else 0. */
static unsigned early_field(unsigned fields)
{
    unsigned extra = fields & ~(unsigned)(FRD_FIELD_TYPE | FRD_FIELD_FILE_ID);
    const unsigned fit = FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE | FRD_FIELD_MTIME | FRD_FIELD_CTIME |
                         FRD_FIELD_ATIME | FRD_FIELD_BTIME | FRD_FIELD_DEV | FRD_FIELD_RDEV |
                         FRD_FIELD_NLINK;
    return extra != 0 && (extra & (extra - 1)) == 0 && (extra & fit) ? extra : 0;
}

/** The entry a record stands for, with the fields the listing gave (no name). */
static void rec_entry(const struct o_large *lg, const struct o_rec *rec, struct frd_entry *e)
{
    memset(e, 0, sizeof(*e));
    e->name_len = rec->name_len;
    e->type = (enum frd_type)rec->type;
    e->file_id = rec->ino;
    e->fields = lg->fields;
}

/* ---- Runs ---- */

/** A run with room for n records and `names` bytes of names (one allocation), or NULL. */
static struct o_run *run_new(size_t n, size_t names)
{
    size_t head = (sizeof(struct o_run) + 7) & ~(size_t)7;
    if (n > (SIZE_MAX - head - names) / sizeof(struct o_rec)) {
        return NULL;
    }
    struct o_run *run = frd__malloc(head + n * sizeof(struct o_rec) + names);
    if (run == NULL) {
        return NULL;
    }
    memset(run, 0, sizeof(*run));
    run->recs = (struct o_rec *)(void *)((char *)run + head);
    run->names = (char *)(run->recs + n);
    return run;
}

/** Makes a run of a batch's entries (unsorted) and adds it to the listing's runs (takes mu).
 *  @return 0 or FRD_ENOMEM. */
static int run_add(struct frd__ordered *o, struct o_large *lg, const struct frd_list *list,
                   size_t seq)
{
    size_t n = frd_list_count(list);
    const struct frd_entry *v = frd_list_entries(list);
    if (n == 0) {
        return 0;
    }
    size_t names = 0;
    for (size_t i = 0; i < n; i++) {
        names += name_room(lg, v[i].name_len);
    }
    struct o_run *run = names < UINT32_MAX ? run_new(n, names) : NULL;
    if (run == NULL) {
        return FRD_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        struct o_rec *rec = &run->recs[i];
        rec_set(rec, &v[i], run->names_len);
        rec->ino = v[i].file_id;
        memcpy(run->names + run->names_len, v[i].name, v[i].name_len + 1);
        run->names_len += name_room(lg, v[i].name_len);
        if (lg->early != 0) {
            // A batch read with every field gives it; else 0 until the stat ahead.
            bool given = v[i].error >= 0 && (v[i].fields & lg->early);
            rec_early_set(run->names, rec, given ? early_get(lg->early, &v[i]) : 0);
        }
        if (v[i].error < 0 || (lg->early != 0 && !(v[i].fields & lg->early))) {
            // Stat'ed again for the error, or (early field) by the thread that sorts the run.
            rec->state = O_REC_STAT;
        }
    }
    run->n = n;
    run->seq = seq;
    uv_mutex_lock(&o->mu);
    run->next = lg->runs;
    lg->runs = run;
    lg->nruns++;
    lg->nrecs += n;
    if (o->idle > 0) {
        uv_cond_signal(&o->work_cond); // a run to sort
    }
    uv_mutex_unlock(&o->mu);
    return 0;
}

/** Stats the entries of a run that lack lg's early field, in listing order (the
 *  directory's own order, where a stat costs less than in name order). */
static void run_stat_ahead(struct o_large *lg, struct o_run *run)
{
    for (size_t i = 0; i < run->n; i++) {
        struct o_rec *rec = &run->recs[i];
        if (rec->state != O_REC_STAT) {
            continue;
        }
        struct frd_entry e;
        struct frd_entry st;
        rec_entry(lg, rec, &e);
        e.name = run->names + rec->name_off;
        if (!frd__entry_stat_late(lg->walk, &e, lg->fd, &st)) {
            rec->state = O_REC_GONE;
        } else if (st.error < 0) {
            rec->state = O_REC_ERR;
            rec_early_set(run->names, rec, (uint64_t)(int64_t)st.error);
        } else if (st.fields & lg->early) {
            rec->state = O_REC_READY;
            rec_early_set(run->names, rec, early_get(lg->early, &st));
            rec->type = (uint8_t)st.type;
        }
    }
}

/** Sorts a run (its names stay where they are: a batch's names are close together), its
 *  early field stat'ed first. */
static void run_sort(struct o_large *lg, struct o_run *run)
{
    if (lg->early != 0) {
        run_stat_ahead(lg, run);
    }
    rec_sort_all(run->names, run->recs, run->n);
}

/** Merges runs a and b (a's seq first among equal names) into a new run, or NULL (no
 *  memory). */
static struct o_run *run_merge(const struct o_large *lg, const struct o_run *a,
                               const struct o_run *b)
{
    struct o_run *m = run_new(a->n + b->n, a->names_len + b->names_len);
    if (m == NULL) {
        return NULL;
    }
    size_t i = 0;
    size_t j = 0;
    size_t k = 0;
    size_t len = 0;
    while (i < a->n || j < b->n) {
        bool from_a =
            j == b->n ||
            (i < a->n && (a->recs[i].key != b->recs[j].key
                              ? a->recs[i].key < b->recs[j].key
                              : rec_cmp(a->names, &a->recs[i], b->names, &b->recs[j]) <= 0));
        const struct o_rec *r = from_a ? &a->recs[i++] : &b->recs[j++];
        const char *name = (from_a ? a->names : b->names) + r->name_off;
        size_t room = name_room(lg, r->name_len);
        m->recs[k] = *r;
        m->recs[k++].name_off = (uint32_t)len;
        memcpy(m->names + len, name, room);
        len += room;
    }
    m->n = k;
    m->names_len = len;
    m->seq = a->seq;
    m->level = a->level + 1;
    m->sorted = true;
    return m;
}

/** Takes run off lg's list of runs, which holds it. */
static void run_unlink(struct o_large *lg, struct o_run *run)
{
    for (struct o_run **p = &lg->runs; *p != NULL; p = &(*p)->next) {
        if (*p == run) {
            *p = run->next;
            lg->nruns--;
            return;
        }
    }
    FRD_ASSERT(!"run_unlink: the run is not on the list");
}

/**
 * A run task of lg, if there is one: a run to sort (the oldest first), else (while it is
 * listed) two sorted runs of the same level below O_RUN_LEVELS to merge. Marks them busy.
 */
static bool run_pick(struct o_large *lg, struct o_run **a, struct o_run **b)
{
    struct o_run *unsorted = NULL;
    for (struct o_run *r = lg->runs; r != NULL; r = r->next) {
        if (!r->sorted && !r->busy) {
            unsorted = r; // the list is newest first: the last found is the oldest
        }
    }
    if (unsorted != NULL) {
        *a = unsorted;
        *b = NULL;
        unsorted->busy = true;
        return true;
    }
    if (lg->listed || lg->no_merges) {
        return false;
    }
    struct o_run *at[O_RUN_LEVELS] = {NULL};
    for (struct o_run *r = lg->runs; r != NULL; r = r->next) {
        if (!r->sorted || r->busy || r->level >= O_RUN_LEVELS) {
            continue;
        }
        if (at[r->level] == NULL) {
            at[r->level] = r;
            continue;
        }
        // Newest first: r is older than at[level].
        if (r->names_len + at[r->level]->names_len >= UINT32_MAX) {
            continue;
        }
        *a = r;
        *b = at[r->level];
        r->busy = true;
        (*b)->busy = true;
        return true;
    }
    return false;
}

/** Does a run task of lg (mu held, dropped while working). */
static void run_task(struct frd__ordered *o, struct o_large *lg, struct o_run *a, struct o_run *b)
{
    lg->busy++;
    uv_mutex_unlock(&o->mu);
    struct o_run *m = NULL;
    if (b == NULL) {
        run_sort(lg, a);
    } else {
        m = run_merge(lg, a, b);
    }
    uv_mutex_lock(&o->mu);
    if (b == NULL) {
        a->sorted = true;
        a->busy = false;
    } else if (m == NULL) {
        lg->no_merges = true;
        a->busy = false;
        b->busy = false;
    } else {
        run_unlink(lg, a);
        run_unlink(lg, b);
        m->next = lg->runs;
        lg->runs = m;
        lg->nruns++;
        frd__free(a);
        frd__free(b);
    }
    lg->busy--;
    uv_cond_broadcast(&lg->cond);
}

bool frd__o_run_task(struct frd__ordered *o)
{
    for (struct o_large *lg = o->building; lg != NULL; lg = lg->next) {
        struct o_run *a;
        struct o_run *b;
        if (run_pick(lg, &a, &b)) {
            run_task(o, lg, a, b);
            return true;
        }
    }
    return false;
}

/* ---- The final merge, a chunk at a time ---- */

static bool head_less(const struct o_head *x, const struct o_head *y)
{
    if (x->key != y->key) {
        return x->key < y->key;
    }
    const struct o_run *a = x->run;
    const struct o_run *b = y->run;
    int c = rec_cmp(a->names, &a->recs[a->at], b->names, &b->recs[b->at]);
    return c != 0 ? c < 0 : a->seq < b->seq;
}

static void heads_sift(struct o_head *h, size_t i, size_t n)
{
    struct o_head x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) {
            break;
        }
        if (c + 1 < n && head_less(&h[c + 1], &h[c])) {
            c++;
        }
        if (!head_less(&h[c], &x)) {
            break;
        }
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/**
 * The listing is read: sorts the runs nobody took, waits for those being sorted or merged,
 * and makes the heap of the final merge (mu held, dropped while sorting). @return 0 or
 * FRD_ENOMEM.
 */
static int runs_finish(struct frd__ordered *o, struct o_large *lg)
{
    lg->listed = true;
    for (;;) {
        struct o_run *a;
        struct o_run *b;
        if (run_pick(lg, &a, &b)) {
            run_task(o, lg, a, b);
        } else if (lg->busy > 0) {
            uv_cond_wait(&lg->cond, &o->mu);
        } else {
            break;
        }
    }
    struct o_large **p = &o->building;
    while (*p != lg) {
        p = &(*p)->next;
    }
    *p = lg->next;
    lg->next = NULL;
    FRD_ASSERT(lg->busy == 0); // every run task ended: the runs are the merge's alone
    if (FRD__RESERVE(lg->heads, lg->heads_cap, lg->nruns, 16) < 0) {
        lg->merge_err = FRD_ENOMEM; // every chunk comes out empty: the walk stops
        return FRD_ENOMEM;
    }
    lg->nheads = 0;
    for (struct o_run *r = lg->runs; r != NULL; r = r->next) {
        lg->nheads_recs += r->n;
        r->at = 0;
        lg->heads[lg->nheads].key = r->recs[0].key;
        lg->heads[lg->nheads++].run = r;
    }
    lg->runs = NULL; // the heap holds them now
    lg->nruns = 0;
    for (size_t i = lg->nheads / 2; i-- > 0;) {
        heads_sift(lg->heads, i, lg->nheads);
    }
    return 0;
}

/**
 * Takes the next n records of the final merge into slot s, their names into the slot's
 * names; a run is freed once it is taken. @return 0 or FRD_ENOMEM (the walk stops).
 */
static int merge_out(struct o_large *lg, size_t s, size_t n)
{
    FRD_ASSERT(s < lg->nslots && n <= O_CHUNK);
    if (lg->merge_err < 0 || n > lg->nheads_recs) {
        lg->merge_err = FRD_ENOMEM;
        return lg->merge_err;
    }
    lg->nheads_recs -= n;
    struct o_rec *out = &lg->slot_recs[s * O_CHUNK];
    struct o_slot_names *sn = &lg->slot_names[s];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        FRD_ASSERT(lg->nheads > 0);
        struct o_head *h = &lg->heads[0];
        struct o_run *run = h->run;
        const struct o_rec *rec = &run->recs[run->at++];
        size_t room = name_room(lg, rec->name_len);
        if (FRD__RESERVE(sn->p, sn->cap, len + room, 16384) < 0) {
            lg->merge_err = FRD_ENOMEM; // the walk stops: the merge is left as it is
            return lg->merge_err;
        }
        out[i] = *rec;
        out[i].name_off = (uint32_t)len;
        memcpy(sn->p + len, run->names + rec->name_off, room);
        len += room;
        if (run->at < run->n) {
            h->key = run->recs[run->at].key;
        } else {
            frd__free(run);
            lg->heads[0] = lg->heads[--lg->nheads];
        }
        if (lg->nheads > 1) {
            heads_sift(lg->heads, 0, lg->nheads);
        }
    }
    return 0;
}

/* ---- Large listings ---- */

int frd__o_read(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                enum frd__vol_class cls, struct o_result *r)
{
    struct frd_walk *walk = w->walk;
    struct frd_lister *lister = w->lister;
    frd_list_clear(w->list);
    int rc = frd_lister_batch_begin(lister, fd, NULL);
    if (rc < 0) {
        return rc;
    }
    rc = frd_lister_batch_read(lister, w->list);
    if (rc <= 0) {
        frd_lister_batch_end(lister);
        return rc;
    }
    // Records hold type and inode: what the walk wants beyond those is stat'ed by chunk.
    bool late_stat =
        (walk->plan.list_fields & ~(unsigned)(FRD_FIELD_TYPE | FRD_FIELD_FILE_ID)) != 0;
    unsigned split_fields =
        late_stat ? (walk->plan.list_fields & frd__plat_record_fields) | FRD_FIELD_TYPE
                  : walk->plan.list_fields;
    // A first batch that filled the kernel's buffer is most likely followed by more: it is
    // the first run at once, so that the list never holds two batches (on /usr/share/man/man1,
    // 190 KiB more of it, touched for the first time, on each thread). Else the next batch
    // says whether it is large; a walk that stats late reads the others with fewer fields.
    bool run_now = lister->batch_full && !late_stat;
    size_t first = 0;
    if (!run_now) {
        frd_lister_set_fields(lister, split_fields);
        first = frd_list_count(w->list);
        rc = frd_lister_batch_read(lister, w->list);
        if (frd_list_count(w->list) == first) {
            frd_lister_set_fields(lister, walk->plan.list_fields);
            frd_lister_batch_end(lister);
            return rc < 0 ? rc : 0;
        }
    }
    struct frd__ordered *o = walk->ordered;
    uv_mutex_lock(&o->mu);
    struct o_large *lg = frd__olarge_get(o);
    if (lg != NULL) {
        lg->next = o->building; // its runs may be sorted by any thread that is idle
        o->building = lg;
    }
    uv_mutex_unlock(&o->mu);
    if (lg == NULL) {
        rc = FRD_ENOMEM;
    } else {
        lg->fields = frd_list_entries(w->list)[first].fields;
        lg->walk = walk;
        lg->fd = fd; // for the stats ahead, while it is listed
        lg->early = late_stat ? early_field(walk->plan.list_fields) : 0;
        for (size_t seq = 0;; seq++) {
            int arc = run_add(o, lg, w->list, seq);
            frd_list_clear(w->list);
            if (arc < 0) {
                rc = arc;
                break;
            }
            if (rc <= 0) {
                break;
            }
            rc = frd_lister_batch_read(lister, w->list);
        }
        if (!late_stat) {
            lg->fields &= walk->plan.list_fields;
        }
        uv_mutex_lock(&o->mu);
        if (runs_finish(o, lg) < 0 && rc >= 0) {
            rc = FRD_ENOMEM;
        }
        uv_mutex_unlock(&o->mu);
        lg->node = node;
        lg->fd = fd;
        lg->cls = cls;
        lg->late_stat = late_stat && lg->early == 0;
        lg->nchunks = (lg->nrecs + O_CHUNK - 1) / O_CHUNK;
        // Decided once, before any other thread resolves a chunk of it.
        lg->keep = frd__keep_fd(w, node, fd);
        r->lg = lg;
        r->items = NULL;
        r->items_cap = 0;
        r->names = NULL;
        r->names_len = 0;
        r->names_cap = 0;
    }
    frd_lister_set_fields(lister, walk->plan.list_fields);
    frd_lister_batch_end(lister);
    return rc < 0 ? rc : 0;
}

bool frd__o_chunk_ready(const struct o_large *lg, size_t k)
{
    return lg->ready[k % lg->nslots] == k;
}

const char *frd__o_chunk_name(const struct o_large *lg, size_t k, const struct o_item *it)
{
    return lg->slot_names[k % lg->nslots].p + it->name_off;
}

bool frd__o_chunk_take(struct frd__worker *w, struct frd__ordered *o, struct o_large *lg)
{
    size_t k = lg->next_claim;
    if (lg->closed || k >= lg->nchunks || k >= lg->base + lg->nslots) {
        return false;
    }
    lg->next_claim++;
    lg->inflight++;
    // Chunks leave the final merge in order: the one before this is being merged now.
    while (lg->merged != k) {
        uv_cond_wait(&lg->cond, &o->mu);
    }
    uv_mutex_unlock(&o->mu);

    struct frd_walk *walk = w->walk;
    struct frd__wnode *node = lg->node;
    size_t s = k % lg->nslots;
    struct o_item *items = &lg->slots[s * O_CHUNK];
    const struct o_rec *recs = &lg->slot_recs[s * O_CHUNK];
    size_t lo = k * O_CHUNK;
    size_t n = lg->nrecs - lo < O_CHUNK ? lg->nrecs - lo : O_CHUNK;
    int merr = merge_out(lg, s, n);

    uv_mutex_lock(&o->mu);
    lg->merged = k + 1;
    uv_cond_broadcast(&lg->cond);
    uv_mutex_unlock(&o->mu);

    bool keep = lg->keep;
    size_t made = 0;
    uint64_t bytes = 0;
    const char *names = lg->slot_names[s].p;
    for (size_t i = 0; i < n; i++) {
        const struct o_rec *rec = &recs[i];
        struct o_item *it = &items[i];
        const struct frd_entry *ep = NULL;
        struct frd_entry e;
        struct frd_entry st;
        if (merr == 0 && rec->state != O_REC_GONE) {
            rec_entry(lg, rec, &e);
            e.name = names + rec->name_off;
            ep = &e;
            if (lg->late_stat || rec->state == O_REC_STAT) {
                ep = frd__entry_stat_late(walk, &e, lg->fd, &st) ? &st : NULL;
            } else if (rec->state == O_REC_ERR) {
                e.error = (int)(int64_t)rec_early(names, rec);
            } else if (lg->early != 0) {
                e.fields |= lg->early;
                early_put(lg->early, rec_early(names, rec), &e);
            }
        }
        if (ep == NULL) {
            // Removed since the listing: left out, as a listing leaves it out (or, with no
            // memory for the merge, nothing: the walk stops).
            it->child = NULL;
            it->flags = O_IT_SKIP;
            continue;
        }
        made++;
        bytes += ep->size;
        it->name_off = rec->name_off;
        frd__o_item_fill(w, node, lg->fd, lg->cls, ep, false, lo + i, &keep, it,
                         &lg->slot_fulls[s * O_CHUNK + i]);
    }
    frd__progress_tick(w);
    if (merr < 0) {
        frd__walk_stop(walk, merr, w);
    }

    uv_mutex_lock(&o->mu);
    int err = 0;
    struct frd__failure op = FRD__FAIL_QUEUE;
    frd__o_push_children(w, o, items, n, &err, &op);
    if (err < 0) {
        // No room on the heap: those subdirectories are not walked; the stop says why.
        uv_mutex_unlock(&o->mu);
        frd__walk_stop(walk, err, w);
        uv_mutex_lock(&o->mu);
    }
    // The slot's last chunk (k - nslots) was let go of when k was claimed (k < base + nslots).
    FRD_ASSERT(lg->ready[s] == SIZE_MAX ||
               (lg->ready[s] + lg->nslots == k && lg->ready[s] < lg->base));
    FRD_ASSERT(lg->inflight > 0);
    lg->made[s] = made;
    lg->bytes[s] = bytes;
    lg->ready[s] = k;
    lg->inflight--;
    if (o->consumer_waits) {
        uv_cond_signal(&o->ready_cond);
    }
    return true;
}

struct o_large *frd__olarge_get(struct frd__ordered *o)
{
    struct o_large *lg = o->free_large;
    if (lg != NULL) {
        o->free_large = lg->next;
    } else {
        lg = frd__calloc(1, sizeof(*lg));
        if (lg == NULL) {
            return NULL;
        }
        size_t n = o->chunk_slots * O_CHUNK;
        lg->slots = frd__malloc(n * sizeof(lg->slots[0]));
        lg->slot_recs = frd__malloc(n * sizeof(lg->slot_recs[0]));
        lg->slot_fulls = frd__malloc(n * sizeof(lg->slot_fulls[0]));
        if (lg->slots == NULL || lg->slot_recs == NULL || lg->slot_fulls == NULL ||
            uv_cond_init(&lg->cond) != 0) {
            frd__free(lg->slot_fulls);
            frd__free(lg->slot_recs);
            frd__free(lg->slots);
            frd__free(lg);
            return NULL;
        }
        if (FRD__RESERVE(o->all_large, o->large_cap, o->nlarge + 1, 8) < 0) {
            uv_cond_destroy(&lg->cond);
            frd__free(lg->slot_fulls);
            frd__free(lg->slot_recs);
            frd__free(lg->slots);
            frd__free(lg);
            return NULL;
        }
        o->all_large[o->nlarge++] = lg;
    }
    lg->next = NULL;
    lg->nslots = o->chunk_slots;
    lg->runs = NULL;
    lg->nruns = 0;
    lg->nrecs = 0;
    lg->busy = 0;
    lg->listed = false;
    lg->no_merges = false;
    lg->nheads = 0;
    lg->nheads_recs = 0;
    lg->merge_err = 0;
    lg->merged = 0;
    lg->early = 0;
    lg->nchunks = 0;
    lg->base = 0;
    lg->next_claim = 0;
    lg->inflight = 0;
    lg->closed = false;
    for (size_t i = 0; i < O_CHUNK_SLOTS; i++) {
        lg->ready[i] = SIZE_MAX;
    }
    return lg;
}

/** Frees the runs a large listing still holds (those the consumer did not get to). */
static void olarge_free_runs(struct o_large *lg)
{
    while (lg->runs != NULL) {
        struct o_run *r = lg->runs;
        lg->runs = r->next;
        frd__free(r);
    }
    for (size_t i = 0; i < lg->nheads; i++) {
        frd__free(lg->heads[i].run);
    }
    lg->nruns = 0;
    lg->nheads = 0;
}

void frd__olarge_put(struct frd__ordered *o, struct o_large *lg)
{
    olarge_free_runs(lg);
    lg->node = NULL;
    lg->next = o->free_large;
    o->free_large = lg;
}

void frd__olarge_free_all(struct frd__ordered *o)
{
    for (size_t i = 0; i < o->nlarge; i++) {
        struct o_large *lg = o->all_large[i];
        olarge_free_runs(lg);
        frd__free(lg->heads);
        for (size_t s = 0; s < O_CHUNK_SLOTS; s++) {
            frd__free(lg->slot_names[s].p);
        }
        frd__free(lg->slot_fulls);
        frd__free(lg->slot_recs);
        frd__free(lg->slots);
        uv_cond_destroy(&lg->cond);
        frd__free(lg);
    }
    frd__free(o->all_large);
}
