// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/**
 * Tests of what libfrd_mpi reads from other ranks (mpi/proto.c's mp_check(), mpi/queue.c's
 * mq_unpack()): well-formed messages pass; short, truncated and lying ones are
 * FRD_EMALFORMED and change nothing; a queue that cannot grow stays as it was. No MPI call
 * is made (tests/mpi/liar.sh sends the same lies between real ranks).
 */
#include "frd.h"
#include "proto.h"
#include "queue.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/** Rank `rank` of `size`, holding the token or not. */
static struct mp rank_of(int rank, int size, bool have_token)
{
    struct mp m = {.rank = rank, .size = size, .have_token = have_token};
    return m;
}

static int check(const struct mp *m, int tag, int src, const void *body, size_t len)
{
    struct mp_msg msg = {tag, src, (char *)(uintptr_t)body, len};
    return mp_check(m, &msg);
}

static void token_body(char out[MP_TOKEN_LEN], int64_t count, int32_t black)
{
    memcpy(out, &count, 8);
    memcpy(out + 8, &black, 4);
}

static void test_mp_check_well_formed_messages_pass(void **state)
{
    (void)state;
    struct mp r0 = rank_of(0, 3, false), r1 = rank_of(1, 3, false);
    char token[MP_TOKEN_LEN];
    token_body(token, -5, 1);
    int32_t code = FRD_ECANCELED;
    uint64_t progress[5] = {10, 2, 4096, 0, 1};
    assert_int_equal(check(&r0, MP_REQ, 2, NULL, 0), 0);
    assert_int_equal(check(&r0, MP_NOWORK, 1, NULL, 0), 0);
    assert_int_equal(check(&r1, MP_DONE, 0, NULL, 0), 0);
    assert_int_equal(check(&r0, MP_WORK, 1, "x", 1), 0);               // its items: mq_unpack()
    assert_int_equal(check(&r0, MP_TOKEN, 2, token, sizeof token), 0); // 2 -> 0 in the ring
    assert_int_equal(check(&r1, MP_TOKEN, 0, token, sizeof token), 0); // 0 -> 1
    assert_int_equal(check(&r1, MP_ABORT, 2, &code, sizeof code), 0);
    assert_int_equal(check(&r0, MP_PROGRESS, 2, progress, sizeof progress), 0);
}

static void test_mp_check_empty_messages_with_a_body_are_malformed(void **state)
{
    (void)state;
    struct mp r0 = rank_of(0, 2, false), r1 = rank_of(1, 2, false);
    assert_int_equal(check(&r0, MP_REQ, 1, "a", 1), FRD_EMALFORMED);
    assert_int_equal(check(&r0, MP_NOWORK, 1, "ab", 2), FRD_EMALFORMED);
    assert_int_equal(check(&r1, MP_DONE, 0, "abc", 3), FRD_EMALFORMED);
}

static void test_mp_check_work_without_items_is_malformed(void **state)
{
    (void)state;
    struct mp r0 = rank_of(0, 2, false);
    assert_int_equal(check(&r0, MP_WORK, 1, NULL, 0), FRD_EMALFORMED);
}

static void test_mp_check_done_from_a_rank_other_than_0_is_malformed(void **state)
{
    (void)state;
    struct mp r0 = rank_of(0, 3, false), r1 = rank_of(1, 3, false);
    assert_int_equal(check(&r1, MP_DONE, 2, NULL, 0), FRD_EMALFORMED);
    assert_int_equal(check(&r0, MP_DONE, 1, NULL, 0), FRD_EMALFORMED);
}

static void test_mp_check_token_of_another_length_is_malformed(void **state)
{
    (void)state;
    struct mp r1 = rank_of(1, 2, false);
    char token[MP_TOKEN_LEN + 4] = {0};
    for (size_t len = 0; len <= sizeof token; len++) {
        int want = len == MP_TOKEN_LEN ? 0 : FRD_EMALFORMED;
        assert_int_equal(check(&r1, MP_TOKEN, 0, len ? token : NULL, len), want);
    }
}

static void test_mp_check_token_black_other_than_0_or_1_is_malformed(void **state)
{
    (void)state;
    struct mp r1 = rank_of(1, 2, false);
    char token[MP_TOKEN_LEN];
    const int32_t blacks[] = {2, 7, -1, INT32_MAX};
    for (size_t i = 0; i < sizeof blacks / sizeof blacks[0]; i++) {
        token_body(token, 0, blacks[i]);
        assert_int_equal(check(&r1, MP_TOKEN, 0, token, sizeof token), FRD_EMALFORMED);
    }
}

