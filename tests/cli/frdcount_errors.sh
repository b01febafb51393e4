#!/usr/bin/env bash
# frdcount reports each failure once, with its path: a missing root (alone, or next to a
# root that exists, which is still counted) and an empty root give exactly one line on
# stderr naming the root, and exit 1.
# Usage: tests/cli/frdcount_errors.sh PATH/TO/frdcount
set -euo pipefail
frdcount=$(realpath "$1")
export LC_ALL=C
. "$(dirname "$0")/lib.sh"
cli_begin

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

# As uid 65534, a directory readable but not searchable: one line per entry that cannot be
# stat'ed, none twice (a subdirectory is not opened after its stat failed).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  chmod 755 "$tmp"
  mkdir -p perm/noexec/sub && printf 'n' >perm/noexec/f && chmod 0444 perm/noexec
  rc=0
  setpriv --reuid=65534 --regid=65534 --clear-groups "$frdcount" perm >out.txt 2>err.txt || rc=$?
  if [ "$rc" -eq 1 ] && [ "$(wc -l <err.txt)" -eq 2 ] && [ "$(cut -d"'" -f2 err.txt | sort -u | wc -l)" -eq 2 ]; then
    ok "as uid 65534, a 0444 directory: one line for each of its 2 entries, exit 1"
  else
    bad "as uid 65534, a 0444 directory: exit $rc, stderr:"; cat err.txt
  fi
  chmod 755 perm/noexec
else
  echo "skip: a 0444 directory as uid 65534 (needs root and setpriv)"
fi

rc=0
"$frdcount" real >out.txt 2>err.txt || rc=$?
if [ "$rc" -eq 0 ] && [ ! -s err.txt ] && grep -q "^$n entries" out.txt; then
  ok "frdcount real: exit 0, nothing on stderr, $n entries"
else
  bad "frdcount real: exit $rc, stderr: $(cat err.txt)"
fi

# The words find prints for a missing root: "NAME: 'PATH': No such file or directory".
rc=0
"$frdcount" missing >out.txt 2>err.txt || rc=$?
if [ "$rc" -eq 1 ] && [ "$(cat err.txt)" = "frdcount: 'missing': No such file or directory" ]; then
  ok "a missing root in find's words"
else
  bad "a missing root: exit $rc, stderr: $(cat err.txt)"
fi
# ls's words for a directory frdls cannot open.
rc=0
"$(dirname "$frdcount")/frdls" missing >out.txt 2>err.txt || rc=$?
if [ "$rc" -eq 1 ] && [ "$(cat err.txt)" = "frdls: cannot open directory 'missing': No such file or directory" ]; then
  ok "frdls: a missing directory in ls's words"
else
  bad "frdls missing: exit $rc, stderr: $(cat err.txt)"
fi

cli_end
