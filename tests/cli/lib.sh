# Sourced by the tests/cli scripts: a scratch folder and the pass/fail tally they share.
# cli_begin: makes "$tmp" (removed on exit) and enters it; ok/bad count and print a result;
# cli_end prints the closing line ctest's log shows and fails the script if any case did.

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
