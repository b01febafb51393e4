// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -exec, -execdir, -ok and -okdir, as GNU find 4.9 runs them (a command is started
 * and waited for by frdfind_spawn.c).
 *
 * `;`: one command per entry, every "{}" inside every word replaced by the path (-execdir:
 * by "./NAME", run in the entry's directory); true if it exits 0. `+`: the paths are
 * gathered into batches sized as find's buildcmd sizes them (all the words with their NULs
 * within min(128 KiB, ARG_MAX - environment - 2048) bytes), always true; a batch that
 * fails makes frdfind exit 1. -execdir's batches gather the entries of one directory,
 * whichever worker visits them (struct dir_batches), and run when full and when the walk is
 * done with the directory.
 *
 * Commands are started with posix_spawnp() (and fork() only for -execdir where the C library
 * cannot change a spawned child's directory). Commands never run concurrently: each holds
 * the output lock (ff_out_exclusive_begin()) from fork to wait, after writing its thread's
 * pending lines, so its output follows the lines the same thread printed before it and no
 * other line comes in the middle. The
 * directory of -execdir is reached with fchdir() on the walker's parent descriptor in the
 * child, never by resolving the path again.
 *
 * The run's commands and batches live in its struct ff_execs (ctx->execs), made by the first
 * -exec parsed; a run without one has none, and the walk's hooks do nothing.
 */
#define _GNU_SOURCE // environ

#include "frdfind_exec.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"
#include "frdfind_printf.h"
#include "frdfind_spawn.h"
#include "grow.h"
#include "toolname.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/** One batch of '+' arguments. */
struct batch {
    char *chars;   /**< the arguments, NUL-terminated, one after the other */
    size_t nchars; /**< bytes used in chars */
    size_t cap;    /**< bytes allocated */
    size_t nargs;  /**< arguments in chars */
    int dir_fd;    /**< -execdir: the directory the command runs in, else -1 */
};

struct ff_exec {
    struct ff_ctx *ctx;   /**< the run */
    const char *primary;  /**< "-exec", "-execdir", "-ok" or "-okdir" */
    char **words;         /**< the command's words as written (argv pointers) */
    int nwords;           /**< words before ';' (or before "{}" "+") */
    bool in_dir;          /**< -execdir, -okdir */
    bool plus;            /**< '+': batches */
    bool ask;             /**< -ok, -okdir */
    unsigned slot;        /**< '+' of -execdir: its batch in each struct dir_batches */
    size_t fixed_chars;   /**< '+': bytes of the words with their NULs */
    pthread_mutex_t lock; /**< '+' of -exec: guards the shared batch */
    struct batch shared;  /**< '+' of -exec */
    struct ff_exec *next; /**< the registry */
};

/**
 * The pending '+' batches of -execdir for one directory: the walker's per-directory state
 * (frd_walk_entry.dir_state), so that a directory's entries share their batches whichever
 * worker visits them (the walker splits a big directory's entries across workers). A batch
 * holds a duplicate of the directory's descriptor from its first argument until it runs:
 * at most one per directory still being walked, and one per finished directory on the
 * ready list. Past fd_soft_cap of them (a deep tree), a directory that needs one first runs
 * and closes the batches of its nearest ancestor holding one, as find runs a directory's
 * batch when it goes down into a subdirectory.
 */
struct dir_batches {
    pthread_mutex_t lock;       /**< guards the batches: entries of one directory may be
                                 *  visited on several workers at once; taken before an
                                 *  ancestor's, never after */
    struct dir_batches *parent; /**< the parent directory's (it outlives this one), or NULL */
    struct dir_batches *next;   /**< the ready list */
    struct batch batches[];     /**< one per -execdir ... + (ff_exec.slot) */
};

TOOL_RESERVE_DEFINE(execs_reserve, struct ff_exec *, 4)

/** The run's commands and the batches of -execdir ... + in flight. */
struct ff_execs {
    /** Every command parsed, for ff_exec_finish_all(). */
    struct ff_exec *registry;
    /** The -execdir ... + commands in command-line order (ff_exec.slot indexes it), and how
     *  many: the batches of each struct dir_batches. */
    struct ff_exec **dir_plus;
    unsigned ndir_plus;
    size_t dir_plus_cap; /**< room in dir_plus */
    /** Directories finished with batches pending, oldest first (see ff_exec_run_ready()). */
    pthread_mutex_t ready_lock;
    struct dir_batches *ready_head;
    struct dir_batches *ready_tail;
    atomic_bool ready_any;
    /** -s and -find-order (ff_exec_levels_begin(), then ff_exec_level()): the depth of the
     *  walk's last event (a visit, or a directory left), -1 at a root. */
    int last_level;
    /** -s and -find-order: the roots' batches (a root runs in the directory above it),
     *  pending until the walk's next change of level, as find's. */
    struct dir_batches *root_batches;
    /** -s and -find-order: the batches of the directory of the entry visited last (NULL for
     *  a root's, or once the walk left a directory): what going a level down from there
     *  runs. */
    struct dir_batches *last_dir;
    /** Descriptors the pending batches hold, and how many before they are given back early. */
    atomic_uint held_fds;
    unsigned fd_soft_cap;
    /** find's buildcmd limits, set once at parse. */
    size_t arg_max;
    size_t max_args;
};

/** find's limits: min(128 KiB, ARG_MAX - environment - 2048), at least 4096 bytes. */
static void set_limits(struct ff_execs *x)
{
    long sys = sysconf(_SC_ARG_MAX);
    size_t posix_max = sys > 0 ? (size_t)sys : 131072 + 4096;
    size_t env = 0;
    for (char **e = environ; *e != NULL; e++) {
        env += strlen(*e) + 1;
    }
    posix_max = env + 2048 < posix_max ? posix_max - env - 2048 : 4096;
    x->arg_max = posix_max < 131072 ? posix_max : 131072;
    if (x->arg_max < 4096) {
        x->arg_max = 4096;
    }
    x->max_args = posix_max / sizeof(char *) - 2;
    // The walk takes up to half of the descriptors (frd_walk_options.fd_budget): a quarter
    // for the batches leaves the rest to -fprint's files and the commands.
    struct rlimit rl;
    x->fd_soft_cap = 256;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        x->fd_soft_cap = rl.rlim_cur / 4 < 4096 ? (unsigned)(rl.rlim_cur / 4) : 4096;
    }
    if (x->fd_soft_cap < 4) {
        x->fd_soft_cap = 4;
    }
}

