#!/usr/bin/env bash
# frdfind -gitignore yields what git does not ignore: on generated work trees (nested
# .gitignore files, negations, anchored and ** patterns, directory-only rules, re-inclusion
# under an excluded parent, nested repositories, info/exclude, a global excludes file through
# XDG_CONFIG_HOME, core.ignoreCase, a root below the top, names with spaces, #, !, [, \ and
# bytes above 0x7f), the paths it prints equal find's minus those `git check-ignore` ignores,
# in the concurrent and ordered modes at 1, 2 and 8 workers, as root and as uid 65534.
# Also: an unreadable .gitignore is reported once and the walk goes on; -exclude-caches
# skips only a tag with the signature; -exclude-if-present; -ignore-file.
# Usage: tests/cli/frdfind_gitignore.sh PATH/TO/frdfind [NCASES]   (exit 77: no git)
set -euo pipefail
src=$(realpath "$1")
ncases=${2:-300}
export LC_ALL=C
if ! command -v git >/dev/null; then
  echo "skip: git is missing"
  exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
cli_begin
chmod 755 "$tmp"
cp "$src" ./frdfind # uid 65534 may run it here (CI clones into a folder only root searches)
frdfind=$PWD/frdfind
cli_users

mkdir cases
if python3 "$here/gitignore_cases.py" "$frdfind" "$PWD/cases" "$ncases" "${users[@]}" >cases.log; then
  ok "$(tail -n 1 cases.log)"
else
  grep '^FAIL' cases.log | head -20
  bad "$(tail -n 1 cases.log)"
fi

# An unreadable .gitignore: one message naming it, the walk goes on (as uid 65534).
export HOME=$PWD/home XDG_CONFIG_HOME=$PWD/home/xdg GIT_CONFIG_NOSYSTEM=1
mkdir -p home/xdg unread/sub/deep
git -C unread init -q .
touch unread/sub/x.o unread/sub/deep/f unread/y.o
printf '*.o\n' >unread/.gitignore
printf 'deep\n' >unread/sub/.gitignore
chmod 000 unread/sub/.gitignore
if [ "${users[*]}" != root ]; then
  run_as nobody un "$frdfind" -s unread -gitignore
  if [ "$rc" = 1 ] && [ "$(cat un.err)" = "frdfind: 'unread/sub/.gitignore': Permission denied" ] &&
    [ "$(tr '\n' ' ' <un.out)" = "unread unread/.gitignore unread/sub unread/sub/.gitignore unread/sub/deep unread/sub/deep/f " ]; then
    ok "unreadable .gitignore: reported once, the walk goes on without it"
  else
    bad "unreadable .gitignore: exit $rc, $(cat un.err), $(tr '\n' ' ' <un.out)"
  fi
fi
chmod 644 unread/sub/.gitignore

# -exclude-caches: a CACHEDIR.TAG with the signature empties its directory; without, not.
mkdir -p caches/good/sub caches/bad
printf 'Signature: 8a477f597d28d172789f06886806bc55\n# a cache\n' >caches/good/CACHEDIR.TAG
printf 'Signature: not the one\n' >caches/bad/CACHEDIR.TAG
touch caches/good/sub/f caches/bad/f
got=$("$frdfind" -s caches -exclude-caches | tr '\n' ' ')
if [ "$got" = "caches caches/bad caches/bad/CACHEDIR.TAG caches/bad/f caches/good " ]; then
  ok "-exclude-caches: only the tag with the signature"
else
  bad "-exclude-caches: $got"
fi
mkdir -p present/a/b present/c
touch present/a/.nobackup present/a/b/f present/c/f
got=$("$frdfind" -s present -exclude-if-present .nobackup | tr '\n' ' ')
if [ "$got" = "present present/a present/c present/c/f " ]; then
  ok "-exclude-if-present"
else
  bad "-exclude-if-present: $got"
