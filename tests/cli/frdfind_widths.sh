#!/usr/bin/env bash
# frdfind -printf pads as find does whatever the width: every directive with a width or a
# precision of 10^7 (and flags), compared with find byte for byte (cmp, the outputs are
# tens of megabytes); a width or precision past INT_MAX prints nothing for its directive and
# find's "'standard output': Value too large for defined data type" (for -fprintf the
# file's name), exit 1, the text before it printed. Widths used to stop at 100,000: the
# rest of the digits were printed as an unknown directive.
# Usage: tests/cli/frdfind_widths.sh PATH/TO/frdfind
set -euo pipefail
frdfind=$(realpath "$1")
export LC_ALL=C TZ=UTC
. "$(dirname "$0")/lib.sh"
cli_begin

mkdir -p t/sub
printf 'abc' >t/file
ln -s file t/link
touch -d @1000000000 t/file t/sub t

# same ARGS...: `find ARGS` and `frdfind -find-order ARGS` (find's order) write the same
# bytes to stdout and stderr and exit alike.
same() {
  local rc_find=0 rc_frd=0
  find "$@" >find.out 2>find.err || rc_find=$?
  "$frdfind" -find-order "$@" >frd.out 2>frd.err || rc_frd=$?
  sed -i 's/find: /frdfind: /' find.err # (also after a record's start on stderr)
  local size
  size=$(wc -c <find.out)
  if cmp -s find.out frd.out && cmp -s find.err frd.err && [ $rc_find = $rc_frd ]; then
    ok "$* ($size bytes, exit $rc_frd)"
  else
    bad "$*: find $size bytes exit $rc_find, frdfind $(wc -c <frd.out) bytes exit $rc_frd"
    cmp find.out frd.out | head -2 || true
    diff find.err frd.err | head -4 || true
  fi
  rm -f find.out frd.out
}

w=10000000
# Every directive find 4.9 has, but %B (birth times: see frdfind.1) and %a %c %A (access
# and change times: the first run reads the files, the second may see other times).
for d in p P H f h y Y l d m M s i n k b D u U g G F S Z t T@ T+ Tk TY C@ %; do
  same t -printf "%${w}${d}|\n"
done
for d in p m d s T@ S f y; do
  same t -printf "%-${w}${d}|%.${w}${d}|%0${w}${d}|\n"
done
same t -printf "%#0${w}m|%+0${w}d|% ${w}d|%-+${w}.3d|%${w}.${w}d|\n"
same t -printf "%.${w}p|%.${w}S|%.${w}T@|\n"
same t -maxdepth 0 -printf "a%${w}${w}p|\n"
# Past INT_MAX: find's EOVERFLOW, once per directive and entry, the rest printed.
for spec in 2147483648 99999999999999999999 .2147483648 -2147483648 02147483648 \
  5.99999999999999999999; do
  same t -printf "a%${spec}pb%${spec}dc%${spec}Sd%${spec}T@e\n"
done
same t -printf "%.2147483647p|%.2147483647T@|%.2147483647s|\n"
same t/file -fprintf out "x%2147483648py\n"
same t/file -fprintf /dev/stdout "x%2147483648py\n" -fprintf /dev/stderr "x%2147483648py\n"
# Widths and precisions with other directives after them, and unknown directives.
same t -printf "%${w}z|%99999999999999999999z|%${w}%|%99999999999999999999T"
cli_end
