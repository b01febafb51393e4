#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""The bars of issue 13 item 2 in one run (bench/cold_cache.sh -p calls this; root only).

Cold, /usr with metadata (frdfind -printf '%s\\n'): frdfind at its default (the adaptive
pool), the two other pool designs (FRD_POOL=fixed: the CPU-sized pool alone; FRD_POOL=wide:
the bound from the start), a -j sweep, bfs and fd, and main's frdfind (-B) at its default;
the page cache dropped before every run, rounds in rotated order, wall and CPU medians.
Warm, /usr with metadata and names only: this build's default against main's, interleaved
(ABAB...), wall and CPU medians. One cold default run more prints the pool's counters
(FRD_STATS=1). Writes OUT/results.md and prints it.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time


def drop():
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def run(cmd, env=None, stderr=subprocess.DEVNULL):
    """Runs cmd (a list) with stdout to /dev/null. @return (wall s, cpu s, status, stderr)."""
    e = dict(os.environ, LC_ALL="C")
    e.pop("FRD_POOL", None)
    e.pop("FRD_STATS", None)
    e.update(env or {})
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=stderr, env=e)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode() if p.stderr else ""
    return wall, ru.ru_utime + ru.ru_stime, status, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-b", default="build-release", help="build dir of this tree")
    ap.add_argument("-B", default="/tmp/frd-base/build", help="build dir of main")
    ap.add_argument("-n", type=int, default=5, help="cold rounds")
    ap.add_argument("-w", type=int, default=15, help="warm rounds (pairs)")
    ap.add_argument("-o", default="bench/results/cold", help="output dir")
    ap.add_argument("-t", default="/usr", help="tree")
    a = ap.parse_args()
    new = os.path.realpath(os.path.join(a.b, "examples/frdfind"))
    base = os.path.realpath(os.path.join(a.B, "examples/frdfind"))
    have_base = os.access(base, os.X_OK)
    meta = ["-printf", "%s\\n"]
    tree = a.t
    cold = [  # label, command, environment
        ("frdfind default (adaptive)", [new, tree] + meta, {}),
        ("frdfind FRD_POOL=fixed (CPU-sized)", [new, tree] + meta, {"FRD_POOL": "fixed"}),
        ("frdfind FRD_POOL=wide (32 from the start)", [new, tree] + meta, {"FRD_POOL": "wide"}),
    ]
    for j in (8, 16, 32, 64):
        cold.append((f"frdfind -j{j}", [new, f"-j{j}", tree] + meta, {}))
    if have_base:
        cold.append(("main's frdfind default", [base, tree] + meta, {}))
    cold.append(("bfs", ["bfs", tree, "-printf", "%s\\n"], {}))
    cold.append(("fdfind", ["fdfind", "-HI", "--changed-within", "1000weeks", ".", tree], {}))

    load_before = open("/proc/loadavg").read().split()[:3]
    start = time.time()
    cw = {i: [] for i in range(len(cold))}
    cc = {i: [] for i in range(len(cold))}
    for r in range(a.n):
        k = r % len(cold)
        for i in list(range(k, len(cold))) + list(range(k)):
            drop()
            wall, cpu, _, _ = run(cold[i][1], cold[i][2])
            cw[i].append(wall)
            cc[i].append(cpu)
        print(f"cold round {r + 1}/{a.n}", file=sys.stderr)
    drop()
    _, _, _, stats = run(cold[0][1], {"FRD_STATS": "1"}, stderr=subprocess.PIPE)

    warm = []
    if have_base:
        for label, args in (("metadata", [tree] + meta), ("names only", [tree])):
            for cmd in ([new] + args, [base] + args):
                run(cmd)  # fill the cache
            ws = {0: [], 1: []}
            cs = {0: [], 1: []}
            for r in range(a.w):
                order = (0, 1) if r % 2 == 0 else (1, 0)
                for i in order:
                    wall, cpu, _, _ = run(([new] if i == 0 else [base]) + args)
                    ws[i].append(wall)
                    cs[i].append(cpu)
            warm.append((label, ws, cs))
        print("warm done", file=sys.stderr)
    load_after = open("/proc/loadavg").read().split()[:3]
    secs = int(time.time() - start)

    med = lambda v: statistics.median(v)
    os.makedirs(a.o, exist_ok=True)
    out = []
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), "unknown")
    out.append("# The default pool, cold and warm (bench/cold_cache.sh -p)\n")
    out.append(f"Machine: {cpu}, {os.cpu_count()} CPUs, Linux {platform.release()}. Load "
               f"average {' '.join(load_before)} before, {' '.join(load_after)} after; {secs} s. "
               f"Tree {tree}. Cold: {a.n} rounds in rotated order, page cache dropped before "
               f"every run. Warm: {a.w} interleaved pairs. Medians; CPU is user + system of "
               "the process.\n")
    out.append("## Cold, metadata\n")
    out.append("| command | wall s | min | max | CPU s |")
    out.append("|---|---:|---:|---:|---:|")
    for i, (label, _, _) in enumerate(cold):
        out.append(f"| {label} | {med(cw[i]):.3f} | {min(cw[i]):.3f} | {max(cw[i]):.3f} | "
                   f"{med(cc[i]):.3f} |")
    d = med(cw[0])
    sweep = {label: med(cw[i]) for i, (label, _, _) in enumerate(cold) if "-j" in label}
    best = min(sweep, key=sweep.get)
    ratio = lambda name: next(med(cw[i]) for i, (l, _, _) in enumerate(cold) if l == name)
    out.append("")
    out.append(f"- default / best -j ({best}): **{d / sweep[best]:.2f}x** (bar: at most 1.10x)")
    out.append(f"- default / fd: **{d / ratio('fdfind'):.2f}x**, default / bfs: "
               f"**{d / ratio('bfs'):.2f}x** (bar: at most 0.6x each)")
    if have_base:
        m = ratio("main's frdfind default")
        out.append(f"- default / main's default: {d / m:.2f}x")
    out.append(f"\nOne more cold default run, FRD_STATS=1:\n\n    {stats.strip()}\n")
    if warm:
        out.append("## Warm, this build's default against main's\n")
        out.append("| mode | wall new | wall main | new / main | CPU new | CPU main | new / main |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        for label, ws, cs in warm:
            out.append(f"| {label} | {med(ws[0]):.3f} | {med(ws[1]):.3f} | "
                       f"{med(ws[0]) / med(ws[1]):.3f}x | {med(cs[0]):.3f} | {med(cs[1]):.3f} | "
                       f"{med(cs[0]) / med(cs[1]):.3f}x |")
        out.append("\nBars: wall within 1.03x, CPU within 1.15x.")
    text = "\n".join(out) + "\n"
    with open(os.path.join(a.o, "results-pool.md"), "w") as f:
        f.write(text.replace(os.getcwd() + "/", ""))
    print(text)


if __name__ == "__main__":
    main()
