// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The directories a du walk is totalling, found by path from any worker thread. */
#ifndef FRD_EXAMPLES_FRDDU_TREE_H
#define FRD_EXAMPLES_FRDDU_TREE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * One directory whose total is still growing. It exists from the visit of the directory
 * (pre-order) until its post-order visit, when its total is final and moves to its parent.
 */
struct du_dir {
    struct du_dir *parent;       /**< the directory holding it; NULL for a root */
    atomic_uint_least64_t bytes; /**< its own size plus everything counted below it so far */
    /** 1 until its post-order visit, plus 1 per unfinished subdirectory: at 0 it is done. */
    atomic_uint pending;
    atomic_bool listed; /**< its post-order visit happened */
    bool leftover;      /**< taken out by du_tree_take_all(): freed by that caller */
    unsigned depth;     /**< 0 for a root */
    uint64_t hash;      /**< hash of key */
    size_t key_len;     /**< bytes in key */
    char key[];         /**< the directory's path as the walker spells it, NUL-terminated */
};

/** The table of growing directories. Opaque. */
struct du_tree;

/** Makes an empty table. @return it, or NULL when out of memory. */
struct du_tree *du_tree_new(void);

/** Frees the table and every directory still in it. NULL is allowed. */
void du_tree_free(struct du_tree *tree);

/**
 * Adds a directory. Thread-safe.
 * @return the new directory, or NULL when out of memory.
 */
struct du_dir *du_tree_add(struct du_tree *tree, const char *key, size_t key_len,
                           struct du_dir *parent, unsigned depth, uint64_t own_bytes);

/** Finds a directory by path. Thread-safe. @return it, or NULL if it is not in the table. */
struct du_dir *du_tree_find(struct du_tree *tree, const char *key, size_t key_len);

/** Takes a directory out of the table (its post-order visit); free it with free(). */
void du_tree_remove(struct du_tree *tree, struct du_dir *dir);

/**
 * Takes every directory left in the table out of it (directories the walker never finished,
 * such as unreadable ones), deepest first, so their totals can still be moved up in order.
 * Not thread-safe: call it after the walk.
 * @param out receives a malloc'd array (free it, and each directory, with free()).
 * @return the number of directories, or -1 when out of memory.
 */
long du_tree_take_all(struct du_tree *tree, struct du_dir ***out);

#endif // FRD_EXAMPLES_FRDDU_TREE_H
