// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * frdfind's -printf: compiles a format once into segments, then renders them per entry
 * straight into the thread's output buffer (no printf on the hot path).
 *
 * Every directive of GNU find 4.9, printed as it prints them: %p %P %H %f %h %y %Y %s %i
 * %n %d %m %M %l %k %b %D %u %U %g %G %F %S %Z, the times %a %c %t (ctime style with
 * nanoseconds) and %Ak %Ck %Tk %Bk (k a strftime letter, @ or +), %%, the flags - + space
 * # (in any order), a width (a leading 0 pads with zeros) and a precision, and the escapes
 * \a \b \c \f \n \r \t \v \\ \NNN.
 */
#define _GNU_SOURCE // lgetxattr, localtime_r

#include "frdfind_printf.h"

#include "frdfind_ctx.h"
#include "frdfind_eval.h"
#include "frdfind_mounts.h"
#include "frdfind_msg.h"
#include "frdfind_out.h"
#include "frdfind_owner.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/** One piece of a compiled format. */
struct ff_seg {
    char directive; /**< 0 for literal text, else the %-letter (A C T B: a time, see tk) */
    char tk;        /**< A C T B: the time format letter, 0 for find's ctime style */
    bool stop;      /**< \c: stop the format here */
    bool left;      /**< '-' flag */
    bool zero;      /**< '0' flag */
    bool plus;      /**< '+' flag */
    bool space;     /**< ' ' flag */
    bool alt;       /**< '#' flag */
    int width;      /**< minimum width, 0 for none (any size up to INT_MAX, as printf's) */
    int prec;       /**< precision, -1 for none */
    /** The width or the precision is more than INT_MAX: find's printf fails on it with
     *  EOVERFLOW, so the directive prints nothing and its error is reported (emit_overflow). */
    bool overflow;
    const char *text; /**< literal text (directive == 0) */
    size_t len;       /**< bytes of text */
};

struct ff_format {
    struct ff_seg *segs;
    size_t nsegs;
    char *text;       /**< the literal bytes of every segment, escapes decoded */
    const char *dest; /**< the output's name in find's write errors (not owned) */
};

/** find's error for "%" then flags and the character c: reserved ('\0' written as is). */
static void reserved_directive(struct ff_ctx *ctx, char c)
{
    static const char head[] = "error: the format directive `%";
    static const char tail[] = "' is reserved for future use";
    char msg[sizeof(head) + sizeof(tail)];
    memcpy(msg, head, sizeof(head) - 1);
    msg[sizeof(head) - 1] = c;
    memcpy(msg + sizeof(head), tail, sizeof(tail) - 1);
    ff_warning(ctx, msg, sizeof(head) + sizeof(tail) - 1);
    ff_set_failed(ctx);
}

/** find's warning about an unknown escape or directive `p` (n bytes), printed as it is. */
static void warn(struct ff_ctx *ctx, const char *what, const char *p, size_t n)
{
    char msg[96];
    int len = snprintf(msg, sizeof(msg), "warning: unrecognized %s `%.*s'", what, (int)n, p);
    if (len > 0 && (size_t)len < sizeof(msg)) {
        ff_warning(ctx, msg, (size_t)len);
    }
}

/** The entry field a stat directive prints (%s %i %n %m %M %k %b %D). */
static unsigned directive_field(char d)
{
    switch (d) {
    case 's':
        return FRD_FIELD_SIZE;
    case 'i':
        return FRD_FIELD_FILE_ID;
    case 'n':
        return FRD_FIELD_NLINK;
    case 'm':
    case 'M':
        return FRD_FIELD_MODE;
    case 'k':
    case 'b':
        return FRD_FIELD_ALLOC_SIZE;
    case 'u':
    case 'U':
        return FRD_FIELD_UID;
    case 'g':
    case 'G':
        return FRD_FIELD_GID;
    case 'S':
        return FRD_FIELD_SIZE | FRD_FIELD_ALLOC_SIZE;
    case 'a':
    case 'A':
        return FRD_FIELD_ATIME;
    case 'c':
    case 'C':
        return FRD_FIELD_CTIME;
    case 't':
    case 'T':
        return FRD_FIELD_MTIME;
    case 'B':
        return FRD_FIELD_BTIME;
    case 'Z':
        return 0;
    default: // 'D', 'F'
        return FRD_FIELD_DEV;
    }
}

