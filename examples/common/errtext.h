// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The words the tools print for an frd error code: the C library's, as find and du print. */
#ifndef FRD_EXAMPLES_COMMON_ERRTEXT_H
#define FRD_EXAMPLES_COMMON_ERRTEXT_H

/**
 * Describes a negative frd code as the C library describes its errno (strerror(-code):
 * "Permission denied", capitalised as GNU find and du print it) when the code is an errno
 * value, else with frd_strerror() (frd's own codes, below -4000).
 * @return a static string, never NULL.
 */
const char *tool_strerror(int code);

struct frd_walk_error;

/**
 * Prints one walk failure on stderr as frdcount words it (frdmpi's walk too, so the two agree
 * line for line): "NAME: 'PATH': WORDS" as find prints a failure (NAME: tool_name), or for a
 * directory that repeats an ancestor (FRD_OP_LOOP with other_path)
 * "NAME: 'PATH': file system loop: the same directory as 'ANCESTOR'". Any thread.
 */
void tool_print_walk_error(const struct frd_walk_error *err);

#endif // FRD_EXAMPLES_COMMON_ERRTEXT_H
