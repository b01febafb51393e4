#!/usr/bin/env bash
# frdindex reports every scripted change exactly as made: for each edit (create, delete,
# write, chmod, rename, move across directories, replace by a new file of the same name,
# rename a directory, add a hard link, change a type), `frdindex changes` after an update
# prints exactly the expected lines, and --json the same as JSON. `find` agrees with find(1).
# An update killed midway (SIGKILL) leaves the previous state, which the next update
# completes. A corrupt file, another program's database or another schema version gives a
# clear error and no output, never a wrong answer.
# Usage: tests/cli/frdindex_changes.sh PATH/TO/frdindex
set -euo pipefail
frdindex=$(realpath "$1")
data=$(realpath "$(dirname "$0")/../data")
export LC_ALL=C

tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cd "$tmp"
T=$(realpath "$tmp")/tree
db=$tmp/index.db
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_changes NAME [--all]: runs an update, then compares `changes` with stdin.
expect_changes() {
  local name=$1 all=()
  [ "${2:-}" = "--all" ] && all=(--all)
  local want got
  want=$(cat)
  # In "rows" mode the snapshot is dropped first, so the update reads every row instead.
  [ "$mode" = rows ] && sqlite3 "$db" 'DELETE FROM snapshot'
  if ! "$frdindex" update -q "$db" >update.out 2>&1; then
    bad "$name: update failed: $(cat update.out)"; return
  fi
  got=$("$frdindex" changes ${all[@]+"${all[@]}"} "$db")
  if [ "$got" == "$want" ]; then
    ok "$name ($mode)"
  else
    bad "$name ($mode):"; diff <(echo "$want") <(echo "$got") || true
  fi
  # --json says the same thing.
  if ! "$frdindex" changes --json ${all[@]+"${all[@]}"} "$db" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
lines = []
for c in doc["changes"]:
    path = c["path"].encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    if c["change"] == "renamed":
        lines.append("\t".join(["renamed", c["old_path"], path]))
    else:
        lines.append("\t".join([c["change"], path]))
want = sys.argv[1]
sys.exit(0 if "\n".join(lines) == want else f"json: {lines!r}")' "$got"; then
    bad "$name: --json disagrees with the lines"
  fi
}

