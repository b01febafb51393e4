// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Tests of the pure Windows directory-information decoder, all three classes. */
#include "decode.h"
#include "nt_dirinfo_encoder.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const enum frd__nt_class classes[] = {FRD__NT_FULL_DIR_INFO, FRD__NT_ID_BOTH_DIR_INFO,
                                             FRD__NT_ID_EXTD_DIR_INFO};

/** 2021-01-01T00:00:00.1234567Z as FILETIME, and in Unix ns. */
#define FT_2021 INT64_C(132539328001234567)
#define NS_2021 INT64_C(1609459200123456700)

static struct nt_values nt_file(const char *name, int64_t size)
{
    struct nt_values v;
    memset(&v, 0, sizeof(v));
    v.name = name;
    v.crtime = FT_2021 - 10;
    v.atime = FT_2021 + 1;
    v.mtime = FT_2021;
    v.ctime = FT_2021 + 2;
    v.size = size;
    v.alloc = (size + 4095) & ~INT64_C(4095);
    v.attributes = 0x20; // ARCHIVE
    v.id[0] = 0x34;
    v.id[1] = 0x12;
    return v;
}

static int utf16_equals_ascii(const struct frd__nt_dirent *e, const char *s)
{
    if (e->name_units != strlen(s)) {
        return 0;
    }
    for (size_t i = 0; i < e->name_units; i++) {
        if (e->name16[2 * i] != (uint8_t)s[i] || e->name16[2 * i + 1] != 0) {
            return 0;
        }
    }
    return 1;
}

static void test_nt_dirinfo_chain_of_every_class_decodes_and_skips_dots(void **state)
{
    (void)state;
    for (size_t c = 0; c < 3; c++) {
        enum frd__nt_class cls = classes[c];
        struct nt_values v[6];
        v[0] = nt_file(".", 0);
        v[0].attributes = FRD__FILE_ATTRIBUTE_DIRECTORY;
        v[1] = nt_file("..", 0);
        v[1].attributes = FRD__FILE_ATTRIBUTE_DIRECTORY;
        v[2] = nt_file("file.txt", 1234);
        v[3] = nt_file("dir", 0);
        v[3].attributes = FRD__FILE_ATTRIBUTE_DIRECTORY;
        v[4] = nt_file(".hidden", 1);
        v[5] = nt_file("...", 2); // not a dot entry
        uint8_t buf[2048];
        memset(buf, 0x77, sizeof(buf));
        size_t used = nt_put_all(buf, cls, v, 6);
        assert_true(used < sizeof(buf));
        size_t pos = 0;
        struct frd__nt_dirent e;
        // The buffer's size, not the bytes used, is what the decoder gets.
        assert_int_equal(frd__decode_nt_dirinfo(buf, sizeof(buf), cls, &pos, &e), 1);
        assert_true(utf16_equals_ascii(&e, "file.txt"));
        assert_int_equal(e.size, 1234);
        assert_int_equal(e.alloc_size, 4096);
        assert_int_equal(e.mtime_ns, NS_2021);
        assert_int_equal(e.ctime_ns, NS_2021 + 200);
        assert_int_equal(e.atime_ns, NS_2021 + 100);
        assert_int_equal(e.btime_ns, NS_2021 - 1000);
        assert_int_equal(e.type, FRD__DT_REG);
        assert_int_equal(e.attributes, 0x20);
        if (cls == FRD__NT_FULL_DIR_INFO) {
            assert_int_equal(e.has_id, 0);
            assert_int_equal(e.file_id, 0);
        } else {
            assert_int_equal(e.has_id, 1);
            assert_int_equal(e.file_id, 0x1234);
        }
        assert_int_equal(frd__decode_nt_dirinfo(buf, sizeof(buf), cls, &pos, &e), 1);
        assert_true(utf16_equals_ascii(&e, "dir"));
        assert_int_equal(e.type, FRD__DT_DIR);
        assert_int_equal(frd__decode_nt_dirinfo(buf, sizeof(buf), cls, &pos, &e), 1);
        assert_true(utf16_equals_ascii(&e, ".hidden"));
        assert_int_equal(frd__decode_nt_dirinfo(buf, sizeof(buf), cls, &pos, &e), 1);
        assert_true(utf16_equals_ascii(&e, "..."));
        assert_int_equal(pos, sizeof(buf));
        assert_int_equal(frd__decode_nt_dirinfo(buf, sizeof(buf), cls, &pos, &e), 0);
    }
}