/** @return the run's state, made on first use (the parse, main thread), or NULL. */
static struct ff_execs *execs_get(struct ff_ctx *ctx)
{
    if (ctx->execs == NULL) {
        struct ff_execs *x = calloc(1, sizeof(*x));
        if (x == NULL) {
            return NULL;
        }
        pthread_mutex_init(&x->ready_lock, NULL);
        atomic_init(&x->ready_any, false);
        atomic_init(&x->held_fds, 0);
        x->last_level = -1;
        set_limits(x);
        ctx->execs = x;
    }
    return ctx->execs;
}

/** find refuses -execdir and -okdir when $PATH has a relative entry (or an empty one). */
static int check_path(struct ff_ctx *ctx, const char *primary)
{
    const char *path = getenv("PATH");
    if (path == NULL) {
        return 0;
    }
    const char *s = path;
    for (;;) {
        const char *end = strchr(s, ':');
        size_t len = end != NULL ? (size_t)(end - s) : strlen(s);
        char msg[1400];
        if (len == 0 || (len == 1 && s[0] == '.')) {
            snprintf(msg, sizeof(msg),
                     "The current directory is included in the PATH environment variable, "
                     "which is insecure in combination with the %s action of find.  Please "
                     "remove the current directory from your $PATH (that is, remove \".\", "
                     "doubled colons, or leading or trailing colons)",
                     primary);
            ff_error(ctx, msg);
            return 1;
        }
        if (s[0] != '/') {
            char entry[256];
            snprintf(entry, sizeof(entry), "%.*s", (int)len, s);
            char quoted[1040];
            ff_quoted(quoted, sizeof(quoted), entry);
            snprintf(msg, sizeof(msg),
                     "The relative path %s is included in the PATH environment variable, which "
                     "is insecure in combination with the %s action of find.  Please remove "
                     "that entry from $PATH",
                     quoted, primary);
            ff_error(ctx, msg);
            return 1;
        }
        if (end == NULL) {
            return 0;
        }
        s = end + 1;
    }
}

/**
 * Where the command of -exec and its kin ends in argv (the words after the primary): at
 * its ';', or (not -ok's) at a '+' after a word with "{}" ("a{}b +" ends it too, for the
 * error of check_plus()). Prints find's message when there is no command.
 * @return the index of the ';' or '+' (*plus says which), or -1.
 */
