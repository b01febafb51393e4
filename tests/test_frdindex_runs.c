// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of the trigram lists' runs merged into one (examples/frdindex/frdindex_runs.c): a list
 * of many runs by hand (more than the merge keeps on its stack, repeats across runs) against
 * a sort of the same ids; and an update's lists as frdindex_trigram.c builds them, names
 * added in a shuffled order of ids over several chunks of pending trigrams, merged on two
 * threads: every list ascending, holding exactly the ids whose names contain its trigram.
 */
#include "frdindex_runs.h"
#include "frdindex_trigram.h"
#include "test_rng.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
    return test_rng_next(&rng_state);
}

static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/**
 * A list of `nruns` ascending runs of random ids (repeats across runs), merged; `apart`: each
 * run in directories of its own (none overlaps another), the runs in a scrambled order, as
 * an update's chunks often are (the merge copies a run's bytes through while it is below the
 * others).
 */
static void check_runs(size_t nruns, bool apart)
{
    struct index_posting_list l = {.trigram = 0x616263};
    size_t cap = nruns * 400 * 20 + 20;
    l.enc = malloc(cap);
    l.runs = malloc(nruns * sizeof(*l.runs));
    int64_t *all = malloc(nruns * 200 * sizeof(*all));
    assert_non_null(l.enc);
    assert_non_null(l.runs);
    assert_non_null(all);
    size_t nall = 0;
    for (size_t r = 0; r < nruns; r++) {
        if (r > 0) {
            l.runs[l.nruns++] = l.enc_len;
        }
        size_t n = 1 + rng() % 200;
        int64_t prev = 0;
        int64_t id = (int64_t)(rng() % 4) << 32; // directory 0 (the root's entries) too
        if (apart) {
            id += (int64_t)((r * 7919) % nruns * 1000) << 32;
        }
        for (size_t i = 0; i < n; i++) {
            // Small steps in one directory, sometimes the next directories.
            id += rng() % 3 == 0 ? (int64_t)(1 + rng() % 2) << 32 : (int64_t)(1 + rng() % 5);
            l.enc_len += index_put_id(l.enc + l.enc_len, prev, id);
            prev = id;
            all[nall++] = id;
        }
        l.last = prev; // as an update leaves it: the last id added
    }
    qsort(all, nall, sizeof(*all), cmp_id);
    size_t unique = 0;
    for (size_t i = 0; i < nall; i++) {
        if (unique == 0 || all[unique - 1] != all[i]) {
            all[unique++] = all[i];
        }
    }
    assert_int_equal(index_runs_merge_list(&l), 0);
    assert_int_equal(l.nruns, 0);
    int64_t *ids;
    size_t n;
    assert_int_equal(index_ids_decode(l.enc, l.enc_len, &ids, &n), 0);
    assert_int_equal(n, unique);
    assert_memory_equal(ids, all, n * sizeof(*ids));
    assert_int_equal(l.last, all[unique - 1]);
    free(ids);
    free(all);
    free(l.enc);
    free(l.runs);
}

static void test_runs_by_hand(void **state)
{
    (void)state;
    for (int apart = 0; apart < 2; apart++) {
        check_runs(1, apart);
        check_runs(2, apart);
        check_runs(17, apart);
        check_runs(200, apart); // more runs than the merge keeps on its stack
    }
}

/** The name of entry `id` in the update below: a few shared trigrams, a few of its own. */
static size_t name_of(int64_t id, char *buf)
{
    uint64_t dir = (uint64_t)id >> 32, seq = (uint64_t)id & 0xffffffffu;
    return (size_t)snprintf(buf, 32, "Lib%llx_%llx.c", (unsigned long long)(dir % 97),
                            (unsigned long long)seq);
}

static void test_update_lists(void **state)
{
    (void)state;
    // 800 directories of 400 entries: about 2.4 million trigrams, three chunks of pending.
    size_t ndirs = 800, per_dir = 400, n = ndirs * per_dir;
    int64_t *order = malloc(n * sizeof(*order));
    assert_non_null(order);
    for (size_t i = 0; i < n; i++) {
        order[i] = (int64_t)(1 + i / per_dir) << 32 | (int64_t)(1 + i % per_dir);
    }
    // Directories in a shuffled order, each one's entries ascending (as an update adds them).
    for (size_t d = ndirs; d > 1; d--) {
        size_t j = rng() % d;
        for (size_t k = 0; k < per_dir; k++) {
            int64_t t = order[(d - 1) * per_dir + k];
            order[(d - 1) * per_dir + k] = order[j * per_dir + k];
            order[j * per_dir + k] = t;
        }
    }
    struct index_postings p = {.fresh = true};
    uint64_t expected_pairs = 0;
    uint32_t *tri = NULL;
    size_t tri_cap = 0;
    for (size_t i = 0; i < n; i++) {
        char name[32];
        size_t len = name_of(order[i], name);
        assert_int_equal(index_postings_add(&p, order[i], name, len), 0);
        long t = index_trigrams_of(name, len, &tri, &tri_cap);
        assert_true(t > 0);
        expected_pairs += (uint64_t)t;
    }
    assert_int_equal(index_postings_seal(&p), 0);
    size_t with_runs = 0;
    for (size_t i = 0; i < p.count; i++) {
        with_runs += p.lists[i].nruns > 0;
    }
    assert_true(with_runs > 0); // the merge has work to do
    struct index_runs_merge m;
    index_runs_merge_start(&m, p.lists, p.count);
    assert_int_equal(index_runs_merge_finish(&m), 0);
    uint64_t pairs = 0;
    for (size_t i = 0; i < p.count; i++) {
        const struct index_posting_list *l = &p.lists[i];
        assert_int_equal(l->nruns, 0);
        int64_t *ids;
        size_t nids;
        assert_int_equal(index_ids_decode(l->enc, l->enc_len, &ids, &nids), 0);
        for (size_t k = 0; k < nids; k++) {
            assert_true(k == 0 || ids[k - 1] < ids[k]);
            char name[32];
            size_t len = name_of(ids[k], name);
            long t = index_trigrams_of(name, len, &tri, &tri_cap);
            bool found = false;
            for (long j = 0; j < t; j++) {
                found = found || tri[j] == l->trigram;
            }
            assert_true(found);
        }
        if (l->trigram == index_trigram((const unsigned char *)"lib")) {
            assert_int_equal(nids, n); // every name
        }
        pairs += nids;
        free(ids);
    }
    assert_int_equal(pairs, expected_pairs); // none lost
    free(tri);
    free(order);
    index_postings_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_by_hand),
        cmocka_unit_test(test_update_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
