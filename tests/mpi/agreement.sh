#!/usr/bin/env bash
# frdmpi agrees with the single-process tools: at -np 1, 2, 3 and 4 (1 and 3 under the
# sanitizers: FRD_TEST_NPS), `frdmpi walk` prints frdcount's figures, `frdmpi du` frddu's
# lines, `frdmpi find -s` frdfind -s's output, with the same error lines (sorted, program
# name aside) and exit status; `frdmpi index update` writes per-rank databases whose rows
# together are frdindex update's, and `frdmpi index find` over them prints what frdindex
# find prints on frdindex's database. Trees: a generated one (odd names, links, hard links,
# sizes), the u-boot tree (tests/data), one directory of 200,000 entries, unreadable
# directories walked as uid 65534 (when run as root), and the same with
# FRD_MPI_TEST_SCATTER=1 so ranks other than 0 open (and fail to open) the directories
# rank 0 listed.
# Usage: tests/mpi/agreement.sh BUILD/examples   (the folder with frdmpi, frdcount, ...)
set -euo pipefail
bin=$(realpath "$1")
data=$(realpath "$(dirname "$0")/../data")
source "$(dirname "$0")/../cli/lib.sh"
export LC_ALL=C
cli_begin
chmod 755 "$tmp"
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

# No cross-memory attach between ranks: containers often forbid it (ptrace scope). The ob1
# messaging layer over shared memory (vader), as on one machine: Open MPI's other layers
# (UCX, OFI) probe for network hardware at every start, 0.2 s of each run here. A rank's
# status other than 0 has mpirun stop the other ranks at once, not after 1 s before SIGTERM
# and 1 s more before SIGKILL (2 s of each failing run, even at -np 1): every rank has that
# status (fm_status) and its output written by then.
mpi=(mpirun --oversubscribe --mca btl_vader_single_copy_mechanism none --mca pml ob1
  --mca btl self,vader --mca odls_base_sigkill_timeout 0 -x FRD_MPI_TEST_SCATTER)
# PMIx keeps the job's data in each process, not in a shared-memory store it makes and
# clears at every start. hwloc, in mpirun and in each rank, leaves out the I/O devices (PCI,
# OpenCL, GL: no use over shared memory) and does not load its plugins for them, nor the
# libxml2 one. Together they take about a third off each run's start here.
export PMIX_MCA_gds=hash HWLOC_COMPONENTS=-linux:pci
export HWLOC_PLUGINS_BLACKLIST=hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_xml_libxml
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
export FRD_MPI_TEST_SCATTER=0
as=()      # the user the tools run as (uid 65534 for the unreadable case)
# Python for the trees: the system's, as a per-user one (pyenv's shim) takes 1 s to start.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)

# The helpers below start as few processes as they can: with a few hundred runs, one
# process more each is seconds more. Bash reads and compares the small files itself.

# run NAME CMD...: stdout to NAME.out, the tool's sorted error lines (its name replaced;
# mpirun's own notes left out) to NAME.err, exit status to rcs[NAME].
declare -A rcs
run() {
  local name=$1 line errs=()
  shift
  rcs[$name]=0
  "${as[@]}" "$@" >"$name.out" 2>"$name.raw" || rcs[$name]=$?
  while IFS= read -r line || [ -n "$line" ]; do
    if [[ $line =~ ^(frdmpi|frdcount|frddu|frdfind|frdindex): ]]; then
      errs+=("TOOL:${line#*:}")
    fi
  done <"$name.raw"
  case ${#errs[@]} in
  0) : >"$name.err" ;;
  1) printf '%s\n' "${errs[0]}" >"$name.err" ;;
  *) printf '%s\n' "${errs[@]}" | sort >"$name.err" ;;
  esac
}