# --- change detection -------------------------------------------------------------------
# Each edit is checked twice: against the snapshot of the last update (the fast path, which
# reads back only rows that changed) and with the snapshot dropped (every row read).
scripted_edits() {
mode=$1
T=$(realpath "$tmp")/tree-$mode
db=$tmp/index-$mode.db
mkdir -p "$T"/a "$T"/b "$T"/c "$T"/d/sub
for f in a/old a/x a/keep b/f c/z d/sub/inner d/top; do
  printf 'content of %s\n' "$f" >"$T/$f"
done
ln -s keep "$T"/a/link
if "$frdindex" update "$db" "$T" >update.out && grep -q "^14 entries: 14 added" update.out; then
  ok "first update adds every entry ($(cat update.out))"
else
  bad "first update: $(cat update.out)"
fi
[ "$("$frdindex" changes "$db" | grep -c '^added')" -eq 14 ] && ok "changes lists 14 added" ||
  bad "changes after the first update"

expect_changes "nothing changed" </dev/null

printf 'new\n' >"$T"/a/new
expect_changes "create" <<<"added	$T/a/new"

rm "$T"/a/old
expect_changes "delete" <<<"removed	$T/a/old"

printf 'more\n' >>"$T"/b/f
expect_changes "write (append)" <<<"modified	$T/b/f"

# Same size, new content: only the mtime tells.
mtime_before=$(stat -c %Y "$T"/c/z)
printf 'CONTENT OF c/z\n' >"$T"/c/z
touch -d "@$((mtime_before + 7))" "$T"/c/z
expect_changes "write (same size)" <<<"modified	$T/c/z"

chmod 600 "$T"/a/keep
expect_changes "chmod" <<<"metadata	$T/a/keep"

mv "$T"/a/x "$T"/a/y
expect_changes "rename" <<<"renamed	$T/a/x	$T/a/y"

mv "$T"/a/y "$T"/c/y
expect_changes "move across directories" <<<"renamed	$T/a/y	$T/c/y"

printf 'a new file\n' >"$T"/c/z.tmp && mv "$T"/c/z.tmp "$T"/c/z
expect_changes "replace by a new file of the same name" <<<"replaced	$T/c/z"

mv "$T"/d "$T"/e
expect_changes "rename a directory (its entries follow it)" <<<"renamed	$T/d	$T/e"

# The same update seen with --all: directories whose mtime moved, and the implied renames.
mv "$T"/e "$T"/d
expect_changes "rename back, with --all" --all <<EOF2
modified	$T
renamed	$T/e	$T/d
renamed	$T/e/sub	$T/d/sub
renamed	$T/e/sub/inner	$T/d/sub/inner
renamed	$T/e/top	$T/d/top
EOF2

ln "$T"/b/f "$T"/b/f-link
expect_changes "hard link (the file's ctime and link count change)" <<EOF2
metadata	$T/b/f
added	$T/b/f-link
EOF2

rm "$T"/c/y && mkdir "$T"/c/y
expect_changes "a file becomes a directory" <<<"replaced	$T/c/y"

ln -sfn /elsewhere "$T"/a/link
expect_changes "symlink pointed elsewhere" <<<"replaced	$T/a/link"

# Log rotation: the file moves away and a new one takes its name.
mv "$T"/b/f "$T"/b/f.1 && printf 'fresh\n' >"$T"/b/f
# (f-link is f's other name: the rename changed that file's ctime too.)
expect_changes "log rotation" <<EOF2
replaced	$T/b/f
metadata	$T/b/f-link
renamed	$T/b/f	$T/b/f.1
EOF2

# Several edits in one update, reported in path order.
printf '1' >"$T"/a/one && rm "$T"/a/new && chmod 640 "$T"/c/z && mv "$T"/d/top "$T"/a/top
expect_changes "several edits at once" <<EOF2
removed	$T/a/new
added	$T/a/one
renamed	$T/d/top	$T/a/top
metadata	$T/c/z
EOF2

# Roots: `update DB` reuses them; other roots replace them.
mkdir "$tmp/other-$mode" && printf 'o' >"$tmp/other-$mode/o"
"$frdindex" update -q "$db" "$tmp/other-$mode"
"$frdindex" changes "$db" >roots.changes
if [ "$(grep -c '^removed' roots.changes)" -gt 10 ] &&
  grep -q "^added	$tmp/other-$mode/o\$" roots.changes; then
  ok "new roots replace the old ones"
else
  bad "new roots"
fi
"$frdindex" update -q "$db" "$T"
}
scripted_edits snapshot
scripted_edits rows

# A snapshot that does not decode is ignored: the update reads every row and is right.
mode=garbled
sqlite3 "$db" "UPDATE snapshot SET data = x'66726473'"
printf 'late\n' >"$T"/a/late
expect_changes "a garbled snapshot is ignored" <<<"added	$T/a/late"

# --- find -------------------------------------------------------------------------------
find_agrees() {
  local what=$1
  shift
  if diff <("$frdindex" find "$@" | sort) <(cat want.find) >/dev/null; then
    ok "find $what"
  else
    bad "find $what:"; diff <("$frdindex" find "$@" | sort) want.find | head || true
  fi
}
find "$T" -name '*.1' | sort >want.find
find_agrees "glob '*.1'" "$db" '*.1'
find "$T" -path '*/sub*' | sort >want.find
find_agrees "substring 'sub'" "$db" sub
find "$T" -name 'f*' | sort >want.find
find_agrees "basename glob -b 'f*'" -b "$db" 'f*'
find "$T" -ipath '*/SUB*' | sort >want.find
find_agrees "-i SUB" -i "$db" SUB
[ "$("$frdindex" find -c "$db" '*')" = "$(find "$T" | wc -l)" ] && ok "find -c '*' counts every entry" ||
  bad "find -c"
if "$frdindex" find "$db" 'no-such-name' >/dev/null; then bad "find with no match exits 0"; else
  ok "find with no match exits 1"; fi

