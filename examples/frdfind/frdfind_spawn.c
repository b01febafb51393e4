// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's commands (-exec and its kin) started and waited for: posix_spawnp() (a
 * vfork-like clone: no copy of frdfind's memory, which fork() would make for every
 * command), or fork() for -execdir where the C library cannot change a spawned child's
 * directory; signals unblocked in the child; -ok's standard input closed, as find 4.9's.
 * And -ok's question, with its answer read from standard input.
 */
#define _GNU_SOURCE // environ, posix_spawn_file_actions_addfchdir_np

#include "frdfind_spawn.h"

#include "frdfind_msg.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/** posix_spawn_file_actions_addfchdir_np() is there (glibc 2.29+): set by CMake. */
#ifndef FRDFIND_HAVE_ADDFCHDIR
#    define FRDFIND_HAVE_ADDFCHDIR 0
#endif

/**
 * Starts argv with posix_spawnp() (a vfork-like clone: no copy of frdfind's memory, which
 * fork() would make for every command), in dir_fd when it is not -1.
 * @return the child's pid, or -1 after find's message when it could not be started.
 */
static pid_t start_spawn(struct ff_ctx *ctx, char **argv, int dir_fd, bool ask)
{
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&actions) != 0) {
        ff_error(ctx, "out of memory");
        return -1;
    }
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        ff_error(ctx, "out of memory");
        return -1;
    }
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
#if FRDFIND_HAVE_ADDFCHDIR
    if (dir_fd >= 0) {
        posix_spawn_file_actions_addfchdir_np(&actions, dir_fd);
    }
#endif
    if (ask) {
        // find 4.9 runs -ok's command with standard input closed (its manual says
        // /dev/null): the command does not read the answers.
        posix_spawn_file_actions_addclose(&actions, STDIN_FILENO);
    }
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        // find's words, "find: 'cmd': No such file or directory"; the command is false.
        ff_note_path(ctx, argv[0], strerror(rc));
        return -1;
    }
    return pid;
}

/** fork() and exec, for -execdir where posix_spawn cannot change directory. */
static pid_t start_fork(struct ff_ctx *ctx, char **argv, int dir_fd, bool ask)
{
    pid_t pid = fork();
    if (pid < 0) {
        ff_error_path(ctx, argv[0], strerror(errno));
        return -1;
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (dir_fd >= 0 && fchdir(dir_fd) != 0) {
            _exit(1);
        }
        if (ask) {
            close(STDIN_FILENO); // as find 4.9 (see start_spawn())
        }
        execvp(argv[0], argv);
        ff_error_path(ctx, argv[0], strerror(errno));
        _exit(1);
    }
    return pid;
}

int ff_spawn_wait(struct ff_ctx *ctx, char **argv, int dir_fd, bool ask)
{
    bool spawn = dir_fd < 0 || FRDFIND_HAVE_ADDFCHDIR;
    pid_t pid = spawn ? start_spawn(ctx, argv, dir_fd, ask) : start_fork(ctx, argv, dir_fd, ask);
    if (pid < 0) {
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            ff_error_path(ctx, argv[0], strerror(errno));
            return -1;
        }
    }
    if (WIFSIGNALED(status)) {
        char text[64];
        snprintf(text, sizeof(text), " terminated by signal %d", WTERMSIG(status));
        char *msg = ff_quoted_in("", argv[0], text);
        if (msg != NULL) {
            ff_note(ctx, msg); // find's words; the exit status stays as it was
            free(msg);
        }
    }
    return status;
}

bool ff_spawn_ask(struct ff_ctx *ctx, const char *command, const char *path)
{
    size_t a = strlen(command);
    size_t p = strlen(path);
    char *q = malloc(a + p + 16);
    if (q == NULL) {
        return false;
    }
    int n = snprintf(q, a + p + 16, "< %s ... %s > ? ", command, path);
    ff_write_stderr(ctx, q, (size_t)n);
    free(q);
    char first = 0;
    bool any = false;
    for (;;) {
        char c;
        ssize_t got = read(STDIN_FILENO, &c, 1);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0 || c == '\n') {
            break;
        }
        if (!any) {
            first = c;
            any = true;
        }
    }
    return first == 'y' || first == 'Y';
}
