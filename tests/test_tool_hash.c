// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of the tools' shared hash table and reserve helper (examples/common): a table driven
 * against a plain array that says what it must hold, with colliding hashes and removals.
 */
#include "grow.h"
#include "hash.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define KEYS 5000

static bool u64_eq(const void *record, const void *key)
{
    return memcmp(record, key, sizeof(uint64_t)) == 0;
}

/** A deliberately poor hash: 64 keys share each value, so probe runs are long. */
static uint64_t poor_hash(uint64_t key)
{
    return tool_hash_mix(key / 64);
}

static void test_insert_find_remove_agree_with_a_reference(void **state)
{
    (void)state;
    struct tool_hash t;
    tool_hash_init(&t, sizeof(uint64_t));
    bool present[KEYS] = {false};
    uint64_t rng = 12345;
    for (int step = 0; step < 40000; step++) {
        rng = tool_hash_mix(rng);
        uint64_t key = rng % KEYS;
        bool found;
        if (rng & (1u << 20)) {
            void *slot = tool_hash_insert(&t, poor_hash(key), u64_eq, &key, &found);
            assert_non_null(slot);
            assert_int_equal(found, present[key]);
            if (!found) {
                memcpy(slot, &key, sizeof(key));
                present[key] = true;
            }
        } else {
            void *record = tool_hash_find(&t, poor_hash(key), u64_eq, &key);
            assert_int_equal(record != NULL, present[key]);
            if (record != NULL) {
                tool_hash_remove(&t, record);
                present[key] = false;
            }
        }
    }
    size_t expected = 0;
    for (uint64_t key = 0; key < KEYS; key++) {
        expected += present[key];
        void *record = tool_hash_find(&t, poor_hash(key), u64_eq, &key);
        assert_int_equal(record != NULL, present[key]);
    }
    assert_int_equal(tool_hash_count(&t), expected);
    size_t occupied = 0;
    for (size_t i = 0; i < tool_hash_capacity(&t); i++) {
        const void *record = tool_hash_slot(&t, i);
        if (record != NULL) {
            uint64_t key;
            memcpy(&key, record, sizeof(key));
            assert_true(key < KEYS && present[key]);
            occupied++;
        }
    }
    assert_int_equal(occupied, expected);
    assert_true(tool_hash_capacity(&t) >= 2 * expected);
    tool_hash_free(&t);
}

static void test_hash_zero_and_add_without_eq(void **state)
{
    (void)state;
    struct tool_hash t;
    tool_hash_init(&t, sizeof(uint64_t));
    for (uint64_t key = 0; key < 3; key++) {
        bool found;
        void *slot = tool_hash_insert(&t, 0, NULL, NULL, &found);
        assert_non_null(slot);
        assert_false(found);
        memcpy(slot, &key, sizeof(key));
    }
    assert_int_equal(tool_hash_count(&t), 3);
    for (uint64_t key = 0; key < 3; key++) {
        assert_non_null(tool_hash_find(&t, 0, u64_eq, &key));
    }
    uint64_t absent = 7;
    assert_null(tool_hash_find(&t, 0, u64_eq, &absent));
    tool_hash_clear(&t);
    assert_int_equal(tool_hash_count(&t), 0);
    assert_null(tool_hash_find(&t, 0, u64_eq, &absent));
    tool_hash_free(&t);
}

static void test_reserve_rejects_overflow(void **state)
{
    (void)state;
    struct tool_hash t;
    tool_hash_init(&t, sizeof(uint64_t));
    assert_int_equal(tool_hash_reserve(&t, SIZE_MAX / 2), -1);
    assert_int_equal(tool_hash_reserve(&t, ((size_t)1 << 31) + 1), -1);
    assert_int_equal(tool_hash_capacity(&t), 0);
    assert_int_equal(tool_hash_reserve(&t, 100), 0);
    assert_true(tool_hash_capacity(&t) >= 200);
    tool_hash_free(&t);

    assert_int_equal(tool_grow_capacity(0, 10, 16, 8), 16);
    assert_int_equal(tool_grow_capacity(16, 17, 16, 8), 32);
    assert_int_equal(tool_grow_capacity(16, 1000, 16, 8), 1000);
    assert_int_equal(tool_grow_capacity(0, SIZE_MAX / 8 + 1, 16, 8), 0);
    assert_int_equal(tool_grow_capacity(SIZE_MAX / 8 - 1, SIZE_MAX / 8, 16, 8), SIZE_MAX / 8);

    char **strs = NULL;
    size_t cap = 0;
    assert_int_equal(tool_reserve_strs(&strs, &cap, SIZE_MAX / 2), -1);
    assert_null(strs);
    assert_int_equal(cap, 0);
    assert_int_equal(tool_reserve_strs(&strs, &cap, 3), 0);
    assert_non_null(strs);
    assert_int_equal(cap, 16);
    free(strs);
}

static void test_bytes_hash_reads_every_byte(void **state)
{
    (void)state;
    char a[40], b[40];
    memset(a, 'x', sizeof(a));
    uint64_t base = tool_hash_bytes(a, sizeof(a));
    for (size_t i = 0; i < sizeof(a); i++) {
        memcpy(b, a, sizeof(a));
        b[i] = 'y';
        assert_true(tool_hash_bytes(b, sizeof(b)) != base);
    }
    assert_true(tool_hash_bytes(a, 8) != tool_hash_bytes(a, 9));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_insert_find_remove_agree_with_a_reference),
        cmocka_unit_test(test_hash_zero_and_add_without_eq),
        cmocka_unit_test(test_reserve_rejects_overflow),
        cmocka_unit_test(test_bytes_hash_reads_every_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