static void test_mp_check_second_token_or_token_out_of_the_ring_is_malformed(void **state)
{
    (void)state;
    char token[MP_TOKEN_LEN];
    token_body(token, 0, 0);
    struct mp holder = rank_of(0, 3, true); // rank 0 holds the token from the start
    assert_int_equal(check(&holder, MP_TOKEN, 2, token, sizeof token), FRD_EMALFORMED);
    struct mp r1 = rank_of(1, 3, false);
    assert_int_equal(check(&r1, MP_TOKEN, 2, token, sizeof token), FRD_EMALFORMED); // not 0
}

static void test_mp_check_abort_short_or_not_negative_is_malformed(void **state)
{
    (void)state;
    struct mp r1 = rank_of(1, 2, false);
    int32_t codes[] = {0, 1, INT32_MAX};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        assert_int_equal(check(&r1, MP_ABORT, 0, &codes[i], 4), FRD_EMALFORMED);
    }
    int32_t code = FRD_EIO;
    assert_int_equal(check(&r1, MP_ABORT, 0, &code, 2), FRD_EMALFORMED);
    assert_int_equal(check(&r1, MP_ABORT, 0, NULL, 0), FRD_EMALFORMED);
    int64_t wide = FRD_EIO;
    assert_int_equal(check(&r1, MP_ABORT, 0, &wide, sizeof wide), FRD_EMALFORMED);
}

static void test_mp_check_progress_wrong_length_rank_or_idle_is_malformed(void **state)
{
    (void)state;
    struct mp r0 = rank_of(0, 3, false), r1 = rank_of(1, 3, false);
    uint64_t progress[6] = {1, 2, 3, 4, 0, 0};
    assert_int_equal(check(&r0, MP_PROGRESS, 1, progress, 39), FRD_EMALFORMED);
    assert_int_equal(check(&r0, MP_PROGRESS, 1, progress, 48), FRD_EMALFORMED);
    assert_int_equal(check(&r1, MP_PROGRESS, 2, progress, 40), FRD_EMALFORMED); // not rank 0
    progress[4] = 2;
    assert_int_equal(check(&r0, MP_PROGRESS, 1, progress, 40), FRD_EMALFORMED);
}

static void test_mp_check_unknown_tag_or_source_is_malformed(void **state)
{
    (void)state;
    struct mp r0 = rank_of(0, 2, false);
    assert_int_equal(check(&r0, 0, 1, NULL, 0), FRD_EMALFORMED);
    assert_int_equal(check(&r0, 99, 1, "x", 1), FRD_EMALFORMED);
    assert_int_equal(check(&r0, MP_REQ, 0, NULL, 0), FRD_EMALFORMED); // from itself
    assert_int_equal(check(&r0, MP_REQ, 2, NULL, 0), FRD_EMALFORMED); // no such rank
    assert_int_equal(check(&r0, MP_REQ, -1, NULL, 0), FRD_EMALFORMED);
}

/** Appends one WORK item in queue.h's layout; `plen` is what it claims. @return bytes. */
static size_t put_item(char *out, const char *path, uint32_t plen, uint32_t depth,
                       uint32_t check_flag)
{
    uint64_t dev = 7, ino = 8, root_dev = 9;
    memcpy(out, &dev, 8);
    memcpy(out + 8, &ino, 8);
    memcpy(out + 16, &root_dev, 8);
    memcpy(out + 24, &depth, 4);
    memcpy(out + 28, &check_flag, 4);
    memcpy(out + 32, &plen, 4);
    memcpy(out + MQ_WIRE_HEADER, path, strlen(path));
    return MQ_WIRE_HEADER + strlen(path);
}

#define ROOT "/srv/data"

static int unpack(struct mq *q, const char *buf, size_t len)
{
    return mq_unpack(q, buf, len, ROOT, strlen(ROOT));
}

