// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Entry types from d_type bytes (enum frd__dt), for every backend: Linux and macOS records
 * carry them, and the Windows decoder derives one from the attributes and reparse tag. No
 * OS header, so win.c can use it too.
 */
#ifndef FRD_PLATFORM_DT_TYPES_H
#define FRD_PLATFORM_DT_TYPES_H

#include "decode.h"
#include "frd.h"

/** The type a directory record's d_type byte gives (Linux, the BSDs, macOS and the Windows decoder share
 *  the values). */
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

#endif // FRD_PLATFORM_DT_TYPES_H