static int command_end(struct ff_ctx *ctx, const char *primary, char **argv, int argc, bool ask,
                       bool *plus)
{
    char msg[512];
    int end = -1;
    *plus = false;
    for (int j = 0; j < argc; j++) {
        if (strcmp(argv[j], ";") == 0) {
            end = j;
            break;
        }
        if (!ask && strcmp(argv[j], "+") == 0 && j > 0 && strstr(argv[j - 1], "{}") != NULL) {
            end = j;
            *plus = true;
            break;
        }
    }
    if (end < 0 || (*plus && end == 1)) {
        snprintf(msg, sizeof(msg), "missing argument to `%s'", primary);
        ff_error(ctx, msg);
        return -1;
    }
    if (end == 0) {
        snprintf(msg, sizeof(msg), "invalid argument `;' to `%s'", primary);
        ff_error(ctx, msg);
        return -1;
    }
    return end;
}

/** '+': the command's words and its "{}" (argv[nwords]), as find checks them: one "{}", by
 *  itself. @return 0, or -1 after find's message. */
static int check_plus(struct ff_ctx *ctx, const char *primary, char **argv, int nwords)
{
    char msg[512];
    for (int j = 0; j <= nwords; j++) {
        if (strcmp(argv[j], "{}") == 0 && j < nwords) {
            snprintf(msg, sizeof(msg), "Only one instance of {} is supported with %s ... +",
                     primary);
            ff_error(ctx, msg);
            return -1;
        }
        if (strstr(argv[j], "{}") != NULL && strcmp(argv[j], "{}") != 0) {
            char form[32];
            snprintf(form, sizeof(form), "%s ... {} +", primary);
            char q_form[64];
            char q_braces[16];
            char q_word[320];
            snprintf(msg, sizeof(msg), "In %s the %s must appear by itself, but you specified %s",
                     ff_quoted(q_form, sizeof(q_form), form),
                     ff_quoted(q_braces, sizeof(q_braces), "{}"),
                     ff_quoted(q_word, sizeof(q_word), argv[j]));
            ff_error(ctx, msg);
            return -1;
        }
    }
    return 0;
}

/** Adds a command to the run's registry (and -execdir ... +'s to dir_plus, its slot in each
 *  directory's batches). @return 0, or -1 (out of memory, reported; ex freed). */
static int register_command(struct ff_ctx *ctx, struct ff_exec *ex)
{
    struct ff_execs *x = ctx->execs;
    if (ex->plus && ex->in_dir) {
        if (execs_reserve(&x->dir_plus, &x->dir_plus_cap, x->ndir_plus + 1) < 0) {
            pthread_mutex_destroy(&ex->lock);
            free(ex);
            ff_error(ctx, "out of memory");
            return -1;
        }
        ex->slot = x->ndir_plus;
        x->dir_plus[x->ndir_plus++] = ex;
    }
    ex->next = x->registry;
    x->registry = ex;
    return 0;
}

int ff_parse_exec(struct ff_parser *fp, struct ff_expr *expr, char **argv)
{
    struct ff_ctx *ctx = ff_parser_ctx(fp);
    struct ff_options *o = &ctx->opts;
    const char *primary = argv[0];
    bool ask = strncmp(primary, "-ok", 3) == 0;
    // (find's ok_prompt_stdin: -files0-from cannot read the answers' stdin then)
    o->ok_prompt = o->ok_prompt || ask;
    int n;
    char **words = ff_parser_rest(fp, &n);
    bool plus;
    int end = command_end(ctx, primary, words, n, ask, &plus);
    int nwords = plus ? end - 1 : end;
    if (end < 0 || (plus && check_plus(ctx, primary, words, nwords) != 0)) {
        return -1;
    }
    bool in_dir = strcmp(primary, "-execdir") == 0 || strcmp(primary, "-okdir") == 0;
    if (in_dir && check_path(ctx, primary) != 0) {
        return -1;
    }
    struct ff_execs *x = execs_get(ctx);
    struct ff_exec *ex = x != NULL ? calloc(1, sizeof(*ex)) : NULL;
    if (ex == NULL) {
        ff_error(ctx, "out of memory");
        return -1;
    }
    *ex = (struct ff_exec){.ctx = ctx,
                           .primary = primary,
                           .words = words,
                           .nwords = nwords,
                           .in_dir = in_dir,
                           .plus = plus,
                           .ask = ask};
    for (int j = 0; j < nwords; j++) {
        ex->fixed_chars += strlen(ex->words[j]) + 1;
    }
    pthread_mutex_init(&ex->lock, NULL);
    ex->shared.dir_fd = -1;
    if (register_command(ctx, ex) != 0) {
        return -1;
    }
    expr->exec = ex;
    ff_parser_take(fp, end + 1);
    return 0;
}

