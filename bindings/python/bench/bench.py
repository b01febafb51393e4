#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Times frd's walks against the standard library's, by hand.

Usage: /usr/bin/python3 bindings/python/bench/bench.py [--rounds N] [--prune NAME]
           [--memory N] [--json OUT] [--svg OUT.svg] ROOT...
(with frd importable: installed, or PYTHONPATH=build/bindings/python)

Each round runs every method once per root, in a rotated order (interleaved, so a change of
machine load hits every method alike); the medians over the rounds are printed, with the
ratio of each method's median to frd's, wall and CPU (user + system of all the process's
threads: on a loaded machine the CPU ratio is the steadier one). Within a kind every
method counts the entries it saw, and the counts must agree (the run fails otherwise).
Kinds:
  names     every entry's path: frd.walk(stats=False) against a plain recursive os.scandir
            loop, os.walk (bare: only counts the names it lists; "+ path join": makes the
            paths) and Path.rglob
  metadata  every entry's path and lstat fields (size, mtime, mode) read in Python
  os.walk   frd.os_walk against os.walk, the same tuples
  pruned    the same with the directories named --prune (default "share") pruned in
            place (dirnames[:] = ...): the walk never enters them
--memory N runs each os.walk method N times in a fresh interpreter and reports the peak
resident memory the walk added (VmHWM minus VmRSS before it), median of N. --svg draws the
chart with gnuplot (bench/chart.py, which can also redraw it from a --json file).
"""
import argparse
import gc
import json
import os
import pathlib
import platform
import resource
import statistics
import subprocess
import sys
import time

import frd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chart  # noqa: E402  (bench/chart.py: the SVG by gnuplot)


def scandir_names(root):
    n = 0
    stack = [root]
    while stack:
        try:
            it = os.scandir(stack.pop())
        except OSError:
            continue
        with it:
            for e in it:
                e.path
                n += 1
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
    return n


def os_walk_bare(root):
    n = 0
    for dirpath, dirs, files in os.walk(root):
        n += len(dirs) + len(files)
    return n


def os_walk_names(root):
    n = 0
    join = os.path.join
    for dirpath, dirs, files in os.walk(root):
        for name in dirs:
            join(dirpath, name)
        for name in files:
            join(dirpath, name)
        n += len(dirs) + len(files)
    return n


def os_walk_lstat(root):
    n = 0
    join = os.path.join
    lstat = os.lstat
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            st = lstat(join(dirpath, name))
            st.st_size, st.st_mtime_ns, st.st_mode
            n += 1
    return n


def rglob_names(root):
    n = 0
    for p in pathlib.Path(root).rglob("*"):
        str(p)
        n += 1
    return n


def rglob_lstat(root):
    n = 0
    for p in pathlib.Path(root).rglob("*"):
        st = p.lstat()
        st.st_size, st.st_mtime_ns, st.st_mode
        n += 1
    return n


def frd_names(root):
    n = 0
    for e in frd.walk(root, stats=False):
        e.path
        n += 1
    return n


def frd_stats(root):
    n = 0
    for e in frd.walk(root):
        e.path, e.size, e.mtime_ns, e.mode
        n += 1
    return n


def frd_os_walk(root):
    return sum(len(d) + len(f) for _, d, f in frd.os_walk(root))


PRUNE = "share"


def pruned(walker):
    def walk(root):
        n = 0
        for _, dirs, files in walker(root):
            n += len(dirs) + len(files)
            if PRUNE in dirs:
                dirs.remove(PRUNE)
        return n
    return walk


METHODS = {
    "names": [("frd.walk(stats=False)", frd_names), ("os.scandir loop", scandir_names),
              ("os.walk", os_walk_bare), ("os.walk + path join", os_walk_names),
              ("Path.rglob", rglob_names)],
    "metadata": [("frd.walk", frd_stats), ("os.walk + os.lstat", os_walk_lstat),
                 ("Path.rglob + lstat", rglob_lstat)],
    "os.walk": [("frd.os_walk", frd_os_walk), ("os.walk", os_walk_bare)],
    "pruned": [("frd.os_walk", pruned(frd.os_walk)), ("os.walk", pruned(os.walk))],
}

# A fresh interpreter walks `root` with one of the two and prints the peak resident memory
# the walk added: the high-water mark after it less the resident size before it (kB).
MEMORY_CHILD = """
import os, sys, frd
def kb(field):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))
walker = frd.os_walk if sys.argv[2] == "frd.os_walk" else os.walk
before = kb("VmRSS")
n = 0
for _, dirs, files in walker(sys.argv[1]):
    n += len(dirs) + len(files)
