// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The database file of an update: the existing one, or a new one made beside it (see .h). */
#define _GNU_SOURCE // flock, O_NOFOLLOW, strndup

#include "frdindex_file.h"

#include "toolname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/** How long a first update waits for another one making the same database. */
#define TMP_WAIT_NS (10 * 1000000000LL)

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int fail_errno(const char *what, const char *path)
{
    fprintf(stderr, "%s: %s '%s': %s\n", tool_name, what, path, strerror(errno));
    return -1;
}

/** @return whether `name` in f's directory is (still) the file open as fd. */
static bool still_named(const struct index_file *f, const char *name, int fd)
{
    struct stat named, open_st;
    return fstatat(f->dirfd, name, &named, AT_SYMLINK_NOFOLLOW) == 0 && fstat(fd, &open_st) == 0 &&
           named.st_dev == open_st.st_dev && named.st_ino == open_st.st_ino;
}

/**
 * Says why `st` (the file at `shown`) is not one this user may write the index into:
 * @return 0 if it is a regular file of the effective user, else -1 after a message.
 */
static int refuse_foreign(const char *shown, const struct stat *st, const char *advice)
{
    if (S_ISLNK(st->st_mode)) {
        fprintf(stderr,
                "%s: %s: a symbolic link: the index is written only into a regular file%s\n",
                tool_name, shown, advice);
    } else if (!S_ISREG(st->st_mode)) {
        fprintf(stderr, "%s: %s: not a regular file%s\n", tool_name, shown, advice);
    } else if (st->st_uid != geteuid()) {
        fprintf(stderr,
                "%s: %s: owned by another user (uid %lu): the index is written only into the "
                "updating user's own file%s\n",
                tool_name, shown, (unsigned long)st->st_uid, advice);
    } else {
        return 0;
    }
    return -1;
}

/**
 * Before a new database is renamed to NAME: SQLite's files beside NAME that a database gone
 * left (the user's own) are removed, for SQLite would read them with the new one; another
 * user's are refused. @return 0 or -1 after a message.
 */
static int clear_side_files(const struct index_file *f)
{
    static const char *const suffixes[] = {"-wal", "-shm", "-journal"};
    size_t len = strlen(f->name), plen = strlen(f->path);
    char *name = malloc(len + sizeof("-journal"));
    char *shown = malloc(plen + sizeof("-journal"));
    int result = 0;
    if (name == NULL || shown == NULL) {
        fprintf(stderr, "%s: out of memory\n", tool_name);
        result = -1;
    }
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]) && result == 0; i++) {
        size_t slen = strlen(suffixes[i]) + 1;
        memcpy(name, f->name, len);
        memcpy(name + len, suffixes[i], slen);
        memcpy(shown, f->path, plen);
        memcpy(shown + plen, suffixes[i], slen);
        struct stat st;
        if (fstatat(f->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
            if (errno != ENOENT) {
                result = fail_errno("cannot access", shown);
            }
            continue;
        }
        if (refuse_foreign(shown, &st, " (SQLite would use it with the new database: remove it)") <
            0) {
            result = -1;
        } else if (unlinkat(f->dirfd, name, 0) < 0 && errno != ENOENT) {
            result = fail_errno("cannot remove", shown);
        }
    }
    free(name);
    free(shown);
    return result;
}

/**
 * Opens the temporary file of a new database: made now (O_EXCL), or one a killed update
 * left (the user's own, unlocked), emptied. Waits while another update holds it.
 * @return 0 with f->tmp_fd set and locked, or -1 after a message.
 */
static int take_tmp(struct index_file *f)
{
    int64_t deadline = mono_ns() + TMP_WAIT_NS;
    for (;;) {
        int fd =
            openat(f->dirfd, f->tmp_name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno == EEXIST) {
            struct stat st;
            if (fstatat(f->dirfd, f->tmp_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                if (errno == ENOENT) {
                    continue; // removed meanwhile: make it
                }
                return fail_errno("cannot access", f->tmp_path);
            }
            if (refuse_foreign(f->tmp_path, &st, " (remove it)") < 0) {
                return -1;
            }
            fd = openat(f->dirfd, f->tmp_name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0 && errno == ENOENT) {
                continue;
            }
        }
        if (fd < 0) {
            return fail_errno("cannot create", f->tmp_path);
        }
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            struct stat st;
            if (!still_named(f, f->tmp_name, fd) || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
                st.st_uid != geteuid()) {
                close(fd); // renamed into place or removed meanwhile: look again
                continue;
            }
            // Made now, or left by a killed update (whose lock went with it): start empty.
            if (ftruncate(fd, 0) < 0 || fchmod(fd, 0600) < 0) {
                fail_errno("cannot write", f->tmp_path);
                close(fd);
                return -1;
            }
            f->tmp_fd = fd;
            return 0;
        }
        int err = errno;
        close(fd);
        if (err != EWOULDBLOCK && err != EINTR) {
            errno = err;
            return fail_errno("cannot lock", f->tmp_path);
        }
        if (mono_ns() > deadline) {
            fprintf(stderr, "%s: %s: another update is making this database (it holds '%s')\n",
                    tool_name, f->path, f->tmp_path);
            return -1;
        }
        struct timespec pause = {.tv_nsec = 50 * 1000000};
        nanosleep(&pause, NULL);
    }
}

