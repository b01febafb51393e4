// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/** frdmpi du's records on the wire: packing them, and reading another rank's with checks. */
#include "frdmpi_du_wire.h"

#include "grow.h"

#include <stdbool.h>
#include <string.h>

/** @return whether path[0, len) is `root` itself (when `or_root`) or a path below it. */
static bool du_wire_below(const char *path, size_t len, const char *root, size_t root_len,
                          bool or_root)
{
    if (len < root_len || memcmp(path, root, root_len) != 0) {
        return false;
    }
    if (len == root_len) {
        return or_root;
    }
    return (root_len > 0 && root[root_len - 1] == '/') || path[root_len] == '/';
}

int du_wire_put(char **buf, size_t *len, size_t *cap, const struct du_wire_rec *rec)
{
    if (rec->len > UINT32_MAX || rec->len > SIZE_MAX - DU_WIRE_HEADER - *len ||
        tool_reserve_chars(buf, cap, *len + DU_WIRE_HEADER + rec->len) != 0) {
        return -1;
    }
    char *p = *buf + *len;
    uint32_t plen = (uint32_t)rec->len;
    memcpy(p, &rec->bytes, 8);
    memcpy(p + 8, &rec->dev, 8);
    memcpy(p + 16, &rec->ino, 8);
    memcpy(p + 24, &plen, 4);
    if (rec->len > 0) {
        memcpy(p + DU_WIRE_HEADER, rec->path, rec->len);
    }
    *len += DU_WIRE_HEADER + rec->len;
    return 0;
}

int du_wire_next(const char *buf, size_t len, size_t *off, const char *root, size_t root_len,
                 struct du_wire_rec *rec)
{
    if (*off >= len) {
        return 0;
    }
    size_t left = len - *off;
    if (left < DU_WIRE_HEADER) {
        return -1; // a truncated record
    }
    const char *p = buf + *off;
    struct du_wire_rec r;
    uint32_t plen;
    memcpy(&r.bytes, p, 8);
    memcpy(&r.dev, p + 8, 8);
    memcpy(&r.ino, p + 16, 8);
    memcpy(&plen, p + 24, 4);
    if (plen > left - DU_WIRE_HEADER) {
        return -1; // a path running past the end
    }
    r.path = p + DU_WIRE_HEADER;
    r.len = plen;
    if (memchr(r.path, '\0', r.len) != NULL) {
        return -1;
    }
    // A line: the root's total (no path) or a directory's below it; a file: any entry.
    bool line = du_wire_is_line(&r);
    if (line ? r.len > 0 && !du_wire_below(r.path, r.len, root, root_len, false)
             : !du_wire_below(r.path, r.len, root, root_len, true)) {
        return -1;
    }
    *rec = r;
    *off += DU_WIRE_HEADER + r.len;
    return 1;
}