/** Reads a width or precision's digits at *q, any number of them: *value saturates past
 *  INT_MAX, and *overflow is set then. */
static void read_count(const char **q, int *value, bool *overflow)
{
    long long v = 0;
    for (; **q >= '0' && **q <= '9'; (*q)++) {
        if (v <= INT_MAX) {
            v = v * 10 + (**q - '0');
        }
    }
    if (v > INT_MAX) {
        *overflow = true;
        v = INT_MAX;
    }
    *value = (int)v;
}

/** A format being compiled: the segments made, the literal text being gathered. */
struct compiler {
    struct ff_ctx *ctx;
    struct ff_format *fmt;
    size_t t;       /**< bytes used in fmt->text */
    size_t lit;     /**< start of the literal segment being built */
    size_t n;       /**< segments made */
    unsigned needs; /**< what the directives read */
};

/** Ends the literal text gathered so far as a segment of its own (if any). */
static void end_literal(struct compiler *c)
{
    if (c->t > c->lit) {
        c->fmt->segs[c->n].text = c->fmt->text + c->lit;
        c->fmt->segs[c->n].len = c->t - c->lit;
        c->n++;
    }
    c->lit = c->t;
}

/** Adds the source bytes from p to end to the literal text, as they are. */
static void keep_text(struct compiler *c, const char *p, const char *end)
{
    memcpy(c->fmt->text + c->t, p, (size_t)(end - p));
    c->t += (size_t)(end - p);
}

/** A backslash escape at p (find's: \a \b \c \f \n \r \t \v \\ \NNN; any other is
 *  kept as written, with find's warning). @return where the source goes on. */
static const char *compile_escape(struct compiler *c, const char *p)
{
    char *text = c->fmt->text;
    char e = p[1];
    const char *map = "a\ab\bf\fn\nr\rt\tv\v\\\\";
    const char *hit = e != '\0' ? strchr(map, e) : NULL;
    if (hit != NULL && (hit - map) % 2 == 0) {
        text[c->t++] = hit[1];
        return p + 2;
    }
    if (e == 'c') {
        end_literal(c);
        c->fmt->segs[c->n++].stop = true;
        return p + 2;
    }
    if (e >= '0' && e <= '7') {
        unsigned v = 0;
        int k = 1;
        for (; k <= 3 && p[k] >= '0' && p[k] <= '7'; k++) {
            v = v * 8 + (unsigned)(p[k] - '0');
        }
        text[c->t++] = (char)v;
        return p + k;
    }
    if (e == '\0') {
        static const char msg[] = "warning: escape `\\' followed by nothing at all";
        ff_warning(c->ctx, msg, sizeof(msg) - 1);
        text[c->t++] = '\\';
        return p + 1;
    }
    warn(c->ctx, "escape", p, 2);
    text[c->t++] = '\\';
    text[c->t++] = e;
    return p + 2;
}

/** Reads find's flags, width and precision after a '%' at q into seg. @return the letter's
 *  position. */
static const char *compile_flags(const char *q, struct ff_seg *seg)
{
    // find's flags are "-+ #"; a '0' is the width's first digit (so "%0+5m" is the unknown
    // directive "%0+", as in find), which printf takes as its zero flag.
    for (;; q++) {
        if (*q == '-') {
            seg->left = true;
        } else if (*q == '+') {
            seg->plus = true;
        } else if (*q == ' ') {
            seg->space = true;
        } else if (*q == '#') {
            seg->alt = true;
        } else {
            break;
        }
    }
    seg->zero = *q == '0';
    read_count(&q, &seg->width, &seg->overflow);
    if (*q == '.') {
        q++;
        read_count(&q, &seg->prec, &seg->overflow);
    }
    return q;
}

