// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frddu --export FILE: the walked tree in ncdu's JSON export format (version 1.2, as ncdu
 * 1.18 writes it with -o), so `ncdu -f FILE` browses a tree frddu walked in parallel.
 */
#ifndef FRD_EXAMPLES_FRDDU_EXPORT_H
#define FRD_EXAMPLES_FRDDU_EXPORT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What ncdu marks an item with. */
enum du_node_flag {
    DU_NODE_DIR = 1u << 0,       /**< a directory: written as [ {info}, children... ] */
    DU_NODE_NOTREG = 1u << 1,    /**< neither a regular file nor a directory */
    DU_NODE_HLNKC = 1u << 2,     /**< a file with several links: ino and nlink written */
    DU_NODE_OTHFS = 1u << 3,     /**< on another file system, not entered (-x) */
    DU_NODE_PATTERN = 1u << 4,   /**< excluded by --exclude or -X */
    DU_NODE_WRITE_DEV = 1u << 5, /**< write dev: the root, or a directory on another device */
};

/** One item of the tree. Children are pushed by any worker, lock-free. */
struct du_node {
    struct du_node *next;               /**< the next sibling */
    _Atomic(struct du_node *) children; /**< directories: the first child */
    uint64_t asize, dsize, dev, ino;
    uint32_t nlink;
    unsigned flags;         /**< enum du_node_flag bits */
    atomic_bool read_error; /**< the directory (or some entry in it) could not be read */
    size_t name_len;
    char name[]; /**< the name, or for the root its absolute path */
};

/** The tree being built, and the directories that failed to open or read. */
struct du_export {
    struct du_node *root;
    pthread_mutex_t failed_lock;
    char **failed; /**< paths of the directories whose listing failed */
    size_t nfailed, failed_cap;
    atomic_bool any_failed; /**< nfailed > 0, read without the lock */
};

/** Sets up an empty export. */
void du_export_init(struct du_export *ex);

/**
 * Makes an item and, unless `parent` is NULL (the root), adds it to parent's children.
 * Thread-safe. @return the item, or NULL when out of memory.
 */
struct du_node *du_export_add(struct du_export *ex, struct du_node *parent, const char *name,
                              size_t name_len, unsigned flags);

/** Notes that the listing of the directory at `path` failed (from the error hook). */
void du_export_note_failed(struct du_export *ex, const char *path);

/** @return whether the listing of `path` failed (a directory's post-order visit asks). */
bool du_export_failed(struct du_export *ex, const char *path);

/**
 * Writes the tree to `file` ("-" for standard output) in ncdu's JSON format.
 * @return 0, or -1 with errno set when the file could not be written.
 */
int du_export_write(const struct du_export *ex, const char *file, const char *progver);

/** Frees the tree. */
void du_export_free(struct du_export *ex);

#endif // FRD_EXAMPLES_FRDDU_EXPORT_H
