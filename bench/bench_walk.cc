// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * bench_walk: one tree walk per process, so that peak RSS is the walk's own.
 *
 *   bench_walk IMPL MODE WORKERS ROOT
 *     IMPL     frd | frd-ordered | fts | nftw | floor1 | floor2
 *     MODE     names (names and types) | full (one statx or lstat per entry)
 *     WORKERS  frd's workers (the others ignore it: fts, nftw and floor1 use one thread,
 *              floor2 two)
 *
 * Prints one line: impl mode workers entries wall_s user_s sys_s allocations maxrss_kb.
 * The floors are what a walk cannot do without: openat(parent, name, O_NOFOLLOW |
 * O_DIRECTORY) + getdents64 into a 64 KiB buffer + close, plus one statx per entry in full
 * mode, on one thread (depth-first recursion), or on two threads sharing a locked stack.
 * bench/walk_bench.py runs the matrix interleaved and reports medians.
 */
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <frd.h>
#include <fts.h>
#include <ftw.h>
#include <mutex>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace
{

std::atomic<uint64_t> g_entries{0};
std::atomic<uint64_t> g_allocs{0};

void *count_malloc(size_t n)
{
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    return malloc(n);
}

void *count_realloc(void *p, size_t n)
{
    g_allocs.fetch_add(1, std::memory_order_relaxed);
    return realloc(p, n);
}

constexpr unsigned kStatxMask = STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_INO | STATX_SIZE |
                                STATX_BLOCKS | STATX_MTIME | STATX_CTIME;

struct dirent64_rec {
    uint64_t ino;
    int64_t off;
    uint16_t reclen;
    uint8_t type;
    char name[];
};

bool dot_or_dotdot(const char *n)
{
    return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

/** Lists an open directory: counts entries, stats them in full mode, collects subdirs. */
void floor_list(int fd, bool full, std::vector<char> &buf, std::vector<std::string> &subdirs)
{
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf.data(), buf.size());
        if (n <= 0) {
            break;
        }
        for (long pos = 0; pos < n;) {
            auto *d = reinterpret_cast<dirent64_rec *>(buf.data() + pos);
            pos += d->reclen;
            if (dot_or_dotdot(d->name)) {
                continue;
            }
            g_entries.fetch_add(1, std::memory_order_relaxed);
            unsigned char type = d->type;
            if (full || type == DT_UNKNOWN) {
                struct statx stx;
                if (statx(fd, d->name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
                          full ? kStatxMask : STATX_TYPE, &stx) == 0) {
                    type = S_ISDIR(stx.stx_mode) ? DT_DIR : DT_REG;
                }
            }
            if (type == DT_DIR) {
                subdirs.emplace_back(d->name);
            }
        }
    }
}

void floor1_dir(int fd, bool full, std::vector<char> &buf)
{
    std::vector<std::string> subdirs;
    floor_list(fd, full, buf, subdirs);
    for (const std::string &s : subdirs) {
        int c = openat(fd, s.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (c >= 0) {
            floor1_dir(c, full, buf);
            close(c);
        }
    }
}

/** The two-thread floor: a stack of (parent, name) under one lock. */
struct Parent {
    int fd;
    std::atomic<int> refs;
};

struct Task {
    Parent *parent;
    std::string name;
};

struct Floor2 {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<Task> stack;
    size_t pending = 0;
    bool full = false;
};

void release(Parent *p)
{
    if (p->refs.fetch_sub(1) == 1) {
        close(p->fd);
        delete p;
    }
}

void floor2_worker(Floor2 *f)
{
    std::vector<char> buf(64 * 1024);
    std::vector<std::string> subdirs;
    for (;;) {
        Task t;
        {
            std::unique_lock<std::mutex> lk(f->mu);
            f->cv.wait(lk, [f] { return !f->stack.empty() || f->pending == 0; });
            if (f->stack.empty()) {
                return;
            }
            t = std::move(f->stack.back());
            f->stack.pop_back();
        }
        int fd =
            openat(t.parent->fd, t.name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        release(t.parent);
        if (fd >= 0) {
            subdirs.clear();
            floor_list(fd, f->full, buf, subdirs);
            auto *self = new Parent{fd, {1 + static_cast<int>(subdirs.size())}};
            {
                std::lock_guard<std::mutex> lk(f->mu);
                for (std::string &s : subdirs) {
                    f->stack.push_back(Task{self, std::move(s)});
                }
                f->pending += subdirs.size();
            }
            if (!subdirs.empty()) {
                f->cv.notify_all();
            }
            release(self);
        }
        std::lock_guard<std::mutex> lk(f->mu);
        if (--f->pending == 0) {
            f->cv.notify_all();
        }
    }
}

int nftw_cb(const char *, const struct stat *, int, struct FTW *)
{
    g_entries.fetch_add(1, std::memory_order_relaxed);
    return 0;
}

enum frd_action frd_cb(const struct frd_walk_entry *, void *)
{
    g_entries.fetch_add(1, std::memory_order_relaxed);
    return FRD_ACTION_CONTINUE;
}

/** Peak resident set of this process in KiB (VmHWM: ru_maxrss would include what the
 *  parent had before exec). */
long peak_rss_kib()
{
    FILE *f = fopen("/proc/self/status", "r");
    if (f == nullptr) {
        return -1;
    }
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof(line), f) != nullptr) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kib = strtol(line + 6, nullptr, 10);
        }
    }
    fclose(f);
    return kib;
}