/**
 * The directive letter at q (its flags in seg) into seg, with what it reads.
 * @return the source after it, or NULL for a letter that makes no directive (find keeps
 * what it wrote as text, with its warning).
 */
static const char *compile_letter(struct compiler *c, const char *q, struct ff_seg *seg)
{
    char d = *q;
    if (strchr("ACTB", d) != NULL && q[1] != '\0') {
        // %Ak %Ck %Tk %Bk: any k goes to strftime, as find passes it on.
        seg->directive = d;
        seg->tk = q[1];
        c->needs |= directive_field(d);
        return q + 2;
    }
    if (strchr("ACTB", d) != NULL) {
        // find names the letter alone, without the flags and width before it.
        static const char msg[] = "warning: format directive `%T' should be followed by "
                                  "another character";
        char line[sizeof(msg)];
        memcpy(line, msg, sizeof(msg));
        line[sizeof("warning: format directive `%") - 1] = d;
        ff_warning(c->ctx, line, sizeof(line) - 1);
        return NULL;
    }
    if (d == 'a' || d == 'c' || d == 't') {
        seg->directive = (char)(d - 'a' + 'A');
        seg->tk = 0;
        c->needs |= directive_field(d);
    } else if (strchr("pPHfhdyl", d) != NULL) {
        seg->directive = d;
        // find's %y needs the type (unknown where a directory's stat failed); its %l needs
        // a stat of the entry.
        c->needs |= d == 'y' ? FRD_FIELD_TYPE : d == 'l' ? FF_NEED_STAT | FF_NEED_DIR_FD : 0;
    } else if (d == 'Y') {
        seg->directive = d;
        c->needs |= FF_NEED_LINKSTAT | FF_NEED_STAT | FF_NEED_DIR_FD;
    } else if (strchr("sinmMkbDuUgGFSZ", d) != NULL) {
        seg->directive = d;
        c->needs |= directive_field(d) | (d == 'Z' ? FF_NEED_DIR_FD : 0);
    } else {
        char directive[2] = {'%', d};
        warn(c->ctx, "format directive", directive, 2);
        return NULL;
    }
    return q + 1;
}

/**
 * A '%' at p: "%%", a directive, or text find keeps as written.
 * @return where the source goes on, or NULL after find's error (the format is refused).
 */
static const char *compile_percent(struct compiler *c, const char *p)
{
    if (p[1] == '%') {
        c->fmt->text[c->t++] = '%';
        return p + 2;
    }
    if (p[1] == '\0') {
        static const char msg[] = "error: % at end of format string";
        ff_warning(c->ctx, msg, sizeof(msg) - 1);
        ff_set_failed(c->ctx);
        return NULL;
    }
    struct ff_seg seg = {.prec = -1};
    const char *q = compile_flags(p + 1, &seg);
    char d = *q;
    if (d == '\0' || d == '{' || d == '[' || d == '(') {
        // find: "%5" or "%-" at the end, and these three, are errors.
        reserved_directive(c->ctx, d);
        return NULL;
    }
    if (d == '%') {
        // find prints "%5%" as "%5": the flags, not the second '%'.
        keep_text(c, p, q);
        return q + 1;
    }
    const char *next = compile_letter(c, q, &seg);
    if (next == NULL) {
        keep_text(c, p, q + 1);
        return q + 1;
    }
    end_literal(c);
    c->fmt->segs[c->n++] = seg;
    return next;
}

int ff_format_compile(struct ff_ctx *ctx, const char *src, const char *dest, struct ff_format **out,
                      unsigned *needs)
{
    size_t src_len = strlen(src);
    struct ff_format *fmt = calloc(1, sizeof(*fmt));
    // Every segment holds at least one source byte, so src_len + 1 segments suffice.
    struct ff_seg *segs = calloc(src_len + 1, sizeof(*segs));
    char *text = malloc(src_len + 1);
    if (fmt == NULL || segs == NULL || text == NULL) {
        free(fmt);
        free(segs);
        free(text);
        ff_error(ctx, "out of memory");
        return 1;
    }
    fmt->segs = segs;
    fmt->text = text;
    fmt->dest = dest;
    struct compiler c = {.ctx = ctx, .fmt = fmt};
    for (const char *p = src; *p != '\0';) {
        if (*p == '\\') {
            p = compile_escape(&c, p);
        } else if (*p == '%') {
            p = compile_percent(&c, p);
            if (p == NULL) {
                ff_format_free(fmt);
                return 1;
            }
        } else {
            text[c.t++] = *p++;
        }
        assert(c.t <= src_len && c.n <= src_len);
    }
    end_literal(&c);
    fmt->nsegs = c.n;
    *needs |= c.needs;
    *out = fmt;
    return 0;
}

