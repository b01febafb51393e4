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
median of each walk's own time (the "seconds" line: MPI start-up and the final reduction are
not in it) and the median peak RSS (per rank: the largest rank's, from /usr/bin/time).

Peak RSS is mostly not frd's: two baselines are measured as well, a rank that only starts
and ends MPI (`frdmpi --version` under mpirun) and the single-process walker on an empty
folder (the same binary, its libraries, no tree). The last lines give each walk's peak
above its baseline: frd's own part, per rank and for the single process.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile


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
    out = tempfile.mkdtemp()
    # Each rank writes its peak RSS to a file of its own (stderr lines of ranks interleave).
    rss = ["sh", "-c", '/usr/bin/time -f "rss %M" -o "$0/rss.${OMPI_COMM_WORLD_RANK:-0}" "$@"',
           out]
    configs = [(f"single -j {j}", rss + [single, "-j", str(j), tree]) for j in (1, 2, 4, 8)]
    configs += [(f"mpi -np {n} -j 1", mpirun + ["-np", str(n)] + rss +
                 [frdmpi, "walk", "-q", "-j", "1", tree]) for n in (1, 2, 4, 8)]
    # The MPI runtime's own peak RSS: a rank that only starts and ends MPI.
    configs.append(("mpi -np 4, MPI only", mpirun + ["-np", "4"] + rss + [frdmpi, "--version"]))
    # The single process's own baseline: the same walker with nothing to walk.
    empty = tempfile.mkdtemp()
    configs.append(("single, empty folder", rss + [single, "-j", "1", empty]))
    times = {label: [] for label, _ in configs}
    peaks = {label: [] for label, _ in configs}
    entries = {}
    for r in range(runs + 1):  # round 0 warms the cache and is not counted
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for label, cmd in order:
            for f in os.listdir(out):
                os.unlink(os.path.join(out, f))
            p = subprocess.run(cmd, env=env, capture_output=True, text=True)
            if "MPI only" in label or "empty" in label:
                p.stdout += "0 seconds\n"
            sec = re.search(r"^([0-9.]+) seconds$", p.stdout, re.M)
            ent = re.search(r"^([0-9]+) entries$", p.stdout, re.M)
            peak = [int(open(os.path.join(out, f)).read().split()[-1]) for f in os.listdir(out)]
            if p.returncode != 0 or not sec or not peak:
                sys.exit(f"{label} failed ({p.returncode}): {p.stderr[-500:]}")
            if ent and "empty" not in label:
                entries.setdefault(label, ent.group(1))
            if r > 0:
                times[label].append(float(sec.group(1)))
                peaks[label].append(max(peak))
    if len(set(entries.values())) != 1:
        sys.exit(f"the walks disagree on the entries: {entries}")
    load = os.getloadavg()
    print(f"tree {tree}: {entries[configs[0][0]]} entries; listing delay {delay} us; "
          f"{runs} rounds; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print("| configuration | median walk s | median peak RSS per rank KiB |")
    print("|---|---|---|")
    med = {}
    for label, _ in configs:
        med[label] = statistics.median(times[label])
        print(f"| {label} | {med[label]:.3f} | {statistics.median(peaks[label]):.0f} |")
    print()
    print(f"np4 speed-up over np1: {med['mpi -np 1 -j 1'] / med['mpi -np 4 -j 1']:.2f}x (bar >= 3)")
    print(f"np4 / single -j 4: {med['mpi -np 4 -j 1'] / med['single -j 4']:.2f} (bar <= 1.15)")
    print(f"np1 / single -j 1: {med['mpi -np 1 -j 1'] / med['single -j 1']:.2f} (bar <= 1.1)")
    rss_med = {label: statistics.median(peaks[label]) for label, _ in configs}
    mpi_part = rss_med["mpi -np 4 -j 1"] - rss_med["mpi -np 4, MPI only"]
    single_part = rss_med["single -j 4"] - rss_med["single, empty folder"]
    print(f"peak RSS per rank at -np 4: {rss_med['mpi -np 4 -j 1']:.0f} KiB, single -j 4: "
          f"{rss_med['single -j 4']:.0f} KiB (bar: rank <= single)")
    print(f"  above the MPI-only rank (frd's part of a rank): {mpi_part:.0f} KiB; single -j 4 "
          f"above the walker on an empty folder (frd's part): {single_part:.0f} KiB")


if __name__ == "__main__":
    main()
