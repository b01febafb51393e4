#!/usr/bin/env bash
# A name cannot forge a line. `frdindex changes` prints a path holding a character that is
# not printable (newline, tab, other control characters, bytes that are not a character in
# the locale) quoted as GNU ls --quoting-style=shell-escape-always quotes it, on a terminal
# or not, and other paths as they are (as ls -q shows which): one change, one line, which
# the shell reads back to the same bytes; -0 and --json keep the bytes. `frdindex find`
# prints exactly what plocate prints for the same tree, in a pipe (as it is) and on a
# terminal (escaped). In the C and C.UTF-8 locales, as root and as uid 65534.
# Usage: tests/cli/frdindex_names.sh PATH/TO/frdindex
set -euo pipefail
frdindex=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
cli_users
# A copy uid 65534 may run (the build may sit in a folder only root can search).
cp "$frdindex" frdindex-copy && chmod 755 frdindex-copy
ix=$tmp/frdindex-copy

N=$tmp/n
mkdir "$N"
names=(plain 'with space' "it's" $'new\nline' $'tab\there' $'ctl\001x' $'del\177x' $'bad\377byte'
  $'caf\303\251' "'quoted'" 'back\slash' '"dq"' 'dollar$x' $'cr\r' $'esc\033[31mred' $'q\'\n'
  $'\n\nremoved\tforged' $'\na\'b\001')
for name in "${names[@]}"; do printf 'x' >"$N/$name"; done
chmod -R a+rX "$N"
"$ix" update -q -m 644 n.db "$N"
count=$(find "$N" -print0 | tr -cd '\0' | wc -c)

# expected_line PATH: the path as `changes` prints it, by GNU ls in this locale; "quoted"
# for one that is quoted and holds a single quote: ls 9.1 (gnulib) misquotes some of those
# ('\n''a'\''b'$'\001' for $'\na\'b\001' does not read back), so they are only read back.
expected_line() {
  if [ "$(ls -d --quoting-style=literal --hide-control-chars -- "$1")" = "$1" ]; then
    printf 'added\t%s\n' "$1"
  elif [[ $1 == *"'"* ]]; then
    echo quoted
  else
    printf 'added\t%s\n' "$(ls -d --quoting-style=shell-escape-always -- "$1")"
  fi
}

for loc in C C.UTF-8; do
  export LC_ALL=$loc
  for user in "${users[@]}"; do
    run_as "$user" got "$ix" changes n.db
    # Each line read back by the shell: the path it names.
    declare -A line_of=()
    while IFS= read -r line; do
      q=${line#added$'\t'}
      case $q in \'*) eval "p=$q" ;; *) p=$q ;; esac
      [ -n "$p" ] && line_of[$p]=$line
    done <got.out
    wrong=()
    while IFS= read -r -d '' p; do
      want=$(expected_line "$p")
      got=${line_of[$p]-}
      if [ -z "$got" ] || { [ "$want" = quoted ] && [[ $got != "added"$'\t'"'"* ]]; } ||
        { [ "$want" != quoted ] && [ "$got" != "$want" ]; }; then
        wrong+=("$(printf '%q: %q' "$p" "$got")")
      fi
    done < <(find "$N" -print0)
    lines=$(wc -l <got.out)
    if [ "$rc" -eq 0 ] && [ ! -s got.err ] && [ "$lines" -eq "$count" ] && [ ${#wrong[@]} -eq 0 ]; then
      ok "changes ($loc, $user): $count entries, $count lines, each quoted as ls quotes it and read back by the shell"
    else
      bad "changes ($loc, $user): exit $rc, $lines lines for $count entries, ${#wrong[@]} wrong"
      printf '     %s\n' "${wrong[@]}" | head -20
    fi
    unset line_of
    run_as "$user" nul "$ix" changes -0 n.db
    if cmp -s <(sort -z nul.out) <(find "$N" -print0 | sort -z); then
      ok "changes -0 ($loc, $user): the bytes, unquoted"
    else bad "changes -0 ($loc, $user) differs from find -print0"; fi
    run_as "$user" json "$ix" changes --json n.db
    if python3 -c '
import json, os, sys
doc = json.load(open("json.out"))
got = sorted(os.fsencode(c["path"]) for c in doc["changes"])
want = sorted(p for p in open(sys.argv[1], "rb").read().split(b"\0") if p)
sys.exit(0 if got == want else 1)' <(find "$N" -print0); then
      ok "changes --json ($loc, $user): the bytes, unquoted"
    else bad "changes --json ($loc, $user) differs from find"; fi
  done
done
export LC_ALL=C

# A rename: both paths quoted, still one line.
mv "$N/"$'new\nline' "$N/"$'re\tnamed'
"$ix" update -q n.db
want=$(printf 'renamed\t%s\t%s' "'$N/new'\$'\\n''line'" "'$N/re'\$'\\t''named'")
if [ "$("$ix" changes n.db)" = "$want" ]; then
  ok "a rename from and to such names is one line, both quoted"
else bad "rename: $("$ix" changes n.db | od -c | head -5)"; fi

# --- find: as plocate, in a pipe and on a terminal --------------------------------------
updatedb -o "$tmp/p.db" -U "$N" -l 0
chmod 644 p.db
# on_tty CMD...: what CMD prints on a terminal (script(1)'s, lines ending in CR LF).
on_tty() { script -qec "$(printf '%q ' "$@")" /dev/null; }
for loc in C C.UTF-8; do
  export LC_ALL=$loc
  for user in "${users[@]}"; do
    as=()
    [ "$user" = nobody ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    for pattern in "$N/" forged caf no-such-name; do
      pipe_ref=$("${as[@]}" plocate -d p.db "$pattern" | sort | od -c; echo "exit ${PIPESTATUS[0]}")
      pipe_got=$("${as[@]}" "$ix" find n.db "$pattern" | sort | od -c; echo "exit ${PIPESTATUS[0]}")
      tty_ref=$(on_tty "${as[@]}" plocate -d p.db "$pattern" | sort) || true
      tty_got=$(on_tty "${as[@]}" "$ix" find n.db "$pattern" | sort) || true
      if [ "$pipe_got" = "$pipe_ref" ] && [ "$tty_got" = "$tty_ref" ]; then
        ok "find '$pattern' ($loc, $user): plocate's bytes in a pipe and on a terminal"
      else
        bad "find '$pattern' ($loc, $user) differs from plocate"
        diff <(echo "$tty_ref") <(echo "$tty_got") | head -10 || true
      fi
    done
    # Not vacuous: the terminal form is escaped, the pipe's is not.
    tty_got=$(on_tty "${as[@]}" "$ix" find n.db "$N")
    pipe_got=$("${as[@]}" "$ix" find n.db "$N")
    if grep -qF "'$N/'\$'\\n\\n''removed'\$'\\t''forged'" <<<"$tty_got" &&
      grep -qxF "$(printf 'removed\tforged')" <<<"$pipe_got"; then
      ok "find ($loc, $user): escaped on a terminal only, as plocate"
    else bad "find ($loc, $user): the terminal form is not escaped"; fi
  done
done
cli_end
