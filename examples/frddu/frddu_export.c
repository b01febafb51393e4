// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frddu --export: ncdu's JSON export format 1.2 (https://dev.yorhel.nl/ncdu/jsonfmt), as
 * ncdu 1.18 writes it:
 *
 *   [1,2,{"progname":"frddu","progver":"X","timestamp":T},
 *   [{"name":"/abs/root","asize":4096,"dsize":4096,"dev":2049},
 *   {"name":"file","asize":3,"dsize":4096},
 *   [{"name":"dir","asize":4096,"dsize":4096}, ...its items...],
 *   {"name":"link","asize":7,"notreg":true},
 *   {"name":"x.o","excluded":"pattern"}]]
 *
 * A directory is an array of its own item then its children; zero sizes are left out, as
 * ncdu leaves them out; ino and nlink only for files with several links ("hlnkc"), which
 * ncdu counts once, as du does; dev on the root and where a directory changes device. Names
 * are the kernel's bytes: '"', '\' and control bytes escaped, any other byte as it is (ncdu
 * writes and reads names that are not UTF-8 that way).
 */
#define _POSIX_C_SOURCE 200809L

#include "frddu_export.h"

#include "grow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/** The stack of the JSON export's open directories (one per level). */
TOOL_RESERVE_DEFINE(node_stack_reserve, struct du_node *, 64)

void du_export_init(struct du_export *ex)
{
    memset(ex, 0, sizeof *ex);
    atomic_init(&ex->any_failed, false);
    pthread_mutex_init(&ex->failed_lock, NULL);
}

struct du_node *du_export_add(struct du_export *ex, struct du_node *parent, const char *name,
                              size_t name_len, unsigned flags)
{
    struct du_node *node = calloc(1, sizeof *node + name_len + 1);
    if (node == NULL) {
        return NULL;
    }
    memcpy(node->name, name, name_len);
    node->name_len = name_len;
    node->flags = flags;
    atomic_init(&node->children, NULL);
    atomic_init(&node->read_error, false);
    if (parent == NULL) {
        ex->root = node;
        return node;
    }
    // Push onto the parent's children: a lock-free stack (order does not matter to ncdu).
    struct du_node *head = atomic_load_explicit(&parent->children, memory_order_relaxed);
    do {
        node->next = head;
    } while (!atomic_compare_exchange_weak_explicit(&parent->children, &head, node,
                                                    memory_order_release, memory_order_relaxed));
    return node;
}

void du_export_note_failed(struct du_export *ex, const char *path)
{
    char *copy = strdup(path);
    pthread_mutex_lock(&ex->failed_lock);
    if (copy != NULL && tool_reserve_strs(&ex->failed, &ex->failed_cap, ex->nfailed + 1) == 0) {
        ex->failed[ex->nfailed++] = copy;
        copy = NULL;
        atomic_store(&ex->any_failed, true);
    }
    pthread_mutex_unlock(&ex->failed_lock);
    free(copy); // out of memory: the directory is just not marked
}

bool du_export_failed(struct du_export *ex, const char *path)
{
    if (!atomic_load_explicit(&ex->any_failed, memory_order_acquire)) {
        return false; // the common case, without the lock
    }
    bool found = false;
    pthread_mutex_lock(&ex->failed_lock);
    for (size_t i = 0; i < ex->nfailed && !found; i++) {
        found = strcmp(ex->failed[i], path) == 0;
    }
    pthread_mutex_unlock(&ex->failed_lock);
    return found;
}

