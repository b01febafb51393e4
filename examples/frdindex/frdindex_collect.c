// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Walks the roots on the walker's threads and hands the entries over in batches. */
#define _POSIX_C_SOURCE 200809L

#include "frdindex_collect.h"

#include "errtext.h"
#include "frdindex_snapshot.h"
#include "grow.h"
#include "toolname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_ENTRIES 4096
#define BATCH_ARENA   (256 * 1024)
#define QUEUE_MAX     64
#define SLAB_BLOCK    (64 * 1024)

/** A block of a slab: nodes packed one after another. */
struct index_slab_block {
    struct index_slab_block *next;
    _Alignas(struct index_dnode) unsigned char data[];
};

/** Makes a node in a worker's slab. @return it, or NULL when out of memory. */
static struct index_dnode *dnode_new(struct index_slab *slab, struct index_dnode *parent,
                                     const char *name, size_t len)
{
    size_t align = _Alignof(struct index_dnode);
    size_t need = (sizeof(struct index_dnode) + len + 1 + align - 1) / align * align;
    if (slab->blocks == NULL || slab->size - slab->used < need) {
        size_t size = need > SLAB_BLOCK ? need : SLAB_BLOCK;
        struct index_slab_block *b = malloc(sizeof(*b) + size);
        if (b == NULL) {
            return NULL;
        }
        b->next = slab->blocks;
        slab->blocks = b;
        slab->used = 0;
        slab->size = size;
    }
    struct index_dnode *n = (struct index_dnode *)(void *)(slab->blocks->data + slab->used);
    slab->used += need;
    n->parent = parent;
    n->dir_id = 0;
    n->name_len = (uint32_t)len;
    memcpy(n->name, name, len);
    n->name[len] = '\0';
    return n;
}

static void slab_free(struct index_slab *slab)
{
    for (struct index_slab_block *b = slab->blocks, *next; b != NULL; b = next) {
        next = b->next;
        free(b);
    }
    slab->blocks = NULL;
}

void index_batch_free(struct index_batch *batch)
{
    if (batch != NULL) {
        free(batch->recs);
        free(batch->arena);
        free(batch);
    }
}

/**
 * Below the root "/", the index keeps paths single-slashed however the walker joins them (a
 * root given as "//"): steps *path past a doubled leading slash. @return the length left.
 */
static size_t single_slashed(const char **path, size_t len)
{
    if (len > 1 && (*path)[0] == '/' && (*path)[1] == '/') {
        (*path)++;
        len--;
    }
    return len;
}

static struct index_batch *batch_new(void)
{
    struct index_batch *b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return NULL;
    }
    b->cap = BATCH_ENTRIES;
    b->arena_cap = BATCH_ARENA;
    b->recs = malloc(b->cap * sizeof(*b->recs));
    b->arena = malloc(b->arena_cap);
    if (b->recs == NULL || b->arena == NULL) {
        index_batch_free(b);
        return NULL;
    }
    return b;
}

/** Queues a batch. Called with c->lock held; waits while the queue is full. */
static void queue_push_locked(struct index_collect *c, struct index_batch *b)
{
    while (c->queued >= QUEUE_MAX && !c->done) {
        pthread_cond_wait(&c->drained, &c->lock);
    }
    b->next = NULL;
    if (c->tail != NULL) {
        c->tail->next = b;
    } else {
        c->head = b;
    }
    c->tail = b;
    c->queued++;
    pthread_cond_signal(&c->ready);
}

/** Out of memory on a worker: the walk stops and the update fails. */
static enum frd_action collect_oom(struct index_collect *c)
{
    pthread_mutex_lock(&c->lock);
    c->out_of_memory = true;
    pthread_mutex_unlock(&c->lock);
    return FRD_ACTION_STOP;
}

