// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The walk core: what both modes build on. It sits on the scheduler (walker/sched/), whose
 * state it never touches, and knows nothing of the modes above it (walker/concurrent/,
 * walker/ordered/): their state is opaque to it, and it calls none of their functions.
 *
 * Top down, each file calling only those below it (its header in brackets):
 *
 *   root.c      a root in both modes: stat, open, visit, report        (root.h)
 *   release.c   a node's last release: the post-order hook, free       (release.h)
 *   worker.c    a worker's lister, lists and buffers                   (worker.h)
 *   resolve.c   an entry before its visit: links, loops, dedupe, descend? (resolve.h)
 *   open.c      opening and reopening with identity checks; the budget (open.h)
 *   report.c    errors, progress, the visit callback, directory states (report.h)
 *   children.c  the children hook, the survivors' late stat            (children.h)
 *   node.c      node allocation, paths, descriptor refcounts           (node.h)
 *   identity.c  identities, dedupe sets, volume classes, loop checks   (identity.h)
 *   table.c     the walker's one hash table                            (table.h)
 *   plan.c      the walk's plan: every flag its options decide         (plan.h)
 *   walk.h      struct frd_walk and struct frd__worker, the ways into the scheduler
 */
#ifndef FRD_WALKER_CORE_CORE_H
#define FRD_WALKER_CORE_CORE_H

#include "children.h"
#include "identity.h"
#include "links.h"
#include "node.h"
#include "open.h"
#include "plan.h"
#include "release.h"
#include "report.h"
#include "resolve.h"
#include "root.h"
#include "walk.h"
#include "worker.h"

#endif // FRD_WALKER_CORE_CORE_H
