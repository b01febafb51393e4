// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** Test support: temporary trees of every file type, made and removed with plain syscalls. */
#include "tree.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static void tree_die(const char *what, const char *path)
{
    fprintf(stderr, "tree: %s '%s': %s\n", what, path, strerror(errno));
    abort();
}

char *tree_make_root(void)
{
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || *tmp == '\0') {
        tmp = "/tmp";
    }
    char *root = tree_path(tmp, "frd-test-XXXXXX");
    if (mkdtemp(root) == NULL) {
        tree_die("mkdtemp", root);
    }
    return root;
}

char *tree_path(const char *root, const char *rel)
{
    size_t a = strlen(root);
    size_t b = strlen(rel);
    char *path = malloc(a + b + 2);
    if (path == NULL) {
        abort();
    }
    memcpy(path, root, a);
    path[a] = '/';
    memcpy(path + a + 1, rel, b + 1);
    return path;
}

void tree_file(const char *root, const char *rel, size_t size)
{
    char *path = tree_path(root, rel);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        tree_die("create", path);
    }
    char chunk[4096];
    memset(chunk, 'x', sizeof(chunk));
    while (size > 0) {
        size_t n = size < sizeof(chunk) ? size : sizeof(chunk);
        ssize_t w = write(fd, chunk, n);
        if (w <= 0) {
            tree_die("write", path);
        }
        size -= (size_t)w;
    }
    close(fd);
    free(path);
}

void tree_dir(const char *root, const char *rel)
{
    char *path = tree_path(root, rel);
    if (mkdir(path, 0755) != 0) {
        tree_die("mkdir", path);
    }
    free(path);
}

void tree_symlink(const char *root, const char *target, const char *rel)
{
    char *path = tree_path(root, rel);
    if (symlink(target, path) != 0) {
        tree_die("symlink", path);
    }
    free(path);
}

void tree_fifo(const char *root, const char *rel)
{
    char *path = tree_path(root, rel);
    if (mkfifo(path, 0644) != 0) {
        tree_die("mkfifo", path);
    }
    free(path);
}

void tree_socket(const char *root, const char *rel)
{
    // A socket path must fit sun_path (108 bytes): bind relative to a directory fd's path
    // would need bindat; chdir briefly instead, as tests are single-threaded here.
    char cwd[4096];
    if (getcwd(cwd, sizeof(cwd)) == NULL || chdir(root) != 0) {
        tree_die("chdir", root);
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof(addr));
    addr.sun_family = AF_UNIX;
    if (fd < 0 || strlen(rel) >= sizeof(addr.sun_path)) {
        tree_die("socket", rel);
    }
    memcpy(addr.sun_path, rel, strlen(rel) + 1);
    if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
        tree_die("bind", rel);
    }
    close(fd);
    if (chdir(cwd) != 0) {
        tree_die("chdir", cwd);
    }
}

void tree_hide(const char *root, const char *rel)
{
    (void)root;
    (void)rel;
}

static int tree_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP) {
        chmod(path, 0700);
        return rmdir(path) != 0 ? -1 : 0;
    }
    return unlink(path) != 0 ? -1 : 0;
}

void tree_remove(char *root)
{
    if (root == NULL) {
        return;
    }
    nftw(root, tree_remove_one, 64, FTW_DEPTH | FTW_PHYS);
    free(root);
}
