#!/usr/bin/env bash
# frdindex writes its index only into a file of its own. An update refuses a database owned
# by another user (root included: never into a file uid 65534 made), a symbolic link or a
# FIFO, and an -wal, -shm or -journal beside it that another user made (held open, it would
# read what SQLite writes), whether it was there before or made while frdindex opens it
# (sidefile_shim.c plants it just before the open); a query refuses such files too. A new
# database is made as NAME.frdindex-tmp, owned by the caller, and renamed into place with
# exactly its -m mode. kill -9 at several points of a first update leaves no database (only
# the temporary file, which `check`, `changes` and `find` do not take for one) and the next
# update makes it whole; a second first update waits for the one running.
# Usage: tests/cli/frdindex_dbfile.sh PATH/TO/frdindex
set -euo pipefail
frdindex=$(realpath "$1")
here=$(realpath "$(dirname "$0")")
data=$(realpath "$here/../data")
. "$here/lib.sh"
cli_begin
chmod 755 "$tmp"
export LC_ALL=C
# A copy uid 65534 may run (the build may sit in a folder only root can search).
cp "$frdindex" "$tmp/frdindex" && chmod 755 "$tmp/frdindex"
frdindex=$tmp/frdindex
is_root=false
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && is_root=true

mkdir -p T/priv && echo s >T/priv/topsecret && echo p >T/pub && chmod 700 T/priv
T=$tmp/T

# expect_fail NAME WANT CMD...: exit 1, stdout empty, stderr matching WANT.
expect_fail() {
  local name=$1 want=$2 rc=0
  shift 2
  "$@" >out 2>err || rc=$?
  if [ "$rc" -eq 1 ] && [ ! -s out ] && grep -q -- "$want" err; then
    ok "$name: exit 1: $(head -1 err)"
  else
    bad "$name: exit $rc (want 1), stdout $(head -c 200 out), stderr $(cat err)"
  fi
}
absent() { # NAME FILE...: none of the files exists
  local name=$1 f
  shift
  for f in "$@"; do
    if [ -e "$f" ] || [ -L "$f" ]; then bad "$name: $f exists"; return; fi
  done
  ok "$name: no $*"
}

# --- a new database: its mode, its owner, no temporary file left -----------------------------
(umask 077 && "$frdindex" update -q -m 644 m644.db "$T")
(umask 000 && "$frdindex" update -q m600.db "$T")
if [ "$(stat -c %a m644.db)" = 644 ] && [ "$(stat -c %a m600.db)" = 600 ]; then
  ok "a new database has exactly its -m mode (644 under umask 077, 600 by default under umask 0)"
else bad "modes: -m 644 gave $(stat -c %a m644.db), the default $(stat -c %a m600.db)"; fi
absent "after a first update" m644.db.frdindex-tmp m644.db-wal m644.db-shm m644.db-journal

# --- not a regular file: a symbolic link, a FIFO ---------------------------------------------
ln -s m600.db link.db
cp m600.db m600.copy
expect_fail "a symbolic link as the database" "link.db: a symbolic link" "$frdindex" update -q link.db
cmp -s m600.db m600.copy && ok "its target is unchanged" || bad "the link's target was written"
ln -s nowhere.db dangling.db
expect_fail "a dangling symbolic link" "dangling.db: a symbolic link" "$frdindex" update -q dangling.db "$T"
absent "a dangling symbolic link" nowhere.db
mkfifo fifo.db
expect_fail "a FIFO as the database (update)" "fifo.db: not a regular file" \
  timeout 20 "$frdindex" update -q fifo.db "$T"
expect_fail "a FIFO as the database (find)" "fifo.db: not a regular file" \
  timeout 20 "$frdindex" find fifo.db x

