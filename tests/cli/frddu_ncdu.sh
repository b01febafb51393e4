#!/usr/bin/env bash
# frddu --export writes what `ncdu -o` writes: on a generated tree (hard links within and
# across directories, symlinks, a fifo, sparse and empty files, names that are not UTF-8 or
# hold '"', '\' and a newline, private directories, a mount point for -x), with and without
# --exclude and -x, as root and as uid 65534:
#   - the export holds the same items and fields as Debian's ncdu's own export of the tree;
#   - ncdu loads it (`ncdu -f EXPORT -o AGAIN`) and writes the same tree back;
#   - the totals of what ncdu wrote back equal du's (-s -B1, -s -b, -s --inodes).
# Also: `--export -` writes the JSON alone on stdout, and the export's errors.
# Usage: tests/cli/frddu_ncdu.sh PATH/TO/frddu
set -euo pipefail
# shellcheck source=lib.sh disable=SC2154
. "$(dirname "$0")/lib.sh"
cli_own_mounts "$0" "$@" # the tmpfs of the -x case: in a mount namespace of its own
frddu=$(realpath "$1")
json=$(realpath "$(dirname "$0")/ncdu_json.py")
export LC_ALL=C
cli_begin
chmod 755 "$tmp"
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  chmod -R u+rwx "$tmp" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
command -v ncdu >/dev/null || { bad "ncdu is not installed (scripts/deps.sh installs it)"; cli_end; }

mkdir -p t/a/b/c t/empty t/sparse t/links/sub t/odd t/x.d/sub t/mnt
printf 'x' >t/a/one
head -c 70000 /dev/urandom >t/a/b/c/seventy-k
printf 'o' >t/a/b/obj.o && printf 'o' >t/x.d/sub/keep.o
for s in 0 1 4097 1048577 5000000000; do truncate -s $s t/sparse/s$s; done
head -c 100000 /dev/urandom >t/links/big
ln t/links/big t/links/big-again
ln t/links/big t/links/sub/big-elsewhere
ln t/links/big t/a/b/c/big-far
ln -s big t/links/to-file && ln -s ../a t/links/to-dir && ln -s /nonexistent t/links/dangling
mkfifo t/a/fifo
for n in "$(printf 'new\nline')" 'q"uo\te' "$(printf 'bad\377byte')" 'ümlaut' "$(printf 'ctl\001x')"; do
  printf 'y' >"t/odd/$n"
done
mkdir -p t/private/locked/in t/private/noexec
printf 'p' >t/private/locked/in/f && printf 'q' >t/private/noexec/f1
chmod 700 t/private/locked && chmod 744 t/private/noexec
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=4m frd-ncdu t/mnt 2>/dev/null; then
  mounted=$tmp/t/mnt
  mkdir t/mnt/in && head -c 9000 /dev/urandom >t/mnt/in/data
fi

mkdir out && chmod 777 out # where uid 65534 writes its exports
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
users=(root)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then users+=(nobody); fi
as() {
  local user=$1
  shift
  if [ "$user" = nobody ]; then as_nobody "$@"; else "$@"; fi
}

