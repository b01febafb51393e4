// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The trigram lists' runs merged into one run each, on the caller's thread and a helper. */
#define _POSIX_C_SOURCE 200809L // pthread_sigmask
#include "frdindex_runs.h"

#include "frdindex_varint.h"
#include "grow.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

TOOL_RESERVE_DEFINE(out_reserve, unsigned char, 64)

/** Lists taken at a time: few enough that the threads end together, enough to share little. */
#define LISTS_PER_TAKE 16

/** Runs merged without an allocation for the cursors. */
#define RUNS_ON_STACK 64

/** A run being read: the next id to merge (`id`), and where the ones after it are. */
struct run_cursor {
    const unsigned char *p, *end;
    uint64_t hi, lo;
    int64_t id;
};

/** Reads the cursor's next id. @return false at the run's end. */
static bool cursor_next(struct run_cursor *c)
{
    uint64_t dhi, v;
    size_t a, b;
    if (c->end - c->p >= 2 && ((c->p[0] | c->p[1]) & 0x80) == 0) {
        // Most ids: the next entry in the same directory, or close to it, in two bytes.
        dhi = c->p[0];
        v = c->p[1];
        a = b = 1;
    } else {
        a = index_get_varint(c->p, (size_t)(c->end - c->p), &dhi);
        b = a == 0 ? 0 : index_get_varint(c->p + a, (size_t)(c->end - c->p) - a, &v);
        if (b == 0) {
            return false; // the end (the lists are made in memory: never malformed)
        }
    }
    c->p += a + b;
    c->lo = dhi == 0 ? c->lo + v : v;
    c->hi += dhi;
    c->id = (int64_t)(c->hi << 32 | c->lo);
    return true;
}

/** Moves heap[at] down to its place (a min-heap of cursors by their next id). */
static void sift_down(uint32_t *heap, size_t n, const struct run_cursor *cur, size_t at)
{
    uint32_t moving = heap[at];
    int64_t id = cur[moving].id;
    for (;;) {
        size_t child = 2 * at + 1;
        if (child >= n) {
            break;
        }
        if (child + 1 < n && cur[heap[child + 1]].id < cur[heap[child]].id) {
            child++;
        }
        if (cur[heap[child]].id >= id) {
            break;
        }
        heap[at] = heap[child];
        at = child;
    }
    heap[at] = moving;
}

int index_runs_merge_list(struct index_posting_list *l)
{
    if (l->nruns == 0) {
        return 0;
    }
    size_t k = l->nruns + 1;
    struct run_cursor cur_stack[RUNS_ON_STACK];
    uint32_t heap_stack[RUNS_ON_STACK];
    struct run_cursor *cur = cur_stack;
    uint32_t *heap = heap_stack;
    unsigned char *out = NULL;
    size_t len = 0, cap = 0;
    int result = -1;
    if (k > RUNS_ON_STACK) {
        cur = malloc(k * sizeof(*cur));
        heap = malloc(k * sizeof(*heap));
        if (cur == NULL || heap == NULL) {
            goto done;
        }
    }
    size_t n = 0;
    for (size_t r = 0; r < k; r++) {
        size_t from = r == 0 ? 0 : l->runs[r - 1];
        size_t to = r < l->nruns ? l->runs[r] : l->enc_len;
        cur[r] = (struct run_cursor){.p = l->enc + from, .end = l->enc + to};
        if (cursor_next(&cur[r])) {
            heap[n++] = (uint32_t)r;
        }
    }
    for (size_t i = n / 2; i-- > 0;) {
        sift_down(heap, n, cur, i);
    }
    if (out_reserve(&out, &cap, l->enc_len + 64) < 0) {
        goto done;
    }
    int64_t prev = 0;
    while (n > 0) {
        struct run_cursor *c = &cur[heap[0]];
        if (len == 0 || c->id != prev) {
            if (out_reserve(&out, &cap, len + 20) < 0) {
                goto done;
            }
            len += index_put_id(out + len, prev, c->id);
            prev = c->id;
        }
        // The ids of this run below every other run's next one follow on from prev, as each
        // is encoded from the one before it in the run: their bytes are copied as they are,
        // with no heap step and no encoding each (the runs of a list are often apart).
        int64_t bound = n > 1 ? cur[heap[1]].id : INT64_MAX;
        if (n > 2 && cur[heap[2]].id < bound) {
            bound = cur[heap[2]].id;
        }
        const unsigned char *from = c->p, *to = from;
        bool more;
        while ((more = cursor_next(c)) && c->id < bound) {
            to = c->p;
            prev = c->id;
        }
        if (to > from) {
            if (out_reserve(&out, &cap, len + (size_t)(to - from)) < 0) {
                goto done;
            }
            memcpy(out + len, from, (size_t)(to - from));
            len += (size_t)(to - from);
        }
        if (!more) {
            heap[0] = heap[--n];
        }
        if (n > 0) {
            sift_down(heap, n, cur, 0);
        }
    }
    free(l->enc);
    l->enc = out;
    l->enc_len = len;
    l->enc_cap = cap;
    l->last = prev;
    l->nruns = 0;
    out = NULL;
    result = 0;
done:
    free(out);
    if (cur != cur_stack) {
        free(cur);
        free(heap);
    }
    return result;
}

/** Takes lists LISTS_PER_TAKE at a time until none is left. */
static void merge_some(struct index_runs_merge *m)
{
    for (;;) {
        size_t i = atomic_fetch_add(&m->next, LISTS_PER_TAKE);
        if (i >= m->count) {
            return;
        }
        size_t end = m->count - i < LISTS_PER_TAKE ? m->count : i + LISTS_PER_TAKE;
        for (; i < end; i++) {
            if (index_runs_merge_list(&m->lists[i]) < 0) {
                atomic_store(&m->failed, true);
            }
        }
    }
}

static void *helper_main(void *arg)
{
    merge_some(arg);
    return NULL;
}

void index_runs_merge_start(struct index_runs_merge *m, struct index_posting_list *lists,
                            size_t count)
{
    m->lists = lists;
    m->count = count;
    atomic_init(&m->next, 0);
    atomic_init(&m->failed, false);
    m->helper_running = false;
    if (count < 2 * LISTS_PER_TAKE) {
        return; // not worth a thread
    }
    // The helper takes no signal: they stay with the threads that handle them.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    m->helper_running = pthread_create(&m->helper, NULL, helper_main, m) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int index_runs_merge_finish(struct index_runs_merge *m)
{
    merge_some(m);
    if (m->helper_running) {
        pthread_join(m->helper, NULL);
        m->helper_running = false;
    }
    return atomic_load(&m->failed) ? -1 : 0;
}
