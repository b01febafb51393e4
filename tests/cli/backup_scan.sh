#!/usr/bin/env bash
# examples/backup_scan (the embedders' example) lists what find lists with the same prunes:
# regular files with path, size, mtime in ns, uid and mode, leaving out .git directories and
# --exclude patterns, on a tree with an unreadable directory and one readable but not
# searchable (run as uid 65534 when root), with one error line per failure naming the same
# paths as find's and the same exit status. strace shows no system call on an excluded name
# (the children hook drops them before any stat). Also -0.
# Usage: tests/cli/backup_scan.sh PATH/TO/backup_scan
set -euo pipefail
scan=$(realpath "$1")
export LC_ALL=C
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cd "$tmp"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

as=()
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

t=tree
mkdir -p $t/src/deep/er $t/.git/objects/ab $t/sub/.git $t/cache/x $t/docs "$t/odd name"
printf 'main' >$t/src/main.c && printf 'obj' >$t/src/main.o && printf 'x' >$t/src/deep/er/f
printf 'ref' >$t/.git/HEAD && printf 'blob' >$t/.git/objects/ab/cdef && printf 'g' >$t/sub/.git/config
printf 'gitfile' >$t/sub/.gitkeep && printf 'c' >$t/cache/x/cached && printf 'swap' >$t/docs/a.swp
head -c 5000 /dev/urandom >$t/docs/big && printf '' >$t/docs/empty && printf 'o' >"$t/odd name/f g"
chmod 600 $t/docs/big && chmod 4755 $t/src/main.c && touch -d '2001-02-03 04:05:06.123456789' $t/docs/empty
ln -s main.c $t/src/link && mkfifo $t/src/fifo
excl=(--exclude '*.o' --exclude cache --exclude '*.swp')
prune=(\( -type d -name .git -o -name '*.o' -o -name cache -o -name '*.swp' \) -prune -o)
if [ ${#as[@]} -gt 0 ]; then
  mkdir -p $t/locked/in && printf 'l' >$t/locked/in/f && chmod 700 $t/locked
  mkdir -p $t/noexec/sub && printf 'n' >$t/noexec/f && chmod 0444 $t/noexec
  chown -R 0:0 $t/locked $t/noexec && chmod 755 $t
else
  echo "skip: unreadable directories (needs root and setpriv)"
fi

# find's %T@ (seconds.fraction) as ns since the epoch, the other columns as they are.
to_ns() {
  python3 -c '
import sys
for line in sys.stdin.buffer.read().split(b"\n"):
    if not line:
        continue
    f = line.split(b"\t")
    sec, _, frac = f[2].partition(b".")
    ns = int(sec) * 10**9 + (int(frac[:9].ljust(9, b"0")) if frac else 0)
    f[2] = str(ns if not sec.startswith(b"-") else int(sec) * 10**9 - int(frac[:9].ljust(9, b"0"))).encode()
    sys.stdout.buffer.write(b"\t".join(f) + b"\n")'
}

# compare ROOT: same lines (sorted), same error paths, same exit status as find.
compare() {
  local root=$1 scan_rc=0 find_rc=0
  ${as[@]+"${as[@]}"} "$scan" "${excl[@]}" "$root" >scan.out 2>scan.err || scan_rc=$?
  ${as[@]+"${as[@]}"} find "$root" "${prune[@]}" -type f -printf '%p\t%s\t%T@\t%U\t%m\n' \
    2>find.err | to_ns | sort >find.out || true
  ${as[@]+"${as[@]}"} find "$root" "${prune[@]}" -type f -print >/dev/null 2>&1 || find_rc=$?
  sort scan.out >scan.sorted
  sed -n "s/^[^']*'\(.*\)'.*/\1/p" scan.err | sort >scan.epaths
  sed -n "s/^[^']*'\(.*\)'.*/\1/p" find.err | sort >find.epaths
  if ! cmp -s find.out scan.sorted; then
    bad "backup_scan $root differs from find:"; diff find.out scan.sorted | head -20 || true
  elif ! cmp -s find.epaths scan.epaths || [ "$(wc -l <scan.err)" -ne "$(wc -l <find.err)" ]; then
    bad "backup_scan $root: errors differ from find's:"; cat find.err scan.err
  elif [ "$scan_rc" -ne "$find_rc" ]; then
    bad "backup_scan $root exits $scan_rc, find $find_rc"
  else
    ok "backup_scan $root: $(wc -l <scan.out) files as find lists them, $(wc -l <scan.err) error lines, exit $scan_rc"
  fi
}
compare $t
compare $t/src
if ! grep -q "\.git\|main\.o\|cached\|\.swp" scan.sorted && [ "$(grep -c . find.out)" -gt 0 ]; then
  ok "no .git, excluded or pruned name in the output"
else
  bad "an excluded name in the output"
fi

# Sorted by path, as the ordered walk visits.
"$scan" "${excl[@]}" $t 2>/dev/null | cut -f1 >order.out || true
if LC_ALL=C sort -c order.out 2>/dev/null || python3 -c '
import sys
p = [l.split(b"/") for l in open("order.out", "rb").read().split(b"\n") if l]
sys.exit(p != sorted(p))'; then ok "output in path order"; else bad "output not in path order"; fi

# -0: the same records, NUL-terminated.
"$scan" -0 "${excl[@]}" $t 2>/dev/null | tr '\0' '\n' >nul.out || true
"$scan" "${excl[@]}" $t 2>/dev/null >nl.out || true
if cmp -s nul.out nl.out && [ -s nl.out ]; then ok "-0"; else bad "-0 differs"; fi

# Excluded names are never stat'ed, opened or otherwise named in a system call.
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
  # LeakSanitizer cannot run in a traced process (a sanitizer build's scan would report a
  # fatal error at exit), so it is off for this run.
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -f -o trace.txt "$scan" "${excl[@]}" $t >/dev/null 2>&1 || true
  hits=$(grep -E '"(\.git|main\.o|cache|cached|a\.swp|objects|HEAD)"' trace.txt | grep -v ' execve(' || true)
  stats=$(grep -cE '^[0-9]+ +(statx|newfstatat)\(' trace.txt || true)
  if [ -z "$hits" ] && [ "$stats" -gt 0 ]; then
    ok "strace: $stats stat calls, none on a .git directory or an excluded name"
  else
    bad "strace: excluded names reached the kernel:"; echo "$hits" | head
  fi
else
  echo "skip: strace (missing or cannot trace)"
fi

# Usage errors.
if "$scan" >/dev/null 2>&1; then bad "no root accepted"; else ok "no root refused"; fi
rc=0; "$scan" "$tmp/missing" >/dev/null 2>err.txt || rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && grep -q "'$tmp/missing'" err.txt; then
  ok "a missing root: one line with its path, exit 1"
else
  bad "a missing root: exit $rc, stderr: $(cat err.txt)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
