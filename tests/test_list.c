// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Tests of entry lists, sorting, comparisons, errors and the allocator (no file system). */
#include "internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static struct frd_entry entry_named(const char *name, uint64_t size)
{
    struct frd_entry e;
    memset(&e, 0, sizeof(e));
    e.name = name;
    e.name_len = strlen(name);
    e.size = size;
    e.type = FRD_TYPE_REG;
    e.fields = FRD_FIELD_TYPE | FRD_FIELD_SIZE;
    return e;
}

static void test_list_new_rejects_null(void **state)
{
    (void)state;
    assert_int_equal(frd_list_new(NULL), FRD_EINVAL);
}

static void test_list_append_copies_names_and_survives_arena_growth(void **state)
{
    (void)state;
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    char name[200];
    enum { N = 5000 };
    for (int i = 0; i < N; i++) {
        int len = snprintf(name, sizeof(name), "%0150d", i);
        struct frd_entry e = entry_named(name, (uint64_t)i);
        e.name_len = (size_t)len;
        assert_int_equal(frd_list_append(list, &e), 0);
    }
    memset(name, 0, sizeof(name));
    assert_int_equal(frd_list_count(list), N);
    const struct frd_entry *v = frd_list_entries(list);
    for (int i = 0; i < N; i++) {
        char want[200];
        snprintf(want, sizeof(want), "%0150d", i);
        assert_string_equal(v[i].name, want);
        assert_int_equal(v[i].size, i);
    }
    frd_list_clear(list);
    assert_int_equal(frd_list_count(list), 0);
    assert_null(frd_list_entries(list));
    frd_list_free(list);
}

static void test_list_sort_is_byte_order_and_stable(void **state)
{
    (void)state;
    struct frd_list *list;
    assert_int_equal(frd_list_new(&list), 0);
    // Duplicated names (as from two appended listings) keep their order: size tells which.
    const char *names[] = {"b", "a", "\xff", "B", "ab", "a", "", "b", "aa", "a\n", "Z", "b"};
    size_t n = sizeof(names) / sizeof(names[0]);
    for (size_t i = 0; i < n; i++) {
        struct frd_entry e = entry_named(names[i], i);
        assert_int_equal(frd_list_append(list, &e), 0);
    }
    frd_list_sort(list);
    const struct frd_entry *v = frd_list_entries(list);
    const char *want[] = {"", "B", "Z", "a", "a", "a\n", "aa", "ab", "b", "b", "b", "\xff"};
    const uint64_t want_size[] = {6, 3, 10, 1, 5, 9, 8, 4, 0, 7, 11, 2};
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(v[i].name, want[i]);
        assert_int_equal(v[i].size, want_size[i]);
    }
    frd_list_free(list);
}

static int reference_cmp(const void *a, const void *b)
{
    const struct frd_entry *x = a;
    const struct frd_entry *y = b;
    int c = frd_entry_cmp_name(x, y);
    return c ? c : (x->size > y->size) - (x->size < y->size);
}

/** Refuses every allocation while set (frd_list_sort() then sorts the entries themselves). */
static bool refuse_allocations;

static void *maybe_malloc(size_t size)
{
    return refuse_allocations ? NULL : malloc(size);
}

static void *maybe_realloc(void *ptr, size_t size)
{
    return refuse_allocations ? NULL : realloc(ptr, size);
}

/** Random lists of names up to 12 bytes from a 4-letter alphabet (so many share their
 *  first 8 bytes, which the sort's records hold, and many are equal), sorted as qsort()
 *  by name then position sorts them: with the records, and with no memory for them. */
static void test_list_sort_matches_reference_on_random_lists(void **state)
{
    (void)state;
    srand(12345);
    assert_int_equal(frd_replace_allocator(maybe_malloc, maybe_realloc, free), 0);
    for (int round = 0; round < 100; round++) {
        struct frd_list *list;
        assert_int_equal(frd_list_new(&list), 0);
        size_t n = (size_t)(rand() % 3000);
        struct frd_entry *ref = calloc(n + 1, sizeof(*ref));
        char(*names)[16] = calloc(n + 1, 16);
        size_t most = round % 2 == 0 ? 3 : 12;
        for (size_t i = 0; i < n; i++) {
            size_t len = (size_t)rand() % (most + 1);
            for (size_t k = 0; k < len; k++) {
                names[i][k] = (char)("ab\xe9z"[rand() % 4]);
            }
            struct frd_entry e = entry_named(names[i], i);
            e.name_len = len;
            ref[i] = e;
            assert_int_equal(frd_list_append(list, &e), 0);
        }
        qsort(ref, n, sizeof(*ref), reference_cmp);
        refuse_allocations = round % 4 == 3;
        frd_list_sort(list);
        refuse_allocations = false;
        const struct frd_entry *v = frd_list_entries(list);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(v[i].size, ref[i].size);
        }
        free(ref);
        free(names);
        frd_list_free(list);
    }
    assert_int_equal(frd_replace_allocator(malloc, realloc, free), 0);
}

static void test_entry_cmp_name_orders_prefix_first(void **state)
{
    (void)state;
    struct frd_entry a = entry_named("abc", 0);
    struct frd_entry b = entry_named("abcd", 0);
    struct frd_entry c = entry_named("abd", 0);
    assert_true(frd_entry_cmp_name(&a, &b) < 0);
    assert_true(frd_entry_cmp_name(&b, &a) > 0);
    assert_true(frd_entry_cmp_name(&b, &c) < 0);
    assert_int_equal(frd_entry_cmp_name(&a, &a), 0);
}

