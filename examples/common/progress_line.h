// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A live one-line progress report on a terminal (entries, bytes, rate, current directory). */
#ifndef FRD_EXAMPLES_PROGRESS_LINE_H
#define FRD_EXAMPLES_PROGRESS_LINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Room kept for the current directory's path. */
#define PROGRESS_LINE_PATH_MAX 4096

/**
 * The state of the line. Draw, hide and clear are serialised by `lock`; the current
 * directory has its own lock, taken with trylock by the walk's workers so they never wait.
 */
struct progress_line {
    pthread_mutex_t lock;
    pthread_mutex_t current_lock;
    int fd;       /**< where the line goes (stderr) */
    bool enabled; /**< fd is a terminal: otherwise every call does nothing */
    bool shown;   /**< a line is on the screen now */
    double start; /**< monotonic seconds at init */
    double delay; /**< seconds before the first line */
    size_t current_len;
    char current[PROGRESS_LINE_PATH_MAX];
};

/**
 * Sets up the line on `fd`, enabled only if fd is a terminal.
 * @param delay_s seconds that must pass before the first line is drawn, so quick runs
 *        print nothing.
 */
void progress_line_init(struct progress_line *p, int fd, double delay_s);

/** Releases the locks. Call after progress_line_clear(). */
void progress_line_destroy(struct progress_line *p);

/** @return whether the line is drawn at all (fd is a terminal). */
bool progress_line_enabled(const struct progress_line *p);

/**
 * Notes the directory being read now. Thread-safe and never blocks: if another thread holds
 * the slot, the call is skipped (the next one will do).
 */
void progress_line_set_current(struct progress_line *p, const char *path, size_t len);

/**
 * Redraws the line: "N entries, SIZE, RATE/s, DIR", cut to the terminal's width. Does
 * nothing before the delay has passed. Thread-safe.
 */
void progress_line_draw(struct progress_line *p, uint64_t entries, uint64_t bytes);

/** Erases the line if one is shown (say before output goes to the same terminal). */
void progress_line_clear(struct progress_line *p);

#endif // FRD_EXAMPLES_PROGRESS_LINE_H