# check USER OPTS...: the three agreements above for `frddu OPTS --export` of t.
check() {
  local user=$1
  shift
  local what="frddu $* --export (as $user)"
  rm -f out/mine.json out/ref.json back.json
  as "$user" "$frddu" "$@" --export=out/mine.json t >/dev/null 2>&1 || true
  as "$user" ncdu --ignore-config "$@" -o out/ref.json t </dev/null >/dev/null 2>&1 || true
  cp out/mine.json mine.json 2>/dev/null || true
  cp out/ref.json ref.json 2>/dev/null || true
  if [ ! -s out/mine.json ] || [ ! -s out/ref.json ]; then
    bad "$what: no export written by frddu or by ncdu"
    return
  fi
  if ! python3 "$json" same mine.json ref.json >diff.txt; then
    bad "$what differs from ncdu's own export:"; head -10 diff.txt
    return
  fi
  if ! ncdu --ignore-config -f mine.json -o back.json </dev/null >/dev/null 2>ncdu.err; then
    bad "$what: ncdu cannot load it: $(head -c 300 ncdu.err)"
    return
  fi
  if ! python3 "$json" loaded mine.json back.json >diff.txt; then
    bad "$what: ncdu wrote back another tree:"; head -10 diff.txt
    return
  fi
  local want got
  want="$(as "$user" du -s -B1 "$@" t 2>/dev/null | cut -f1 || true)"
  want="$want $(as "$user" du -s -b "$@" t 2>/dev/null | cut -f1 || true)"
  want="$want $(as "$user" du -s --inodes "$@" t 2>/dev/null | cut -f1 || true)"
  got=$(python3 "$json" totals back.json)
  if [ "$want" != "$got" ]; then
    bad "$what: ncdu's totals (disk, apparent, items) $got, du's $want"
  else
    ok "$what: ncdu's own export, loaded back by ncdu, totals $got as du's"
  fi
}

for user in "${users[@]}"; do
  check "$user"
  check "$user" --exclude='*.o'
  check "$user" --exclude=sub
  check "$user" -x
  check "$user" -x --exclude=private
done
[ -n "$mounted" ] || echo "note: no tmpfs mounted at t/mnt (not root): -x had nothing to leave out"

# --export -: the JSON alone on stdout, the same tree as in a file.
"$frddu" --export=- t >stdout.json 2>/dev/null || true
"$frddu" --export=file.json t >lines.out 2>/dev/null || true
if python3 "$json" same stdout.json file.json && [ -s lines.out ] && ! grep -q '"name"' lines.out; then
  ok "--export=- writes the JSON alone on stdout; --export=FILE keeps du's lines on stdout"
else
  bad "--export=- / --export=FILE: stdout $(head -c 200 stdout.json)"
fi

# --sorted: the same tree, each directory's children by name (the order of the visits).
for user in "${users[@]}"; do
  for opts in "" "--exclude=*.o"; do
    rm -f out/sorted.json out/mine.json
    # shellcheck disable=SC2086 # opts split on purpose
    as "$user" "$frddu" --sorted $opts --export=out/sorted.json t >/dev/null 2>&1 || true
    # shellcheck disable=SC2086
    as "$user" "$frddu" $opts --export=out/mine.json t >/dev/null 2>&1 || true
    what="frddu --sorted${opts:+ $opts} --export (as $user)"
    if [ ! -s out/sorted.json ] || ! python3 "$json" same out/sorted.json out/mine.json >diff.txt; then
      bad "$what: another tree than without --sorted:"; head -10 diff.txt
    elif ! python3 "$json" sorted out/sorted.json >diff.txt; then
      bad "$what: not by name:"; head -10 diff.txt
    else
      ok "$what: the tree of the default walk, each directory's children by name"
    fi
  done
done

# Errors: one tree per export, a root that is no directory, a file that cannot be written.
expect_fail() {
  local what=$1 pattern=$2
  shift 2
  local rc=0
  "$frddu" "$@" >/dev/null 2>err.txt || rc=$?
  if [ "$rc" -eq 1 ] && grep -q -- "$pattern" err.txt; then
    ok "$what: exit 1, $(head -n 1 err.txt)"
  else
    bad "$what: exit $rc, stderr: $(cat err.txt)"
  fi
}
expect_fail "two roots" "^frddu: --export takes one FILE" --export=x.json t t/a
expect_fail "--files0-from" "^frddu: --export takes one FILE" --export=x.json --files0-from=/dev/null
expect_fail "a file as root" "^frddu: cannot export '.*/t/a/one': Not a directory" --export=x.json t/a/one
expect_fail "an unwritable export" "^frddu: cannot write '/nonexistent/x.json': No such file or directory" \
  --export=/nonexistent/x.json t

cli_end
