#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
#
# Ignore rules' cost and saving (bench/README.md, "Ignore rules"), interleaved rounds and
# medians by bench/interleave.py:
#  1. u-boot: the U-Boot corpus (tests/data) as a git work tree, its 52 .gitignore files
#     filled with rules of our own that match nothing there: the cost of reading and
#     matching rules. frdfind -gitignore against frdfind (no rules) and fd -H. Then the
#     same with such a .gitignore in every directory (3,001).
#  2. checkout: a clone of this repository with its build tree copied in (and
#     bindings/node/node_modules if present): most entries ignored, the work saved.
#     frdfind -gitignore against frdfind and fd -H.
#  3. With MAIN_FRDFIND set (a build of main's frdfind): frdfind /usr against it, no rules:
#     the walk's speed when no filter is set.
# Peak RSS of frdfind -gitignore on tree 1 (GNU time's %M).
# Usage: bench/ignore_bench.sh BUILD_DIR [RUNS]   (fd from Debian's fd-find:
#   FRD_EXTRA_PACKAGES=fd-find scripts/deps.sh; without it fd's rows are left out)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
build=$(realpath "$1")
runs=${2:-11}
frdfind=$build/examples/frdfind
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 HOME=$work XDG_CONFIG_HOME=$work/xdg
fd=$(command -v fdfind || command -v fd || true)

# 1. u-boot, a .gitignore in every directory.
"$repo/tests/data/materialize-tree" "$repo/tests/data/u-boot.tsv.gz" "$work/uboot" >/dev/null
git -C "$work/uboot" init -q .
rules='# rules that match nothing here\n*.nomatch\n/build-nomatch/\n**/tmp-nomatch/**\n!keep.nomatch\nx[0-9]*.nomatch\n'
find "$work/uboot" -path "$work/uboot/.git" -prune -o -name .gitignore -type f -print0 |
  while IFS= read -r -d '' f; do
    printf "$rules" >"$f"
  done
# 1b. the same, a .gitignore in every directory (3,001 files to read).
cp -a "$work/uboot" "$work/uboot-every"
find "$work/uboot-every" -path "$work/uboot-every/.git" -prune -o -type d -print0 |
  while IFS= read -r -d '' d; do
    printf "$rules" >"$d/.gitignore"
  done
# 2. a checkout after its build.
git clone -q "$repo" "$work/checkout"
cp -a "$build" "$work/checkout/build"
if [ -d "$repo/bindings/node/node_modules" ]; then
  cp -a "$repo/bindings/node/node_modules" "$work/checkout/bindings/node/"
fi

table() { # NAME ROOT
  local name=$1 root=$2
  {
    printf 'frdfind\t\t%s %s >/dev/null\n' "$frdfind" "$root"
    printf 'frdfind -gitignore\t\t%s %s -gitignore >/dev/null\n' "$frdfind" "$root"
    printf 'frdfind -gitignore -dot-ignore\t\t%s %s -gitignore -dot-ignore >/dev/null\n' "$frdfind" "$root"
    if [ -n "$fd" ]; then
      printf 'fd -H\t\t%s -H . %s >/dev/null\n' "$fd" "$root"
    fi
  } >"$work/$name.tsv"
  echo "## $name: $("$frdfind" "$root" | wc -l) entries, $("$frdfind" "$root" -gitignore | wc -l) not ignored"
  python3 "$here/interleave.py" "$work/$name.tsv" "$runs" frdfind
}
table u-boot "$work/uboot"
table u-boot-every-dir "$work/uboot-every"
table checkout "$work/checkout"
if [ -n "${MAIN_FRDFIND:-}" ]; then
  printf 'main\t\t%s /usr >/dev/null\nbranch\t\t%s /usr >/dev/null\n' "$MAIN_FRDFIND" "$frdfind" >"$work/usr.tsv"
  echo "## /usr, no rules: this build against main's"
  python3 "$here/interleave.py" "$work/usr.tsv" "$runs" main
fi
if command -v /usr/bin/time >/dev/null; then
  echo "## peak RSS, frdfind -gitignore, a .gitignore in every directory: $(/usr/bin/time -f %M "$frdfind" "$work/uboot-every" -gitignore 2>&1 >/dev/null) KiB"
  echo "## peak RSS, frdfind, same tree: $(/usr/bin/time -f %M "$frdfind" "$work/uboot-every" 2>&1 >/dev/null) KiB"
fi
