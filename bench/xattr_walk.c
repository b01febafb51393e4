// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/*
 * xattr_walk: walks a tree with every metadata field, and with FRD_WALK_XATTRS when asked,
 * keeping counts only (entries, attributes, value bytes), for bench/xattr_bench.sh.
 * Usage: xattr_walk [-x] [-j N] ROOT
 */
#include "frd.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct counts {
    atomic_ullong entries;
    atomic_ullong xattrs;
    atomic_ullong bytes;
    atomic_ullong too_long;
};

static enum frd_action visit(const struct frd_walk_entry *we, void *udata)
{
    struct counts *c = udata;
    atomic_fetch_add_explicit(&c->entries, 1, memory_order_relaxed);
    for (size_t i = 0; i < we->xattr_count; i++) {
        atomic_fetch_add_explicit(&c->xattrs, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->bytes, we->xattrs[i].value_len, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->too_long, we->xattrs[i].too_long, memory_order_relaxed);
    }
    return FRD_ACTION_CONTINUE;
}

int main(int argc, char **argv)
{
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.on_error = frd_walk_print_errors_and_continue;
    int i = 1;
    for (; i < argc - 1; i++) {
        if (strcmp(argv[i], "-x") == 0) {
            o.flags |= FRD_WALK_XATTRS;
        } else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc - 1) {
            o.workers = (unsigned)strtoul(argv[++i], NULL, 10);
        } else {
            break;
        }
    }
    if (i != argc - 1) {
        fprintf(stderr, "usage: xattr_walk [-x] [-j N] ROOT\n");
        return 2;
    }
    struct counts c = {0};
    int rc = frd_walk(argv[i], &o, visit, &c);
    printf("%llu entries, %llu xattrs, %llu value bytes, %llu too long\n",
           (unsigned long long)c.entries, (unsigned long long)c.xattrs, (unsigned long long)c.bytes,
           (unsigned long long)c.too_long);
    if (rc < 0) {
        fprintf(stderr, "xattr_walk: %s\n", frd_strerror(rc));
        return 1;
    }
    return 0;
}
