// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Tests of frdmpi du's records on the wire (examples/frdmpi/frdmpi_du_wire.c), which rank 0
 * reads from every other rank: records read back as packed; a short, truncated or lying
 * buffer (a path length past the end, a NUL in a path, a path outside the root) is refused
 * at the record that lies, never read past its end.
 */
#include "frdmpi_du_wire.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define ROOT "/srv/x"

static int next(const char *buf, size_t len, size_t *off, struct du_wire_rec *rec)
{
    return du_wire_next(buf, len, off, ROOT, strlen(ROOT), rec);
}

/** A record in the wire layout with the path length it claims. @return bytes written. */
static size_t raw_record(char *out, uint64_t dev, const char *path, uint32_t plen)
{
    uint64_t bytes = 42, ino = dev;
    memcpy(out, &bytes, 8);
    memcpy(out + 8, &dev, 8);
    memcpy(out + 16, &ino, 8);
    memcpy(out + 24, &plen, 4);
    memcpy(out + DU_WIRE_HEADER, path, strlen(path));
    return DU_WIRE_HEADER + strlen(path);
}

static void test_du_wire_put_then_next_gives_the_records_back(void **state)
{
    (void)state;
    const struct du_wire_rec recs[] = {
        {7, UINT64_MAX, UINT64_MAX, "", 0},                   // the root's total
        {1000, UINT64_MAX, UINT64_MAX, ROOT "/d", 8},         // a line
        {512, 3, 99, ROOT "/d/hard", 13},                     // a file with several links
        {4096, 3, 100, ROOT, 6},                              // the root, a hard-linked file
        {1, UINT64_MAX, UINT64_MAX, ROOT "/d/e/f/g/h/i", 18}, // a deep line
    };
    char *buf = NULL;
    size_t len = 0, cap = 0;
    // Enough records to grow the buffer past its first 4 KiB several times.
    for (size_t round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
            assert_int_equal(du_wire_put(&buf, &len, &cap, &recs[i]), 0);
        }
    }
    assert_true(cap >= len && len > 4096);
    size_t off = 0;
    struct du_wire_rec rec;
    for (size_t round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
            assert_int_equal(next(buf, len, &off, &rec), 1);
            assert_true(rec.bytes == recs[i].bytes && rec.dev == recs[i].dev &&
                        rec.ino == recs[i].ino);
            assert_int_equal(rec.len, recs[i].len);
            assert_memory_equal(rec.path, recs[i].path, rec.len);
            assert_int_equal(du_wire_is_line(&rec), recs[i].dev == UINT64_MAX);
        }
    }
    assert_int_equal(next(buf, len, &off, &rec), 0);
    assert_int_equal(off, len);
    free(buf);
}

static void test_du_wire_next_every_truncation_is_refused_at_the_cut_record(void **state)
{
    (void)state;
    char buf[256];
    size_t first = raw_record(buf, UINT64_MAX, ROOT "/d", 8);
    size_t total = first + raw_record(buf + first, 5, ROOT "/d/f", 10);
    for (size_t len = 0; len <= total; len++) {
        size_t off = 0;
        struct du_wire_rec rec;
        int got = next(buf, len, &off, &rec);
        if (len == 0) {
            assert_int_equal(got, 0);
            continue;
        }
        if (len < first) {
            assert_int_equal(got, -1);
            assert_int_equal(off, 0);
            continue;
        }
        assert_int_equal(got, 1);
        assert_int_equal(off, first);
        got = next(buf, len, &off, &rec);
        assert_int_equal(got, len == first ? 0 : len == total ? 1 : -1);
        assert_int_equal(off, len == total ? total : first);
    }
}

static void test_du_wire_next_path_length_past_the_end_is_refused(void **state)
{
    (void)state;
    char buf[256];
    const uint32_t lies[] = {9, 1000, 1u << 31, UINT32_MAX};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        for (int line = 0; line < 2; line++) {
            size_t n = raw_record(buf, line ? UINT64_MAX : 4, ROOT "/d", lies[i]);
            size_t off = 0;
            struct du_wire_rec rec;
            assert_int_equal(next(buf, n, &off, &rec), -1);
            assert_int_equal(off, 0);
        }
    }
    // Lying short: the path's last bytes are read as the next record, which is cut.
    size_t n = raw_record(buf, UINT64_MAX, ROOT "/dir", 8);
    size_t off = 0;
    struct du_wire_rec rec;
    assert_int_equal(next(buf, n, &off, &rec), 1);
    assert_int_equal(next(buf, n, &off, &rec), -1);
}

static void test_du_wire_next_path_with_nul_is_refused(void **state)
{
    (void)state;
    char buf[256];
    size_t n = raw_record(buf, UINT64_MAX, ROOT "/d?e", 10);
    buf[DU_WIRE_HEADER + 8] = '\0';
    size_t off = 0;
    struct du_wire_rec rec;
    assert_int_equal(next(buf, n, &off, &rec), -1);
}

static void test_du_wire_next_path_outside_the_root_is_refused(void **state)
{
    (void)state;
    char buf[256];
    size_t off;
    struct du_wire_rec rec;
    const char *outside[] = {"/etc", "/srv/xy", "/srv", "srv/x/d"};
    for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        for (int line = 0; line < 2; line++) {
            size_t n =
                raw_record(buf, line ? UINT64_MAX : 4, outside[i], (uint32_t)strlen(outside[i]));
            off = 0;
            assert_int_equal(next(buf, n, &off, &rec), -1);
        }
    }
    // The root itself is a line only as the empty path (the root's total), never by name.
    size_t n = raw_record(buf, UINT64_MAX, ROOT, 6);
    off = 0;
    assert_int_equal(next(buf, n, &off, &rec), -1);
    // A file record has a path: the root itself, or below it.
    n = raw_record(buf, 4, "", 0);
    off = 0;
    assert_int_equal(next(buf, n, &off, &rec), -1);
    n = raw_record(buf, 4, ROOT, 6);
    off = 0;
    assert_int_equal(next(buf, n, &off, &rec), 1);
    // Below a root that ends in '/': the next byte need not be one.
    n = raw_record(buf, UINT64_MAX, "/a", 2);
    off = 0;
    assert_int_equal(du_wire_next(buf, n, &off, "/", 1, &rec), 1);
}

static void test_du_wire_put_refuses_a_path_longer_than_a_record_holds(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    struct du_wire_rec huge = {1, 2, 3, "x", (size_t)UINT32_MAX + 1};
    assert_int_equal(du_wire_put(&buf, &len, &cap, &huge), -1);
    assert_null(buf);
    assert_int_equal(len, 0);
    assert_int_equal(cap, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_du_wire_put_then_next_gives_the_records_back),
        cmocka_unit_test(test_du_wire_next_every_truncation_is_refused_at_the_cut_record),
        cmocka_unit_test(test_du_wire_next_path_length_past_the_end_is_refused),
        cmocka_unit_test(test_du_wire_next_path_with_nul_is_refused),
        cmocka_unit_test(test_du_wire_next_path_outside_the_root_is_refused),
        cmocka_unit_test(test_du_wire_put_refuses_a_path_longer_than_a_record_holds),
    };
    return cmocka_run_group_tests_name("frdmpi_du_wire", tests, NULL, NULL);
}