/** Replaces every "{}" in word by repl. @return a new string, or NULL. */
static char *substitute(const char *word, const char *repl)
{
    size_t rlen = strlen(repl);
    size_t count = 0;
    for (const char *s = strstr(word, "{}"); s != NULL; s = strstr(s + 2, "{}")) {
        count++;
    }
    size_t len = strlen(word) + count * rlen;
    char *out = malloc(len + 1);
    if (out == NULL) {
        return NULL;
    }
    char *o = out;
    for (const char *s = word;;) {
        const char *hit = strstr(s, "{}");
        if (hit == NULL) {
            memcpy(o, s, strlen(s) + 1);
            break;
        }
        memcpy(o, s, (size_t)(hit - s));
        o += hit - s;
        memcpy(o, repl, rlen);
        o += rlen;
        s = hit + 2;
    }
    return out;
}

/**
 * -execdir: what stands for the entry. A root stands as "./" and its last component, trailing
 * slashes made one (find's base_name()), or as "/" for "/"; another entry as "./NAME".
 * @return a malloc'd string, or NULL (out of memory, reported).
 */
static char *exec_arg(struct ff_ctx *ctx, const struct frd_walk_entry *we)
{
    const char *name = we->entry->name;
    size_t len = we->entry->name_len;
    if (we->is_root || we->depth == 0) {
        size_t start;
        len = ff_root_base(we->path, we->path_len, &start);
        name = we->path + start;
        if (len == 0 || name[0] == '/') {
            char *arg = strdup(len > 0 ? "/" : ""); // a path of slashes only: "/" itself
            if (arg == NULL) {
                ff_error(ctx, "out of memory");
            }
            return arg;
        }
    }
    char *arg = malloc(len + 3);
    if (arg == NULL) {
        ff_error(ctx, "out of memory");
        return NULL;
    }
    memcpy(arg, "./", 2);
    memcpy(arg + 2, name, len);
    arg[len + 2] = '\0';
    return arg;
}

/**
 * GNU find cannot run a command without the directory it runs in and exits at once, and so
 * does frdfind: "Failed to save working directory in order to run a command on 'NAME'"
 * (NAME as find names the entry there: a root's path, another entry's name), status 1.
 * thr's pending lines are written first (NULL when the caller holds the output lock and has
 * written them).
 */
_Noreturn static void exec_dir_fatal(struct ff_ctx *ctx, const char *name, int err,
                                     struct ff_thread *thr)
{
    if (thr != NULL) {
        ff_out_exclusive_begin(ctx, thr);
    }
    ff_error_quoted(ctx, "Failed to save working directory in order to run a command on ", name,
                    err);
    fflush(NULL); // -fprint's files, as find's exit() flushes them
    _exit(1);
}

/**
 * The directory of an entry that is not a root, as find saves it for a command: "."
 * opened relative to the walk's descriptor of it, which takes search permission on it (a
 * directory readable but not searchable fails: exec_dir_fatal()). @return the new descriptor,
 * or -1 with errno EMFILE or ENFILE (no descriptor to spare: the caller runs the command in
 * dir_fd itself).
 */
static int save_exec_dir(struct ff_ctx *ctx, int dir_fd, const struct frd_walk_entry *we,
                         struct ff_thread *thr)
{
    int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 && errno != EMFILE && errno != ENFILE) {
        exec_dir_fatal(ctx, we->entry->name, errno, thr);
    }
    return fd;
}

/**
 * -execdir: the directory a command runs in. Another entry's is its parent: opened as "."
 * relative to the walker's descriptor (save_exec_dir(); *owned true), or that descriptor
 * itself when none is left to spare (*owned false). A root's is the directory its path
 * names before its last component ("." for none, "/" for "/"), opened here (*owned true);
 * without it: exec_dir_fatal().
 * @return the descriptor, or -1 (an entry without a parent descriptor: reported).
 */
