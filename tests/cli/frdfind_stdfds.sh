#!/usr/bin/env bash
# frdfind with standard input, output or error closed agrees with GNU find byte for byte:
# what each writes to its output files, to the descriptors left open, and its exit status,
# as root and as uid 65534 (for whom an unreadable directory makes error messages). No file
# frdfind opens may take a closed descriptor: `frdfind DIR -fprint out -print >&-` must not
# write each path twice into out, nor `frdfind DIR -fprint out 2>&-` its messages. A write
# to stderr that fails makes the exit status 1, as in find, and -files0-from reports its
# read errors and refuses stdin with -ok as find does.
# Usage: tests/cli/frdfind_stdfds.sh PATH/TO/frdfind
set -euo pipefail
frdfind=$(realpath "$1")
export LC_ALL=C
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
cli_users

mkdir -p t/dir/sub t/noread/x
printf 'a' >t/dir/a
printf 'bb' >t/dir/sub/b
ln -s a t/dir/link
chmod 000 t/noread
printf '../t/dir/a\0../t/dir/sub\0' >list0
for _ in $(seq 20); do echo y; done >yes

# fdcase USER CLOSED ARGS...: `find ARGS` and `frdfind -find-order ARGS` (find's order: the
# lines before and after an error are find's) with the descriptors in CLOSED (digits 0, 1,
# 2) closed and the others on files, run as USER, each in a directory of its own (its
# output files, named "@N" in ARGS, are there; the tree is ../t), stdin from $STDIN (a file
# of $tmp) if open. Each output file must hold the same bytes for both tools, and so must
# the descriptors left open; the exit statuses agree.
# (The redirections are words for its eval: $in and $tool expand there.)
# shellcheck disable=SC2016,SC2034
fdcase() {
  local user=$1 closed=$2 tool rc
  shift 2
  local what="[closed $closed] $* (as $user)"
  local -A status
  for tool in find frd; do
    rm -rf "$tool" "$tool.out" "$tool.err"
    mkdir -m 777 "$tool"
    local args=() x cmd=()
    for x in "$@"; do args+=("${x//@/out}"); done
    if [ "$tool" = find ]; then cmd=(find "${args[@]}"); else cmd=("$frdfind" -find-order "${args[@]}"); fi
    [ "$user" = nobody ] && cmd=(setpriv --reuid=65534 --regid=65534 --clear-groups "${cmd[@]}")
    local redir="" in=/dev/null
    [ -z "${STDIN:-}" ] || in=$tmp/$STDIN
    if [[ $closed == *0* ]]; then redir+=" <&-"; else redir+=' <"$in"'; fi
    if [[ $closed == *1* ]]; then redir+=" >&-"; else redir+=' >"../$tool.out"'; fi
    if [[ $closed == *2* ]]; then redir+=" 2>&-"; else redir+=' 2>"../$tool.err"'; fi
    rc=0
    (cd "$tool" && eval '"${cmd[@]}"'"$redir") || rc=$?
    status[$tool]=$rc
    touch "$tool.out" "$tool.err"
  done
  sed -i 's/^\(\(< .* > ? \)*\)find: /\1frdfind: /' find.err
  local same=1 f
  [ "${status[find]}" = "${status[frd]}" ] || same=0
  cmp -s find.out frd.out || same=0
  cmp -s find.err frd.err || same=0
  for f in find/out*; do
    [ -e "$f" ] || continue
    cmp -s "$f" "frd/${f#find/}" || same=0
  done
  [ "$(find find -name 'out*' | wc -l)" = "$(find frd -name 'out*' | wc -l)" ] || same=0
  if [ $same -eq 1 ]; then
    ok "$what: exit ${status[frd]}"
  else
    bad "$what: exit find ${status[find]}, frdfind ${status[frd]}"
    diff find.out frd.out | head -5 || true
    diff find.err frd.err | head -5 || true
    for f in find/out*; do
      if [ -e "$f" ]; then
        diff <(tr '\0' '\n' <"$f") <(tr '\0' '\n' <"frd/${f#find/}") | head -8 || true
      fi
    done
  fi
}