# --- an update killed midway ------------------------------------------------------------
big=$tmp/big
python3 "$data/materialize-tree" "$data/u-boot.tsv.gz" "$big" >/dev/null
big=$(realpath "$big")
kdb=$tmp/kill.db
"$frdindex" update -q "$kdb" "$big"
"$frdindex" find "$kdb" '*' | sort >before.find
"$frdindex" changes "$kdb" >before.changes
# Many edits, so the next update has much to write.
find "$big" -type f | sed -n '1,15000p' | xargs touch -d '2001-01-01'
for i in $(seq 1 3000); do : >"$big/added-$i"; done
first_dir=$(find "$big" -mindepth 1 -maxdepth 1 -type d | sort | sed -n 1p)
rm -rf "$first_dir"
rc=0
FRDINDEX_TEST_KILL_AFTER=9000 "$frdindex" update -q "$kdb" || rc=$?
if [ "$rc" -eq 137 ]; then ok "update killed (SIGKILL) after 9000 writes"; else bad "update was not killed: exit $rc"; fi
if cmp -s before.find <("$frdindex" find "$kdb" '*' | sort) &&
  cmp -s before.changes <("$frdindex" changes "$kdb") &&
  "$frdindex" check "$kdb" >/dev/null; then
  ok "after the kill the index is the previous update's, intact"
else
  bad "after the kill the index is not the previous one"
fi
rc=0
FRDINDEX_TEST_KILL_AT=merging "$frdindex" update -q "$kdb" || rc=$?
if [ "$rc" -eq 137 ] && cmp -s before.find <("$frdindex" find "$kdb" '*' | sort) &&
  cmp -s before.changes <("$frdindex" changes "$kdb") && "$frdindex" check "$kdb" >/dev/null; then
  ok "killed while its trigram lists were merged: the previous update's index, intact"
else
  bad "killed while its trigram lists were merged (exit $rc): not the previous index"
fi
if "$frdindex" update -q "$kdb" && cmp -s <(find "$big" | sort) <("$frdindex" find "$kdb" '*' | sort); then
  ok "the next update completes: the index lists the tree as it is"
else
  bad "the update after the kill does not list the tree"
fi
"$frdindex" changes "$kdb" >after.changes
summary=$(cut -f1 after.changes | sort | uniq -c | tr -s ' ' | tr '\n' ',')
if grep -q "^added	$big/added-3000\$" after.changes && grep -q "^removed	$first_dir\$" after.changes &&
  [ "$(grep -c '^modified' after.changes)" -ge 14000 ]; then
  ok "its changes: $summary"
else
  bad "changes after the completed update: $summary"
fi
# An update killed while it committed in rollback mode (entering or leaving WAL) leaves a
# hot journal, which a query's read-only connection may not play back. Made here by
# SQLite's own client: with a cache of two pages a big change spills into the file, the
# journal synced first, and the client is killed before it commits.
"$frdindex" find "$kdb" '*' | sort >hot.before
python3 - "$kdb" 2>/dev/null <<'PY' || true
import os, signal, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA journal_mode = DELETE")
c.execute("PRAGMA cache_size = 2")
c.execute("BEGIN")
c.execute("DELETE FROM entries")
os.kill(os.getpid(), signal.SIGKILL)
PY
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  # Another user who may read the index cannot play the journal back: says so, exit 1.
  mode=$(stat -c %a "$tmp")
  chmod 755 "$tmp" && chmod 644 "$kdb" "$kdb-journal"
  rc=0
  setpriv --reuid=65534 --regid=65534 --clear-groups "$frdindex" find "$kdb" '*' >hot.out 2>hot.err || rc=$?
  chmod "$mode" "$tmp" && chmod 600 "$kdb" "$kdb-journal"
  if [ "$rc" -eq 1 ] && ! [ -s hot.out ] && grep -q "journal to roll back" hot.err &&
    [ -s "$kdb-journal" ]; then
    ok "a hot journal, as another user: said, exit 1, left for the owner"
  else
    bad "a hot journal, as another user: exit $rc, said: $(cat hot.err)"
  fi
fi
if [ -s "$kdb-journal" ] && "$frdindex" find "$kdb" '*' 2>hot.err | sort | cmp -s hot.before - &&
  ! [ -s hot.err ] && ! [ -e "$kdb-journal" ] && "$frdindex" check "$kdb" >/dev/null; then
  ok "a hot journal is rolled back by the next query: the last update's index"
else
  bad "a hot journal: $(cat hot.err)"
fi
# A kill from outside, whenever it lands (no timing is asserted: the update may be done).
find "$big" -type f | sed -n '1,15000p' | xargs touch -d '2002-02-02'
"$frdindex" update -q "$kdb" & pid=$!
sleep 0.2
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
"$frdindex" check "$kdb" >/dev/null && ok "index intact after an outside SIGKILL" || bad "check after SIGKILL"
if "$frdindex" update -q "$kdb" && cmp -s <(find "$big" | sort) <("$frdindex" find "$kdb" '*' | sort) &&
  [ "$("$frdindex" find -c "$kdb" '*')" -eq "$(find "$big" | wc -l)" ]; then
  ok "and the update after it lists the tree"
