#!/usr/bin/env bash
# A rank that lies: every kind of short, truncated or lying message frd_mpi_walk() can
# receive (mpi/proto.h's tags, the WORK items of mpi/queue.h) makes the walk end on every rank
# with FRD_EMALFORMED, within a timeout (a lie taken for a message would leave the ranks
# waiting: a lost token, an abort with code 0, a "done" from a rank other than 0); and
# records that lie at the end of `frdmpi du` (a path length past the end, a truncated record,
# a path outside the root) get frdmpi's message naming the rank and status 1. Under the
# sanitizers any read past a buffer fails the run (cmake/FrdSanitizerReports.cmake). The
# controls, a valid abort and valid du records from the same program, show that the liar
# speaks the protocol otherwise.
# Usage: tests/mpi/liar.sh MPI_LIAR FRDMPI FRDDU
set -euo pipefail
liar=$(realpath "$1")
frdmpi=$(realpath "$2")
frddu=$(realpath "$3")
source "$(dirname "$0")/../cli/lib.sh"
export LC_ALL=C
cli_begin

# As tests/mpi/agreement.sh: shared memory only, quick starts and stops.
mpi=(mpirun --oversubscribe --mca btl_vader_single_copy_mechanism none --mca pml ob1
  --mca btl self,vader --mca odls_base_sigkill_timeout 0)
export PMIX_MCA_gds=hash HWLOC_COMPONENTS=-linux:pci
export HWLOC_PLUGINS_BLACKLIST=hwloc_pci,hwloc_opencl,hwloc_gl,hwloc_xml_libxml
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
unset FRD_MPI_TEST_SCATTER FRD_MPI_TEST_STATS
# Each listing waits 0.2 s, so the lie arrives while the victim is in its walk.
export FRD_MPI_TEST_LIST_DELAY_US=200000

tree=$tmp/tree
mkdir -p "$tree/sub/deeper"
echo data >"$tree/sub/file"
echo data >"$tree/top"

# walk_case CASE WANT: mpirun -np 2 mpi_liar CASE prints rc=WANT and exits 0 in time.
walk_case() {
  local name=$1 want=$2 rc=0
  timeout 60 "${mpi[@]}" -np 2 "$liar" "$name" "$tree" >"$name.out" 2>"$name.err" || rc=$?
  if [ "$rc" = 124 ]; then
    bad "$name: no end in 60 s (the lie was taken for a message)"
  elif [ "$rc" != 0 ]; then
    bad "$name: exit status $rc"
    head -n 5 "$name.err"
  elif [ "$(cat "$name.out")" != "rc=$want" ]; then
    bad "$name: $(tr '\n' ' ' <"$name.out"), want rc=$want"
  else
    ok "$name: rc=$want"
  fi
}

for name in work-plen-past-end work-plen-past-end-from-0 work-plen-huge work-plen-short \
  work-truncated work-empty work-outside-root work-root-itself work-nul-in-path \
  work-depth-0 work-depth-beyond-path work-check-2 work-second-item-bad \
  token-short token-long token-black-7 token-black-5-from-0 \
  abort-short abort-code-0 progress-short progress-idle-2 progress-to-rank-1-from-0 \
  req-with-body nowork-with-body done-from-1 done-with-body-from-0 unknown-tag; do
  walk_case "$name" EMALFORMED
done
walk_case abort-valid ECANCELED # the control: a well-formed abort ends the walk with its code

# frdmpi du's records: rank 1 is the liar. The tree's one subdirectory stays with rank 0
# (rank 0 keeps a last directory when it has nothing else), so rank 0 prints every line.
unset FRD_MPI_TEST_LIST_DELAY_US
"$frddu" -b "$tree" >du.want
du_case() {
  local name=$1 rc=0
  timeout 60 "${mpi[@]}" -np 1 "$frdmpi" du -b "$tree" : -np 1 "$liar" "$name" "$tree" \
    >"$name.out" 2>"$name.err" || rc=$?
  echo "$rc"
}
rc=$(du_case du-honest)
sub=$(awk -F'\t' -v p="$tree/sub" '$2 == p { print $1 }' du.want)
if [ "$rc" = 0 ] && [ "$(grep -c . du-honest.out)" = "$(grep -c . du.want)" ] &&
  grep -qxF "$((sub + 1000000))	$tree/sub" du-honest.out && ! grep -q '^frdmpi:' du-honest.err; then
  ok "du-honest: rank 1's line added to rank 0's"
else
  bad "du-honest: exit $rc"
  cat du-honest.out du-honest.err | head -n 8
fi
for name in du-plen-past-end du-plen-huge du-truncated du-outside-root du-nul-in-path; do
  rc=$(du_case "$name")
  want="frdmpi: the totals from rank 1 are malformed"
  if [ "$rc" = 1 ] && [ "$(grep '^frdmpi:' "$name.err")" = "$want" ] && [ ! -s "$name.out" ]; then
    ok "$name: '$want', status 1"
  else
    bad "$name: exit $rc"
    head -n 5 "$name.out" "$name.err"
  fi
done

cli_end