# --- another user's files (as root) ---------------------------------------------------------
if $is_root; then
  mkdir -m 1777 sh
  # The issue's commands: uid 65534 makes the file first, world-writable.
  as_nobody sh -c 'umask 0; : >sh/i.db'
  expect_fail "root and uid 65534's empty sh/i.db" "sh/i.db: owned by another user (uid 65534)" \
    "$frdindex" update sh/i.db "$T"
  if [ ! -s sh/i.db ] && [ "$(stat -c %U sh/i.db)" = nobody ]; then ok "sh/i.db is still empty"
  else bad "sh/i.db holds $(stat -c %s sh/i.db) bytes, owner $(stat -c %U sh/i.db)"; fi
  absent "root and uid 65534's sh/i.db" sh/i.db.frdindex-tmp
  # A database uid 65534 made itself is not root's to write either.
  as_nobody "$frdindex" update -q sh/n.db "$T/pub"
  cp sh/n.db n.copy
  expect_fail "root and uid 65534's database" "sh/n.db: owned by another user (uid 65534)" \
    "$frdindex" update -q sh/n.db "$T"
  cmp -s sh/n.db n.copy && ok "uid 65534's database is unchanged" || bad "root wrote into sh/n.db"
  if [ "$(stat -c %U sh/n.db)" = nobody ]; then ok "a first update by uid 65534 makes its own file"
  else bad "uid 65534's first update made a file of $(stat -c %U sh/n.db)"; fi
  # And the other way: root's world-writable file is not uid 65534's to write.
  (umask 0 && : >sh/r.db)
  expect_fail "uid 65534 and root's empty, world-writable sh/r.db" "sh/r.db: owned by another user (uid 0)" \
    as_nobody "$frdindex" update -q sh/r.db "$T/pub"
  [ ! -s sh/r.db ] && ok "sh/r.db is still empty" || bad "uid 65534 wrote into root's sh/r.db"
  # Another user's temporary file.
  as_nobody sh -c 'umask 0; : >sh/t.db.frdindex-tmp'
  expect_fail "uid 65534's sh/t.db.frdindex-tmp" "t.db.frdindex-tmp: owned by another user" \
    "$frdindex" update -q sh/t.db "$T"
  absent "uid 65534's temporary file" sh/t.db

  # hold NAME: uid 65534 makes NAME (mode 666) and keeps it open; its descriptor reads
  # /proc/PID/fd/3, what SQLite would have written even once the name is removed.
  holders=()
  hold() {
    # setpriv itself in the background (not the as_nobody function, a subshell): $! is the
    # process that ends up holding the file.
    setpriv --reuid=65534 --regid=65534 --clear-groups \
      sh -c 'umask 0; exec 3<>"$1"; exec sleep 600' sh "$1" &
    holders+=($!)
    for _ in $(seq 100); do [ -e "$1" ] && break; sleep 0.05; done
  }
  held_empty() { # NAME: the last file held received nothing
    local pid=${holders[-1]}
    if [ "$(wc -c <"/proc/$pid/fd/3")" -eq 0 ]; then ok "$1: nothing was written into it"
    else bad "$1: $(wc -c <"/proc/$pid/fd/3") bytes were written into it ($(strings "/proc/$pid/fd/3" | grep -c topsecret) topsecret)"; fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  }
  # Beside a database to be made.
  for suffix in -wal -shm -journal; do
    hold "sh/new$suffix.db$suffix"
    expect_fail "a first update beside uid 65534's held $suffix" "new$suffix.db$suffix: owned by another user" \
      "$frdindex" update -q "sh/new$suffix.db" "$T"
    absent "a first update beside uid 65534's $suffix" "sh/new$suffix.db" "sh/new$suffix.db.frdindex-tmp"
    held_empty "uid 65534's held sh/new$suffix.db$suffix"
  done
  # Beside root's database, made before them: the update and root's queries refuse them.
  for suffix in -wal -shm -journal; do
    "$frdindex" update -q "sh/old$suffix.db" "$T"
    hold "sh/old$suffix.db$suffix"
    echo x >"$T/pub-$suffix"
    expect_fail "an update beside uid 65534's held $suffix" \
      "old$suffix.db$suffix: owned by uid 65534, not by the database's owner (uid 0)" \
      "$frdindex" update -q "sh/old$suffix.db"
    expect_fail "root's find beside uid 65534's $suffix" "old$suffix.db$suffix: owned by uid 65534" \
      "$frdindex" find "sh/old$suffix.db" pub
    held_empty "uid 65534's held sh/old$suffix.db$suffix"
    rm -f "sh/old$suffix.db$suffix"
    if "$frdindex" update -q "sh/old$suffix.db" && [ "$("$frdindex" changes "sh/old$suffix.db")" = "$(printf 'added\t%s' "$T/pub-$suffix")" ]; then
      ok "once it is removed, the update works"
    else bad "the update after removing sh/old$suffix.db$suffix"; fi
    rm "$T/pub-$suffix"
  done

  # Made while frdindex opens it, after any check of the name: sidefile_shim.c plants it
  # (owned by uid 65534, mode 666) just before the open that would create it, and keeps a
  # link to it (NAME.planted).
  if ${CC:-cc} -shared -fPIC -o sidefile_shim.so "$here/sidefile_shim.c" -ldl; then
    asan_preload=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
    shim() { SHIM_SUFFIX=$1 LD_PRELOAD="$tmp/sidefile_shim.so" ASAN_OPTIONS=$asan_preload "${@:2}"; }
    for suffix in -wal -shm -journal; do
      "$frdindex" update -q "sh/race$suffix.db" "$T"
      echo y >"$T/race"
      expect_fail "$suffix made by uid 65534 as the update opens it" "race$suffix.db$suffix: owned by uid 65534" \
        shim "$suffix" "$frdindex" update -q "sh/race$suffix.db"
      if [ -e "sh/race$suffix.db$suffix.planted" ] && [ ! -s "sh/race$suffix.db$suffix.planted" ] &&
        [ "$(stat -c %U "sh/race$suffix.db$suffix.planted")" = nobody ]; then
        ok "the $suffix planted during the open received nothing"
      else bad "the planted $suffix: $(ls -l "sh/race$suffix.db$suffix"* 2>&1)"; fi
      rm -f "$T/race"
    done
    expect_fail "NAME.frdindex-tmp made by uid 65534 as the first update makes it" \
      "racetmp.db.frdindex-tmp: owned by another user" \
      shim .frdindex-tmp "$frdindex" update -q sh/racetmp.db "$T"
    [ -e sh/racetmp.db.frdindex-tmp.planted ] && [ ! -s sh/racetmp.db.frdindex-tmp.planted ] &&
      [ ! -e sh/racetmp.db ] && ok "the planted temporary file received nothing, no database" ||
      bad "the planted temporary file: $(ls -l sh/racetmp.db* 2>&1)"
  else
    bad "cannot build the side file shim with ${CC:-cc}"
  fi
  for pid in "${holders[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
