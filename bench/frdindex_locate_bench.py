#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""frdindex against plocate on one tree: `frdindex find` and `plocate` for issue 40's query
forms, the two updates (from empty), both databases' sizes; with --old-build, a second
frdindex (say main's) side by side. Interleaved rounds (order rotated each round) after a
warm-up, medians; every database built from the same tree. The outputs of each query are
compared (sorted) and a difference is printed, so the figures are of equal answers.

Usage: bench/frdindex_locate_bench.py [--build DIR] [--old-build DIR] [--runs N]
                                    [--updates-once] [TREE]
  defaults: build-release, 5 runs, /usr. plocate comes from Debian (scripts/deps.sh).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

QUERIES = [
    ["libc.so"],
    ["-l", "10", "zzzznotfound"],
    ["-l", "10", "lib"],
    ["-l", "10", "*.png"],
    ["-b", "passwd"],
    ["-i", "readme"],
    ["*.png"],
    ["-c", "*.h"],
    ["-r", "man[0-9]/[a-c]"],
    ["-r", "libc\\.so\\.[0-9]"],
    ["--regex", "python3\\.[0-9]+/.*\\.pyc$"],
    ["--regex", "-i", "/(doc|man)/.*readme"],
    ["-b", "-r", "^lib.*\\.a$"],
    ["--regex", "-l", "10", "share/.*\\.png$"],
]


def timed(argv, setup=None):
    if setup:
        setup()
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=devnull, stderr=devnull)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit("failed: %s" % " ".join(argv))
    return wall, ru.ru_utime + ru.ru_stime


def interleave(cmds, runs, cpu=None):
    """cmds: list of (label, argv, setup); returns {label: median wall seconds}, and the
    median CPU seconds (user + sys) into `cpu` when given."""
    times = {label: [] for label, _, _ in cmds}
    cpus = {label: [] for label, _, _ in cmds}
    for rnd in range(runs + 1):
        k = rnd % len(cmds)
        for label, argv, setup in cmds[k:] + cmds[:k]:
            t, c = timed(argv, setup)
            if rnd > 0:
                times[label].append(t)
                cpus[label].append(c)
    if cpu is not None:
        cpu.update({label: statistics.median(v) for label, v in cpus.items()})
    return {label: statistics.median(v) for label, v in times.items()}


def output(argv):
    return sorted(subprocess.run(argv, stdout=subprocess.PIPE, check=False).stdout.split(b"\n"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build-release")
    ap.add_argument("--old-build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--updates-once", action="store_true",
                    help="one timed round of the updates (to time the queries)")
    ap.add_argument("tree", nargs="?", default="/usr")
    a = ap.parse_args()
    new = os.path.join(os.path.realpath(a.build), "examples", "frdindex")
    old = os.path.join(os.path.realpath(a.old_build), "examples", "frdindex") if a.old_build else None
    updatedb = shutil.which("updatedb.plocate") or shutil.which("updatedb")
    plocate = shutil.which("plocate")
    if not updatedb or not plocate:
        sys.exit("plocate is not installed (scripts/deps.sh installs it)")
    tmp = tempfile.mkdtemp()
    try:
        db = {"new": os.path.join(tmp, "new.db"), "old": os.path.join(tmp, "old.db"),
              "plocate": os.path.join(tmp, "plocate.db")}

        def rm(path):
            return lambda: [os.unlink(p) for p in (path, path + "-journal", path + "-wal")
                            if os.path.exists(p)]
        upd = [("frdindex update", [new, "update", "-q", db["new"], a.tree], rm(db["new"])),
               ("updatedb.plocate", [updatedb, "-U", a.tree, "-o", db["plocate"], "--prunepaths=",
                                     "--prunefs=", "--prunenames=", "--prune-bind-mounts=no",
                                     "-l", "no"], rm(db["plocate"]))]
        if old:
            upd.insert(1, ("frdindex update (old)", [old, "update", "-q", db["old"], a.tree],
                           rm(db["old"])))
        print("tree %s: %d cores, load %s, %s, %d interleaved rounds after a warm-up, medians" % (
            a.tree, os.cpu_count(), open("/proc/loadavg").read().split()[0], os.uname().release,
            a.runs))
        t = interleave(upd, 1 if a.updates_once else a.runs)
        print()
        print("| update from empty | median (s) | / updatedb.plocate | database (bytes) |")
        print("| --- | ---: | ---: | ---: |")
        for label, argv, _ in upd:
            path = argv[3] if "frdindex" in label else db["plocate"]
            print("| %s | %.3f | %.2f | %d |" % (label, t[label], t[label] / t["updatedb.plocate"],
                                                 os.path.getsize(path)))
        print()
        head = "| query | frdindex find (ms) | plocate (ms) | / plocate | CPU (ms): frdindex, plocate |"
        if old:
            head += " old frdindex (ms) | / old | old CPU (ms) |"
        print(head)
        print("|" + " --- |" * (head.count("|") - 1))
        for q in QUERIES:
            cmds = [("new", [new, "find", db["new"]] + q, None),
                    ("plocate", [plocate, "-d", db["plocate"]] + q, None)]
            if old:
                cmds.append(("old", [old, "find", db["old"]] + q, None))
            want = output(cmds[1][1])
            for label, argv, _ in cmds:
                if label != "plocate" and "-l" not in q and output(argv) != want:
                    print("  DIFFERS from plocate: %s %s" % (label, " ".join(q)))
            cpu = {}
            t = interleave(cmds, a.runs, cpu)
            row = "| `%s` | %.1f | %.1f | %.2fx | %.1f, %.1f |" % (
                " ".join(q), t["new"] * 1e3, t["plocate"] * 1e3, t["new"] / t["plocate"],
                cpu["new"] * 1e3, cpu["plocate"] * 1e3)
            if old:
                row += " %.1f | %.2fx | %.1f |" % (t["old"] * 1e3, t["new"] / t["old"],
                                                   cpu["old"] * 1e3)
            print(row, flush=True)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
