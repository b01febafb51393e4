#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Walk benchmark matrix: frd against fts, nftw and the syscall floors, interleaved.

Usage: walk_bench.py BENCH_WALK RUNS TREE...     (TREE: a directory, e.g. /usr)

For each tree and mode (names, full) it runs every implementation once as a warm-up, then
RUNS rounds in which each runs once, in an order rotated by one per round, so all see the
same cache and machine state. Each run is its own process (bench_walk), so peak RSS is the
walk's own. Prints a Markdown table per tree and mode: median wall, median user and system
CPU, allocations, peak RSS, and the wall time against frd at 1 worker and against the floor
with the same number of threads (floor1 for 1 worker, floor2 for 2 and more).
"""
import statistics
import subprocess
import sys

IMPLS = [("frd", 1), ("frd", 2), ("frd", 4), ("frd", 8), ("frd-ordered", 2), ("fts", 1),
         ("nftw", 1), ("floor1", 1), ("floor2", 2)]


def run(bench, impl, mode, workers, tree):
    out = subprocess.run([bench, impl, mode, str(workers), tree], check=True,
                         capture_output=True, text=True).stdout.split()
    return {"entries": int(out[3]), "wall": float(out[4]), "user": float(out[5]),
            "sys": float(out[6]), "allocs": int(out[7]), "rss": int(out[8])}


def main():
    bench, runs, trees = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    for tree in trees:
        for mode in ("names", "full"):
            res = {k: [] for k in IMPLS}
            for rnd in range(runs + 1):
                order = IMPLS[rnd % len(IMPLS):] + IMPLS[:rnd % len(IMPLS)]
                for impl, workers in order:
                    r = run(bench, impl, mode, workers, tree)
                    if rnd > 0:
                        res[(impl, workers)].append(r)
            med = {k: {f: statistics.median(r[f] for r in v) for f in v[0]}
                   for k, v in res.items()}
            frd1 = med[("frd", 1)]["wall"]
            print(f"\n{tree}, {mode}: {int(med[('floor1', 1)]['entries'])} entries, "
                  f"median of {runs} interleaved runs\n")
            print("| walker | threads | wall (ms) | user (ms) | sys (ms) | allocations "
                  "| peak RSS (MiB) | / frd 1 worker | / floor, same threads |")
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            for impl, workers in IMPLS:
                m = med[(impl, workers)]
                floor = med[("floor1", 1)] if workers == 1 else med[("floor2", 2)]
                print(f"| {impl} | {workers} | {m['wall'] * 1e3:.0f} | {m['user'] * 1e3:.0f} "
                      f"| {m['sys'] * 1e3:.0f} | {m['allocs']:.0f} | {m['rss'] / 1024:.1f} "
                      f"| {m['wall'] / frd1:.2f} | {m['wall'] / floor['wall']:.2f} |")


if __name__ == "__main__":
    main()
