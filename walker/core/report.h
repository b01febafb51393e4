// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * What the walk tells the caller (walker/core/report.c): errors (through the hook, or into
 * the walk's result for a root), progress reports, the visit callback (or frd_read_tree()'s
 * copy), and the release of the caller's per-directory states.
 */
#ifndef FRD_WALKER_CORE_REPORT_H
#define FRD_WALKER_CORE_REPORT_H

#include "walk.h"

/** Reports an error through the hook. @return false if the walk must stop. */
bool frd__report(struct frd__worker *w, const char *path, struct frd__failure op, int code,
                 unsigned depth);
/**
 * Reports an error of a root (it could not be stat'ed or opened): to the hook if there is
 * one, else into the walk's result (never both). @return false if the walk must stop.
 */
bool frd__report_root(struct frd__worker *w, const char *path, struct frd__failure op, int code);
/** Like frd__report(), for a loop: `other` is the path of the ancestor it repeats. */
bool frd__report_loop(struct frd__worker *w, const char *path, struct frd__failure op, int code,
                      unsigned depth, const char *other);
/** Progress report if due. */
void frd__progress_tick(struct frd__worker *w);
/** Counts an entry and calls the visit callback. @return its action. */
enum frd_action frd__visit(struct frd__worker *w, const struct frd_walk_entry *we);
/** Whether frd__visit() of an entry at `depth` is its callback alone: nothing added to it
 *  (FRD_WALK_LINK_TARGETS, _XATTRS, _LINK_GROUPS), at or past min_depth, not collected. The
 *  same for every entry of a listing: asked once for it. */
bool frd__visit_plain_ok(const struct frd_walk *walk, unsigned depth);
/** frd__visit() of an entry where frd__visit_plain_ok() holds, with no size (listed with its
 *  type alone), inside a run of callbacks held with frd__cb_hold(): counts it and calls the
 *  visit callback. @return its action. */
enum frd_action frd__visit_plain(struct frd__worker *w, const struct frd_walk_entry *we);
/** Counts the names hook's entries as visited and calls it (opts.on_names), inside a run of
 *  callbacks held with frd__cb_hold(). @return its action. */
enum frd_action frd__visit_names(struct frd__worker *w, const struct frd_walk_names *names);
/** frd__visit() of a walk that adds to entries (FRD_WALK_LINK_TARGETS, FRD_WALK_XATTRS,
 *  FRD_WALK_LINK_GROUPS): its own function, so that the plain visit keeps a small frame. */
enum frd_action frd__visit_added(struct frd__worker *w, const struct frd_walk_entry *we);
/** Releases a directory state the caller stored (opts.on_dir_state_free), if any. */
void frd__state_free(struct frd_walk *walk, void *state);

#endif // FRD_WALKER_CORE_REPORT_H
