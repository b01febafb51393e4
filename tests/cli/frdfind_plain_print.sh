#!/usr/bin/env bash
# frdfind's plain -print (an expression that is one -print or -print0, written straight into
# the worker's buffer, frdfind_walk.c print_plain()) writes what the general evaluation
# writes: `frdfind ARGS` and `frdfind ARGS -true -print` (the same output, evaluated through
# the expression) give the same stdout, stderr and exit status, as root and as uid 65534, in
# the ordered walk (-s, byte for byte) and the concurrent one (sorted, 1 and 4 workers), on
# a tree with odd names, an unreadable and an unsearchable directory, a symlink loop under
# -L, -mindepth and -maxdepth; and both agree with GNU find (sorted).
# Usage: tests/cli/frdfind_plain_print.sh PATH/TO/frdfind
set -euo pipefail
frdfind=$(realpath "$1")
export LC_ALL=C
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
trap 'chmod -R u+rwx "$tmp" 2>/dev/null || true; rm -rf "$tmp"' EXIT
cli_users
# A copy named find, so that its messages read as find's.
mkdir bin
cp "$frdfind" bin/find
chmod 755 bin bin/find
frd=$tmp/bin/find

mkdir -p t/a/b/c t/odd t/shut t/blind t/loop
for d in t t/a t/a/b t/a/b/c t/odd; do
  for f in 1 2 3; do printf x >"$d/f$f"; done
done
printf x >"t/odd/new
line"
printf x >"t/odd/$(printf 'ctl\001x')"
printf x >"t/odd/$(printf 'bad\377utf')"
printf x >"t/odd/-dash"
printf x >"t/shut/inside"
printf x >"t/blind/inside"
ln -s .. t/loop/up
ln -s missing t/loop/dangling
chmod 000 t/shut
chmod 644 t/blind

# compare WHAT CMD...: stdout, stderr and status of two runs, as each user (sorted when
# WHAT is "sorted": the concurrent walk's order is its own).
compare() {
  local what=$1 user a_rc
  shift
  local general=("$@" -true -print) z=()
  case ${*: -1} in
  -print) general=("${@:1:$#-1}" -true -print) ;;
  -print0) general=("${@:1:$#-1}" -true -print0) z=(-z) ;;
  esac
  for user in "${users[@]}"; do
    run_as "$user" a "$@"
    a_rc=$rc
    run_as "$user" b "${general[@]}"
    if [ "$what" = sorted ]; then
      for f in a.out b.out; do sort "${z[@]}" "$f" >"$f.s" && mv "$f.s" "$f"; done
      for f in a.err b.err; do sort "$f" >"$f.s" && mv "$f.s" "$f"; done
    fi
    if cmp -s a.out b.out && cmp -s a.err b.err && [ "$rc" = "$a_rc" ] && [ -s a.out ]; then
      ok "${*:2} (as $user, $what): plain -print as the general evaluation, exit $rc"
    else
      bad "${*:2} (as $user, $what): plain exit $a_rc, general $rc"
      diff a.out b.out | head -6 || true
      diff a.err b.err | head -6 || true
    fi
  done
}

for args in "t" "t -print" "t -print0" "t -mindepth 2" "t -maxdepth 1" "-L t" "t/a t/odd"; do
  # shellcheck disable=SC2086 # the arguments are words
  compare exact "$frd" -s $args
  for j in 1 4; do
    # shellcheck disable=SC2086
    compare sorted "$frd" -j "$j" $args
  done
done

# Both against GNU find, sorted (its order is its directory's).
for user in "${users[@]}"; do
  run_as "$user" ref find t
  ref_rc=$rc
  sort ref.out >ref.s
  sort ref.err >ref.e
  run_as "$user" frd "$frd" t
  sort frd.out >frd.s
  sort frd.err >frd.e
  if cmp -s ref.s frd.s && cmp -s ref.e frd.e && [ "$rc" = "$ref_rc" ]; then
    ok "find t (as $user): the plain -print as find, exit $rc"
  else
    bad "find t (as $user): frdfind exit $rc, find $ref_rc"
    diff ref.s frd.s | head -6 || true
    diff ref.e frd.e | head -6 || true
  fi
done
cli_end
