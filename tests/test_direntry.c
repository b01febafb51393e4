// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Tests of the pure macOS getdirentries64 record decoder, on synthetic buffers. */
#include "decode.h"
#include "direntry_encoder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static void test_direntry_records_of_every_type_decode(void **state)
{
    (void)state;
    static const uint8_t types[] = {FRD__DT_UNKNOWN, FRD__DT_FIFO, FRD__DT_CHR,
                                    FRD__DT_DIR,     FRD__DT_BLK,  FRD__DT_REG,
                                    FRD__DT_LNK,     FRD__DT_SOCK, FRD__DT_WHT};
    static const char *names[] = {
        ".", "..", "c", "a directory", "blk", "r\xc3\xa9g.txt", "link\nnl", "sock", "whiteout"};
    uint8_t buf[1024];
    size_t len = 0;
    for (size_t i = 0; i < 9; i++) {
        len = direntry_put(buf, len, 1000 + i, types[i], names[i]);
    }
    size_t pos = 0;
    struct frd__direntry rec;
    for (size_t i = 0; i < 9; i++) {
        assert_int_equal(frd__decode_direntry(buf, len, &pos, &rec), 1);
        assert_int_equal(rec.ino, 1000 + i);
        assert_int_equal(rec.type, types[i]);
        assert_int_equal(rec.name_len, strlen(names[i]));
        assert_memory_equal(rec.name, names[i], rec.name_len + 1);
        assert_int_equal(rec.seekoff, pos);
    }
    assert_int_equal(pos, len);
    assert_int_equal(frd__decode_direntry(buf, len, &pos, &rec), 0);
}

static void test_direntry_longest_name_decodes(void **state)
{
    (void)state;
    char name[1024];
    memset(name, 'n', 1023); // MAXPATHLEN - 1: the longest a struct direntry holds
    name[1023] = 0;
    uint8_t buf[2048];
    size_t len = direntry_put(buf, 0, 1, FRD__DT_REG, name);
    size_t pos = 0;
    struct frd__direntry rec;
    assert_int_equal(frd__decode_direntry(buf, len, &pos, &rec), 1);
    assert_int_equal(rec.name_len, 1023);
    assert_int_equal(pos, len);
}

static void test_direntry_eof_flag_is_read_from_the_last_four_bytes(void **state)
{
    (void)state;
    uint8_t buf[4096];
    memset(buf, 0, sizeof(buf));
    uint32_t flags = FRD__GETDIRENTRIES64_EOF;
    memcpy(buf + sizeof(buf) - 4, &flags, 4);
    assert_int_equal(frd__direntry_eof(buf, sizeof(buf), 100), 1);
    assert_int_equal(frd__direntry_eof(buf, sizeof(buf), sizeof(buf) - 4), 1);
    flags = 0x6; // other bits: not end
    memcpy(buf + sizeof(buf) - 4, &flags, 4);
    assert_int_equal(frd__direntry_eof(buf, sizeof(buf), 0), 0);
    // Below GETDIRENTRIES64_EXTENDED_BUFSIZE there is no flags word.
    flags = 1;
    memcpy(buf + 1020, &flags, 4);
    assert_int_equal(frd__direntry_eof(buf, 1023, 1023), 0);
    assert_int_equal(frd__direntry_eof(buf, 1024, 1020), 1);
}

static void test_direntry_records_overlapping_the_flags_word_are_malformed(void **state)
{
    (void)state;
    uint8_t buf[1024];
    memset(buf, 0, sizeof(buf));
    assert_int_equal(frd__direntry_eof(buf, 1024, 1021), FRD__DECODE_EMALFORMED);
    assert_int_equal(frd__direntry_eof(buf, 1024, 4096), FRD__DECODE_EMALFORMED);
    assert_int_equal(frd__direntry_eof(buf, 512, 513), FRD__DECODE_EMALFORMED);
}

struct direntry_case {
    const char *what;
    size_t offset; // where to write
    size_t size;   // 1 or 2 bytes
    uint16_t value;
    size_t len; // 0: the encoded length
};

static void test_direntry_every_malformation_is_malformed(void **state)
{
    (void)state;
    // One good record of name "abcd" (reclen 32) followed by nothing.
    static const struct direntry_case cases[] = {
        {"reclen zero", 16, 2, 0, 0},
        {"reclen not a multiple of 8", 16, 2, 28, 0},
        {"reclen below header", 16, 2, 16, 0},
        {"reclen past end", 16, 2, 40, 0},
        {"reclen too short for name", 16, 2, 24, 0},
        {"namlen zero", 18, 2, 0, 0},
        {"namlen past reclen", 18, 2, 11, 0},
        {"no NUL after name", 25, 1, 'x', 0},
        {"NUL inside name", 22, 1, 0, 0},
        {"buffer shorter than a header", 0, 0, 0, 20},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t buf[64];
        memset(buf, 0, sizeof(buf));
        size_t len = direntry_put(buf, 0, 7, FRD__DT_REG, "abcd");
        if (cases[i].size == 1) {
            buf[cases[i].offset] = (uint8_t)cases[i].value;
        } else if (cases[i].size == 2) {
            memcpy(buf + cases[i].offset, &cases[i].value, 2);
        }
        if (cases[i].len) {
            len = cases[i].len;
        }
        size_t pos = 0;
        struct frd__direntry rec;
        int rc = frd__decode_direntry(buf, len, &pos, &rec);
        if (rc != FRD__DECODE_EMALFORMED) {
            fail_msg("case '%s': got %d", cases[i].what, rc);
        }
        assert_int_equal(pos, 0);
    }
}

static void test_direntry_position_past_end_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[64];
    size_t len = direntry_put(buf, 0, 1, FRD__DT_REG, "a");
    size_t pos = len + 8;
    struct frd__direntry rec;
    assert_int_equal(frd__decode_direntry(buf, len, &pos, &rec), FRD__DECODE_EMALFORMED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direntry_records_of_every_type_decode),
        cmocka_unit_test(test_direntry_longest_name_decodes),
        cmocka_unit_test(test_direntry_eof_flag_is_read_from_the_last_four_bytes),
        cmocka_unit_test(test_direntry_records_overlapping_the_flags_word_are_malformed),
        cmocka_unit_test(test_direntry_every_malformation_is_malformed),
        cmocka_unit_test(test_direntry_position_past_end_is_malformed),
    };
    return cmocka_run_group_tests_name("direntry", tests, NULL, NULL);
}
