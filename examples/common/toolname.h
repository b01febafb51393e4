// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** The tools' name in messages (argv[0]'s base name, as GNU tools print it) and --version. */
#ifndef FRD_EXAMPLES_COMMON_TOOLNAME_H
#define FRD_EXAMPLES_COMMON_TOOLNAME_H

/** The name messages start with: set by tool_name_init(), the tool's own name before. */
extern const char *tool_name;

/**
 * Sets tool_name to the base name of argv[0] (so a `du` link to frddu says `du:`) and points
 * argv[0] at it, so getopt's own messages carry the same name. Call first in main().
 * @param fallback the name used when argv[0] is missing or empty; a static string.
 */
void tool_name_init(char **argv, const char *fallback);

/**
 * Prints the one --version format all the tools share, `TOOL (frd) X.Y.Z` and a newline,
 * on stdout, then `extra` on lines of its own when it is not NULL.
 * @param tool the tool's own name (not the invoked one), as GNU tools print theirs.
 * @return 0, or 1 after a message on stderr if stdout could not be written.
 */
int tool_print_version(const char *tool, const char *extra);

/**
 * Flushes stdout and checks that every write to it succeeded (for --help and --version,
 * whose output goes nowhere else).
 * @return 0, or 1 after "NAME: write error: REASON" (GNU's words) on stderr.
 */
int tool_flush_stdout(void);

/**
 * A usage error as GNU tools report one: "NAME: MESSAGE" when message is not NULL, then
 * "Try 'NAME --help' for more information.", both on stderr.
 * @return 2, the exit status of a usage error.
 */
int tool_usage_error(const char *message);

#endif // FRD_EXAMPLES_COMMON_TOOLNAME_H
