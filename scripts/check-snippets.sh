#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
#
# Compiles and runs the C code of the documentation against a build of frd, installed into a
# temporary prefix and found through pkg-config, as a user's program finds it, so that the
# documentation cannot drift from the API:
#  - every ```c block of README.md. The line before each block is a comment that says how to
#    run it (a block without one fails the check):
#        <!-- c-snippet main-from="LINE" check="EXPR" -->
#    The block's lines before the one that reads LINE (leading spaces aside) stay at file
#    scope (its #include lines, static variables, functions); LINE and the lines after it
#    become the body of main(), which then returns 0 if EXPR is true and 1 if not. Without
#    main-from the block is a whole program (it has its own main); check defaults to 1.
#  - every example of a man3 page (lib/man3, .EX to .EE) that has a main() of its own.
# Each program is built with -std=c11 -Wall -Wextra -Werror and run from lib/ (examples
# that walk "." walk that); it must exit 0.
# Usage: scripts/check-snippets.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
build=${1:?usage: scripts/check-snippets.sh BUILD_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(find "$tmp/prefix" -name 'libfrd.so' -printf '%h\n' | head -1)
export PKG_CONFIG_PATH=$libdir/pkgconfig
read -r -a frd_flags <<<"$(pkg-config --cflags --libs frd)"

# README.md: one file per block, named readme-LINE.c after the block's first line.
mkdir "$tmp/src"
awk -v out="$tmp/src" '
  function attr(s, name,   m) {
    if (match(s, name "=\"[^\"]*\"")) { m = substr(s, RSTART, RLENGTH); sub(/^[^"]*"/, "", m); sub(/"$/, "", m); return m }
    return ""
  }
  /^```c[[:space:]]*$/ {
    file = sprintf("%s/readme-%d.c", out, NR + 1)
    if (prev !~ /^<!-- c-snippet( .*)? -->$/) {
      printf "README.md:%d: a ```c block without a <!-- c-snippet ... --> line before it\n", NR > "/dev/stderr"
      bad = 1
    }
    from = attr(prev, "main-from"); check = attr(prev, "check"); if (check == "") check = "1"
    inmain = 0; inblock = 1; next
  }
  inblock && /^```[[:space:]]*$/ {
    if (from != "" && !inmain) {
      printf "README.md: the block before line %d has no line \"%s\"\n", NR, from > "/dev/stderr"
      bad = 1
    }
    if (inmain) print "    return (" check ") ? 0 : 1;\n}" > file
    close(file); inblock = 0; next
  }
  inblock {
    line = $0; trimmed = line; sub(/^[[:space:]]+/, "", trimmed)
    if (from != "" && !inmain && trimmed == from) { inmain = 1; print "int main(void)\n{" > file }
    print (inmain ? "    " : "") line > file
    next
  }
  { prev = $0 }
  END { exit bad }
' README.md

# The man3 pages' whole programs, with roff's escapes undone.
for page in lib/man3/*.3; do
  awk -v out="$tmp/src/$(basename "$page" .3)" '
    /^\.EX/ { n++; text = ""; on = 1; next }
    /^\.EE/ { if (text ~ /int main\(/) { f = out "-" n ".c"; printf "%s", text > f; close(f) } on = 0; next }
    on { text = text $0 "\n" }
  ' "$page"
done
sed -i -e 's/\\(dq/"/g' -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\&//g' "$tmp/src"/frd*.c 2>/dev/null || true

count=0
for src in "$tmp/src"/*.c; do
  name=$(basename "$src" .c)
  if ! cc -std=c11 -Wall -Wextra -Werror -o "$tmp/$name" "$src" "${frd_flags[@]}" 2>"$tmp/cc.log"; then
    echo "check-snippets: $name does not compile:" >&2
    cat -n "$src" >&2
    cat "$tmp/cc.log" >&2
    exit 1
  fi
  if ! (cd "$repo/lib" && LD_LIBRARY_PATH=$libdir "$tmp/$name" >"$tmp/run.log" 2>&1); then
    echo "check-snippets: $name failed (exit status $?):" >&2
    cat -n "$src" >&2
    tail -20 "$tmp/run.log" >&2
    exit 1
  fi
  count=$((count + 1))
done
echo "check-snippets: $count programs from README.md and the man3 pages compiled and ran"