fi
printf '*.c\n/top\n!keep.c\n' >rules
mkdir -p ifile/top ifile/d/top
touch ifile/a.c ifile/keep.c ifile/top/f ifile/d/top/g ifile/d/b.c
got=$("$frdfind" -s ifile -ignore-file rules | tr '\n' ' ')
if [ "$got" = "ifile ifile/d ifile/d/top ifile/d/top/g ifile/keep.c " ]; then
  ok "-ignore-file: rules relative to the root"
else
  bad "-ignore-file: $got"
fi
"$frdfind" ifile -ignore-file missing-file >mf.out 2>mf.err && rc=0 || rc=$?
if [ "$rc" = 1 ] && [ "$(cat mf.err)" = "frdfind: 'missing-file': No such file or directory" ] && [ ! -s mf.out ]; then
  ok "-ignore-file of a missing file: its path, exit 1, no walk"
else
  bad "-ignore-file missing: exit $rc, $(cat mf.err)"
fi
# -dot-ignore: .fdignore over .ignore over .gitignore (ripgrep's and fd's order); against
# fd -H itself where Debian's fd-find is installed (fd also lists .git, left out here).
mkdir -p dotig/sub
git -C dotig init -q .
printf '*.log\n' >dotig/.gitignore
printf '!keep.log\n!other.log\n' >dotig/.ignore
printf 'other.log\n' >dotig/sub/.fdignore
touch dotig/a.log dotig/keep.log dotig/sub/other.log dotig/sub/keep.log
got=$("$frdfind" dotig -mindepth 1 -gitignore -dot-ignore | sort | tr '\n' ' ')
want="dotig/.gitignore dotig/.ignore dotig/keep.log dotig/sub dotig/sub/.fdignore dotig/sub/keep.log "
if command -v fdfind >/dev/null; then
  want=$(fdfind -H . dotig | sed 's|/$||' | grep -v '^dotig/\.git\(/\|$\)' | sort | tr '\n' ' ')
fi
if [ "$got" = "$want" ]; then
  ok "-dot-ignore: .fdignore over .ignore over .gitignore${want:+ (as fd -H)}"
else
  bad "-dot-ignore: $got / $want"
fi

# frddu --gitignore counts what frdfind -gitignore yields; --exclude-if-present alike.
frddu=$(dirname "$src")/frddu
if [ -x "$frddu" ]; then
  got=$("$frddu" -a --gitignore unread | cut -f2 | sort | tr '\n' ' ')
  want=$("$frdfind" unread -gitignore | sort | tr '\n' ' ')
  if [ "$got" = "$want" ]; then ok "frddu --gitignore: frdfind -gitignore's entries"; else bad "frddu --gitignore: $got / $want"; fi
  got=$("$frddu" -a --exclude-if-present=.nobackup --exclude-caches present caches | cut -f2 | sort | tr '\n' ' ')
  want=$("$frdfind" present caches -exclude-if-present .nobackup -exclude-caches | sort | tr '\n' ' ')
  if [ "$got" = "$want" ]; then ok "frddu --exclude-if-present, --exclude-caches"; else bad "frddu: $got / $want"; fi
fi

# strace: no stat, no open of an ignored entry (a test that stats every visited entry).
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
  mkdir -p traced/ign_dir/below traced/kept
  git -C traced init -q .
  printf 'ign_dir/\n*.ignme\n' >traced/.gitignore
  touch traced/a.ignme traced/kept/b.ignme traced/kept/c traced/ign_dir/below/d
  for mode in "-j 2" "-s"; do
    # shellcheck disable=SC2086
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -o trace.txt \
      -e trace=openat,open,statx,newfstatat,fstatat64,lstat,stat "$frdfind" $mode traced -gitignore -size -1k >st.out
    if ! grep -q 'ignme\|ign_dir' trace.txt && grep -q '"c"' trace.txt &&
      [ "$(sort st.out | tr '\n' ' ')" = "traced/kept/c " ]; then
      ok "strace ($mode): no stat and no open of an ignored entry"
    else
      bad "strace ($mode): $(grep 'ignme\|ign_dir' trace.txt | head -3) / $(sort st.out | tr '\n' ' ')"
    fi
  done
else
  echo "note: no strace: the syscall check is skipped"
fi
cli_end
