// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors
/** The directories a rank holds to walk or hand over, and their wire form (WORK messages). */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#define MQ_HEADER (8 + 8 + 8 + 4 + 4 + 4)

static int mq_reserve(struct mq *q, size_t more)
{
    if (q->len + more <= q->cap) {
        return 0;
    }
    size_t cap = q->cap ? q->cap * 2 : 64;
    while (cap < q->len + more) {
        cap *= 2;
    }
    struct mq_item *items = realloc(q->items, cap * sizeof(*items));
    if (items == NULL) {
        return -1;
    }
    q->items = items;
    q->cap = cap;
    return 0;
}

int mq_push(struct mq *q, const char *path, size_t path_len, uint64_t dev, uint64_t ino,
            uint64_t root_dev, uint32_t depth, bool check)
{
    if (mq_reserve(q, 1) != 0) {
        return -1;
    }
    char *copy = malloc(path_len + 1);
    if (copy == NULL) {
        return -1;
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
        return -1;
    }
    memcpy(to->items + to->len, from->items, from->len * sizeof(*from->items));
    to->len += from->len;
    from->len = 0;
    return 0;
}

void mq_drop_tail(struct mq *q, size_t n)
{
    for (size_t i = q->len - n; i < q->len; i++) {
        free(q->items[i].path);
    }
    q->len -= n;
}

void mq_drop_head(struct mq *q, size_t n)
{
    if (n == 0) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        free(q->items[i].path);
    }
    memmove(q->items, q->items + n, (q->len - n) * sizeof(*q->items));
    q->len -= n;
}

void mq_free(struct mq *q)
{
    mq_drop_tail(q, q->len);
    free(q->items);
    *q = (struct mq){0};
}

char *mq_pack(const struct mq *q, size_t first, size_t n, size_t *len)
{
    size_t total = 0;
    for (size_t i = first; i < first + n; i++) {
        total += MQ_HEADER + strlen(q->items[i].path);
    }
    char *buf = malloc(total ? total : 1);
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
        memcpy(p + MQ_HEADER, it->path, plen);
        p += MQ_HEADER + plen;
    }
    *len = total;
    return buf;
}

int mq_unpack(struct mq *q, const char *buf, size_t len)
{
    size_t off = 0;
    while (off < len) {
        if (len - off < MQ_HEADER) {
            return -1;
        }
        uint64_t dev, ino, root_dev;
        uint32_t depth, check, plen;
        memcpy(&dev, buf + off, 8);
        memcpy(&ino, buf + off + 8, 8);
        memcpy(&root_dev, buf + off + 16, 8);
        memcpy(&depth, buf + off + 24, 4);
        memcpy(&check, buf + off + 28, 4);
        memcpy(&plen, buf + off + 32, 4);
        off += MQ_HEADER;
        if (len - off < plen) {
            return -1;
        }
        if (mq_push(q, buf + off, plen, dev, ino, root_dev, depth, check != 0) != 0) {
            return -1;
        }
        off += plen;
    }
    return 0;
}
