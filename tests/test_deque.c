// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The scheduler's work-stealing deque (walker/sched/deque.c) alone: the owner's end and the
 * thieves' end, growth across the ring's wrap, the steal's batch limit, and an owner and
 * thieves at once losing no task and taking none twice.
 */
#include "internal.h"
#include "sched/deque.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uv.h>

#include <cmocka.h>

/** Task i as the deque holds it (never NULL). */
static void *task(uintptr_t i)
{
    return (void *)(i + 1);
}

static uintptr_t task_index(void *t)
{
    return (uintptr_t)t - 1;
}

static void test_deque_pops_newest_and_steals_oldest_half(void **state)
{
    (void)state;
    struct frd__deque a, b;
    assert_int_equal(frd__deque_init(&a), 0);
    assert_int_equal(frd__deque_init(&b), 0);
    for (uintptr_t i = 0; i < 100; i++) {
        assert_int_equal(frd__deque_push(&a, task(i)), 0);
    }
    assert_ptr_equal(frd__deque_pop(&a), task(99));
    // 99 left: a thief takes the oldest half (capped at 32), returns the oldest.
    assert_ptr_equal(frd__deque_steal(&a, &b), task(0));
    assert_int_equal(b.count, 31);
    assert_ptr_equal(frd__deque_pop(&b), task(31)); // the thief's newest of those it took
    assert_ptr_equal(frd__deque_pop(&a), task(98));
    assert_int_equal(a.count, 99 - 32 - 1);
    while (frd__deque_pop(&a) != NULL) {
    }
    assert_null(frd__deque_steal(&a, &b));
    frd__deque_destroy(&a);
    frd__deque_destroy(&b);
}

static void test_deque_empty_pop_and_steal_give_null(void **state)
{
    (void)state;
    struct frd__deque a, b;
    assert_int_equal(frd__deque_init(&a), 0);
    assert_int_equal(frd__deque_init(&b), 0);
    assert_null(frd__deque_pop(&a));
    assert_null(frd__deque_steal(&a, &b));
    assert_int_equal(b.count, 0);
    assert_int_equal(frd__deque_push(&a, task(7)), 0);
    assert_ptr_equal(frd__deque_pop(&a), task(7));
    assert_null(frd__deque_pop(&a));
    frd__deque_destroy(&a);
    frd__deque_destroy(&b);
}

static void test_deque_steal_takes_half_rounded_up_at_most_32(void **state)
{
    (void)state;
    static const struct {
        size_t have, taken;
    } cases[] = {{1, 1}, {2, 1}, {3, 2}, {63, 32}, {64, 32}, {65, 32}, {1000, 32}};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct frd__deque a, b;
        assert_int_equal(frd__deque_init(&a), 0);
        assert_int_equal(frd__deque_init(&b), 0);
        for (uintptr_t i = 0; i < cases[c].have; i++) {
            assert_int_equal(frd__deque_push(&a, task(i)), 0);
        }
        assert_ptr_equal(frd__deque_steal(&a, &b), task(0));
        assert_int_equal(a.count, cases[c].have - cases[c].taken);
        assert_int_equal(b.count, cases[c].taken - 1);
        // The rest went over oldest first: the thief pops them newest first.
        for (uintptr_t i = cases[c].taken - 1; i >= 1; i--) {
            assert_ptr_equal(frd__deque_pop(&b), task(i));
        }
        assert_null(frd__deque_pop(&b));
        // The victim keeps its newest, in order.
        for (uintptr_t i = cases[c].have; i-- > cases[c].taken;) {
            assert_ptr_equal(frd__deque_pop(&a), task(i));
        }
        assert_null(frd__deque_pop(&a));
        frd__deque_destroy(&a);
        frd__deque_destroy(&b);
    }
}

/** Pops everything `dq` holds. */
static void drain(struct frd__deque *dq)
{
    while (frd__deque_pop(dq) != NULL) {
    }
}

