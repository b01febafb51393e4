#!/usr/bin/env bash
# frdindex keeps every change: frdindex_history.py compares `changes --since G` (and -0,
# --since TIME) after scripted edit sequences with skipped updates against its own model,
# as root and as uid 65534. A schema 2 database (before the history), a schema 3 one
# (whole paths) and a schema 4 one (metadata in columns of their own) keep working: find
# reads them, changes reads 4 and asks for one update of the others, which migrates them
# and keeps their last changes (4's rows come out of it as a new index holds them).
# Usage: tests/cli/frdindex_history.sh PATH/TO/frdindex
set -euo pipefail
frdindex=$(realpath "$1")
here=$(realpath "$(dirname "$0")")
. "$here/lib.sh"
cli_begin
chmod 755 "$tmp"
cp "$here/frdindex_history.py" "$tmp/"
chmod 644 "$tmp/frdindex_history.py"
schema4=$here/frdindex_schema4.py

# --- the model, 24 sequences as root (or the caller) and 24 as uid 65534 --------------------
# (FRD_HISTORY_SEQUENCES: 8 in sanitizer builds, where this test took 323 s against 41 s:
# each frdindex run and its SQLite work cost several times more. The seeds are the same in
# every build: a sanitizer build runs the first 8.)
seqs=${FRD_HISTORY_SEQUENCES:-24}
mkdir self
if python3 "$tmp/frdindex_history.py" "$frdindex" "$tmp/self" "$seqs" >self.log 2>&1; then
  ok "change feed agrees with the model as uid $(id -u) ($(tail -1 self.log))"
else
  bad "change feed vs model as uid $(id -u):"; grep -v '^ok' self.log | head -40
fi
if [ "$(id -u)" = 0 ]; then
  mkdir nobody && chown 65534:65534 nobody
  # The system interpreter: a per-user one (pyenv) may be unreadable to another user.
  py=/usr/bin/python3; [ -x "$py" ] || py=$(command -v python3)
  # A copy in this 755 folder: the build may sit in a folder only root can search (a
  # mktemp -d clone), which uid 65534's Python cannot exec from.
  cp "$frdindex" "$tmp/frdindex-copy" && chmod 755 "$tmp/frdindex-copy"
  if setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$py" "$tmp/frdindex_history.py" "$tmp/frdindex-copy" "$tmp/nobody" "$seqs" >nobody.log 2>&1; then
    ok "change feed agrees with the model as uid 65534 ($(tail -1 nobody.log))"
  else
    bad "change feed vs model as uid 65534:"; grep -v '^ok' nobody.log | head -40
  fi
fi

