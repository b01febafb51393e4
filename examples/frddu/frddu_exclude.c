// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** du's exclude list: --exclude and -X patterns, matched before an entry is stat'ed. */
#define _POSIX_C_SOURCE 200809L

#include "frddu_exclude.h"

#include "grow.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TOOL_RESERVE_DEFINE(patterns_reserve, char *, 8)

int du_exclude_add(struct du_exclude *ex, const char *pattern)
{
    if (patterns_reserve(&ex->patterns, &ex->cap, ex->n + 1) < 0) {
        return -1;
    }
    char *copy = strdup(pattern);
    if (copy == NULL) {
        return -1;
    }
    ex->patterns[ex->n++] = copy;
    return 0;
}

int du_exclude_add_file(struct du_exclude *ex, const char *file)
{
    bool use_stdin = strcmp(file, "-") == 0;
    FILE *in = use_stdin ? stdin : fopen(file, "r");
    if (in == NULL) {
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0;
    while ((len = getline(&line, &cap, in)) >= 0) {
        while (len > 0 && isspace((unsigned char)line[len - 1])) {
            len--; // the newline and any white space before it
        }
        if (len == 0) {
            continue;
        }
        line[len] = '\0';
        if (du_exclude_add(ex, line) < 0) {
            rc = -1;
            break;
        }
    }
    int saved = errno;
    if (rc == 0 && ferror(in)) {
        rc = -1;
    }
    free(line);
    if (!use_stdin) {
        fclose(in);
    }
    errno = saved;
    return rc;
}

bool du_excluded(const struct du_exclude *ex, const char *path)
{
    for (size_t i = 0; i < ex->n; i++) {
        const char *pattern = ex->patterns[i];
        if (fnmatch(pattern, path, 0) == 0) {
            return true;
        }
        for (const char *p = path; *p != '\0'; p++) {
            if (*p == '/' && p[1] != '/' && fnmatch(pattern, p + 1, 0) == 0) {
                return true;
            }
        }
    }
    return false;
}

void du_exclude_free(struct du_exclude *ex)
{
    for (size_t i = 0; i < ex->n; i++) {
        free(ex->patterns[i]);
    }
    free(ex->patterns);
    ex->patterns = NULL;
    ex->n = ex->cap = 0;
}