else
  bad "the update after an outside SIGKILL does not list the tree"
fi

# --- unreadable directory: its entries are kept, not reported removed ---------------------
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  L=$tmp/locked && mkdir -p "$L/secret/deep" && printf 's' >"$L/secret/file" && printf 'p' >"$L/pub"
  ldb=$tmp/locked.db
  # Owned by nobody except "secret", which nobody cannot read; indexed first by root.
  chown -R 65534:65534 "$L" && chown 0:0 "$L/secret" && chmod 700 "$L/secret"
  "$frdindex" update -q "$ldb" "$L"
  chown 65534:65534 "$ldb"* && chmod 777 "$tmp"
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  as_nobody sh -c "printf q >'$L/pub2'"
  rc=0
  as_nobody "$frdindex" update -q "$ldb" 2>err.out || rc=$?
  chmod 755 "$tmp"
  got=$("$frdindex" changes "$ldb")
  if [ "$rc" -eq 1 ] && [ "$got" = "added	$L/pub2" ] && grep -q "Permission denied" err.out &&
    [ "$("$frdindex" find -c "$ldb" secret)" -eq 3 ]; then
    ok "unreadable directory: warned, exit 1, its entries kept"
  else
    bad "unreadable directory: exit $rc, changes: $got, said: $(cat err.out)"
  fi
else
  echo "skip: unreadable directory (needs root and setpriv)"
fi

# --- bad databases: a clear error, no output ----------------------------------------------
refuse() {
  local name=$1 file=$2 want=$3
  local cmd
  for cmd in "find $file x" "changes $file" "update -q $file $T"; do
    local rc=0
    # shellcheck disable=SC2086
    "$frdindex" $cmd >bad.out 2>bad.err || rc=$?
    if [ "$rc" -ne 0 ] && [ ! -s bad.out ] && grep -q "$want" bad.err; then
      ok "$name: '${cmd%% *}' refuses with '$want'"
    else
      bad "$name: '${cmd%% *}' exit $rc, said: $(cat bad.err) $(head -c 100 bad.out)"
    fi
  done
}
head -c 20000 /dev/urandom >garbage.db
refuse "random bytes" garbage.db "not an frdindex database"
printf 'SQLite format 3\0 but not really' >fake.db
refuse "a fake header" fake.db "not an frdindex database"
sqlite3 other.db 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'
refuse "another program's database" other.db "not an frdindex database"
cp "$db" v9.db && sqlite3 v9.db 'PRAGMA user_version = 9'
refuse "another schema version" v9.db "schema version 9"
cp "$db" altered.db && sqlite3 altered.db 'ALTER TABLE entries ADD COLUMN extra'
refuse "a changed table" altered.db "not the one frdindex writes"
cp "$db" lost.db && sqlite3 lost.db "DELETE FROM entries WHERE rowid IN (SELECT rowid FROM entries LIMIT 1)"
refuse "a row deleted behind frdindex's back" lost.db "damaged"
# A database truncated in the middle of its pages.
cp "$kdb" truncated.db && rm -f truncated.db-wal truncated.db-shm
sqlite3 truncated.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
size=$(stat -c %s truncated.db)
truncate -s $((size / 2)) truncated.db
for cmd in "find truncated.db x" "changes truncated.db"; do
  rc=0
  # shellcheck disable=SC2086
  "$frdindex" $cmd >bad.out 2>bad.err || rc=$?
  if [ "$rc" -ne 0 ] && [ ! -s bad.out ]; then ok "truncated: '${cmd%% *}' fails: $(head -1 bad.err)";
  else bad "truncated: '${cmd%% *}' exit $rc"; fi
done
rc=0; "$frdindex" find missing.db x >bad.out 2>bad.err || rc=$?
[ "$rc" -ne 0 ] && grep -q "cannot open" bad.err && ok "a missing index: clear error" || bad "missing index: $(cat bad.err)"

# --- help ------------------------------------------------------------------------------
"$frdindex" --help | grep -q "frdindex changes" && ok "--help" || bad "--help"
if "$frdindex" frobnicate >/dev/null 2>&1; then bad "unknown command accepted"; else ok "unknown command refused"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