static int exec_dir(struct ff_ctx *ctx, const struct frd_walk_entry *we, bool *owned,
                    struct ff_thread *thr)
{
    *owned = false;
    if (!we->is_root && we->depth > 0) {
        if (we->parent_fd == FRD_INVALID_FD || (int)we->parent_fd < 0) {
            ff_error_path(ctx, we->path, strerror(ENOENT));
            return -1;
        }
        int fd = save_exec_dir(ctx, (int)we->parent_fd, we, thr);
        *owned = fd >= 0;
        return fd >= 0 ? fd : (int)we->parent_fd;
    }
    const char *path = we->path;
    size_t dlen = we->path_len;
    while (dlen > 0 && path[dlen - 1] == '/') {
        dlen--;
    }
    while (dlen > 0 && path[dlen - 1] != '/') {
        dlen--;
    }
    while (dlen > 1 && path[dlen - 1] == '/') {
        dlen--;
    }
    char *dir =
        dlen > 0 ? strndup(path, dlen) : strdup(we->path_len > 0 && *path == '/' ? "/" : ".");
    if (dir == NULL) {
        ff_error(ctx, "out of memory");
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int err = errno;
    free(dir);
    if (fd < 0) {
        exec_dir_fatal(ctx, we->path, err, thr);
    }
    *owned = true;
    return fd;
}

/**
 * '+': runs the batch (the caller holds its lock) in b->dir_fd and empties it; the
 * descriptor stays with the batch. thr: the calling thread's output (its pending lines go
 * first), or NULL.
 */
static void run_batch(struct ff_exec *ex, struct batch *b, struct ff_thread *thr)
{
    if (b->nargs == 0) {
        return;
    }
    struct ff_ctx *ctx = ex->ctx;
    char **argv = malloc(((size_t)ex->nwords + b->nargs + 1) * sizeof(*argv));
    if (argv == NULL) {
        ff_error(ctx, "out of memory");
    } else {
        int k = 0;
        for (; k < ex->nwords; k++) {
            argv[k] = ex->words[k];
        }
        char *s = b->chars;
        for (size_t a = 0; a < b->nargs; a++) {
            argv[k++] = s;
            s += strlen(s) + 1;
        }
        argv[k] = NULL;
        ff_out_exclusive_begin(ctx, thr);
        int status = ff_spawn_wait(ctx, argv, b->dir_fd, false);
        ff_out_exclusive_end(ctx);
        if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            ff_set_failed(ctx);
        }
        free(argv);
    }
    b->nchars = 0;
    b->nargs = 0;
}

/** A command that cannot fit the argument limit however it is cut: as GNU find, the message
 *  and exit status 1 at once (this thread's pending lines are written first). */
static _Noreturn void command_too_long(struct ff_ctx *ctx, const char *msg, struct ff_thread *thr)
{
    ff_out_exclusive_begin(ctx, thr);
    ff_error(ctx, msg);
    _exit(1);
}

/** '+': adds one argument, running the batch first when it would not fit. */
static void batch_add(struct ff_exec *ex, struct batch *b, const char *arg, struct ff_thread *thr)
{
    struct ff_execs *x = ex->ctx->execs;
    size_t len = strlen(arg) + 1;
    if (b->nargs == 0 && ex->fixed_chars + len > x->arg_max) {
        command_too_long(ex->ctx, "cannot fit single argument within argument list size limit",
                         thr);
    }
    if (b->nargs > 0 && (ex->fixed_chars + b->nchars + len > x->arg_max ||
                         (size_t)ex->nwords + b->nargs + 1 >= x->max_args)) {
        run_batch(ex, b, thr);
    }
    if (tool_reserve_chars(&b->chars, &b->cap, b->nchars + len) < 0) {
        ff_error(ex->ctx, "out of memory");
        return;
    }
    memcpy(b->chars + b->nchars, arg, len);
    b->nchars += len;
    b->nargs++;
}

