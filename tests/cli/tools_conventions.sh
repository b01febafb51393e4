#!/usr/bin/env bash
# The conventions all five tools share: `--version` prints one line `TOOL (frd) X.Y.Z` (the
# same version for all), `--help` exits 0 with the usage on stdout, messages (getopt's too)
# start with the name the tool was invoked by, argv[0]'s base name (a `du` link to frddu
# says `du:`), output to a full device fails with a message and exit 1, and `frdls -0`
# lists what find lists, NUL-terminated.
# Usage: tests/cli/tools_conventions.sh FRDFIND FRDDU FRDINDEX FRDLS FRDCOUNT
set -euo pipefail
declare -A bin=(
  [frdfind]=$(realpath "$1") [frddu]=$(realpath "$2") [frdindex]=$(realpath "$3")
  [frdls]=$(realpath "$4") [frdcount]=$(realpath "$5")
)
tools=(frdfind frddu frdindex frdls frdcount)
export LC_ALL=C
. "$(dirname "$0")/lib.sh"
cli_begin

# A small tree with odd names for the runs below.
mkdir -p tree/sub tree/'with space' && printf 'abc' >tree/f && printf 'x' >tree/sub/g
printf 'y' >"tree/new
line" && ln -s f tree/link && mkfifo tree/fifo

# run OUT ERR CMD...: runs CMD with stdout and stderr to files; sets rc.
run() {
  local out=$1 err=$2
  shift 2
  rc=0
  "$@" >"$out" 2>"$err" || rc=$?
}

# --version: one line, `TOOL (frd) X.Y.Z`, the same version for every tool; --help: exit 0.
versions=()
for t in "${tools[@]}"; do
  run out.txt err.txt "${bin[$t]}" --version
  first=$(head -n 1 out.txt)
  if [ "$rc" -ne 0 ] || [ -s err.txt ]; then
    bad "$t --version exits $rc, stderr: $(cat err.txt)"
  elif ! [[ $first =~ ^$t\ \(frd\)\ ([0-9]+\.[0-9]+\.[0-9]+)$ ]]; then
    bad "$t --version prints '$first', not '$t (frd) X.Y.Z'"
  else
    versions+=("${BASH_REMATCH[1]}")
    ok "$t --version: $first"
  fi
  run out.txt err.txt "${bin[$t]}" --help
  if [ "$rc" -ne 0 ] || ! [ -s out.txt ] || [ -s err.txt ]; then
    bad "$t --help exits $rc, stdout $(wc -c <out.txt) bytes, stderr: $(cat err.txt)"
  else
    ok "$t --help exits 0 with $(wc -l <out.txt) lines of usage"
  fi
done
if [ "$(printf '%s\n' "${versions[@]}" | sort -u | wc -l)" -ne 1 ]; then
  bad "the tools print different versions: ${versions[*]}"
else
  ok "one version for all: ${versions[0]}"
fi

# failing_args TOOL: prints the arguments that make TOOL fail on a missing path.
failing_args() {
  case $1 in
    frdindex) echo "find $tmp/missing.db x" ;;
    *) echo "$tmp/missing" ;;
  esac
}
# bad_option TOOL: an option the tool refuses (getopt's message, or find's parser's).
bad_option() {
  case $1 in
    frdfind) echo "-no-such-predicate" ;;
    frdindex) echo "update -Z" ;;
    *) echo "-Z" ;;
  esac
}

# check_names TOOL NAME CMD...: every line of CMD's stderr on a missing path and on a bad
# option starts with "NAME: " (or is the "Try 'NAME --help'" hint), and it fails.
check_names() {
  local t=$1 name=$2
  shift 2
  local what
  for what in failing_args bad_option; do
    # shellcheck disable=SC2046
    run out.txt err.txt "$@" $($what "$t")
    if [ "$rc" -eq 0 ] || ! [ -s err.txt ]; then
      bad "$t as '$name' ($what): exit $rc, stderr: $(cat err.txt)"
    elif grep -v -e "^$name: " -e "^Try '$name --help'" err.txt >stray.txt; then
      bad "$t as '$name' ($what): lines not starting with '$name: ':"; cat stray.txt
    else
      ok "$t as '$name' ($what): $(head -n 1 err.txt)"
    fi
  done
}

mkdir links
for t in "${tools[@]}"; do
  check_names "$t" "$t" "${bin[$t]}"            # by its full path: the base name only
  ln -s "${bin[$t]}" "links/x-$t"
  check_names "$t" "x-$t" "links/x-$t"           # by a link: the link's name
done
ln -s "${bin[frddu]}" links/du
check_names frddu du links/du
# Found on PATH, argv[0] is plain "du" (and the du run is ours, not coreutils').
if [[ $(PATH="$tmp/links:$PATH" du --version) != "frddu (frd) "* ]]; then
  bad "du on PATH is not the link to frddu"
fi
PATH="$tmp/links:$PATH" check_names frddu du du

# A full device: the tool fails with a message and exit 1, for listings and for --version.
for t in "${tools[@]}"; do
  # A listing of the tree (frdindex, which needs a database for one, its usage instead).
  listing=tree
  [ "$t" = frdindex ] && listing=--help
  for a in "$listing" --version; do
    rc=0
    # shellcheck disable=SC2086
    "${bin[$t]}" $a >/dev/full 2>err.txt || rc=$?
    # GNU's words, with the reason (frddu and frdfind: their own owners' part).
    want="^$t: .*write error"
    case $t in frdls | frdcount | frdindex) want="$want: No space left on device" ;; esac
    if [ "$rc" -ne 1 ] || ! grep -q "$want" err.txt; then
      bad "$t $a > /dev/full: exit $rc, stderr: $(cat err.txt)"
    else
      ok "$t $a > /dev/full: exit 1, $(cat err.txt)"
    fi
  done
done

# frdls -0: the names, NUL-terminated, equal find's (sorted); with -n the same.
find tree -mindepth 1 -maxdepth 1 -printf '%f\0' | sort -z >want.bin
for opt in "" -n; do
  # shellcheck disable=SC2086
  run out.bin err.txt "${bin[frdls]}" -0 $opt tree
  # Each record is fields separated by tabs; the name is the last field (names hold no tab).
  tr '\0\n' '\n\0' <out.bin | sed 's/^.*\t//' | tr '\0\n' '\n\0' | sort -z >got.bin
  records=$(tr -cd '\0' <out.bin | wc -c)
  if [ "$rc" -ne 0 ] || [ -s err.txt ]; then
    bad "frdls -0 $opt: exit $rc, stderr: $(cat err.txt)"
  elif ! cmp -s want.bin got.bin; then
    bad "frdls -0 $opt lists other names than find:"; diff <(tr '\0' '\n' <want.bin) <(tr '\0' '\n' <got.bin) || true
  else
    ok "frdls -0 $opt: $records NUL-terminated records, the names find lists"
  fi
done

cli_end