static void test_mq_pack_then_unpack_gives_the_items_back(void **state)
{
    (void)state;
    struct mq q = {0}, back = {0};
    assert_int_equal(mq_push(&q, ROOT "/a", 11, 1, 2, 3, 1, true), 0);
    assert_int_equal(mq_push(&q, ROOT "/a/bb/c", 16, 4, 5, 3, 3, false), 0);
    size_t len;
    char *buf = mq_pack(&q, 0, 2, &len);
    assert_non_null(buf);
    assert_int_equal(len, 2 * MQ_WIRE_HEADER + 11 + 16);
    assert_int_equal(unpack(&back, buf, len), 0);
    assert_int_equal(back.len, 2);
    for (size_t i = 0; i < 2; i++) {
        assert_string_equal(back.items[i].path, q.items[i].path);
        assert_true(back.items[i].dev == q.items[i].dev && back.items[i].ino == q.items[i].ino);
        assert_true(back.items[i].root_dev == 3);
        assert_int_equal(back.items[i].depth, q.items[i].depth);
        assert_int_equal(back.items[i].check, q.items[i].check);
    }
    // A root that ends in '/' (as "/" does): a path right after it is below it.
    struct mq slash = {0};
    char one[64];
    size_t n = put_item(one, "/x", 2, 1, 1);
    assert_int_equal(mq_unpack(&slash, one, n, "/", 1), 0);
    assert_int_equal(slash.len, 1);
    mq_free(&slash);
    free(buf); // mq_pack's buffer is frd__malloc'd: the default allocator is malloc
    mq_free(&q);
    mq_free(&back);
}

static void test_mq_unpack_every_truncation_is_malformed_and_adds_nothing(void **state)
{
    (void)state;
    char buf[256];
    size_t first = put_item(buf, ROOT "/a", 11, 1, 1);
    size_t total = first + put_item(buf + first, ROOT "/bcd", 13, 1, 1);
    struct mq q = {0};
    assert_int_equal(mq_push(&q, ROOT "/kept", 14, 0, 0, 0, 1, false), 0);
    for (size_t len = 0; len < total; len++) {
        int rc = unpack(&q, buf, len);
        if (len == first) {
            assert_int_equal(rc, 0); // exactly the first item
            assert_int_equal(q.len, 2);
            mq_drop_tail(&q, 1);
        } else {
            assert_int_equal(rc, FRD_EMALFORMED);
            assert_int_equal(q.len, 1);
        }
    }
    assert_string_equal(q.items[0].path, ROOT "/kept");
    mq_free(&q);
}

static void test_mq_unpack_path_length_past_the_end_is_malformed(void **state)
{
    (void)state;
    char buf[256];
    struct mq q = {0};
    const uint32_t lies[] = {12, 100, 1u << 31, UINT32_MAX};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        size_t n = put_item(buf, ROOT "/a", lies[i], 1, 0);
        assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    }
    // Lying short: the path's last bytes are read as the next item's header, which is cut.
    size_t n = put_item(buf, ROOT "/abc", 10, 1, 0);
    assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    // A good item, then a lying one: nothing of the message is kept.
    n = put_item(buf, ROOT "/a", 11, 1, 0);
    n += put_item(buf + n, ROOT "/b", 12, 1, 0);
    assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    assert_int_equal(q.len, 0);
    mq_free(&q);
}

static void test_mq_unpack_path_not_below_the_root_is_malformed(void **state)
{
    (void)state;
    const char *paths[] = {"/etc/passwd", ROOT, "/srv/datax", "/srv/dat", "", "srv/data/a"};
    char buf[256];
    struct mq q = {0};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        size_t n = put_item(buf, paths[i], (uint32_t)strlen(paths[i]), 1, 0);
        assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    }
    assert_int_equal(q.len, 0);
    mq_free(&q);
}

static void test_mq_unpack_nul_in_path_is_malformed(void **state)
{
    (void)state;
    char buf[256];
    struct mq q = {0};
    size_t n = put_item(buf, ROOT "/a\x01z", 13, 1, 0);
    buf[MQ_WIRE_HEADER + 11] = '\0'; // "/srv/data/a\0z": two paths in one
    assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    assert_int_equal(q.len, 0);
    mq_free(&q);
}

static void test_mq_unpack_depth_or_check_out_of_range_is_malformed(void **state)
{
    (void)state;
    char buf[256];
    struct mq q = {0};
    size_t n = put_item(buf, ROOT "/a/b", 13, 0, 0); // the root is never sent
    assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    n = put_item(buf, ROOT "/a/b", 13, 5, 0); // 4 bytes below the root: at most depth 4
    assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    n = put_item(buf, ROOT "/a/b", 13, UINT32_MAX, 0);
    assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    n = put_item(buf, ROOT "/a/b", 13, 2, 2);
    assert_int_equal(unpack(&q, buf, n), FRD_EMALFORMED);
    n = put_item(buf, ROOT "/a/b", 13, 4, 1); // the most depth the path can hold
    assert_int_equal(unpack(&q, buf, n), 0);
    assert_int_equal(q.len, 1);
    mq_free(&q);
}