# check LABEL NAME: NAME.out/.err/rcs[NAME] (frdmpi) equal NAME.want/ref.err/rcs[NAME.ref]
# (the tool's).
check() {
  local label=$1 n=$2
  if ! cmp -s "$n.want" "$n.out"; then
    bad "$label: output differs"
    diff "$n.want" "$n.out" | head -n 5 || true # diff's status 1 would end the script here
  elif [[ $(<"$n.ref.err") != "$(<"$n.err")" ]]; then
    bad "$label: error lines differ"
    diff "$n.ref.err" "$n.err" | head -n 5 || true
  elif [ "${rcs[$n]}" != "${rcs[$n.ref]}" ]; then
    bad "$label: exit status ${rcs[$n]}, want ${rcs[$n.ref]}"
  else
    ok "$label"
  fi
}

# head5 FILE TO: TO becomes FILE's first 5 lines, as with head -n 5 (TO may be FILE).
head5() {
  local lines
  mapfile -n 5 lines <"$1"
  printf '%s' "${lines[@]}" >"$2"
}

# rows DB...: the rows of the databases' entries, each with its whole path (rebuilt from the
# directories, whose ids differ from database to database), and their history as
# `frdindex changes --since 0 --json` prints it, one change a line, sorted (not made unique:
# a row two ranks wrote would show twice), and a line of each database's roots, each
# different line once. One sqlite3 reads them all, attached as db0, db1...
rows() {
  local d i=0 sql='' roots=''
  for d in "$@"; do
    sql+="ATTACH '${d//\'/\'\'}' AS db$i;
      WITH RECURSIVE p(id, path) AS (SELECT id, name FROM db$i.dirs WHERE parent = 0
        UNION ALL SELECT c.id, CASE WHEN p.path = x'2f' THEN x'2f' || c.name
          ELSE p.path || x'2f' || c.name END FROM db$i.dirs c JOIN p ON c.parent = p.id)
      SELECT hex(CASE WHEN e.id >> 32 = 0 THEN e.name WHEN p.path = x'2f' THEN x'2f' || e.name
          ELSE p.path || x'2f' || e.name END), hex(meta), node IS NOT NULL
        FROM db$i.entries e LEFT JOIN p ON p.id = e.id >> 32;"
    roots+="${roots:+ UNION }SELECT 'roots ' || ifnull(group_concat(hex(path), ' '), '') FROM db$i.roots"
    i=$((i + 1))
  done
  {
    sqlite3 :memory: "$sql $roots;"
    for d in "$@"; do
      "$bin/frdindex" changes --since 0 --json "$d" | sed 's/^{"generation":[0-9]*,"since":0,"changes":\[//; s/\]}$//; s/},{/}\n{/g; /^$/d'
    done
  } | sort
}

# indexed NAME FIND...: NAME.out becomes: the update's first line, the rows of the
# databases (frdindex's one.db, or the set's), whether each rank's database has the roots
# and mode 0600 of one.db, then two queries' output and status through FIND (sorted).
indexed() {
  local name=$1 head='' dbs
  shift
  IFS= read -r head <"$name.out" || true
  if [ "$name" = index.ref ]; then dbs=("$work/one.db"); else dbs=("$work"/set.rank*); fi
  {
    echo "$head"
    rows "${dbs[@]}"
    stat -c 'mode %a' "${dbs[@]}" | sort -u
    local rc=0
    "${as[@]}" "$@" '*' | sort || rc=$?
    echo "find status $rc"
    rc=0
    "${as[@]}" "$@" -c -b -i 'F*' || rc=$?
    echo "find -c status $rc"
  } >"$name.out"
}

