// SPDX-License-Identifier: MIT
// Copyright (c) 2026 The frd authors

/**
 * One-directory listing benchmarks: frd against readdir+fstatat, scandir+fstatat and the
 * raw-syscall floor (getdents64 + statx written plainly here, no allocation), on directories
 * of 10 and 1,000 files, with full metadata, names only, and type plus file id (answered by
 * the directory records without a stat). Each iteration lists the
 * directory once from open to close. The user_us and sys_us counters are CPU time per
 * listing from getrusage(RUSAGE_THREAD), which shows how much of a listing is the library's
 * own user-space work.
 *
 *     build-release/bench/frd_bench --benchmark_repetitions=5 \
 *         --benchmark_report_aggregates_only=true
 */
extern "C" {
#include "frd.h"
}

#include <benchmark/benchmark.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace
{

/** Makes (once per size) a directory of n empty-ish files under $TMPDIR. */
const char *bench_dir(int n)
{
    static std::string dirs[2];
    std::string &dir = dirs[n > 10 ? 1 : 0];
    if (!dir.empty()) {
        return dir.c_str();
    }
    const char *tmp = getenv("TMPDIR");
    std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/frd-bench-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) {
        perror("mkdtemp");
        abort();
    }
    for (int i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof(name), "/file-%05d.txt", i);
        std::string path = tmpl + name;
        int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0 || write(fd, name, (size_t)(i % 17)) < 0) {
            perror("create");
            abort();
        }
        close(fd);
    }
    dir = tmpl;
    return dir.c_str();
}

double cpu_us(const struct timeval &tv)
{
    return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

/** Adds user/sys CPU per iteration counters around a benchmark loop. */
struct CpuCounters {
    struct rusage start {
    };
    CpuCounters()
    {
        getrusage(RUSAGE_THREAD, &start);
    }
    void report(benchmark::State &state, int entries) const
    {
        struct rusage end {
        };
        getrusage(RUSAGE_THREAD, &end);
        double iters = (double)state.iterations();
        state.counters["user_us"] = (cpu_us(end.ru_utime) - cpu_us(start.ru_utime)) / iters;
        state.counters["sys_us"] = (cpu_us(end.ru_stime) - cpu_us(start.ru_stime)) / iters;
        state.counters["entries"] = entries;
        state.SetItemsProcessed(state.iterations() * entries);
    }
};

// The floor: what any lister must do, written plainly.
alignas(8) unsigned char raw_buffer[64 * 1024];

struct RawDirent {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
};

int raw_list(const char *path, bool stat_each)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        abort();
    }
    int count = 0;
    struct statx stx;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, raw_buffer, sizeof(raw_buffer));
        if (n <= 0) {
            break;
        }
        for (long pos = 0; pos < n;) {
            const RawDirent *d = (const RawDirent *)(raw_buffer + pos);
            pos += d->reclen;
            if (d->name[0] == '.' && (d->name[1] == 0 || (d->name[1] == '.' && d->name[2] == 0))) {
                continue;
            }
            if (stat_each) {
                statx(fd, d->name, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
                      STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_INO | STATX_SIZE |
                          STATX_BLOCKS | STATX_MTIME | STATX_CTIME,
                      &stx);
                benchmark::DoNotOptimize(stx);
            }
            count++;
        }
    }
    close(fd);
    return count;
}

void BM_floor_getdents64_statx(benchmark::State &state)
{
    const char *dir = bench_dir((int)state.range(0));
    CpuCounters cpu;
    int n = 0;
    for (auto _ : state) {
        n = raw_list(dir, true);
    }
    cpu.report(state, n);
}

void BM_floor_getdents64(benchmark::State &state)
{
    const char *dir = bench_dir((int)state.range(0));
    CpuCounters cpu;
    int n = 0;
    for (auto _ : state) {
        n = raw_list(dir, false);
    }
    cpu.report(state, n);
}

