#!/usr/bin/env bash
# frdindex fails loudly and leaves nothing behind: an update of a database it may not
# write (mode, chattr +i) exits 1 with a message and no -wal/-shm files; an empty database
# path is a usage error; a missing root or a missing database without roots makes no file;
# a full disk says "disk full" (a small tmpfs, when this may mount one) and makes no file.
# New databases are mode 0600 unless -m says otherwise. -j takes 1 to 256 in every tool.
# Safe to share: another user queries a root-built index read-only, and sees no name inside
# a directory that user cannot read (checked at query time, as plocate does). find's
# plocate options. Excludes (--exclude, --prune*) act before stat and are kept; a progress
# line is drawn on a terminal only.
# Usage: tests/cli/frdindex_safety.sh PATH/TO/frdindex [OTHER TOOLS for -j]
set -euo pipefail
frdindex=$(realpath "$1")
shift
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
export LC_ALL=C
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
is_root=false
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && is_root=true

mkdir -p t/sub && echo a >t/a && echo b >t/sub/b

# expect_fail NAME STATUS WANT CMD...: exit STATUS, stdout empty, stderr matching WANT.
expect_fail() {
  local name=$1 want_rc=$2 want=$3 rc=0
  shift 3
  "$@" >out 2>err || rc=$?
  if [ "$rc" -eq "$want_rc" ] && [ ! -s out ] && grep -q -- "$want" err; then
    ok "$name: exit $rc: $(head -1 err)"
  else
    bad "$name: exit $rc (want $want_rc), stdout $(head -c 200 out), stderr $(cat err)"
  fi
}
no_files() { # NAME GLOB...
  local name=$1 f
  shift
  for f in "$@"; do
    if [ -e "$f" ]; then bad "$name: $f was left behind"; return; fi
  done
  ok "$name: nothing left behind"
}

expect_fail "update '' ROOT" 2 "database path is empty" "$frdindex" update '' t
expect_fail "a missing root" 1 "cannot access 'missing': No such file or directory" \
  "$frdindex" update new.db missing
no_files "a missing root" new.db new.db-wal new.db-shm new.db-journal new.db.frdindex-tmp
expect_fail "no database, no roots" 1 "no such index" "$frdindex" update new.db
no_files "no database, no roots" new.db

"$frdindex" update -q db t
if [ "$(stat -c %a db)" = 600 ]; then ok "a new database is mode 600"
else bad "a new database is mode $(stat -c %a db)"; fi
"$frdindex" update -q -m 644 shared.db t
if [ "$(stat -c %a shared.db)" = 644 ]; then ok "-m 644 makes it 644"
else bad "-m 644 gave $(stat -c %a shared.db)"; fi
expect_fail "-m 999" 2 "invalid mode" "$frdindex" update -m 999 x.db t

if $is_root; then
  cp db ro.db && chown 65534 ro.db && chmod 444 ro.db && chmod 1777 "$tmp"
  expect_fail "a read-only database (uid 65534)" 1 "ro.db: cannot write the index: Permission denied" \
    as_nobody "$frdindex" update ro.db
  no_files "a read-only database" ro.db-wal ro.db-shm
  chmod 755 "$tmp"
  cp db immutable.db
  if chattr +i immutable.db 2>/dev/null; then
    expect_fail "an immutable database" 1 "cannot write the index: Operation not permitted" \
      "$frdindex" update immutable.db
    no_files "an immutable database" immutable.db-wal immutable.db-shm
    chattr -i immutable.db
  else
    echo "skip: chattr +i is not possible here"
  fi
  # A full disk: a 256 KiB tmpfs, filled.
  mkdir small
  if mount -t tmpfs -o size=256k tmpfs small 2>/dev/null; then
    trap 'rc=$?; umount "$tmp/small" 2>/dev/null || true; rm -rf "$tmp"; exit $rc' EXIT
    expect_fail "a new database on a full disk" 1 "disk full" "$frdindex" update -q small/db /usr/share/doc
    no_files "a new database on a full disk" small/db small/db-wal small/db-shm small/db-journal small/db.frdindex-tmp
    "$frdindex" update -q small/kept.db t || bad "a small database on the small disk"
    head -c 400000 /dev/zero >small/fill 2>/dev/null || true
    for i in $(seq 1 300); do echo "$i" >"t/new-$i"; done
    expect_fail "an update on a full disk" 1 "disk full" "$frdindex" update -q small/kept.db
    rm small/fill
    if [ "$("$frdindex" find -c small/kept.db new-)" = 0 ] &&
      [ "$("$frdindex" check small/kept.db)" = ok ]; then
      ok "a full disk: the database is as the last update left it"
    else bad "a full disk: the database changed"; fi
    rm -f t/new-*
    umount small
  else
    echo "skip: cannot mount a small tmpfs here (disk full)"
  fi
