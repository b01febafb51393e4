// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of an entry's packed metadata (examples/frdindex/frdindex_rowpack.c): every field
 * comes back as it was, at the edges of its range (times before the epoch, a birth time of
 * 0 or as far from ctime as an int64 goes, the largest sizes and ids) and for random rows;
 * a blob cut short, run on, or with a field too large for its member is refused.
 */
#include "frdindex_rowpack.h"
#include "test_rng.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void)
{
    return test_rng_next(&rng_state);
}

/** A random value of 0-64 bits, so that every varint length turns up. */
static uint64_t some_bits(void)
{
    unsigned bits = (unsigned)(rng() % 65);
    return bits == 0 ? 0 : rng() >> (64 - bits);
}

static void assert_same(const struct index_row *a, const struct index_row *b)
{
    assert_int_equal(a->type, b->type);
    assert_int_equal(a->persistent, b->persistent);
    assert_int_equal(a->fields, b->fields);
    assert_int_equal(a->size, b->size);
    assert_int_equal(a->mtime_ns, b->mtime_ns);
    assert_int_equal(a->ctime_ns, b->ctime_ns);
    assert_int_equal(a->btime_ns, b->btime_ns);
    assert_int_equal(a->file_id, b->file_id);
    assert_int_equal(a->dev, b->dev);
    assert_int_equal(a->mode, b->mode);
    assert_int_equal(a->nlink, b->nlink);
    assert_int_equal(a->uid, b->uid);
    assert_int_equal(a->gid, b->gid);
    assert_int_equal(a->rdev, b->rdev);
    assert_int_equal(a->attributes, b->attributes);
    assert_int_equal(a->attributes_known, b->attributes_known);
}

/** Packs and unpacks `row`: equal, within INDEX_ROW_PACKED_MAX; its id untouched. */
static size_t round_trip(const struct index_row *row)
{
    unsigned char buf[INDEX_ROW_PACKED_MAX + 1];
    memset(buf, 0xa5, sizeof(buf));
    size_t len = index_row_pack(row, buf);
    assert_true(len > 0 && len <= INDEX_ROW_PACKED_MAX);
    assert_int_equal(buf[INDEX_ROW_PACKED_MAX], 0xa5);
    struct index_row back = {.id = 77};
    assert_int_equal(index_row_unpack(buf, len, &back), 0);
    assert_int_equal(back.id, 77);
    assert_same(row, &back);
    return len;
}

static void test_edges_come_back(void **state)
{
    (void)state;
    const int64_t times[] = {0, 1, -1, INT64_MIN, INT64_MAX, 1796473520043699891, -86400};
    size_t nt = sizeof(times) / sizeof(times[0]);
    for (size_t m = 0; m < nt; m++) {
        for (size_t c = 0; c < nt; c++) {
            for (size_t b = 0; b < nt; b++) {
                struct index_row row = {
                    .type = (uint8_t)(m * 37 + c),
                    .persistent = (b & 1) != 0,
                    .mtime_ns = times[m],
                    .ctime_ns = times[c],
                    .btime_ns = times[b],
                    .size = UINT64_MAX,
                    .file_id = UINT64_MAX - m,
                    .dev = (uint64_t)1 << 63,
                    .rdev = UINT64_MAX,
                    .mode = UINT32_MAX,
                    .nlink = UINT32_MAX,
                    .uid = UINT32_MAX,
                    .gid = 0,
                    .fields = UINT32_MAX,
                    .attributes = 1,
                    .attributes_known = UINT32_MAX,
                };
                round_trip(&row);
            }
        }
    }
    struct index_row all_zero = {0}, top = {.type = UINT8_MAX, .persistent = true};
    round_trip(&all_zero);
    round_trip(&top);
}

