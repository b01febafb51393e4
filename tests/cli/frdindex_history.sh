#!/usr/bin/env bash
# frdindex keeps every change: frdindex_history.py compares `changes --since G` (and -0,
# --since TIME) after scripted edit sequences with skipped updates against its own model,
# as root and as uid 65534. A schema 2 database (before the history) keeps working: find
# reads it, changes asks for one update, which migrates it and keeps its last changes.
# Usage: tests/cli/frdindex_history.sh PATH/TO/frdindex
set -euo pipefail
frdindex=$(realpath "$1")
here=$(realpath "$(dirname "$0")")
. "$here/lib.sh"
cli_begin
chmod 755 "$tmp"
cp "$here/frdindex_history.py" "$tmp/"
chmod 644 "$tmp/frdindex_history.py"

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

# --- schema 2 -> 3 --------------------------------------------------------------------------
T=$tmp/v2tree
mkdir -p "$T/d" && echo a >"$T/a" && echo b >"$T/d/b"
"$frdindex" update -q v2.db "$T"
echo more >>"$T/a" && rm "$T/d/b"
"$frdindex" update -q v2.db
want=$(printf 'modified\t%s\nremoved\t%s' "$T/a" "$T/d/b")
# What a schema 2 database looks like: table removed instead of history and generations.
sqlite3 v2.db "BEGIN; CREATE TABLE removed(path BLOB NOT NULL, type INTEGER NOT NULL);
  INSERT INTO removed SELECT path, type FROM history WHERE change = 7
    AND gen = (SELECT value FROM meta WHERE key = 'generation');
  DROP TABLE history; DROP TABLE generations; DROP TABLE excludes; PRAGMA user_version = 2;
  COMMIT"
if [ "$("$frdindex" find v2.db /d)" = "$T/d" ]; then ok "schema 2: find reads it"
else bad "schema 2: find"; fi
if ! "$frdindex" changes v2.db >out 2>err && grep -q "run 'frdindex update v2.db' once" err; then
  ok "schema 2: changes asks for one update"
else bad "schema 2: changes: $(cat out err)"; fi
cp v2.db v2-before.db
if "$frdindex" update -q v2.db && [ "$(sqlite3 v2.db 'PRAGMA user_version')" = 3 ] &&
  [ "$("$frdindex" changes --since 1 v2.db)" = "$want" ]; then
  ok "schema 2: update migrates it; the last update's changes are kept"
else bad "schema 2: migration: $("$frdindex" changes --since 1 v2.db 2>&1)"; fi
if ! "$frdindex" changes --since 0 v2.db >out 2>err && grep -q "history starts after generation 1" err
then ok "schema 2: --since before the history is an error"
else bad "schema 2: --since 0: $(cat out err)"; fi
echo new >"$T/new"
"$frdindex" update -q v2.db
if [ "$("$frdindex" changes --since 1 v2.db)" = "$(printf '%s\nadded\t%s' "$want" "$T/new")" ]
then ok "schema 2: later updates add to the history"
else bad "schema 2: later: $("$frdindex" changes --since 1 v2.db)"; fi
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
