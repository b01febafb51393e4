// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's expression tree and its evaluation (frdfind_eval.c): the nodes, what each
 * reads of an entry, the state an evaluation carries, the operators, -true and -false.
 *
 * Every node is evaluated by its own function (struct ff_expr.eval, from its row of the
 * table of primaries, frdfind_table.c, or one its parse picked): one dispatch path, no
 * switch on a kind. Before it, ff_eval() applies find's rule for an entry whose stat
 * failed, from the node's needs alone.
 */
#ifndef FRD_EXAMPLES_FRDFIND_EVAL_H
#define FRD_EXAMPLES_FRDFIND_EVAL_H

#include <frd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ff_ctx;
struct ff_exec;
struct ff_file;
struct ff_format;
struct ff_primary;
struct ff_thread;
struct ff_expr;
struct ff_eval;

/** A numeric comparison as find spells it: +N, -N or N. */
enum ff_cmp {
    FF_CMP_LT = -1, /**< -N */
    FF_CMP_EQ = 0,  /**< N */
    FF_CMP_GT = 1,  /**< +N */
};

/**
 * What a node needs to know about each entry: enum frd_field bits (the fields the walk asks
 * the kernel for, nothing more), plus the bits below, which are not fields.
 */
enum ff_need {
    FF_NEED_LINKSTAT = 1 << 30, /**< %Y: a stat of each link's target */
    /** A test find answers from its stat of the entry (-xtype, -lname, -prune, %l, %Y)
     *  though it reads no field: where the walk did not stat the entry, the first such test
     *  evaluated on it does (see ff_eval()), and is false if that fails. */
    FF_NEED_STAT = 1 << 29,
    /** The node reaches the entry through the walk's descriptor of its parent (readlinkat,
     *  faccessat, unlinkat, a command's directory...): -lname, -xtype, -readable..., -empty,
     *  -ls, -delete, -exec and its kin, %l, %Y, %Z. */
    FF_NEED_DIR_FD = 1 << 28,
};

/** The fields that take a stat: any of them asked means entries whose stat failed are
 *  left out, as find does (type comes from the listing, file id from the record). */
#define FF_STAT_FIELDS (FRD_FIELDS_ALL & ~(unsigned)(FRD_FIELD_TYPE | FRD_FIELD_FILE_ID))

/**
 * Evaluates one node on the entry of st. Called on any worker: what the node holds is
 * read-only during the walk, or locks itself.
 * @return the node's value.
 */
typedef bool ff_eval_fn(const struct ff_expr *expr, struct ff_eval *st);

/** One node of the expression tree: a primary and its arguments, or an operator. */
struct ff_expr {
    ff_eval_fn *eval;              /**< evaluates the node */
    const struct ff_primary *prim; /**< its row of the table, or an operator's (ff_op_and...) */
    struct ff_expr *lhs;           /**< operand of ! and left operand of binary operators */
    struct ff_expr *rhs;           /**< right operand of binary operators */
    /** enum frd_field and enum ff_need bits the node itself reads (its row's, and what its
     *  arguments add: a -printf format's directives, -newerXY's X). */
    unsigned needs;
    /** -name, -path, -lname, -fstype: the pattern; for -name's fast paths, the literal. */
    const char *pattern;
    size_t literal_len;       /**< -name: length of the literal part of the pattern */
    int fnm_flags;            /**< FNM_CASEFOLD for -iname, -ipath and -ilname */
    bool ascii;               /**< the pattern is ASCII only (see ff_fnmatch()) */
    unsigned types;           /**< -type, -xtype: bit (1u << enum frd_type) per type */
    enum ff_cmp cmp;          /**< -size, -inum, -links, -uid, -gid, time tests */
    uint64_t num;             /**< -size (in units), -inum, -links, -uid, -gid... */
    uint64_t unit;            /**< -size: bytes per unit; -samefile: the device */
    int64_t ref_ns;           /**< time tests: reference instant, ns since epoch */
    int64_t window_ns;        /**< -mtime N, -mmin N: width of the window after ref_ns */
    char sep;                 /**< -print, -fprint: '\n'; -print0, -fprint0: '\0' */
    struct ff_format *format; /**< -printf, -fprintf */
    struct ff_exec *exec;     /**< -exec and its kin (the run's, see frdfind_exec.c) */
    struct ff_file *file;     /**< -fls, -fprint, -fprint0, -fprintf (shared, see ff_file_open) */
    void *data;               /**< the node's own data (-perm's modes, -regex's patterns...) */
    void (*free_data)(void *data); /**< frees data (NULL: nothing to free) */
};