# rank_counts NP...: sets counts to the rank counts to run: those in FRD_TEST_NPS if set
# (the sanitizer builds: "1 3", one rank alone and rank 0 with others, is what their memory
# checks need), the first one if none is; all of them otherwise.
rank_counts() {
  local np
  counts=()
  for np in "$@"; do
    [[ -z ${FRD_TEST_NPS:-} || " $FRD_TEST_NPS " == *" $np "* ]] && counts+=("$np")
  done
  [ ${#counts[@]} -gt 0 ] || counts=("$1")
}

# agree LABEL TREE "NP..." COMMAND...: each COMMAND (walk, du, find, findn, index) at each
# -np against its single-process tool on TREE.
agree() {
  local label=$1 tree=$2 c np counts
  rank_counts $3
  shift 3
  for c in "$@"; do
    case $c in
    walk) run walk.ref "$bin/frdcount" "$tree" && head5 walk.ref.out walk.want ;;
    du) run du.ref "$bin/frddu" -d 2 "$tree" && sort du.ref.out >du.want ;;
    find) run find.ref "$bin/frdfind" -s "$tree" && cp find.ref.out find.want ;;
    findn)
      run findn.ref "$bin/frdfind" -s "$tree" -name '*.c' -o -type l
      cp findn.ref.out findn.want
      ;;
    index)
      rm -f "$work"/one.db*
      run index.ref "$bin/frdindex" update "$work/one.db" "$tree"
      indexed index.ref "$bin/frdindex" find "$work/one.db" && cp index.ref.out index.want
      ;;
    esac
    for np in "${counts[@]}"; do
      local m=("${mpi[@]}" -np "$np" "$bin/frdmpi")
      case $c in
      walk) run walk "${m[@]}" walk "$tree" && head5 walk.out walk.out ;;
      du) run du "${m[@]}" du -d 2 "$tree" && sort -o du.out du.out ;;
      find) run find "${m[@]}" find -s "$tree" ;;
      findn) run findn "${m[@]}" find -s "$tree" -name '*.c' -o -type l ;;
      index)
        run index "${m[@]}" index update "$work/set" "$tree"
        # Exactly this run's ranks' databases: none left over from an earlier larger set.
        local dbs=("$work"/set.rank*)
        if [ "${#dbs[@]}" != "$np" ]; then
          bad "$label index np$np: ${#dbs[@]} databases, not $np"
          head -n 5 index.raw
        fi
        indexed index "${m[@]}" index find "$work/set"
        ;;
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
# hard links (within one directory: which name du counts is then the same). One Python for
# the 30 directories' files (a truncate, ln or mkdir each: 4 s here).
gen=$tmp/gen
"$py" - "$gen" <<'PY'
import os, sys
for a in range(6):
    for b in range(5):
        d = f"{sys.argv[1]}/d{a}/sub {b}/x"
        os.makedirs(f"{d}/deeper/still")
        for f in range(4):
            with open(f"{d}/f{f}.c", "wb") as out:
                out.truncate((a * 7 + b * 3 + f) * 40960 % 3145728)
        with open(f"{d}/deeper/still/leaf", "wb") as out:
            out.write(b"x")
        os.symlink("../x", f"{d}/link{b}")
        os.link(f"{d}/f0.c", f"{d}/hard0")
PY
mkdir -p "$gen/odd/a b" "$gen/odd/ü-é" "$gen/odd/-dash" "$gen/odd/.hidden/in"
: >"$gen/odd/*star" && : >"$gen/odd/a b/q?mark" && ln -s /nonexistent "$gen/odd/dangling"
work=$tmp # where the index databases go
agree gen "$gen" "1 2 3 4" walk du find findn index

# frdmpi index: after a larger set, a smaller one (agree went 1 to 4; now 2) and the
# set's checks: a database of another update or updated on its own is refused.
agree "gen after np 4" "$gen" "2" index
cp "$work/set.rank1" "$tmp/old.rank1"
"${mpi[@]}" -np 2 "$bin/frdmpi" index update -q "$work/set" "$gen"
cp "$tmp/old.rank1" "$work/set.rank1"
run mixed "${mpi[@]}" -np 1 "$bin/frdmpi" index find "$work/set" x
grep -q "set.rank1: it was written by another update" mixed.err && [ "${rcs[mixed]}" = 1 ] &&
  ok "index find refuses a mixed set" || bad "index find on a mixed set: $(cat mixed.err)"
