# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""One timed run of a shell command for the benchmarks: wall time, CPU, peak RSS, faults."""
import statistics
import subprocess
import time


def run_counted(cmd):
    """Runs `cmd` (a shell command, output to /dev/null) through /usr/bin/time.

    Through /usr/bin/time, a small C program: a child forked from python would carry
    python's RSS as its peak (ru_maxrss survives exec).
    @return (wall seconds, CPU seconds as user + system, peak RSS in MiB, minor page faults).
    """
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%U %S %M %R", "/bin/sh", "-c", "exec " + cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    u, s, m, f = p.stderr.decode(errors="replace").strip().split("\n")[-1].split()
    return wall, float(u) + float(s), int(m) / 1024, int(f)


def run(cmd):
    """Like run_counted(), without the faults. @return (wall s, CPU s, peak RSS MiB)."""
    return run_counted(cmd)[:3]


def rotated_medians(cmds, runs, timer=run):
    """Times shell commands side by side: a warm-up run of each, then `runs` rounds that run
    every command once, in an order rotated by one per round (so all see the same cache and
    machine state).

    @return one list per command: the median of each field `timer` returns, in its order.
    """
    for c in cmds:
        timer(c)
    res = [[] for _ in cmds]
    for r in range(runs):
        order = list(range(len(cmds)))
        order = order[r % len(order):] + order[:r % len(order)]
        for i in order:
            res[i].append(timer(cmds[i]))
    return [[statistics.median(x[k] for x in res[i]) for k in range(len(res[i][0]))]
            for i in range(len(cmds))]
