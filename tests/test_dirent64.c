// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Tests of the pure dirent64 decoder, on synthetic buffers. */
#include "decode.h"
#include "dirent64_encoder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void test_dirent64_good_records_of_every_type_decode(void **state)
{
    (void)state;
    static const uint8_t types[] = {FRD__DT_UNKNOWN, FRD__DT_FIFO, FRD__DT_CHR,
                                    FRD__DT_DIR,     FRD__DT_BLK,  FRD__DT_REG,
                                    FRD__DT_LNK,     FRD__DT_SOCK, FRD__DT_WHT};
    static const char *names[] = {
        "u", "fifo", "chr", "a directory", "blk", "reg.txt", "link\nwith newline", "sock", "wh"};
    uint8_t buf[1024];
    size_t len = 0;
    for (size_t i = 0; i < 9; i++) {
        len = dirent64_put(buf, len, 100 + i, types[i], names[i], strlen(names[i]), 0);
    }
    size_t pos = 0;
    struct frd__dirent64 rec;
    for (size_t i = 0; i < 9; i++) {
        assert_int_equal(frd__decode_dirent64(buf, len, &pos, &rec), 1);
        assert_int_equal(rec.ino, 100 + i);
        assert_int_equal(rec.type, types[i]);
        assert_int_equal(rec.name_len, strlen(names[i]));
        assert_memory_equal(rec.name, names[i], rec.name_len);
        assert_int_equal(rec.name[rec.name_len], '\0');
        assert_int_equal(rec.off, (int64_t)pos);
    }
    assert_int_equal(pos, len);
    assert_int_equal(frd__decode_dirent64(buf, len, &pos, &rec), 0);
}

static void test_dirent64_longest_name_decodes(void **state)
{
    (void)state;
    char name[256];
    memset(name, 'n', 255);
    name[255] = 0;
    uint8_t buf[512];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, name, 255, 0);
    size_t pos = 0;
    struct frd__dirent64 rec;
    assert_int_equal(frd__decode_dirent64(buf, len, &pos, &rec), 1);
    assert_int_equal(rec.name_len, 255);
    assert_int_equal(pos, len);
}

static void test_dirent64_name_with_invalid_utf8_decodes_as_bytes(void **state)
{
    (void)state;
    const char name[] = "\xff\xfe bad \xc3";
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 9, FRD__DT_REG, name, sizeof(name) - 1, 0);
    size_t pos = 0;
    struct frd__dirent64 rec;
    assert_int_equal(frd__decode_dirent64(buf, len, &pos, &rec), 1);
    assert_int_equal(rec.name_len, sizeof(name) - 1);
    assert_memory_equal(rec.name, name, sizeof(name) - 1);
}

static void test_dirent64_empty_buffer_is_end(void **state)
{
    (void)state;
    uint8_t buf[1] = {0};
    size_t pos = 0;
    struct frd__dirent64 rec;
    assert_int_equal(frd__decode_dirent64(buf, 0, &pos, &rec), 0);
}

/** Decodes one malformed record and checks the result and that pos did not move. */
static void expect_malformed(const uint8_t *buf, size_t len, size_t pos)
{
    size_t at = pos;
    struct frd__dirent64 rec;
    assert_int_equal(frd__decode_dirent64(buf, len, &at, &rec), FRD__DECODE_EMALFORMED);
    assert_int_equal(at, pos);
}

static void test_dirent64_zero_reclen_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "a", 1, 0);
    uint16_t zero = 0;
    memcpy(buf + 16, &zero, 2);
    expect_malformed(buf, len, 0);
}

static void test_dirent64_unaligned_reclen_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "abcdefgh", 8, 0);
    uint16_t odd = 28;
    memcpy(buf + 16, &odd, 2);
    expect_malformed(buf, len, 0);
}

static void test_dirent64_reclen_below_minimum_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "a", 1, 0);
    uint16_t small = 16;
    memcpy(buf + 16, &small, 2);
    expect_malformed(buf, len, 0);
}

static void test_dirent64_reclen_past_end_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[128];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "a", 1, 0);
    uint16_t big = 64;
    memcpy(buf + 16, &big, 2);
    expect_malformed(buf, len, 0);
}

static void test_dirent64_truncated_header_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "a", 1, 0);
    len = dirent64_put(buf, len, 2, FRD__DT_REG, "b", 1, 0);
    // The second record cut to 20 bytes: its length field says 24.
    size_t pos = 0;
    struct frd__dirent64 rec;
    assert_int_equal(frd__decode_dirent64(buf, len - 4, &pos, &rec), 1);
    expect_malformed(buf, len - 4, pos);
    expect_malformed(buf, 10, 0);
}

static void test_dirent64_name_without_nul_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "abcd", 4, 0);
    memset(buf + 19, 'z', len - 19);
    expect_malformed(buf, len, 0);
}

static void test_dirent64_empty_name_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "abcd", 4, 0);
    buf[19] = 0;
    expect_malformed(buf, len, 0);
}

static void test_dirent64_position_past_end_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "a", 1, 0);
    expect_malformed(buf, len, len + 8);
}

static void test_dirent64_nul_only_in_padding_of_next_record_is_malformed(void **state)
{
    (void)state;
    // The name runs to the end of its reclen; a NUL exists only after it.
    uint8_t buf[64];
    memset(buf, 0, sizeof(buf));
    size_t len = dirent64_put(buf, 0, 1, FRD__DT_REG, "abcd", 4, 0);
    memset(buf + 19, 'q', 5);
    dirent64_put(buf, len, 2, FRD__DT_REG, "e", 1, 0);
    expect_malformed(buf, len, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dirent64_good_records_of_every_type_decode),
        cmocka_unit_test(test_dirent64_longest_name_decodes),
        cmocka_unit_test(test_dirent64_name_with_invalid_utf8_decodes_as_bytes),
        cmocka_unit_test(test_dirent64_empty_buffer_is_end),
        cmocka_unit_test(test_dirent64_zero_reclen_is_malformed),
        cmocka_unit_test(test_dirent64_unaligned_reclen_is_malformed),
        cmocka_unit_test(test_dirent64_reclen_below_minimum_is_malformed),
        cmocka_unit_test(test_dirent64_reclen_past_end_is_malformed),
        cmocka_unit_test(test_dirent64_truncated_header_is_malformed),
        cmocka_unit_test(test_dirent64_name_without_nul_is_malformed),
        cmocka_unit_test(test_dirent64_empty_name_is_malformed),
        cmocka_unit_test(test_dirent64_position_past_end_is_malformed),
        cmocka_unit_test(test_dirent64_nul_only_in_padding_of_next_record_is_malformed),
    };
    return cmocka_run_group_tests_name("dirent64", tests, NULL, NULL);
}
