// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Query-time access checks of indexed paths, cached per directory (see frdindex_access.h). */
#define _GNU_SOURCE // AT_EACCESS, memrchr

#include "frdindex_access.h"

#include "grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/** A directory checked: its path in the arena and the answer (for it and all above it). */
struct dir_record {
    uint64_t off;
    uint32_t len;
    uint32_t ok;
};

struct dir_key {
    const struct index_access *a;
    const char *path;
    size_t len;
};

static bool dir_eq(const void *record, const void *key)
{
    struct dir_record r;
    memcpy(&r, record, sizeof(r));
    const struct dir_key *k = key;
    return r.len == k->len && memcmp(k->a->arena + r.off, k->path, k->len) == 0;
}

void index_access_init(struct index_access *a)
{
    *a = (struct index_access){.everything = geteuid() == 0};
    tool_hash_init(&a->dirs, sizeof(struct dir_record));
}

void index_access_free(struct index_access *a)
{
    tool_hash_free(&a->dirs);
    free(a->arena);
    free(a->buf);
}

/** Whether the directory `path` (len bytes) and every one above it may be listed. */
static int dir_listable(struct index_access *a, const char *path, size_t len)
{
    if (len == 0) {
        return 1; // a relative path's start: the working directory, not ours to judge
    }
    struct dir_key key = {a, path, len};
    uint64_t hash = tool_hash_bytes(path, len);
    void *found = tool_hash_find(&a->dirs, hash, dir_eq, &key);
    if (found != NULL) {
        struct dir_record r;
        memcpy(&r, found, sizeof(r));
        return (int)r.ok;
    }
    // Its parent first: a name inside an unlistable directory is hidden below it too.
    int ok = 1;
    const char *slash = len > 1 ? memrchr(path, '/', len - 1) : NULL;
    if (slash != NULL) {
        size_t plen = slash == path ? 1 : (size_t)(slash - path); // "/" keeps its slash
        ok = dir_listable(a, path, plen);
        if (ok < 0) {
            return -1;
        }
    }
    if (ok == 1) {
        if (tool_reserve_chars(&a->buf, &a->buf_cap, len + 1) < 0) {
            return -1;
        }
        memcpy(a->buf, path, len);
        a->buf[len] = '\0';
        // A directory gone since the update, or another kind of file now (its removed
        // entries in `changes`), is judged by the directories above it, checked above.
        struct stat st;
        ok = faccessat(AT_FDCWD, a->buf, R_OK | X_OK, AT_EACCESS) == 0 || errno == ENOENT ||
             errno == ENOTDIR || (lstat(a->buf, &st) == 0 && !S_ISDIR(st.st_mode));
    }
    size_t off = a->arena_len;
    if (tool_reserve_chars(&a->arena, &a->arena_cap, off + len + 1) < 0) {
        return -1;
    }
    memcpy(a->arena + off, path, len);
    a->arena[off + len] = '\0';
    a->arena_len += len + 1;
    bool existed;
    void *slot = tool_hash_insert(&a->dirs, hash, NULL, NULL, &existed);
    if (slot == NULL) {
        return -1;
    }
    struct dir_record r = {.off = off, .len = (uint32_t)len, .ok = (uint32_t)ok};
    memcpy(slot, &r, sizeof(r));
    return ok;
}

int index_access_visible(struct index_access *a, const char *path, size_t len)
{
    if (a->everything) {
        return 1;
    }
    const char *slash = len > 1 ? memrchr(path, '/', len - 1) : NULL;
    if (slash == NULL) {
        return 1; // a root ("/") or a bare name
    }
    return dir_listable(a, path, slash == path ? 1 : (size_t)(slash - path));
}