fi

# --- safe to share: another user's queries ----------------------------------------------------
if $is_root; then
  S=$tmp/share
  mkdir -p "$S/pub/open" "$S/private/inner" "$S/pub/locked"
  echo x >"$S/pub/open/file" && echo y >"$S/private/secret" && echo z >"$S/private/inner/deep"
  echo w >"$S/pub/locked/hidden"
  chmod 700 "$S/private" && chmod 711 "$S/pub/locked" # searchable, not listable
  "$frdindex" update -q -m 644 share.db "$S"
  want=$(printf '%s\n' "$S" "$S/private" "$S/pub" "$S/pub/locked" "$S/pub/open" "$S/pub/open/file" | sort)
  got=$(as_nobody "$frdindex" find share.db "$S" 2>err | sort) || true
  if [ "$got" = "$want" ] && [ ! -s err ]; then
    ok "uid 65534 queries a root-built index read-only and sees no name inside unlistable directories"
  else bad "uid 65534 find: $(diff <(echo "$want") <(echo "$got")) $(cat err)"; fi
  if [ "$("$frdindex" find -c share.db "$S")" = 10 ]; then ok "root sees all 10 entries"
  else bad "root sees $("$frdindex" find -c share.db "$S")"; fi
  no_files "a read-only query" share.db-wal share.db-shm share.db-journal
  chmod 755 "$S/private"
  if [ "$(as_nobody "$frdindex" find -c share.db "$S")" = 9 ]; then
    ok "checked at query time: the directory made listable shows its names"
  else bad "after chmod 755: $(as_nobody "$frdindex" find share.db "$S")"; fi
  chmod 700 "$S/private"
  echo new >"$S/private/new" && echo new >"$S/pub/open/new"
  "$frdindex" update -q share.db
  got=$(as_nobody "$frdindex" changes share.db)
  if [ "$got" = "$(printf 'added\t%s' "$S/pub/open/new")" ]; then
    ok "changes as uid 65534 leaves out what that user cannot list"
  else bad "changes as uid 65534: $got"; fi
  "$frdindex" update -q share-private.db "$S"
  expect_fail "a 0600 database, another user" 1 "share-private.db: cannot open the index: Permission denied" \
    as_nobody "$frdindex" find share-private.db x
fi

# --- find: the options plocate users use -------------------------------------------------------
F=$tmp/f
mkdir -p "$F/Docs/sub" && touch "$F/Docs/Report.PDF" "$F/Docs/sub/notes.txt" "$F/a.pdf" "$F/b.pdf.txt"
"$frdindex" update -q f.db "$F"
check_find() { # NAME WANT ARGS...
  local name=$1 want=$2 got
  shift 2
  got=$("$frdindex" find "$@" 2>&1 | sort | tr '\0' '|') || true
  if [ "$got" = "$want" ]; then ok "find $name"; else bad "find $name: got '$got' want '$want'"; fi
}
check_find "-r" "$F/a.pdf" -r f.db '\.pdf$'
check_find "--regex -i" "$(printf '%s\n' "$F/Docs/Report.PDF" "$F/a.pdf" | sort)" --regex -i f.db '\.(pdf)$'
check_find "-i glob" "$(printf '%s\n' "$F/Docs/Report.PDF" "$F/a.pdf" | sort)" -i f.db '*.pdf'
check_find "-b" "$F/Docs" -b f.db 'Doc*'
check_find "-c" "2" -c f.db pdf
check_find "-l 1 -c" "1" -l 1 -c f.db pdf
check_find "--limit=5 -c" "2" --limit=5 -c f.db pdf
check_find "-0" "$F/a.pdf|" -0 f.db '*/a.pdf'
rm "$F/a.pdf"
check_find "-e" "$(printf '%s\n' "$F/Docs/Report.PDF" "$F/b.pdf.txt" | sort)" -e -i f.db pdf
expect_fail "find -r with a bad expression" 1 "invalid regular expression" "$frdindex" find -r f.db 'a\{'

