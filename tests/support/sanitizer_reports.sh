#!/usr/bin/env bash
# Sanitizer builds: the reports of every process a test starts, whatever the test does with
# its exit status. A test script that compares a tool's output and not its status would pass
# a tool that leaks (LeakSanitizer changes only the status); so each test's processes write
# their reports into one folder (ASAN_OPTIONS, UBSAN_OPTIONS and TSAN_OPTIONS log_path, set
# by cmake/FrdSanitizerReports.cmake) and this script runs before and after all of them.
#
# Usage: sanitizer_reports.sh clear DIR   empties DIR (the sanitizers need it to exist)
#        sanitizer_reports.sh check DIR   exit 1, printing them, if DIR holds any report
set -euo pipefail
mode=$1
dir=$2
case $mode in
clear)
  rm -rf "$dir"
  mkdir -p "$dir"
  ;;
check)
  shopt -s nullglob
  reports=("$dir"/*)
  if [ ${#reports[@]} -eq 0 ]; then
    echo "no sanitizer report from any test's processes"
    exit 0
  fi
  for r in "${reports[@]}"; do
    # The file is named TEST.PID.
    printf '==== %s\n' "$(basename "$r")"
    head -n 60 "$r"
  done
  echo "FAIL: ${#reports[@]} sanitizer report(s) above (from processes the tests started)"
  exit 1
  ;;
*)
  echo "usage: $0 clear|check DIR" >&2
  exit 2
  ;;
esac