print(kb("VmHWM") - before, kb("VmHWM"), n)
"""


def memory(root, rounds):
    """{method: (median kB added, median peak kB)} of frd.os_walk and os.walk on root."""
    got = {"frd.os_walk": [], "os.walk": []}
    for i in range(rounds):
        for method in (list(got) if i % 2 == 0 else list(got)[::-1]):
            out = subprocess.run([sys.executable, "-c", MEMORY_CHILD, root, method],
                                 check=True, stdout=subprocess.PIPE, text=True).stdout.split()
            got[method].append((int(out[0]), int(out[1])))
    return {m: (statistics.median(a for a, _ in v), statistics.median(p for _, p in v))
            for m, v in got.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--prune", default="share")
    ap.add_argument("--memory", type=int, default=0)
    ap.add_argument("--json")
    ap.add_argument("--svg")
    ap.add_argument("roots", nargs="+")
    args = ap.parse_args()
    global PRUNE
    PRUNE = args.prune

    jobs = [(root, kind, label, fn) for root in args.roots for kind, methods in METHODS.items()
            for label, fn in methods]
    load_before = os.getloadavg()[0]
    times = {(r, k, l): [] for r, k, l, _ in jobs}
    cpu = {(r, k, l): [] for r, k, l, _ in jobs}  # user + system time of all threads
    counts = {}
    for root, kind, label, fn in jobs:  # warm the cache once
        counts.setdefault((root, kind), fn(root))
    for i in range(args.rounds):
        shift = i % len(jobs)
        for root, kind, label, fn in jobs[shift:] + jobs[:shift]:
            gc.collect()
            r0 = resource.getrusage(resource.RUSAGE_SELF)
            t = time.perf_counter()
            n = fn(root)
            times[(root, kind, label)].append(time.perf_counter() - t)
            r1 = resource.getrusage(resource.RUSAGE_SELF)
            cpu[(root, kind, label)].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            if n != counts[(root, kind)]:
                sys.exit(f"{label} on {root}: {n} entries, expected {counts[(root, kind)]}")

    result = {"python": sys.version.split()[0], "executable": sys.executable,
              "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.release()}",
              "rounds": args.rounds, "load_before": load_before, "results": []}
    for root in args.roots:
        print(f"\n{root}: {counts[(root, 'names')]} entries, median of {args.rounds} "
              f"interleaved rounds")
        for kind, methods in METHODS.items():
            base = statistics.median(times[(root, kind, methods[0][0])])
            cpu_base = statistics.median(cpu[(root, kind, methods[0][0])])
            for label, _ in methods:
                med = statistics.median(times[(root, kind, label)])
                cpu_med = statistics.median(cpu[(root, kind, label)])
                print(f"  {kind:9} {label:24} {med * 1000:8.1f} ms  {med / base:5.2f}x frd"
                      f"   cpu {cpu_med * 1000:7.1f} ms  {cpu_med / cpu_base:5.2f}x frd")
                result["results"].append({"root": root, "entries": counts[(root, kind)],
                                          "kind": kind, "method": label,
                                          "median_ms": round(med * 1000, 1),
                                          "ratio_to_frd": round(med / base, 2),
                                          "median_cpu_ms": round(cpu_med * 1000, 1),
                                          "cpu_ratio_to_frd": round(cpu_med / cpu_base, 2)})
        if args.memory:
            mem = memory(root, args.memory)
            base = mem["frd.os_walk"][0]
            for label, (added, peak) in mem.items():
                print(f"  memory    {label:24} {added:8.0f} kB added (peak {peak:.0f} kB)"
                      f"  {added / max(base, 1):5.2f}x frd")
                result.setdefault("memory", []).append({"root": root, "method": label,
                                                        "added_kb": added, "peak_kb": peak})
    result["load_after"] = os.getloadavg()[0]
    print(f"\nload average (1 min) before {result['load_before']:.2f}, "
          f"after {result['load_after']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if args.svg:
        chart.draw(result, args.svg)


if __name__ == "__main__":
    main()
