// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Entry types from st_mode bits (and, through dt_types.h, d_type bytes) for the Unix backends. */
#ifndef FRD_PLATFORM_UNIX_TYPES_H
#define FRD_PLATFORM_UNIX_TYPES_H

#include "dt_types.h"
#include "frd.h"

#include <sys/stat.h>

/* frd_type_from_mode() (lib/list.c) spells POSIX's S_IFMT values out: check them here, where
 * the system's are known. */
_Static_assert(S_IFMT == 0170000 && S_IFREG == 0100000 && S_IFDIR == 0040000 &&
                   S_IFLNK == 0120000 && S_IFIFO == 0010000 && S_IFSOCK == 0140000 &&
                   S_IFCHR == 0020000 && S_IFBLK == 0060000,
               "S_IFMT values differ from frd_type_from_mode()'s");

#endif // FRD_PLATFORM_UNIX_TYPES_H