else
  echo "skip: another user's files (needs root and setpriv)"
fi

# --- kill -9 during a first update ----------------------------------------------------------
big=$tmp/big
python3 "$data/materialize-tree" "$data/u-boot.tsv.gz" "$big" >/dev/null
big=$(realpath "$big")
entries=$(find "$big" | wc -l)
k=$tmp/k.db
# killed_first NAME ENV...: a first update killed where ENV says leaves no database, only
# NAME.frdindex-tmp, which no command reads as an index.
killed_first() {
  local name=$1 rc=0
  shift
  env "$@" "$frdindex" update -q "$k" "$big" >/dev/null 2>&1 || rc=$?
  if [ "$rc" -ne 137 ]; then bad "$name: not killed (exit $rc)"; return; fi
  absent "killed $name" "$k" "$k-wal" "$k-shm" "$k-journal"
  [ -f "$k.frdindex-tmp" ] && ok "killed $name: only k.db.frdindex-tmp is left" ||
    bad "killed $name: no temporary file"
  local cmd
  for cmd in "check $k" "changes $k" "find -c $k *"; do
    rc=0
    set -f
    # shellcheck disable=SC2086
    "$frdindex" $cmd >out 2>err || rc=$?
    set +f
    if [ "$rc" -eq 1 ] && [ ! -s out ] && grep -q "k.db: cannot open the index (does it exist?" err; then
      ok "killed $name: '${cmd%% *}' says there is no index"
    else bad "killed $name: '$cmd' exit $rc: $(cat out err)"; fi
  done
}
killed_first "after making its temporary file" FRDINDEX_TEST_KILL_AT=made
killed_first "at its first row" FRDINDEX_TEST_KILL_AFTER=1
killed_first "after 20000 rows" FRDINDEX_TEST_KILL_AFTER=20000
killed_first "while its trigram lists are merged" FRDINDEX_TEST_KILL_AT=merging
killed_first "after its commit, before the rename" FRDINDEX_TEST_KILL_AT=committed
# The next update makes it whole (reusing the temporary file).
if "$frdindex" update -q "$k" "$big" && [ "$("$frdindex" check "$k")" = ok ] &&
  [ "$("$frdindex" find -c "$k" '*')" -eq "$entries" ] &&
  [ "$("$frdindex" changes "$k" | grep -c '^added')" -eq "$entries" ]; then
  ok "the update after the kills makes the whole index ($entries entries, all added)"
else bad "the update after the kills: $("$frdindex" check "$k" 2>&1)"; fi
absent "after it" "$k.frdindex-tmp"
# A kill from outside, once the temporary file is there: no database, or a whole one.
rm -f "$k"
"$frdindex" update -q "$k" "$big" & pid=$!
for _ in $(seq 400); do [ -e "$k.frdindex-tmp" ] && break; sleep 0.01; done
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
if [ ! -e "$k" ]; then
  ok "killed from outside: no database"
elif [ "$("$frdindex" check "$k")" = ok ] && [ "$("$frdindex" find -c "$k" '*')" -eq "$entries" ]; then
  ok "killed from outside after the rename: the database is whole"
else bad "killed from outside: a database that is not whole"; fi
if "$frdindex" update -q "$k" "$big" && [ "$("$frdindex" find -c "$k" '*')" -eq "$entries" ]; then
  ok "and the next update lists the tree"
else bad "the update after the outside kill"; fi
# A temporary file a killed first update left is removed by an update of the database.
: >"$k.frdindex-tmp"
"$frdindex" update -q "$k"
absent "an update of the database" "$k.frdindex-tmp"

# --- two first updates at once ---------------------------------------------------------------
# One holds the temporary file locked (flock(1) as a running update would): the other waits,
# then fails with a clear error, and neither leaves a database.
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(120)' two.db.frdindex-tmp locked & locker=$!
for _ in $(seq 200); do [ -e locked ] && break; sleep 0.05; done
expect_fail "a first update while another makes the database" \
  "two.db: another update is making this database" "$frdindex" update -q two.db "$T"
kill $locker 2>/dev/null || true
wait $locker 2>/dev/null || true
if "$frdindex" update -q two.db "$T" && [ "$("$frdindex" check two.db)" = ok ]; then
  ok "once it is done, the next first update makes it"
else bad "first update after the lock"; fi
cli_end
