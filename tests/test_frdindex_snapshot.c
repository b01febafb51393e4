// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of the stored snapshot (examples/frdindex/frdindex_snapshot.c): snapshots of several
 * sizes written and read back whole; and two entries with one key hash, wherever they lie
 * (next to each other, far apart, among many hashes with the same top bits), always seen:
 * then no snapshot is kept, and the next update reads every row.
 */
#include "frdindex_db.h"
#include "frdindex_snapshot.h"
#include "test_rng.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static uint64_t rng(void)
{
    return test_rng_next(&rng_state);
}

/** A database holding the two tables a snapshot is kept in. */
static sqlite3 *open_db(void)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(index_db_create(db, "meta"), 0);
    assert_int_equal(index_db_create(db, "snapshot"), 0);
    return db;
}

/** `n` entries with distinct random key hashes (top bits too: they pick the buckets). */
static void fill(struct index_snapshot *snap, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t hash = rng();
        assert_int_equal(index_snapshot_push(snap, hash, rng(), (int64_t)(i + 1) << 32 | 7), 0);
    }
}

static int64_t snapshot_gen(sqlite3 *db)
{
    int64_t gen = -1;
    assert_int_equal(index_db_meta_get(db, "snapshot_gen", &gen), 0);
    return gen;
}

/** Saves `snap` as generation 5: kept (and read back equal) or, with a repeat, dropped. */
static void save_and_check(struct index_snapshot *snap, bool repeated)
{
    sqlite3 *db = open_db();
    assert_int_equal(index_snapshot_save(db, 5, snap), 0);
    struct index_snapshot back = {0};
    if (repeated) {
        assert_int_equal(snapshot_gen(db), 0);
        assert_int_equal(index_snapshot_load(db, 5, (int64_t)snap->count, &back), 0);
    } else {
        assert_int_equal(snapshot_gen(db), 5);
        if (snap->count > 0) {
            assert_int_equal(index_snapshot_load(db, 5, (int64_t)snap->count, &back), 1);
            assert_int_equal(back.count, snap->count);
            assert_memory_equal(back.entries, snap->entries, snap->count * sizeof(*snap->entries));
        }
    }
    index_snapshot_free(&back);
    sqlite3_close(db);
}

static void test_kept_whole(void **state)
{
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 9, 17, 1000, 123457};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        struct index_snapshot snap = {0};
        fill(&snap, sizes[s]);
        save_and_check(&snap, false);
        index_snapshot_free(&snap);
    }
}

static void test_repeat_found(void **state)
{
    (void)state;
    static const size_t sizes[] = {2, 3, 17, 1000, 123457};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        size_t n = sizes[s];
        // The repeat first and last, side by side, and somewhere in the middle.
        size_t pairs[][2] = {{0, n - 1}, {n / 2, n / 2 + 1}, {n / 3, n - 1 - n / 5}};
        for (size_t p = 0; p < 3; p++) {
            if (pairs[p][0] >= pairs[p][1] || pairs[p][1] >= n) {
                continue;
            }
            struct index_snapshot snap = {0};
            fill(&snap, n);
            snap.entries[pairs[p][1]].key_hash = snap.entries[pairs[p][0]].key_hash;
            save_and_check(&snap, true);
            index_snapshot_free(&snap);
        }
    }
}

static void test_crowded_bucket(void **state)
{
    (void)state;
    // 200 hashes sharing their top 32 bits (one bucket, sorted rather than compared
    // pairwise) among 5000 others; distinct, then with one repeat inside the crowd.
    for (int repeat = 0; repeat <= 1; repeat++) {
        struct index_snapshot snap = {0};
        fill(&snap, 5000);
        uint64_t top = rng() & 0xffffffff00000000u;
        for (size_t i = 0; i < 200; i++) {
            snap.entries[i * 25].key_hash = top | (uint64_t)(i * 7919 + 1);
        }
        if (repeat) {
            snap.entries[199 * 25].key_hash = snap.entries[3 * 25].key_hash;
        }
        save_and_check(&snap, repeat == 1);
        index_snapshot_free(&snap);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_whole),
        cmocka_unit_test(test_repeat_found),
        cmocka_unit_test(test_crowded_bucket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
