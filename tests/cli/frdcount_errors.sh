#!/usr/bin/env bash
# frdcount reports each failure once, with its path: a missing root (alone, or next to a
# root that exists, which is still counted) and an empty root give exactly one line on
# stderr naming the root, and exit 1.
# Usage: tests/cli/frdcount_errors.sh PATH/TO/frdcount
set -euo pipefail
frdcount=$(realpath "$1")
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

mkdir -p real/sub && printf 'abc' >real/sub/f && printf 'de' >real/g

# one_error WANT_ENTRIES BAD_ROOT ROOT...: one stderr line with 'BAD_ROOT', exit 1, and
# WANT_ENTRIES entries counted.
one_error() {
  local want=$1 badroot=$2 rc=0
  shift 2
  "$frdcount" -j 2 "$@" >out.txt 2>err.txt || rc=$?
  local lines entries
  lines=$(wc -l <err.txt)
  entries=$(awk '$2 == "entries" { print $1 }' out.txt)
  local what="frdcount ${*@Q}"
  if [ "$rc" -ne 1 ]; then
    bad "$what exits $rc, not 1"
  elif [ "$lines" -ne 1 ] || ! grep -qF "'$badroot'" err.txt; then
    bad "$what: stderr is not one line naming '$badroot':"; cat err.txt
  elif [ "$entries" != "$want" ]; then
    bad "$what counted $entries entries, not $want"
  else
    ok "$what: exit 1, one line: $(cat err.txt)"
  fi
}

n=$(find real | wc -l)
one_error 0 "$tmp/missing" "$tmp/missing"
one_error 0 "" ""
one_error "$n" missing missing real
one_error "$n" missing real missing

rc=0
"$frdcount" real >out.txt 2>err.txt || rc=$?
if [ "$rc" -eq 0 ] && [ ! -s err.txt ] && grep -q "^$n entries" out.txt; then
  ok "frdcount real: exit 0, nothing on stderr, $n entries"
else
  bad "frdcount real: exit $rc, stderr: $(cat err.txt)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
