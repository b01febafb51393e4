#!/usr/bin/env bash
# Loops, cycles and odd directories, as frdfind, frddu and frdcount report them: each case
# compares the sorted stdout, the sorted stderr (the program name read as ours) and the exit
# status with GNU find 4.9 / du 9.1 byte for byte. The trees: a directory bind-mounted below
# itself (needs root: mount --bind, in a mount namespace of the script's own), a real
# directory that repeats an
# ancestor reached through a link (-L), a chain of 400 symlinks, and a directory that can be
# read but not searched, as uid 65534.
# Usage: tests/cli/walk_loops.sh FRDFIND FRDDU FRDCOUNT
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cli_own_mounts "$0" "$@"
frdfind=$(realpath "$1")
frddu=$(realpath "$2")
frdcount=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
export LC_ALL=C
cli_begin
mounted=""
trap '[ -z "$mounted" ] || umount "$mounted"; chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# same TOOL REF MODE ARGS...: runs `REF ARGS` and `TOOL ARGS` in $tmp and compares sorted
# stdout, sorted stderr ("REF: " read as "TOOL: ") and status. MODE is a comma list of:
# nobody (both as uid 65534), jN (TOOL -j N), s (TOOL -s: frdfind's ordered mode).
same() {
  local tool=$1 ref=$2 mode=$3
  shift 3
  local as=() targs=() rc_ref=0 rc_tool=0 name
  name=$(basename "$tool")
  [[ ,$mode, == *,nobody,* ]] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  [[ $mode =~ (^|,)j([0-9]+) ]] && targs+=(-j "${BASH_REMATCH[2]}")
  [[ ,$mode, == *,s,* ]] && targs+=(-s)
  "${as[@]}" "$tool" "${targs[@]}" "$@" >tool.out 2>tool.err || rc_tool=$?
  sort tool.out >tool.sorted
  sort tool.err >tool.err.sorted
  # With -L, the reference's stat of a whole path can fail early, never late, when the
  # kernel restarts the lookup (a mount elsewhere, as other tests make); the tools ask
  # again before they believe ELOOP, and the reference is run again while it differs.
  local try
  for try in 1 2 3 4 5 6 7 8 9 10; do
    rc_ref=0
    "${as[@]}" "$ref" "$@" >ref.out 2>ref.err || rc_ref=$?
    sort ref.out >ref.sorted
    sed "s/^$ref: /$name: /" ref.err | sort >ref.err.sorted
    if [[ " $* " != *" -L "* ]] || { cmp -s ref.sorted tool.sorted &&
      cmp -s ref.err.sorted tool.err.sorted && [ $rc_ref -eq $rc_tool ]; }; then
      break
    fi
  done
  local what="$name${mode:+ [$mode]} $*"
  if cmp -s ref.sorted tool.sorted && cmp -s ref.err.sorted tool.err.sorted &&
    [ $rc_ref -eq $rc_tool ]; then
    ok "$what: as $ref ($(wc -l <ref.out) lines, $(wc -l <ref.err) errors, exit $rc_ref)"
  else
    bad "$what: exit $ref $rc_ref, $name $rc_tool"
    diff ref.sorted tool.sorted | head -8 | sed 's/^/     stdout /' || true
    diff ref.err.sorted tool.err.sorted | head -6 | sed 's/^/     stderr /' || true
  fi
}

# one_line ARGS...: frdcount ARGS exits 1 with one stderr line naming the loop and its ancestor.
count_loop() {
  local path=$1 anc=$2 rc=0
  shift 2
  "$frdcount" "$@" >count.out 2>count.err || rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l <count.err)" -eq 1 ] && grep -qF "'$path'" count.err &&
    grep -qF "'$anc'" count.err; then
    ok "frdcount $*: exit 1, one line: $(cat count.err)"
  else
    bad "frdcount $*: exit $rc, stderr:"
    cat count.err
  fi
}

# ---- a real directory repeating an ancestor reached through a link (find -L) -------------
mkdir -p late/a/b && printf 'f' >late/a/b/f && ln -s a/b late/s && ln -s .. late/a/b/up
for m in "" j1 j8 s; do
  same "$frdfind" find "$m" -L late/s
  same "$frdfind" find "$m" -L late
done
same "$frdfind" find "" -L late/s -name b
same "$frdfind" find "" -L late/s -type f
same "$frddu" du "" -L late/s
count_loop late/s/up/b late/s -L late/s
count_loop late/s/up/b late/s -L -n late/s