static void test_nt_dirinfo_only_dots_is_empty(void **state)
{
    (void)state;
    for (size_t c = 0; c < 3; c++) {
        struct nt_values v[2] = {nt_file(".", 0), nt_file("..", 0)};
        uint8_t buf[512];
        size_t used = nt_put_all(buf, classes[c], v, 2);
        size_t pos = 0;
        struct frd__nt_dirent e;
        assert_int_equal(frd__decode_nt_dirinfo(buf, used, classes[c], &pos, &e), 0);
        assert_int_equal(pos, used);
    }
}

static void test_nt_dirinfo_reparse_points_map_to_types(void **state)
{
    (void)state;
    static const struct {
        uint32_t attributes;
        uint32_t tag;
        unsigned char type;
    } cases[] = {
        {FRD__FILE_ATTRIBUTE_DIRECTORY | FRD__FILE_ATTRIBUTE_REPARSE_POINT,
         FRD__IO_REPARSE_TAG_MOUNT_POINT, FRD__DT_LNK},
        {FRD__FILE_ATTRIBUTE_DIRECTORY | FRD__FILE_ATTRIBUTE_REPARSE_POINT,
         FRD__IO_REPARSE_TAG_SYMLINK, FRD__DT_LNK},
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, FRD__IO_REPARSE_TAG_SYMLINK, FRD__DT_LNK},
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, 0xA000001Du, FRD__DT_LNK}, // LX_SYMLINK
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, FRD__IO_REPARSE_TAG_AF_UNIX, FRD__DT_SOCK},
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, FRD__IO_REPARSE_TAG_LX_FIFO, FRD__DT_FIFO},
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, FRD__IO_REPARSE_TAG_LX_CHR, FRD__DT_CHR},
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, FRD__IO_REPARSE_TAG_LX_BLK, FRD__DT_BLK},
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, 0x9000001Au, FRD__DT_REG}, // cloud file
        {FRD__FILE_ATTRIBUTE_DIRECTORY | FRD__FILE_ATTRIBUTE_REPARSE_POINT, 0x9000601Au,
         FRD__DT_DIR},                                                 // cloud folder
        {FRD__FILE_ATTRIBUTE_REPARSE_POINT, 0x80000013u, FRD__DT_REG}, // dedup
        {0, FRD__IO_REPARSE_TAG_SYMLINK, FRD__DT_REG}, // a tag without the attribute: ignored
    };
    for (size_t c = 0; c < 3; c++) {
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            struct nt_values v = nt_file("r", 0);
            v.attributes = cases[i].attributes;
            v.reparse_tag = cases[i].tag;
            uint8_t buf[256];
            size_t used = nt_put(buf, 0, classes[c], &v);
            size_t pos = 0;
            struct frd__nt_dirent e;
            assert_int_equal(frd__decode_nt_dirinfo(buf, used, classes[c], &pos, &e), 1);
            assert_int_equal(e.type, cases[i].type);
            uint32_t want_tag =
                (cases[i].attributes & FRD__FILE_ATTRIBUTE_REPARSE_POINT) ? cases[i].tag : 0;
            assert_int_equal(e.reparse_tag, want_tag);
        }
    }
}

static void test_nt_dirinfo_128_bit_id_that_does_not_fit_is_zero(void **state)
{
    (void)state;
    struct nt_values v = nt_file("refs", 5);
    for (int i = 0; i < 16; i++) {
        v.id[i] = (uint8_t)(i + 1);
    }
    uint8_t buf[256];
    size_t used = nt_put(buf, 0, FRD__NT_ID_EXTD_DIR_INFO, &v);
    size_t pos = 0;
    struct frd__nt_dirent e;
    assert_int_equal(frd__decode_nt_dirinfo(buf, used, FRD__NT_ID_EXTD_DIR_INFO, &pos, &e), 1);
    assert_int_equal(e.file_id, 0);
    assert_int_equal(e.has_id, 0);
    assert_memory_equal(e.file_id128, v.id, 16);
    // The same id with a zero high half is reported.
    memset(v.id + 8, 0, 8);
    used = nt_put(buf, 0, FRD__NT_ID_EXTD_DIR_INFO, &v);
    pos = 0;
    assert_int_equal(frd__decode_nt_dirinfo(buf, used, FRD__NT_ID_EXTD_DIR_INFO, &pos, &e), 1);
    assert_int_equal(e.has_id, 1);
    assert_int_equal(e.file_id, UINT64_C(0x0807060504030201));
}

