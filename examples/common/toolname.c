// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The tools' name in messages and their shared --version format (see toolname.h). */
#include "toolname.h"

#include <errno.h>
#include <frd.h>
#include <stdio.h>
#include <string.h>

const char *tool_name = "frd";

void tool_name_init(char **argv, const char *fallback)
{
    tool_name = fallback;
    if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
        return;
    }
    char *slash = strrchr(argv[0], '/');
    if (slash != NULL && slash[1] != '\0') {
        argv[0] = slash + 1;
    }
    tool_name = argv[0];
}

int tool_print_version(const char *tool, const char *extra)
{
    printf("%s (frd) %s\n", tool, FRD_VERSION_STRING);
    if (extra != NULL) {
        printf("%s\n", extra);
    }
    return tool_flush_stdout();
}

int tool_flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        // As GNU's close_stdout: the reason when the C library kept one.
        if (errno != 0) {
            fprintf(stderr, "%s: write error: %s\n", tool_name, strerror(errno));
        } else {
            fprintf(stderr, "%s: write error\n", tool_name);
        }
        return 1;
    }
    return 0;
}

int tool_usage_error(const char *message)
{
    if (message != NULL) {
        fprintf(stderr, "%s: %s\n", tool_name, message);
    }
    fprintf(stderr, "Try '%s --help' for more information.\n", tool_name);
    return 2;
}