void ff_format_free(struct ff_format *fmt)
{
    if (fmt != NULL) {
        free(fmt->segs);
        free(fmt->text);
        free(fmt);
    }
}

/** Writes v in base 8 or 10 at the end of buf. @return the first digit. */
static char *utoa_end(char *end, uint64_t v, unsigned base)
{
    do {
        *--end = (char)('0' + v % base);
        v /= base;
    } while (v != 0);
    return end;
}

static void pad(struct ff_thread *thr, size_t n, char c)
{
    if (n > 0) {
        ff_out_fill(thr, c, n);
    }
}

/**
 * A directive whose width or precision passes INT_MAX: find's printf fails with EOVERFLOW,
 * prints nothing for it and find reports "'standard output': Value too large for defined
 * data type" (the file's name for -fprintf), the literal text before it already out.
 */
static void emit_overflow(struct ff_eval *st, const struct ff_format *fmt)
{
    ff_out_before_error(st->thr);
    ff_error_path(st->ctx, fmt->dest, strerror(EOVERFLOW));
}

/** Emits a string directive with width, precision and '-'. */
static void emit_str(struct ff_thread *thr, const struct ff_seg *seg, const char *s, size_t len)
{
    if (seg->prec >= 0 && (size_t)seg->prec < len) {
        len = (size_t)seg->prec;
    }
    size_t fill = (size_t)seg->width > len ? (size_t)seg->width - len : 0;
    if (!seg->left) {
        pad(thr, fill, ' ');
    }
    ff_out_append(thr, s, len);
    if (seg->left) {
        pad(thr, fill, ' ');
    }
}

/** Emits a name directive (%p %P %H %f %h %l): through ff_out_name(), as find prints names
 *  to a terminal; width and precision count what is shown. */
static void emit_name(struct ff_thread *thr, const struct ff_seg *seg, const char *s, size_t len)
{
    s = ff_out_name(thr, s, &len);
    emit_str(thr, seg, s, len);
}

/** Emits %d or %m with printf's integer flags (GNU find honours them for these two). */
static void emit_int(struct ff_thread *thr, const struct ff_seg *seg, uint64_t v, unsigned base)
{
    char buf[32];
    char *end = buf + sizeof(buf);
    char *digits = end;
    if (!(seg->prec == 0 && v == 0)) {
        digits = utoa_end(end, v, base);
    }
    size_t ndigits = (size_t)(end - digits);
    size_t zeros = seg->prec > 0 && (size_t)seg->prec > ndigits ? (size_t)seg->prec - ndigits : 0;
    if (base == 8 && seg->alt && zeros == 0 && (ndigits == 0 || *digits != '0')) {
        zeros = 1;
    }
    char sign = 0;
    if (base == 10 && seg->plus) {
        sign = '+';
    } else if (base == 10 && seg->space) {
        sign = ' ';
    }
    size_t body = ndigits + zeros + (sign != 0);
    size_t fill = (size_t)seg->width > body ? (size_t)seg->width - body : 0;
    if (!seg->left && !(seg->zero && seg->prec < 0)) {
        pad(thr, fill, ' ');
    }
    if (sign != 0) {
        ff_out_byte(thr, sign);
    }
    if (!seg->left && seg->zero && seg->prec < 0) {
        pad(thr, fill, '0');
    }
    pad(thr, zeros, '0');
    ff_out_append(thr, digits, ndigits);
    if (seg->left) {
        pad(thr, fill, ' ');
    }
}