void frd_bench(benchmark::State &state, unsigned flags, unsigned wanted = FRD_FIELDS_ALL)
{
    const char *dir = bench_dir((int)state.range(0));
    struct frd_lister *lister;
    struct frd_list *list;
    if (frd_lister_new(&lister, flags) < 0 || frd_list_new(&list) < 0 ||
        frd_lister_set_fields(lister, wanted) < 0) {
        abort();
    }
    CpuCounters cpu;
    int n = 0;
    for (auto _ : state) {
        frd_list_clear(list);
        n = frd_lister_list_path(lister, list, dir);
        benchmark::DoNotOptimize(frd_list_entries(list));
    }
    cpu.report(state, n);
    frd_list_free(list);
    frd_lister_free(lister);
}

void BM_frd_full(benchmark::State &state)
{
    frd_bench(state, 0);
}

void BM_frd_names_only(benchmark::State &state)
{
    frd_bench(state, FRD_LIST_NAMES_ONLY);
}

/** Type and file id: what the directory records answer, so no stat at all. */
void BM_frd_type_file_id(benchmark::State &state)
{
    frd_bench(state, 0, FRD_FIELD_TYPE | FRD_FIELD_FILE_ID);
}

int readdir_list(const char *path, bool stat_each)
{
    DIR *d = opendir(path);
    if (d == nullptr) {
        abort();
    }
    int count = 0;
    struct stat st;
    while (struct dirent *e = readdir(d)) {
        if (e->d_name[0] == '.' &&
            (e->d_name[1] == 0 || (e->d_name[1] == '.' && e->d_name[2] == 0))) {
            continue;
        }
        if (stat_each) {
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW);
            benchmark::DoNotOptimize(st);
        }
        count++;
    }
    closedir(d);
    return count;
}

void BM_readdir_fstatat(benchmark::State &state)
{
    const char *dir = bench_dir((int)state.range(0));
    CpuCounters cpu;
    int n = 0;
    for (auto _ : state) {
        n = readdir_list(dir, true);
    }
    cpu.report(state, n);
}

void BM_readdir(benchmark::State &state)
{
    const char *dir = bench_dir((int)state.range(0));
    CpuCounters cpu;
    int n = 0;
    for (auto _ : state) {
        n = readdir_list(dir, false);
    }
    cpu.report(state, n);
}

int skip_dots(const struct dirent *e)
{
    return !(e->d_name[0] == '.' &&
             (e->d_name[1] == 0 || (e->d_name[1] == '.' && e->d_name[2] == 0)));
}

int scandir_list(const char *path, bool stat_each)
{
    struct dirent **names;
    int n = scandir(path, &names, skip_dots, nullptr);
    if (n < 0) {
        abort();
    }
    int dfd = stat_each ? open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    struct stat st;
    for (int i = 0; i < n; i++) {
        if (stat_each) {
            fstatat(dfd, names[i]->d_name, &st, AT_SYMLINK_NOFOLLOW);
            benchmark::DoNotOptimize(st);
        }
        free(names[i]);
    }
    free(names);
    if (dfd >= 0) {
        close(dfd);
    }
    return n;
}

void BM_scandir_fstatat(benchmark::State &state)
{
    const char *dir = bench_dir((int)state.range(0));
    CpuCounters cpu;
    int n = 0;
    for (auto _ : state) {
        n = scandir_list(dir, true);
    }
    cpu.report(state, n);
}

void BM_scandir(benchmark::State &state)
{
    const char *dir = bench_dir((int)state.range(0));
    CpuCounters cpu;
    int n = 0;
    for (auto _ : state) {
        n = scandir_list(dir, false);
    }
    cpu.report(state, n);
}

} // namespace

// Full metadata.
BENCHMARK(BM_floor_getdents64_statx)->Arg(10)->Arg(1000);
BENCHMARK(BM_frd_full)->Arg(10)->Arg(1000);
BENCHMARK(BM_readdir_fstatat)->Arg(10)->Arg(1000);
BENCHMARK(BM_scandir_fstatat)->Arg(10)->Arg(1000);
// Names only.
BENCHMARK(BM_floor_getdents64)->Arg(10)->Arg(1000);
BENCHMARK(BM_frd_names_only)->Arg(10)->Arg(1000);
BENCHMARK(BM_frd_type_file_id)->Arg(10)->Arg(1000);
BENCHMARK(BM_readdir)->Arg(10)->Arg(1000);
BENCHMARK(BM_scandir)->Arg(10)->Arg(1000);

BENCHMARK_MAIN();
