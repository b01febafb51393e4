// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Formats byte counts the way GNU du prints them: whole blocks rounded up, or -h/--si. */
#ifndef FRD_EXAMPLES_FRDDU_SIZE_H
#define FRD_EXAMPLES_FRDDU_SIZE_H

#include <stddef.h>
#include <stdint.h>

/** How sizes are printed. */
struct du_units {
    uint64_t block_size; /**< bytes per printed unit (1, 1024, 1048576); unused when human */
    unsigned human_base; /**< 0: blocks; 1024 for -h; 1000 for --si */
};

/** Longest string du_format_size() writes, NUL included. */
#define DU_SIZE_MAX_LEN 32

/**
 * Writes `bytes` in `units` to `out` (at least DU_SIZE_MAX_LEN bytes): the number of blocks
 * rounded up, or for -h/--si the GNU style "4.0K", "12M", "1.1G" (rounded up as well, one
 * decimal below 10, the next prefix once the value reaches the base).
 * @return out.
 */
char *du_format_size(uint64_t bytes, const struct du_units *units, char *out);

#endif // FRD_EXAMPLES_FRDDU_SIZE_H
