# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""One timed run of a shell command for the benchmarks: wall time, CPU, peak RSS, faults."""
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
