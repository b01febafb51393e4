// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * libFuzzer target for frdfind's command-line parser: the input is an argument vector, each
 * argument ended by a NUL byte (the last one may lack it), given to ff_parse() as frdfind's main() gives it (with
 * every primary, operator, -printf format, -newermt date, -regex, -perm mode... it
 * reaches); what it allocated is freed as main() frees it. A command line that parses has
 * each of its -printf and -fprintf formats rendered for a file and a root made up here
 * (no walk runs), unless the input holds a run of five digits or more: a width that large
 * is valid and takes as much memory as it says.
 *
 * An input whose arguments could make a regular expression's compiled form huge is not
 * parsed at all: glibc's regcomp() copies the operand of each `+` and each interval
 * (`{n}`, `\{n\}`), so `a++++...` doubles per `+` and `a{99}{99}` multiplies; GNU find runs
 * out of memory on such a pattern as frdfind does ("Memory exhausted", exit 1, after
 * taking every byte it may). blows_up() bounds that growth conservatively, counting every
 * `+` and interval of the input as if stacked.
 *
 * The parser has side effects that a fuzzer must not have: -fprint, -fprint0, -fls and
 * -fprintf create (truncate) the file named after them, and -files0-from reads one (or
 * stdin, which would block). The argument after each of these words is made /dev/null
 * before the parse. stdout goes to /dev/null, and stderr too while frdfind runs (its
 * messages are many and expected); the sanitizers report on the real stderr.
 */
#define _POSIX_C_SOURCE 200809L // O_CLOEXEC, F_DUPFD_CLOEXEC

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_exec.h"
#include "frdfind_file.h"
#include "frdfind_out.h"
#include "frdfind_parse.h"
#include "frdfind_printf.h"
#include "toolname.h"

#include <fcntl.h>
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** The sanitizers' report descriptor (weak: absent from a build without them). */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

enum { MAX_ARGS = 256 };

static int real_stderr = -1;
static int dev_null = -1;

static void init_once(void)
{
    static bool done;
    if (done) {
        return;
    }
    done = true;
    static char name[] = "frdfind";
    char *argv0[] = {name, NULL};
    tool_name_init(argv0, "frdfind");
    if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
        setlocale(LC_ALL, "C");
    }
    dev_null = open("/dev/null", O_RDWR | O_CLOEXEC);
    real_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (dev_null >= 0) {
        dup2(dev_null, STDOUT_FILENO);
    }
    if (real_stderr >= 0 && __sanitizer_set_report_fd != NULL) {
        __sanitizer_set_report_fd((void *)(intptr_t)real_stderr);
    }
}

static void quiet(bool on)
{
    if (dev_null >= 0 && real_stderr >= 0) {
        dup2(on ? dev_null : real_stderr, STDERR_FILENO);
    }
}

/** Does a word open or read the file named after it? */
static bool names_a_file(const char *arg)
{
    static const char *const words[] = {"-fprint", "-fprint0", "-fls", "-fprintf", "-files0-from"};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        if (strcmp(arg, words[i]) == 0) {
            return true;
        }
    }
    return false;
}

enum { MAX_REGEX_GROWTH = 4096 };

/** Could one of the arguments compile to a regex MAX_REGEX_GROWTH times its size or more? */
static bool blows_up(const char *data, size_t size)
{
    uint64_t growth = 1;
    for (size_t i = 0; i < size && growth < MAX_REGEX_GROWTH; i++) {
        if (data[i] == '+') {
            growth *= 2;
        } else if (data[i] == '{') {
            uint64_t most = 0, n = 0;
            for (i++; i < size && data[i] != '}' && most < MAX_REGEX_GROWTH; i++) {
                n = data[i] >= '0' && data[i] <= '9' ? n * 10 + (uint64_t)(data[i] - '0') : 0;
                most = n > most ? n : most;
            }
            growth *= most + 1;
        }
    }
    return growth >= MAX_REGEX_GROWTH;
}

