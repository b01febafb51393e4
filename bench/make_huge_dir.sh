#!/usr/bin/env bash
# Makes (once) the directory of N empty files the huge-directory benchmarks walk, in $TMPDIR
# (kept between runs; a marker file says it is complete), and prints its path.
#
# Usage: bench/make_huge_dir.sh N
set -euo pipefail
n=$1
dir=${TMPDIR:-/tmp}/frd-huge-$n
if [ ! -f "$dir.complete" ]; then
  echo "making $dir ($n files)" >&2
  rm -rf "$dir"
  python3 - "$dir" "$n" <<'PY'
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
os.mkdir(d)
fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
flags = os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC
for i in range(n):
    os.close(os.open("f%07d" % i, flags, 0o644, dir_fd=fd))
os.close(fd)
PY
  touch "$dir.complete"
fi
printf '%s\n' "$dir"