static void write_name(FILE *f, const char *name, size_t len)
{
    fputs("{\"name\":\"", f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", c);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

static void write_info(FILE *f, const struct du_node *n)
{
    write_name(f, n->name, n->name_len);
    if (n->flags & (DU_NODE_OTHFS | DU_NODE_PATTERN)) {
        if (n->flags & DU_NODE_OTHFS) {
            fprintf(f, ",\"dev\":%" PRIu64 ",\"excluded\":\"othfs\"}", n->dev);
        } else {
            fputs(",\"excluded\":\"pattern\"}", f);
        }
        return;
    }
    if (n->asize != 0) {
        fprintf(f, ",\"asize\":%" PRIu64, n->asize);
    }
    if (n->dsize != 0) {
        fprintf(f, ",\"dsize\":%" PRIu64, n->dsize);
    }
    if (n->flags & DU_NODE_WRITE_DEV) {
        fprintf(f, ",\"dev\":%" PRIu64, n->dev);
    }
    if (n->flags & DU_NODE_HLNKC) {
        fprintf(f, ",\"ino\":%" PRIu64 ",\"hlnkc\":true,\"nlink\":%" PRIu32, n->ino, n->nlink);
    }
    if (atomic_load_explicit(&n->read_error, memory_order_relaxed)) {
        fputs(",\"read_error\":true", f);
    }
    if (n->flags & DU_NODE_NOTREG) {
        fputs(",\"notreg\":true", f);
    }
    fputc('}', f);
}

/**
 * Puts a directory's children in the order they were added (the walk is over): they were
 * pushed onto a stack, newest first. So with --sorted they come by name, as visited.
 * @return the first of them.
 */
static struct du_node *children_in_order(struct du_node *dir)
{
    struct du_node *prev = NULL;
    struct du_node *n = atomic_load_explicit(&dir->children, memory_order_acquire);
    while (n != NULL) {
        struct du_node *next = n->next;
        n->next = prev;
        prev = n;
        n = next;
    }
    atomic_store_explicit(&dir->children, prev, memory_order_relaxed);
    return prev;
}

/**
 * Writes a directory and everything below it, depth first, without recursion, each
 * directory's children in the order they were added.
 * @return 0, or -1 when out of memory.
 */
static int write_tree(FILE *f, struct du_node *root)
{
    // The stack holds the next sibling to write at each open directory level.
    size_t cap = 0, depth = 0;
    struct du_node **stack = NULL;
    if (node_stack_reserve(&stack, &cap, 1) < 0) {
        return -1;
    }
    fputc('[', f);
    write_info(f, root);
    stack[depth++] = children_in_order(root);
    while (depth > 0) {
        struct du_node *n = stack[depth - 1];
        if (n == NULL) {
            fputc(']', f); // this directory is done
            depth--;
            continue;
        }
        stack[depth - 1] = n->next;
        fputs(",\n", f);
        bool is_dir = (n->flags & DU_NODE_DIR) != 0;
        if (!is_dir) {
            write_info(f, n);
            continue;
        }
        fputc('[', f);
        write_info(f, n);
        if (node_stack_reserve(&stack, &cap, depth + 1) < 0) {
            free(stack);
            return -1;
        }
        stack[depth++] = children_in_order(n);
    }
    free(stack);
    return 0;
}

int du_export_write(const struct du_export *ex, const char *file, const char *progver)
{
    bool to_stdout = strcmp(file, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(file, "w");
    if (f == NULL) {
        return -1;
    }
    fprintf(f, "[1,2,{\"progname\":\"frddu\",\"progver\":\"%s\",\"timestamp\":%lld},\n", progver,
            (long long)time(NULL));
    int rc = 0;
    int saved = 0;
    if (ex->root != NULL && write_tree(f, ex->root) < 0) {
        rc = -1;
        saved = ENOMEM;
    }
    fputs("]\n", f);
    if (rc == 0 && (fflush(f) != 0 || ferror(f))) {
        rc = -1;
        saved = errno;
    }
    if (!to_stdout && fclose(f) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    errno = saved;
    return rc;
}

void du_export_free(struct du_export *ex)
{
    // Free depth first without recursion: splice each directory's children into the list.
    struct du_node *list = ex->root;
    while (list != NULL) {
        struct du_node *n = list;
        list = n->next;
        struct du_node *kids = atomic_load_explicit(&n->children, memory_order_relaxed);
        if (kids != NULL) {
            struct du_node *last = kids;
            while (last->next != NULL) {
                last = last->next;
            }
            last->next = list;
            list = kids;
        }
        free(n);
    }
    ex->root = NULL;
    for (size_t i = 0; i < ex->nfailed; i++) {
        free(ex->failed[i]);
    }
    free(ex->failed);
    ex->failed = NULL;
    ex->nfailed = ex->failed_cap = 0;
    pthread_mutex_destroy(&ex->failed_lock);
}
