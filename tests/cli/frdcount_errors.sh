#!/usr/bin/env bash
# frdcount reports each failure once, with its path: a missing root (alone, or next to a
# root that exists, which is still counted) and an empty root give exactly one line on
# stderr naming the root, and exit 1. Under a limit of threads or address space it counts
# with the threads it can start.
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

# Under a limit of threads (prlimit --nproc: uid 65534's processes; root is not held by it)
# or of address space (--as, where each thread's stack counts), as root and as uid 65534:
# the walk goes on with the threads it can start and counts what it counts without a limit
# (it printed "Resource temporarily unavailable" with -j 8 before). A sanitizer's process
# cannot run under --as, nor LeakSanitizer's exit check with no thread to spare: skipped.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
  chmod 755 "$tmp"
  mkdir -p bin wide && cp "$frdcount" bin/ && chmod 755 bin/frdcount
  for d in $(seq 40); do mkdir -p "wide/d$d/sub" && printf 'w' >"wide/d$d/sub/f"; done
  want=$(bin/frdcount -j 1 wide real | grep -v seconds)
  limits=(--nproc=2 --nproc=3)
  if grep -q __asan_init "$frdcount"; then
    echo "skip: frdcount under --nproc=1 and --as (a sanitizer's frdcount cannot run so)"
  else
    limits+=(--nproc=1 --as=$((20000 * 1024)) --as=$((40000 * 1024)))
  fi
  for user in root nobody; do
    as=()
    # A uid no other test runs as: --nproc counts the uid's processes on the whole machine,
    # and tests run side by side as 65534 (LeakSanitizer's exit check, which needs a thread,
    # then failed in CI).
    [ "$user" = nobody ] && as=(setpriv --reuid=64102 --regid=64102 --clear-groups)
    for lim in "${limits[@]}"; do
      for j in "" "-j 8" "-j 32"; do
        rc=0
        # shellcheck disable=SC2086 # the words are the options
        "${as[@]}" prlimit "$lim" -- bin/frdcount $j wide real >out.txt 2>err.txt || rc=$?
        what="frdcount $j wide real under prlimit $lim (as $user)"
        if [ "$rc" -eq 0 ] && [ ! -s err.txt ] && [ "$(grep -v seconds out.txt)" = "$want" ]; then
          ok "$what: exit 0, the counts without a limit"
        else
          bad "$what: exit $rc, stderr: $(head -3 err.txt)"
        fi
      done
    done
  done
else
  echo "skip: frdcount under prlimit (needs root, setpriv and prlimit)"
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