double seconds(const struct timeval &tv)
{
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: bench_walk frd|frd-ordered|fts|nftw|floor1|floor2 names|full "
                        "WORKERS ROOT\n");
        return 2;
    }
    std::string impl = argv[1];
    bool full = strcmp(argv[2], "full") == 0;
    unsigned workers = static_cast<unsigned>(strtoul(argv[3], nullptr, 10));
    const char *root = argv[4];
    frd_replace_allocator(count_malloc, count_realloc, free);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = 0;
    if (impl == "frd" || impl == "frd-ordered") {
        struct frd_walk_options o;
        frd_walk_options_init(&o);
        o.workers = workers;
        o.flags = (full ? 0 : FRD_WALK_NAMES_ONLY) | (impl == "frd-ordered" ? FRD_WALK_ORDERED : 0);
        rc = frd_walk(root, &o, frd_cb, nullptr);
    } else if (impl == "fts") {
        char *const paths[] = {const_cast<char *>(root), nullptr};
        FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR | (full ? 0 : FTS_NOSTAT), nullptr);
        if (fts == nullptr) {
            return 1;
        }
        FTSENT *e;
        while ((e = fts_read(fts)) != nullptr) {
            if (e->fts_info != FTS_DP) {
                g_entries.fetch_add(1, std::memory_order_relaxed);
            }
        }
        fts_close(fts);
    } else if (impl == "nftw") {
        // nftw stats every entry whatever the mode: it has no names-only form.
        rc = nftw(root, nftw_cb, 64, FTW_PHYS);
    } else if (impl == "floor1" || impl == "floor2") {
        int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            return 1;
        }
        g_entries.fetch_add(1);
        if (impl == "floor1") {
            std::vector<char> buf(64 * 1024);
            floor1_dir(fd, full, buf);
            close(fd);
        } else {
            Floor2 f;
            f.full = full;
            std::vector<char> buf(64 * 1024);
            std::vector<std::string> subdirs;
            floor_list(fd, full, buf, subdirs);
            auto *self = new Parent{fd, {1 + static_cast<int>(subdirs.size())}};
            for (std::string &s : subdirs) {
                f.stack.push_back(Task{self, std::move(s)});
            }
            f.pending = f.stack.size();
            release(self);
            std::thread a(floor2_worker, &f);
            std::thread b(floor2_worker, &f);
            a.join();
            b.join();
        }
    } else {
        fprintf(stderr, "bench_walk: unknown implementation %s\n", impl.c_str());
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double wall = static_cast<double>(t1.tv_sec - t0.tv_sec) +
                  static_cast<double>(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s %s %u %llu %.6f %.6f %.6f %llu %ld\n", impl.c_str(), full ? "full" : "names",
           workers, static_cast<unsigned long long>(g_entries.load()), wall, seconds(ru.ru_utime),
           seconds(ru.ru_stime), static_cast<unsigned long long>(g_allocs.load()), peak_rss_kib());
    return rc < 0 ? 1 : 0;
}