for user in "${users[@]}"; do
  # Standard output closed: the output file gets each path once; -print's writes fail
  # ("'standard output': Bad file descriptor", "write error: Bad file descriptor").
  fdcase "$user" 1 ../t -fprint @1 -print
  fdcase "$user" 1 ../t -fprint0 @1 -print0
  fdcase "$user" 1 ../t -fprintf @1 '%p %s\n' -printf '%p\n'
  fdcase "$user" 1 ../t -fls @1 -ls
  fdcase "$user" 1 ../t -fprint @1 -fprint @2 -false
  fdcase "$user" 1 ../t -fprint /dev/stdout
  fdcase "$user" 12 ../t -fprint @1 -print
  # Standard error closed: the messages go nowhere, never into the output file; status 1.
  fdcase "$user" 2 ../t -fprint @1
  fdcase "$user" 2 ../t -fprint0 @1
  fdcase "$user" 2 ../t -fprintf @1 '%p\n'
  fdcase "$user" 2 ../t -fls @1
  fdcase "$user" 2 ../t/dir -fprint @1 -fprint /dev/stderr
  fdcase "$user" 012 ../t -fprint @1 -fls @2
  # A command sees a closed descriptor closed (find's commands inherit none in its place).
  fdcase "$user" 1 ../t/dir -maxdepth 0 -exec sh -c '{ : >&1; } 2>/dev/null && echo open >&2 || echo closed >&2' \;
  fdcase "$user" 2 ../t/dir -maxdepth 0 -exec sh -c '{ : >&2; } 2>/dev/null && echo open || echo closed' \;
  # Standard input closed: -ok's answers cannot be read (no); -files0-from - fails to read.
  fdcase "$user" 0 ../t -fprint @1
  fdcase "$user" 0 ../t/dir -ok echo {} \;
  fdcase "$user" 0 -files0-from -
  fdcase "$user" 0 -files0-from ../list0 -print
  # find opens the list on descriptor 0 when stdin is closed: with -ok, it is stdin then.
  fdcase "$user" 0 -files0-from ../list0 -ok echo {} \;
done

# A write to stderr that fails (a full device, a closed descriptor) makes the status 1 in
# find, though nothing else failed: -fprint /dev/stderr, -ok's question.
if [ -w /dev/full ]; then
  for args in "t/dir -maxdepth 0 -fprint /dev/stderr" "t/dir -maxdepth 0 -ok true {} ;"; do
    # shellcheck disable=SC2086 # the words are the arguments
    a=$(find $args <yes 2>/dev/full; echo "exit $?")
    # shellcheck disable=SC2086
    b=$("$frdfind" $args <yes 2>/dev/full; echo "exit $?")
    if [ "$a" = "$b" ] && [ "${b##*exit }" = 1 ]; then
      ok "$args 2>/dev/full: $b"
    else
      bad "$args 2>/dev/full: find '$a', frdfind '$b'"
    fi
  done
fi
fdcase root 2 ../t/dir -maxdepth 0 -fprint /dev/stderr
STDIN=yes fdcase root 2 ../t/dir -maxdepth 0 -ok true {} \;

# -files0-from's read errors (after the names read before them) and its refusals with -ok.
for user in "${users[@]}"; do
  fdcase "$user" "" -files0-from ../t/dir
  STDIN=t/dir fdcase "$user" "" -files0-from -
  fdcase "$user" "" -files0-from - -ok echo {} \;
  fdcase "$user" "" -files0-from - -okdir echo {} \; -print
  STDIN=list0 fdcase "$user" "" -files0-from ../list0 -ok echo {} \;
  fdcase "$user" "" -files0-from /dev/stdin -ok echo {} \;
  STDIN=yes fdcase "$user" "" -files0-from ../list0 -ok echo {} \;
  fdcase "$user" "" -files0-from missing -ok echo {} \;
  fdcase "$user" "" ../t -files0-from - -ok echo {} \;
  fdcase "$user" "" -files0-from - -printf '%{' -ok echo {} \;
done
cli_end
