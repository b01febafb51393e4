// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Formats byte counts the way GNU du prints them: whole blocks rounded up, or -h/--si. */
#include "frddu_size.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * Human-readable sizes, as GNU du -h prints them (coreutils 9.1 on Debian 12, checked
 * against it by tests/cli/frddu_vs_du.sh):
 *
 *   - below the base the count is printed as is: "0", "512", "1000";
 *   - otherwise divide by the base until the value is below it, keeping one decimal digit
 *     and whether anything beyond that digit was lost;
 *   - below 10, print one decimal, rounded up ("4.0K", "1.1M"); rounding up to 10.0 prints
 *     "10K" instead;
 *   - from 10 on, print the integer rounded up; reaching the base moves to the next prefix
 *     as "1.0M".
 *
 * Every step rounds up, so a size is never shown smaller than it is.
 */
static char *format_human(uint64_t bytes, unsigned base, char *out)
{
    // SI's kilo is a lower-case k; the binary prefixes (and du -h) use K.
    const char *prefixes = base == 1000 ? "kMGTPEZYRQ" : "KMGTPEZYRQ";
    const unsigned nprefixes = 10;
    if (bytes < base) {
        snprintf(out, DU_SIZE_MAX_LEN, "%" PRIu64, bytes);
        return out;
    }
    uint64_t whole = bytes;
    unsigned tenth = 0;     // first dropped decimal digit
    bool lost_more = false; // anything dropped beyond that digit
    unsigned exponent = 0;
    while (whole >= base && exponent < nprefixes) {
        // The remainder of this division, in tenths of the new unit, joined with the digit
        // and the remainder carried from the previous one.
        uint64_t rem_tenths = (whole % base) * 10 + tenth;
        lost_more = lost_more || rem_tenths % base != 0;
        tenth = (unsigned)(rem_tenths / base);
        whole /= base;
        exponent++;
    }
    char suffix = prefixes[exponent - 1];
    if (whole < 10) {
        if (lost_more) {
            tenth++;
            if (tenth == 10) {
                whole++;
                tenth = 0;
            }
        }
        if (whole < 10) {
            snprintf(out, DU_SIZE_MAX_LEN, "%" PRIu64 ".%u%c", whole, tenth, suffix);
            return out;
        }
        snprintf(out, DU_SIZE_MAX_LEN, "%" PRIu64 "%c", whole, suffix);
        return out;
    }
    if (tenth != 0 || lost_more) {
        whole++;
        if (whole == base && exponent < nprefixes) {
            snprintf(out, DU_SIZE_MAX_LEN, "1.0%c", prefixes[exponent]);
            return out;
        }
    }
    snprintf(out, DU_SIZE_MAX_LEN, "%" PRIu64 "%c", whole, suffix);
    return out;
}

char *du_format_size(uint64_t bytes, const struct du_units *units, char *out)
{
    if (units->human_base != 0) {
        return format_human(bytes, units->human_base, out);
    }
    uint64_t blocks = bytes / units->block_size + (bytes % units->block_size != 0);
    snprintf(out, DU_SIZE_MAX_LEN, "%" PRIu64, blocks);
    return out;
}
