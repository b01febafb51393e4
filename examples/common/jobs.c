// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The tools' thread-count option (see jobs.h). */
#include "jobs.h"

#include "toolname.h"

#include <stdio.h>

int tool_parse_jobs(const char *arg, const char *option, unsigned *out)
{
    unsigned long n = 0;
    const char *p = arg;
    // Digits only: no sign, no spaces, no leading '+' that strtoul would take.
    while (*p >= '0' && *p <= '9' && n <= TOOL_JOBS_MAX) {
        n = n * 10 + (unsigned long)(*p - '0');
        p++;
    }
    if (p == arg || *p != '\0' || n < 1 || n > TOOL_JOBS_MAX) {
        fprintf(stderr, "%s: invalid thread count '%s' for %s (from 1 to %d)\n", tool_name, arg,
                option, TOOL_JOBS_MAX);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}
