#!/usr/bin/env bash
# frdmpi agrees with the single-process tools: at -np 1, 2, 3 and 4, `frdmpi walk` prints
# frdcount's figures, `frdmpi du` frddu's lines, `frdmpi find -s` frdfind -s's output, with
# the same error lines (sorted, program name aside) and exit status. Trees: a generated one
# (odd names, links, hard links, sizes), the u-boot tree (tests/data), one directory of
# 200,000 entries, unreadable directories walked as uid 65534 (when run as root), and the
# same with FRD_MPI_TEST_SCATTER=1 so ranks other than 0 open (and fail to open) the
# directories rank 0 listed.
# Usage: tests/mpi/agreement.sh BUILD/examples   (the folder with frdmpi, frdcount, ...)
set -euo pipefail
bin=$(realpath "$1")
data=$(realpath "$(dirname "$0")/../data")
source "$(dirname "$0")/../cli/lib.sh"
export LC_ALL=C
cli_begin
chmod 755 "$tmp"
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# No cross-memory attach between ranks: containers often forbid it (ptrace scope).
mpi=(mpirun --oversubscribe --mca btl_vader_single_copy_mechanism none -x FRD_MPI_TEST_SCATTER)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
export FRD_MPI_TEST_SCATTER=0
as=()      # the user the tools run as (uid 65534 for the unreadable case)
nps=(1 2 3 4)

# run NAME CMD...: stdout to NAME.out, the tool's sorted error lines (its name replaced;
# mpirun's own notes left out) to NAME.err, exit status to NAME.rc.
run() {
  local name=$1
  shift
  local rc=0
  "${as[@]}" "$@" >"$name.out" 2>"$name.raw" || rc=$?
  { grep -E '^(frdmpi|frdcount|frddu|frdfind):' "$name.raw" || true; } |
    sed -E 's/^[a-z]+:/TOOL:/' | sort >"$name.err"
  echo "$rc" >"$name.rc"
}

# check LABEL NAME: NAME.out/.err/.rc (frdmpi) equal NAME.want/ref.err/ref.rc (the tool's).
check() {
  local label=$1 n=$2
  if ! cmp -s "$n.want" "$n.out"; then
    bad "$label: output differs"
    diff "$n.want" "$n.out" | head -n 5
  elif ! cmp -s "$n.ref.err" "$n.err"; then
    bad "$label: error lines differ"
    diff "$n.ref.err" "$n.err" | head -n 5
  elif ! cmp -s "$n.ref.rc" "$n.rc"; then
    bad "$label: exit status $(cat "$n.rc"), want $(cat "$n.ref.rc")"
  else
    ok "$label"
  fi
}

# agree LABEL TREE "NP..." COMMAND...: each COMMAND (walk, du, find, findn) at each -np
# against its single-process tool on TREE.
agree() {
  local label=$1 tree=$2 nps=$3
  shift 3
  local c np
  for c in "$@"; do
    case $c in
    walk) run walk.ref "$bin/frdcount" "$tree" && head -n 5 walk.ref.out >walk.want ;;
    du) run du.ref "$bin/frddu" -d 2 "$tree" && sort du.ref.out >du.want ;;
    find) run find.ref "$bin/frdfind" -s "$tree" && cp find.ref.out find.want ;;
    findn)
      run findn.ref "$bin/frdfind" -s "$tree" -name '*.c' -o -type l
      cp findn.ref.out findn.want
      ;;
    esac
    for np in $nps; do
      local m=("${mpi[@]}" -np "$np" "$bin/frdmpi")
      case $c in
      walk) run walk "${m[@]}" walk "$tree" && head -n 5 walk.out >walk.tmp && mv walk.tmp walk.out ;;
      du) run du "${m[@]}" du -d 2 "$tree" && sort du.out >du.tmp && mv du.tmp du.out ;;
      find) run find "${m[@]}" find -s "$tree" ;;
      findn) run findn "${m[@]}" find -s "$tree" -name '*.c' -o -type l ;;
      esac
      check "$label $c np$np" "$c"
    done
  done
}

# The tools' conventions: --version, --help, a usage error's status.
v=$("${mpi[@]}" -np 1 "$bin/frdmpi" --version) && [[ $v == "frdmpi (frd) "* ]] &&
  ok "--version" || bad "--version: $v"
"${mpi[@]}" -np 1 "$bin/frdmpi" --help | grep -q '^usage: mpirun -np N frdmpi' &&
  ok "--help" || bad "--help"
