// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * A FUSE file system that fails with EIO where a bad disk would, for the tests of what the
 * tools do with a read error (tests/cli/walk_eio.sh): a fixed, read-only tree in which
 *
 *   good/            a directory listed whole, with the files one and two
 *   good/sick        a file whose stat fails (EIO), listed by its directory
 *   bad/             a directory that opens and whose listing fails (EIO)
 *   deep/a/b/        directories below, one file in the deepest, read after the failures
 *   last             a file at the root
 *
 * and no extended attributes: each listxattr fails EOPNOTSUPP, as on a file system without
 * them, and is logged on stderr ("listxattr PATH"), so a test can count the calls a walk
 * makes (the kernel would ask only once if the call were left out: ENOSYS is remembered).
 * Usage: eio_fuse MOUNTPOINT [FUSE options]; it runs in the foreground, single-threaded,
 * until it is unmounted (fusermount3 -u or umount). Test-only code: never installed.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/** A node of the fixed tree. */
struct eio_node {
    const char *path;  /**< from the mount's root, "/" for it */
    mode_t mode;       /**< S_IFDIR or S_IFREG with permissions */
    const char *data;  /**< a file's contents */
    int stat_error;    /**< errno for its stat, or 0 */
    int readdir_error; /**< errno for its listing, or 0 */
};

static const struct eio_node eio_tree[] = {
    {"/", S_IFDIR | 0755, NULL, 0, 0},
    {"/good", S_IFDIR | 0755, NULL, 0, 0},
    {"/good/one", S_IFREG | 0644, "1\n", 0, 0},
    {"/good/sick", S_IFREG | 0644, "sick\n", EIO, 0},
    {"/good/two", S_IFREG | 0644, "22\n", 0, 0},
    {"/bad", S_IFDIR | 0755, NULL, 0, EIO},
    {"/bad/hidden", S_IFREG | 0644, "never listed\n", 0, 0},
    {"/deep", S_IFDIR | 0755, NULL, 0, 0},
    {"/deep/a", S_IFDIR | 0755, NULL, 0, 0},
    {"/deep/a/b", S_IFDIR | 0755, NULL, 0, 0},
    {"/deep/a/b/end", S_IFREG | 0644, "end\n", 0, 0},
    {"/last", S_IFREG | 0644, "last\n", 0, 0},
};

#define EIO_NODES (sizeof(eio_tree) / sizeof(eio_tree[0]))

static const struct eio_node *eio_find(const char *path)
{
    for (size_t i = 0; i < EIO_NODES; i++) {
        if (strcmp(eio_tree[i].path, path) == 0) {
            return &eio_tree[i];
        }
    }
    return NULL;
}

/** Is `child` a direct child of the directory `dir`? @return its name, or NULL. */
static const char *eio_child_name(const char *dir, const char *child)
{
    size_t n = strlen(dir);
    if (strcmp(dir, "/") == 0) {
        n = 0;
    } else if (strncmp(child, dir, n) != 0 || child[n] != '/') {
        return NULL;
    }
    const char *name = child + n + 1;
    if (child[n] != '/' || *name == '\0' || strchr(name, '/') != NULL) {
        return NULL;
    }
    return name;
}

static int eio_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    (void)fi;
    const struct eio_node *node = eio_find(path);
    if (node == NULL) {
        return -ENOENT;
    }
    if (node->stat_error != 0) {
        return -node->stat_error;
    }
    memset(st, 0, sizeof(*st));
    st->st_mode = node->mode;
    st->st_nlink = S_ISDIR(node->mode) ? 2 : 1;
    st->st_size = node->data != NULL ? (off_t)strlen(node->data) : 0;
    st->st_ino = (ino_t)(node - eio_tree) + 1;
    return 0;
}

static int eio_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
                       struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void)offset;
    (void)fi;
    (void)flags;
    const struct eio_node *dir = eio_find(path);
    if (dir == NULL) {
        return -ENOENT;
    }
    if (!S_ISDIR(dir->mode)) {
        return -ENOTDIR;
    }
    if (dir->readdir_error != 0) {
        return -dir->readdir_error;
    }
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    for (size_t i = 0; i < EIO_NODES; i++) {
        const char *name = eio_child_name(path, eio_tree[i].path);
        if (name != NULL) {
            // The type only: the kernel asks getattr for the rest (and sick's stat fails).
            struct stat st = {.st_mode = eio_tree[i].mode & S_IFMT};
            fill(buf, name, &st, 0, 0);
        }
    }
    return 0;
}

static int eio_open(const char *path, struct fuse_file_info *fi)
{
    const struct eio_node *node = eio_find(path);
    if (node == NULL) {
        return -ENOENT;
    }
    return (fi->flags & O_ACCMODE) == O_RDONLY ? 0 : -EROFS;
}

static int eio_read(const char *path, char *buf, size_t size, off_t offset,
                    struct fuse_file_info *fi)
{
    (void)fi;
    const struct eio_node *node = eio_find(path);
    if (node == NULL || node->data == NULL) {
        return -EIO;
    }
    size_t len = strlen(node->data);
    if (offset < 0 || (size_t)offset >= len) {
        return 0;
    }
    size_t n = len - (size_t)offset < size ? len - (size_t)offset : size;
    memcpy(buf, node->data + offset, n);
    return (int)n;
}

static int eio_listxattr(const char *path, char *list, size_t size)
{
    (void)list;
    (void)size;
    fprintf(stderr, "listxattr %s\n", path);
    fflush(stderr);
    return -EOPNOTSUPP;
}

static const struct fuse_operations eio_ops = {
    .getattr = eio_getattr,
    .readdir = eio_readdir,
    .open = eio_open,
    .read = eio_read,
    .listxattr = eio_listxattr,
};

int main(int argc, char *argv[])
{
    return fuse_main(argc, argv, &eio_ops, NULL);
}
