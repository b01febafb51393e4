#!/usr/bin/env bash
# ABI check of the shared library, run by CI: builds libfrd.so with debug info, then
#  1. fails if it exports a symbol whose name does not start with frd_ (nm -D --defined-only);
#  2. compares its ABI, as libabigail's abidw sees it, with the baseline abi/libfrd.abi
#     (abidiff, limited to the public headers by abi/public.suppr), and fails on any change
#     to what the baseline has (a removed or changed function or variable, a changed public
#     type; abidiff's harmless changes, such as a new enumerator, pass). New functions pass
#     and are listed.
# With --update it writes the baseline from this build instead (after an intended change:
# bump the SONAME for a break, see README "Stability"; commit abi/libfrd.abi with it).
# Usage: scripts/abi-check.sh [--update] [BUILD_DIR]   (default build-abi; needs abigail-tools)
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
if [ "${1:-}" = "--update" ]; then
  update=1
  shift
fi
build=${1:-build-abi}
baseline=abi/libfrd.abi
for tool in abidw abidiff nm; do
  command -v "$tool" >/dev/null || { echo "abi-check: no $tool (scripts/deps.sh installs it)" >&2; exit 2; }
done

# The library alone, with DWARF for abidw (the type layout does not depend on -O), and source
# paths relative to the checkout, so the baseline does not depend on where it is.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFRD_BUILD_TESTS=OFF \
  -DFRD_BUILD_EXAMPLES=OFF -DFRD_BUILD_BENCH=OFF -DCMAKE_C_FLAGS="-fdebug-prefix-map=$PWD=." \
  >/dev/null
cmake --build "$build" --target frd -j"$(nproc)" >/dev/null
lib=$(find "$build" -maxdepth 1 -name 'libfrd.so.*.*' -type f | head -1)
[ -n "$lib" ] || { echo "abi-check: no libfrd.so.X.Y in $build" >&2; exit 2; }

# 1. Only frd_ symbols exported.
others=$(nm -D --defined-only "$lib" | awk 'NF >= 3 && $3 !~ /^frd_/ { print $3 }')
if [ -n "$others" ]; then
  echo "abi-check: $lib exports symbols outside the frd_ namespace:" >&2
  echo "$others" >&2
  exit 1
fi
echo "abi-check: $(nm -D --defined-only "$lib" | grep -c ' frd_') symbols exported, all frd_*"

# 2. The ABI against the baseline. abi/public.suppr limits the comparison to the types of
# the public headers: a change behind an opaque handle (struct frd_walk) is no ABI change.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
current="$tmp/current.abi"
abidw --no-corpus-path --no-comp-dir-path --out-file "$current" "$lib"
if [ "$update" = 1 ]; then
  mkdir -p "$(dirname "$baseline")"
  cp "$current" "$baseline"
  echo "abi-check: wrote $baseline from $lib ($(grep -c '<elf-symbol ' "$baseline") ELF symbols)"
  exit 0
fi
[ -f "$baseline" ] || { echo "abi-check: no $baseline (make one: scripts/abi-check.sh --update)" >&2; exit 2; }
rc=0
abidiff --suppressions abi/public.suppr --no-added-syms "$baseline" "$current" >"$tmp/diff" ||
  rc=$?
# abidiff's status is a bit mask: 1 error, 2 usage, 4 some ABI change, 8 incompatible change.
# It sets 8 only for removed symbols; a changed struct layout is 4, which breaks callers as
# much, and additions are left out above (--no-added-syms), so 4 fails too.
if (((rc & 3) != 0)); then
  cat "$tmp/diff" >&2
  echo "abi-check: abidiff failed (status $rc)" >&2
  exit 2
fi
if (((rc & 12) != 0)); then
  cat "$tmp/diff"
  echo "abi-check: FAIL: incompatible ABI change against $baseline." >&2
  echo "  If it is intended: bump the SONAME (a 0.x minor release), note it in CHANGELOG.md," >&2
  echo "  and run scripts/abi-check.sh --update." >&2
  exit 1
fi
abidiff --suppressions abi/public.suppr "$baseline" "$current" >"$tmp/added" || true
if grep -q "^  \[A\]" "$tmp/added"; then
  echo "abi-check: added since the baseline:"
  grep "^  \[A\]" "$tmp/added"
fi
echo "abi-check: ok: no incompatible change against $baseline"
