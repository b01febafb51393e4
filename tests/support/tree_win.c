// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Test support for Windows: the tree.h interface with Win32 calls (names are UTF-8 and
 * converted to UTF-16). Links, fifos and sockets have no portable Windows form here and
 * abort if asked for; tests that need them are POSIX-only.
 */
#include "tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static void tree_die(const char *what, const char *path)
{
    fprintf(stderr, "tree: %s '%s': error %lu\n", what, path, (unsigned long)GetLastError());
    abort();
}

/** UTF-8 to a new wide string; aborts on failure. */
static WCHAR *tree_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    WCHAR *w = n > 0 ? malloc((size_t)n * sizeof(WCHAR)) : NULL;
    if (w == NULL || MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) != n) {
        tree_die("utf8", s);
    }
    return w;
}

static char *tree_narrow(const WCHAR *w)
{
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
    char *s = n > 0 ? malloc((size_t)n) : NULL;
    if (s == NULL || WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) != n) {
        abort();
    }
    return s;
}

char *tree_make_root(void)
{
    WCHAR tmp[MAX_PATH + 1];
    DWORD n = GetTempPathW(MAX_PATH + 1, tmp);
    if (n == 0 || n > MAX_PATH) {
        tree_die("GetTempPathW", "");
    }
    char *base = tree_narrow(tmp);
    static unsigned counter;
    for (int attempt = 0; attempt < 1000; attempt++) {
        char name[64];
        snprintf(name, sizeof(name), "frd-test-%lu-%u", (unsigned long)GetCurrentProcessId(),
                 counter++);
        size_t len = strlen(base);
        char *root = malloc(len + strlen(name) + 1);
        if (root == NULL) {
            abort();
        }
        memcpy(root, base, len); // GetTempPathW ends with a backslash
        memcpy(root + len, name, strlen(name) + 1);
        WCHAR *w = tree_wide(root);
        BOOL ok = CreateDirectoryW(w, NULL);
        free(w);
        if (ok) {
            free(base);
            return root;
        }
        free(root);
        if (GetLastError() != ERROR_ALREADY_EXISTS) {
            tree_die("CreateDirectoryW", name);
        }
    }
    tree_die("make root", base);
    return NULL;
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
    path[a] = '\\';
    memcpy(path + a + 1, rel, b + 1);
    return path;
}

void tree_file(const char *root, const char *rel, size_t size)
{
    char *path = tree_path(root, rel);
    WCHAR *w = tree_wide(path);
    HANDLE h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        tree_die("CreateFileW", path);
    }
    char chunk[4096];
    memset(chunk, 'x', sizeof(chunk));
    while (size > 0) {
        DWORD n = (DWORD)(size < sizeof(chunk) ? size : sizeof(chunk));
        DWORD wrote = 0;
        if (!WriteFile(h, chunk, n, &wrote, NULL) || wrote == 0) {
            tree_die("WriteFile", path);
        }
        size -= wrote;
    }
    CloseHandle(h);
    free(w);
    free(path);
}

void tree_dir(const char *root, const char *rel)
{
    char *path = tree_path(root, rel);
    WCHAR *w = tree_wide(path);
    if (!CreateDirectoryW(w, NULL)) {
        tree_die("CreateDirectoryW", path);
    }
    free(w);
    free(path);
}

void tree_symlink(const char *root, const char *target, const char *rel)
{
    (void)root;
    (void)target;
    tree_die("symlink (not supported by the Windows test support)", rel);
}

void tree_fifo(const char *root, const char *rel)
{
    (void)root;
    tree_die("fifo (not supported on Windows)", rel);
}

void tree_socket(const char *root, const char *rel)
{
    (void)root;
    tree_die("socket (not supported by the Windows test support)", rel);
}

void tree_hide(const char *root, const char *rel)
{
    char *path = tree_path(root, rel);
    WCHAR *w = tree_wide(path);
    if (!SetFileAttributesW(w, FILE_ATTRIBUTE_HIDDEN)) {
        tree_die("SetFileAttributesW", path);
    }
    free(w);
    free(path);
}

static void tree_remove_w(const WCHAR *dir)
{
    size_t len = wcslen(dir);
    WCHAR *pattern = malloc((len + 3) * sizeof(WCHAR));
    if (pattern == NULL) {
        abort();
    }
    memcpy(pattern, dir, len * sizeof(WCHAR));
    memcpy(pattern + len, L"\\*", 3 * sizeof(WCHAR));
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(pattern, &fd);
    if (h != INVALID_HANDLE_VALUE) {
        do {
            if (wcscmp(fd.cFileName, L".") == 0 || wcscmp(fd.cFileName, L"..") == 0) {
                continue;
            }
            size_t n = wcslen(fd.cFileName);
            WCHAR *child = malloc((len + n + 2) * sizeof(WCHAR));
            if (child == NULL) {
                abort();
            }
            memcpy(child, dir, len * sizeof(WCHAR));
            child[len] = L'\\';
            memcpy(child + len + 1, fd.cFileName, (n + 1) * sizeof(WCHAR));
            if ((fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) &&
                !(fd.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
                tree_remove_w(child);
            } else if (fd.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
                RemoveDirectoryW(child);
            } else {
                SetFileAttributesW(child, FILE_ATTRIBUTE_NORMAL);
                DeleteFileW(child);
            }
            free(child);
        } while (FindNextFileW(h, &fd));
        FindClose(h);
    }
    RemoveDirectoryW(dir);
    free(pattern);
}

void tree_remove(char *root)
{
    if (root == NULL) {
        return;
    }
    WCHAR *w = tree_wide(root);
    tree_remove_w(w);
    free(w);
    free(root);
}