static bool exec_one(struct ff_exec *ex, const struct frd_walk_entry *we, struct ff_thread *thr)
{
    struct ff_ctx *ctx = ex->ctx;
    char *arg = NULL;
    if (ex->in_dir && (arg = exec_arg(ctx, we)) == NULL) {
        return false;
    }
    const char *repl = ex->in_dir ? arg : we->path;
    char **argv = calloc((size_t)ex->nwords + 1, sizeof(*argv));
    bool ok = argv != NULL;
    for (int k = 0; ok && k < ex->nwords; k++) {
        argv[k] = substitute(ex->words[k], repl);
        ok = argv[k] != NULL;
    }
    size_t total = 0;
    for (int k = 0; ok && k < ex->nwords; k++) {
        total += strlen(argv[k]) + 1;
    }
    if (ok && total > ctx->execs->arg_max) {
        command_too_long(ctx, "argument list too long", thr);
    }
    bool result = false;
    bool owned = false;
    int dir_fd = -1;
    if (!ok) {
        ff_error(ctx, "out of memory");
    } else {
        ff_out_exclusive_begin(ctx, thr);
        // -okdir asks first, and only a yes opens a root's directory (as find).
        bool go = !ex->ask || ff_spawn_ask(ctx, ex->words[0], we->path);
        if (go && ex->in_dir) {
            dir_fd = exec_dir(ctx, we, &owned, NULL);
            go = dir_fd >= 0;
        }
        int status = go ? ff_spawn_wait(ctx, argv, dir_fd, ex->ask) : -1;
        ff_out_exclusive_end(ctx);
        result = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    for (int k = 0; argv != NULL && k < ex->nwords; k++) {
        free(argv[k]);
    }
    free(argv);
    free(arg);
    if (owned) {
        close(dir_fd);
    }
    return result;
}

/** Runs the batches of a directory (the caller holds its lock) and closes their descriptors. */
static void dir_batches_run(struct ff_execs *x, struct dir_batches *d, struct ff_thread *thr)
{
    for (unsigned i = 0; i < x->ndir_plus; i++) {
        struct batch *b = &d->batches[i];
        run_batch(x->dir_plus[i], b, thr); // in command-line order
        if (b->dir_fd >= 0) {
            close(b->dir_fd);
            b->dir_fd = -1;
            atomic_fetch_sub_explicit(&x->held_fds, 1, memory_order_relaxed);
        }
    }
}

/** Too many descriptors held: runs the batches of d's nearest ancestor holding one. The
 *  caller holds d's lock (a child's lock comes before its ancestors'). */
static void release_ancestor(struct ff_execs *x, struct dir_batches *d, struct ff_thread *thr)
{
    for (struct dir_batches *a = d->parent; a != NULL; a = a->parent) {
        pthread_mutex_lock(&a->lock);
        bool holds = false;
        for (unsigned i = 0; i < x->ndir_plus; i++) {
            holds = holds || a->batches[i].dir_fd >= 0;
        }
        if (holds) {
            dir_batches_run(x, a, thr);
        }
        pthread_mutex_unlock(&a->lock);
        if (holds) {
            return;
        }
    }
}

/** A batch of one argument, run at once in fd. */
static void run_alone(struct ff_exec *ex, int fd, const char *arg, struct ff_thread *thr)
{
    struct batch one = {.dir_fd = fd};
    batch_add(ex, &one, arg, thr);
    run_batch(ex, &one, thr);
    free(one.chars);
}

/** -execdir ... + on one entry: into its directory's batch (see struct dir_batches). */
static void execdir_plus(struct ff_exec *ex, const struct frd_walk_entry *we, struct ff_thread *thr)
{
    struct ff_ctx *ctx = ex->ctx;
    struct ff_execs *x = ctx->execs;
    char *arg = exec_arg(ctx, we);
    if (arg == NULL) {
        return;
    }
    bool root = we->is_root || we->depth == 0;
    struct dir_batches *d = root ? x->root_batches : we->parent_state;
    bool owned = false;
    // An entry that joins a batch opens nothing: the batch's first saved the directory.
    int fd = d != NULL && !root ? (int)we->parent_fd : exec_dir(ctx, we, &owned, thr);
    if (fd < 0) {
        if (!root) {
            ff_error_path(ctx, we->path, strerror(ENOENT));
        }
        free(arg);
        return;
    }
    if (d == NULL) {
        // A root is a batch of its own, as find runs it (in the directory above it); in the
        // parallel walk it runs at once. So does an entry whose directory has no state (none
        // could be allocated).
        run_alone(ex, fd, arg, thr);
    } else {
        pthread_mutex_lock(&d->lock);
        struct batch *b = &d->batches[ex->slot];
        if (b->dir_fd < 0) {
            // The walker may close its descriptor once the directory is listed: keep one.
            if (atomic_load_explicit(&x->held_fds, memory_order_relaxed) >= x->fd_soft_cap) {
                release_ancestor(x, d, thr);
            }
            if (root) {
                b->dir_fd = fd; // opened for it by exec_dir()
                owned = false;
            } else {
                b->dir_fd = save_exec_dir(ctx, fd, we, thr); // find saves it for each batch
            }
            if (b->dir_fd >= 0) {
                atomic_fetch_add_explicit(&x->held_fds, 1, memory_order_relaxed);
            }
        }
        if (b->dir_fd >= 0) {
            batch_add(ex, b, arg, thr);
        } else {
            run_alone(ex, fd, arg, thr); // no descriptor to spare (EMFILE): not batched
        }
        pthread_mutex_unlock(&d->lock);
    }
    free(arg);
    if (owned) {
        close(fd);
    }
}

bool ff_eval_exec(const struct ff_expr *expr, struct ff_eval *st)
{
    struct ff_exec *ex = expr->exec;
    const struct frd_walk_entry *we = st->we;
    struct ff_thread *thr = st->thr;
    if (!ex->plus) {
        return exec_one(ex, we, thr);
    }
    if (!ex->in_dir) {
        pthread_mutex_lock(&ex->lock);
        batch_add(ex, &ex->shared, we->path, thr);
        pthread_mutex_unlock(&ex->lock);
        return true;
    }
    execdir_plus(ex, we, thr);
    return true;
}

bool ff_exec_wants_dir_states(const struct ff_ctx *ctx)
{
    return ctx->execs != NULL && ctx->execs->ndir_plus > 0;
}

/** @return new empty batches for a directory below `parent` (NULL: a root's), or NULL. */
static struct dir_batches *dir_batches_new(struct ff_execs *x, struct dir_batches *parent)
{
    struct dir_batches *d = calloc(1, sizeof(*d) + (size_t)x->ndir_plus * sizeof(d->batches[0]));
    if (d == NULL) {
        return NULL;
    }
    pthread_mutex_init(&d->lock, NULL);
    d->parent = parent;
    for (unsigned i = 0; i < x->ndir_plus; i++) {
        d->batches[i].dir_fd = -1;
    }
    return d;
}

void ff_exec_dir_visit(struct ff_ctx *ctx, const struct frd_walk_entry *we)
{
    if (!ff_exec_wants_dir_states(ctx) || we->dir_state == NULL || *we->dir_state != NULL) {
        return;
    }
    // Without them, its entries run one command each (see execdir_plus()).
    *we->dir_state =
        dir_batches_new(ctx->execs, we->is_root || we->depth == 0 ? NULL : we->parent_state);
}

/** Runs what d's batches hold now (d may be NULL); they fill again from the next entry. */
static void dir_batches_run_now(struct ff_execs *x, struct dir_batches *d, struct ff_thread *thr)
{
    if (d != NULL) {
        pthread_mutex_lock(&d->lock);
        dir_batches_run(x, d, thr);
        pthread_mutex_unlock(&d->lock);
    }
}

void ff_exec_levels_begin(struct ff_ctx *ctx)
{
    assert(ff_exec_wants_dir_states(ctx));
    struct ff_execs *x = ctx->execs;
    x->last_level = -1;
    if (x->root_batches == NULL) {
        x->root_batches = dir_batches_new(x, NULL); // without them, a root runs at once
    }
}

/**
 * find runs every pending batch when the depth of what fts returns changes (a directory's
 * first entry, or the directory again as fts leaves it) and at each root. What can hold
 * arguments then, the walk being in find's order: the roots' batch and the ready ones;
 * going down, the batch of the directory above (its entries before this subdirectory).
 * @return true if the level changed (the caller runs what leaving adds).
 */
static bool level_change(struct ff_ctx *ctx, int level, bool root, struct ff_thread *thr)
{
    struct ff_execs *x = ctx->execs;
    if (!root && level == x->last_level) {
        return false;
    }
    bool down = !root && level > x->last_level;
    x->last_level = level;
    ff_exec_run_ready(ctx, thr);
    dir_batches_run_now(x, x->root_batches, thr);
    if (down) {
        dir_batches_run_now(x, x->last_dir, thr);
    }
    return true;
}

void ff_exec_level(struct ff_ctx *ctx, const struct frd_walk_entry *we, bool leaving,
                   struct ff_thread *thr)
{
    struct ff_execs *x = ctx->execs;
    bool root_visit = !leaving && (we->is_root || we->depth == 0);
    if (level_change(ctx, (int)we->depth, root_visit, thr) && leaving && we->dir_state != NULL) {
        dir_batches_run_now(x, *we->dir_state, thr); // going up: the directory left
    }
    x->last_dir = leaving || root_visit ? NULL : we->parent_state;
}

void ff_exec_level_unvisited(struct ff_ctx *ctx, unsigned depth, struct ff_thread *thr)
{
    level_change(ctx, (int)depth, false, thr);
}

void ff_exec_walk_end(struct ff_ctx *ctx, struct ff_thread *thr)
{
    struct ff_execs *x = ctx->execs;
    if (x == NULL) {
        return;
    }
    ff_exec_run_ready(ctx, thr);
    // The roots' batch waits for the next root or the end, as find's for its next start
    // point (read from -files0-from after this walk's messages) or its exit.
    x->last_level = -1;
    x->last_dir = NULL;
}

/** Frees the batches (none pending any more). */
static void dir_batches_free(struct ff_execs *x, struct dir_batches *d)
{
    for (unsigned i = 0; i < x->ndir_plus; i++) {
        if (d->batches[i].dir_fd >= 0) {
            close(d->batches[i].dir_fd);
            atomic_fetch_sub_explicit(&x->held_fds, 1, memory_order_relaxed);
        }
        free(d->batches[i].chars);
    }
    pthread_mutex_destroy(&d->lock);
    free(d);
}

void ff_exec_dir_done(struct ff_ctx *ctx, void *state)
{
    struct ff_execs *x = ctx->execs;
    struct dir_batches *d = state;
    bool pending = false;
    for (unsigned i = 0; i < x->ndir_plus; i++) {
        pending = pending || d->batches[i].nargs > 0;
    }
    if (!pending) {
        dir_batches_free(x, d);
        return;
    }
    // Not run here: this hook has no output buffer to flush first (it may run on any of
    // the walk's threads), so the next evaluation runs it after its thread's lines.
    d->next = NULL;
    pthread_mutex_lock(&x->ready_lock);
    if (x->ready_tail != NULL) {
        x->ready_tail->next = d;
    } else {
        x->ready_head = d;
    }
    x->ready_tail = d;
    atomic_store_explicit(&x->ready_any, true, memory_order_release);
    pthread_mutex_unlock(&x->ready_lock);
}

void ff_exec_run_ready(struct ff_ctx *ctx, struct ff_thread *thr)
{
    struct ff_execs *x = ctx->execs;
    if (x == NULL || !atomic_load_explicit(&x->ready_any, memory_order_acquire)) {
        return;
    }
    pthread_mutex_lock(&x->ready_lock);
    struct dir_batches *d = x->ready_head;
    x->ready_head = NULL;
    x->ready_tail = NULL;
    atomic_store_explicit(&x->ready_any, false, memory_order_relaxed);
    pthread_mutex_unlock(&x->ready_lock);
    while (d != NULL) {
        struct dir_batches *next = d->next;
        dir_batches_run(x, d, thr);
        dir_batches_free(x, d);
        d = next;
    }
}

void ff_exec_finish_all(struct ff_ctx *ctx)
{
    struct ff_execs *x = ctx->execs;
    if (x == NULL) {
        return;
    }
    struct ff_thread *thr = ff_thread_get(ctx, 0);
    ff_exec_walk_end(ctx, thr);
    if (x->root_batches != NULL) {
        dir_batches_run_now(x, x->root_batches, thr);
    }
    // The registry lists the commands last first: run the batches in command-line order.
    struct ff_exec *rev = NULL;
    while (x->registry != NULL) {
        struct ff_exec *ex = x->registry;
        x->registry = ex->next;
        ex->next = rev;
        rev = ex;
    }
    x->registry = rev;
    for (struct ff_exec *ex = rev; ex != NULL; ex = ex->next) {
        if (ex->plus) {
            run_batch(ex, &ex->shared, thr);
        }
    }
    ff_exec_free(ctx);
}

void ff_exec_free(struct ff_ctx *ctx)
{
    struct ff_execs *x = ctx->execs;
    if (x == NULL) {
        return;
    }
    if (x->root_batches != NULL) {
        dir_batches_free(x, x->root_batches);
    }
    for (struct dir_batches *d = x->ready_head; d != NULL;) {
        struct dir_batches *next = d->next;
        dir_batches_free(x, d);
        d = next;
    }
    for (struct ff_exec *ex = x->registry; ex != NULL;) {
        struct ff_exec *next = ex->next;
        free(ex->shared.chars);
        pthread_mutex_destroy(&ex->lock);
        free(ex);
        ex = next;
    }
    free(x->dir_plus);
    pthread_mutex_destroy(&x->ready_lock);
    free(x);
    ctx->execs = NULL;
}