static void test_entry_same_compares_every_field(void **state)
{
    (void)state;
    struct frd_entry a = entry_named("file", 10);
    a.mtime_ns = 1;
    a.ctime_ns = 2;
    a.file_id = 3;
    a.dev = 4;
    a.nlink = 5;
    a.mode = 0100644;
    a.uid = 6;
    a.gid = 7;
    a.btime_ns = 8;
    a.atime_ns = 9;
    a.attributes_known = FRD_ATTR_IMMUTABLE | FRD_ATTR_APPEND;
    struct frd_entry b = a;
    assert_true(frd_entry_same(&a, &b));
    b.alloc_size = 4096; // left out on purpose (delayed allocation)
    assert_true(frd_entry_same(&a, &b));
    b.atime_ns = 99; // left out on purpose (reading a file changes it)
    assert_true(frd_entry_same(&a, &b));

    struct frd_entry c;
#define CHANGED(field, value) \
    c = a;                    \
    c.field = value;          \
    assert_false(frd_entry_same(&a, &c));
    CHANGED(size, 11);
    CHANGED(mtime_ns, 9);
    CHANGED(ctime_ns, 9);
    CHANGED(file_id, 9);
    CHANGED(dev, 9);
    CHANGED(nlink, 9);
    CHANGED(mode, 0100600);
    CHANGED(uid, 9);
    CHANGED(gid, 9);
    CHANGED(rdev, 9);
    CHANGED(btime_ns, 9);
    CHANGED(attributes, FRD_ATTR_IMMUTABLE);
    CHANGED(attributes_known, 0);
    CHANGED(type, FRD_TYPE_DIR);
    CHANGED(fields, 0);
    CHANGED(error, FRD_EACCES);
    CHANGED(name, "fill");
#undef CHANGED
}

static void test_errors_are_negated_errno_and_named(void **state)
{
    (void)state;
    assert_int_equal(FRD_ENOENT, -ENOENT);
    assert_int_equal(FRD_ELOOP, -ELOOP);
    assert_true(FRD_EMALFORMED < -5000);
    assert_string_equal(frd_err_name(FRD_ENOENT), "ENOENT");
    assert_string_equal(frd_err_name(FRD_EMALFORMED), "EMALFORMED");
    assert_string_equal(frd_strerror(FRD_ENOTDIR), "not a directory");
    assert_string_equal(frd_strerror(-123456), "unknown error");
    assert_string_equal(frd_err_name(-123456), "EUNKNOWN");
    assert_true(frd_version() == FRD_VERSION_HEX);
}

static void test_type_letter_is_finds_y(void **state)
{
    (void)state;
    assert_int_equal(frd_type_letter(FRD_TYPE_REG), 'f');
    assert_int_equal(frd_type_letter(FRD_TYPE_DIR), 'd');
    assert_int_equal(frd_type_letter(FRD_TYPE_LNK), 'l');
    assert_int_equal(frd_type_letter(FRD_TYPE_FIFO), 'p');
    assert_int_equal(frd_type_letter(FRD_TYPE_SOCK), 's');
    assert_int_equal(frd_type_letter(FRD_TYPE_CHR), 'c');
    assert_int_equal(frd_type_letter(FRD_TYPE_BLK), 'b');
    assert_int_equal(frd_type_letter(FRD_TYPE_UNKNOWN), 'U');
}

static void test_type_from_mode_reads_the_format_bits_only(void **state)
{
    (void)state;
    // POSIX's S_IFMT values, with permission, setuid and sticky bits that must not matter.
    assert_int_equal(frd_type_from_mode(0100644), FRD_TYPE_REG);
    assert_int_equal(frd_type_from_mode(0104755), FRD_TYPE_REG);
    assert_int_equal(frd_type_from_mode(0041777), FRD_TYPE_DIR);
    assert_int_equal(frd_type_from_mode(0120777), FRD_TYPE_LNK);
    assert_int_equal(frd_type_from_mode(0010600), FRD_TYPE_FIFO);
    assert_int_equal(frd_type_from_mode(0140755), FRD_TYPE_SOCK);
    assert_int_equal(frd_type_from_mode(0020620), FRD_TYPE_CHR);
    assert_int_equal(frd_type_from_mode(0060660), FRD_TYPE_BLK);
    assert_int_equal(frd_type_from_mode(0000644), FRD_TYPE_UNKNOWN);
    assert_int_equal(frd_type_from_mode(0170000), FRD_TYPE_UNKNOWN);
}

static void test_replace_allocator_rejects_null(void **state)
{
    (void)state;
    assert_int_equal(frd_replace_allocator(NULL, realloc, free), FRD_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_new_rejects_null),
        cmocka_unit_test(test_type_from_mode_reads_the_format_bits_only),
        cmocka_unit_test(test_list_append_copies_names_and_survives_arena_growth),
        cmocka_unit_test(test_list_sort_is_byte_order_and_stable),
        cmocka_unit_test(test_list_sort_matches_reference_on_random_lists),
        cmocka_unit_test(test_entry_cmp_name_orders_prefix_first),
        cmocka_unit_test(test_entry_same_compares_every_field),
        cmocka_unit_test(test_errors_are_negated_errno_and_named),
        cmocka_unit_test(test_type_letter_is_finds_y),
        cmocka_unit_test(test_replace_allocator_rejects_null),
    };
    return cmocka_run_group_tests_name("list", tests, NULL, NULL);
}
