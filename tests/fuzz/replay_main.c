// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Without libFuzzer, a fuzz target links this main instead: it feeds every file named on
 * the command line (or found in a directory named there) to LLVMFuzzerTestOneInput once,
 * so the seed corpus and every crash ever found run as an ordinary test under ctest.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    size_t cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (grown == NULL) {
                free(data);
                fclose(f);
                return 1;
            }
            data = grown;
        }
        size_t n = fread(data + size, 1, cap - size, f);
        if (n == 0) {
            break;
        }
        size += n;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int failures = 0;
    int count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            failures++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            failures += replay_file(argv[i]);
            count++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        struct dirent *d;
        while (dir != NULL && (d = readdir(dir)) != NULL) {
            if (d->d_name[0] == '.') {
                continue;
            }
            size_t len = strlen(argv[i]) + strlen(d->d_name) + 2;
            char *path = malloc(len);
            if (path == NULL) {
                return 1;
            }
            snprintf(path, len, "%s/%s", argv[i], d->d_name);
            failures += replay_file(path);
            count++;
            free(path);
        }
        if (dir != NULL) {
            closedir(dir);
        }
    }
    printf("replayed %d inputs, %d unreadable\n", count, failures);
    printf("%d passed, %d failed\n", count - failures, failures);
    return failures != 0 || count == 0;
}
