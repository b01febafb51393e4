// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The ordered mode's listing side (walker/ordered/list.c): the workers (and the consumer
 * while it waits) take the first listing task allowed, list and resolve the directory,
 * and publish the result on its node.
 */
#ifndef FRD_WALKER_ORDERED_LIST_H
#define FRD_WALKER_ORDERED_LIST_H

#include "core/core.h"

struct frd__ordered;

/**
 * Takes the next listing task allowed now and does it: called with mu held, returns with it
 * held (dropped while listing). Used by the workers and by the consumer while it waits.
 * @return true if it did something (listed a directory or dropped a pruned one), false if
 * there is nothing it may take now.
 */
bool frd__o_work_one(struct frd__worker *w, struct frd__ordered *o);

#endif // FRD_WALKER_ORDERED_LIST_H
