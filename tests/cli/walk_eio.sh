#!/usr/bin/env bash
# Read errors (EIO), as a failing disk gives them: frdfind, frddu and frdcount on a FUSE file
# system that fails one directory's listing and one file's stat (tests/support/eio_fuse.c)
# report each failure once, with its path and the text of EIO, and finish the walk: what
# comes after the failures is all there. Each case compares stdout (sorted), stderr (sorted,
# "find: "/"du: " read as the tool's name) and the exit status with GNU find and du byte for
# byte, in both of frdfind's modes and at 1 and 8 workers. Needs root and /dev/fuse (the
# FUSE mount is made in a mount namespace of the script's own); skipped otherwise.
# backup_scan --snapshot collects both, lists them at the end and exits 1, its snapshot
# holding the rest; the file system has no extended attributes (EOPNOTSUPP), and the walk
# asks it once per worker, not once per entry. Usage: tests/cli/walk_eio.sh FRDFIND FRDDU FRDCOUNT BACKUP_SCAN EIO_FUSE
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cli_own_mounts "$0" "$@"
frdfind=$(realpath "$1")
frddu=$(realpath "$2")
frdcount=$(realpath "$3")
backup_scan=$(realpath "$4")
eio_fuse=$(realpath "$5")
export LC_ALL=C
cli_begin
daemon=""
mounted=""
# (The daemon ends by itself once its file system is unmounted: kill may find it gone.)
trap '[ -z "$mounted" ] || umount -l "$mounted" 2>/dev/null || true
  [ -z "$daemon" ] || kill "$daemon" 2>/dev/null || true
  rm -rf "$tmp"' EXIT

if [ "$(id -u)" -ne 0 ] || [ ! -c /dev/fuse ]; then
  echo "skip: the FUSE file system that fails (needs root and /dev/fuse)"
  cli_end
  exit 0
fi
mkdir m
"$eio_fuse" m -f -s -o ro,default_permissions >fuse.log 2>&1 &
daemon=$!
for _ in $(seq 100); do
  [ -f m/last ] && break
  sleep 0.05
done
if [ ! -f m/last ]; then
  echo "skip: the FUSE file system did not mount: $(head -3 fuse.log)"
  cli_end
  exit 0
fi
mounted=$tmp/m

# same TOOL REF TARGS ARGS...: `REF ARGS` and `TOOL TARGS ARGS` agree (see above).
same() {
  local tool=$1 ref=$2 targs=$3 rc_ref=0 rc_tool=0 name
  shift 3
  name=$(basename "$tool")
  "$ref" "$@" >ref.out 2>ref.err || rc_ref=$?
  # shellcheck disable=SC2086 # TARGS: words
  "$tool" $targs "$@" >tool.out 2>tool.err || rc_tool=$?
  local what="$name${targs:+ $targs} $*"
  if cmp -s <(sort ref.out) <(sort tool.out) &&
    cmp -s <(sed "s/^$ref: /$name: /" ref.err | sort) <(sort tool.err) && [ $rc_ref -eq $rc_tool ]; then
    ok "$what: as $ref ($(wc -l <ref.out) lines, $(wc -l <ref.err) errors, exit $rc_ref)"
  else
    bad "$what: exit $ref $rc_ref, $name $rc_tool"
    diff <(sort ref.out) <(sort tool.out) | head -6 | sed 's/^/     stdout /' || true
    diff <(sed "s/^$ref: /$name: /" ref.err | sort) <(sort tool.err) | head -6 |
      sed 's/^/     stderr /' || true
  fi
}

# The failures are there to be met: bad/ cannot be listed, good/sick cannot be stat'ed.
if ls m/bad >/dev/null 2>&1 || stat m/good/sick >/dev/null 2>&1; then
  bad "the FUSE file system does not fail where it should"
fi
for targs in "" "-j 1" "-j 8" "-s" "-s -j 8"; do
  same "$frdfind" find "$targs" m
  same "$frdfind" find "$targs" m -printf '%p %s %y\n' # stats every entry: sick fails
  same "$frdfind" find "$targs" m -type f -size -1k
  same "$frdfind" find "$targs" m -name end
done
for targs in "" "-j 1" "-j 8"; do
  same "$frddu" du "$targs" m
  same "$frddu" du "$targs" -a m
  same "$frddu" du "$targs" -s m
done

# frdcount: its counts without the two, each failure on stderr with its path, exit 1.
rc=0
"$frdcount" m >count.out 2>count.err || rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c 'Input/output error' count.err)" -eq "$(wc -l <count.err)" ] &&
  grep -qF "'m/bad'" count.err && grep -q '^[0-9]* entries' count.out; then
  ok "frdcount m: exit 1, $(wc -l <count.err) read errors named, the counts printed"
else
  bad "frdcount m: exit $rc, stdout: $(head -2 count.out), stderr: $(head -3 count.err)"
fi

# backup_scan: each failure once (the stat's, not the attributes' too), exit 1, and a snapshot
# of everything else: the walk went on past both.
rc=0
"$backup_scan" --snapshot snap m >scan.out 2>scan.err || rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c "'m/bad'" scan.err)" -eq 1 ] &&
  [ "$(grep -c "'m/good/sick'" scan.err)" -eq 1 ] && grep -q '^deep/a/b/end	' snap &&
  grep -q '^last	' snap && grep -q '^good/two	' snap; then
  ok "backup_scan --snapshot: exit 1, 2 failures named once each, the rest in the snapshot"
else
  bad "backup_scan --snapshot: exit $rc, stderr: $(head -4 scan.err)"
fi

# A device without extended attributes is asked once by a worker (at most once per worker,
# and once more by the thread that visits the root if it is not one of them), then no more:
# the FUSE daemon logs each listxattr it receives (one per entry, 10, without that memory).
for j in 1 2; do
  before=$(grep -c '^listxattr ' fuse.log || true)
  rc=0
  "$backup_scan" --snapshot "snap$j" -j $j m >/dev/null 2>&1 || rc=$?
  calls=$(($(grep -c '^listxattr ' fuse.log || true) - before))
  if [ $rc -eq 1 ] && [ "$calls" -ge 1 ] && [ "$calls" -le $((j + 1)) ]; then
    ok "backup_scan -j $j: $calls listxattr call(s) on a file system without xattrs"
  else
    bad "backup_scan -j $j: exit $rc, $calls listxattr calls (at most $((j + 1)) expected)"
  fi
done
cli_end
