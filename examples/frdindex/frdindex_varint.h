// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Varints (7 bits a byte, low first) of the index's packed columns: the history's events
 *  (frdindex_history.c) and the trigram lists (frdindex_trigram.c). */
#ifndef FRD_EXAMPLES_FRDINDEX_VARINT_H
#define FRD_EXAMPLES_FRDINDEX_VARINT_H

#include <stddef.h>
#include <stdint.h>

/** Appends a varint to p (room for 10 bytes). @return the bytes written. */
static inline size_t index_put_varint(unsigned char *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (unsigned char)v;
    return n;
}

/** Reads a varint from the len bytes at p. @return its length, or 0 when it runs past the
 *  end or is longer than 10 bytes. */
static inline size_t index_get_varint(const unsigned char *p, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = 0; i < len && i < 10; i++) {
        x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *v = x;
            return i + 1;
        }
    }
    return 0;
}

#endif // FRD_EXAMPLES_FRDINDEX_VARINT_H
