#!/usr/bin/env bash
# frdfind asks the walk for the fields its expression reads and no more: on a tree of a few
# hundred entries, `-type d` and a names-only expression make no more statx calls than on
# an empty directory (the root's own stat is all: no entry is stat'ed), `-inum N` one per
# directory (a directory record's d_ino is not its st_ino on a mount point; other entries'
# records answer), while `-size +1` stats the entries. The results agree with GNU find.
# Counted with strace -c.
# Usage: tests/cli/frdfind_statx.sh PATH/TO/frdfind   (exit 77: skipped, no strace)
set -euo pipefail
frdfind=$(realpath "$1")
export LC_ALL=C
if ! command -v strace >/dev/null || ! strace -f -c -o /dev/null true 2>/dev/null; then
  echo "skip: strace is missing or cannot trace here"
  exit 77
fi
. "$(dirname "$0")/lib.sh"
cli_begin

mkdir -p empty tree
for d in 1 2 3 4 5 6 7 8 9 10; do
  mkdir -p "tree/d$d/sub"
  for f in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    printf 'data %s' "$f" >"tree/d$d/f$f.txt"
  done
  printf '' >"tree/d$d/sub/empty"
  ln -s "f1.txt" "tree/d$d/link"
done
inum=$(stat -c %i tree/d3/f7.txt)

# LeakSanitizer cannot run in a traced process (a sanitizer build's frdfind would report a
# fatal error at exit): the traced runs below turn it off.
no_leak_check=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
# statx calls of one run, from strace's summary (0 when there was none).
statx_calls() {
  ASAN_OPTIONS=$no_leak_check strace -f -c -e trace=statx -o trace.txt "$frdfind" "$@" \
    >/dev/null 2>&1 || true
  awk '$NF == "statx" { n = ($4 ~ /^[0-9]+$/) ? $4 : $5 } END { print n + 0 }' trace.txt
}

# Where a mount sits below another mount of its device (a bind mount that may make a
# directory cycle), the walk stats each directory's identity for the loop check (one more
# statx per subdirectory); on an ordinary mount table, none.
cycle_extra() {
  if [ -r /proc/self/mountinfo ] && awk '{ split($0, f, " "); par[f[1]] = f[2]; dev[f[1]] = f[3] }
      END { for (m in par) for (p = par[m]; p in par && p != m; p = par[p]) if (dev[p] == dev[m]) exit 0; exit 1 }' \
      /proc/self/mountinfo; then
    find tree -mindepth 1 -type d | wc -l
  else
    echo 0
  fi
}
# The tests that mount do it in mount namespaces of their own (tests/cli/lib.sh
# cli_own_mounts, test_walk_loops' bind mount): the machine's table does not change under
# this test, so it is read once.
extra=$(cycle_extra)
[ "$extra" -eq 0 ] || echo "note: a mount below another of its device: $extra directory stats expected"

# check_none EXPR...: as many statx on the tree as on an empty directory (plus the above and
# $more), same output as find.
more=0
check_none() {
  base=$(statx_calls empty "$@")
  tree=$(statx_calls tree "$@")
  "$frdfind" tree "$@" | sort >frd.out
  find tree "$@" | sort >find.out
  if [ "$tree" -ne $((base + extra + more)) ]; then
    bad "frdfind tree $*: $tree statx calls, $base on an empty directory (+$extra+$more): entries were stat'ed"
  elif ! cmp -s frd.out find.out || [ ! -s find.out ]; then
    bad "frdfind tree $*: output differs from find's"; diff find.out frd.out | head || true
  else
    ok "frdfind tree $*: $tree statx (the root's, as on an empty directory), $(wc -l <frd.out) lines as find"
  fi
}

# -inum: the file id is st_ino whatever the fields: each directory is stat'ed, no other entry.
more=$(find tree -mindepth 1 -type d | wc -l)
check_none -inum "$inum"
more=0
check_none -type d
check_none -name 'f1*.txt'
check_none -type l -o -name sub -print
# The predicates that read no metadata: a name, a path, a link's target, access(2).
check_none -regex '.*/f1[0-9]*\.txt'
check_none -iregex '.*/D3/.*'
check_none -lname 'f1*'
check_none -ilname 'F1.TXT'
check_none -path '*/d2/*' -iname 'F2*'
check_none -readable -name 'f2*'
check_none -executable -type d
check_none -regextype posix-extended -regex '.*/(d1|d2)/f[0-9]+\.txt'
check_none -daystart -name 'f3*'
# -exclude drops entries before they are stat'ed: with every directory below the root
# excluded, -size stats no more than on an empty directory (the files at the top, none).
base=$(statx_calls empty -exclude -name 'd*' -size -100)
n=$(statx_calls tree -exclude -name 'd*' -size -100)
if [ "$n" -eq "$base" ]; then
  ok "frdfind tree -exclude -name 'd*' -size -100: $n statx, as on an empty directory"
else
  bad "frdfind tree -exclude -name 'd*' -size -100: $n statx, $base on an empty directory"
fi

# -exclude adds no stat of its own: the hook's parent directory is at hand, not reopened and
# checked by identity, so a names-only walk with it stats (statx, fstat, fstatat) as much as
# the same walk without it (once cost an fstat per directory it entered).
stat_calls() {
  ASAN_OPTIONS=$no_leak_check strace -f -c -e trace=statx,fstat,newfstatat -o trace.txt \
    "$frdfind" "$@" >/dev/null 2>&1 || true
  awk '$NF ~ /stat/ { n += ($4 ~ /^[0-9]+$/) ? $4 : $5 } END { print n + 0 }' trace.txt
}
count_plain_and_excluded() {
  plain=$(stat_calls "$@" tree -name 'f1*')
  excl=$(stat_calls "$@" tree -exclude -name nonexistent -name 'f1*')
}
for extra_args in "" "-j1" "-j8"; do
  count_plain_and_excluded $extra_args
  if [ "$excl" -eq "$plain" ]; then
    ok "frdfind $extra_args tree -exclude -name nonexistent: $excl stat calls, as without -exclude"
  else
    bad "frdfind $extra_args tree -exclude -name nonexistent: $excl stat calls, $plain without -exclude"
  fi
done

# -size reads st_size: every entry is stat'ed.
base=$(statx_calls empty -size +1)
tree=$(statx_calls tree -size +1)
entries=$(find tree -mindepth 1 | wc -l)
if [ "$tree" -ge $((base + entries)) ]; then
  ok "frdfind tree -size +1: $tree statx calls for $entries entries (empty directory: $base)"
else
  bad "frdfind tree -size +1: $tree statx calls for $entries entries (empty directory: $base)"
fi

# Each metadata predicate stats the entries (its field asked, as -size).
for expr in "-perm -644" "-user root" "-nouser" "-gid 0" "-newermt 2000-01-01" "-atime -1" \
  "-used -1" "-samefile tree/d1/f1.txt" "-fstype nosuchfs"; do
  n=$(statx_calls tree $expr)
  if [ "$n" -ge $((base + entries)) ]; then
    ok "frdfind tree $expr: $n statx calls for $entries entries"
  else
    bad "frdfind tree $expr: $n statx calls for $entries entries (empty directory: $base)"
  fi
done

cli_end
