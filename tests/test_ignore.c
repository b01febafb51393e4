// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * Ignore rules (walker/ignore/): git's wildmatch with WM_PATHNAME, case by case (`*`, `?`,
 * classes, ranges, POSIX classes, escapes, `**` between slashes and elsewhere, malformed
 * patterns), in time linear in the name (`a/` + many `**` + `/b` and `*a*a*a...` against
 * long names end: no exponential backtrack); gitignore(5) lines (comments, escapes, trailing
 * spaces, negation, directory-only, anchoring, last match wins); and walks with opts.ignore,
 * concurrent and ordered at the test's worker count: the set visited, no ignored entry
 * stat'ed, no ignored directory entered, deeper files over shallower, nested repositories,
 * the children hook sees the survivors only.
 */
#include "ignore/ignore.h"
#include "ignore/rules.h"
#include "ignore/wildmatch.h"
#include "internal.h"
#include "platform.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include <cmocka.h>

static bool wm(const char *pat, const char *text, bool icase)
{
    struct frd__wm w;
    assert_int_equal(frd__wm_compile(&w, pat, strlen(pat), icase), 0);
    bool r = frd__wm_match(&w, text, strlen(text));
    frd__wm_free(&w);
    return r;
}

struct wm_case {
    const char *pat;
    const char *text;
    bool match;
};