/** Renders the formats of the tree for one entry. */
static void render_all(const struct ff_expr *e, struct ff_eval *st)
{
    if (e == NULL) {
        return;
    }
    if (e->format != NULL) {
        ff_format_render(e->format, st);
        ff_out_end_record(st->thr);
    }
    render_all(e->lhs, st);
    render_all(e->rhs, st);
}

/** Renders every -printf and -fprintf format for a file and a root. */
static void render(struct ff_ctx *ctx)
{
    struct ff_options *opts = &ctx->opts;
    if (ff_out_init(ctx, 1, true) < 0) {
        return;
    }
    struct ff_thread *thr = ff_thread_get(ctx, 0);
    if (thr != NULL && opts->npaths > 0) {
        opts->roots = opts->paths;
        opts->nroots = opts->npaths;
        struct frd_entry file = {
            .name = "entry",
            .name_len = 5,
            .size = 12345,
            .alloc_size = 16384,
            .mtime_ns = 1700000000123456789LL,
            .ctime_ns = -1,
            .atime_ns = 0,
            .btime_ns = 1000000000,
            .file_id = 42,
            .dev = 2049,
            .nlink = 3,
            .mode = 0104755,
            .type = FRD_TYPE_REG,
            .fields = FRD_FIELDS_ALL,
            .uid = 0,
            .gid = 4294967295u,
        };
        char path[64];
        snprintf(path, sizeof(path), "%.40s/sub/entry", opts->paths[0]);
        struct frd_walk_entry we = {
            .path = path,
            .path_len = strlen(path),
            .entry = &file,
            .depth = 2,
            .parent_fd = FRD_INVALID_FD,
        };
        struct ff_eval st = {.ctx = ctx, .we = &we, .thr = thr};
        render_all(opts->expr, &st);
        struct frd_entry root = file;
        root.name = opts->paths[0];
        root.name_len = strlen(root.name);
        root.type = FRD_TYPE_DIR;
        root.mode = 040000;
        root.fields = FRD_FIELD_TYPE; // (a stat that gave only the type)
        we.path = root.name;
        we.path_len = root.name_len;
        we.entry = &root;
        we.depth = 0;
        we.is_root = true;
        render_all(opts->expr, &st);
    }
    ff_out_flush_all(ctx);
    ff_out_free_all(ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init_once();
    if (blows_up((const char *)data, size)) {
        return 0;
    }
    char *copy = malloc(size + 1);
    char **argv = calloc(MAX_ARGS + 2, sizeof(*argv));
    if (copy == NULL || argv == NULL) {
        free(copy);
        free(argv);
        return 0;
    }
    memcpy(copy, data, size);
    copy[size] = '\0';
    static char name[] = "frdfind";
    static char null_file[] = "/dev/null";
    int argc = 0;
    argv[argc++] = name;
    bool huge = false;
    int digits = 0;
    for (size_t start = 0; start < size && argc <= MAX_ARGS;) { // NUL-terminated pieces
        char *arg = copy + start;
        size_t len = strlen(arg);
        argv[argc] = argc > 1 && names_a_file(argv[argc - 1]) ? null_file : arg;
        argc++;
        for (size_t i = 0; i < len; i++) {
            digits = arg[i] >= '0' && arg[i] <= '9' ? digits + 1 : 0;
            huge = huge || digits >= 5;
        }
        start += len + 1;
    }
    argv[argc] = NULL;
    quiet(true);
    struct ff_ctx ctx;
    if (ff_ctx_init(&ctx) == 0 && ff_parse(&ctx, argc, argv) == 0 && !huge) {
        render(&ctx);
    }
    ff_exec_finish_all(&ctx);
    ff_file_close_all(&ctx);
    ff_ctx_free(&ctx);
    quiet(false);
    free(argv);
    free(copy);
    return 0;
}
