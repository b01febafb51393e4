#!/usr/bin/env bash
# frdfind agrees with GNU find byte for byte. The cases are data: tests/cli/frdfind_cases/*.txt,
# read in name order, one case a line (see "the cases' files" below). In the main kind, t,
# the sorted stdout, the sorted stderr (with "find: " read as "frdfind: ") and the exit
# status of `frdfind ARGS` equal those of `find ARGS`, on a generated tree (every file type,
# sizes at the -size rounding edges, ages at the -mtime/-mmin edges, symlink loops, hard
# links, odd names), on the predicates' tree and on the u-boot tree (tests/data). Cases marked
# "nobody" run both tools as uid 65534 (unreadable directories mean nothing to root). For -s,
# frdfind's output is compared unsorted with find's output sorted by path components.
# The orders are made by tests/cli/path_order.c (built with the tests).
# FRD_TEST_LEAK_EVERY=N (the ASan build sets 4): LeakSanitizer's check at exit runs in every
# Nth case of kind t only (ASan and UBSan check every case; the other kinds keep the leak
# check): the check costs ~65 ms a process on the project's VM, a thousand times.
# Usage: tests/cli/frdfind_vs_find.sh PATH/TO/frdfind PATH/TO/path_order [CASES.txt...]
# (the files to run; all of frdfind_cases/ without).
set -euo pipefail
frdfind=$(realpath "$1")
path_order=$(realpath "$2")
data=$(realpath "$(dirname "$0")/../data")
cases_dir=$(realpath "$(dirname "$0")/frdfind_cases")
files=("${@:3}")
[ ${#files[@]} -gt 0 ] || files=("$cases_dir"/*.txt)
export LC_ALL=C
export TZ=UTC

tmp=$(mktemp -d)
cleanup() { chmod -R u+rwx "$tmp" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
chmod 755 "$tmp"

# ---- the generated tree --------------------------------------------------------------------
g="$tmp/gen"
mkdir -p "$g"/dir/sub/deep/deeper/deepest "$g"/empty_dir "$g"/links "$g"/odd "$g"/perm \
  "$g"/sizes "$g"/times "$g"/loops/inner "$g"/Mixed/CASE "$g"/x
for s in 0 1 2 511 512 513 1023 1024 1025 1048575 1048576 1048577 1073741825; do
  truncate -s "$s" "$g/sizes/s$s"
done
printf 'x' >"$g/dir/file.c"
printf 'xx' >"$g/dir/file.h"
printf '' >"$g/dir/.hidden"
printf 'y' >"$g/dir/sub/a.c"
printf 'y' >"$g/dir/sub/deep/b.C"
printf 'y' >"$g/dir/sub/deep/deeper/deepest/leaf.txt"
printf 'y' >"$g/Mixed/CASE/File.TXT"
# Every file type.
mkfifo "$g/dir/fifo"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$g/dir/sock"
if mknod "$g/dir/chr" c 1 3 2>/dev/null && mknod "$g/dir/blk" b 7 0 2>/dev/null; then
  have_devices=1
else
  have_devices=0
fi
# Links: to a file, to a directory, dangling, to itself, through a loop back to an ancestor.
ln -s ../dir/file.c "$g/links/to_file"
ln -s ../dir "$g/links/to_dir"
ln -s nowhere "$g/links/dangling"
ln -s self "$g/links/self"
ln -s ../dir/file.c/x "$g/links/through_file"
ln -s .. "$g/loops/inner/up"
ln -s ../inner "$g/loops/inner/again"
# Hard links.
printf 'h' >"$g/dir/hard1"
ln "$g/dir/hard1" "$g/dir/hard2"
ln "$g/dir/hard1" "$g/dir/sub/hard3"
# Odd names: newline, invalid UTF-8, tab, space, glob characters, quotes, a leading dash.
for n in "$(printf 'new\nline')" "$(printf 'bad\377utf8')" "$(printf 'tab\there')" \
  'sp ace' '*star' '?quest' '[br]' 'back\slash' "it's" 'dq"x' '-dash' '.dot' 'UPPER.C' \
  "$(printf 'caf\303\251')"; do
  printf 'o' >"$g/odd/$n"
done
mkdir "$g/odd/$(printf 'dir\nnl')"
# Modes for %m and %M.
for m in 0644 0755 4755 2755 1777 0000 0600 4644 2644 1644; do
  printf 'm' >"$g/perm/m$m" && chmod "$m" "$g/perm/m$m"
done
# Ages: each 2 to 3 s past a whole minute, hour or day, or past half a minute (find's -atime
# -N takes a file up to a second past N days, so a file right on the day would fall on
# either side), so the next edge is at least 27 s ahead. The suite runs for minutes (more
# under the sanitizers), so each case that reads them (tt) sets them again once 20 s have
# passed: they never drift onto an edge between the two tools' runs. age_more is where
# later sections add their own.
time_specs=("m30s 30" "m90s 90" "m10m 600" "m59m 3540" "m61m 3660" "h23 82800" "h25 90000"
  "h47 169200" "h49 176400" "d3 266400" "d10 871200" "d400 34560000" "future -3600")
for spec in "${time_specs[@]}"; do
  set -- $spec
  printf 't' >"$g/times/$1"
done
age_more() { :; }
age() {
  local spec
  aged_at=$SECONDS
  now=$(($(date +%s) - 2))
  for spec in "${time_specs[@]}"; do
    set -- $spec
    touch -h -d "@$((now - $2))" "$g/times/$1"
  done
  # ref: between h47 and h49, half an hour off the two-day edge that -mtime 2 and -2 test.
  touch -d "@$((now - 86400 * 2 - 1800))" "$g/times/ref"
  age_more
}
age
# Unreadable and unsearchable directories (only meaningful for an unprivileged user).
mkdir -p "$g/noread/child" "$g/nosearch/child"
printf 'n' >"$g/nosearch/file"
chmod 000 "$g/noread"
chmod 444 "$g/nosearch"
# The cases' files read inum, inum_nosearch_file, inum_nosearch_child, w and fstype_p (eval).
# shellcheck disable=SC2034
inum=$(stat -c %i "$g/dir/file.c")
chmod -R a+rX "$g/dir" "$g/odd" "$g/sizes" "$g/times" "$g/links" "$g/loops" 2>/dev/null || true
# shellcheck disable=SC2034
inum_nosearch_file=$(stat -c %i "$g/nosearch/file")
# shellcheck disable=SC2034
inum_nosearch_child=$(stat -c %i "$g/nosearch/child")
# The other trees' places (their fixtures make them: @pred, @quote, @uboot).
p="$tmp/pred"
q="$tmp/quote"
u="$tmp/u-boot"
# w: an argument with all that find's quoting style escapes or keeps.
# shellcheck disable=SC1112,SC2034 # the closing quote ’ is the point
w="$(printf 'a\nb\377’é\\')"
sanitized=0
grep -q __asan_init "$frdfind" && sanitized=1

# ---- running a case ------------------------------------------------------------------------
# A passing case prints its "ok" line on descriptor 3: the terminal, or with FRD_TEST_VERBOSE=1;
# otherwise (ctest) only failures and the totals are printed, so that a failure is not lost in
# a log cut to its first and last lines.
verbose=0
if [ -t 1 ] || [ "${FRD_TEST_VERBOSE:-0}" = 1 ]; then
  verbose=1
  exec 3>&1
else
  exec 3>/dev/null
fi
pass=0
fail=0
xfail=0
failed_cases=()
gap=""

# The walker's ordered mode (-s) may not be there yet: then the -s cases are skipped, loudly.
ordered=1
if ! "$frdfind" -s "$tmp" -maxdepth 0 >/dev/null 2>"$tmp/s.err"; then
  ordered=0
  echo "skip: frdfind -s does not work here ($(cat "$tmp/s.err")): the -s cases are skipped"
fi

# known_gap REASON: the next case is expected to fail for a reason outside frdfind (a walker
# feature still missing); it prints XFAIL instead of failing the run, and XPASS once fixed.
known_gap() { gap=$1; }

# outcome WHAT SAME: counts the case WHAT passed (SAME 1) or failed (SAME 0: the caller shows
# why after it); returns 1 when it failed.
outcome() {
  if [ "$2" -eq 1 ]; then
    pass=$((pass + 1))
    echo >&3 "ok   $1"
    return 0
  fi
  fail=$((fail + 1))
  failed_cases+=("$1")
  echo "FAIL $1"
  return 1
}

# Sorts find's -print output into the order frdfind -s must print: depth first, each
# directory's entries by name in byte order (post-order with -depth), NUL-separated
# (-l: newline-separated).
sort_components() { "$path_order" "$@"; }

# Sorts -print output only inside each run of lines from one root (the roots are the
# arguments before the expression), keeping the runs in the order they came: two outputs
# agree only if each took the roots in the same order without interleaving them.
root_runs() { "$path_order" roots "$@"; }

# t MODE DIR ARGS...: MODE is a comma list of: z (NUL-separated output), s (-s: compare
# frdfind's order), post (-s with -depth order), S (-s, output compared sorted: for lines
# that are not paths), nobody (run as uid 65534), jN (frdfind -jN),
# roots (the roots' order: see root_runs), depth (-depth's order without -s: see post_check),
# yes / no (standard input answers every -ok question y / n; otherwise it is /dev/null).
table_cases=0
t() {
  local mode=$1 dir=$2 this_gap=$gap
  shift 2
  gap=""
  if [ $ordered -eq 0 ] && [[ ,$mode, == *,s,* || ,$mode, == *,post,* || ,$mode, == *,S,* ]]; then
    echo "skip [$mode] $*"
    return
  fi
  local as=() fargs=() sep=lines
  [[ ,$mode, == *,nobody,* ]] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  [[ ,$mode, == *,z,* ]] && sep=nul
  [[ $mode =~ (^|,)j([0-9]+) ]] && fargs+=(-j "${BASH_REMATCH[2]}")
  [[ ,$mode, == *,s,* || ,$mode, == *,post,* || ,$mode, == *,S,* ]] && fargs+=(-s)
  local rc_find=0 rc_frd=0 in=/dev/null asan=${ASAN_OPTIONS-}
  table_cases=$((table_cases + 1))
  if [ $((table_cases % ${FRD_TEST_LEAK_EVERY:-1})) -ne 0 ]; then
    asan=${asan:+$asan:}detect_leaks=0
  fi
  [[ ,$mode, == *,yes,* ]] && in=$tmp/answers.yes
  [[ ,$mode, == *,no,* ]] && in=$tmp/answers.no
  (cd "$dir" && "${as[@]}" find "$@") <"$in" >"$tmp/find.out" 2>"$tmp/find.err" || rc_find=$?
  (cd "$dir" && ASAN_OPTIONS=$asan "${as[@]}" "$frdfind" "${fargs[@]}" "$@") <"$in" \
    >"$tmp/frd.out" 2>"$tmp/frd.err" || rc_frd=$?
  # The passing path spawns as few processes as it can (each costs milliseconds, and there
  # are a thousand cases): the outputs' orders are compared by path_order, the sorted copies
  # for a diff are made only when a case fails, and empty error outputs are not sorted.
  local out_same=0 err_same=0
  local find_cmp=$tmp/find.sorted frd_cmp=$tmp/frd.sorted
  if [[ ,$mode, == *,s,* || ,$mode, == *,post,* ]]; then
    local order=pre
    [[ ,$mode, == *,post,* ]] && order=post
    if [ $sep = nul ]; then
      sort_components $order <"$tmp/find.out" >"$tmp/find.sorted"
    else
      sort_components $order -l <"$tmp/find.out" >"$tmp/find.sorted"
    fi
    frd_cmp=$tmp/frd.out
    cmp -s "$find_cmp" "$frd_cmp" && out_same=1
  elif [[ ,$mode, == *,depth,* ]]; then
    post_check <"$tmp/find.out" >"$tmp/find.sorted"
    post_check <"$tmp/frd.out" >"$tmp/frd.sorted"
    cmp -s "$find_cmp" "$frd_cmp" && out_same=1
  elif [[ ,$mode, == *,roots,* ]]; then
    root_runs "$@" <"$tmp/find.out" >"$tmp/find.sorted"
    root_runs "$@" <"$tmp/frd.out" >"$tmp/frd.sorted"
    cmp -s "$find_cmp" "$frd_cmp" && out_same=1
  else
    local z=()
    [ $sep = nul ] && z=(-z)
    "$path_order" same "${z[@]}" "$tmp/find.out" "$tmp/frd.out" && out_same=1
    if [ $out_same -eq 0 ]; then
      sort "${z[@]}" "$tmp/find.out" >"$tmp/find.sorted"
      sort "${z[@]}" "$tmp/frd.out" >"$tmp/frd.sorted"
    fi
  fi
  if [ -s "$tmp/find.err" ] || [ -s "$tmp/frd.err" ]; then
    # (A message may follow -ok's questions on their line: they end in "? ", no newline.)
    sed 's/^\(\(< .* > ? \)*\)find: /\1frdfind: /' "$tmp/find.err" | sort >"$tmp/find.err.sorted"
    sort "$tmp/frd.err" >"$tmp/frd.err.sorted"
    cmp -s "$tmp/find.err.sorted" "$tmp/frd.err.sorted" && err_same=1
  else
    : >"$tmp/find.err.sorted"
    : >"$tmp/frd.err.sorted"
    err_same=1
  fi
  local what="[$mode] ${dir#"$tmp"/} $*"
  [ "$LC_ALL" = C ] || what+=" (LC_ALL=$LC_ALL)"
  if [ $out_same -eq 1 ] && [ $err_same -eq 1 ] && [ $rc_find -eq $rc_frd ]; then
    pass=$((pass + 1))
    if [ -n "$this_gap" ]; then
      printf 'XPASS %s (%s): the gap is closed\n' "$what" "$this_gap"
    elif [ $verbose -eq 1 ]; then
      printf '%-4s %-70s %6d bytes, exit %d\n' ok "$what" "$(wc -c <"$tmp/find.out")" \
        $rc_find >&3
    fi
  elif [ -n "$this_gap" ]; then
    xfail=$((xfail + 1))
    printf 'XFAIL %s (%s)\n' "$what" "$this_gap"
  else
    fail=$((fail + 1))
    failed_cases+=("$what")
    printf 'FAIL %s\n' "$what"
    [ $rc_find -eq $rc_frd ] || echo "     exit status: find $rc_find, frdfind $rc_frd"
    if [ $out_same -eq 0 ]; then
      diff <(tr '\0' '\n' <"$find_cmp") <(tr '\0' '\n' <"$frd_cmp") |
        head -8 | sed 's/^/     stdout /' || true
    fi
    if [ $err_same -eq 0 ]; then
      diff "$tmp/find.err.sorted" "$tmp/frd.err.sorted" | head -6 | sed 's/^/     stderr /' ||
        true
    fi
  fi
}

# -depth order without -s: passes the lines on sorted if each directory comes after every
# line below it; otherwise says which did not (so the comparison with find fails).
post_check() { "$path_order" postcheck; }

# tt MODE DIR ARGS...: t on ages set again if 20 s have passed since they were (see age):
# they stay short of the next edge, and the suite does not spend its time on touch.
tt() {
  [ $((SECONDS - aged_at)) -lt 20 ] || age
  t "$@"
}

# rep N MODE DIR ARGS...: the case N times (for orders that a race would break now and then);
# at most FRD_TEST_REPEATS times if set (the sanitizer builds: memory errors need one run, and
# races are the normal build's and TSan's to find).
rep() {
  local n=$1 i
  shift
  [ -z "${FRD_TEST_REPEATS:-}" ] || [ "$n" -le "$FRD_TEST_REPEATS" ] || n=$FRD_TEST_REPEATS
  for ((i = 0; i < n; i++)); do t "$@"; done
}

# ---- the other kinds of case -----------------------------------------------------------------
# Output files: written, truncated, shared when named twice (both tools write a file each).
outcase() {
  local what="[out] $*"
  rm -f "$tmp"/o_find_* "$tmp"/o_frd_*
  printf 'old content that must go\n' >"$tmp/o_find_1"
  printf 'old content that must go\n' >"$tmp/o_frd_1"
  local a_find=() a_frd=() x
  for x in "$@"; do a_find+=("${x//@/$tmp/o_find_}"); a_frd+=("${x//@/$tmp/o_frd_}"); done
  local rc_find=0 rc_frd=0
  (cd "$g" && find "${a_find[@]}") >"$tmp/find.out" 2>"$tmp/find.err" || rc_find=$?
  (cd "$g" && "$frdfind" "${a_frd[@]}") >"$tmp/frd.out" 2>"$tmp/frd.err" || rc_frd=$?
  local ok=1 f
  for f in "$tmp"/o_find_*; do
    [ -e "$f" ] || continue
    cmp -s <(tr '\0' '\n' <"$f" | sort) <(tr '\0' '\n' <"${f/o_find_/o_frd_}" | sort) || ok=0
  done
  local n_find n_frd
  n_find=$(find "$tmp" -maxdepth 1 -name 'o_find_*' | wc -l)
  n_frd=$(find "$tmp" -maxdepth 1 -name 'o_frd_*' | wc -l)
  [ "$n_find" = "$n_frd" ] || ok=0
  cmp -s <(sort "$tmp/find.out") <(sort "$tmp/frd.out") || ok=0
  [ "$(sed "s|$tmp/o_find_|@|g; s/^find: /frdfind: /" "$tmp/find.err" | sort)" = \
    "$(sed "s|$tmp/o_frd_|@|g" "$tmp/frd.err" | sort)" ] || ok=0
  [ $rc_find -eq $rc_frd ] || ok=0
  if [ $ok -eq 1 ]; then
    pass=$((pass + 1))
    echo >&3 "ok   $what"
  else
    fail=$((fail + 1))
    failed_cases+=("$what")
    echo "FAIL $what"
  fi
}
# delcase MODE ARGS...: -delete: post-order, relative to the parent's descriptor, find's
# messages; each tool works on a fresh copy of @deltpl's tree and what is left of it must agree
# too. MODE: nobody (uid 65534 owns the copies and runs), ro (a/b read-only).
delcase() {
  local mode=$1
  shift
  local what="[del,$mode] $*" as=()
  [[ ,$mode, == *,nobody,* ]] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  rm -rf "$tmp/del_find" "$tmp/del_frd"
  cp -a "$dt" "$tmp/del_find"
  cp -a "$dt" "$tmp/del_frd"
  if [[ ,$mode, == *,ro,* ]]; then
    chmod 555 "$tmp/del_find/a/b" "$tmp/del_frd/a/b"
  fi
  if [ ${#as[@]} -gt 0 ]; then chown -R 65534:65534 "$tmp/del_find" "$tmp/del_frd"; fi
  local rc_find=0 rc_frd=0
  (cd "$tmp/del_find" && "${as[@]}" find "$@") >"$tmp/find.out" 2>"$tmp/find.err" || rc_find=$?
  (cd "$tmp/del_frd" && "${as[@]}" "$frdfind" "$@") >"$tmp/frd.out" 2>"$tmp/frd.err" || rc_frd=$?
  chmod -R u+rwx "$tmp/del_find" "$tmp/del_frd"
  local ok=1
  cmp -s <(sort "$tmp/find.out") <(sort "$tmp/frd.out") || ok=0
  cmp -s <(sed 's/^find: /frdfind: /' "$tmp/find.err" | sort) <(sort "$tmp/frd.err") || ok=0
  cmp -s <(cd "$tmp/del_find" && find . | sort) <(cd "$tmp/del_frd" && find . | sort) || ok=0
  [ $rc_find -eq $rc_frd ] || ok=0
  if [ $ok -eq 1 ]; then
    pass=$((pass + 1))
    echo >&3 "ok   $what"
  else
    fail=$((fail + 1))
    failed_cases+=("$what")
    echo "FAIL $what (exit find $rc_find frdfind $rc_frd)"
    diff <(sort "$tmp/find.out") <(sort "$tmp/frd.out") | head -5 || true
    diff <(sed 's/^find: /frdfind: /' "$tmp/find.err" | sort) <(sort "$tmp/frd.err") | head -5 || true
  fi
}
# A directory swapped for a link to outside the tree while the walk is inside it: -delete
# acts relative to the descriptor of the directory it listed, so outside stays whole.
swapcase() {
  local mode=$1
  rm -rf "$tmp/swap" "$tmp/outside"
  mkdir -p "$tmp/swap/t/victim" "$tmp/outside"
  for i in $(seq 1 50); do
    touch "$tmp/swap/t/victim/f$i" "$tmp/outside/f$i"
  done
  # The first file evaluated moves t/victim away and puts a link to outside in its place;
  # every -delete after it must act in the moved directory (a path-based removal would go
  # through the link and remove outside/fN).
  (cd "$tmp/swap" && "$frdfind" $mode t -name 'f*' -exec sh -c \
    '[ -L t/victim ] || { mv t/victim t/moved && ln -s "$1" t/victim; }' sh "$tmp/outside" \; \
    -delete >/dev/null 2>&1) || true
  local left_outside left_moved
  left_outside=$(ls "$tmp/outside" | wc -l)
  left_moved=$(ls "$tmp/swap/t/moved" 2>/dev/null | wc -l)
  if [ "$left_outside" -eq 50 ] && [ "$left_moved" -eq 0 ] && [ -d "$tmp/swap/t/moved" ]; then
    pass=$((pass + 1))
    echo >&3 "ok   [swap $mode] a directory swapped for a link mid-walk: -delete stays in the tree"
  else
    fail=$((fail + 1))
    failed_cases+=("swap $mode: outside has $left_outside of 50, the moved directory $left_moved")
    echo "FAIL [swap $mode] outside has $left_outside of 50 files, moved directory $left_moved"
  fi
}
# chain OPTIONS...: -execdir ... + on @chain's 300 nested directories with few descriptors
# allowed: the batches give theirs back (each path once, in its directory, no error). At -j1 a
# directory's entries are all visited before any below it, so it still takes one command
# (without descriptors to spare, each path would take a command of its own).
chain() {
  local got want cmds dirs rc=0
  want=$(cd "$tmp/chain" && find . -type f -execdir sh -c 'for a; do echo "$PWD/$a"; done' \
    sh {} + 2>&1 | sort | md5sum)
  # A failing frdfind (its status, under pipefail) fails the case, not the script.
  got=$(cd "$tmp/chain" && ulimit -n 64 && "$frdfind" "$@" . -type f -execdir \
    sh -c 'for a; do echo "$PWD/$a"; done' sh {} + 2>&1 | sort | md5sum) || rc=$?
  cmds=$(cd "$tmp/chain" && ulimit -n 64 && "$frdfind" "$@" . -type f -execdir echo {} + |
    wc -l) || rc=$?
  dirs=$(cd "$tmp/chain" && find . -type f -printf '%h\n' | sort -u | wc -l)
  if [ "$rc" -eq 0 ] && [ "$got" = "$want" ] && { [ "$1" != -j1 ] || [ "$cmds" -eq "$dirs" ]; }; then
    pass=$((pass + 1))
    echo >&3 "ok   [chain $*] -execdir ... + on 300 nested directories, ulimit -n 64: $cmds commands"
  else
    fail=$((fail + 1))
    failed_cases+=("chain $*")
    echo "FAIL [chain $*] -execdir ... + on 300 nested directories, ulimit -n 64: $cmds commands, exit $rc"
  fi
}
# A closed pipe stops the walk at once: with SIGPIPE ignored, the first write that fails with
# EPIPE ends the walk (find's messages; find itself walks on to the end). Records of 1 KiB make
# the first write come after a few hundred entries; -fprint counts the entries evaluated.
epipe() {
  local seen rc
  rc=$( (trap '' PIPE; "$frdfind" "$@" "$tmp/batch/b" -printf '%1000p\n' -fprint "$tmp/seen" \
    2>"$tmp/epipe.err"; echo $? >"$tmp/epipe.rc") | head -c 1 >/dev/null; cat "$tmp/epipe.rc")
  seen=$(wc -l <"$tmp/seen")
  if [ "$seen" -lt 5000 ] && [ "$rc" -eq 1 ] &&
    [ "$(cat "$tmp/epipe.err")" = "$(printf "frdfind: 'standard output': Broken pipe\nfrdfind: write error")" ]; then
    pass=$((pass + 1))
    echo >&3 "ok   [epipe $*] stopped after $seen of 10001 entries, exit $rc"
  else
    fail=$((fail + 1))
    failed_cases+=("epipe $*: $seen entries evaluated, exit $rc")
    echo "FAIL [epipe $*] $seen of 10001 entries evaluated, exit $rc: $(cat "$tmp/epipe.err")"
  fi
}
# -color: on a terminal (script(1) gives one), -print's paths colored from LS_COLORS as bfs
# colors them; into a pipe, no escape at all (the output is find's).
colorcase() {
  local lsc=$1 what="[color] LS_COLORS='$1' ${*:2}"
  shift
  local a b rc=0
  a=$(cd "$g" && LS_COLORS=$lsc script -qec "bfs $* -color" /dev/null | sort)
  # script -e passes frdfind's status on: a failing frdfind fails the case, not the script.
  b=$(cd "$g" && LS_COLORS=$lsc script -qec "$frdfind $* -color" /dev/null | sort) || rc=$?
  if [ "$rc" -eq 0 ] && [ "$a" = "$b" ] && [[ $a == *$'\e['* || $lsc == *lc=* ]]; then
    pass=$((pass + 1))
    echo >&3 "ok   $what"
  else
    fail=$((fail + 1))
    failed_cases+=("$what")
    echo "FAIL $what (frdfind's exit $rc)"
    diff <(echo "$a") <(echo "$b") | head -6 | cat -v || true
  fi
}
# in_dir DIR ARGS...: frdfind's output in DIR, and a last line "frdfind: exit N" if it failed
# (so that a failing frdfind fails a comparison of outputs, whatever it printed).
in_dir() {
  local rc=0
  (cd "$1" && "$frdfind" "${@:2}") || rc=$?
  [ "$rc" -eq 0 ] || printf '\nfrdfind: exit %d\n' "$rc"
}
# full_stdout ARGS...: find ARGS with standard output on /dev/full: find's message and status.
full_stdout() {
  local a b
  a=$(cd "$g" && { find "$@" >/dev/full; echo "exit $?"; } 2>&1 | sed 's/^find: /frdfind: /')
  b=$(cd "$g" && { "$frdfind" "$@" >/dev/full; echo "exit $?"; } 2>&1)
  same=0
  [ "$a" = "$b" ] && same=1
  outcome "[full] $* >/dev/full" $same || echo "     find '$a', frdfind '$b'"
}
# closed_stdout ARGS...: a closed standard output: find's close at exit fails too, and says
# why ("write error: Bad file descriptor"), unless nothing was written.
closed_stdout() {
  local a b
  a=$(cd "$g" && { find "$@" >&-; echo "exit $?"; } 2>&1 | sed 's/^find: /frdfind: /')
  b=$(cd "$g" && { "$frdfind" "$@" >&-; echo "exit $?"; } 2>&1)
  same=0
  [ "$a" = "$b" ] && same=1
  outcome "[closed] $* >&-" $same || echo "     find '$a', frdfind '$b'"
}
# full_walk: a full standard output does not stop the walk: find walks on (every later error
# is reported), then reports the write error; as uid 65534 in $tmp/full (@full).
full_walk() {
  local a b
  chmod 0 "$tmp/full/a" "$tmp/full/z"
  a=$(cd "$tmp/full" && setpriv --reuid=65534 --regid=65534 --clear-groups find . 2>&1 >/dev/full |
    sed 's/^find: /frdfind: /' | sort || true)
  b=$(cd "$tmp/full" && setpriv --reuid=65534 --regid=65534 --clear-groups "$frdfind" -s . \
    2>&1 >/dev/full | sort || true)
  chmod 755 "$tmp/full/a" "$tmp/full/z"
  same=0
  [ "$a" = "$b" ] && [[ $a == *"‘./z’"* || $a == *"'./z'"* ]] && same=1
  outcome "[full] nobody: . >/dev/full, the errors after the first failed write" $same ||
    diff <(echo "$a") <(echo "$b") | head -6
}
# full_delete: -print -delete with a full standard output still deletes every file.
full_delete() {
  local a b
  rm -rf "$tmp/full/many1" "$tmp/full/many2"
  cp -a "$tmp/full/many" "$tmp/full/many1"
  cp -a "$tmp/full/many" "$tmp/full/many2"
  a=$(find "$tmp/full/many1" -print -delete 2>&1 >/dev/full | sed 's/^find: /frdfind: /' || true)
  b=$("$frdfind" "$tmp/full/many2" -print -delete 2>&1 >/dev/full || true)
  a=${a//many1/many2}
  same=0
  [ "$a" = "$b" ] && [ ! -e "$tmp/full/many1" ] && [ ! -e "$tmp/full/many2" ] && same=1
  outcome "[full] -print -delete >/dev/full: every file deleted" $same ||
    echo "     find: '$a', frdfind: '$b', left: $(find "$tmp/full/many2" | wc -l)"
}
# race OPTIONS...: a root gone before its own removal (the walk removed the link its path goes
# through, and the directory it stood in): `a/.. OPTIONS -delete` in a fresh tree per tool.
race() {
  local tool a b rc_find=0 rc_frd=0
  for tool in find frd; do
    rm -rf "$tmp/race_$tool"
    mkdir -p "$tmp/race_$tool/top/sub"
    ln -s . "$tmp/race_$tool/top/a"
  done
  a=$(cd "$tmp/race_find/top" && find a/.. "$@" -delete 2>&1) || rc_find=$?
  b=$(cd "$tmp/race_frd/top" && "$frdfind" a/.. "$@" -delete 2>&1) || rc_frd=$?
  same=0
  [ "${a//find: /frdfind: }" = "$b" ] && [ $rc_find -eq $rc_frd ] && [ ! -e "$tmp/race_frd/top" ] &&
    [ -d "$tmp/race_frd" ] && same=1
  outcome "[del] a/.. $* -delete: a root gone before its removal" $same ||
    echo "     find ($rc_find): '$a', frdfind ($rc_frd): '$b'"
}
# color_pipe ARGS...: -color into a pipe writes no escape: the output of ARGS is that of ARGS
# without -color/-nocolor (both with -s).
color_pipe() {
  local plain=() x
  for x in "$@"; do [[ $x == -*color ]] || plain+=("$x"); done
  if [ "$(in_dir "$g" -s "$@")" = "$(in_dir "$g" -s "${plain[@]}")" ] &&
    ! in_dir "$g" "$@" | grep -q $'\e\|frdfind: exit'; then
    pass=$((pass + 1))
    echo >&3 "ok   [color] into a pipe, no escape: $*"
  else
    fail=$((fail + 1))
    failed_cases+=("[color] into a pipe: $*")
    echo "FAIL [color] into a pipe: $*"
  fi
}
# big_args TERM: a command that cannot fit the argument limit (two words of 65,600 bytes):
# find's message and exit status 1 at once, for ';' and '+' (too long to print in the line).
big_args() {
  local term=$1 rc_find=0 rc_frd=0 big
  big=$(head -c 65600 /dev/zero | tr '\0' x)
  (cd "$g" && find dir -exec echo "$big" "$big" {} "$term" -print) >"$tmp/find.out" \
    2>"$tmp/find.err" || rc_find=$?
  (cd "$g" && "$frdfind" dir -exec echo "$big" "$big" {} "$term" -print) >"$tmp/frd.out" \
    2>"$tmp/frd.err" || rc_frd=$?
  if [ $rc_find -eq $rc_frd ] && cmp -s "$tmp/find.out" "$tmp/frd.out" &&
    cmp -s <(sed 's/^find: /frdfind: /' "$tmp/find.err") "$tmp/frd.err"; then
    pass=$((pass + 1))
    echo >&3 "ok   [] dir -exec echo BIG BIG {} $term -print: $(cat "$tmp/frd.err"), exit $rc_frd"
  else
    fail=$((fail + 1))
    failed_cases+=("-exec with words over the argument limit, $term")
    echo "FAIL -exec echo BIG BIG {} $term: find exit $rc_find: $(head -c 200 "$tmp/find.err"); frdfind exit $rc_frd: $(head -c 200 "$tmp/frd.err")"
  fi
}
# tty LOCALE: names on a terminal (@tty's tree and script): both tools under script(1)'s
# pseudo-terminal, their whole outputs compared.
tty() {
  local loc=$1
  if ! command -v script >/dev/null; then
    outcome "[tty] no script(1) (util-linux) to make a terminal" 0 || true
    return
  fi
  LC_ALL=$loc script -qec "bash '$tmp/tty_run.sh' find" /dev/null >"$tmp/tty.find" 2>&1 || true
  LC_ALL=$loc script -qec "bash '$tmp/tty_run.sh' '$frdfind'" /dev/null >"$tmp/tty.frd" 2>&1 || true
  same=0
  grep -q '?' "$tmp/tty.find" && cmp -s "$tmp/tty.find" "$tmp/tty.frd" && same=1
  if ! outcome "[tty] names on a terminal (LC_ALL=$loc)" $same; then
    if cmp -s "$tmp/tty.find" "$tmp/tty.frd"; then
      echo "     find wrote no '?' under script(1); its output begins:"
      head -4 "$tmp/tty.find" | cat -A | sed 's/^/     /'
    else
      diff <(cat -A "$tmp/tty.find") <(cat -A "$tmp/tty.frd") | head -8 | sed 's/^/     /' || true
    fi
  fi
}
# bad_exclude ARGS...: an action inside -exclude, or no operand: a usage error, exit 1,
# one line, nothing walked.
bad_exclude() {
  local rc=0 out
  out=$(cd "$g" && "$frdfind" . "$@" 2>&1) || rc=$?
  if [ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
    [[ $out == "frdfind: "*exclude* ]]; then
    pass=$((pass + 1))
    echo >&3 "ok   [exclude] frdfind . $*: $out"
  else
    fail=$((fail + 1))
    failed_cases+=("frdfind . $*")
    echo "FAIL [exclude] frdfind . $*: exit $rc, $out"
  fi
}
# btime: birth time (find 4.9 as Debian builds it has none, so frdfind is checked against
# stat(1)): %B@ is statx's stx_btime; -newerBt and -newermB compare with it, strictly after.
# Five checks, skipped on a file system without birth times.
bt() {
  local what=$1 want=$2 got=$3
  if [ "$want" = "$got" ]; then
    pass=$((pass + 1))
    echo >&3 "ok   [btime] $what"
  else
    fail=$((fail + 1))
    failed_cases+=("[btime] $what")
    echo "FAIL [btime] $what: want '$want', got '$got'"
  fi
}
btime() {
  if [ "$(stat -c %W "$p/at/ref")" = 0 ]; then
    echo "skip [btime]: no birth time on this file system"
    return
  fi
  local b f
  (cd "$p" && for f in at/*; do stat -c '%.9W0 %n' "$f"; done | sort) >"$tmp/bt.want"
  in_dir "$p" at -mindepth 1 -printf '%B@ %p\n' | sort >"$tmp/bt.got"
  bt "%B@ of at/* as stat -c %.9W" "$(cat "$tmp/bt.want")" "$(cat "$tmp/bt.got")"
  b=$(stat -c %W "$p/at/ref")
  bt "-newerBt @$((b - 1)) includes at/ref" "at/ref" "$(in_dir "$p" at/ref -newerBt "@$((b - 1))")"
  bt "-newerBt @$((b + 1)) excludes at/ref" "" "$(in_dir "$p" at/ref -newerBt "@$((b + 1))")"
  bt "-newermB at/ref: the files modified after at/ref was born" \
    "$(cd "$p" && find at -newermt "@$(stat -c %.9W at/ref)" | sort)" \
    "$(in_dir "$p" at -newermB at/ref | sort)"
  bt "-newerBB at/ref is false for at/ref itself" "" "$(in_dir "$p" at/ref -newerBB at/ref)"
}
# merged WHO DIR FRDFIND-OPTIONS -- ARGS...: messages in their place: find's error() flushes
# stdout before it writes to stderr, so on one pipe each message follows the lines printed
# before it; frdfind writes a worker's lines out before each message (with one writer, -s or
# -j 1, also a record half made). Both outputs on one pipe are compared whole.
merged() { # WHO DIR FRDFIND-OPTIONS -- ARGS...: stdout and stderr on one pipe, compared whole
  local as=() dir=$2 fo=()
  [ "$1" = nobody ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  shift 2
  while [ "$1" != -- ]; do fo+=("$1") && shift; done
  shift
  (cd "$dir" && "${as[@]}" find "$@" 2>&1 | sed 's/find: /frdfind: /g') >"$tmp/m.find" || true
  (cd "$dir" && "${as[@]}" "$frdfind" "${fo[@]}" "$@" 2>&1) >"$tmp/m.frd" || true
  local what="[merged${as[0]:+ nobody}${fo[0]:+ ${fo[*]}}] ${dir#"$tmp"/} $*" same=0
  grep -q 'frdfind: ' "$tmp/m.find" && cmp -s "$tmp/m.find" "$tmp/m.frd" && same=1
  outcome "$what" $same || diff "$tmp/m.find" "$tmp/m.frd" | head -8 | sed 's/^/     /' || true
}
# -exclude EXPR (bfs's): the same paths as find without them (written with -prune, or
# -path where -prune cannot act: under -depth and -mindepth). tc DIR FRDFIND-ARGS FIND-ARGS
# [LABEL] compares sorted stdout, stderr (empty) and exit status.
tc() {
  local dir=$1 rc_find=0 rc_frd=0 label=${4:-exclude}
  (cd "$dir" && eval "find $3") 2>"$tmp/find.err" >"$tmp/find.out" || rc_find=$?
  (cd "$dir" && eval "\"\$frdfind\" $2") 2>"$tmp/frd.err" >"$tmp/frd.out" || rc_frd=$?
  sort "$tmp/find.out" >"$tmp/find.sorted"
  sort "$tmp/frd.out" >"$tmp/frd.sorted"
  sed 's/^find: /frdfind: /' "$tmp/find.err" | sort >"$tmp/find.err.sorted"
  sort "$tmp/frd.err" >"$tmp/frd.err.sorted"
  if cmp -s "$tmp/find.sorted" "$tmp/frd.sorted" &&
    cmp -s "$tmp/find.err.sorted" "$tmp/frd.err.sorted" &&
    [ $rc_find -eq $rc_frd ]; then
    pass=$((pass + 1))
    echo >&3 "ok   [$label] frdfind $2"
  else
    fail=$((fail + 1))
    failed_cases+=("frdfind $2")
    echo "FAIL [$label] frdfind $2 / find $3"
    diff "$tmp/find.sorted" "$tmp/frd.sorted" | head -6 | sed 's/^/     /' || true
    diff "$tmp/find.err.sorted" "$tmp/frd.err.sorted" | head -4 | sed 's/^/     /' || true
  fi
}
tx() { tc "$1" ". -exclude \\( $2 \\) $3" ". \\( $2 \\) -prune -o \\( $3 \\) -print"; }
# -j N, or the default count, under a thread or address space limit: the walk runs with the
# threads it can start, the output is find's, nothing is printed on stderr. (A sanitizer's
# process cannot run under `ulimit -v`, nor LeakSanitizer's check with no thread to spare:
# those cases are skipped there, without running it, which would leave a report.)
limited() { # WHAT PRLIMIT-OPTION FRDFIND-OPTIONS...
  local what=$1 lim=$2 rc=0 a b
  shift 2
  # (A sanitizer's process cannot run under `ulimit -v`, nor LeakSanitizer's check with no
  # thread to spare: those cases are skipped there, without running it, which would leave a
  # report.)
  if [ $sanitized -eq 1 ] && [[ $lim == --as=* || $lim == --nproc=1 ]]; then
    echo "skip [limit] $what: a sanitizer's frdfind cannot run so"
    return
  fi
  a=$(cd "$g" && find dir sizes 2>&1 | sort)
  # prlimit first: setpriv execs what follows with root's capabilities still in hand, so a
  # prlimit it started could not run a frdfind in a folder only root may search (CI's clone).
  # A uid no other test runs as: setpriv's change of uid under --nproc=1 marks the process,
  # and its exec fails with EAGAIN, when that uid has another process (65534's tests in
  # parallel); the files are read as any other user, as 65534 reads them.
  b=$(cd "$g" && prlimit "$lim" -- setpriv --reuid=64101 --regid=64101 --clear-groups \
    "$frdfind" "$@" dir sizes 2>&1 | sort) || rc=$?
  same=0
  [ "$a" = "$b" ] && [ $rc -eq 0 ] && same=1
  outcome "[limit] $what: frdfind $* dir sizes" $same || echo "     exit $rc: $(echo "$b" | head -3)"
}

# ---- fixtures: the trees and files the cases after an @NAME line use ------------------------
# Each fx_NAME makes what its cases need, at the point of the table where the line stands.

# @roots: roots for the command-line order cases.
fx_roots() {
  mkdir -p "$g/r/a/x" "$g/r/b" "$g/r/c/d/y" "$g/r/e/f"
  touch "$g/r/a/x/1" "$g/r/a/2" "$g/r/b/3" "$g/r/c/d/4" "$g/r/c/d/y/5" "$g/r/e/f/6"
}
# @ops: paths named like operators.
fx_ops() {
  mkdir -p "$g/ops/,"
  touch "$g/ops/)" "$g/ops/,/x" "$g/ops/!" "$g/ops/(" "$g/ops/-"
}
# @answers: -ok's answers on standard input (the yes and no modes).
fx_answers() {
  for _ in $(seq 1000); do echo y; done >"$tmp/answers.yes"
  for _ in $(seq 1000); do echo n; done >"$tmp/answers.no"
}
# @xd: a root whose directory uid 65534 may search but not read.
fx_xd() {
  mkdir -p "$tmp/xd/wx/sub"
  chmod 111 "$tmp/xd/wx"
}
# @full: a tree of 9,000 names (more than one 64 KiB write) between two unreadable folders.
fx_full() {
  mkdir -p "$tmp/full/a" "$tmp/full/many" "$tmp/full/z"
  (cd "$tmp/full/many" && seq -f 'a-name-long-enough-that-nine-thousand-fill-a-buffer-%g' 9000 | xargs touch)
}
# @deltpl: the tree each -delete case copies for each tool.
fx_deltpl() {
  dt="$tmp/deltpl"
  mkdir -p "$dt/a/b/c" "$dt/d" "$dt/e/f" "$dt/keep"
  touch "$dt/a/b/c/1.tmp" "$dt/a/b/2.tmp" "$dt/a/3.txt" "$dt/d/4.tmp" "$dt/keep/5.txt" "$dt/e/f/6"
  ln -s ../keep "$dt/a/to_keep"
  ln -s ../keep/5.txt "$dt/d/to_file"
  ln -s nowhere "$dt/d/dangling"
  mkfifo "$dt/d/fifo"
}
# @batch: 10,000 names of one length (the '+' batches); @batch2: two big directories.
fx_batch() {
  mkdir -p "$tmp/batch/b"
  (cd "$tmp/batch/b" && for i in $(seq 10000 19999); do : >"name_of_some_length_$i"; done)
}
fx_batch2() {
  mkdir -p "$tmp/batch2/x" "$tmp/batch2/y"
  (cd "$tmp/batch2/x" && for i in $(seq 10000 17999); do : >"name_of_some_length_$i"; done)
  (cd "$tmp/batch2/y" && for i in $(seq 10000 16999); do : >"other_name_of_length_$i"; done)
}
# @chain: 300 nested directories of two files each.
fx_chain() {
  mkdir -p "$tmp/chain"
  (cd "$tmp/chain" && p=.; for i in $(seq 1 300); do p=$p/d; mkdir $p; : >$p/f1; : >$p/f2; done)
}
# @lsw: -ls widths: a numeric owner, device numbers.
fx_lsw() {
  mkdir -p "$tmp/lsw"
  : >"$tmp/lsw/num" && : >"$tmp/lsw/plain"
  chown 12345:54321 "$tmp/lsw/num" 2>/dev/null || true
  mknod "$tmp/lsw/chr" c 136 12345 2>/dev/null || true
  mknod "$tmp/lsw/chr2" c 1 3 2>/dev/null || true
}
# @pred: the predicates' tree ($p): owners with and without names (as root), every -perm
# edge, links for -lname/-xtype, names for -regex, access times apart from modification times.
fx_pred() {
  local m f n spec
  mkdir -p "$p"/own "$p"/modes "$p"/ln/d "$p"/re/sub "$p"/at
  for m in 0644 0755 0700 0444 0000 4755 2755 1777 0640 0604 0664 0111 0222 6711; do
    printf 'm' >"$p/modes/f$m" && chmod "$m" "$p/modes/f$m"
    mkdir "$p/modes/d$m" && chmod "$m" "$p/modes/d$m"
  done
  for f in root nobody noname nogrp; do printf 'o' >"$p/own/$f"; done
  if [ "$(id -u)" -eq 0 ]; then
    chown 65534:65534 "$p/own/nobody"
    chown 4242:4343 "$p/own/noname"
    chown 0:4343 "$p/own/nogrp"
  fi
  printf 't' >"$p/ln/target"
  ln -s target "$p/ln/rel"
  ln -s "$p/ln/target" "$p/ln/abs"
  ln -s d "$p/ln/dir"
  ln -s missing "$p/ln/broken"
  ln -s loop "$p/ln/loop"
  ln -s TARGET.TXT "$p/ln/upper"
  ln "$p/ln/target" "$p/ln/hard"
  for n in a.c b.h c.txt ab.c abc.cc 'x+y' 'x.y' 'ABC.C' "$(printf 'new\nline')" 'sub2'; do
    printf 'r' >"$p/re/$n"
  done
  printf 'r' >"$p/re/sub/deep.c"
  # Access times: days and minutes ago; mtimes all "now" (so -atime and -mtime disagree).
  for spec in "${at_specs[@]}"; do
    set -- $spec
    printf 't' >"$p/at/$1"
  done
  touch -m -d "2021-06-15 12:00:00" "$p/at/a3d"
  age_more() { age_at; }
  age
  touch -m -d "2021-06-15 12:00:01" "$p/at/a10d"
  chmod -R a+rX "$p/re" "$p/ln" "$p/at" "$p/own"
  # shellcheck disable=SC2034
  fstype_p=$(find "$p" -maxdepth 0 -printf '%F')
}
# Set again by every tt once @pred has run (age sets now first), with the ages of times/;
# ctimes become now.
at_specs=("a30s 30" "a90s 90" "a59m 3540" "a61m 3660" "a23h 82800" "a25h 90000" "a3d 266400"
  "a10d 871200" "a400d 34560000")
age_at() {
  local spec
  for spec in "${at_specs[@]}"; do
    set -- $spec
    touch -a -d "@$((now - $2))" "$p/at/$1"
  done
  touch -a -d "@$((now - 86400 * 2))" "$p/at/ref"
  touch -m -d "@$((now - 86400 * 5))" "$p/at/ref"
  # The directory itself: its ctime becomes now (-cmin -1 must not race the minute) and its
  # atime a minute ahead of that, so that listing it moves neither between the two tools'
  # runs (relatime moves an atime that is not newer than the ctime: after a chmod, the first
  # tool's listing did, and the second printed another %a).
  touch -a -d "@$((now + 60))" "$p/at"
}
# @dst: local times around daylight saving changes.
fx_dst() {
  local ts f
  mkdir -p "$p/dst"
  for ts in "2021-03-28 00:59:59Z" "2021-03-28 01:00:00Z" "2021-03-28 01:30:00Z" \
    "2021-03-28 02:00:00Z" "2021-10-31 00:30:00Z" "2021-10-31 00:59:59Z" "2021-10-31 01:00:01Z" \
    "2021-10-31 01:30:00Z" "2021-02-28 23:00:00Z" "2020-02-29 12:00:00Z"; do
    f=$(printf '%s' "$ts" | tr ' :' '__')
    printf 'd' >"$p/dst/$f"
    touch -d "$ts" "$p/dst/$f"
  done
}
# @files0: -files0-from's lists.
fx_files0() {
  printf 're\0ln/rel\0modes/f0644\0' >"$p/list0"
  printf 're\0\0ln\0missing\0' >"$p/list0.bad"
  printf 're/a.c\0ln' >"$p/list0.noend"
  : >"$p/list0.empty"
}
# @msgs: walks whose order is fixed, around an unreadable folder (b); @msgs_done makes it
# readable again.
fx_msgs() {
  mkdir -p "$p/msgs/a" "$p/msgs/b" "$p/msgs/c" "$p/msgs/e" "$p/msgs/s/sub"
  touch "$p/msgs/a/1" "$p/msgs/c/1" "$p/msgs/f"
  ln -s loop "$p/msgs/loop"
  chmod 0 "$p/msgs/b"
}
fx_msgs_done() { chmod 755 "$p/msgs/b"; }
# @u8: UTF-8 names, and names that are not UTF-8.
fx_u8() {
  local u8="$p/u8" n
  mkdir -p "$u8"
  for n in Éclair éclair eclair École ÉCOLE.txt straße STRASSE ÿes Ÿes 日本語.txt "$(printf 'bad\377x')" \
    "$(printf 'caf\303\251')" "$(printf 'cafe\314\201')" plain.txt; do
    printf 'u' >"$u8/$n"
  done
  ln -s École "$u8/to_école"
  ln -s "$(printf 'bad\377x')" "$u8/to_bad"
}
# @quote: unreadable directories ($q) whose names find quotes with gnulib's locale style.
fx_quote() {
  local n
  mkdir -p "$q"
  for n in plain "it's" 'back\slash' "$(printf 'new\nline')" "$(printf 'bad\377x')" "é" "‘q’" \
    "$(printf 'e\314\201')" "$(printf 'nb\302\240sp')" "$(printf 'c1\302\205x')" "$(printf 'cut\342\200')"; do
    mkdir "$q/$n"
    : >"$q/$n/f"
    chmod 000 "$q/$n"
  done
}
# @tty: names a terminal cannot show, and the cases of the tty kind in a script of their own:
# script(1) runs its command with $SHELL, which may be unset (then /bin/sh, which knows no
# exported bash function) or any other shell.
fx_tty() {
  local n
  tty_dir="$tmp/tty"
  mkdir -p "$tty_dir/sub"
  for n in plain "$(printf 'new\nline')" "$(printf 'tab\there')" "$(printf 'esc\033[31mred')" \
    "$(printf 'del\177x')" "$(printf 'bad\377\376')" "$(printf 'c1\302\205x')" \
    "$(printf 'cut\342\200')" "é" "$(printf 'zw\342\200\213sp')" "$(printf 'e\314\201')"; do
    : >"$tty_dir/sub/$n"
  done
  ln -s "$(printf 'tar\nget')" "$tty_dir/sub/$(printf 'ln\nk')"
  cat >"$tmp/tty_run.sh" <<'TTY'
# TOOL: the cases, each sorted (the walk's order is not compared here)
cd "$tty_dir" || exit
"$1" sub -print | sort
"$1" sub -printf '[%p][%f][%h][%P][%l][%H][%-14f][%.4f][%y]\n' | sort
"$1" sub -print0 | tr '\0' '\n' | sort
"$1" sub -fprint /dev/tty | sort
"$1" sub -fprintf /dev/tty '%p|\n' | sort
"$1" sub -fprint "$tmp/tty.out" && sort "$tmp/tty.out"
TTY
  export tty_dir tmp
}
# @uboot: the u-boot tree ($u) from tests/data; without it, one failure and the rest of the
# file is skipped.
fx_uboot() {
  local manifest="$data/u-boot.tsv.gz"
  if [ ! -f "$manifest" ]; then
    echo "FAIL: no u-boot listing at $manifest"
    fail=$((fail + 1))
    failed_cases+=("u-boot listing missing")
    skip_file=1
    return
  fi
  python3 "$data/materialize-tree" "$manifest" "$u" >/dev/null
}

# ---- the cases' files ------------------------------------------------------------------------
# One case a line, in shell words (bash's quoting; $g $p $q $u $tmp $w $inum $inum_nosearch_file
# $inum_nosearch_child $fstype_p and $((now ...)) expand; nothing is globbed):
#   [?GUARD] [LC_ALL=LOCALE] [TZ=ZONE] KIND ARGS...
# KIND is one of the kinds above: t MODE DIR ARGS (the table's case), tt, rep N, outcase,
# delcase, merged, tc, tx, limited, ... ("?GUARD": only where have_GUARD holds). A line @NAME
# runs the fixture fx_NAME there, unless it ran before in this run (a file names the fixtures
# its cases need, so that it runs alone too); '#' starts a comment line. A file is a topic;
# the files run in name order.
kinds=" t tt rep known_gap outcase delcase swapcase chain epipe colorcase color_pipe full_stdout
  closed_stdout full_walk full_delete race big_args tty bad_exclude btime merged tc tx limited "
kinds=${kinds//$'\n'/ }
have_full() { [ -w /dev/full ]; }
have_chr() { [ -e "$tmp/lsw/chr" ]; }
run_line() { # FILE:LINE WORDS...
  local where=$1 kind
  shift
  if [[ $1 == '?'* ]]; then
    "have_${1#?}" || return 0
    shift
  fi
  while [[ $1 == LC_ALL=* || $1 == TZ=* ]]; do
    local -x "$1"
    shift
  done
  kind=$1
  shift
  if [[ $kinds != *" $kind "* ]]; then
    outcome "$where: no kind of case named '$kind'" 0 || true
    return
  fi
  "$kind" "$@"
}
skip_file=0
fixtures_made=" "
run_file() {
  local f=$1 n=0 line lines words
  skip_file=0
  mapfile -t lines <"$f"
  for line in "${lines[@]}"; do
    n=$((n + 1))
    [ $skip_file -eq 0 ] || continue
    case $line in
      '' | '#'*) continue ;;
      @*)
        # Once a run: a file names the fixtures it needs, whatever ran before it.
        if [[ $fixtures_made != *" ${line#@} "* ]]; then
          fixtures_made+="${line#@} "
          "fx_${line#@}"
        fi
        continue
        ;;
    esac
    set -f
    eval "words=($line)"
    set +f
    run_line "${f##*/}:$n" "${words[@]}"
  done
}
for f in "${files[@]}"; do
  run_file "$f"
done

echo "$pass passed, $fail failed, $xfail expected failures (known gaps)"
if [ "$fail" -gt 0 ]; then
  printf 'failed: %s\n' "${failed_cases[@]}"
  exit 1
fi