static void emit_u64(struct ff_thread *thr, const struct ff_seg *seg, uint64_t v)
{
    char buf[32];
    char *end = buf + sizeof(buf);
    char *s = utoa_end(end, v, 10);
    emit_str(thr, seg, s, (size_t)(end - s));
}

// strftime and snprintf get formats built from the directive (never from file data).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/** strftime with a one-directive format "%k" (or `fmt` when k is 0). @return bytes written. */
static size_t format_tm(char *buf, size_t cap, const char *fmt, const struct tm *tm)
{
    return strftime(buf, cap, fmt, tm);
}

/**
 * A time as find's -printf prints it: %X@ seconds, a dot and ten fractional digits
 * (nanoseconds then a 0); %a %c %t "Tue Jun 15 12:34:56.1234567890 2021"; %X+
 * "2021-06-15+12:34:56.1234567890"; %XS %XT %XX strftime's with the fraction after the
 * seconds; any other k, strftime's %k as it is (an unknown one comes out as "%k").
 */
static void emit_time(struct ff_thread *thr, const struct ff_seg *seg, int64_t ns)
{
    char buf[256];
    int64_t sec = ns / 1000000000;
    int64_t frac = ns % 1000000000;
    if (frac < 0) {
        frac += 1000000000;
        sec -= 1;
    }
    char fraction[16];
    snprintf(fraction, sizeof(fraction), ".%09lld0", (long long)frac);
    struct tm tm;
    time_t tt = (time_t)sec;
    if (seg->tk == '@' || localtime_r(&tt, &tm) == NULL) {
        int n = snprintf(buf, sizeof(buf), "%lld%s", (long long)sec, fraction);
        emit_str(thr, seg, buf, n > 0 ? (size_t)n : 0);
        return;
    }
    size_t n;
    if (seg->tk == 0) {
        n = format_tm(buf, sizeof(buf), "%a %b %e %H:%M:%S", &tm);
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", fraction);
        n += format_tm(buf + n, sizeof(buf) - n, " %Y", &tm);
    } else if (seg->tk == '+') {
        n = format_tm(buf, sizeof(buf), "%Y-%m-%d+%H:%M:%S", &tm);
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", fraction);
    } else {
        char fmt[3] = {'%', seg->tk, '\0'};
        n = format_tm(buf, sizeof(buf), fmt, &tm);
        if (seg->tk == 'S' || seg->tk == 'T' || seg->tk == 'X') {
            n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", fraction);
        }
    }
    emit_str(thr, seg, buf, n < sizeof(buf) ? n : sizeof(buf) - 1);
}

/** %S: allocated bytes over size, as find's file_sparseness(), with printf's %g and flags. */
static void emit_sparseness(struct ff_thread *thr, const struct ff_seg *seg,
                            const struct frd_entry *e)
{
    double v;
    if (e->size == 0) {
        v = e->alloc_size == 0 ? 1.0 : HUGE_VAL;
    } else {
        v = (double)e->alloc_size / (double)e->size;
    }
    char fmt[32];
    char *f = fmt;
    *f++ = '%';
    if (seg->left) {
        *f++ = '-';
    }
    if (seg->zero) {
        *f++ = '0';
    }
    if (seg->plus) {
        *f++ = '+';
    }
    if (seg->space) {
        *f++ = ' ';
    }
    if (seg->alt) {
        *f++ = '#';
    }
    snprintf(f, sizeof(fmt) - (size_t)(f - fmt), "*.*g");
    // Any width: printf's own padding, in the thread's scratch space.
    int n = snprintf(NULL, 0, fmt, seg->width, seg->prec, v);
    char *buf = n > 0 ? ff_thread_scratch(thr, (size_t)n + 1) : NULL;
    if (buf != NULL && snprintf(buf, (size_t)n + 1, fmt, seg->width, seg->prec, v) == n) {
        ff_out_append(thr, buf, (size_t)n);
    }
}

#pragma GCC diagnostic pop

/** %u, %g: the owner's name, or its number when it has none. */
static void emit_owner(struct ff_thread *thr, const struct ff_seg *seg, const char *name,
                       uint32_t id)
{
    if (name != NULL) {
        emit_str(thr, seg, name, strlen(name));
    } else {
        emit_u64(thr, seg, id);
    }
}

