// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode's listings (walker/concurrent/list.c): an open directory read and its
 * entries visited, in the way the plan says (batches, the children hook, its parts).
 */
#ifndef FRD_WALKER_CONCURRENT_LIST_H
#define FRD_WALKER_CONCURRENT_LIST_H

#include "core/core.h"

/** Lists an open directory and handles its entries (concurrent mode). */
void frd__cc_list_and_visit(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                            size_t dir_len, enum frd__vol_class cls);

#endif // FRD_WALKER_CONCURRENT_LIST_H
