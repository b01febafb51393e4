// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** A live one-line progress report on a terminal (entries, bytes, rate, current directory). */
#define _POSIX_C_SOURCE 200809L

#include "progress_line.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* "\r" returns to the start of the line and "ESC [ K" erases to its end: the line is
 * redrawn in place. Both are understood by every terminal emulator in use (VT100). */
#define ERASE_LINE "\r\033[K"

static double monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_line_init(struct progress_line *p, int fd, double delay_s)
{
    memset(p, 0, sizeof(*p));
    pthread_mutex_init(&p->lock, NULL);
    pthread_mutex_init(&p->current_lock, NULL);
    p->fd = fd;
    p->enabled = isatty(fd) == 1;
    p->start = monotonic_seconds();
    p->delay = delay_s;
}

void progress_line_destroy(struct progress_line *p)
{
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->current_lock);
}

bool progress_line_enabled(const struct progress_line *p)
{
    return p->enabled;
}

/**
 * @return `start` moved forward past UTF-8 continuation bytes (10xxxxxx, at most three), so
 * that a path cut there starts on a character, not inside one.
 */
static size_t utf8_start(const char *s, size_t len, size_t start)
{
    for (int i = 0; i < 3 && start < len && ((unsigned char)s[start] & 0xc0) == 0x80; i++) {
        start++;
    }
    return start;
}

void progress_line_set_current(struct progress_line *p, const char *path, size_t len)
{
    if (!p->enabled || pthread_mutex_trylock(&p->current_lock) != 0) {
        return;
    }
    if (len >= sizeof(p->current)) {
        // Keep the end of the path: the deepest names say the most (from a whole character).
        size_t cut = utf8_start(path, len, len - (sizeof(p->current) - 1));
        path += cut;
        len -= cut;
    }
    // A name may hold any byte but '/' and NUL: keep control characters off the terminal.
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)path[i];
        p->current[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
    }
    p->current[len] = '\0';
    p->current_len = len;
    pthread_mutex_unlock(&p->current_lock);
}

/** Writes a count with binary prefixes and one decimal: "512 B", "1.5 KiB", "3.2 GiB". */
static void format_bytes(uint64_t bytes, char *out, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    size_t unit = 0;
    while (value >= 1024 && unit + 1 < sizeof(units) / sizeof(units[0])) {
        value /= 1024;
        unit++;
    }
    if (unit == 0) {
        snprintf(out, cap, "%" PRIu64 " B", bytes);
    } else {
        snprintf(out, cap, "%.1f %s", value, units[unit]);
    }
}

static size_t terminal_width(int fd)
{
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        return ws.ws_col;
    }
    return 80;
}

/** Writes all of buf, retrying short writes; a failed write just drops the line. */
static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n <= 0) {
            return;
        }
        buf += n;
        len -= (size_t)n;
    }
}

void progress_line_draw(struct progress_line *p, uint64_t entries, uint64_t bytes)
{
    if (!p->enabled) {
        return;
    }
    double elapsed = monotonic_seconds() - p->start;
    if (elapsed < p->delay) {
        return;
    }
    char size[32];
    format_bytes(bytes, size, sizeof(size));
    double rate = elapsed > 0 ? (double)entries / elapsed : 0;
    char line[PROGRESS_LINE_PATH_MAX + 128];
    int head = snprintf(line, sizeof(line), "%s%" PRIu64 " entries, %s, %.0f entries/s, ",
                        ERASE_LINE, entries, size, rate);
    if (head < 0 || (size_t)head >= sizeof(line)) {
        return;
    }
    // The visible part must stay shorter than the terminal, or the terminal wraps it and
    // "\r" no longer returns to its start.
    size_t width = terminal_width(p->fd);
    size_t visible = (size_t)head - (sizeof(ERASE_LINE) - 1);
    size_t room = width > visible + 1 ? width - visible - 1 : 0;

    pthread_mutex_lock(&p->current_lock);
    const char *dir = p->current;
    size_t dir_len = p->current_len;
    size_t used = (size_t)head;
    if (dir_len > room) {
        // Show the end of the path, marked as cut.
        if (room > 3) {
            size_t start = utf8_start(dir, dir_len, dir_len - (room - 3));
            memcpy(line + used, "...", 3);
            used += 3;
            memcpy(line + used, dir + start, dir_len - start);
            used += dir_len - start;
        }
    } else {
        memcpy(line + used, dir, dir_len);
        used += dir_len;
    }
    pthread_mutex_unlock(&p->current_lock);

    pthread_mutex_lock(&p->lock);
    write_all(p->fd, line, used);
    p->shown = true;
    pthread_mutex_unlock(&p->lock);
}

void progress_line_clear(struct progress_line *p)
{
    if (!p->enabled) {
        return;
    }
    pthread_mutex_lock(&p->lock);
    if (p->shown) {
        write_all(p->fd, ERASE_LINE, sizeof(ERASE_LINE) - 1);
        p->shown = false;
    }
    pthread_mutex_unlock(&p->lock);
}