static enum frd_action collect_visit(const struct frd_walk_entry *we, void *udata)
{
    struct index_collect *c = udata;
    // The worker's own batch: two callbacks with one worker index never run at once.
    struct index_batch **slot = we->worker < c->nworkers ? &c->batches[we->worker] : NULL;
    const struct frd_entry *e = we->entry;
    // What the record names: its directory's node and its name, or (a walk without
    // directory states) its whole path.
    struct index_dnode *parent = NULL;
    const char *name;
    size_t len;
    bool path_form = false;
    if (we->is_root && we->root_index < c->nroots) {
        parent = c->root_parents[we->root_index];
        name = c->root_names[we->root_index];
        len = strlen(name);
    } else if (we->parent_state != NULL) {
        parent = we->parent_state;
        name = e->name;
        len = e->name_len;
    } else {
        name = we->path;
        len = single_slashed(&name, we->path_len);
        path_form = true;
    }
    if (slot == NULL || len >= BATCH_ARENA) {
        fprintf(stderr, "%s: skipping '%s': %s\n", tool_name, we->path,
                slot == NULL ? "worker index out of range" : "name too long");
        atomic_fetch_add(&c->errors, 1);
        return slot == NULL ? FRD_ACTION_STOP : FRD_ACTION_PRUNE;
    }
    struct index_batch *b = *slot;
    if (b == NULL || b->count == b->cap || b->arena_len + len + 1 > b->arena_cap) {
        // Hand the full batch over and take a spare one in the same critical section.
        pthread_mutex_lock(&c->lock);
        if (b != NULL) {
            queue_push_locked(c, b);
        }
        b = c->spare;
        if (b != NULL) {
            c->spare = b->next;
        }
        pthread_mutex_unlock(&c->lock);
        if (b == NULL) {
            b = batch_new();
        }
        *slot = b;
        if (b == NULL) {
            return collect_oom(c);
        }
    }
    struct index_dnode *self = NULL;
    if (e->type == FRD_TYPE_DIR) {
        if (c->progress.enabled) {
            const char *path = we->path;
            size_t path_len = single_slashed(&path, we->path_len);
            progress_line_set_current(&c->progress, path, path_len);
        }
        // The node its entries will name (none when the walk keeps no states, or for a
        // directory whose name is a whole path).
        if (we->dir_state != NULL && !path_form) {
            self = dnode_new(&c->slabs[we->worker], parent, name, len);
            if (self == NULL) {
                return collect_oom(c);
            }
            *we->dir_state = self;
        }
    }
    struct index_rec *r = &b->recs[b->count++];
    r->row = (struct index_row){
        .id = 0,
        .size = e->size,
        .mtime_ns = e->mtime_ns,
        .ctime_ns = e->ctime_ns,
        .file_id = e->file_id,
        .dev = e->dev,
        .mode = e->mode,
        .type = (uint8_t)e->type,
        .persistent = we->persistent_ids,
        .nlink = e->nlink,
        .uid = e->uid,
        .gid = e->gid,
        .btime_ns = e->btime_ns,
        .rdev = e->rdev,
        .attributes = e->attributes,
        .attributes_known = e->attributes_known,
        .fields = e->fields,
    };
    r->failed = e->error < 0;
    // Digesting here spreads the work over the walk's workers; the writer only compares.
    r->digest = index_row_digest(&r->row);
    r->parent = parent;
    r->self = self;
    r->path_form = path_form;
    r->name_off = (uint32_t)b->arena_len;
    r->name_len = (uint32_t)len;
    memcpy(b->arena + b->arena_len, name, len);
    b->arena[b->arena_len + len] = '\0';
    b->arena_len += len + 1;
    return FRD_ACTION_CONTINUE;
}

static enum frd_action collect_error(const struct frd_walk_error *err, void *udata)
{
    struct index_collect *c = udata;
    atomic_fetch_add(&c->errors, 1);
    fprintf(stderr, "%s: %s '%s': %s (its entries stay as indexed)\n", tool_name, err->op,
            err->path, tool_strerror(err->code));
    // Whatever failed, keep what the index knew below that path rather than report it
    // removed: a directory that cannot be read now has not lost its files.
    const char *path = err->path;
    size_t len = single_slashed(&path, strlen(err->path));
    char *copy = malloc(len + 1);
    pthread_mutex_lock(&c->lock);
    if (copy != NULL && tool_reserve_strs(&c->failed, &c->failed_cap, c->nfailed + 1) == 0) {
        memcpy(copy, path, len + 1);
        c->failed[c->nfailed++] = copy;
        copy = NULL;
    } else {
        c->out_of_memory = true;
    }
    pthread_mutex_unlock(&c->lock);
    free(copy);
    return FRD_ACTION_CONTINUE;
}