# --- older schemas: 2 (no history), 3 (whole paths), 4 (metadata columns) ---------------------
# old_entries DB: replaces schema 4's tables by schema 3's entries, whole paths rebuilt from
# the directories (what an older frdindex wrote for the same tree), every row of the last
# generation, unchanged.
old_entries() {
  sqlite3 "$1" "BEGIN;
  CREATE TABLE old(id INTEGER PRIMARY KEY, path BLOB NOT NULL, type INTEGER NOT NULL,
    size INTEGER NOT NULL, mtime INTEGER NOT NULL, ctime INTEGER NOT NULL,
    file_id INTEGER NOT NULL, dev INTEGER NOT NULL, mode INTEGER NOT NULL,
    persistent INTEGER NOT NULL, nlink INTEGER NOT NULL, uid INTEGER NOT NULL,
    gid INTEGER NOT NULL, btime INTEGER NOT NULL, rdev INTEGER NOT NULL, attrs INTEGER NOT NULL,
    attrs_known INTEGER NOT NULL, fields INTEGER NOT NULL, gen INTEGER NOT NULL,
    change INTEGER NOT NULL, old_path BLOB);
  WITH RECURSIVE d(id, path) AS (
    SELECT id, name FROM dirs WHERE parent = 0
    UNION ALL
    SELECT dirs.id, CASE WHEN d.path = x'2f' THEN '/' || dirs.name ELSE d.path || '/' || dirs.name END
    FROM dirs JOIN d ON dirs.parent = d.id)
  INSERT INTO old SELECT e.rowid, CAST(CASE WHEN e.id >> 32 = 0 THEN e.name WHEN d.path = x'2f'
      THEN '/' || e.name ELSE d.path || '/' || e.name END AS BLOB), type, size, mtime, ctime,
    file_id, dev, mode, persistent, nlink, uid, gid, btime, rdev, attrs, attrs_known, fields,
    (SELECT value FROM meta WHERE key = 'generation'), 0, NULL
    FROM entries e LEFT JOIN d ON d.id = e.id >> 32;
  DROP TABLE entries; DROP TABLE dirs; DROP TABLE trigrams; DROP TABLE history;
  CREATE TABLE entries(id INTEGER PRIMARY KEY, path BLOB NOT NULL, type INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, ctime INTEGER NOT NULL, file_id INTEGER NOT NULL, dev INTEGER NOT NULL, mode INTEGER NOT NULL, persistent INTEGER NOT NULL, nlink INTEGER NOT NULL, uid INTEGER NOT NULL, gid INTEGER NOT NULL, btime INTEGER NOT NULL, rdev INTEGER NOT NULL, attrs INTEGER NOT NULL, attrs_known INTEGER NOT NULL, fields INTEGER NOT NULL, gen INTEGER NOT NULL, change INTEGER NOT NULL, old_path BLOB);
  INSERT INTO entries SELECT * FROM old; DROP TABLE old; DELETE FROM snapshot;
  COMMIT"
}
T=$tmp/v2tree
mkdir -p "$T/d" && echo a >"$T/a" && echo b >"$T/d/b"
"$frdindex" update -q new.db "$T"
echo more >>"$T/a" && rm "$T/d/b"
"$frdindex" update -q new.db
want=$(printf 'modified\t%s\nremoved\t%s' "$T/a" "$T/d/b")
# rows DB: every row of entries, its metadata as one value however it is stored.
rows() {
  if [ "$(sqlite3 "$1" 'PRAGMA user_version')" = 4 ]; then
    sqlite3 "$1" 'SELECT id, hex(name), node, type, size, mtime, ctime, file_id, dev, mode,
      persistent, nlink, uid, gid, btime, rdev, attrs, attrs_known, fields FROM entries'
  else sqlite3 "$1" 'SELECT id, hex(name), node, hex(meta) FROM entries'; fi
}
# What schema 4 made of the same tree: the rows' metadata in columns of their own.
cp new.db v4.db
python3 "$schema4" v4.db
if [ "$(sqlite3 v4.db 'PRAGMA user_version')" = 4 ] && [ "$(rows v4.db | wc -l)" = 3 ]; then
  ok "schema 4: made from a new index"
else bad "schema 4: $(rows v4.db)"; fi
# What a schema 3 database looks like after these two updates: whole paths, and the history
# as rows of whole paths (here the second update's; the first one's are left out).
cp v4.db v3.db
old_entries v3.db
sqlite3 v3.db "BEGIN;
  CREATE TABLE history(gen INTEGER NOT NULL, path BLOB NOT NULL, change INTEGER NOT NULL, type INTEGER NOT NULL, other_path BLOB);
  INSERT INTO history(gen, path, change, type) VALUES (2, CAST('$T/a' AS BLOB), 2, 1),
    (2, CAST('$T/d/b' AS BLOB), 7, 1);
  DELETE FROM generations WHERE gen < 2; PRAGMA user_version = 3; COMMIT"