/** What is known of the entry being evaluated, and the outcome of -prune and -quit. */
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

/**
 * One evaluation of the expression on one entry: what every test and action is given.
 * The caller fills ctx, we, thr, stat_on_demand and res (what is known of the entry); the
 * evaluation adds -prune and -quit's outcomes to res.
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

/**
 * find on an entry whose stat failed (st->res.no_stat), and the stat a test needs that the
 * walk did not make (FF_NEED_STAT, made here once per entry where it may fail): a node
 * that needs the stat is false, and the error is reported the first time one needs it.
 * @return whether expr cannot be evaluated on the entry (it is then false).
 */
bool ff_eval_unknowable(const struct ff_expr *expr, struct ff_eval *st);

/** Evaluates expr on the entry of st (see struct ff_eval). @return its value. */
static inline bool ff_eval(const struct ff_expr *expr, struct ff_eval *st)
{
    if ((st->res.no_stat || (expr->needs & FF_NEED_STAT) != 0) && ff_eval_unknowable(expr, st)) {
        return false;
    }
    return expr->eval(expr, st);
}

/** @return a new node of the primary (its eval and needs), zeroed otherwise, or NULL. */
struct ff_expr *ff_expr_new(const struct ff_primary *prim);

/** Frees a tree (NULL: nothing). */
void ff_expr_free(struct ff_expr *expr);

/** @return the enum frd_field and enum ff_need bits of every node of the tree. */
unsigned ff_expr_needs(const struct ff_expr *expr);

/** @return whether the tree holds an action (-print, -exec, -prune...: FF_PRIM_ACTION and
 *  FF_PRIM_CONTROL). */
bool ff_expr_has_actions(const struct ff_expr *expr);

/**
 * Does evaluating expr reach entries through the walk's descriptor of their parent
 * (FF_NEED_DIR_FD, and with stat_may_fail the stats made on demand for FF_NEED_STAT)?
 * Without it the walk is asked for no such descriptor (FRD_WALK_NO_PARENT_FD).
 */
bool ff_expr_uses_dir_fd(const struct ff_expr *expr, bool stat_may_fail);

/** The operators (-a, -o, ',', !): their rows' evals. */
ff_eval_fn ff_eval_and;
ff_eval_fn ff_eval_or;
ff_eval_fn ff_eval_comma;
ff_eval_fn ff_eval_not;

/** -true, and every global option where it stands. */
ff_eval_fn ff_eval_true;

/** -false. */
ff_eval_fn ff_eval_false;

/** @return the comparison of find's +N, -N, N: value above, below or equal to want. */
static inline bool ff_compare(enum ff_cmp cmp, uint64_t value, uint64_t want)
{
    return cmp == FF_CMP_LT ? value < want : cmp == FF_CMP_GT ? value > want : value == want;
}

/** The directory to reach an entry from: its parent's descriptor, or for a root AT_FDCWD. */
int ff_entry_dir(const struct frd_walk_entry *we);

/** The name to reach an entry by from ff_entry_dir(): its name, a root's path as given. */
const char *ff_entry_name(const struct frd_walk_entry *we);

#endif // FRD_EXAMPLES_FRDFIND_EVAL_H
