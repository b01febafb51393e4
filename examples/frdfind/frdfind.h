// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's shared declarations: the expression tree, the options, and the four modules.
 *
 * Module map:
 *
 *   frdfind_parse.c   command line -> options + expression tree (GNU find's grammar)
 *   frdfind_eval.c    evaluates the tree on one walk entry; which metadata it needs
 *   frdfind_printf.c  compiles and renders -printf formats, GNU find's %-directives
 *   frdfind_out.c     per-thread output buffers flushed under a lock, error messages
 *   frdfind_exec.c    -exec, -execdir, -ok, -okdir: commands, batches for '+'
 *   frdfind_delete.c  -delete: unlinkat() relative to the parent's descriptor
 *   frdfind_file.c    -ls, -fls, -fprint, -fprint0, -fprintf: the ls line, output files
 *   frdfind_color.c   -color: LS_COLORS as bfs applies it, on a terminal
 *   frdfind_main.c    main(): options -> frd_walk_roots(), the callbacks, exit status
 *   frdfind_pred.c    the tests beyond names and types (-perm, -user, -regex, -lname...)
 *   frdfind_time.c    the time tests (-mtime, -atime, -used, -newerXY, -daystart)
 *   frdfind_date.c    -newerXt's dates, free-form as find's parse_datetime() reads them
 *   frdfind_date_lex.c  their words and numbers (tokens: frdfind_date.h)
 *   frdfind_owner.c   user and group names by id, cached for every worker
 *   frdfind_stdfd.c   descriptors 0-2 kept taken when closed at start, as find keeps them
 *
 * Only <frd.h> and libc are used, like any program that embeds frd.
 */
#ifndef FRD_EXAMPLES_FRDFIND_H
#define FRD_EXAMPLES_FRDFIND_H

#include <frd.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

/** Node kinds of the expression tree. */
enum ff_kind {
    FF_AND,     /**< lhs -a rhs */
    FF_OR,      /**< lhs -o rhs */
    FF_COMMA,   /**< lhs , rhs: both, the value of rhs */
    FF_NOT,     /**< ! lhs */
    FF_TRUE,    /**< -true, and the global options (-depth, -maxdepth...) in place */
    FF_FALSE,   /**< -false */
    FF_NAME,    /**< -name / -iname: fnmatch on the base name */
    FF_PATH,    /**< -path / -ipath: fnmatch on the whole path */
    FF_TYPE,    /**< -type: a set of type letters */
    FF_SIZE,    /**< -size */
    FF_EMPTY,   /**< -empty */
    FF_INUM,    /**< -inum */
    FF_LINKS,   /**< -links */
    FF_PRUNE,   /**< -prune */
    FF_QUIT,    /**< -quit */
    FF_PRINT,   /**< -print and -print0 (sep says which) */
    FF_PRINTF,  /**< -printf */
    FF_COUNT,   /**< -count: counts the entries it is evaluated on */
    FF_PRED,    /**< a test of frdfind_pred.c / frdfind_time.c: expr->test decides */
    FF_EXEC,    /**< -exec, -execdir, -ok, -okdir (exec says which) */
    FF_DELETE,  /**< -delete */
    FF_LS,      /**< -ls, -fls (file NULL for stdout) */
    FF_FPRINT,  /**< -fprint, -fprint0 (sep says which) */
    FF_FPRINTF, /**< -fprintf */
};

/** A numeric comparison as find spells it: +N, -N or N. */
enum ff_cmp {
    FF_CMP_LT = -1, /**< -N */
    FF_CMP_EQ = 0,  /**< N */
    FF_CMP_GT = 1,  /**< +N */
};

/** How a name pattern can be matched without fnmatch(). */
enum ff_match {
    FF_MATCH_FNMATCH, /**< general pattern */
    FF_MATCH_EXACT,   /**< no metacharacter: memcmp */
    FF_MATCH_SUFFIX,  /**< "*literal": compare the end */
    FF_MATCH_ANY,     /**< "*": everything */
};

struct ff_format;
struct ff_exec;
struct ff_file;
struct ff_thread;
struct ff_eval;
/** What a primary's parser sees of the command-line parser (frdfind_parse.c). */
struct ff_parser;

/** One node of the expression tree. */
struct ff_expr {
    enum ff_kind kind;
    struct ff_expr *lhs; /**< operand of ! and left operand of binary operators */
    struct ff_expr *rhs; /**< right operand of binary operators */
    /** -name, -path: the pattern; for the fast paths, the literal part of it. */
    const char *pattern;
    size_t literal_len;       /**< length of the literal part (FF_MATCH_EXACT, SUFFIX) */
    enum ff_match match;      /**< how -name matches */
    int fnm_flags;            /**< FNM_CASEFOLD for -iname and -ipath */
    bool ascii;               /**< the pattern is ASCII only (see ff_fnmatch()) */
    unsigned types;           /**< -type: bit (1u << enum frd_type) per accepted type */
    enum ff_cmp cmp;          /**< -size, -inum, -links */
    uint64_t num;             /**< -size (in units), -inum, -links */
    uint64_t unit;            /**< -size: bytes per unit */
    int64_t ref_ns;           /**< time tests: reference instant, ns since epoch */
    int64_t window_ns;        /**< -mtime N, -mmin N: width of the window after ref_ns */
    char sep;                 /**< -print: '\n', -print0: '\0' */
    struct ff_format *format; /**< -printf, -fprintf */
    struct ff_exec *exec;     /**< -exec and its kin (owned by frdfind_exec.c's registry) */
    struct ff_file *file;     /**< -fls, -fprint, -fprint0, -fprintf (shared, see ff_file_open) */
    /** FF_PRED: the test (called on any worker: data is read-only or locks itself). */
    bool (*test)(const struct ff_expr *expr, struct ff_eval *st);
    void *data;                    /**< FF_PRED: the test's own data, or NULL */
    void (*free_data)(void *data); /**< frees data (NULL: nothing to free) */
    unsigned needs;                /**< FF_PRED: enum frd_field / ff_need bits it reads */
};

/**
 * What the expression needs to know about each entry: enum frd_field bits (the fields the
 * walk asks the kernel for, nothing more), plus the bits below, which are not fields.
 */
enum ff_need {
    FF_NEED_LINKSTAT = 1 << 30, /**< %Y: a stat of each link's target */
    /** A test find answers from its stat of the entry (-xtype, -lname, -prune, %l, %Y)
     *  though it reads no field: where the walk did not stat the entry, the first such test
     *  evaluated on it does (see ff_eval()), and is false if that fails. */
    FF_NEED_STAT = 1 << 29,
    /** The test reaches the entry through the walk's descriptor of its parent (readlinkat,
     *  faccessat, getxattr by /proc/self/fd): -lname, -xtype, -readable..., %l, %Y, %Z. */
    FF_NEED_DIR_FD = 1 << 28,
};

/** The fields that take a stat: any of them asked means entries whose stat failed are
 *  left out, as find does (type comes from the listing, file id from the record). */
#define FF_STAT_FIELDS (FRD_FIELDS_ALL & ~(unsigned)(FRD_FIELD_TYPE | FRD_FIELD_FILE_ID))

/** Everything the command line says. */
struct ff_options {
    enum frd_follow follow; /**< -P (default), -H, -L */
    int mindepth;           /**< -mindepth, 0 by default */
    int maxdepth;           /**< -maxdepth, -1 for none */
    bool depth;             /**< -depth: directories after their contents */
    bool xdev;              /**< -xdev, -mount */
    bool ordered;           /**< -s or -find-order: the ordered walk, deterministic output */
    bool find_order;        /**< -find-order: in find's order (each directory's own) */
    bool count;             /**< -count appears: print the total at the end */
    bool deletes;           /**< -delete appears (it turns -depth on) */
    bool prunes;            /**< -prune appears */
    bool depth_given;       /**< -depth (or -d) was written */
    bool color;             /**< -color, and stdout is a terminal */
    /** -ignore_readdir_race (the last of it and -noignore_readdir_race wins, as in find):
     *  -delete takes an entry gone before its removal (ENOENT) as removed, silently. */
    bool ignore_race;
    unsigned workers;   /**< -j N; 0 for the walker's default */
    const char **paths; /**< the roots (default ".") */
    size_t npaths;      /**< number of roots */
    /** The roots walked (the paths that exist, in order), indexed by the walk entries'
     *  root_index; set by main() before the walk. */
    const char **roots;
    size_t nroots;           /**< number of roots walked */
    struct ff_expr *expr;    /**< the expression, with the implicit -print added */
    unsigned needs;          /**< enum frd_field and enum ff_need bits */
    int64_t start_ns;        /**< when frdfind started, ns since epoch */
    int64_t day_start_ns;    /**< find's cur_day_start: start_ns - 1 day, -daystart: midnight */
    bool full_days;          /**< -daystart was given (it acts once) */
    int regex_syntax;        /**< -regextype's RE_SYNTAX_* bits for the next -regex */
    struct ff_expr *exclude; /**< -exclude EXPR (several: or'ed), or NULL */
    const char *files0_from; /**< -files0-from FILE ("-": stdin), or NULL */
    char *files0_buf;        /**< the names read from it (paths point into it) */
    /** The errno of a read of FILE that failed after the names read before it (reported
     *  after their walks, by ff_files0_report_read_error()), or 0. */
    int files0_error;
    bool ok_prompt; /**< -ok or -okdir appears: they read their answers from stdin */
    /** A stat may fail for want of search permission (not root): the tests that need one
     *  the walk did not make stat the entry themselves (see FF_NEED_STAT). */
    bool stat_may_fail;
};

/** Per-worker state: the output buffer, the match count and scratch space. */
struct ff_thread;

/** Outcome flags of one evaluation, and what is known of the entry. */
struct ff_result {
    bool prune; /**< -prune was evaluated true on a directory */
    bool quit;  /**< -quit was evaluated */
    /** The entry's stat failed: as in find, every test that needs metadata is false. */
    bool no_stat;
    /** ... and its type and inode are unknown too (a directory, or a link followed with -L:
     *  find stats those itself): -type, -inum, %y, %i are false. */
    bool no_type;
    /** The failed stat's negative code, until it is reported: find reports it once, when a
     *  test first needs the stat (0: nothing to report). */
    int unreported;
    bool stat_tried; /**< a test made the stat the walk did not (FF_NEED_STAT) */
};

/** Messages on stderr and the run's outcome (frdfind_msg.c): any thread. */
struct ff_msgs {
    atomic_bool failed;        /**< an error was reported: the exit status is 1 */
    atomic_bool stderr_failed; /**< a write to stderr failed (see ff_stderr_failed()) */
    /** The last write to stdout failed, and no message went out since: its lines were still
     *  pending when the message came (see ff_out_unflushed_failure()). */
    atomic_bool stdout_unflushed;
};

struct ff_out;
struct ff_execs;
struct ff_files;
struct ff_ls;
struct ff_colors;
struct ff_owners;
struct ff_mounts;
struct ff_matcher;

/**
 * One run of frdfind: the command line as parsed, and the state of each module that keeps
 * any (each owns its own: only its file touches it), made on the main thread before the
 * walk and freed after it. Nothing of a run lives in a file-scope variable, so that a
 * process can make several runs (the fuzz target makes one per input) and each starts clean.
 */
struct ff_ctx {
    struct ff_options opts;   /**< the command line (frdfind_parse.c) */
    struct ff_msgs msgs;      /**< messages and exit status (frdfind_msg.c) */
    struct ff_out *out;       /**< output buffers (frdfind_out.c): ff_out_init() */
    struct ff_execs *execs;   /**< the commands of -exec and its kin, or NULL (frdfind_exec.c) */
    struct ff_files *files;   /**< the output files, or NULL (frdfind_file.c) */
    struct ff_ls *ls;         /**< -ls's columns, or NULL without -ls, -fls (frdfind_file.c) */
    struct ff_colors *colors; /**< -color's LS_COLORS, or NULL (frdfind_color.c) */
    struct ff_owners *owners; /**< names by user and group id (frdfind_owner.c) */
    struct ff_mounts *mounts; /**< the mount table, read on first use (frdfind_pred.c) */
    struct ff_matcher *match; /**< fnmatch in the locale, or NULL (frdfind_match.c) */
    unsigned std_closed;      /**< bit fd for each of 0-2 closed at start (frdfind_stdfd.c) */
};

/**
 * Sets up a run: no option given, nothing failed; messages can be printed from here on.
 * Makes the states every run has (allocations only: no file is opened).
 * @return 0, or -1 when out of memory (ctx can still print and be freed).
 */
int ff_ctx_init(struct ff_ctx *ctx);

/** Frees everything of the run (after ff_exec_finish_all() and ff_file_close_all()). */
void ff_ctx_free(struct ff_ctx *ctx);

/**
 * One evaluation of the expression on one entry: what every test and action is given.
 * The caller fills ctx, we, thr, stat_on_demand and res (what is known of the entry, see
 * struct ff_result); the evaluation adds -prune and -quit's outcomes to res.
 */
struct ff_eval {
    struct ff_ctx *ctx;              /**< the run */
    const struct frd_walk_entry *we; /**< the entry as the walker gives it */
    struct ff_thread *thr;           /**< the calling thread's state (output goes to its buffer) */
    /** Tests that need a stat the walk did not make (FF_NEED_STAT) make it themselves,
     *  where it may fail (ff_options.stat_may_fail). */
    bool stat_on_demand;
    struct ff_result res; /**< what is known of the entry; -prune and -quit */
};

/* frdfind_parse.c */

/**
 * Parses argv (GNU find's syntax) into ctx->opts. Prints the error to stderr as find does.
 * @return 0 on success, 1 for a usage error (the exit status to use), or -1 when --help or
 * --version was printed (exit 0).
 */
int ff_parse(struct ff_ctx *ctx, int argc, char **argv);

/** Frees what ff_parse() allocated (ff_ctx_free() calls it). */
void ff_options_free(struct ff_options *opts);

/** @return the run being parsed. */
struct ff_ctx *ff_parser_ctx(struct ff_parser *fp);

/** @return the primary's argument, or NULL after find's "missing argument" error. */
const char *ff_parser_arg(struct ff_parser *fp, const char *primary);

/** @return the next argument, not taken, or NULL at the end of the command line. */
const char *ff_parser_peek(struct ff_parser *fp);

/** Reports a parse error (the first one only) and fails the parse. */
void ff_parser_fail(struct ff_parser *fp, const char *msg);

/** Reports find's error for a file named on the command line that cannot be stat'ed
 *  ("'path': strerror(errno)") as a parse error. */
void ff_parser_fail_stat(struct ff_parser *fp, const char *path);

/**
 * Stats a file named in the expression (-newer's, -samefile's) as -H/-L say at this point of
 * the line, as find does: without them the name itself (a link is not followed); with
 * them its target, or the link itself when the target is missing (ENOENT, ENOTDIR).
 * @return 0, or -1 with errno set.
 */
int ff_parser_stat(struct ff_parser *fp, const char *path, struct stat *st);

/** @return a new zeroed node of that kind, or NULL (out of memory, reported). */
struct ff_expr *ff_parser_node(struct ff_parser *fp, enum ff_kind kind);

/** @return the options being parsed. */
struct ff_options *ff_parser_opts(struct ff_parser *fp);

/* frdfind_pred.c */

/**
 * Parses `tok` (already taken) if it is one of frdfind_pred.c's or frdfind_time.c's
 * primaries or options.
 * @param handled set to whether tok was theirs.
 * @return the node (FF_PRED, or FF_TRUE for an option); NULL with *handled false for a token
 * that is not theirs, NULL with *handled true after an error was reported.
 */
struct ff_expr *ff_pred_parse(struct ff_parser *fp, const char *tok, bool *handled);

/**
 * The leading options of frdfind_pred.c: -D DEBUGOPTS and -O LEVEL, accepted as find
 * accepts them (and ignored). @return the arguments taken (0: `arg` is not one of them), or
 * -1 after an error was reported.
 */
int ff_pred_leading(struct ff_parser *fp, const char *arg, const char *next);

/**
 * -files0-from: replaces opts->paths with the NUL-separated names read from the file, after
 * the whole command line is parsed. An empty name stays in the list, for the walk to report
 * in its turn with ff_files0_report_empty() (find reads the list as it walks, so its message
 * comes after the output of the names before it).
 * @param paths_given whether paths were also given (find's error).
 * @return 0, or 1 after an error was reported.
 */
int ff_pred_files0(struct ff_ctx *ctx, bool paths_given);

/**
 * Reports opts->paths[index], an empty name read by -files0-from, as find does:
 * "frdfind: 'FILE':LINE: invalid zero-length file name" (the run fails). Main thread.
 */
void ff_files0_report_empty(struct ff_ctx *ctx, size_t index);

/**
 * Reports the read error that ended -files0-from's list, if any, as find does after the
 * walks of the names read before it: "frdfind: 'FILE': read error: strerror" (the run
 * fails). Main thread.
 */
void ff_files0_report_read_error(struct ff_ctx *ctx);

/** -xtype (an FF_TYPE node made FF_PRED by the parser; expr->num: the -H/-L mode). */
bool ff_test_xtype(const struct ff_expr *expr, struct ff_eval *st);

/** Makes the run's mount table (read on first use). @return 0, or -1 (no memory). */
int ff_mounts_new(struct ff_ctx *ctx);

/** Frees the mount table. */
void ff_mounts_free(struct ff_ctx *ctx);

/**
 * The file system type find names for a device (-fstype, %F): that of its first entry in
 * the mount table (read once, thread-safe), or "unknown". @return a string valid until
 * ff_mounts_free().
 */
const char *ff_fstype_name(struct ff_ctx *ctx, uint64_t dev);

/** The directory to reach an entry from: its parent's descriptor, or for a root AT_FDCWD. */
int ff_entry_dir(const struct frd_walk_entry *we);

/* frdfind_time.c */

/** As ff_pred_parse(), for the time primaries (-atime ... -newerXY, -daystart). */
struct ff_expr *ff_time_parse(struct ff_parser *fp, const char *tok, bool *handled);

/* frdfind_date.c */

/**
 * Reads a date as GNU find's -newerXt does (gnulib's parse_datetime(): "2024-03-05 10:00",
 * "@1700000000.5", "yesterday", "2 days ago", "next friday", "19911213 20:31:00-0330",
 * TZ="Europe/Paris" first...), relative items counting from `now`, in the local zone
 * (TZ). Main thread only (a TZ="..." date sets TZ for its reading).
 * @return whether text is a date (*out set).
 */
bool ff_parse_date(const char *text, struct timespec now, struct timespec *out);

/* frdfind_owner.c */

/** Makes the run's caches of user and group names. @return 0, or -1 (no memory). */
int ff_owners_new(struct ff_ctx *ctx);

/** Frees the caches and the names in them. */
void ff_owners_free(struct ff_ctx *ctx);

/**
 * The user (group) name of an id, looked up once per id and cached for the whole run.
 * Thread-safe for distinct `worker` indexes (frd_walk_entry.worker; 0 outside the walk).
 * @return the name (valid until ff_owners_free()), or NULL when the id has none.
 */
const char *ff_user_name(struct ff_ctx *ctx, uint32_t uid, unsigned worker);

/** See ff_user_name(). */
const char *ff_group_name(struct ff_ctx *ctx, uint32_t gid, unsigned worker);

/* frdfind_stdfd.c */

/**
 * Takes each of descriptors 0, 1, 2 that is closed with /dev/null, opened so that reads
 * (0) or writes (1, 2) on it fail with EBADF as on the closed one, close-on-exec. Call it
 * first in main(), before anything is opened.
 * @param closed receives bit fd for each descriptor fd taken (ff_ctx.std_closed).
 * @return 0, or -1 (errno set) when /dev/null could not be opened.
 */
int ff_std_reserve(unsigned *closed);

/** @return whether descriptor fd (0, 1 or 2) was closed at start (see ff_std_reserve()). */
bool ff_std_was_closed(const struct ff_ctx *ctx, int fd);

/* frdfind_exclude.c */

/**
 * -exclude, after the parse: puts the test that leaves out an excluded root in front of
 * opts->expr. @return 0, or 1 after an error (out of memory) was reported.
 */
int ff_exclude_finish(struct ff_ctx *ctx,
                      struct ff_expr *(*and_node)(struct ff_ctx *ctx, struct ff_expr *lhs,
                                                  struct ff_expr *rhs));

/**
 * The walk's children hook under -exclude: drops every entry EXPR matches (never stat'ed
 * unless EXPR reads metadata, never visited, never entered), and all the entries of an
 * excluded root. Runs on the listing worker (see frd_walk_children_fn).
 */
void ff_exclude_children(struct ff_ctx *ctx, const struct frd_walk_entry *dir,
                         struct frd_walk_children *kids);

/* frdfind_match.c */

/** @return whether the len bytes of s are all ASCII. */
bool ff_is_ascii(const char *s, size_t len);

/**
 * Makes the run's matcher for the locale set now, unless it has one: the parse of a
 * pattern test calls it (main thread, after setlocale()). @return 0, or 1 (reported).
 */
int ff_matcher_need(struct ff_ctx *ctx);

/** Frees the matcher. */
void ff_matcher_free(struct ff_ctx *ctx);

/**
 * fnmatch(pattern, s, flags) == 0 in the locale (characters in UTF-8, bytes in C), with the
 * C locale's byte matcher when pattern (pattern_ascii) and s are both ASCII. Thread-safe.
 * The run has a matcher (ff_matcher_need()).
 */
bool ff_fnmatch(const struct ff_ctx *ctx, const char *pattern, bool pattern_ascii, const char *s,
                size_t len, int flags);

/* frdfind_eval.c */

/** @return enum ff_need bits for the expression. */
unsigned ff_expr_needs(const struct ff_expr *expr);

/**
 * Does evaluating expr reach entries through the walk's descriptor of their parent
 * (-exec, -execdir, -ok, -delete, -empty, -ls, FF_NEED_DIR_FD tests, and with
 * stat_may_fail the stats made on demand for FF_NEED_STAT)? Without it the walk is asked
 * for no such descriptor (FRD_WALK_NO_PARENT_FD).
 */
bool ff_expr_uses_dir_fd(const struct ff_expr *expr, bool stat_may_fail);

/**
 * Evaluates the expression on one entry (see struct ff_eval).
 * @return the value of the expression.
 */
bool ff_eval(const struct ff_expr *expr, struct ff_eval *st);

/**
 * A root's base name as GNU find's base_name() makes it (-printf %f, -execdir's {}): its
 * last component, trailing slashes collapsed to one; the last "/" of a path of slashes only.
 * @return its length (0 for an empty path); *start: where it begins in path.
 */
size_t ff_root_base(const char *path, size_t len, size_t *start);

/**
 * The base name of an entry as -name sees it: the entry's name, or for a root its last
 * component without trailing slashes ("/" for a path of slashes only).
 * @return a NUL-terminated string (in the thread's scratch space for a root), or NULL.
 */
const char *ff_base_name(const struct frd_walk_entry *we, struct ff_thread *thr, size_t *len);

/* frdfind_printf.c */

/**
 * Compiles a -printf format.
 * @param dest the output's name in find's write errors ("standard output", "standard
 * error" or the file's name; kept, not copied).
 * @param out receives the compiled format.
 * @param needs receives enum ff_need bits the directives require.
 * @return 0, or 1 after printing an error naming the unsupported directive.
 */
int ff_format_compile(struct ff_ctx *ctx, const char *text, const char *dest,
                      struct ff_format **out, unsigned *needs);

/**
 * Writes the symbolic mode as ls -l, -ls and %M print it ("drwxr-xr-x", '?' for an unknown
 * type) into out, NUL-terminated. Any thread.
 */
void ff_mode_string(char out[11], enum frd_type type, uint32_t mode);

/**
 * Takes find's sign off a numeric argument: "+N" (more than), "-N" (less than), "N" (exactly).
 * @return the comparison; *s is advanced past the sign.
 */
enum ff_cmp ff_take_sign(const char **s);

/**
 * A number with find's sign, as find's get_num() reads it for -size, -inum, -links, -uid
 * and -gid: the sign, then gnulib's xstrtoumax (leading blanks and a '+' allowed, so "-+1"
 * is less than 1 and " 1" is 1; no '-', no overflow, nothing after the digits).
 * @return whether s is such a number (*cmp and *out set).
 */
bool ff_parse_number(const char *s, enum ff_cmp *cmp, uint64_t *out);

/**
 * An int as find's safe_atoi() reads it (-maxdepth, -mindepth, numeric -user and -group),
 * with its messages: "N: Numerical result out of range" past the int range, "Unexpected
 * suffix", "Expected an integer". @return false after the error was reported.
 */
bool ff_parser_int(struct ff_parser *fp, const char *s, int *out);

/** Frees a compiled format. */
void ff_format_free(struct ff_format *fmt);

/** Renders a format for one entry into the thread's output buffer. */
void ff_format_render(const struct ff_format *fmt, struct ff_eval *st);

/* frdfind_exec.c */

/** @return true if tok is -exec, -execdir, -ok or -okdir. */
bool ff_exec_is_primary(const char *tok);

/**
 * Parses the command of -exec and its kin from argv[*i] on (the primary itself already
 * taken), up to its ';', or its '{}' '+'. Prints find's message on an error.
 * @param out receives the command (freed by ff_exec_finish_all()).
 * @return 0, or 1 after an error was printed.
 */
int ff_exec_parse(struct ff_ctx *ctx, const char *primary, char **argv, int argc, int *i,
                  struct ff_exec **out);

/** Evaluates -exec and its kin on one entry. @return the value find gives it. */
bool ff_exec_eval(struct ff_exec *ex, struct ff_eval *st);

/**
 * -execdir ... +: gives a directory being visited (we->dir_state not NULL) its batches, which
 * its entries fill wherever they are visited; the walk's on_dir_state_free
 * (ff_exec_dir_done()) hands them over once the directory is done. Nothing without an
 * -execdir ... + or when the slot is taken. Any thread (the directory's visit).
 */
void ff_exec_dir_visit(struct ff_ctx *ctx, const struct frd_walk_entry *we);

/** @return true if a command is -execdir ... + (its directories need states). */
bool ff_exec_wants_dir_states(const struct ff_ctx *ctx);

/**
 * For the walk's on_dir_state_free: a directory is done; its batches still pending (state)
 * go on the ready list that ff_exec_run_ready() runs (others are freed). Any walk thread.
 */
void ff_exec_dir_done(struct ff_ctx *ctx, void *state);

/**
 * Runs the batches of the directories that are done, oldest first, after thr's pending
 * lines (thr may be NULL). Any thread, before an evaluation and after a walk.
 */
void ff_exec_run_ready(struct ff_ctx *ctx, struct ff_thread *thr);

/**
 * -s and -find-order with an -execdir ... + (ff_exec_wants_dir_states()): from now on the
 * batches run where find runs them (ff_exec_level()), a root's included. Before the walks;
 * then the walk calls ff_exec_level() and ff_exec_level_unvisited(), and only then.
 */
void ff_exec_levels_begin(struct ff_ctx *ctx);

/**
 * After ff_exec_levels_begin(), for each visit (leaving false) and each directory the walk
 * leaves (its post-order call: leaving true), before anything is evaluated: where the
 * depth changes from the last call's, and at each root, runs the batches pending (find runs
 * them whenever fts goes one level down or up). thr: the caller's output, or NULL. One
 * thread (the ordered walk's).
 */
void ff_exec_level(struct ff_ctx *ctx, const struct frd_walk_entry *we, bool leaving,
                   struct ff_thread *thr);

/**
 * After ff_exec_levels_begin(), for an entry the walk reports and does not visit (a
 * directory loop), before its message: find returns it at its depth, a change of level.
 */
void ff_exec_level_unvisited(struct ff_ctx *ctx, unsigned depth, struct ff_thread *thr);

/** After a walk: runs the batches of its directories still pending (the roots' wait for
 *  the next root's visit or ff_exec_finish_all()). */
void ff_exec_walk_end(struct ff_ctx *ctx, struct ff_thread *thr);

/**
 * Runs every '+' batch still pending (after the walk, from one thread), then frees every
 * command (ff_exec_free()).
 */
void ff_exec_finish_all(struct ff_ctx *ctx);

/** Frees the commands and their batches without running them (ff_ctx_free() calls it). */
void ff_exec_free(struct ff_ctx *ctx);

/* frdfind_delete.c */

/** -delete on one entry (in post-order), on thr (its failure: ff_out_before_error()).
 *  @return true if it was removed, false after its error was reported. */
bool ff_delete_eval(struct ff_eval *st);

/* frdfind_file.c */

/**
 * Opens (creates, truncates) the file an -fls/-fprint... names, once: a name given twice, or
 * two names of one file, share the stream. /dev/stdout and /dev/stderr are the streams.
 * @return 0, or 1 after find's message.
 */
int ff_file_open(struct ff_ctx *ctx, const char *name, struct ff_file **out);

/** Makes -ls's columns, unless the run has them (the parse of -ls, -fls). @return 0 or 1
 *  (reported). */
int ff_ls_need(struct ff_ctx *ctx);

/** -ls and -fls: the `ls -dils` line of the entry (file NULL: stdout). */
void ff_ls_eval(struct ff_file *file, struct ff_eval *st);

/** -fprint, -fprint0, -fprintf: the record, rendered in the thread's buffer, to the file. */
void ff_file_eval(const struct ff_expr *expr, struct ff_eval *st);

/** Flushes and closes every file, reporting write errors as find does (after the walk), and
 *  frees -ls's columns. */
void ff_file_close_all(struct ff_ctx *ctx);

/** Closes the files still open without a word, and frees -ls's columns (ff_ctx_free()). */
void ff_file_free(struct ff_ctx *ctx);

/* frdfind_color.c */

/** Reads LS_COLORS (bfs's defaults for what it leaves unset). @return 0, or -1 (no memory). */
int ff_color_init(struct ff_ctx *ctx);

/** Frees what ff_color_init() allocated. */
void ff_color_free(struct ff_ctx *ctx);

/** -print with -color: the colored path and a newline, as one record. */
void ff_color_print(struct ff_eval *st);

/* frdfind_out.c */

/**
 * Makes room for the states of `workers` worker indexes (call it before the walk).
 * @param one_writer whether every evaluation runs on one thread (an ordered walk, or one
 * worker): an error met during an evaluation then flushes the lines before it, even a
 * record half made, as find's error() flushes stdout (ff_out_before_error()).
 * @return 0, or -1 when out of memory.
 */
int ff_out_init(struct ff_ctx *ctx, unsigned workers, bool one_writer);

/**
 * Called by an evaluation on thr before it reports an error: with one writer, writes out
 * what thr holds, so that the message follows on stderr what came before it on stdout, as
 * in find (and a record half made for a file to that file: see ff_out_file_begin()). With
 * several writers it does nothing (a half-made record must not go out between another
 * thread's lines; the walk's order is not find's then anyway). Owner only.
 */
void ff_out_before_error(struct ff_thread *thr);

/**
 * @return the state of worker index `worker` (frd_walk_entry.worker; main() uses 0 after
 * the walk), made on first use. NULL when out of memory or worker is out of range.
 */
struct ff_thread *ff_thread_get(struct ff_ctx *ctx, unsigned worker);

/** @return the run thr belongs to. */
struct ff_ctx *ff_thread_ctx(struct ff_thread *thr);

/** Appends bytes to the thread's pending record. */
void ff_out_append(struct ff_thread *thr, const void *data, size_t len);

/** @return whether standard output is a terminal (set by ff_out_init()). */
bool ff_out_stdout_is_tty(const struct ff_ctx *ctx);

/** Says whether the record thr makes next goes to a terminal: its names are then written
 *  as GNU find writes them there (ff_qmark()). Owner thread only. */
void ff_out_to_tty(struct ff_thread *thr, bool to_tty);

/**
 * A name (path, base name, link target) as GNU find prints it to a terminal (its
 * qmark_chars(), which -print, -fprint and -printf's %p %P %f %h %H %l go through there):
 * each character the locale cannot print (wcwidth() < 0: control characters, DEL) becomes
 * one '?', each invalid byte one '?', an incomplete character at the end one '?'. In a
 * single-byte locale, each byte that is not isprint(). So a name cannot move the cursor or
 * send escape sequences to the terminal. Writes to dst (room for len bytes).
 * @return the length written, at most len.
 */
size_t ff_qmark(char *dst, const char *s, size_t len);

/**
 * s as the record being made shows it: itself, or its ff_qmark() form (in a buffer of thr's,
 * valid until the next call) when the record goes to a terminal; *len is updated.
 * @return the text to write (empty if no memory: the output is marked as lost).
 */
const char *ff_out_name(struct ff_thread *thr, const char *s, size_t *len);

/** Appends name s through ff_out_name(). */
void ff_out_append_name(struct ff_thread *thr, const char *s, size_t len);

/** Appends one byte. */
void ff_out_byte(struct ff_thread *thr, char c);

/** Appends n copies of byte c (a -printf width's padding: any size memory allows). */
void ff_out_fill(struct ff_thread *thr, char c, size_t n);

/** Ends a record: the buffer may now be flushed (whole records only reach stdout). */
void ff_out_end_record(struct ff_thread *thr);

/** Counts one -count match on the thread. */
void ff_out_count(struct ff_thread *thr);

/**
 * Flushes every thread's buffer (call after the walk, from one thread).
 * @return the total of -count matches over all threads.
 */
uint64_t ff_out_flush_all(struct ff_ctx *ctx);

/**
 * Locks / unlocks the thread's buffer against ff_out_flush_each(): the owner holds it while
 * it writes records, when another thread may flush them (-depth with several workers).
 */
void ff_out_lock(struct ff_thread *thr);

/** See ff_out_lock(). */
void ff_out_unlock(struct ff_thread *thr);

/**
 * Flushes every thread's buffer during the walk, each under its lock (see ff_out_lock()).
 * Every state must exist before the walk (ff_thread_get() for each index), so no thread
 * adds one meanwhile.
 */
void ff_out_flush_each(struct ff_ctx *ctx);

/**
 * Flushes the lines the worker's state holds (complete records), under its lock: called on
 * that worker between two evaluations, before an error message, so that the message comes
 * after the lines printed before it, as find's do (its error() flushes stdout first).
 */
void ff_out_flush_worker(struct ff_ctx *ctx, unsigned worker);

/** Frees every thread's state (after ff_out_flush_all()). */
void ff_out_free_all(struct ff_ctx *ctx);

/**
 * Takes the output lock for a command's run: writes the thread's pending records first, so
 * a command's output follows the lines printed before it, and nothing else reaches stdout
 * until ff_out_exclusive_end(). thr may be NULL (no pending records).
 */
void ff_out_exclusive_begin(struct ff_ctx *ctx, struct ff_thread *thr);

/** See ff_out_exclusive_begin(). */
void ff_out_exclusive_end(struct ff_ctx *ctx);

/**
 * The record thr makes next goes to the stream fp (an output file, or stderr), not stdout:
 * it is made in thr's buffer after the lines pending there and written to fp whole by
 * ff_out_file_end(). An error before then (ff_out_before_error()) writes the part made so
 * far to fp, as find's printf had. Owner thread only.
 */
void ff_out_file_begin(struct ff_thread *thr, FILE *fp);

/** Writes the record begun by ff_out_file_begin() to its stream and takes it off thr. */
void ff_out_file_end(struct ff_thread *thr);

/** @return true once stdout's reader went away (EPIPE): stop the walk. Other write errors
 *  (a full disk, a closed descriptor) do not stop it, as they do not stop find. */
bool ff_out_broken(const struct ff_ctx *ctx);

/** @return 0 if every write to stdout succeeded, else the errno of the first failure. */
int ff_out_write_error(const struct ff_ctx *ctx);

/** @return a scratch buffer of at least `size` bytes owned by the thread, or NULL. */
char *ff_thread_scratch(struct ff_thread *thr, size_t size);

/** @return the thread's lister and list, for -empty (made on first use), or -1. */
int ff_thread_lister(struct ff_thread *thr, struct frd_lister **lister, struct frd_list **list);

/* frdfind_msg.c */

/**
 * Writes s quoted as GNU find quotes names and arguments in its messages (gnulib's locale
 * style: 'x' in the C locale, \u2018x\u2019 in a UTF-8 one, C escapes inside; gnuquote.h) to
 * buf as a string, cut to cap - 1 bytes (cap > 0). Thread-safe; errno kept. @return buf.
 */
const char *ff_quoted(char *buf, size_t cap, const char *s);

/**
 * before, s quoted as ff_quoted() quotes it (whole, however long), then after: a message
 * part with a name in it. Thread-safe; errno kept.
 * @return a malloc'd string the caller frees, or NULL when out of memory.
 */
char *ff_quoted_in(const char *before, const char *s, const char *after);

/** "frdfind: BEFORE'path': strerror(err)" on stderr (find's "cannot delete 'x': ..."); the
 *  run fails. Any thread. */
void ff_error_quoted(struct ff_ctx *ctx, const char *before, const char *path, int err);

/**
 * Prints "frdfind: 'path': message" to stderr (path quoted as ff_quoted() quotes it) in one
 * write, and marks the run as failed.
 */
void ff_error_path(struct ff_ctx *ctx, const char *path, const char *message);

/** Prints "frdfind: " + text + "\n" to stderr in one write and marks the run as failed. */
void ff_error(struct ff_ctx *ctx, const char *text);

/** Prints "frdfind: " + text + "\n" to stderr in one write without failing the run. */
void ff_note(struct ff_ctx *ctx, const char *text);

/** Prints "frdfind: " + the n bytes of text (a NUL among them included, as find writes it)
 *  + "\n" to stderr in one write, without failing the run: find's warnings. */
void ff_warning(struct ff_ctx *ctx, const char *text, size_t n);

/** "frdfind: 'path': message" as ff_error_path() prints it, without failing the run (find's
 *  exit status stays as it was). Any thread. */
void ff_note_path(struct ff_ctx *ctx, const char *path, const char *message);

/** @return true once any error was reported (exit status 1). */
bool ff_failed(struct ff_ctx *ctx);

/** Writes the len bytes to stderr (whole, retrying short writes), noting a failure for
 *  ff_stderr_failed(). Any thread. */
void ff_write_stderr(struct ff_ctx *ctx, const void *data, size_t len);

/**
 * @return whether a write to stderr failed (a message, an -ok question, -fprint
 * /dev/stderr): find's exit status is then 1, as gnulib's close_stdout() makes it, though
 * nothing else failed. Flushes stdio's stderr first. Main thread, at the end.
 */
bool ff_stderr_failed(struct ff_ctx *ctx);

/** Marks the run as failed without printing. */
void ff_set_failed(struct ff_ctx *ctx);

/**
 * Writes the len bytes to fd whole, retrying on EINTR and short writes.
 * @return 0, or the errno of the write that failed.
 */
int ff_write_full(int fd, const void *data, size_t len);

/** A write to stdout failed (frdfind_out.c): see ff_out_unflushed_failure(). */
void ff_msg_stdout_failed(struct ff_ctx *ctx);

/**
 * @return whether the last write to stdout failed after the last message on stderr: the
 * lines that were still pending at the end could not be written. find names the failure
 * ("'standard output': No space left on device") only then: its error() flushes stdout
 * before each message, so a failure before the last message left nothing pending at exit.
 */
bool ff_out_unflushed_failure(struct ff_ctx *ctx);

#endif // FRD_EXAMPLES_FRDFIND_H