static void test_random_rows_come_back(void **state)
{
    (void)state;
    for (int i = 0; i < 100000; i++) {
        struct index_row row = {
            .type = (uint8_t)rng(),
            .persistent = rng() & 1,
            .mtime_ns = (int64_t)some_bits(),
            .size = some_bits(),
            .file_id = some_bits(),
            .dev = some_bits(),
            .rdev = some_bits(),
            .mode = (uint32_t)some_bits(),
            .nlink = (uint32_t)some_bits(),
            .uid = (uint32_t)some_bits(),
            .gid = (uint32_t)some_bits(),
            .fields = (uint32_t)some_bits(),
            .attributes = (uint32_t)some_bits(),
            .attributes_known = (uint32_t)some_bits(),
        };
        // ctime and btime most often near mtime, as on a disk; sometimes anywhere.
        row.ctime_ns =
            rng() & 1 ? row.mtime_ns + (int64_t)(rng() % 2000000) - 1000000 : (int64_t)some_bits();
        row.btime_ns = rng() % 3 == 0 ? 0 : row.ctime_ns - (int64_t)(rng() % 1000);
        if (rng() & 1) { // as most rows: fields, attributes and rdev not kept
            row.fields = INDEX_ROW_COMMON_FIELDS;
            row.attributes_known = INDEX_ROW_COMMON_ATTRS_KNOWN;
            row.attributes = 0;
            row.rdev = rng() & 1 ? 0 : row.rdev; // and some not quite
        }
        round_trip(&row);
    }
}

static void test_times_near_each_other_are_short(void **state)
{
    (void)state;
    // A file of a real disk: ctime and birth time equal to mtime or close to it.
    struct index_row row = {
        .type = 1,
        .mtime_ns = 1796473520043699891,
        .ctime_ns = 1796473520043699891,
        .btime_ns = 1796473520039699891,
        .size = 4096,
        .file_id = 16064509,
        .dev = 65024,
        .mode = 0100644,
        .nlink = 1,
        .fields = 32767,
        .attributes_known = 511,
    };
    // 1 (head) + 2 (size) + 9 (mtime) + 1 (ctime) + 4 (file id) + 3 (dev) + 2 (mode)
    // + 3 (nlink, uid, gid) + 4 (btime) = 29 (fields, attributes and rdev those of most rows),
    // where schema 4's 16 columns took 41 bytes and 16 more of the record's header.
    assert_int_equal(round_trip(&row), 29);
    // Not common: each of them kept.
    struct index_row other = row;
    other.rdev = 1;
    assert_int_equal(round_trip(&other), 29 + 3 + 1 + 1 + 2);
    other = row;
    other.fields &= ~(uint32_t)FRD_FIELD_BTIME;
    other.btime_ns = 0;
    assert_int_equal(round_trip(&other), 29 - 4 + 3 + 1 + 1 + 2);
}

static void test_damaged_blobs_are_refused(void **state)
{
    (void)state;
    struct index_row row = {
        .type = 2,
        .mtime_ns = 5,
        .ctime_ns = 6,
        .btime_ns = 7,
        .size = 300,
        .mode = 040755,
        .nlink = 2,
        .fields = 9,
    };
    unsigned char buf[INDEX_ROW_PACKED_MAX + 16];
    size_t len = index_row_pack(&row, buf);
    struct index_row back;
    for (size_t cut = 0; cut < len; cut++) {
        assert_int_equal(index_row_unpack(buf, cut, &back), -1); // cut short
    }
    buf[len] = 0;
    assert_int_equal(index_row_unpack(buf, len + 1, &back), -1); // one byte more
    assert_int_equal(index_row_unpack(NULL, 0, &back), -1);
    // A varint longer than ten bytes.
    memset(buf, 0x80, 11);
    buf[11] = 0;
    assert_int_equal(index_row_unpack(buf, 12, &back), -1);
    // A type above 255 (the head's type bits).
    struct index_row big = row;
    len = index_row_pack(&big, buf);
    unsigned char wide[INDEX_ROW_PACKED_MAX + 16] = {0x80, 0x10}; // type 256 << 3
    memcpy(wide + 2, buf + 1, len - 1);
    assert_int_equal(index_row_unpack(wide, len + 1, &back), -1);
    // A birth time said kept that comes to 0 (ctime 6, distance -6: zigzag 11).
    struct index_row zero_b = row;
    zero_b.btime_ns = 1; // distance -5, zigzag 9: one byte, made 11 below
    len = index_row_pack(&zero_b, buf);
    unsigned char *b = buf + len - 4; // before rdev, attributes and attributes known (0 each)
    assert_int_equal(*b, 9);
    *b = 11;
    assert_int_equal(index_row_unpack(buf, len, &back), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges_come_back),
        cmocka_unit_test(test_random_rows_come_back),
        cmocka_unit_test(test_times_near_each_other_are_short),
        cmocka_unit_test(test_damaged_blobs_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
