// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/** The directories a rank holds to walk or hand over, and their wire form (WORK messages). */
#include "queue.h"

#include "internal.h"

#include <string.h>

/** Makes room for `more` items. @return 0, or FRD_ENOMEM (q unchanged). */
static int mq_reserve(struct mq *q, size_t more)
{
    return FRD__RESERVE(q->items, q->cap, q->len + more, 64) < 0 ? FRD_ENOMEM : 0;
}

int mq_push(struct mq *q, const char *path, size_t path_len, uint64_t dev, uint64_t ino,
            uint64_t root_dev, uint32_t depth, bool check)
{
    if (mq_reserve(q, 1) != 0) {
        return FRD_ENOMEM;
    }
    char *copy = frd__malloc(path_len + 1);
    if (copy == NULL) {
        return FRD_ENOMEM;
    }
    memcpy(copy, path, path_len);
    copy[path_len] = '\0';
    q->items[q->len++] = (struct mq_item){copy, dev, ino, root_dev, depth, check ? 1u : 0u};
    return 0;
}

int mq_move_all(struct mq *to, struct mq *from)
{
    if (from->len == 0) {
        return 0; // (from->items may be NULL: memcpy must not see it)
    }
    if (mq_reserve(to, from->len) != 0) {
        return FRD_ENOMEM;
    }
    memcpy(to->items + to->len, from->items, from->len * sizeof(*from->items));
    to->len += from->len;
    from->len = 0;
    return 0;
}

void mq_drop_tail(struct mq *q, size_t n)
{
    for (size_t i = q->len - n; i < q->len; i++) {
        frd__free(q->items[i].path);
    }
    q->len -= n;
}

void mq_drop_head(struct mq *q, size_t n)
{
    if (n == 0) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        frd__free(q->items[i].path);
    }
    memmove(q->items, q->items + n, (q->len - n) * sizeof(*q->items));
    q->len -= n;
}

void mq_free(struct mq *q)
{
    mq_drop_tail(q, q->len);
    frd__free(q->items);
    *q = (struct mq){0};
}

char *mq_pack(const struct mq *q, size_t first, size_t n, size_t *len)
{
    size_t total = 0;
    for (size_t i = first; i < first + n; i++) {
        total += MQ_WIRE_HEADER + strlen(q->items[i].path);
    }
    char *buf = frd__malloc(total);
    if (buf == NULL) {
        return NULL;
    }
    char *p = buf;
    for (size_t i = first; i < first + n; i++) {
        const struct mq_item *it = &q->items[i];
        uint32_t plen = (uint32_t)strlen(it->path);
        memcpy(p, &it->dev, 8);
        memcpy(p + 8, &it->ino, 8);
        memcpy(p + 16, &it->root_dev, 8);
        memcpy(p + 24, &it->depth, 4);
        memcpy(p + 28, &it->check, 4);
        memcpy(p + 32, &plen, 4);
        memcpy(p + MQ_WIRE_HEADER, it->path, plen);
        p += MQ_WIRE_HEADER + plen;
    }
    *len = total;
    return buf;
}

/** Checks one item's fields against the rules of mq_unpack(). @return 0 or FRD_EMALFORMED. */
static int mq_item_valid(const char *path, uint32_t plen, uint32_t depth, uint32_t check,
                         const char *root, size_t root_len)
{
    // Below the root: the root's bytes, then a '/' (the root's own last byte, or the next).
    if (plen <= root_len || memcmp(path, root, root_len) != 0 ||
        !((root_len > 0 && root[root_len - 1] == '/') || path[root_len] == '/') ||
        memchr(path, '\0', plen) != NULL) {
        return FRD_EMALFORMED;
    }
    if (depth == 0 || depth > plen - root_len || check > 1) {
        return FRD_EMALFORMED;
    }
    return 0;
}

int mq_unpack(struct mq *q, const char *buf, size_t len, const char *root, size_t root_len)
{
    size_t start = q->len, off = 0;
    int rc = len > 0 ? 0 : FRD_EMALFORMED; // a WORK message carries at least one directory
    while (rc == 0 && off < len) {
        if (len - off < MQ_WIRE_HEADER) {
            rc = FRD_EMALFORMED; // a truncated item
            break;
        }
        uint64_t dev, ino, root_dev;
        uint32_t depth, check, plen;
        memcpy(&dev, buf + off, 8);
        memcpy(&ino, buf + off + 8, 8);
        memcpy(&root_dev, buf + off + 16, 8);
        memcpy(&depth, buf + off + 24, 4);
        memcpy(&check, buf + off + 28, 4);
        memcpy(&plen, buf + off + 32, 4);
        off += MQ_WIRE_HEADER;
        const char *path = buf + off;
        if (plen > len - off) {
            rc = FRD_EMALFORMED; // a path running past the end
            break;
        }
        rc = mq_item_valid(path, plen, depth, check, root, root_len);
        if (rc == 0) {
            rc = mq_push(q, path, plen, dev, ino, root_dev, depth, check != 0);
        }
        off += plen;
    }
    if (rc != 0) {
        mq_drop_tail(q, q->len - start);
    }
    return rc;
}
