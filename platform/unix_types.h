// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Entry types from Unix d_type bytes and st_mode bits, shared by the Unix backends. */
#ifndef FRD_PLATFORM_UNIX_TYPES_H
#define FRD_PLATFORM_UNIX_TYPES_H

#include "decode.h"
#include "frd.h"

#include <sys/stat.h>

/** The type a directory record's d_type byte gives (Linux and macOS share the values). */
static inline enum frd_type frd__type_from_dt(unsigned char dt)
{
    switch (dt) {
    case FRD__DT_REG:
        return FRD_TYPE_REG;
    case FRD__DT_DIR:
        return FRD_TYPE_DIR;
    case FRD__DT_LNK:
        return FRD_TYPE_LNK;
    case FRD__DT_FIFO:
        return FRD_TYPE_FIFO;
    case FRD__DT_SOCK:
        return FRD_TYPE_SOCK;
    case FRD__DT_CHR:
        return FRD_TYPE_CHR;
    case FRD__DT_BLK:
        return FRD_TYPE_BLK;
    default:
        return FRD_TYPE_UNKNOWN;
    }
}

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