# --- excludes, before any stat; kept for later updates ---------------------------------------
X=$tmp/x
mkdir -p "$X/keep" "$X/node_modules/y" "$X/sub/skipme" "$X/mnt" "$X/noexec"
touch "$X/a.o" "$X/a.c" "$X/keep/b.o" "$X/sub/skipme/z" "$X/noexec/junk.tmp" "$X/noexec/old.tmp"
chmod 644 "$X/noexec" # listable, not searchable: a stat of its entries fails
ex_db=$tmp/x.db
mounted=false
$is_root && mount -t tmpfs tmpfs "$X/mnt" 2>/dev/null && touch "$X/mnt/inside" && mounted=true
run_ex() { if $is_root; then chmod 1777 "$tmp"; as_nobody "$@"; local rc=$?; chmod 755 "$tmp"; return $rc; else "$@"; fi; }
$is_root && chown -R 65534 "$X" && touch "$ex_db" && chown 65534 "$ex_db"
rc=0
run_ex "$frdindex" update -q --exclude='*.o' --exclude='*.tmp' --prunenames='node_modules .git' \
  --prunepaths="$X/sub/skipme" --prunefs='TMPFS nfs' "$ex_db" "$X" 2>err || rc=$?
want="$X $X/a.c $X/keep $X/noexec $X/sub"
$mounted || want="$want $X/mnt"
want=$(echo "$want" | tr ' ' '\n' | sort)
got=$("$frdindex" find "$ex_db" "$X" | sort)
if [ "$rc" -eq 0 ] && [ ! -s err ] && [ "$got" = "$want" ]; then
  ok "--exclude, --prunenames, --prunepaths, --prunefs leave out what they name, before any stat"
else bad "excludes: exit $rc, $(cat err), $(diff <(echo "$want") <(echo "$got"))"; fi
touch "$X/new.o" "$X/new.c"
$is_root && chown 65534 "$X/new.o" "$X/new.c"
run_ex "$frdindex" update -q "$ex_db" 2>err || true
if [ "$("$frdindex" changes "$ex_db")" = "$(printf 'added\t%s' "$X/new.c")" ]; then
  ok "a later update without options keeps the same excludes"
else bad "excludes kept: $("$frdindex" changes "$ex_db") $(cat err)"; fi
$mounted && umount "$X/mnt"
# The progress line: on a terminal only.
if command -v script >/dev/null; then
  FRDINDEX_PROGRESS_DELAY_MS=0 script -qec "'$frdindex' update -j 1 '$tmp/p.db' /usr" /dev/null >tty.out || true
  "$frdindex" update "$tmp/p2.db" /usr >/dev/null 2>notty.err || true
  if grep -q 'entries/s' tty.out && [ ! -s notty.err ]; then
    ok "a progress line on a terminal, none elsewhere"
  else bad "progress line: tty $(head -c 200 tty.out | od -c | head -3); not a tty: $(head -c 200 notty.err)"; fi
else
  bad "script(1) is missing: cannot test the progress line"
fi

# -j: one range, 1 to 256, checked by each tool, the option named.
for tool in "$frdindex update -q j.db" "$@"; do
  for j in 0 257 x -1; do
    rc=0
    # shellcheck disable=SC2086
    $tool -j "$j" t >out 2>err || rc=$?
    name=$(basename "${tool%% *}")
    if [ "$rc" -ne 0 ] && grep -q "invalid thread count '$j' for -j (from 1 to 256)" err; then
      ok "$name -j $j: exit $rc"
    else bad "$name -j $j: exit $rc, said $(cat err)"; fi
  done
  rc=0
  # shellcheck disable=SC2086
  $tool -j 256 t >out 2>err || rc=$?
  if [ "$rc" -eq 0 ]; then ok "$(basename "${tool%% *}") -j 256 works"
  else bad "$(basename "${tool%% *}") -j 256: exit $rc, said $(cat err)"; fi
done
cli_end
