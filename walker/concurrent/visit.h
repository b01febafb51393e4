// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * The concurrent mode's visits (walker/concurrent/visit.c): the entries of a listing, on the
 * worker that holds it.
 */
#ifndef FRD_WALKER_CONCURRENT_VISIT_H
#define FRD_WALKER_CONCURRENT_VISIT_H

#include "core/core.h"

/**
 * Visits `count` entries of a listing of `node` (open as `fd`; its path in w->path, length
 * dir_len): the listing's own entries `v`, or with the children hook the survivors in its
 * view `kids` (the worker's or a batch's; NULL without the hook); with `late_stat`, entries
 * listed by name and type are stat'ed first.
 * Adds their sizes to *bytes. @return false when the walk stops.
 */
bool frd__cc_visit_entries(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                           size_t dir_len, enum frd__vol_class cls, const struct frd_entry *v,
                           size_t count, const struct frd_walk_children *kids, bool late_stat,
                           uint64_t *bytes);
/**
 * Visits the entries of a names-only listing's buffer in place, as frd__cc_visit_entries()
 * visits a list's: each straight from its kernel record (frd__plat_names_next(), `cur`), with
 * no list between. Adds the entries met to *count.
 * @return 1, 0 when the walk stops, or a malformed record's code (op set; the entries
 * before it were visited).
 */
int frd__cc_visit_in_place(struct frd__worker *w, struct frd__wnode *node, frd_os_fd fd,
                           size_t dir_len, enum frd__vol_class cls, struct frd__names_cursor *cur,
                           uint64_t *count, struct frd__failure *op);
/**
 * Lets go of the ref on the parent's descriptor a directory was opened through, which it
 * held for its children hook (hook_pins_parent): before any child of it exists.
 */
void frd__cc_parent_fd_let_go(struct frd_walk *walk, struct frd__wnode *node);

#endif // FRD_WALKER_CONCURRENT_VISIT_H
