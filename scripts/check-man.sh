#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
#
# Checks the API reference (lib/man3/*.3) against lib/include/frd.h, and lints it. Fails when
#  - a public function (FRD_EXTERN) is in no page's NAME section, or in two, or a page's
#    synopsis does not declare it exactly as frd.h does (whitespace aside); the same for the
#    callback types (typedef ... frd_*_fn);
#  - a NAME section lists a name that frd.h does not declare (a function removed or renamed);
#  - a constant (enumerator, error code, public macro), a struct, a type or a member of a
#    public struct appears in no page;
#  - mandoc -T lint (warnings and worse) or groff's warnings, as lintian runs them, say
#    anything about a page;
#  - a man page of the tree (sections 1 and 3) names another version than CMakeLists.txt.
# With a build directory, it also installs that build into a temporary prefix and checks
# that `man 3 NAME` opens a page there for every public function.
# Usage: scripts/check-man.sh [BUILD_DIR]   (needs mandoc and man-db: scripts/deps.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
header=lib/include/frd.h
for tool in mandoc man; do
  command -v "$tool" >/dev/null || { echo "check-man: no $tool (scripts/deps.sh installs it)" >&2; exit 2; }
done
status=0
fail() {
  echo "check-man: $*" >&2
  status=1
}
pages=(lib/man3/*.3)

# Declarations of frd.h, one per line with single spaces: the public functions, then the
# callback types. Compared with the pages' synopses with all whitespace removed.
squeeze() { tr -d ' \t\n'; }
declarations() { # awk pattern of a first line -> each declaration from it to its ';'
  awk -v first="$1" '$0 ~ first {d=""; on=1} on {d=d" "$0; if ($0 ~ /;[ \t]*$/) {print d; on=0}}' \
    "$header" | sed -e 's/^ *FRD_EXTERN //' -e 's/[[:space:]]\{1,\}/ /g' -e 's/^ //'
}
mapfile -t functions < <(declarations '^FRD_EXTERN ')
mapfile -t callbacks < <(declarations '^typedef .*_fn\(')
name_of() { sed -E 's/^.*[^a-z0-9_](frd_[a-z0-9_]+)\(.*$/\1/' <<<"$1"; }
mapfile -t function_names < <(for d in "${functions[@]}"; do name_of "$d"; done)

# Each page: its NAME list and its rendered synopsis, whitespace removed.
declare -A named_in synopsis
for page in "${pages[@]}"; do
  base=$(basename "$page" .3)
  names=$(awk '/^\.SH NAME/{on=1; next} /^\.SH/{on=0} on' "$page" | tr '\n' ' ' |
    sed 's/\\-.*//' | tr -s ', ' '\n' | sed '/^$/d')
  for n in $names; do
    if [[ -n ${named_in[$n]:-} ]]; then
      fail "$n is in the NAME sections of both ${named_in[$n]} and $page"
    fi
    named_in[$n]=$page
    if [[ $n != "$base" ]] && ! printf '%s\n' "${function_names[@]}" | grep -qx "$n"; then
      fail "$page names $n, which frd.h does not declare as a public function"
    fi
  done
  synopsis[$page]=$(mandoc -T ascii "$page" | sed 's/.\x08//g' |
    awk '/^SYNOPSIS/{on=1; next} /^[A-Z]/{on=0} on' | squeeze)
done

for d in "${functions[@]}"; do
  n=$(name_of "$d")
  page=${named_in[$n]:-}
  if [[ -z $page ]]; then
    fail "$n (frd.h) has no man3 page: add it to the NAME and SYNOPSIS of one in lib/man3"
  elif [[ ${synopsis[$page]} != *"$(squeeze <<<"$d")"* ]]; then
    fail "$page: the SYNOPSIS does not declare $n as frd.h does: $d"
  fi
done
all_synopses=$(printf '%s\n' "${synopsis[@]}")
for d in "${callbacks[@]}"; do
  [[ $all_synopses == *"$(squeeze <<<"$d")"* ]] ||
    fail "no SYNOPSIS declares this callback type as frd.h does: $d"
done

# Names that must appear somewhere in the pages: FRD_ constants and macros (the error codes
# come from FRD_ERRNO_MAP), struct and type names, and the members of the public structs.
text=$(for page in "${pages[@]}"; do mandoc -T ascii "$page" | sed 's/.\x08//g'; done)
words=$(
  grep -oE '\bFRD_[A-Z][A-Z0-9_]*[A-Z0-9]\b' "$header" |
    grep -vxE 'FRD_(H|EXTERN|BUILDING_SHARED|USING_SHARED|ERRNO_ENUM)'
  sed -nE 's/^ *XX\(([A-Z]+),.*/FRD_\1/p' "$header"
  grep -oE '\bstruct frd_[a-z_]+' "$header" | sed 's/struct //'
  grep -oE '\benum frd_[a-z_]+' "$header" | sed 's/enum //'
  grep -oE '\bfrd_[a-z_]+_fn\b|\bfrd_os_fd\b' "$header"
  awk '/^struct frd_[a-z_]+ \{/{on=1; next} on && /^\};/{on=0} on' "$header" |
    awk '{ # comments out, across lines
      out = ""
      while ($0 != "") {
        if (c) { i = index($0, "*/"); if (!i) { $0 = "" } else { $0 = substr($0, i + 2); c = 0 } }
        else { i = index($0, "/*"); if (!i) { out = out $0; $0 = "" }
               else { out = out substr($0, 1, i - 1); $0 = substr($0, i + 2); c = 1 } }
      }
      print out }' | grep -E ';' | sed -E 's/^.*[^a-zA-Z0-9_]([a-z_][a-z0-9_]*);.*$/\1/'
)
while IFS= read -r w; do
  grep -qw -- "$w" <<<"$text" || fail "$w (frd.h) appears in no man3 page"
done < <(sort -u <<<"$words")

# Lint: mandoc's warnings and worse, and groff's warnings as lintian asks for them.
for page in "${pages[@]}"; do
  out=$(mandoc -T lint -W warning "$page" 2>&1) || true
  [[ -z $out ]] || fail "mandoc -T lint: $out"
  out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null) || true
  [[ -z $out ]] || fail "groff warnings for $page: $out"
done

# One version: "frd X.Y.Z" in every page's .TH line, as project(VERSION) in CMakeLists.txt.
version=$(sed -nE 's/^project\(frd VERSION ([0-9.]+).*/\1/p' CMakeLists.txt)
while IFS= read -r page; do
  grep -q "^\.TH .*\"frd $version\"" "$page" || fail "$page: its .TH line does not say \"frd $version\""
done < <(git ls-files '*.[13]')

# Installed: man 3 NAME opens a page for every public function (the aliases included).
if [[ $# -ge 1 ]]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cmake --install "$1" --prefix "$tmp" >/dev/null
  for n in "${function_names[@]}"; do
    out=$(man -M "$tmp/share/man" 3 "$n" 2>/dev/null | sed 's/.\x08//g') || true
    grep -q "$n" <<<"$out" || fail "man -M $tmp/share/man 3 $n: no page installed"
  done
fi

if ((status == 0)); then
  echo "check-man: ${#pages[@]} pages cover the ${#functions[@]} functions of frd.h, lint clean"
fi
exit $status
