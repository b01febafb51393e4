// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's standard descriptors, kept taken when closed at start (frdfind_stdfd.c). */
#ifndef FRD_EXAMPLES_FRDFIND_STDFD_H
#define FRD_EXAMPLES_FRDFIND_STDFD_H

#include <stdbool.h>

struct ff_ctx;

/**
 * Takes each of descriptors 0, 1, 2 that is closed with /dev/null, opened so that reads
 * (0) or writes (1, 2) on it fail with EBADF as on the closed one, close-on-exec. Call it
 * first in main(), before anything is opened.
 * @param closed receives bit fd for each descriptor fd taken (ff_ctx.std_closed).
 * @return 0, or -1 (errno set) when /dev/null could not be opened.
 */
int ff_std_reserve(unsigned *closed);

/** @return whether descriptor fd (0, 1 or 2) was closed at start (see ff_std_reserve()). */
bool ff_std_was_closed(const struct ff_ctx *ctx, int fd);

#endif // FRD_EXAMPLES_FRDFIND_STDFD_H