static void test_nt_dirinfo_filetime_conversion_and_saturation(void **state)
{
    (void)state;
    assert_int_equal(frd__filetime_to_unix_ns(INT64_C(116444736000000000)), 0);
    assert_int_equal(frd__filetime_to_unix_ns(FT_2021), NS_2021);
    assert_int_equal(frd__filetime_to_unix_ns(0), INT64_MIN); // 1601 is before 1677
    assert_int_equal(frd__filetime_to_unix_ns(INT64_MAX), INT64_MAX);
    assert_int_equal(frd__filetime_to_unix_ns(INT64_MIN), INT64_MIN);
    // The last representable tick on each side.
    int64_t last = INT64_MAX / 100 + INT64_C(116444736000000000);
    assert_int_equal(frd__filetime_to_unix_ns(last), (INT64_MAX / 100) * 100);
    assert_int_equal(frd__filetime_to_unix_ns(last + 1), INT64_MAX);
}

static void test_nt_dirinfo_negative_sizes_read_as_zero(void **state)
{
    (void)state;
    struct nt_values v = nt_file("neg", -5);
    v.alloc = -1;
    uint8_t buf[256];
    size_t used = nt_put(buf, 0, FRD__NT_FULL_DIR_INFO, &v);
    size_t pos = 0;
    struct frd__nt_dirent e;
    assert_int_equal(frd__decode_nt_dirinfo(buf, used, FRD__NT_FULL_DIR_INFO, &pos, &e), 1);
    assert_int_equal(e.size, 0);
    assert_int_equal(e.alloc_size, 0);
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void test_nt_dirinfo_every_malformation_is_malformed(void **state)
{
    (void)state;
    for (size_t c = 0; c < 3; c++) {
        enum frd__nt_class cls = classes[c];
        size_t name_at = nt_name_offset(cls);
        for (int k = 0; k < 10; k++) {
            uint8_t buf[512];
            memset(buf, 0, sizeof(buf));
            struct nt_values v[2] = {nt_file("first", 1), nt_file("second", 2)};
            size_t len = nt_put_all(buf, cls, v, 2);
            size_t first_len = (name_at + 10 + 7) & ~(size_t)7;
            enum frd__nt_class use = cls;
            const char *what = "";
            switch (k) {
            case 0:
                what = "name length zero";
                put32(buf + 60, 0);
                break;
            case 1:
                what = "name length odd";
                put32(buf + 60, 9);
                break;
            case 2:
                what = "name past end";
                put32(buf + 60, (uint32_t)len);
                break;
            case 3:
                what = "next not a multiple of 8";
                put32(buf, (uint32_t)first_len + 4);
                break;
            case 4:
                what = "next inside this record's name";
                put32(buf, 8);
                break;
            case 5:
                what = "next past end";
                put32(buf, (uint32_t)len + 8);
                break;
            case 6:
                what = "next lands exactly at the end";
                put32(buf, (uint32_t)len);
                break;
            case 7:
                what = "header cut short";
                len = name_at - 1;
                break;
            case 8:
                what = "unknown class";
                use = (enum frd__nt_class)7;
                break;
            case 9:
                what = "next record's header cut short";
                len = first_len + name_at - 2;
                break;
            }
            size_t pos = 0;
            struct frd__nt_dirent e;
            int rc = frd__decode_nt_dirinfo(buf, len, use, &pos, &e);
            if (k == 9) {
                // The first record is fine; its successor is not.
                assert_int_equal(rc, 1);
                rc = frd__decode_nt_dirinfo(buf, len, use, &pos, &e);
                assert_int_equal(pos, first_len);
            } else {
                assert_int_equal(pos, 0);
            }
            if (rc != FRD__DECODE_EMALFORMED) {
                fail_msg("class %zu case '%s': got %d", c, what, rc);
            }
        }
    }
}

static void test_nt_dirinfo_malformed_after_a_dot_does_not_move_pos(void **state)
{
    (void)state;
    struct nt_values v[2] = {nt_file(".", 0), nt_file("bad", 0)};
    uint8_t buf[512];
    size_t used = nt_put_all(buf, FRD__NT_FULL_DIR_INFO, v, 2);
    size_t second = (68 + 2 + 7) & ~(size_t)7;
    put32(buf + second + 60, 3); // odd name length in the second record
    size_t pos = 0;
    struct frd__nt_dirent e;
    assert_int_equal(frd__decode_nt_dirinfo(buf, used, FRD__NT_FULL_DIR_INFO, &pos, &e),
                     FRD__DECODE_EMALFORMED);
    assert_int_equal(pos, 0);
}

static void test_nt_dirinfo_position_past_end_is_malformed(void **state)
{
    (void)state;
    uint8_t buf[256];
    struct nt_values v = nt_file("a", 0);
    size_t used = nt_put(buf, 0, FRD__NT_FULL_DIR_INFO, &v);
    size_t pos = used + 8;
    struct frd__nt_dirent e;
    assert_int_equal(frd__decode_nt_dirinfo(buf, used, FRD__NT_FULL_DIR_INFO, &pos, &e),
                     FRD__DECODE_EMALFORMED);
}

static void test_nt_dirinfo_compressed_encrypted_readonly_reach_the_record(void **state)
{
    (void)state;
    uint32_t attrs = FRD__FILE_ATTRIBUTE_COMPRESSED | FRD__FILE_ATTRIBUTE_ENCRYPTED |
                     FRD__FILE_ATTRIBUTE_READONLY;
    for (size_t c = 0; c < 3; c++) {
        struct nt_values v = nt_file("packed.bin", 10);
        v.attributes = attrs;
        uint8_t buf[512];
        memset(buf, 0, sizeof(buf));
        nt_put_all(buf, classes[c], &v, 1);
        size_t pos = 0;
        struct frd__nt_dirent e;
        assert_int_equal(frd__decode_nt_dirinfo(buf, sizeof(buf), classes[c], &pos, &e), 1);
        assert_int_equal(e.attributes, attrs);
        assert_int_equal(e.type, FRD__DT_REG);
        assert_int_equal(frd__nt_mode(e.type, e.attributes), 0100444);
        assert_int_equal(e.btime_ns, NS_2021 - 1000);
        assert_int_equal(e.atime_ns, NS_2021 + 100);
    }
}

static void test_nt_mode_is_type_bits_and_synthesized_permissions(void **state)
{
    (void)state;
    const uint32_t ro = FRD__FILE_ATTRIBUTE_READONLY;
    assert_int_equal(frd__nt_mode(FRD__DT_REG, 0x20), 0100666);
    assert_int_equal(frd__nt_mode(FRD__DT_REG, ro), 0100444);
    assert_int_equal(frd__nt_mode(FRD__DT_DIR, FRD__FILE_ATTRIBUTE_DIRECTORY), 0040777);
    assert_int_equal(frd__nt_mode(FRD__DT_DIR, FRD__FILE_ATTRIBUTE_DIRECTORY | ro), 0040555);
    assert_int_equal(frd__nt_mode(FRD__DT_LNK, ro), 0120777);
    assert_int_equal(frd__nt_mode(FRD__DT_SOCK, 0), 0140666);
    assert_int_equal(frd__nt_mode(FRD__DT_FIFO, 0), 0010666);
    assert_int_equal(frd__nt_mode(FRD__DT_CHR, 0), 0020666);
    assert_int_equal(frd__nt_mode(FRD__DT_BLK, 0), 0060666);
    assert_int_equal(frd__nt_mode(FRD__DT_UNKNOWN, 0), 0666);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nt_dirinfo_chain_of_every_class_decodes_and_skips_dots),
        cmocka_unit_test(test_nt_dirinfo_only_dots_is_empty),
        cmocka_unit_test(test_nt_dirinfo_reparse_points_map_to_types),
        cmocka_unit_test(test_nt_dirinfo_128_bit_id_that_does_not_fit_is_zero),
        cmocka_unit_test(test_nt_dirinfo_filetime_conversion_and_saturation),
        cmocka_unit_test(test_nt_dirinfo_negative_sizes_read_as_zero),
        cmocka_unit_test(test_nt_dirinfo_every_malformation_is_malformed),
        cmocka_unit_test(test_nt_dirinfo_malformed_after_a_dot_does_not_move_pos),
        cmocka_unit_test(test_nt_dirinfo_position_past_end_is_malformed),
        cmocka_unit_test(test_nt_dirinfo_compressed_encrypted_readonly_reach_the_record),
        cmocka_unit_test(test_nt_mode_is_type_bits_and_synthesized_permissions),
    };
    return cmocka_run_group_tests_name("nt_dirinfo", tests, NULL, NULL);
}