"${mpi[@]}" -np 2 "$bin/frdmpi" index update -q "$work/set" "$gen"
"$bin/frdindex" update -q "$work/set.rank0"
run alone "${mpi[@]}" -np 1 "$bin/frdmpi" index find "$work/set" x
grep -q "set.rank0: it was updated on its own" alone.err && [ "${rcs[alone]}" = 1 ] &&
  ok "index find refuses a set changed by frdindex" || bad "index find: $(cat alone.err)"
"${mpi[@]}" -np 2 "$bin/frdmpi" index update -q "$work/set" "$gen"
rm "$work/set.rank1"
run missing "${mpi[@]}" -np 1 "$bin/frdmpi" index find "$work/set" x
grep -q "set.rank1: cannot open the index" missing.err && [ "${rcs[missing]}" = 1 ] &&
  ok "index find refuses an incomplete set" || bad "index find: $(cat missing.err)"
# A root that does not exist: every rank gives up before walking, the set stays as it was.
ls -l "$work"/set.rank* >before
run noroot "${mpi[@]}" -np 3 "$bin/frdmpi" index update "$work/set" "$tmp/nonexistent"
ls -l "$work"/set.rank* >after
[ "${rcs[noroot]}" = 1 ] && cmp -s before after && ! ls "$work"/set.rank*.new 2>/dev/null &&
  ok "index update of a missing root changes nothing" || bad "index update of a missing root"

# The u-boot tree (3,001 directories, 38,505 files, 59 links).
"$py" "$data/materialize-tree" "$data/u-boot.tsv.gz" "$tmp/uboot" >/dev/null
agree u-boot "$tmp/uboot" "1 2 3 4" walk find index
rm -rf "$tmp/uboot"

# One directory of 200,000 entries (empty files), beside a small one.
mkdir -p "$tmp/big/many" "$tmp/big/few"
(cd "$tmp/big/many" && seq -f 'file%06g' 0 199999 | xargs touch)
: >"$tmp/big/few/one"
agree big "$tmp/big" "2 4" walk find
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
  mkdir "$tmp/bin" && cp "$bin"/frdmpi "$bin"/frdcount "$bin"/frddu "$bin"/frdfind "$bin"/frdindex "$tmp/bin/"
  chmod 755 "$tmp"/bin/*
  bin=$tmp/bin
  as=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$tmp/home" TMPDIR="$tmp/home")
  work=$tmp/home # 65534 writes the databases there
  agree unreadable "$u" "1 2 3 4" walk du find index
  FRD_MPI_TEST_SCATTER=1 agree "unreadable scattered" "$u" "2 3" walk du find index
  work=$tmp
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
  if [ "${rcs[quit]}" = 0 ] && [ "$n" -ge 1 ] && [ "$n" -le "$np" ] && ! grep -qv '/f[0-9].c$' quit.out; then
    ok "find -print -quit np$np ($n lines)"
  else
    bad "find -print -quit np$np: status ${rcs[quit]}, $n lines"
  fi
done
# find -s keeps each rank's records in a file in $TMPDIR: a rank that cannot make it (here
# rank 0, its TMPDIR missing) makes every rank give up before the walk (none is left
# waiting for it), with the reason and status 1.
run notmp timeout 120 "${mpi[@]}" -np 1 -x TMPDIR="$tmp/missing" "$bin/frdmpi" find -s "$gen" : \
  -np 2 "$bin/frdmpi" find -s "$gen"
if [ "${rcs[notmp]}" = 1 ] && [ ! -s notmp.out ] &&
  [ "$(<notmp.err)" = "TOOL: cannot make a temporary file: No such file or directory" ]; then
  ok "find -s without a temporary file on one rank: every rank gives up"
else
  bad "find -s without a temporary file: status ${rcs[notmp]}, $(head -c 300 notmp.err)"
fi
cli_end