static void test_deque_grows_across_the_wrap_keeping_order(void **state)
{
    (void)state;
    struct frd__deque a, b;
    assert_int_equal(frd__deque_init(&a), 0);
    assert_int_equal(frd__deque_init(&b), 0);
    // Fill the first ring (64 slots), then move its oldest off index 0 by stealing.
    for (uintptr_t i = 0; i < 64; i++) {
        assert_int_equal(frd__deque_push(&a, task(i)), 0);
    }
    assert_int_equal(a.capacity, 64);
    assert_ptr_equal(frd__deque_steal(&a, &b), task(0)); // takes 0..31
    drain(&b);
    assert_ptr_equal(frd__deque_steal(&a, &b), task(32)); // takes 32..47
    drain(&b);
    assert_int_equal(a.head, 48);
    assert_int_equal(a.count, 16);
    // Wrap: 48 more fill the ring from index 0 up to the head, the next one grows it.
    for (uintptr_t i = 64; i <= 112; i++) {
        assert_int_equal(frd__deque_push(&a, task(i)), 0);
    }
    assert_int_equal(a.capacity, 128);
    assert_int_equal(a.count, 65);
    // Still in order: a thief takes the oldest 32 (48..79), the owner pops 112 down to 80.
    assert_ptr_equal(frd__deque_steal(&a, &b), task(48));
    assert_int_equal(b.count, 31);
    for (uintptr_t i = 112; i >= 80; i--) {
        assert_ptr_equal(frd__deque_pop(&a), task(i));
    }
    assert_null(frd__deque_pop(&a));
    for (uintptr_t i = 79; i >= 49; i--) {
        assert_ptr_equal(frd__deque_pop(&b), task(i));
    }
    assert_null(frd__deque_pop(&b));
    frd__deque_destroy(&a);
    frd__deque_destroy(&b);
}

/* ---- An owner and thieves at once ---- */

#define RACE_TASKS   20000
#define RACE_THIEVES 3

static struct frd__deque race_dq[1 + RACE_THIEVES];
static atomic_uchar race_seen[RACE_TASKS];
static atomic_bool race_done;
static atomic_int race_twice;

static void race_take(void *t)
{
    uintptr_t i = task_index(t);
    if (atomic_fetch_add(&race_seen[i], 1) != 0) {
        atomic_fetch_add(&race_twice, 1);
    }
}

static void race_thief(void *arg)
{
    struct frd__deque *own = arg;
    uint64_t victim = (uint64_t)(own - race_dq);
    while (!atomic_load(&race_done)) {
        victim = (victim * 7 + 1) % (1 + RACE_THIEVES);
        struct frd__deque *v = &race_dq[victim];
        if (v == own) {
            continue;
        }
        void *t = frd__deque_steal(v, own);
        if (t != NULL) {
            race_take(t);
        }
        while ((t = frd__deque_pop(own)) != NULL) {
            race_take(t);
        }
    }
}

static void test_deque_owner_and_thieves_lose_no_task(void **state)
{
    (void)state;
    memset(race_seen, 0, sizeof(race_seen));
    atomic_store(&race_done, false);
    atomic_store(&race_twice, 0);
    for (size_t i = 0; i < 1 + RACE_THIEVES; i++) {
        assert_int_equal(frd__deque_init(&race_dq[i]), 0);
    }
    uv_thread_t thieves[RACE_THIEVES];
    for (size_t i = 0; i < RACE_THIEVES; i++) {
        assert_int_equal(uv_thread_create(&thieves[i], race_thief, &race_dq[1 + i]), 0);
    }
    // The owner pushes in bursts and pops some of its own, as a walker's worker does.
    for (uintptr_t i = 0; i < RACE_TASKS; i++) {
        assert_int_equal(frd__deque_push(&race_dq[0], task(i)), 0);
        if (i % 3 == 0) {
            void *t = frd__deque_pop(&race_dq[0]);
            if (t != NULL) {
                race_take(t);
            }
        }
    }
    void *t;
    while ((t = frd__deque_pop(&race_dq[0])) != NULL) {
        race_take(t);
    }
    // What the thieves hold they take themselves; wait until every task was taken.
    for (size_t missing = 1; missing > 0;) {
        missing = 0;
        for (size_t i = 0; i < RACE_TASKS; i++) {
            missing += atomic_load(&race_seen[i]) == 0;
        }
        if (missing > 0) {
            uv_sleep(1);
        }
    }
    atomic_store(&race_done, true);
    for (size_t i = 0; i < RACE_THIEVES; i++) {
        uv_thread_join(&thieves[i]);
    }
    assert_int_equal(atomic_load(&race_twice), 0);
    for (size_t i = 0; i < 1 + RACE_THIEVES; i++) {
        assert_int_equal(race_dq[i].count, 0);
        frd__deque_destroy(&race_dq[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deque_pops_newest_and_steals_oldest_half),
        cmocka_unit_test(test_deque_empty_pop_and_steal_give_null),
        cmocka_unit_test(test_deque_steal_takes_half_rounded_up_at_most_32),
        cmocka_unit_test(test_deque_grows_across_the_wrap_keeping_order),
        cmocka_unit_test(test_deque_owner_and_thieves_lose_no_task),
    };
    return cmocka_run_group_tests_name("deque", tests, NULL, NULL);
}
