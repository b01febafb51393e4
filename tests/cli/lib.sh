# Sourced by the tests/cli scripts: a scratch folder and the pass/fail tally they share.
# cli_begin: makes "$tmp" (removed on exit) and enters it; ok/bad count and print a result;
# cli_end prints the closing line ctest's log shows and fails the script if any case did.
# cli_users, run_as and same_bytes_as_users: cases run as root and as uid 65534.
# cli_own_mounts: a script that mounts runs in a mount namespace of its own.

# cli_own_mounts "$0" "$@": as root, runs the calling script again in a mount namespace of
# its own (unshare -m, private propagation), so that no other process sees what it mounts
# and it all goes with the script: no test waits for the machine's mount table to settle,
# and none finds another's mounts in its walk. Call it first thing. Does nothing when not
# root, when already inside, or where unshare cannot make one (the mounts are then skipped).
cli_own_mounts() {
  if [ "$(id -u)" -eq 0 ] && [ -z "${FRD_TEST_OWN_MOUNTS:-}" ] && command -v unshare >/dev/null &&
    unshare -m --propagation private true 2>/dev/null; then
    FRD_TEST_OWN_MOUNTS=1 exec unshare -m --propagation private "$BASH" "$@"
  fi
}

cli_begin() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cd "$tmp"
  pass=0
  fail=0
}

ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

cli_end() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}

# as_nobody CMD...: CMD as uid and gid 65534, with no supplementary groups.
# NOBODY_UID: another uid for "nobody", where a case must not share uid 65534's processes
# with other tests (a limit of processes counts the uid's processes on the whole machine).
as_nobody() { setpriv --reuid="${NOBODY_UID:-65534}" --regid="${NOBODY_UID:-65534}" --clear-groups "$@"; }

# cli_users: users=(root), and nobody (uid 65534) when this runs as root with setpriv.
cli_users() {
  users=(root)
  if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    users+=(nobody)
  else
    echo "note: not root: the cases run as $(id -un) only"
  fi
}

# run_as USER OUTPREFIX CMD ARGS...: stdout and stderr to OUTPREFIX.{out,err}, the status
# to rc; stdin from $STDIN, else /dev/null.
run_as() {
  local user=$1 out=$2
  shift 2
  rc=0
  if [ "$user" = nobody ]; then
    as_nobody "$@" <"${STDIN:-/dev/null}" >"$out.out" 2>"$out.err" || rc=$?
  else
    "$@" <"${STDIN:-/dev/null}" >"$out.out" 2>"$out.err" || rc=$?
  fi
}

# same_bytes_as_users REF FRD OPT ARGS...: `REF ARGS` and `FRD OPT ARGS` (FRD a copy of an
# frd tool named as REF, so its messages name REF) write the same stdout and stderr, byte
# for byte, and exit alike, as each of users.
same_bytes_as_users() {
  local ref=$1 frd=$2 opt=$3 user ref_rc
  shift 3
  for user in "${users[@]}"; do
    run_as "$user" ref "$ref" "$@"
    ref_rc=$rc
    run_as "$user" frd "$frd" "$opt" "$@"
    if cmp -s ref.out frd.out && cmp -s ref.err frd.err && [ "$rc" = "$ref_rc" ]; then
      ok "$ref $* (as $user): frd's $opt byte for byte, exit $rc"
    else
      bad "$ref $* (as $user): frd's $opt exit $rc, $ref $ref_rc"
      diff ref.out frd.out | head -6 || true
      diff ref.err frd.err | head -6 || true
    fi
  done
}
