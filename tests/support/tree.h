// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Test support: builds temporary directory trees and removes them. Aborts on failure. */
#ifndef FRD_TESTS_SUPPORT_TREE_H
#define FRD_TESTS_SUPPORT_TREE_H

#include <stddef.h>

/** Makes a fresh empty directory under $TMPDIR (or /tmp). Free with tree_remove(). */
char *tree_make_root(void);
/** Joins root and rel with a '/'. The caller frees the result. */
char *tree_path(const char *root, const char *rel);
/** Creates a regular file of `size` bytes (written, not sparse). */
void tree_file(const char *root, const char *rel, size_t size);
/** Creates a directory. */
void tree_dir(const char *root, const char *rel);
/** Creates a symlink at rel pointing to target (target is used as given). */
void tree_symlink(const char *root, const char *target, const char *rel);
/** Creates a named pipe. */
void tree_fifo(const char *root, const char *rel);
/** Creates a Unix socket file (bound, then closed). */
void tree_socket(const char *root, const char *rel);
/** Gives a file the attribute that hides it where the OS has one (Windows'
 *  FILE_ATTRIBUTE_HIDDEN); elsewhere it does nothing (hidden there means a leading dot). */
void tree_hide(const char *root, const char *rel);
/** Removes a tree made by tree_make_root() and frees the root string. */
void tree_remove(char *root);

#endif // FRD_TESTS_SUPPORT_TREE_H
