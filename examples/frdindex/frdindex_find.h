// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/** `frdindex find`: the indexed paths matching a pattern, as locate finds them. */
#ifndef FRD_EXAMPLES_FRDINDEX_FIND_H
#define FRD_EXAMPLES_FRDINDEX_FIND_H

#include <stdbool.h>
#include <stddef.h>

/** How `find` reads its pattern. */
enum index_regex {
    INDEX_REGEX_NONE,     /**< a glob */
    INDEX_REGEX_BASIC,    /**< -r, --regexp: a POSIX basic regular expression */
    INDEX_REGEX_EXTENDED, /**< --regex: an extended one */
};

/** Options of `frdindex find`. */
struct index_find_options {
    const char *db_path;
    /** Several databases read as one, in this order (frdmpi's per-rank set); with ndbs 0,
     *  db_path alone. */
    const char *const *db_paths;
    size_t ndbs;
    const char *pattern;
    enum index_regex regex;
    bool ignore_case; /**< -i */
    bool basename;    /**< -b: match the last name only */
    bool null;        /**< -0: end each path with NUL */
    bool count;       /**< -c: print only the number of matches */
    bool existing;    /**< -e: only paths that exist now */
    size_t limit;     /**< -l N: stop after N matches; 0: no limit */
    /** standard output is the user's terminal: escape paths as plocate does there
     *  (frdindex's own find; frdmpi's ranks write to mpirun, not to a terminal) */
    bool terminal;
};

/** Runs `frdindex find`. @return the exit status. */
int index_find(const struct index_find_options *opts);

/**
 * Parses `find`'s options (-i -b -0 -c -e -l N -r --regex ...) from argv (getopt_long from
 * optind) into *opts; the database and pattern operands are left to the caller at optind.
 * @return 0, or 2 after a usage message.
 */
int index_find_parse(int argc, char **argv, struct index_find_options *opts);

#endif // FRD_EXAMPLES_FRDINDEX_FIND_H
