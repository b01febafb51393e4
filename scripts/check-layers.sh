#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
#
# Checks that every source file includes headers of its own layer or of layers below it,
# never above (the layers are drawn in lib/README.md):
#
#   0 interface  decode/*, lib/include/frd.h, the generated frd_config.h
#   1 core       lib/internal.h, lib/introsort.h, lib/alloc.c, lib/error.c, lib/list.c
#   2 platform   platform/*
#   3 lister     lib/lister.c (the public listers, on top of a backend)
#   4 walker     walker/*
#   5 mpi        mpi/* (libfrd_mpi, on the public walker; lib/internal.h for allocation)
#   6 users      examples/*, tests/*, bench/*, bindings/*
#
# Both kinds of include are followed: "name.h", and <name.h> when a header of the tree has
# that name (<frd.h>, <frd_mpi.h>: what users and bindings include). Usage:
# scripts/check-layers.sh [repository root]. Exits 1 and names each offending include, or 2
# for a file the table above does not place.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

layer_of() { # path -> layer number, or nothing when unplaced
  case $1 in
  decode/* | lib/include/frd.h | frd_config.h) echo 0 ;;
  lib/internal.h | lib/introsort.h | lib/alloc.c | lib/error.c | lib/list.c) echo 1 ;;
  platform/*) echo 2 ;;
  lib/lister.c) echo 3 ;;
  walker/*) echo 4 ;;
  mpi/*) echo 5 ;;
  examples/* | tests/* | bench/* | bindings/*) echo 6 ;;
  esac
}

# Header name -> path, for the quoted includes of the tree (the including file's own
# directory wins when two directories hold the same name).
declare -A header_path
while IFS= read -r h; do
  header_path[$(basename "$h")]=$h
done < <(find decode lib platform walker mpi examples tests bench bindings \
  \( -name node_modules -o -name 'build*' \) -prune -o \( -name '*.h' -o -name '*.hpp' \) -print |
  sort -r)

status=0
while IFS= read -r file; do
  from=$(layer_of "$file")
  if [[ -z $from ]]; then
    echo "check-layers: $file is in no layer: place it in scripts/check-layers.sh" >&2
    status=2
    continue
  fi
  while IFS= read -r name; do
    dir=$(dirname "$file")
    if [[ $name == '<'* ]]; then
      target=${header_path[${name:1}]:-} # the tree's own header, or a system one (skipped)
    elif [[ -e $dir/$name ]]; then
      target=$(realpath --relative-to=. "$dir/$name")
    elif [[ $name == frd_config.h ]]; then
      target=frd_config.h
    else
      target=${header_path[$(basename "$name")]:-}
    fi
    [[ -z $target ]] && continue # a system or third-party header
    to=$(layer_of "$target")
    if [[ -n $to && $to -gt $from ]]; then
      echo "check-layers: $file (layer $from) includes $target (layer $to)" >&2
      ((status == 0)) && status=1
    fi
  done < <(sed -n -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
    -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^/>]*\)>.*/<\1/p' "$file")
done < <(find decode lib platform walker mpi examples tests bench bindings \
  \( -name node_modules -o -name 'build*' \) -prune -o -type f \
  \( -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' \) -print | sort)

if ((status == 0)); then
  echo "check-layers: every include points down or sideways"
fi
exit $status