# ---- a chain of 400 symlinks (the kernel stops at 40) -------------------------------------
mkdir -p chain/d && printf 'c' >chain/d/f && ln -s d chain/l400
for i in $(seq 399 -1 0); do ln -s "l$((i + 1))" "chain/l$i"; done
same "$frddu" du "" -L chain/l0
same "$frddu" du "" -L chain/l380
same "$frddu" du "" -L -s chain
same "$frdfind" find "" -L chain/l0
same "$frdfind" find "" -L chain -name f
# chain/l361 is d through 40 links: chain/l361/x crosses one more, chain/l362/x exactly 40.
ln -s f chain/d/x
same "$frdfind" find "" -L chain
same "$frdfind" find s -L chain -type l
same "$frddu" du "" -L -a chain

# ---- links crossed one a level: 1/s -> ../2, 2/s -> ../3, ... (coreutils' long-sloop) ------
# find -L and du -L stat the whole path, which the kernel fails at its 41st link; the walk,
# which reaches each level by descriptor, stops there too.
mkdir sloop && chmod 755 sloop
for i in $(seq 1 60); do mkdir sloop/$i && ln -s ../$((i + 1)) sloop/$i/s; done
printf 'foo\n' >sloop/61
for m in "" j1 j8 s nobody; do
  same "$frdfind" find "$m" -L sloop/1
done
same "$frdfind" find "" -L sloop/1/s/s/s -name s
same "$frdfind" find "" -L sloop -maxdepth 45 -type f
same "$frddu" du "" -L sloop/1
same "$frddu" du nobody -L -a sloop/1

# ---- a directory that can be read but not searched, as uid 65534 -------------------------
# find stats each directory it lists: in d (0444) that fails, so find reports d/sub, cannot
# tell its type, and -prune (which needs the stat) is false; nothing but d/sub is stat'ed.
mkdir -p perm/d/sub/deeper && printf 'f' >perm/d/f && ln -s f perm/d/l && chmod 0444 perm/d
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
  echo "skip: the uid 65534 cases (need root and setpriv)"
else
for args in "perm/d" "perm/d -maxdepth 1" "perm/d -mindepth 1 -maxdepth 1" \
  "perm/d -name sub -prune -o -print" "perm/d -prune" "perm/d -type d" "perm/d -type f" \
  "perm/d -type l" "perm/d -maxdepth 1 -type d -o -print" "perm/d -type d -o -type f" \
  "perm/d -depth" "perm/d -depth -type d" "perm/d -maxdepth 1 -size -1M" "perm/d -name sub" \
  "perm -maxdepth 2" "-L perm/d"; do
  # shellcheck disable=SC2086
  same "$frdfind" find nobody $args
done
same "$frdfind" find nobody,j1 perm/d
same "$frdfind" find nobody,j8 perm/d -maxdepth 1
same "$frdfind" find nobody,s perm/d -name sub -prune -o -print
for args in "perm/d" "-a perm/d" "-d 0 perm/d"; do
  # shellcheck disable=SC2086
  same "$frddu" du nobody $args
done
fi
chmod 755 perm/d

# ---- a directory renamed while the walk is at a given point ---------------------------------
# tests/cli/rename_shim.c moves r/a/b out of the tree just before the first openat() of a
# name. Renamed between the listing of r/a and its own opening (at "b"): both tools report
# that it cannot be read, count what they saw, exit 1. Renamed while the walk is below it
# (at "c"): both go on by descriptor with the paths they listed, exit 0.
if ${CC:-cc} -shared -fPIC -o rename_shim.so "$here/rename_shim.c" -ldl; then
  # A sanitizer build's tool runs with the shim preloaded before its runtime: allowed here.
  asan_preload=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
  for at in b c; do
    for tool in du "$frddu"; do
      rm -rf r out && mkdir -p r/a/b/c r/z out && printf 'x' >r/a/b/c/x && printf 'y' >r/a/y
      rc=0
      SHIM_AT=$at SHIM_FROM="$tmp/r/a/b" SHIM_TO="$tmp/out/b" LD_PRELOAD="$tmp/rename_shim.so" \
        ASAN_OPTIONS=$asan_preload "$tool" -a r >"$(basename "$tool").out" \
        2>"$(basename "$tool").err" || rc=$?
      echo "exit $rc" >>"$(basename "$tool").out"
    done
    sed 's/^du: /frddu: /' du.err >du.err.named
    if cmp -s <(sort du.out) <(sort frddu.out) && cmp -s du.err.named frddu.err; then
      ok "r/a/b renamed before opening '$at': frddu as du ($(tail -1 du.out), $(wc -l <du.err) errors)"
    else
      bad "r/a/b renamed before opening '$at': frddu differs from du"
      diff <(sort du.out) <(sort frddu.out) | sed 's/^/     stdout /' || true
      diff du.err.named frddu.err | sed 's/^/     stderr /' || true
    fi
  done
  # Deeper than fts's ring of descriptors, du climbs back by ".." and finds that r/a/b is no
  # longer in r/a: it stops ("fts_read failed", exit 1). frddu never climbs by "..": it
  # finishes by descriptor with the sizes and paths it listed, exit 0 (see frddu.1, BUGS).
  rm -rf r out && mkdir -p r/a/b/c/d/e/f/g/h r/z out && printf 'x' >r/a/b/c/d/e/f/g/h/x
  du r | sort >want.out
  rc=0
  SHIM_AT=h SHIM_FROM="$tmp/r/a/b" SHIM_TO="$tmp/out/b" LD_PRELOAD="$tmp/rename_shim.so" \
    ASAN_OPTIONS=$asan_preload "$frddu" r >got.out 2>got.err || rc=$?
  if [ $rc -eq 0 ] && [ ! -s got.err ] && cmp -s want.out <(sort got.out); then
    ok "r/a/b renamed 7 levels above the walk: frddu finishes as listed, exit 0"
  else
    bad "r/a/b renamed 7 levels above the walk: exit $rc, stderr: $(cat got.err)"
    diff want.out <(sort got.out) || true
  fi
