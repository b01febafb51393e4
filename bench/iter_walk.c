// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/*
 * iter_walk: walks a tree with callbacks (frd_walk()) or with the pull iterator
 * (frd_walk_iter_*()), doing the same small work per entry (counting entries, path bytes
 * and sizes), for bench/iter_bench.sh.
 * Usage: iter_walk [-i] [-n] [-o] [-j N] ROOT   (-i iterator, -n names only, -o ordered)
 */
#include "frd.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Sums of one worker (callbacks) or of the consumer (iterator), on a line of its own. */
struct sums {
    uint64_t entries, path_bytes, size;
    char pad[64 - 3 * sizeof(uint64_t)];
};

static void add(struct sums *s, size_t path_len, uint64_t size)
{
    s->entries++;
    s->path_bytes += path_len;
    s->size += size;
}

static enum frd_action visit(const struct frd_walk_entry *we, void *udata)
{
    struct sums *per_worker = udata;
    add(&per_worker[we->worker], we->path_len, we->entry->size);
    return FRD_ACTION_CONTINUE;
}

int main(int argc, char **argv)
{
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.on_error = frd_walk_continue_on_errors;
    bool iter = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-i") == 0) {
            iter = true;
        } else if (strcmp(argv[i], "-n") == 0) {
            o.flags |= FRD_WALK_NAMES_ONLY;
        } else if (strcmp(argv[i], "-o") == 0) {
            o.flags |= FRD_WALK_ORDERED;
        } else if (strcmp(argv[i], "-j") == 0 && i + 1 < argc) {
            o.workers = (unsigned)strtoul(argv[++i], NULL, 10);
        } else {
            break;
        }
    }
    if (i + 1 != argc) {
        fprintf(stderr, "usage: iter_walk [-i] [-n] [-o] [-j N] ROOT\n");
        return 2;
    }
    const char *root = argv[i];
    struct sums *s = calloc(FRD_WALK_MAX_WORKERS, sizeof(*s));
    if (s == NULL) {
        return 1;
    }
    int rc;
    if (!iter) {
        rc = frd_walk(root, &o, visit, s);
    } else {
        struct frd_walk_iter *it;
        rc = frd_walk_iter_open(&it, &root, 1, &o, NULL);
        if (rc == 0) {
            struct frd_walk_iter_batch b;
            while ((rc = frd_walk_iter_next(it, &b)) == 1) {
                for (size_t k = 0; k < b.count; k++) {
                    const struct frd_walk_iter_record *r = &b.records[k];
                    if (r->kind == FRD_WALK_ITER_ENTRY) {
                        // (no entry in a walk of names and types: no sizes either)
                        add(&s[0], r->path_len, r->entry != NULL ? r->entry->size : 0);
                    }
                }
            }
            frd_walk_iter_close(it);
        }
    }
    struct sums t = {0};
    for (unsigned w = 0; w < FRD_WALK_MAX_WORKERS; w++) {
        t.entries += s[w].entries;
        t.path_bytes += s[w].path_bytes;
        t.size += s[w].size;
    }
    printf("%llu entries, %llu path bytes, %llu bytes\n", (unsigned long long)t.entries,
           (unsigned long long)t.path_bytes, (unsigned long long)t.size);
    free(s);
    return rc < 0 ? 1 : 0;
}
