#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Two builds of the walker side by side: bench_walk of an old and a new build, interleaved.

Usage: walk_ab.py OLD_BENCH_WALK NEW_BENCH_WALK ROUNDS TREE

For each walk (frd and frd-ordered, names and full, 1 to 8 workers) it runs both binaries
once as a warm-up, then ROUNDS rounds in which each runs once, walks in an order rotated
by one per round and the two binaries alternating which goes first, so both see the same
cache and machine state. Each run is its own process. Prints a Markdown table of the
medians of each walk's own wall time and CPU time (user + system, from bench_walk) and the
new / old ratios. On a shared machine the CPU column is the steadier one.
"""
import statistics
import subprocess
import sys

WALKS = [("frd", "names", 1), ("frd", "names", 2), ("frd", "names", 8), ("frd", "full", 1),
         ("frd", "full", 2), ("frd", "full", 8), ("frd-ordered", "names", 1),
         ("frd-ordered", "names", 2), ("frd-ordered", "full", 1), ("frd-ordered", "full", 2)]


def run(bench, impl, mode, workers, tree):
    out = subprocess.run([bench, impl, mode, str(workers), tree], check=True,
                         capture_output=True, text=True).stdout.split()
    return int(out[3]), float(out[4]), float(out[5]) + float(out[6])


def main():
    old, new, rounds, tree = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    res = {(w, b): [] for w in WALKS for b in ("old", "new")}
    entries = {}
    for rnd in range(rounds + 1):
        for w in WALKS[rnd % len(WALKS):] + WALKS[:rnd % len(WALKS)]:
            pair = [("old", old), ("new", new)]
            if rnd % 2:
                pair.reverse()
            for label, bench in pair:
                n, wall, cpu = run(bench, *w, tree)
                entries.setdefault(w, set()).add(n)
                if rnd > 0:  # round 0 is the warm-up
                    res[(w, label)].append((wall, cpu))
    print(f"{tree}: medians of {rounds} interleaved rounds\n")
    print("| walk | mode | workers | entries | old wall (ms) | new wall (ms) | new / old "
          "| old CPU (ms) | new CPU (ms) | new / old |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for w in WALKS:
        ow, nw = (statistics.median(x for x, _ in res[(w, b)]) for b in ("old", "new"))
        oc, nc = (statistics.median(c for _, c in res[(w, b)]) for b in ("old", "new"))
        n = "/".join(map(str, sorted(entries[w])))
        print(f"| {w[0]} | {w[1]} | {w[2]} | {n} | {ow * 1e3:.0f} | {nw * 1e3:.0f} | "
              f"{nw / ow:.2f} | {oc * 1e3:.0f} | {nc * 1e3:.0f} | {nc / oc:.2f} |")


if __name__ == "__main__":
    main()
