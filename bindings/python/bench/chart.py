#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Draws bench.py's results (--json) as an SVG with gnuplot (../../bench-chart.gp): one panel
per tree and kind, each method's median ms, frd's bars dark.

Usage: python3 bindings/python/bench/chart.py RESULTS.json OUT.svg
"""
import json
import os
import subprocess
import sys
import tempfile

GP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench-chart.gp")


def draw(result, out):
    """Writes the chart of a bench.py result (a dict) to the file `out`."""
    blocks, titles = [], []
    for r in result["results"]:
        what = {"names": "names", "metadata": "with lstat metadata",
                "os.walk": "os.walk's tuples", "pruned": "os.walk's tuples, a subtree pruned"}
        title = f'{r["root"]} ({r["entries"]} entries), {what.get(r["kind"], r["kind"])}'

        if not titles or titles[-1] != title:
            titles.append(title)
            blocks.append([])
        blocks[-1].append(f'{r["method"]}\t{r["median_ms"]}\t{int(r["method"].startswith("frd"))}')
    heading = (f'frd vs os.scandir, os.walk and Path.rglob, Python {result["python"]}: median of '
               f'{result["rounds"]} interleaved rounds (load {result["load_before"]:.1f}..'
               f'{result["load_after"]:.1f})')
    with tempfile.TemporaryDirectory(prefix="frd-chart-") as tmp:
        data = os.path.join(tmp, "data.tsv")
        names = os.path.join(tmp, "titles.txt")
        with open(data, "w") as f:
            f.write("\n\n\n".join("\n".join(b) for b in blocks) + "\n")
        with open(names, "w") as f:
            f.write("\n".join(titles) + "\n")
        q = lambda s: "'" + s.replace("'", "") + "'"
        subprocess.run(["gnuplot", "-e", f"data={q(data)}; titles={q(names)}; "
                        f"heading={q(heading)}; out={q(os.path.abspath(out))}", GP], check=True)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    with open(sys.argv[1]) as f:
        draw(json.load(f), sys.argv[2])