static void *walk_thread(void *arg)
{
    struct index_collect *c = arg;
    int result = c->walk != NULL
                     ? c->walk(c->roots, c->nroots, &c->options, collect_visit, c, c->walk_arg)
                     : frd_walk_roots(c->roots, c->nroots, &c->options, collect_visit, c);
    pthread_mutex_lock(&c->lock);
    // The workers are gone: hand over what each left in its batch.
    c->done = true; // so that pushing below never waits
    for (unsigned i = 0; i < c->nworkers; i++) {
        if (c->batches[i] != NULL && c->batches[i]->count > 0) {
            queue_push_locked(c, c->batches[i]);
        } else {
            index_batch_free(c->batches[i]);
        }
        c->batches[i] = NULL;
    }
    c->result = result;
    pthread_cond_broadcast(&c->ready);
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/** Leaves out what the exclude rules name, before any stat. Runs on the walk's workers. */
static void collect_children(const struct frd_walk_entry *dir, struct frd_walk_children *kids,
                             void *udata)
{
    (void)dir; // each child's path comes from frd_walk_children_path()
    struct index_collect *c = udata;
    size_t n = frd_walk_children_count(kids);
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        size_t len;
        const char *buf = frd_walk_children_path(kids, i, &len);
        if (buf == NULL) {
            continue; // kept: better indexed than lost
        }
        len = single_slashed(&buf, len);
        bool maybe_dir = e->type == FRD_TYPE_DIR || e->type == FRD_TYPE_UNKNOWN;
        if (index_excludes_match(c->excludes, buf, len, e->name, maybe_dir)) {
            frd_walk_children_drop(kids, i);
        }
    }
}

static void collect_progress(const struct frd_walk_progress *p, void *udata)
{
    struct index_collect *c = udata;
    progress_line_draw(&c->progress, p->entries, p->bytes);
}

/**
 * The node of the directory holding each root (its path's parts above it) and the root's own
 * name: "/usr/lib" is "lib" in "usr" in "/"; "/" is "/" in nothing. @return 0 or -1 (memory).
 */
static int root_nodes(struct index_collect *c)
{
    struct index_slab *slab = &c->slabs[c->nworkers];
    for (size_t i = 0; i < c->nroots; i++) {
        const char *path = c->roots[i];
        size_t len = strlen(path);
        while (len > 1 && path[len - 1] == '/') {
            len--; // "a/" is "a"; "/" stays
        }
        size_t start = len;
        while (start > 0 && path[start - 1] != '/') {
            start--;
        }
        if (start == len) { // "/" (or an empty path)
            c->root_names[i] = "/";
            c->root_parents[i] = NULL;
            continue;
        }
        // The name in a node of its own, so that it lives as long as the others.
        struct index_dnode *name = dnode_new(slab, NULL, path + start, len - start);
        struct index_dnode *parent = NULL;
        if (name == NULL || (path[0] == '/' && (parent = dnode_new(slab, NULL, "/", 1)) == NULL)) {
            return -1;
        }
        for (size_t p = 0; p < start;) {
            size_t end = p;
            while (end < start && path[end] != '/') {
                end++;
            }
            if (end > p && (parent = dnode_new(slab, parent, path + p, end - p)) == NULL) {
                return -1;
            }
            p = end + 1;
        }
        c->root_names[i] = name->name;
        c->root_parents[i] = parent;
    }
    return 0;
}

static void free_nodes(struct index_collect *c)
{
    if (c->slabs != NULL) {
        for (unsigned i = 0; i <= c->nworkers; i++) {
            slab_free(&c->slabs[i]);
        }
    }
    free(c->slabs);
    free(c->root_parents);
    free(c->root_names);
    c->slabs = NULL;
    c->root_parents = NULL;
    c->root_names = NULL;
}

