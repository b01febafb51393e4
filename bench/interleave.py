#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Times whole commands side by side: interleaved rounds, medians, ratios from one run.

Usage: interleave.py COMMANDS.tsv RUNS BASELINE_LABEL

Each line of COMMANDS.tsv is LABEL<TAB>SETUP<TAB>COMMAND: SETUP (may be empty) runs before
each timed run of COMMAND and is not timed (say, removing an output file). Every command is
run once as a warm-up, then RUNS rounds each run every command once, in an order rotated by
one per round, so all commands see the same cache and machine state. Prints a Markdown
table: median wall time, median user and system CPU, the median wall time divided by
BASELINE_LABEL's (above 1 means slower than the baseline), and the same for the CPU time
(user + system of each run). A command without shell syntax is started directly, without a
shell whose start-up would count in every run. Commands write to /dev/null; a command that
fails is reported as failed, not timed.
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


SHELL_SYNTAX = set("|&;<>()$`\\\"'*?[]#~=%{}")


def argv_of(cmd):
    """The command's argument vector: its words, or a shell running it if it needs one."""
    return shlex.split(cmd) if not SHELL_SYNTAX & set(cmd) else ["/bin/sh", "-c", cmd]


def run(cmd):
    devnull = os.open(os.devnull, os.O_WRONLY)
    argv = argv_of(cmd)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=devnull, stderr=devnull)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    return status, wall, usage.ru_utime, usage.ru_stime


def main():
    rows = [line.rstrip("\n").split("\t", 2) for line in open(sys.argv[1]) if line.strip()]
    runs = int(sys.argv[2])
    baseline = sys.argv[3]
    times = {label: [] for label, _, _ in rows}
    failed = set()
    for rnd in range(runs + 1):
        order = rows[rnd % len(rows):] + rows[:rnd % len(rows)]
        for label, setup, cmd in order:
            if label in failed:
                continue
            if setup:
                subprocess.run(["/bin/sh", "-c", setup], check=True)
            status, wall, user, sys_ = run(cmd)
            if status != 0:
                failed.add(label)
                continue
            if rnd > 0:  # round 0 is the warm-up
                times[label].append((wall, user, sys_))
    base = statistics.median(w for w, _, _ in times[baseline]) if times[baseline] else None
    base_cpu = statistics.median(u + s for _, u, s in times[baseline]) if times[baseline] else None
    print("| command | median wall (s) | user (s) | sys (s) | wall / %s | CPU (s) | CPU / %s |"
          % (baseline, baseline))
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, _, _ in rows:
        if label in failed or not times[label]:
            print("| %s | failed | | | | | |" % label)
            continue
        wall = statistics.median(w for w, _, _ in times[label])
        user = statistics.median(u for _, u, _ in times[label])
        sys_ = statistics.median(s for _, _, s in times[label])
        cpu = statistics.median(u + s for _, u, s in times[label])
        ratio = "%.3f" % (wall / base) if base else "-"
        cpu_ratio = "%.3f" % (cpu / base_cpu) if base_cpu else "-"
        print("| %s | %.4f | %.3f | %.3f | %s | %.4f | %s |"
              % (label, wall, user, sys_, ratio, cpu, cpu_ratio))


if __name__ == "__main__":
    main()