rc=0
"${mpi[@]}" -np 2 "$bin/frdmpi" bogus >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && ok "unknown command: status 2" || bad "unknown command: status $rc"

# A generated tree: nested directories, sizes from 0 to 3 MiB (sparse), odd names, links,
# hard links (within one directory: which name du counts is then the same).
gen=$tmp/gen
for a in 0 1 2 3 4 5; do
  for b in 0 1 2 3 4; do
    d="$gen/d$a/sub $b/x"
    mkdir -p "$d/deeper/still"
    for f in 0 1 2 3; do
      truncate -s $(((a * 7 + b * 3 + f) * 40960 % 3145728)) "$d/f$f.c"
    done
    printf 'x' >"$d/deeper/still/leaf"
    ln -s ../x "$d/link$b"
    ln "$d/f0.c" "$d/hard0"
  done
done
mkdir -p "$gen/odd/a b" "$gen/odd/ü-é" "$gen/odd/-dash" "$gen/odd/.hidden/in"
: >"$gen/odd/*star" && : >"$gen/odd/a b/q?mark" && ln -s /nonexistent "$gen/odd/dangling"
SECONDS=0; agree gen "$gen" "1 2 3 4" walk du find findn

# The u-boot tree (3,001 directories, 38,505 files, 59 links).
"$data/materialize-tree" "$data/u-boot.tsv.gz" "$tmp/uboot" >/dev/null
echo "time: $SECONDS s"; agree u-boot "$tmp/uboot" "1 2 3 4" walk find
rm -rf "$tmp/uboot"

# One directory of 200,000 entries (empty files), beside a small one.
mkdir -p "$tmp/big/many" "$tmp/big/few"
(cd "$tmp/big/many" && seq -f 'file%06g' 0 199999 | xargs touch)
: >"$tmp/big/few/one"
echo "time: $SECONDS s"; agree big "$tmp/big" "2 4" walk find
rm -rf "$tmp/big"

# Unreadable and unsearchable directories, walked by uid 65534 (root reads everything);
# then with FRD_MPI_TEST_SCATTER=1, so that ranks other than 0 fail to open their share.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  u=$tmp/unread
  mkdir -p "$u/open/in" "$u/locked/in" "$u/noexec/sub" "$u/deep/a/locked2/x" "$u/deep/b"
  for d in open locked noexec deep/a deep/b; do printf 'data' >"$u/$d/f"; done
  printf 'l' >"$u/locked/in/f" && printf 'x' >"$u/deep/a/locked2/x/f"
  chmod 700 "$u/locked" "$u/deep/a/locked2" && chmod 444 "$u/noexec"
  # mpirun needs a session folder 65534 can write; the tools' paths are readable (755).
  mkdir "$tmp/home" && chown 65534:65534 "$tmp/home"
  # Copies of the tools in this 755 folder: the build may sit in a folder only root can
  # search (a mktemp -d clone), which mpirun and env running as 65534 cannot exec from.
  mkdir "$tmp/bin" && cp "$bin"/frdmpi "$bin"/frdcount "$bin"/frddu "$bin"/frdfind "$tmp/bin/"
  chmod 755 "$tmp"/bin/*
  bin=$tmp/bin
  as=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$tmp/home" TMPDIR="$tmp/home")
  echo "time: $SECONDS s"; agree unreadable "$u" "1 2 3 4" walk du find
  FRD_MPI_TEST_SCATTER=1 agree "unreadable scattered" "$u" "2 3" walk du find
  as=()
else
  echo "skip: unreadable directories (needs root and setpriv)"
fi

# Shares another rank listed: every depth-1 directory goes to another rank.
FRD_MPI_TEST_SCATTER=1 agree "gen scattered" "$gen" "3" walk du find
# A stop on one rank ends the walk on every rank: -print -quit prints one match per worker
# at most (each may find its own before the stop reaches it), at least one, status 0; with
# one worker per rank (-j 1), one per rank at most.
for np in 1 3; do
  run quit "${mpi[@]}" -np "$np" "$bin/frdmpi" find -j 1 "$gen" -name 'f*.c' -print -quit
  n=$(wc -l <quit.out)
  if [ "$(cat quit.rc)" = 0 ] && [ "$n" -ge 1 ] && [ "$n" -le "$np" ] && ! grep -qv '/f[0-9].c$' quit.out; then
    ok "find -print -quit np$np ($n lines)"
  else
    bad "find -print -quit np$np: status $(cat quit.rc), $n lines"
  fi
done
echo "time: $SECONDS s"
cli_end
