#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Peak RSS of frdmpi's ranks against the single-process tools, and how much of it is MPI's.

Usage: mpi_rss.py BUILD_DIR TREE [RUNS]

For each set of mpirun options below (Open MPI's defaults, then settings that load less of
it), runs `frdmpi walk -j 1 TREE` at -np 1, 2 and 4 and, with the same options and -np, a
rank that only starts and ends MPI (`frdmpi --version`: MPI_Init_thread, MPI_Finalize).
Each rank writes its peak RSS (/usr/bin/time's %M) to a file of its own. Then the
single-process tools on TREE: frdcount -j 1 and -j 4, frdfind -j 4 (output to /dev/null),
and frdcount on an empty folder (the same binary and libraries, no tree). RUNS rounds
(default 3), medians of the largest rank's peak.

Prints, per option set and -np: the rank's peak, the MPI-only rank's, and the difference
(frd's part of a rank: its walk, its queues, the messages); then each single-process
walk's peak and its difference from frdcount on the empty folder (frd's part there).
"""
import os
import statistics
import subprocess
import sys
import tempfile

HWLOC_OFF = "hwloc_gl,hwloc_opencl,hwloc_pci,hwloc_xml_libxml"
OPTION_SETS = [
    ("defaults", [], {}),
    ("btl self,vader", ["--mca", "btl", "self,vader"], {}),
    ("btl self,vader, no hwloc plugins", ["--mca", "btl", "self,vader"],
     {"HWLOC_PLUGINS_BLACKLIST": HWLOC_OFF}),
    ("all of the above, fewer components",
     ["--mca", "btl", "self,vader", "--mca", "pml", "ob1", "--mca", "coll",
      "basic,self,libnbc", "--mca", "osc", "^rdma,ucx"],
     {"HWLOC_PLUGINS_BLACKLIST": HWLOC_OFF}),
]
NPS = (1, 2, 4)


def peak(cmd, env, out):
    """Runs cmd; returns the largest peak RSS (KiB) its processes wrote to `out`."""
    for f in os.listdir(out):
        os.unlink(os.path.join(out, f))
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    peaks = [int(open(os.path.join(out, f)).read().split()[-1]) for f in os.listdir(out)]
    if p.returncode not in (0, 1) or not peaks:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr[-500:]}")
    return max(peaks)


def main():
    build, tree = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    frdmpi = os.path.join(build, "examples", "frdmpi")
    frdcount = os.path.join(build, "examples", "frdcount")
    frdfind = os.path.join(build, "examples", "frdfind")
    out = tempfile.mkdtemp()
    empty = tempfile.mkdtemp()
    rss = ["sh", "-c", '/usr/bin/time -f "%M" -o "$0/rss.${OMPI_COMM_WORLD_RANK:-0}" "$@"', out]
    mpirun = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.getuid() == 0 else [])
    configs = []  # (key, command, environment)
    for name, opts, extra in OPTION_SETS:
        env = dict(os.environ, **extra)
        xs = sum((["-x", k] for k in extra), [])
        for n in NPS:
            base = mpirun + xs + opts + ["-np", str(n)] + rss
            configs.append(((name, n, "walk"), base + [frdmpi, "walk", "-q", "-j", "1", tree], env))
            configs.append(((name, n, "mpi"), base + [frdmpi, "--version"], env))
    singles = [("frdcount -j 1", [frdcount, "-q", "-j", "1", tree]),
               ("frdcount -j 4", [frdcount, "-q", "-j", "4", tree]),
               ("frdfind -j 4", [frdfind, "-j", "4", tree]),
               ("frdcount, empty folder", [frdcount, "-q", "-j", "1", empty])]
    configs += [((label, 0, "single"), rss + cmd, dict(os.environ)) for label, cmd in singles]
    peaks = {key: [] for key, _, _ in configs}
    for r in range(runs):
        for key, cmd, env in configs[r % len(configs):] + configs[:r % len(configs)]:
            peaks[key].append(peak(cmd, env, out))
    med = {key: statistics.median(v) for key, v in peaks.items()}
    load = os.getloadavg()
    print(f"tree {tree}; {runs} rounds, medians of the largest rank's peak RSS (KiB); "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print("| mpirun options | -np | rank, frdmpi walk -j 1 | rank, MPI only | frd's part |")
    print("|---|---|---|---|---|")
    for name, _, _ in OPTION_SETS:
        for n in NPS:
            w, m = med[(name, n, "walk")], med[(name, n, "mpi")]
            print(f"| {name} | {n} | {w:.0f} | {m:.0f} | {w - m:.0f} |")
    print()
    empty_peak = med[("frdcount, empty folder", 0, "single")]
    print("| single process | peak RSS | above frdcount on an empty folder |")
    print("|---|---|---|")
    for label, _ in singles:
        p = med[(label, 0, "single")]
        print(f"| {label} | {p:.0f} | {p - empty_peak:.0f} |")
    print()
    d = OPTION_SETS[0][0]
    np4, np1 = med[(d, 4, "walk")], med[(d, 1, "walk")]
    part4 = np4 - med[(d, 4, "mpi")]
    single4 = med[("frdcount -j 4", 0, "single")]
    print(f"defaults: a rank at -np 4 {np4:.0f} KiB, at -np 1 {np1:.0f} KiB; frd's part at "
          f"-np 4 {part4:.0f} KiB against {single4 - empty_peak:.0f} KiB for frdcount -j 4 "
          f"(whole process {single4:.0f} KiB)")


if __name__ == "__main__":
    main()
