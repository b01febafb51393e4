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

/** chain_reserve(&chain, &cap, need): the chain of open directories (first 64). */
TOOL_RESERVE_DEFINE(chain_reserve, struct index_access_dir, 64)

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

void index_access_for_db(struct index_access *a, const char *db_path)
{
    // Its owner made it and may read every row of it anyway: hiding rows protects nothing.
    struct stat st;
    a->everything = geteuid() == 0 || (stat(db_path, &st) == 0 && st.st_uid == geteuid());
}

/** Closes the chain's directories deeper than `depth`. */
static void chain_pop_to(struct index_access *a, size_t depth)
{
    while (a->depth > depth) {
        close(a->chain[--a->depth].fd);
    }
}

void index_access_free(struct index_access *a)
{
    chain_pop_to(a, 0);
    free(a->chain);
    free(a->chain_path);
    tool_hash_free(&a->dirs);
    free(a->arena);
    free(a->buf);
}

/** Whether the chain's directory i is path[0..len) or above it. */
static bool chain_holds(const struct index_access *a, size_t i, const char *path, size_t len)
{
    size_t l = a->chain[i].len;
    return l <= len && memcmp(a->chain_path, path, l) == 0 &&
           (l == len || l == 1 || path[l] == '/');
}

/** Appends fd, the directory path[0..len), to the chain. @return 0 or -1 (fd closed). */
static int chain_push(struct index_access *a, int fd, const char *path, size_t len)
{
    if (chain_reserve(&a->chain, &a->chain_cap, a->depth + 1) < 0 ||
        tool_reserve_chars(&a->chain_path, &a->chain_path_cap, len + 1) < 0) {
        close(fd);
        return -1;
    }
    memcpy(a->chain_path, path, len);
    a->chain_path[len] = '\0';
    a->chain[a->depth++] = (struct index_access_dir){.fd = fd, .len = len};
    return 0;
}

/**
 * Opens the n-byte name below directory fd: a directory, not a link, that this user may
 * read. @return the descriptor, -1 if it cannot be opened (or is no name: "", ".", ".."),
 * -2 when out of memory.
 */
static int open_below(struct index_access *a, int fd, const char *name, size_t n)
{
    if (n == 0 || (n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.') ||
        memchr(name, '\0', n) != NULL) {
        return -1;
    }
    if (tool_reserve_chars(&a->buf, &a->buf_cap, n + 1) < 0) {
        return -2;
    }
    memcpy(a->buf, name, n);
    a->buf[n] = '\0';
    return openat(fd, a->buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
}

/**
 * Makes the chain end at the directory path[0..len): keeps the part of it above, opens each
 * directory below that, one below the other. @return 1, 0 if one cannot be opened now, -1
 * when out of memory.
 */
static int chain_to(struct index_access *a, const char *path, size_t len)
{
    size_t keep = 0;
    while (keep < a->depth && chain_holds(a, keep, path, len)) {
        keep++;
    }
    chain_pop_to(a, keep);
    if (a->depth == 0) {
        int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            return 0;
        }
        if (chain_push(a, fd, "/", 1) < 0) {
            return -1;
        }
    }
    while (a->chain[a->depth - 1].len < len) {
        size_t top = a->chain[a->depth - 1].len;
        size_t start = top == 1 ? 1 : top + 1; // after "/", or after "/a" and its slash
        size_t end = start;
        while (end < len && path[end] != '/') {
            end++;
        }
        int fd = open_below(a, a->chain[a->depth - 1].fd, path + start, end - start);
        if (fd < 0) {
            return fd == -2 ? -1 : 0;
        }
        if (chain_push(a, fd, path, end) < 0) {
            return -1;
        }
    }
    return 1;
}

/** Whether the directory `path` (len bytes) and every one above it may be listed. */
static int dir_listable(struct index_access *a, const char *path, size_t len)
{
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
    if (len > 1) {
        const char *slash = memrchr(path, '/', len);
        size_t plen = slash == path ? 1 : (size_t)(slash - path); // "/" keeps its slash
        ok = dir_listable(a, path, plen);
    }
    if (ok == 1) {
        // Fails closed: gone, not a directory, a link now, unreadable: hidden.
        ok = chain_to(a, path, len);
        if (ok == 1 && faccessat(a->chain[a->depth - 1].fd, ".", R_OK | X_OK, AT_EACCESS) != 0) {
            ok = 0;
            chain_pop_to(a, a->depth - 1);
        }
    }
    if (ok < 0) {
        return -1;
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
    if (len == 0 || path[0] != '/') {
        return 0; // frdindex stores absolute paths only: not one of its rows
    }
    const char *slash = len > 1 ? memrchr(path, '/', len - 1) : NULL;
    if (slash == NULL) {
        return 1; // "/" itself
    }
    return dir_listable(a, path, slash == path ? 1 : (size_t)(slash - path));
}
