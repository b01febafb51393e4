// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Formats sizes the way GNU du prints them: -k, -m, -B SIZE, -h, --si (see frddu_size.c). */
#ifndef FRD_EXAMPLES_FRDDU_SIZE_H
#define FRD_EXAMPLES_FRDDU_SIZE_H

#include <stddef.h>
#include <stdint.h>

/** How sizes print, gnulib's human options as du 9.1 sets them. */
enum du_human {
    DU_HUMAN_AUTOSCALE = 1u << 0, /**< pick the unit per value (-h, --si) */
    DU_HUMAN_SI = 1u << 1,        /**< append the unit's prefix: K, M, ... (k for 1000) */
    DU_HUMAN_1024 = 1u << 2,      /**< powers of 1024, not 1000 */
    DU_HUMAN_B = 1u << 3,         /**< append B (or iB with DU_HUMAN_1024) after the prefix */
    DU_HUMAN_GROUP = 1u << 4,     /**< the locale's thousands separator ("'1K": -B's "'") */
};

/** How sizes are printed. */
struct du_units {
    uint64_t block_size; /**< bytes per printed unit; 1 with DU_HUMAN_AUTOSCALE */
    unsigned human;      /**< enum du_human bits */
};

/** Longest string du_format_size() writes, NUL included: 20 digits, each but the first
 *  after a thousands separator of up to MB_LEN_MAX (16) bytes where the locale groups every
 *  digit, a decimal point of as many, a digit, a unit of 3 ("KiB"). */
#define DU_SIZE_MAX_LEN (20 + 19 * 16 + 16 + 1 + 3 + 1)

/** What du_parse_block_size() found wrong, as gnulib's xstrtol reports it. */
enum du_num_error {
    DU_NUM_OK = 0,
    DU_NUM_INVALID,  /**< not a number */
    DU_NUM_SUFFIX,   /**< a number followed by a suffix that is not allowed */
    DU_NUM_OVERFLOW, /**< too large */
};

/**
 * Parses a number as gnulib's xstrtoumax/xstrtoimax do: base 0 (0x.., 0..), an optional
 * multiplier suffix from `suffixes` (k K m M G T P E Z Y, powers of 1024; followed by "B" for
 * powers of 1000 or "iB" for 1024 when `suffixes` holds '0'), a suffix alone meaning 1.
 * @param is_signed allow a leading '-' (then *out holds an int64_t's bits).
 * @return DU_NUM_OK with *out set, or what is wrong.
 */
enum du_num_error du_parse_number(const char *text, const char *suffixes, int is_signed,
                                  uint64_t *out);

/**
 * Parses a block size as du -B (and DU_BLOCK_SIZE, BLOCK_SIZE) takes it: "human-readable"
 * or "si" (or a prefix of them), a number with an optional suffix ("1K", "1MB", "2M"), a
 * suffix alone ("K", "KiB", "kB": sizes then print with that unit appended), a leading "'"
 * (the locale's digit grouping: 1,234,567 in en_US; none in the C and C.UTF-8 locales).
 * @return DU_NUM_OK with *units set, or what is wrong (a size of 0 is DU_NUM_INVALID).
 */
enum du_num_error du_parse_block_size(const char *spec, struct du_units *units);

/**
 * Writes `n` (bytes, or inodes) in `units` to `out` (at least DU_SIZE_MAX_LEN bytes), as
 * gnulib's human_readable() prints it for du: whole units rounded up, or with
 * DU_HUMAN_AUTOSCALE "4.0K", "12M", "1.1G" (rounded up, one decimal below 10); the
 * locale's decimal point, and with DU_HUMAN_GROUP its thousands separator.
 * @return out.
 */
char *du_format_size(uint64_t n, const struct du_units *units, char *out);

#endif // FRD_EXAMPLES_FRDDU_SIZE_H
