#!/usr/bin/env bash
# frdindex find and changes show another user a path only when every directory above it can
# be listed by that user now, checked directory by directory and failing closed, as plocate:
# a directory that is gone (ENOENT), no longer a directory (ENOTDIR), or replaced by a
# symbolic link (to a private or a public place) hides what was below it. Root and the
# database's owner (who may read it whole anyway) see every path. A root-built index with
# -m 644, queried as uid 65534 (and uid 65533 for a database uid 65534 owns).
# Usage: tests/cli/frdindex_visibility.sh PATH/TO/frdindex
set -euo pipefail
frdindex=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
export LC_ALL=C
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
  echo "skip: the checks need root and setpriv (another user's queries)"
  cli_end
  exit 0
fi
as_uid() { local uid=$1; shift; setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"; }
# A copy another user may run (the build may sit in a folder only root can search).
cp "$frdindex" frdindex-copy && chmod 755 frdindex-copy
ix=$tmp/frdindex-copy

P=$tmp/p
mkdir -p "$P"/{c,e,s,l,a/b,pub,locked,gone} "$tmp/open/inner"
touch "$P/c/topsecret" "$P/e/e-secret" "$P/s/s-secret" "$P/l/l-public" "$P/a/b/a-public" \
  "$P/pub/pub-file" "$P/locked/locked-file" "$P/gone/gone-file"
chmod 700 "$P/c" "$P/e" "$P/s"
chmod 711 "$P/locked" # searchable, not listable
# The issue's commands: a private directory indexed, then removed.
"$ix" update -q -m 644 v.db "$P"
all=$("$ix" find -c v.db "$P")
rm -rf "$P/c"                                 # gone: ENOENT
rm -rf "$P/e" && echo x >"$P/e"               # a file now: ENOTDIR
rm -rf "$P/s" && ln -s "$tmp/open" "$P/s"     # a private directory replaced by a link
rm -rf "$P/l" && ln -s "$tmp/open" "$P/l"     # a public one too
mv "$P/a" "$tmp/moved-a" && ln -s "$tmp/moved-a" "$P/a" # a directory above, replaced by a link
rm -rf "$P/gone"                              # a public directory gone

got=$(as_uid 65534 "$ix" find v.db secret 2>&1) && rc=0 || rc=$?
if [ "$rc" -eq 1 ] && [ -z "$got" ]; then
  ok "uid 65534: 'find v.db secret' prints nothing once the private directories changed (exit 1)"
else bad "uid 65534: 'find v.db secret' exit $rc: $got"; fi
want=$(printf '%s\n' "$P" "$P/a" "$P/c" "$P/e" "$P/gone" "$P/l" "$P/locked" "$P/pub" \
  "$P/pub/pub-file" "$P/s" | sort)
got=$(as_uid 65534 "$ix" find v.db "$P" | sort)
if [ "$got" = "$want" ]; then
  ok "uid 65534 sees no path below a directory gone, a file now, or a link now"
else bad "uid 65534's find: $(diff <(echo "$want") <(echo "$got") | tr '\n' ' ')"; fi
if [ "$("$ix" find -c v.db "$P")" = "$all" ] && [ "$all" -eq 18 ]; then
  ok "root still sees all $all entries"
else bad "root sees $("$ix" find -c v.db "$P") of $all"; fi

# changes: the same rule for what the update found gone.
"$ix" update -q v.db
hidden='topsecret|e-secret|s-secret|l-public|a-public|gone-file|/a/b'
root_changes=$("$ix" changes v.db)
nobody_changes=$(as_uid 65534 "$ix" changes v.db)
if [ "$(grep -cE "$hidden" <<<"$root_changes")" -eq 7 ] && ! grep -qE "$hidden" <<<"$nobody_changes" &&
  grep -q "^removed	$P/c\$" <<<"$nobody_changes" && grep -q "^removed	$P/gone\$" <<<"$nobody_changes" &&
  grep -q "^replaced	$P/s\$" <<<"$nobody_changes"; then
  ok "uid 65534's changes: the directories' own lines, nothing that was below them"
else
  bad "changes as uid 65534:"
  echo "$nobody_changes" | sed 's/^/     /'
fi

# The database's owner sees every path; a third user does not.
Q=$tmp/q
mkdir -p "$Q/d" && touch "$Q/d/d-file" && chown -R 65534:65534 "$Q"
mkdir own && chown 65534:65534 own
as_uid 65534 "$ix" update -q -m 644 own/q.db "$Q"
as_uid 65534 rm -rf "$Q/d"
as_uid 65534 "$ix" update -q own/q.db
owner=$(as_uid 65534 "$ix" changes own/q.db)
third=$(as_uid 65533 "$ix" changes own/q.db)
if [ "$owner" = "$(printf 'removed\t%s\nremoved\t%s' "$Q/d" "$Q/d/d-file")" ] &&
  [ "$third" = "$(printf 'removed\t%s' "$Q/d")" ]; then
  ok "the owner of the database sees what was in a directory removed; uid 65533 does not"
else bad "owner: $owner / uid 65533: $third"; fi
cli_end
