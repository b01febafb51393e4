// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The words the tools print for an frd error code (see errtext.h). */
#include "errtext.h"

#include <frd.h>
#include <string.h>

const char *tool_strerror(int code)
{
    // frd's codes are -errno where the C library has that errno; its own sit below -4000.
    return code < 0 && code > -4000 ? strerror(-code) : frd_strerror(code);
}
