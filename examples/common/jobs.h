// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The tools' one rule for a thread count (-j N): the range the walker accepts. */
#ifndef FRD_EXAMPLES_COMMON_JOBS_H
#define FRD_EXAMPLES_COMMON_JOBS_H

/** The most threads a walk may ask for (frd_walk() fails with FRD_EINVAL above it). */
#define TOOL_JOBS_MAX 256

/**
 * Parses a thread count: a decimal number from 1 to TOOL_JOBS_MAX, nothing else.
 * On failure prints "NAME: invalid thread count 'ARG' for OPTION (from 1 to 256)" on
 * stderr (NAME: tool_name); the caller adds its usage hint and exit status.
 * @param option the option as the user typed it, for the message: "-j", "--jobs".
 * @return 0 with *out set, or -1 (*out untouched).
 */
int tool_parse_jobs(const char *arg, const char *option, unsigned *out);

#endif // FRD_EXAMPLES_COMMON_JOBS_H