else
  bad "cannot build the rename shim with ${CC:-cc}"
fi

# ---- a chain 10,000 directories deep, a file at each level (paths past PATH_MAX) ----------
# Every tool walks it by descriptor in time and memory that grow with its length (issue 34):
# the same lines as find and du, where the per-level loop check and path making once cost
# the square of the depth.
python3 - <<'PY'
import os
fd = os.open(".", os.O_RDONLY)
os.mkdir("deep", dir_fd=fd)
for level in range(10000):
    child = os.open("deep" if level == 0 else "d", os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = child
    os.close(os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    if level < 9999:
        os.mkdir("d", dir_fd=fd)
os.close(fd)
PY
same "$frdfind" find "" deep -name f -printf '%d\n'
same "$frdfind" find j8 deep -type d -printf '%d %f\n'
same "$frdfind" find s deep
same "$frdfind" find nobody deep -mindepth 9990 -printf '%d %p\n'
same "$frddu" du "" -s deep
same "$frddu" du j8 deep
same "$frddu" du nobody -d 3 -a deep
n=$("$frdcount" deep | awk '/entries/ {print $1; exit}')
if [ "$n" = "$(find deep | wc -l)" ]; then
  ok "frdcount deep: $n entries, as find"
else
  bad "frdcount deep: '$n' entries, find $(find deep | wc -l)"
fi

# ---- a directory bind-mounted below itself -------------------------------------------------
mkdir -p bind/t/a/b && printf 'x' >bind/t/a/f
if [ "$(id -u)" -ne 0 ] || ! mount --bind bind/t/a bind/t/a/b 2>mount.err; then
  echo "skip: the bind mount cases (need root, and mount --bind: $(cat mount.err 2>/dev/null))"
else
  mounted="$tmp/bind/t/a/b"
  for args in "bind/t" "-L bind/t" "bind/t -depth" "bind/t -maxdepth 2" "bind/t -mindepth 3" \
    "bind/t/a" "bind/t/a/b" "bind/t -name b" "bind/t -size -1M" "bind/t -xdev"; do
    # shellcheck disable=SC2086
    same "$frdfind" find "" $args
  done
  for m in j1 j8 s; do
    same "$frdfind" find "$m" bind/t
    same "$frdfind" find "$m" -L bind/t -type d
  done
  for args in "bind/t" "-a bind/t" "-s bind/t" "-L bind/t" "-x bind/t" "bind/t/a"; do
    # shellcheck disable=SC2086
    same "$frddu" du "" $args
  done
  count_loop bind/t/a/b bind/t/a bind/t
  count_loop bind/t/a/b bind/t/a -n bind/t
  count_loop bind/t/a/b bind/t/a -L -j1 bind/t
  umount "$mounted"
  mounted=""
  # Deeper than the levels the loop check compares one by one: level 40 mounted on level
  # 100 of a chain is found through the set of deep directories.
  lv40=bind/c$(printf '/d%.0s' $(seq 39)) && lv100=$lv40$(printf '/d%.0s' $(seq 60))
  mkdir -p "$lv100/d" && printf 'x' >"$lv40/f"
  if mount --bind "$lv40" "$lv100"; then
    mounted="$tmp/$lv100"
    for m in "" j8 s; do
      same "$frdfind" find "$m" bind/c -printf '%d %f\n'
    done
    same "$frddu" du "" -s bind/c
    count_loop "$lv100" "$lv40" bind/c
    umount "$mounted"
    mounted=""
  else
    bad "mount --bind of level 40 on level 100 failed"
  fi
fi

cli_end
