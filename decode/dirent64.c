// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Decoder of Linux dirent64 records (the layout is drawn in decode.h): the out-of-line
 * frd__decode_dirent64() over the inline body in dirent64.h, which the Linux lister calls.
 */
#include "dirent64.h"

int frd__decode_dirent64(const uint8_t *buf, size_t len, size_t *pos, struct frd__dirent64 *out)
{
    return frd__decode_dirent64_inline(buf, len, pos, out);
}