/**
 * %Z: the SELinux context (the security.selinux attribute), reached through the walk's
 * descriptor of the parent, never the path. Where there is none, find's message
 * ("getfilecon failed") and an empty field, as find built with SELinux prints.
 */
static void emit_context(struct ff_eval *st, const struct ff_seg *seg, bool follow)
{
    struct ff_thread *thr = st->thr;
    const struct frd_walk_entry *we = st->we;
    char path[64];
    const char *at = we->path;
    if (we->parent_fd != FRD_INVALID_FD) {
        size_t need = 32 + we->entry->name_len;
        char *buf = need <= sizeof(path) ? path : ff_thread_scratch(thr, need);
        if (buf == NULL) {
            return;
        }
        snprintf(buf, need, "/proc/self/fd/%d/%s", we->parent_fd, we->entry->name);
        at = buf;
    }
    char value[256];
    ssize_t n = follow ? getxattr(at, "security.selinux", value, sizeof(value))
                       : lgetxattr(at, "security.selinux", value, sizeof(value));
    if (n < 0) {
        int err = errno;
        ff_out_before_error(thr);
        ff_error_quoted(st->ctx, "getfilecon failed: ", we->path, err);
        emit_str(thr, seg, "", 0);
        return;
    }
    while (n > 0 && value[n - 1] == '\0') {
        n--;
    }
    emit_str(thr, seg, value, (size_t)n);
}

void ff_mode_string(char out[11], enum frd_type type, uint32_t mode)
{
    char t = frd_type_letter(type);
    out[0] = t == 'f' ? '-' : t == 'U' ? '?' : t;
    const char *rwx = "rwxrwxrwx";
    for (int i = 0; i < 9; i++) {
        out[1 + i] = (mode & (0400u >> i)) ? rwx[i] : '-';
    }
    if (mode & 04000) {
        out[3] = (mode & 0100) ? 's' : 'S';
    }
    if (mode & 02000) {
        out[6] = (mode & 0010) ? 's' : 'S';
    }
    if (mode & 01000) {
        out[9] = (mode & 0001) ? 't' : 'T';
    }
    out[10] = '\0';
}

size_t ff_root_base(const char *path, size_t len, size_t *start)
{
    size_t end = len;
    while (end > 0 && path[end - 1] == '/') {
        end--;
    }
    if (end == 0) {
        *start = len > 0 ? len - 1 : 0;
        return len > 0 ? 1 : 0;
    }
    size_t s = end;
    while (s > 0 && path[s - 1] != '/') {
        s--;
    }
    *start = s;
    return end - s + (end < len ? 1 : 0);
}

/**
 * %h for a root, as GNU find 4.9 prints it (measured, it has quirks): with trailing slashes
 * removed, the part before the last slash ("d/e/f/" gives "d/e", "/tmp/" gives ""); for a
 * single component, "." ("a", "ab/", "../"), except that a one-byte component followed by
 * slashes gives the part before the last slash as written ("a/" gives "a", ".//" gives
 * "./"); for slashes only, the part before the last one ("/" gives "", "//" gives "/").
 * (An empty root is never visited; it gives "", not a length of SIZE_MAX.)
 */
static size_t root_dir(const char *path, size_t len, const char **out)
{
    if (len == 0) {
        *out = path;
        return 0;
    }
    size_t end = len;
    while (end > 0 && path[end - 1] == '/') {
        end--;
    }
    *out = path;
    for (size_t i = end; i > 0; i--) {
        if (path[i - 1] == '/') {
            return i - 1;
        }
    }
    if (end == 0 || (end == 1 && len > 1)) {
        return len - 1;
    }
    *out = ".";
    return 1;
}

/** %H: the root (starting point, as given) the entry was reached from. */
static const char *start_point(const struct ff_options *opts, const struct frd_walk_entry *we)
{
    return we->root_index < opts->nroots ? opts->roots[we->root_index] : "";
}