# What a schema 2 database looks like: table removed instead of history and generations,
# the last update's changes in the rows of entries.
cp v4.db v2.db
old_entries v2.db
sqlite3 v2.db "BEGIN; CREATE TABLE removed(path BLOB NOT NULL, type INTEGER NOT NULL);
  INSERT INTO removed VALUES (CAST('$T/d/b' AS BLOB), 1);
  UPDATE entries SET change = 2 WHERE path = CAST('$T/a' AS BLOB);
  DROP TABLE generations; DROP TABLE excludes; PRAGMA user_version = 2;
  COMMIT"
rows new.db >new.rows
for v in 4 3 2; do
  if [ "$("$frdindex" find v$v.db /d)" = "$T/d" ] && [ "$("$frdindex" find -c v$v.db "$T*")" = 3 ]
  then ok "schema $v: find reads it"
  else bad "schema $v: find: $("$frdindex" find v$v.db /d 2>&1)"; fi
  if [ $v = 4 ]; then
    if [ "$("$frdindex" changes v$v.db)" = "$want" ]; then ok "schema 4: changes reads it"
    else bad "schema 4: changes: $("$frdindex" changes v$v.db 2>&1)"; fi
  elif ! "$frdindex" changes v$v.db >out 2>err && grep -q "run 'frdindex update v$v.db' once" err; then
    ok "schema $v: changes asks for one update"
  else bad "schema $v: changes: $(cat out err)"; fi
  cp v$v.db v$v-before.db
  if "$frdindex" update -q v$v.db && [ "$(sqlite3 v$v.db 'PRAGMA user_version')" = 5 ] &&
    [ "$("$frdindex" changes --since 1 v$v.db)" = "$want" ]; then
    ok "schema $v: update migrates it; the last update's changes are kept"
  else bad "schema $v: migration: $("$frdindex" changes --since 1 v$v.db 2>&1)"; fi
  if [ "$("$frdindex" find v$v.db '*' | sort)" = "$("$frdindex" find new.db '*' | sort)" ] &&
    [ "$("$frdindex" check v$v.db)" = ok ]; then
    ok "schema $v: the migrated index holds what a new one holds"
  else bad "schema $v: migrated rows: $("$frdindex" find v$v.db '*' | tr '\n' ' ')"; fi
  if [ $v = 4 ]; then
    # Same ids, names, nodes and metadata, byte for byte: nothing changed in the tree.
    if rows v4.db | cmp -s - new.rows; then ok "schema 4: every row as a new index has it"
    else bad "schema 4: rows differ: $(rows v4.db | diff - new.rows | head -5)"; fi
    if [ "$("$frdindex" changes --since 0 v4.db)" = "$("$frdindex" changes --since 0 new.db)" ]
    then ok "schema 4: the whole history is kept"
    else bad "schema 4: --since 0: $("$frdindex" changes --since 0 v4.db 2>&1)"; fi
  elif ! "$frdindex" changes --since 0 v$v.db >out 2>err && grep -q "history starts after generation 1" err
  then ok "schema $v: --since before the history is an error"
  else bad "schema $v: --since 0: $(cat out err)"; fi
  echo new >"$T/new$v"
  "$frdindex" update -q v$v.db
  if [ "$("$frdindex" changes --since 1 v$v.db)" = "$(printf '%s\nadded\t%s' "$want" "$T/new$v")" ]
  then ok "schema $v: later updates add to the history"
  else bad "schema $v: later: $("$frdindex" changes --since 1 v$v.db)"; fi
  rm "$T/new$v"
done
# A read-only schema 2 database is not migrated by a query.
chmod 444 v2-before.db
if [ "$(setpriv --reuid=65534 --regid=65534 --clear-groups "$frdindex" find v2-before.db /a 2>&1)" = "$T/a" ]
then ok "schema 2: another user's query reads it"
else bad "schema 2: another user's query"; fi
# --since arguments that are wrong.
for arg in 99 yesterday @x 2026-13-45; do
  if ! "$frdindex" changes --since "$arg" v2.db >out 2>err && [ ! -s out ] && [ -s err ]; then
    ok "--since $arg: an error"
  else bad "--since $arg: $(cat out err)"; fi
done
cli_end
