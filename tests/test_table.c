// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walker's hash table (walker/core/table.c) and the sets built on it
 * (walker/core/identity.c): insert once, find what was inserted, grow at three quarters
 * keeping every key, tell keys apart by each of their words; the sharded identity set under
 * threads inserting at once; the volume class cache; identity comparison.
 */
#include "core/identity.h"
#include "core/table.h"
#include "internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include <cmocka.h>

static void test_table_put_once_then_get(void **state)
{
    (void)state;
    struct frd__table t = {0};
    struct frd__tkey k = {1, 2, 3};
    uint64_t v = 0;
    assert_false(frd__table_get(&t, &k, &v)); // empty: no slots at all yet
    assert_int_equal(frd__table_put(&t, &k, 42), 1);
    assert_int_equal(frd__table_put(&t, &k, 43), 0); // present: its value stays
    assert_true(frd__table_get(&t, &k, &v));
    assert_int_equal(v, 42);
    assert_int_equal(t.count, 1);
    struct frd__tkey other = {1, 2, 4};
    assert_false(frd__table_get(&t, &other, &v));
    frd__table_free(&t);
    assert_null(t.slots);
    assert_int_equal(t.capacity, 0);
    assert_int_equal(t.count, 0);
}

static void test_table_each_word_of_a_key_counts(void **state)
{
    (void)state;
    struct frd__table t = {0};
    const struct frd__tkey keys[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
    for (uint64_t i = 0; i < 5; i++) {
        assert_int_equal(frd__table_put(&t, &keys[i], i), 1);
    }
    for (uint64_t i = 0; i < 5; i++) {
        uint64_t v;
        assert_true(frd__table_get(&t, &keys[i], &v));
        assert_int_equal(v, i);
    }
    frd__table_free(&t);
}

static void test_table_grows_at_three_quarters_keeping_every_key(void **state)
{
    (void)state;
    struct frd__table t = {0};
    const uint64_t n = 100000;
    size_t capacity = 0;
    unsigned growths = 0;
    for (uint64_t i = 0; i < n; i++) {
        // Keys that differ in one word, as a device's inodes do.
        struct frd__tkey k = {7, i * 4096, 0};
        assert_int_equal(frd__table_put(&t, &k, i), 1);
        assert_true(t.count * 4 <= t.capacity * 3); // never past three quarters full
        assert_true((t.capacity & (t.capacity - 1)) == 0);
        if (t.capacity != capacity) {
            capacity = t.capacity;
            growths++;
        }
    }
    assert_int_equal(t.count, n);
    assert_true(growths > 5);
    for (uint64_t i = 0; i < n; i++) {
        struct frd__tkey k = {7, i * 4096, 0};
        uint64_t v;
        assert_true(frd__table_get(&t, &k, &v));
        assert_int_equal(v, i);
        struct frd__tkey absent = {7, i * 4096 + 1, 0};
        assert_false(frd__table_get(&t, &absent, &v));
    }
    frd__table_free(&t);
}

static void test_table_mixer_spreads_nearby_keys(void **state)
{
    (void)state;
    // 4,096 inodes in a row land in at least half the buckets of a 4,096-bucket table: the
    // probe sequences stay short.
    enum { BUCKETS = 4096 };
    static unsigned char used[BUCKETS];
    size_t distinct = 0;
    for (uint64_t i = 0; i < BUCKETS; i++) {
        struct frd__tkey k = {2049, 1000000 + i, 0};
        size_t b = (size_t)(frd__tkey_hash(&k) >> 6) & (BUCKETS - 1);
        distinct += used[b] == 0;
        used[b] = 1;
    }
    assert_true(distinct > BUCKETS / 2);
}

/* ---- The identity set, the volume classes ---- */

static void test_idset_inserts_once(void **state)
{
    (void)state;
    struct frd__idset *set;
    assert_int_equal(frd__idset_new(&set), 0);
    for (uint64_t i = 0; i < 1000; i++) {
        struct frd__identity id = {i % 3, i, 0};
        assert_int_equal(frd__idset_insert(set, &id), 1);
    }
    for (uint64_t i = 0; i < 1000; i++) {
        struct frd__identity id = {i % 3, i, 0};
        assert_int_equal(frd__idset_insert(set, &id), 0);
    }
    // The set remembers exactly: a subvolume makes another identity.
    struct frd__identity zero = {0, 0, 1};
    assert_int_equal(frd__idset_insert(set, &zero), 1);
    assert_int_equal(frd__idset_insert(set, &zero), 0);
    frd__idset_free(set);
    frd__idset_free(NULL);
}

#define IDSET_THREADS 4
#define IDSET_IDS     20000

static struct frd__idset *race_set;
static atomic_int race_new;
static atomic_int
    race_failed; /**< inserts that gave neither 0 nor 1 (checked on the main thread) */

static void idset_inserter(void *arg)
{
    uint64_t offset = (uint64_t)(uintptr_t)arg;
    // Each thread inserts the same ids, in a different order: each is new exactly once.
    for (uint64_t k = 0; k < IDSET_IDS; k++) {
        uint64_t i = (k + offset * (IDSET_IDS / IDSET_THREADS)) % IDSET_IDS;
        struct frd__identity id = {i % 5, i, 0};
        int rc = frd__idset_insert(race_set, &id);
        if (rc == 1) {
            atomic_fetch_add(&race_new, 1);
        } else if (rc != 0) {
            atomic_fetch_add(&race_failed, 1);
        }
    }
}

static void test_idset_threads_inserting_at_once_find_each_new_once(void **state)
{
    (void)state;
    assert_int_equal(frd__idset_new(&race_set), 0);
    atomic_store(&race_new, 0);
    atomic_store(&race_failed, 0);
    uv_thread_t t[IDSET_THREADS];
    for (uintptr_t i = 0; i < IDSET_THREADS; i++) {
        assert_int_equal(uv_thread_create(&t[i], idset_inserter, (void *)i), 0);
    }
    for (size_t i = 0; i < IDSET_THREADS; i++) {
        uv_thread_join(&t[i]);
    }
    assert_int_equal(atomic_load(&race_failed), 0);
    assert_int_equal(atomic_load(&race_new), IDSET_IDS);
    frd__idset_free(race_set);
}

static void test_volcache_remembers_each_device(void **state)
{
    (void)state;
    struct frd__volcache *vc;
    assert_int_equal(frd__volcache_new(&vc), 0);
    assert_int_equal(frd__volcache_get(vc, 2049), -1);
    frd__volcache_put(vc, 2049, FRD__VOL_STRONG);
    frd__volcache_put(vc, 77, FRD__VOL_UNTRUSTED);
    frd__volcache_put(vc, 2049, FRD__VOL_WEAK); // first class stays (it is not re-probed)
    assert_int_equal(frd__volcache_get(vc, 2049), FRD__VOL_STRONG);
    assert_int_equal(frd__volcache_get(vc, 77), FRD__VOL_UNTRUSTED);
    assert_int_equal(frd__volcache_get(vc, 78), -1);
    frd__volcache_free(vc);
    frd__volcache_free(NULL);
}

static void test_identity_equal_compares_subvolumes_only_where_both_known(void **state)
{
    (void)state;
    struct frd__identity a = {1, 2, 0};
    struct frd__identity b = {1, 2, 5};
    struct frd__identity c = {1, 2, 6};
    struct frd__identity d = {1, 3, 5};
    struct frd__identity e = {9, 2, 5};
    assert_true(frd__identity_equal(&a, &b));
    assert_true(frd__identity_equal(&b, &a));
    assert_true(frd__identity_equal(&b, &b));
    assert_false(frd__identity_equal(&b, &c));
    assert_false(frd__identity_equal(&b, &d));
    assert_false(frd__identity_equal(&b, &e));
}

/*
 * Removal against a plain array: keys put, changed and removed in a pseudo-random order
 * (many in a few runs of the probe sequence, wrapping at the end of the slots), every key
 * checked after each step: present with its value exactly while the array says so.
 */
static void test_table_remove_keeps_every_other_key_reachable(void **state)
{
    (void)state;
    struct frd__table t = {0};
    enum { KEYS = 600 };
    uint64_t want[KEYS]; // FRD__TABLE_FREE: absent
    for (size_t i = 0; i < KEYS; i++) {
        want[i] = FRD__TABLE_FREE;
    }
    uint64_t x = 88172645463325252u; // xorshift64
    size_t removed = 0;
    for (unsigned step = 0; step < 20000; step++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t i = (size_t)(x % KEYS);
        struct frd__tkey k = {3, i, 0};
        if (want[i] == FRD__TABLE_FREE) {
            assert_int_equal(frd__table_put(&t, &k, step), 1);
            want[i] = step;
        } else if (x & 0x100) {
            assert_true(frd__table_remove(&t, &k));
            assert_false(frd__table_remove(&t, &k)); // once
            want[i] = FRD__TABLE_FREE;
            removed++;
        } else {
            uint64_t *v = frd__table_value(&t, &k);
            assert_non_null(v);
            *v = want[i] = step;
        }
        if (step % 97 == 0) {
            size_t present = 0;
            for (size_t j = 0; j < KEYS; j++) {
                struct frd__tkey kj = {3, j, 0};
                uint64_t v;
                bool found = frd__table_get(&t, &kj, &v);
                assert_int_equal(found, want[j] != FRD__TABLE_FREE);
                if (found) {
                    assert_int_equal(v, want[j]);
                    present++;
                } else {
                    assert_null(frd__table_value(&t, &kj));
                }
            }
            assert_int_equal(present, t.count);
        }
    }
    assert_true(removed > 1000);
    frd__table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_put_once_then_get),
        cmocka_unit_test(test_table_each_word_of_a_key_counts),
        cmocka_unit_test(test_table_grows_at_three_quarters_keeping_every_key),
        cmocka_unit_test(test_table_mixer_spreads_nearby_keys),
        cmocka_unit_test(test_table_remove_keeps_every_other_key_reachable),
        cmocka_unit_test(test_idset_inserts_once),
        cmocka_unit_test(test_idset_threads_inserting_at_once_find_each_new_once),
        cmocka_unit_test(test_volcache_remembers_each_device),
        cmocka_unit_test(test_identity_equal_compares_subvolumes_only_where_both_known),
    };
    return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
