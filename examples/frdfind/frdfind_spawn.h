// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** frdfind's commands started and waited for, and -ok's question (frdfind_spawn.c). */
#ifndef FRD_EXAMPLES_FRDFIND_SPAWN_H
#define FRD_EXAMPLES_FRDFIND_SPAWN_H

#include <stdbool.h>

struct ff_ctx;

/**
 * Runs argv (in dir_fd when it is not -1; -ok's, `ask`, with standard input closed) and
 * waits for it. A command that cannot be started gets find's message (and is false); one
 * killed by a signal, find's note. The caller holds the output lock.
 * @return the wait status, or -1 if it could not be started (reported).
 */
int ff_spawn_wait(struct ff_ctx *ctx, char **argv, int dir_fd, bool ask);

/** -ok's question on stderr ("< command ... path > ? "), the answer from stdin.
 *  @return whether it starts with y or Y. */
bool ff_spawn_ask(struct ff_ctx *ctx, const char *command, const char *path);

#endif // FRD_EXAMPLES_FRDFIND_SPAWN_H
