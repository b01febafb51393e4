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

#endif // FRD_EXAMPLES_COMMON_ERRTEXT_H
