// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Entry types from st_mode bits (and, through dt_types.h, d_type bytes) for the Unix backends. */
#ifndef FRD_PLATFORM_UNIX_TYPES_H
#define FRD_PLATFORM_UNIX_TYPES_H

#include "dt_types.h"
#include "frd.h"

#include <sys/stat.h>

/** The type st_mode's S_IFMT bits give. */
static inline enum frd_type frd__type_from_mode(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG:
        return FRD_TYPE_REG;
    case S_IFDIR:
        return FRD_TYPE_DIR;
    case S_IFLNK:
        return FRD_TYPE_LNK;
    case S_IFIFO:
        return FRD_TYPE_FIFO;
    case S_IFSOCK:
        return FRD_TYPE_SOCK;
    case S_IFCHR:
        return FRD_TYPE_CHR;
    case S_IFBLK:
        return FRD_TYPE_BLK;
    default:
        return FRD_TYPE_UNKNOWN;
    }
}

#endif // FRD_PLATFORM_UNIX_TYPES_H
