#!/usr/bin/env bash
# `frdindex find` through the trigram index answers as plocate answers: a generated tree of
# names with bytes above 0x7f, `*`, `?`, `[`, `\`, case variants, directories whose names
# hold the pattern (everything below them matches), a root whose own path holds it, a
# folder uid 65534 may not list; globs, -i, -b, -c, -l, regular expressions (BRE, ERE; with
# literal runs the index reads, and without), as root and as uid 65534, in
# the C and C.UTF-8 locales; then again after an update that renames, removes and adds
# (the lists are kept current by every update). Outputs are compared sorted (plocate's
# order is its own); -l N must give the first N of the paths the query gives without it.
# Usage: tests/cli/frdindex_query.sh PATH/TO/frdindex
set -euo pipefail
frdindex=$(realpath "$1")
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
cli_users
cp "$frdindex" frdindex-copy && chmod 755 frdindex-copy
ix=$tmp/frdindex-copy
command -v updatedb.plocate >/dev/null || { echo "skip: plocate is not installed"; cli_end; exit 0; }

# The root's own path holds "Query" (the names above a root are no entries of the index).
R=$tmp/QueryRoot
mkdir -p "$R"/{Alpha,alpha.d,ALPHAbet,x}/{sub,inner} "$R/deep/a/b/c/alphaville/d" "$R/private/alpha"
for d in "$R"/{Alpha,alpha.d,ALPHAbet,x}/{sub,inner} "$R/deep/a/b/c/alphaville/d" "$R/private/alpha"; do
  for name in plain.txt README readme.md 'star*name' 'what?' 'br[ack]et' 'back\slash' \
    $'caf\303\251.png' $'CAF\303\211.PNG' $'hi\377gh' image.png libc.so.6 passwd; do
    printf x >"$d/$name"
  done
done
# Non-ASCII characters that fold to ASCII letters under -i in a UTF-8 locale (fnmatch:
# U+212A KELVIN SIGN to k, U+0130 to i; plocate folds neither, so they are checked apart).
printf x >"$R/deep/"$'\xe2\x84\xaa'elvin
printf x >"$R/deep/"$'\xc4\xb0'nfo.txt
chmod -R a+rX "$R"
chmod 700 "$R/private"

index() {
  "$ix" update -q -m 644 q.db "$R"
  rm -f p.db
  updatedb.plocate -o "$tmp/p.db" -U "$R" -l yes --prunepaths= --prunefs= --prunenames=
}

# (None matches the root itself: plocate leaves a root out, frdindex keeps it, frdindex.1.)
patterns=(alpha Alpha ALPHA lph pha.d alphaville/d ueryRoot/ QueryRoot/x '*.png' '*.PNG' '*ALPHA*'
  'Alpha/sub/*' '*[Aa]lpha*/inner/*' '*[A-Z]LPHA*' '*star\*name' '*\?' '*br\[ack]et'
  '*back\\slash' $'caf\303\251' $'CAF\303\211' $'\377gh' $'hi\377' libc.so passwd readme
  zzzznotfound 'al*ha' '*/x/*' '[!x]lpha*')