/** An existing database's update removes a temporary file a killed first update left. */
static void drop_stale_tmp(const struct index_file *f)
{
    struct stat st;
    if (fstatat(f->dirfd, f->tmp_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
        st.st_uid != geteuid()) {
        return; // none, or not this user's to remove
    }
    int fd = openat(f->dirfd, f->tmp_name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 && still_named(f, f->tmp_name, fd)) {
        unlinkat(f->dirfd, f->tmp_name, 0); // unlocked: nobody is making it
    }
    close(fd);
}

int index_file_open(struct index_file *f, const char *path, bool have_roots)
{
    *f = (struct index_file){.path = path, .dirfd = -1, .tmp_fd = -1};
    const char *slash = strrchr(path, '/');
    const char *name = slash != NULL ? slash + 1 : path;
    size_t dir_len = (size_t)(name - path); // with its last slash
    if (name[0] == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        fprintf(stderr, "%s: %s: names a directory, not a database file\n", tool_name, path);
        return -1;
    }
    char *dir = dir_len > 0 ? strndup(path, dir_len) : strdup(".");
    f->name = strdup(name);
    size_t name_len = strlen(name);
    f->tmp_name = malloc(name_len + sizeof(INDEX_TMP_SUFFIX));
    f->tmp_path = malloc(dir_len + name_len + sizeof(INDEX_TMP_SUFFIX));
    if (dir == NULL || f->name == NULL || f->tmp_name == NULL || f->tmp_path == NULL) {
        free(dir);
        fprintf(stderr, "%s: out of memory\n", tool_name);
        return -1;
    }
    memcpy(f->tmp_name, name, name_len);
    memcpy(f->tmp_name + name_len, INDEX_TMP_SUFFIX, sizeof(INDEX_TMP_SUFFIX));
    memcpy(f->tmp_path, path, dir_len);
    memcpy(f->tmp_path + dir_len, f->tmp_name, name_len + sizeof(INDEX_TMP_SUFFIX));
    f->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (f->dirfd < 0) {
        fail_errno("cannot access", dir);
        free(dir);
        return -1;
    }
    free(dir);
    struct stat st;
    bool empty = false;
    if (fstatat(f->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (refuse_foreign(path, &st, "") < 0) {
            return -1;
        }
        if (st.st_size > 0) {
            drop_stale_tmp(f);
            return 0; // a database: updated in place, in one transaction
        }
        empty = true; // made as a new one, renamed over it
    } else if (errno != ENOENT) {
        return fail_errno("cannot access", path);
    }
    if (!have_roots) {
        fprintf(stderr, "%s: %s: %s: give the directories to index\n", tool_name, path,
                empty ? "the index is empty" : "no such index");
        return -1;
    }
    f->fresh = true;
    return clear_side_files(f) < 0 || take_tmp(f) < 0 ? -1 : 0;
}

const char *index_file_sqlite_path(const struct index_file *f)
{
    return f->fresh ? f->tmp_path : f->path;
}

static void *flush_thread(void *arg)
{
    struct index_file *f = arg;
    // Its error is kept: the fsync at the commit, on the same descriptor, would not see it.
    f->flush_errno = fdatasync(f->tmp_fd) < 0 ? errno : 0;
    return NULL;
}

void index_file_flush_start(struct index_file *f)
{
    if (f->fresh && f->tmp_fd >= 0 && !f->flushing) {
        f->flush_errno = 0;
        f->flushing = pthread_create(&f->flusher, NULL, flush_thread, f) == 0;
    }
}

/** Waits for the thread index_file_flush_start() started. @return its errno, or 0. */
static int flush_join(struct index_file *f)
{
    if (!f->flushing) {
        return 0;
    }
    pthread_join(f->flusher, NULL);
    f->flushing = false;
    return f->flush_errno;
}

int index_file_commit(struct index_file *f, unsigned mode)
{
    if (!f->fresh) {
        return 0;
    }
    int err = flush_join(f);
    if (err != 0) {
        errno = err;
        return fail_errno("cannot write", f->tmp_path);
    }
    if (fchmod(f->tmp_fd, mode != 0 ? (mode_t)mode : 0600) < 0) {
        return fail_errno("cannot set the mode of", f->tmp_path);
    }
    if (fsync(f->tmp_fd) < 0) {
        return fail_errno("cannot write", f->tmp_path);
    }
    if (!still_named(f, f->tmp_name, f->tmp_fd)) {
        fprintf(stderr, "%s: %s: removed or replaced while the index was made in it\n", tool_name,
                f->tmp_path);
        return -1;
    }
    if (renameat(f->dirfd, f->tmp_name, f->dirfd, f->name) < 0) {
        fprintf(stderr, "%s: cannot rename '%s' to '%s': %s\n", tool_name, f->tmp_path, f->path,
                strerror(errno));
        return -1;
    }
    f->committed = true;
    // The rename made durable; a file system that cannot sync a directory has it whole or not.
    (void)fsync(f->dirfd);
    return 0;
}

void index_file_close(struct index_file *f)
{
    flush_join(f); // it uses tmp_fd
    if (f->fresh && !f->committed && f->tmp_fd >= 0 && still_named(f, f->tmp_name, f->tmp_fd)) {
        unlinkat(f->dirfd, f->tmp_name, 0);
    }
    if (f->tmp_fd >= 0) {
        close(f->tmp_fd);
    }
    if (f->dirfd >= 0) {
        close(f->dirfd);
    }
    free(f->name);
    free(f->tmp_name);
    free(f->tmp_path);
    *f = (struct index_file){.dirfd = -1, .tmp_fd = -1};
}
