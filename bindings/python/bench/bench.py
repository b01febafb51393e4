#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Times frd.walk against os.walk (+ os.lstat) and pathlib.Path.rglob, by hand.

Usage: PYTHONPATH=build/bindings/python /usr/bin/python3 bindings/python/bench/bench.py \
           [--rounds N] [--json OUT] [--svg OUT.svg] ROOT...

Each round runs every method once per root, in a rotated order (interleaved, so a change of
machine load hits every method alike); the medians over the rounds are printed, with the
ratio of each method's median to frd's, and the median CPU time (user + system, all threads)
of each. Every method counts the entries it saw, and the
counts must agree (the run fails otherwise). "names": every entry's path (bare "os.walk" only
counts the names it lists, without making their paths); "metadata": every entry's path and
lstat fields (size, mtime, mode) read in Python. --svg draws the chart with gnuplot
(bench/chart.py, which can also redraw it from a --json file).
"""
import argparse
import gc
import json
import os
import pathlib
import platform
import resource
import statistics
import sys
import time

import frd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chart  # noqa: E402  (bench/chart.py: the SVG by gnuplot)


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


METHODS = {
    "names": [("frd.walk(stats=False)", frd_names), ("os.walk", os_walk_bare),
              ("os.walk + path join", os_walk_names),
              ("frd.os_walk", frd_os_walk), ("Path.rglob", rglob_names)],
    "metadata": [("frd.walk", frd_stats), ("os.walk + os.lstat", os_walk_lstat),
                 ("Path.rglob + lstat", rglob_lstat)],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--json")
    ap.add_argument("--svg")
    ap.add_argument("roots", nargs="+")
    args = ap.parse_args()

    jobs = [(root, kind, label, fn) for root in args.roots for kind, methods in METHODS.items()
            for label, fn in methods]
    load_before = os.getloadavg()[0]
    times = {(r, k, l): [] for r, k, l, _ in jobs}
    cpu = {(r, k, l): [] for r, k, l, _ in jobs}  # user + system time of all threads
    counts = {}
    for root, kind, label, fn in jobs:  # warm the cache once
        counts.setdefault(root, fn(root))
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
            if n != counts[root]:
                sys.exit(f"{label} on {root}: {n} entries, expected {counts[root]}")

    result = {"python": sys.version.split()[0], "executable": sys.executable,
              "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.release()}",
              "rounds": args.rounds, "load_before": load_before, "results": []}
    for root in args.roots:
        print(f"\n{root}: {counts[root]} entries, median of {args.rounds} interleaved rounds")
        for kind, methods in METHODS.items():
            base = statistics.median(times[(root, kind, methods[0][0])])
            for label, _ in methods:
                med = statistics.median(times[(root, kind, label)])
                cpu_med = statistics.median(cpu[(root, kind, label)])
                print(f"  {kind:9} {label:24} {med * 1000:8.1f} ms  {med / base:5.2f}x frd"
                      f"   cpu {cpu_med * 1000:7.1f} ms")
                result["results"].append({"root": root, "entries": counts[root], "kind": kind,
                                          "method": label, "median_ms": round(med * 1000, 1),
                                          "ratio_to_frd": round(med / base, 2),
                                          "median_cpu_ms": round(cpu_med * 1000, 1)})
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