# check NAME: every pattern and option set, as root and uid 65534, against plocate.
check() {
  local loc user pattern opts as failed=0 cases=0
  for loc in C C.UTF-8; do
    export LC_ALL=$loc
    for user in "${users[@]}"; do
      as=()
      [ "$user" = nobody ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
      for pattern in "${patterns[@]}"; do
        for opts in '' -i -b '-b -i' -c '-i -c'; do
          # plocate -i refuses a pattern with bytes above 0x7f (not ASCII text).
          [[ $opts == *-i* && $pattern == *[$'\200'-$'\377']* ]] && continue
          # shellcheck disable=SC2086
          want=$("${as[@]}" plocate -d p.db $opts -- "$pattern" 2>/dev/null | sort; echo "exit ${PIPESTATUS[0]}")
          # shellcheck disable=SC2086
          got=$("${as[@]}" "$ix" find $opts q.db "$pattern" | sort; echo "exit ${PIPESTATUS[0]}")
          cases=$((cases + 1))
          if [ "$got" != "$want" ]; then
            failed=$((failed + 1))
            [ $failed -le 8 ] && printf '     %s: %q %s (%s): %s\n' "$1" "$pattern" "$opts" "$user" \
              "$(diff <(echo "$want") <(echo "$got") | head -4 | tr '\n' ' ')"
          fi
        done
        # -l 2: the first two paths the query gives without it (or all of them, if fewer),
        # in the order of a scan (rowid order) both follow.
        all=$("${as[@]}" "$ix" find q.db "$pattern") || true
        lim=$("${as[@]}" "$ix" find -l 2 q.db "$pattern") || true
        cases=$((cases + 1))
        if [ "$lim" != "$(head -n 2 <<<"$all")" ]; then
          failed=$((failed + 1))
          printf '     %s: -l 2 %q (%s): %s\n' "$1" "$pattern" "$user" "$(echo "$lim" | tr '\n' ' ')"
        fi
      done
      # Regular expressions: with literal runs (read through the index: escaped bytes,
      # quantifiers, groups, brackets, anchors beside them) and without (a scan).
      for pattern in 'alpha[.]d/s' 'ALPHA' '/x/.*/pass' 'caf.\.png$' 'libc\.so' 'lph\(a\.d\|abe\)' \
        'alph(a\.d|abe)' 'Alpha|omega' 'alpha\|omega' 'readmee*' 'readmee?\.' 'star\*name$' \
        'br\[ack]et' '^/.*/[a-z]*ville/d/' $'caf\303\251\\.png' 'al.*ville' 'a.b' '[xyz]/s' \
        'passw\{1,2\}d' 'passw{1,2}d' '/x/inner/[^/]*$' 'PASSWD$' 'hi.gh$'; do
        for opts in -r '-r -i' '--regex' '--regex -i' '-r -b' '--regex -b -i'; do
          [[ $opts == *-i* && $pattern == *[$'\200'-$'\377']* ]] && continue
          # shellcheck disable=SC2086
          want=$("${as[@]}" plocate -d p.db $opts -- "$pattern" 2>/dev/null | sort; echo "exit ${PIPESTATUS[0]}")
          # shellcheck disable=SC2086
          got=$("${as[@]}" "$ix" find $opts q.db "$pattern" | sort; echo "exit ${PIPESTATUS[0]}")
          cases=$((cases + 1))
          [ "$got" = "$want" ] || { failed=$((failed + 1)); printf '     %s: %q %s (%s): %s\n' "$1" "$pattern" "$opts" "$user" \
            "$(diff <(echo "$want") <(echo "$got") | head -4 | tr '\n' ' ')"; }
        done
        # -l 2: the first two paths the query gives without it.
        all=$("${as[@]}" "$ix" find --regex q.db "$pattern") || true
        lim=$("${as[@]}" "$ix" find --regex -l 2 q.db "$pattern") || true
        cases=$((cases + 1))
        if [ "$lim" != "$(head -n 2 <<<"$all")" ]; then
          failed=$((failed + 1))
          printf '     %s: --regex -l 2 %q (%s): %s\n' "$1" "$pattern" "$user" "$(echo "$lim" | tr '\n' ' ')"
        fi
      done
    done
  done
  export LC_ALL=C
  if [ $failed -eq 0 ]; then ok "$1: $cases queries answer as plocate answers"
  else bad "$1: $failed of $cases queries differ from plocate"; fi
}

index
# Not vacuous: the queries find paths below a matching directory, and the private ones
# only as root.
if [ "$("$ix" find -c q.db alphaville)" = 15 ] &&
  [ "$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ix" find -c q.db /private/)" = 0 ] &&
  [ "$("$ix" find -c q.db /private/)" -gt 0 ]; then
  ok "the tree: directories that match hold matches, the private folder is root's only"
else bad "the tree is not what the checks need"; fi
check "new index"
# -i in C.UTF-8 finds what fnmatch folds, as a scan does (the lists fold A-Z only).
if [ "$(LC_ALL=C.UTF-8 "$ix" find -i q.db kelvin)" = "$R/deep/"$'\xe2\x84\xaa'elvin ] &&
  [ "$(LC_ALL=C.UTF-8 "$ix" find -i q.db '*/info.txt')" = "$R/deep/"$'\xc4\xb0'nfo.txt ] &&
  [ "$(LC_ALL=C "$ix" find -i -c q.db kelvin)" = 0 ]; then
  ok "-i: the Kelvin sign and U+0130 fold to k and i in C.UTF-8, as fnmatch folds them"
else bad "-i: $(LC_ALL=C.UTF-8 "$ix" find -i q.db kelvin) / $(LC_ALL=C.UTF-8 "$ix" find -i q.db '*/info.txt')"; fi

# A regular expression with a literal run reads the trigram index, one without scans: a
# row deleted behind frdindex's back (the entry count made to agree) is met by the first
# as a list naming a missing row, and not seen by the second.
cp q.db lost.db
sqlite3 lost.db "DELETE FROM entries WHERE rowid =
  (SELECT max(rowid) FROM entries WHERE name = CAST('libc.so.6' AS BLOB));
  UPDATE meta SET value = value - 1 WHERE key = 'entries'"
if ! "$ix" find -r lost.db 'libc\.so' >/dev/null 2>lost.err && grep -q damaged lost.err &&
  ! "$ix" find --regex -c lost.db 'lib(c|x)\.so' >/dev/null 2>&1 &&
  [ "$("$ix" find -c --regex lost.db 'l.bc[.]s')" -gt 0 ]; then
  ok "-r, --regex: a literal run is looked up in the trigram index, none scans"
else bad "-r: the index was not read ($(cat lost.err))"; fi
# -l stops reading the candidates at its last match: the missing row, the last one, is not
# reached by -l 1 (as root, whom nothing hides), and is by -l 1000.
if [ "$("$ix" find -l 1 lost.db libc.so 2>lost.err | wc -l)" = 1 ] && [ ! -s lost.err ] &&
  [ "$("$ix" find -l 1 --regex lost.db 'libc\.so' 2>lost.err | wc -l)" = 1 ] && [ ! -s lost.err ] &&
  ! "$ix" find -l 1000 lost.db libc.so >/dev/null 2>&1; then
  ok "-l: the candidates are read until the limit only"
else bad "-l: read on past the limit ($(cat lost.err))"; fi

# A piece whose directories hold more than an eighth of the rows sends the query to the scan
# before it reads their entries or any candidate after them: "qqman1" holds 200 of 203
# rows; a candidate after it (zz-qqman, added last, so numbered after it) deleted behind
# frdindex's back would be met as a list naming a missing row by a query that read on.
M=$tmp/many
mkdir -p "$M/qqman1"
for i in $(seq 100 299); do printf x >"$M/qqman1/f$i"; done
"$ix" update -q many.db "$M"
printf x >"$M/zz-qqman"
"$ix" update -q many.db
sqlite3 many.db "DELETE FROM entries WHERE name = CAST('zz-qqman' AS BLOB);
  UPDATE meta SET value = value - 1 WHERE key = 'entries'"
if "$ix" find many.db qqman >many.out 2>many.err && [ ! -s many.err ] &&
  [ "$(sort many.out)" = "$(find "$M/qqman1" | sort)" ]; then
  ok "find: a piece naming large directories scans before reading their entries"
else bad "find: read the candidates of a piece naming large directories ($(head -c 300 many.err))"; fi

# -i in a single-byte locale folds as tolower() there, as fnmatch and regcomp do, so plocate
# (a copy without its setgid bit, which makes glibc ignore LOCPATH) and frdindex agree in
# ISO-8859-9's Turkish locale: I folds to dotless i (0xFD), I with a dot (0xDD) to i, so
# neither i nor I may stand for itself in a looked-up run; bytes above 0x7f fold too.
T=$tmp/tr
mkdir -p "$T/locales" "$T/tree/Kilim" "$T/tree/"$'\xddzmir'
if localedef -i tr_TR -f ISO-8859-9 "$T/locales/tr_TR.ISO-8859-9" >/dev/null 2>&1; then
  for name in istanbul Istanbul $'\xddstanbul' $'\xfdstanbul' ISTANBUL kilim.txt KILIM.TXT \
    $'k\xfdl\xfdm' $'\xc7ay' $'\xe7ay' $'\xd6zel' $'\xf6zel' $'\xdeeker' $'\xfeeker' $'\xd0\xfcl' \
    $'\xf0\xdcL' izmir.txt; do
    printf x >"$T/tree/$name"
    printf x >"$T/tree/Kilim/$name"
  done
  printf x >"$T/tree/"$'\xddzmir'/plain
  chmod -R a+rX "$T"
  cp /usr/bin/plocate "$T/plocate" && chmod 755 "$T/plocate"
  "$ix" update -q -m 644 "$T/q.db" "$T/tree"
  updatedb.plocate -o "$T/p.db" -U "$T/tree" -l yes --prunepaths= --prunefs= --prunenames=
  chmod 644 "$T/p.db"
  failed=0 cases=0
  for user in "${users[@]}"; do
    as=()
    [ "$user" = nobody ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    for pattern in istanbul ISTANBUL Istanbul stanbul kilim KILIM Kil 'kil.m' '*ILI*' izmir \
      IZMIR zmir $'\xe7ay' $'\xc7AY' $'\xf6zel' $'\xdeEKER' $'\xf0\xfcl' $'\xfdstan' \
      $'\xddSTAN' '[i]stanbul' '*/kilim/*'; do
      for opts in -i '-i -b' '-i -c' '-r -i' '--regex -i -b'; do
        # shellcheck disable=SC2086
        want=$(LOCPATH=$T/locales LC_ALL=tr_TR.ISO-8859-9 "${as[@]}" "$T/plocate" -d "$T/p.db" \
          $opts -- "$pattern" 2>/dev/null | sort; echo "exit ${PIPESTATUS[0]}")
        # shellcheck disable=SC2086
        got=$(LOCPATH=$T/locales LC_ALL=tr_TR.ISO-8859-9 "${as[@]}" "$ix" find $opts "$T/q.db" \
          "$pattern" 2>/dev/null | sort; echo "exit ${PIPESTATUS[0]}")
        cases=$((cases + 1))
        if [ "$got" != "$want" ]; then
          failed=$((failed + 1))
          [ $failed -le 8 ] && printf '     tr_TR.ISO-8859-9: %q %s (%s): %s\n' "$pattern" "$opts" \
            "$user" "$(diff <(echo "$want") <(echo "$got") | head -4 | tr '\n' ' ')"
        fi
      done
    done
  done
  # Not vacuous: plocate folds the dotted capital I to i there.
  if [ "$(LOCPATH=$T/locales LC_ALL=tr_TR.ISO-8859-9 "$T/plocate" -d "$T/p.db" -i -c istanbul)" -lt 4 ]; then
    bad "tr_TR.ISO-8859-9: plocate -i does not fold as the test expects"
  elif [ $failed -eq 0 ]; then ok "tr_TR.ISO-8859-9: $cases -i queries answer as plocate answers"
  else bad "tr_TR.ISO-8859-9: $failed of $cases -i queries differ from plocate"; fi
else
  echo "skip: localedef cannot build tr_TR.ISO-8859-9 (Debian's locales)"
fi

# A query takes SQLite's shared lock twice (its open checks, its read), not per statement.
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
  # (LeakSanitizer does not run under ptrace.)
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -e trace=fcntl -o locks.txt "$ix" find -l 10 q.db zzzznotfound >/dev/null 2>&1 || true
  n=$(grep -c 'F_RDLCK, l_whence=SEEK_SET, l_start=1073741824' locks.txt || true)
  if [ "$n" -le 2 ]; then ok "a query takes the database's shared lock $n times"
  else bad "a query takes the database's shared lock $n times (2 expected)"; fi
fi

# The lists follow an update: a directory renamed to and from a matching name, names
# removed and added.
mv "$R/alpha.d" "$R/omega.d"
mv "$R/x" "$R/alphax"
rm "$R/Alpha/sub/passwd" "$R/ALPHAbet/inner/"*.png
# A directory moved below one made after it (the candidates of -l are merged in rowid order
# from the lists and the ranges of the directories among them).
mv "$R/ALPHAbet" "$R/deep/a/b/ALPHAbet"
printf x >"$R/Alpha/sub/new-alpha-file"
printf x >"$R/deep/passwd.alpha"
index
check "after an update"
cli_end