/**
 * %P: the path below the root. The walker's path starts with the root as given, as find's
 * does, so it is what follows the root and the one '/' after it (none after a root that
 * ends in '/': "d//" gives "d//e", %P "e").
 */
static size_t below_root(const struct ff_options *opts, const struct frd_walk_entry *we,
                         const char **out)
{
    size_t skip = strlen(start_point(opts, we));
    if (we->depth == 0 || skip > we->path_len) {
        *out = "";
        return 0;
    }
    if (skip < we->path_len && we->path[skip] == '/') {
        skip++;
    }
    *out = we->path + skip;
    return we->path_len - skip;
}

/**
 * The directory to reach an entry from: the walk's descriptor of its parent (valid in every
 * callback), or for a root, whose name is the path as given, the current directory.
 */
static int entry_dir(const struct frd_walk_entry *we)
{
    return we->parent_fd != FRD_INVALID_FD ? we->parent_fd : AT_FDCWD;
}

/**
 * %Y for a link: the type of its target, 'L' for a loop, 'N' when it dangles (a missing
 * target, or one whose path runs through a file: find takes ENOTDIR as ENOENT there).
 */
static char target_letter(const struct frd_walk_entry *we)
{
    if (we->entry->type != FRD_TYPE_LNK) {
        return frd_type_letter(we->entry->type);
    }
    struct stat st;
    int rc = fstatat(entry_dir(we), we->entry->name, &st, 0);
    if (rc != 0) {
        return errno == ELOOP ? 'L' : errno == ENOENT || errno == ENOTDIR ? 'N' : '?';
    }
    return frd_type_letter(frd_type_from_mode((unsigned)st.st_mode));
}

/** %l: the link's target, empty for anything that is not a link. */
static void emit_link(struct ff_eval *st, const struct ff_seg *seg)
{
    struct ff_thread *thr = st->thr;
    const struct frd_walk_entry *we = st->we;
    if (we->entry->type != FRD_TYPE_LNK) {
        emit_str(thr, seg, "", 0);
        return;
    }
    size_t cap = 4096;
    for (;;) {
        char *buf = ff_thread_scratch(thr, cap);
        if (buf == NULL) {
            return;
        }
        ssize_t n = readlinkat(entry_dir(we), we->entry->name, buf, cap);
        if (n < 0) {
            int err = errno;
            ff_out_before_error(thr);
            ff_error_path(st->ctx, we->path, strerror(err));
            return;
        }
        if ((size_t)n < cap) {
            emit_name(thr, seg, buf, (size_t)n);
            return;
        }
        cap *= 2;
    }
}

/** %p %P %H %f %h: the path, or a part of it, as find names it. */
static void emit_path_part(struct ff_eval *st, const struct ff_seg *seg)
{
    const struct ff_options *opts = &st->ctx->opts;
    const struct frd_walk_entry *we = st->we;
    const struct frd_entry *e = we->entry;
    const char *s = we->path;
    size_t len = we->path_len;
    switch (seg->directive) {
    case 'P':
        len = below_root(opts, we, &s);
        break;
    case 'H':
        s = start_point(opts, we);
        len = strlen(s);
        break;
    case 'f':
        if (we->depth == 0) {
            size_t start;
            len = ff_root_base(we->path, we->path_len, &start);
            s = we->path + start;
        } else {
            s = e->name;
            len = e->name_len;
        }
        break;
    case 'h':
        if (we->depth == 0) {
            len = root_dir(we->path, we->path_len, &s);
        } else {
            len = we->path_len - e->name_len - 1;
        }
        break;
    default: // 'p'
        break;
    }
    emit_name(st->thr, seg, s, len);
}

