// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The words the tools print for an frd error code (see errtext.h). */
#include "errtext.h"

#include "toolname.h"

#include <frd.h>
#include <stdio.h>
#include <string.h>

const char *tool_strerror(int code)
{
    // frd's codes are -errno where the C library has that errno; its own sit below -4000.
    return code < 0 && code > -4000 ? strerror(-code) : frd_strerror(code);
}

void tool_print_walk_error(const struct frd_walk_error *err)
{
    if (err->call == FRD_OP_LOOP && err->other_path != NULL) {
        fprintf(stderr, "%s: '%s': file system loop: the same directory as '%s'\n", tool_name,
                err->path, err->other_path);
    } else {
        fprintf(stderr, "%s: '%s': %s\n", tool_name, err->path, tool_strerror(err->code));
    }
}