static void test_wildmatch_cases(void **state)
{
    (void)state;
    static const struct wm_case cases[] = {
        {"foo", "foo", true},
        {"foo", "bar", false},
        {"", "", true},
        {"???", "foo", true},
        {"??", "foo", false},
        {"*", "foo", true},
        {"f*", "foo", true},
        {"*f", "foo", false},
        {"*foo*", "foo", true},
        {"*ob*a*r*", "foobar", true},
        {"*ab", "aaaaaaabababab", true},
        {"foo\\*", "foo*", true},
        {"foo\\*bar", "foobar", false},
        {"f\\\\oo", "f\\oo", true},
        {"*[al]?", "ball", true},
        {"[ten]", "ten", false},
        {"**[!te]", "ten", true},
        {"**[!ten]", "ten", false},
        {"t[a-g]n", "ten", true},
        {"t[!a-g]n", "ten", false},
        {"t[!a-g]n", "ton", true},
        {"t[^a-g]n", "ton", true},
        {"a[]]b", "a]b", true},
        {"a[]-]b", "a-b", true},
        {"a[]-]b", "a]b", true},
        {"a[]-]b", "aab", false},
        {"a[]a-]b", "aab", true},
        {"]", "]", true},
        {"foo*bar", "foo/baz/bar", false},
        {"foo**bar", "foo/baz/bar", false},
        {"foo**bar", "foobazbar", true},
        {"foo/**/bar", "foo/baz/bar", true},
        {"foo/**/**/bar", "foo/baz/bar", true},
        {"foo/**/bar", "foo/b/a/z/bar", true},
        {"foo/**/bar", "foo/bar", true},
        {"foo/**/**/bar", "foo/bar", true},
        {"foo?bar", "foo/bar", false},
        {"foo[/]bar", "foo/bar", false},
        {"foo[^a-z]bar", "foo/bar", false},
        {"f[^eiu][^eiu][^eiu][^eiu][^eiu]r", "f/a/u/r", false},
        {"*/foo", "bar/foo", true},
        {"**/foo", "foo", true},
        {"**/foo", "a/b/foo", true},
        {"**/bar*", "deep/foo/bar/baz", false},
        {"**/bar/*", "deep/foo/bar/baz", true},
        {"**/bar/*", "deep/foo/bar/baz/", false},
        {"**/bar/**", "deep/foo/bar/baz/", true},
        {"**/bar/*", "deep/foo/bar", false},
        {"**/bar/**", "deep/foo/bar/", true},
        {"**/bar**", "foo/bar/baz", false},
        {"*/bar/**", "deep/foo/bar/baz/x", false},
        {"**/bar/*/*", "deep/foo/bar/baz/x", true},
        {"a/**", "a/x/y", true},
        {"a/**", "a", false},
        {"**", "a/b/c", true},
        {"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true},
        {"[[:digit:][:upper:][:space:]]", "a", false},
        {"[[:digit:][:upper:][:space:]]", "A", true},
        {"[[:digit:][:upper:][:space:]]", " ", true},
        {"[[:xdigit:]]", "f", true},
        {"[[:xdigit:]]", "g", false},
        {"[[:punct:]]", "!", true},
        {"[[:nosuch:]]", "a", false},
        {"[a-c[:digit:]x-z]", "5", true},
        {"[a-c[:digit:]x-z]", "y", true},
        {"[a-c[:digit:]x-z]", "q", false},
        {"[[:alpha:]", "a", false},
        {"[:a]", "a", true},
        {"[:a]", ":", true},
        {"[\\-_]", "-", true},
        {"[\\]]", "]", true},
        {"[\\]]", "\\]", false},
        {"[!]-]", "a", true},
        {"[!]-]", "]", false},
        {"[a-", "a", false},
        {"[", "[", false},
        {"a[", "a[", false},
        {"abc\\", "abc\\", false},
        {"[z-a]", "m", false},
        {"[a-]", "-", true},
        {"-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
         "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", true},
        {"-*-*-*-*-*-*-12-*-*-*-m-*-*-*",
         "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false},
        {"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*",
         "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true},
        {"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true},
        {"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false},
        {"*.c", "x.c", true},
        {"*.c", "d/x.c", false},
        {"caf\xc3\xa9", "caf\xc3\xa9", true},
        {"raw?", "raw\xff", true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        bool got = wm(cases[i].pat, cases[i].text, false);
        if (got != cases[i].match) {
            fail_msg("'%s' vs '%s': %d, expected %d", cases[i].pat, cases[i].text, got,
                     cases[i].match);
        }
    }
}

static void test_wildmatch_icase(void **state)
{
    (void)state;
    assert_true(wm("FOO", "foo", true));
    assert_false(wm("FOO", "foo", false));
    assert_true(wm("*.C", "x.c", true));
    assert_true(wm("[a-c]x", "Bx", true));
    assert_false(wm("[a-c]x", "Bx", false));
    assert_true(wm("[[:upper:]]", "a", true));
}

/** A name of n bytes: `unit` over and over, then `tail`. */
static char *repeat(const char *unit, size_t times, const char *head, const char *tail)
{
    size_t u = strlen(unit);
    size_t h = strlen(head);
    size_t t = strlen(tail);
    char *s = malloc(h + u * times + t + 1);
    assert_non_null(s);
    memcpy(s, head, h);
    for (size_t i = 0; i < times; i++) {
        memcpy(s + h + i * u, unit, u);
    }
    memcpy(s + h + u * times, tail, t + 1);
    return s;
}

static void test_wildmatch_no_backtracking(void **state)
{
    (void)state;
    // Each of these takes 2^n steps or more in a backtracking matcher; here length x tokens.
    char *pat = repeat("**/", 200, "a/", "b");
    char *text = repeat("x/", 5000, "a/", "c");
    assert_false(wm(pat, text, false));
    free(text);
    text = repeat("x/", 5000, "a/", "b");
    assert_true(wm(pat, text, false));
    free(text);
    free(pat);
    pat = repeat("*a", 300, "", "");
    text = repeat("a", 20000, "", "b");
    assert_false(wm(pat, text, false));
    free(text);
    text = repeat("a", 20000, "", "");
    assert_true(wm(pat, text, false));
    free(text);
    free(pat);
    pat = repeat("?*", 400, "", "x"); // 801 tokens: the heap's state sets
    text = repeat("y", 10000, "", "");
    assert_false(wm(pat, text, false));
    free(text);
    free(pat);
}

/** The verdict of a .gitignore text on a path. */
static enum frd__ign_verdict verdict(const char *rules, const char *path, bool is_dir)
{
    struct frd__ign_rules r = {0};
    assert_int_equal(frd__ign_parse(&r, rules, strlen(rules), false), 0);
    enum frd__ign_verdict v = frd__ign_rules_match(&r, path, strlen(path), is_dir);
    frd__ign_rules_free(&r);
    return v;
}

static void test_rules_lines(void **state)
{
    (void)state;
    assert_int_equal(verdict("# c\n\n*.o\n", "a/x.o", false), FRD__IGN_IGNORED);
    assert_int_equal(verdict("#x\n", "#x", false), FRD__IGN_NONE);
    assert_int_equal(verdict("\\#x\n", "#x", false), FRD__IGN_IGNORED);
    assert_int_equal(verdict("\\!x\n", "!x", false), FRD__IGN_IGNORED);
    assert_int_equal(verdict("*.o\n!k.o\n", "k.o", false), FRD__IGN_INCLUDED);
    assert_int_equal(verdict("!k.o\n*.o\n", "k.o", false), FRD__IGN_IGNORED); // last wins
    assert_int_equal(verdict("x  \n", "x", false), FRD__IGN_IGNORED);         // trimmed
    assert_int_equal(verdict("x\\ \n", "x ", false), FRD__IGN_IGNORED);       // escaped
    assert_int_equal(verdict("x\\ \n", "x", false), FRD__IGN_NONE);
    assert_int_equal(verdict("x \\ \n", "x  ", false), FRD__IGN_IGNORED);
    assert_int_equal(verdict("d/\n", "d", false), FRD__IGN_NONE); // directories only
    assert_int_equal(verdict("d/\n", "a/d", true), FRD__IGN_IGNORED);
    assert_int_equal(verdict("/d\n", "a/d", false), FRD__IGN_NONE); // anchored
    assert_int_equal(verdict("/d\n", "d", false), FRD__IGN_IGNORED);
    assert_int_equal(verdict("a/d\n", "x/a/d", false), FRD__IGN_NONE); // a middle '/' anchors
    assert_int_equal(verdict("a/d\n", "a/d", false), FRD__IGN_IGNORED);
    assert_int_equal(verdict("d\n", "x/y/d", true), FRD__IGN_IGNORED);          // basename anywhere
    assert_int_equal(verdict("\xef\xbb\xbfx\n", "x", false), FRD__IGN_IGNORED); // BOM
    assert_int_equal(verdict("x\r\ny\r\n", "y", false), FRD__IGN_IGNORED);      // CRLF
    assert_int_equal(verdict("!\n/\n \n", "x", false), FRD__IGN_NONE);          // nothing at all
    assert_int_equal(verdict("[\n", "[", false), FRD__IGN_NONE); // malformed, no crash
}

static void test_config(void **state)
{
    (void)state;
    static const char cfg[] = "[user]\n\tname = x\n[core]\n\tignoreCase = true\n"
                              "\texcludesFile = \"~/ign\"\n[other]\nignorecase = false\n";
    char *ex = NULL;
    bool icase = false;
    assert_int_equal(frd__ign_read_config(cfg, strlen(cfg), &ex, &icase), 0);
    assert_true(icase);
    assert_string_equal(ex, "~/ign");
    frd__free(ex);
}

/* Walks. */

/** Worker count of the walks: FRD_TEST_WORKERS, else 2. */
static unsigned test_workers(void)
{
    const char *s = getenv("FRD_TEST_WORKERS");
    return s != NULL && *s != '\0' ? (unsigned)strtoul(s, NULL, 10) : 2;
}

static atomic_int stat_of_ignored; /**< stats of names that contain "ign" */

static void on_stat(frd_os_fd dir, const char *name)
{
    (void)dir;
    if (strstr(name, "ign") != NULL && strcmp(name, ".gitignore") != 0) {
        atomic_fetch_add(&stat_of_ignored, 1);
    }
}

struct seen {
    uv_mutex_t lock;
    char names[64][64];
    int n;
    int hook_saw_ignored;
};

static enum frd_action record(const struct frd_walk_entry *we, void *udata)
{
    struct seen *s = udata;
    uv_mutex_lock(&s->lock);
    if (s->n < 64) {
        snprintf(s->names[s->n++], sizeof(s->names[0]), "%s", we->path);
    }
    uv_mutex_unlock(&s->lock);
    return FRD_ACTION_CONTINUE;
}

static void hook(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    (void)dir;
    struct seen *s = udata;
    for (size_t i = 0; i < frd_walk_children_count(kids); i++) {
        if (strstr(frd_walk_children_entry(kids, i)->name, "ign") != NULL &&
            strcmp(frd_walk_children_entry(kids, i)->name, ".gitignore") != 0) {
            uv_mutex_lock(&s->lock);
            s->hook_saw_ignored++;
            uv_mutex_unlock(&s->lock);
        }
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void walk_ignore(unsigned flags, bool with_hook)
{
    char root[] = "/tmp/frd-ignore-XXXXXX";
    assert_non_null(mkdtemp(root));
    char p[256];
#define AT(rel) (snprintf(p, sizeof(p), "%s/%s", root, rel), p)
    assert_int_equal(mkdir(AT(".git"), 0755), 0);
    assert_int_equal(mkdir(AT("src"), 0755), 0);
    assert_int_equal(mkdir(AT("ign_build"), 0755), 0);
    assert_int_equal(mkdir(AT("ign_build/sub"), 0755), 0);
    assert_int_equal(mkdir(AT("nested"), 0755), 0);
    assert_int_equal(mkdir(AT("nested/.git"), 0755), 0);
    put(AT(".gitignore"), "ign_*\n*.o\n!keep.o\n");
    put(AT("src/.gitignore"), "!ign_back.c\nlocal.txt\n");
    put(AT("src/a.c"), "");
    put(AT("src/x.o"), "");
    put(AT("src/keep.o"), "");
    put(AT("src/ign_back.c"), ""); // re-included by the deeper file
    put(AT("src/local.txt"), "");
    put(AT("ign_build/sub/f"), "");
    put(AT("nested/y.o"), ""); // the outer rules do not apply in a nested repository
    put(AT("nested/.gitignore"), "");
    struct frd_ignore *ig;
    assert_int_equal(frd_ignore_new(&ig, FRD_IGNORE_GIT), 0);
    struct frd_walk_options o;
    frd_walk_options_init(&o);
    o.workers = test_workers();
    o.flags = flags;
    o.ignore = ig;
    if (with_hook) {
        o.on_children = hook;
    }
    struct seen s = {.n = 0};
    assert_int_equal(uv_mutex_init(&s.lock), 0);
    atomic_store(&stat_of_ignored, 0);
    frd__test_before_stat = on_stat;
    assert_int_equal(frd_walk(root, &o, record, &s), 0);
    frd__test_before_stat = NULL;
    const char *want[] = {
        "",     "/.gitignore",     "/nested",  "/nested/.gitignore", "/nested/y.o",
        "/src", "/src/.gitignore", "/src/a.c", "/src/ign_back.c",    "/src/keep.o"};
    size_t nwant = sizeof(want) / sizeof(want[0]);
    qsort(s.names, (size_t)s.n, sizeof(s.names[0]), cmp_str);
    assert_int_equal(s.n, (int)nwant);
    for (size_t i = 0; i < nwant; i++) {
        snprintf(p, sizeof(p), "%s%s", root, want[i]);
        assert_string_equal(s.names[i], p);
    }
    // "ign_back.c" is stat'ed (kept); nothing else of the ignored names is.
    assert_int_equal(atomic_load(&stat_of_ignored), o.flags & FRD_WALK_NAMES_ONLY ? 0 : 1);
    assert_int_equal(s.hook_saw_ignored, with_hook ? 1 : 0);
    uv_mutex_destroy(&s.lock);
    frd_ignore_free(ig);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
#undef AT
}

static void test_walk_concurrent(void **state)
{
    (void)state;
    walk_ignore(0, false);
    walk_ignore(FRD_WALK_CHILDREN_PARTS, true);
}

static void test_walk_ordered(void **state)
{
    (void)state;
    walk_ignore(FRD_WALK_ORDERED, false);
    walk_ignore(FRD_WALK_ORDERED, true);
}

static void test_api_errors(void **state)
{
    (void)state;
    struct frd_ignore *ig = NULL;
    assert_int_equal(frd_ignore_new(NULL, 0), FRD_EINVAL);
    assert_int_equal(frd_ignore_new(&ig, 1u << 30), FRD_EINVAL);
    assert_null(ig);
    assert_int_equal(frd_ignore_new(&ig, 0), 0);
    assert_int_equal(frd_ignore_add_name(ig, "a/b"), FRD_EINVAL);
    assert_int_equal(frd_ignore_add_name(ig, ""), FRD_EINVAL);
    assert_int_equal(frd_ignore_add_name(ig, ".."), FRD_EINVAL);
    assert_int_equal(frd_ignore_add_name(ig, ".fdignore"), 0);
    assert_int_equal(frd_ignore_add_if_present(ig, "x/y"), FRD_EINVAL);
    assert_int_equal(frd_ignore_add_pattern(ig, "a\nb"), FRD_EINVAL);
    assert_int_equal(frd_ignore_add_pattern(ig, "*.o"), 0);
    assert_int_equal(frd_ignore_add_file(ig, "/nonexistent/frd-ignore"), FRD_ENOENT);
    assert_int_equal(frd_ignore_add_file(NULL, "x"), FRD_EINVAL);
    frd_ignore_free(ig);
    frd_ignore_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wildmatch_cases),
        cmocka_unit_test(test_wildmatch_icase),
        cmocka_unit_test(test_wildmatch_no_backtracking),
        cmocka_unit_test(test_rules_lines),
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_walk_concurrent),
        cmocka_unit_test(test_walk_ordered),
        cmocka_unit_test(test_api_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
