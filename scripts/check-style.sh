#!/usr/bin/env bash
# Style checks CI runs: clang-format (the project's .clang-format, clang-format 14) on every
# C and C++ source, and a grep for functions frd does not use (curl's checksrc idea).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cc')
clang-format --dry-run --Werror "${files[@]}"
echo "clang-format: ${#files[@]} files clean"
banned='\b(sprintf|vsprintf|strcpy|strcat|strtok|atoi|atol|gets|readdir_r)[[:space:]]*\('
if grep -nE "$banned" "${files[@]}"; then
  echo "banned function used (see above): use snprintf, memcpy with lengths, strtol, readdir" >&2
  exit 1
fi
echo "banned functions: none used"