int index_collect_start(struct index_collect *c, const char *const *roots, size_t nroots,
                        const struct index_collect_options *opts)
{
    unsigned workers = opts->workers;
    memset(c, 0, sizeof(*c));
    c->roots = roots;
    c->nroots = nroots;
    c->walk = opts->walk;
    c->walk_arg = opts->walk_arg;
    // One batch slot per worker index: the walker runs at most 8 workers (or the -j asked).
    c->nworkers = workers > 8 ? workers : 8;
    c->batches = calloc(c->nworkers, sizeof(*c->batches));
    c->slabs = calloc(c->nworkers + 1, sizeof(*c->slabs)); // the last: the roots' nodes
    c->root_parents = calloc(nroots ? nroots : 1, sizeof(*c->root_parents));
    c->root_names = calloc(nroots ? nroots : 1, sizeof(*c->root_names));
    if (c->batches == NULL || c->slabs == NULL || c->root_parents == NULL ||
        c->root_names == NULL || root_nodes(c) < 0) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        free_nodes(c);
        free(c->batches);
        c->batches = NULL;
        return -1;
    }
    frd_walk_options_init(&c->options);
    c->options.workers = workers;
    c->options.on_error = collect_error;
    c->options.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY; // collect_error reports roots too
    // What a row keeps (what frd_entry_same() compares), and nothing more from the kernel.
    c->options.fields = FRD_FIELDS_ALL & ~(unsigned)(FRD_FIELD_ALLOC_SIZE | FRD_FIELD_ATIME);
    if (opts->one_file_system) {
        c->options.flags |= FRD_WALK_ONE_FILE_SYSTEM;
    }
    if (opts->excludes != NULL) {
        c->options.ignore = opts->excludes->ignore; // --gitignore and its kin, or NULL
    }
    // The hook only when there are rules: with one, the walker stats each survivor
    // separately instead of as it lists.
    if (opts->excludes != NULL && index_excludes_any(opts->excludes)) {
        c->excludes = opts->excludes;
        c->options.on_children = collect_children;
        c->options.flags |= FRD_WALK_CHILDREN_PARTS; // entry by entry: a big directory in parts
    }
    const char *delay_ms = getenv("FRDINDEX_PROGRESS_DELAY_MS"); // tests: draw at once
    progress_line_init(&c->progress, 2, delay_ms != NULL ? strtod(delay_ms, NULL) / 1000.0 : 0.5);
    if (!opts->progress) {
        c->progress.enabled = false;
    }
    if (progress_line_enabled(&c->progress)) {
        c->options.on_progress = collect_progress;
        c->options.progress_interval_ms = 200;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->ready, NULL);
    pthread_cond_init(&c->drained, NULL);
    if (pthread_create(&c->thread, NULL, walk_thread, c) != 0) {
        fprintf(stderr, "%s: cannot start a thread\n", tool_name);
        free_nodes(c);
        free(c->batches);
        c->batches = NULL;
        return -1;
    }
    return 0;
}

void index_collect_recycle(struct index_collect *c, struct index_batch *batch)
{
    batch->count = 0;
    batch->arena_len = 0;
    pthread_mutex_lock(&c->lock);
    batch->next = c->spare;
    c->spare = batch;
    pthread_mutex_unlock(&c->lock);
}

struct index_batch *index_collect_next(struct index_collect *c)
{
    pthread_mutex_lock(&c->lock);
    while (c->head == NULL && !c->done) {
        pthread_cond_wait(&c->ready, &c->lock);
    }
    struct index_batch *b = c->head;
    if (b != NULL) {
        c->head = b->next;
        if (c->head == NULL) {
            c->tail = NULL;
        }
        c->queued--;
        pthread_cond_signal(&c->drained);
    }
    pthread_mutex_unlock(&c->lock);
    return b;
}

int index_collect_finish(struct index_collect *c)
{
    pthread_join(c->thread, NULL);
    progress_line_clear(&c->progress);
    return c->out_of_memory ? FRD_ENOMEM : c->result;
}

void index_collect_free(struct index_collect *c)
{
    for (struct index_batch *b = c->head, *next; b != NULL; b = next) {
        next = b->next;
        index_batch_free(b);
    }
    for (struct index_batch *b = c->spare, *next; b != NULL; b = next) {
        next = b->next;
        index_batch_free(b);
    }
    for (unsigned i = 0; i < c->nworkers; i++) {
        index_batch_free(c->batches[i]);
    }
    free(c->batches);
    free_nodes(c);
    for (size_t i = 0; i < c->nfailed; i++) {
        free(c->failed[i]);
    }
    free(c->failed);
    progress_line_destroy(&c->progress);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->ready);
    pthread_cond_destroy(&c->drained);
}
