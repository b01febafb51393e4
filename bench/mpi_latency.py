#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""frdmpi's walk against the single-process walker, with a simulated listing latency.

Usage: mpi_latency.py BUILD_DIR TREE [RUNS] [DELAY_US]

Every listing sleeps DELAY_US (default 200) microseconds in both walkers (mpi/'s test-only
FRD_MPI_TEST_LIST_DELAY_US; bench/mpi_delay_walk for the single process). Configurations:
the single-process walker with 1, 2, 4 and 8 workers, and `mpirun -np N frdmpi walk -j 1`
(one worker per rank) for N = 1, 2, 4, 8, oversubscribed on this machine. RUNS rounds
(default 5) run every configuration once, in an order rotated by one per round. Reports the
median of each walk's own time (the "seconds" line of rank 0: MPI start-up and the final
reduction are not in it). Peak RSS per rank: bench/mpi_rss.py.
"""
import os
import re
import statistics
import subprocess
import sys


def main():
    build, tree = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    delay = sys.argv[4] if len(sys.argv) > 4 else "200"
    env = dict(os.environ, FRD_MPI_TEST_LIST_DELAY_US=delay)
    single = os.path.join(build, "bench", "mpi_delay_walk")
    frdmpi = os.path.join(build, "examples", "frdmpi")
    mpirun = ["mpirun", "--oversubscribe", "-x", "FRD_MPI_TEST_LIST_DELAY_US"]
    if os.getuid() == 0:
        mpirun.append("--allow-run-as-root")
    configs = [(f"single -j {j}", [single, "-j", str(j), tree]) for j in (1, 2, 4, 8)]
    configs += [(f"mpi -np {n} -j 1", mpirun + ["-np", str(n)] +
                 [frdmpi, "walk", "-q", "-j", "1", tree]) for n in (1, 2, 4, 8)]
    times = {label: [] for label, _ in configs}
    entries = {}
    load0 = os.getloadavg()[0]
    for r in range(runs + 1):  # round 0 warms the cache and is not counted
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for label, cmd in order:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True)
            sec = re.search(r"^([0-9.]+) seconds$", p.stdout, re.M)
            ent = re.search(r"^([0-9]+) entries$", p.stdout, re.M)
            if p.returncode != 0 or not sec or not ent:
                sys.exit(f"{label} failed ({p.returncode}): {p.stderr[-500:]}")
            entries.setdefault(label, ent.group(1))
            if r > 0:
                times[label].append(float(sec.group(1)))
    if len(set(entries.values())) != 1:
        sys.exit(f"the walks disagree on the entries: {entries}")
    load = os.getloadavg()
    print(f"tree {tree}: {entries[configs[0][0]]} entries; listing delay {delay} us; "
          f"{runs} rounds; load average {load0:.1f} before, {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f} after")
    print("| configuration | median walk s | runs |")
    print("|---|---|---|")
    med = {}
    for label, _ in configs:
        med[label] = statistics.median(times[label])
        runs_text = " ".join(f"{t:.3f}" for t in times[label])
        print(f"| {label} | {med[label]:.3f} | {runs_text} |")
    print()
    print(f"np4 speed-up over np1: {med['mpi -np 1 -j 1'] / med['mpi -np 4 -j 1']:.2f}x (bar >= 3)")
    print(f"np4 / single -j 4: {med['mpi -np 4 -j 1'] / med['single -j 4']:.2f} (bar <= 1.15)")
    print(f"np1 / single -j 1: {med['mpi -np 1 -j 1'] / med['single -j 1']:.2f} (bar <= 1.1)")
    print(f"np8 / single -j 8: {med['mpi -np 8 -j 1'] / med['single -j 8']:.2f} (no bar)")


if __name__ == "__main__":
    main()