/** %A %B %C %T: one of the entry's times (%Bk without a birth time: find 4.9's). */
static void emit_entry_time(struct ff_eval *st, const struct ff_seg *seg)
{
    const struct frd_entry *e = st->we->entry;
    switch (seg->directive) {
    case 'A':
        emit_time(st->thr, seg, e->atime_ns);
        break;
    case 'B':
        if (!(e->fields & FRD_FIELD_BTIME)) {
            // No birth time (the file system keeps none): what Debian's find 4.9, built
            // without birth times, prints for every file: gnulib's "unknown" timespec
            // {-1, -1} for %B@, an empty string for every other %Bk.
            static const char unknown[] = "-1.-000000010";
            emit_str(st->thr, seg, unknown, seg->tk == '@' ? sizeof(unknown) - 1 : 0);
            break;
        }
        emit_time(st->thr, seg, e->btime_ns);
        break;
    case 'C':
        emit_time(st->thr, seg, e->ctime_ns);
        break;
    default: // 'T'
        emit_time(st->thr, seg, e->mtime_ns);
        break;
    }
}

/** %s %i %n %k %b %D %U %G: a number of the entry's stat. */
static void emit_number(struct ff_eval *st, const struct ff_seg *seg)
{
    const struct frd_entry *e = st->we->entry;
    uint64_t v;
    switch (seg->directive) {
    case 's':
        v = e->size;
        break;
    case 'i':
        v = e->file_id;
        break;
    case 'n':
        v = e->nlink;
        break;
    case 'k':
        v = (e->alloc_size / 512 + 1) / 2;
        break;
    case 'b':
        v = e->alloc_size / 512;
        break;
    case 'D':
        v = e->dev;
        break;
    case 'U':
        v = e->uid;
        break;
    default: // 'G'
        v = e->gid;
        break;
    }
    emit_u64(st->thr, seg, v);
}

/** The other directives: %y %Y %l %d %m %M %u %g %F %S %Z. */
static void emit_other(struct ff_eval *st, const struct ff_seg *seg)
{
    const struct frd_walk_entry *we = st->we;
    const struct frd_entry *e = we->entry;
    struct ff_thread *thr = st->thr;
    char letter;
    switch (seg->directive) {
    case 'y':
        letter = frd_type_letter(e->type);
        emit_str(thr, seg, &letter, 1);
        break;
    case 'Y':
        letter = target_letter(we);
        emit_str(thr, seg, &letter, 1);
        break;
    case 'l':
        emit_link(st, seg);
        break;
    case 'd':
        emit_int(thr, seg, we->depth, 10);
        break;
    case 'm':
        emit_int(thr, seg, e->mode & 07777, 8);
        break;
    case 'M': {
        char m[11];
        ff_mode_string(m, e->type, e->mode);
        emit_str(thr, seg, m, sizeof(m) - 1);
        break;
    }
    case 'u':
        emit_owner(thr, seg, ff_user_name(st->ctx, e->uid, we->worker), e->uid);
        break;
    case 'g':
        emit_owner(thr, seg, ff_group_name(st->ctx, e->gid, we->worker), e->gid);
        break;
    case 'F': {
        const char *s = ff_fstype_name(st->ctx, e->dev);
        emit_str(thr, seg, s, strlen(s));
        break;
    }
    case 'S':
        emit_sparseness(thr, seg, e);
        break;
    case 'Z':
        emit_context(st, seg, st->ctx->opts.follow == FRD_FOLLOW_ALL && e->type != FRD_TYPE_LNK);
        break;
    default:
        assert(!"a directive ff_format_compile() does not make");
        break;
    }
}

void ff_format_render(const struct ff_format *fmt, struct ff_eval *st)
{
    for (size_t i = 0; i < fmt->nsegs; i++) {
        const struct ff_seg *seg = &fmt->segs[i];
        if (seg->overflow) {
            emit_overflow(st, fmt);
            continue;
        }
        switch (seg->directive) {
        case 0:
            if (seg->stop) {
                return;
            }
            ff_out_append(st->thr, seg->text, seg->len);
            break;
        case 'p':
        case 'P':
        case 'H':
        case 'f':
        case 'h':
            emit_path_part(st, seg);
            break;
        case 'A':
        case 'B':
        case 'C':
        case 'T':
            emit_entry_time(st, seg);
            break;
        case 's':
        case 'i':
        case 'n':
        case 'k':
        case 'b':
        case 'D':
        case 'U':
        case 'G':
            emit_number(st, seg);
            break;
        default:
            emit_other(st, seg);
            break;
        }
    }
}