/** An allocator that fails once `budget` allocations are spent (-1: never). */
static long budget = -1;

static void *budget_malloc(size_t size)
{
    if (budget == 0) {
        return NULL;
    }
    budget -= budget > 0;
    return malloc(size);
}

static void *budget_realloc(void *ptr, size_t size)
{
    if (budget == 0) {
        return NULL;
    }
    budget -= budget > 0;
    return realloc(ptr, size);
}

static void test_mq_unpack_out_of_memory_leaves_the_queue_as_it_was(void **state)
{
    (void)state;
    char buf[4096];
    size_t n = 0;
    char path[64];
    for (int i = 0; i < 70; i++) { // more than the first capacity (64): the queue grows
        int len = snprintf(path, sizeof path, ROOT "/d%02d", i);
        n += put_item(buf + n, path, (uint32_t)len, 1, 1);
    }
    assert_int_equal(frd_replace_allocator(budget_malloc, budget_realloc, free), 0);
    for (long b = 0; b < 75; b++) {
        struct mq q = {0};
        budget = -1;
        assert_int_equal(mq_push(&q, ROOT "/kept", 14, 0, 0, 0, 1, false), 0);
        budget = b;
        int rc = unpack(&q, buf, n);
        budget = -1;
        // 1 growth to 128 items, 70 paths: 71 allocations succeed the whole message.
        assert_int_equal(rc, b >= 71 ? 0 : FRD_ENOMEM);
        assert_int_equal(q.len, b >= 71 ? 71 : 1);
        assert_string_equal(q.items[0].path, ROOT "/kept");
        mq_free(&q);
    }
    assert_int_equal(frd_replace_allocator(malloc, realloc, free), 0);
}

static void test_mq_push_that_cannot_grow_keeps_items_and_capacity(void **state)
{
    (void)state;
    struct mq q = {0};
    for (int i = 0; i < 64; i++) {
        assert_int_equal(mq_push(&q, ROOT "/a", 11, 0, 0, 0, 1, false), 0);
    }
    assert_int_equal(q.cap, 64);
    struct mq_item *items = q.items;
    assert_int_equal(frd_replace_allocator(budget_malloc, budget_realloc, free), 0);
    budget = 0;
    assert_int_equal(mq_push(&q, ROOT "/b", 11, 0, 0, 0, 1, false), FRD_ENOMEM);
    budget = -1;
    assert_int_equal(frd_replace_allocator(malloc, realloc, free), 0);
    assert_true(q.items == items);
    assert_int_equal(q.len, 64);
    assert_int_equal(q.cap, 64);
    assert_int_equal(mq_push(&q, ROOT "/b", 11, 0, 0, 0, 1, false), 0);
    assert_int_equal(q.cap, 128);
    mq_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp_check_well_formed_messages_pass),
        cmocka_unit_test(test_mp_check_empty_messages_with_a_body_are_malformed),
        cmocka_unit_test(test_mp_check_work_without_items_is_malformed),
        cmocka_unit_test(test_mp_check_done_from_a_rank_other_than_0_is_malformed),
        cmocka_unit_test(test_mp_check_token_of_another_length_is_malformed),
        cmocka_unit_test(test_mp_check_token_black_other_than_0_or_1_is_malformed),
        cmocka_unit_test(test_mp_check_second_token_or_token_out_of_the_ring_is_malformed),
        cmocka_unit_test(test_mp_check_abort_short_or_not_negative_is_malformed),
        cmocka_unit_test(test_mp_check_progress_wrong_length_rank_or_idle_is_malformed),
        cmocka_unit_test(test_mp_check_unknown_tag_or_source_is_malformed),
        cmocka_unit_test(test_mq_pack_then_unpack_gives_the_items_back),
        cmocka_unit_test(test_mq_unpack_every_truncation_is_malformed_and_adds_nothing),
        cmocka_unit_test(test_mq_unpack_path_length_past_the_end_is_malformed),
        cmocka_unit_test(test_mq_unpack_path_not_below_the_root_is_malformed),
        cmocka_unit_test(test_mq_unpack_nul_in_path_is_malformed),
        cmocka_unit_test(test_mq_unpack_depth_or_check_out_of_range_is_malformed),
        cmocka_unit_test(test_mq_unpack_out_of_memory_leaves_the_queue_as_it_was),
        cmocka_unit_test(test_mq_push_that_cannot_grow_keeps_items_and_capacity),
    };
    return cmocka_run_group_tests_name("mpi_proto", tests, NULL, NULL);
}
