#!/usr/bin/env bash
# frddu is GNU du 9.1 for every option and message: each case runs `du ARGS` and frddu (by
# a link named `du`, so its messages say `du:` as du's do) on the same generated tree, as
# root and again as uid 65534, and compares stderr byte for byte, the exit status, and
# stdout byte for byte once its records are sorted (frddu finishes sibling directories in
# any order; the records themselves, sizes, times and names, must be identical).
# Cases: usage errors and their wording, -B in all its forms (and DU_BLOCK_SIZE,
# BLOCK_SIZE, POSIXLY_CORRECT), -k -m -h --si -b --apparent-size, -t (negative too),
# --time with every WORD and style (and TIME_STYLE), --inodes, -0, -l, -P -H -D -L,
# --files0-from, -S, -c, -a, -s, -d, -x, --exclude and -X (applied before the stat: an
# excluded unreadable entry is no error), odd names quoted as du quotes them, in the C
# and the C.UTF-8 locale; -j 8 and -j 32 under a limit of threads or address space.
# Usage: tests/cli/frddu_options.sh PATH/TO/frddu PATH/TO/path_order
set -euo pipefail
frddu=$(realpath "$1")
path_order=$(realpath "$2")
export LC_ALL=C
# shellcheck source=lib.sh disable=SC2154
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
# A copy named du (messages say "du:"), in this 755 folder: the build may sit in a folder only
# root can search (a mktemp -d clone), which uid 65534 cannot exec from through setpriv.
mkdir bin && cp "$frddu" bin/du && chmod 755 bin/du

# --- the tree ---------------------------------------------------------------------------
mkdir -p t/a/b/c t/empty t/sizes "t/odd names" t/links t/x.d/sub
printf 'x' >t/a/one
head -c 5000 /dev/urandom >t/a/b/five-k
head -c 70000 /dev/urandom >t/a/b/c/seventy-k
printf 'o' >t/a/b/c/obj.o && printf 'o' >t/a/main.o && printf 'o' >t/x.d/sub/keep.o
for s in 0 1 1023 1024 1025 10239 10240 10241 1048575 1048576 1048577 1572864 10485759 \
  10485761 999999 1000000 1000001 1073741824 5000000000 1099511627776; do
  truncate -s $s t/sizes/s$s
done
head -c 100000 /dev/urandom >t/links/big
ln t/links/big t/links/big-again
ln -s big t/links/to-file
ln -s ../a t/links/to-dir
ln -s /nonexistent t/links/dangling
mkfifo t/a/fifo
printf 'y' >"t/odd names/$(printf 'new\nline')"
printf 'y' >"t/odd names/it's"
printf 'y' >"t/odd names/$(printf 'bad\377byte')"
printf 'y' >"t/odd names/ümlaut"
# Private parts, which uid 65534 cannot read (root can): an unreadable directory and one
# readable but not searchable (its entries cannot be stat'ed).
mkdir -p t/private/locked/in t/private/noexec
printf 'p' >t/private/locked/in/f && printf 'q' >t/private/noexec/f1
chmod 700 t/private/locked && chmod 744 t/private/noexec
# Times: fixed mtimes a second apart, atimes in the future so reading changes none.
i=0
while IFS= read -r -d '' p; do
  i=$((i + 1))
  touch -h -m -d "@$((1600000000 + i * 86401)).$((i * 7919 % 1000000000))" "$p"
done < <(find t -depth -print0)
find t -print0 | xargs -0 touch -h -a -d "@$(($(date +%s) + 7200))"
# Lists for -X and --files0-from.
printf '*.o\n\n  \nsub   \n' >excludes
printf 't/a\0t/sizes/s1\0' >list
printf 't/a\0\0missing\0t/a\0t/links' >list-bad
printf 't/sizes/s1024' >list-unterminated

cli_users

# Some 500 pairs of runs are compared, so a case spawns as few processes as it can: stdout
# is compared by one path_order, stderr with bash builtins (read); sort, cmp and wc run only
# to show a difference and for a file holding a NUL byte, which no bash variable can.

# slurp VAR FILE: FILE's bytes into VAR; fails, leaving FILE to cmp, if it holds a NUL byte.
slurp() { ! IFS= read -r -d '' "$1" <"$2"; }

# same_records A B [-z]: files A and B hold the same lines (with -z, NUL-terminated records),
# as often each, in any order (path_order same, tests/cli/path_order.c; a NUL byte in a line
# is compared too). records is set to A's count.
same_records() {
  local sep=$'\n'
  local -a a
  [ "${3-}" = -z ] && sep=''
  mapfile -t -d "$sep" a <"$1"
  records=${#a[@]}
  "$path_order" same ${3:+"$3"} "$1" "$2"
}

# same_errors: du.err and frd.err are identical, or, when du wrote several error lines, hold
# the same ones in another order (the walk's). error_lines is set to du.err's newline count.
same_errors() {
  # records is local: same_records counts du.err's lines here, check reports du.out's.
  local d f newlines records
  if slurp d du.err && slurp f frd.err; then
    newlines=${d//[!$'\n']/}
    error_lines=${#newlines}
    [ "$d" = "$f" ] && return
  else
    error_lines=$(wc -l <du.err) # a NUL byte
    cmp -s du.err frd.err && return
  fi
  [ "$error_lines" -gt 1 ] && same_records du.err frd.err
}

# check ARGS...: du ARGS and frddu-as-du ARGS agree, as every user.
# frd_extra=OPT check ARGS...: frddu gets OPT first (du does not).
# frd_limit=PRLIMIT-OPTION check ARGS...: frddu runs under `prlimit PRLIMIT-OPTION` (du not).
check() {
  local user du_rc sort_opt=() what="du $*${frd_extra:+ (frddu $frd_extra)}${frd_limit:+ (prlimit $frd_limit)}"
  [[ " $* " == *" -0 "* || " $* " == *" --null "* ]] && sort_opt=(-z)
  for user in "${users[@]}"; do
    run_as "$user" du du "$@"
    du_rc=$rc
    run_as "$user" frd ${frd_limit:+prlimit "$frd_limit" --} "$tmp/bin/du" \
      ${frd_extra:+"$frd_extra"} "$@"
    if ! same_records du.out frd.out "${sort_opt[@]}"; then
      bad "$what (as $user): stdout differs"
      sort "${sort_opt[@]}" du.out >du.sorted && sort "${sort_opt[@]}" frd.out >frd.sorted
      diff du.sorted frd.sorted | head -8 || true
      head -c 2000 frd.err
    elif ! same_errors; then
      bad "$what (as $user): stderr differs"; diff du.err frd.err | head -8 || true
    elif [ "$rc" != "$du_rc" ]; then
      bad "$what (as $user): exit $rc, du $du_rc"
    else
      ok "$what (as $user): $records records, $error_lines error lines, exit $du_rc"
    fi
  done
}

# --- usage errors and messages ----------------------------------------------------------
check -Z t
check --bogus t
check --a t
check --no-such=1 t
check -s -a t
check -d x t
check -d -1 t
check -d 1k t
check -d x -Z -s -a t
check --max-depth
check -d
check --exclude
check -s -d 1 t
check -s -d 0 t
check --inodes -b -s t
check --inodes --apparent-size -s t
check missing
check t/a missing t/sizes/s1
check ''
check t/a '' t/sizes/s1
# shellcheck disable=SC2016
check "$(printf 'new\nline')" "it's" 'a:b' 'sp ace' '$x' '~x' 'x~' '#a' 'a#' 'ümlaut' "$(printf 'bad\377byte')"
check -X missing-excludes t
check -X "$(printf 'odd\nname')" t
check -X "$(printf 'no-such-\303\274')" t # escaping the name keeps errno (ENOENT, not EILSEQ)
check --files0-from=missing
check --files0-from=list extra-operand
for b in 0 x 1X -1 '' 1R 1.5K 99999999999999999999 b B; do
  check -B "$b" t
done
check --block-size=1X t
check --block-size=99999999999999999999 t
for th in x 1X -0 99999999999999999999 1g 1B; do
  check -t "$th" t
done
check --threshold=1X t
check --time=bogus t
check --time=a t
check --time=mtime t
check --time-style=bogus --time t
check --time-style=f --time -s t
check --time-style=bogus -s t
# Output that cannot be written: du flushes each line, so into /dev/full it says "write
# error" with no reason (gone by the time it closes stdout), into a closed stdout it gives
# the close's EBADF; --version writes once at exit and keeps ENOSPC.
for args in "-a t" "-s t" "-0 -s t" "--version"; do
  for target in full closed; do
    # shellcheck disable=SC2086
    if [ $target = full ]; then
      want=$(du $args 2>&1 >/dev/full | sed 's/^du: //'; echo "exit ${PIPESTATUS[0]}")
      got=$("$tmp/bin/du" $args 2>&1 >/dev/full | sed 's/^du: //'; echo "exit ${PIPESTATUS[0]}")
    else
      want=$(du $args 2>&1 >&- | sed 's/^du: //'; echo "exit ${PIPESTATUS[0]}")
      got=$("$tmp/bin/du" $args 2>&1 >&- | sed 's/^du: //'; echo "exit ${PIPESTATUS[0]}")
    fi
    if [ "$want" = "$got" ]; then
      ok "du $args into $target stdout: ${want//$'\n'/, }"
    else
      bad "du $args into $target stdout: du '$want', frddu '$got'"
    fi
  done
done

# --- sizes ------------------------------------------------------------------------------
for opts in "" -a -s -b "-a -b" --apparent-size "-a --apparent-size" -k -m "-a -m" -h "-a -h" \
  --si "-a --si" "-a -h --apparent-size" "-a --si --apparent-size" -c "-c -a" "-c -s"; do
  # shellcheck disable=SC2086
  check $opts t
done
for b in K KiB KB 1K 1KB 1KiB human si human-readable h M MB MiB G 1 512 0x400 010 "'1K" k \
  2M 1MB " 1K" 3000 1E 1000; do
  check -a -B "$b" t
  check -s --apparent-size -B "$b" t
done
check -a -B K --si t
check -a --si -B K t
check -a -h -k t
check -a -b -h t
DU_BLOCK_SIZE=M check -a t
DU_BLOCK_SIZE=bogus check -a t
BLOCK_SIZE=KB check -a t
BLOCKSIZE=human check -s t
POSIXLY_CORRECT=1 check -a t
POSIXLY_CORRECT=1 check -a -k t

# --- threshold, inodes, -S, depth, links ------------------------------------------------
for th in 0 1 4096 5K 5k 70K -5K -1 -0x1000 1M 1MB -1KiB; do
  check -a -t "$th" t
done
check -a --apparent-size -t 1000 t
check --threshold=-8K t
check -a --inodes t
check --inodes t
check -s --inodes t
check -a --inodes -t 3 t
check -a --inodes -h t
check -c --inodes t/a t/links
check -S t
check -a -S t
check -s -S t
check -c -S t
check -S --inodes t
check -S -d 1 t
for d in 0 1 2 0x2 010 " 1" +1; do
  check -d "$d" t
  check -a --max-depth="$d" t
done
check -a -l t
check -a -x t
check -s -x -c t t/a
check -l -c t/a t/links
check -c t/a t/links t/a
check -a -0 t
check -0 -s t t/a
check --null -c t/sizes

# --- symbolic links ---------------------------------------------------------------------
for f in "" -P -H -D -L "-H -P" "-L -P"; do
  # shellcheck disable=SC2086
  check -a $f t/links
  # shellcheck disable=SC2086
  check -s $f t/links/to-dir t/links/to-file t/links/dangling
done
check -L -a t/links/dangling
check -H t/links/dangling

# --- times ------------------------------------------------------------------------------
for tw in "" =atime =access =use =ctime =status =at =s; do
  check -a "--time$tw" t
done
for style in full-iso long-iso iso +%s.%N '+%Y-%m-%d %3N %%N %H' + posix-iso; do
  check -a --time --time-style="$style" t
done
check -s --time -c t t/a
check -S --time t
check -a --time --time-style=full-iso -0 t
TIME_STYLE=full-iso check -s --time t
TIME_STYLE=posix-long-iso check -s --time t
TIME_STYLE='locale' check -s --time t
TIME_STYLE="$(printf '+%%Y\nsecond line')" check -s --time t
TIME_STYLE=bogus check -s --time t
TZ=Asia/Kolkata check -a --time --time-style=full-iso t/a
# The total's time starts at the epoch, as du's: a total of nothing, or of files all older
# than 1970, says 1970-01-01 (each directory's time is the latest inside it, however old;
# the first file a root argument is counted so that du's path quirk stays out: frddu.1).
mkdir -p t_old/d
printf x >t_old/d/f
printf x >t_old/f
touch -d '1960-01-01 00:00:00' t_old/d/f t_old/d t_old/f t_old
check -c --time --time-style=full-iso t_old/f t_old/d
check -c --time t_old/nosuch
TZ=UTC0 check -a --time --time-style=+%c t/a
# --time-style=+FORMAT as du writes it (gnulib's fprintftime, not strftime): every
# conversion under each flag, width and modifier, on dates at the edges of ISO weeks and
# years (1901 to 2262), in zones a minute and a second off the hour; widths of any size
# (%1000000Y: a million digits, not nothing); a TIME_STYLE longer than 4 KiB.
mkdir t_dates
for d in 1901-12-14 1969-12-31 1970-01-01 1999-01-03 2000-02-29 2004-12-31 2005-01-01 \
  2008-12-29 2010-01-03 2021-01-01 2024-12-30 2262-04-11; do
  for h in 00:00:07 11:59:59 12:30:00 23:05:09; do
    : >"t_dates/$d $h" && touch -m -d "$d $h.$RANDOM UTC" "t_dates/$d $h"
  done
done
touch -a -d "@$(($(date +%s) + 7200))" t_dates t_dates/*
convs=(a A b B c C d D e F g G h H I j k l m M n N p P q r R s S t T u U V w W x X y Y z :z ::z
  :::z ::::z Z % Q :)
for prefix in '' _ - 0 + ^ '#' 1 5 12 _5 -5 05 +6 ^5 '#5' E O 5E 5O _3O +E '^#'; do
  style=+
  for c in "${convs[@]}"; do style+="%$prefix$c|"; done
  check -a --time --time-style="$style" t_dates
done
for tz in '<+0130>-1:30:15' America/St_Johns Pacific/Chatham; do
  TZ=$tz check -a --time --time-style='+%z %:z %::z %:::z %Oz %_10z %-7::z %+4:::z %Z %#Z' t_dates
done
for style in '+%1000000Y' '+%20000N' '+%99999F' '+%_70000%' "+$(printf 'x%.0s' {1..5000})%4096s%"; do
  check -s --time --time-style="$style" t
done
TIME_STYLE="+$(printf 'x%.0s' {1..5000})%Y" check -s --time t

# --- excludes (before the stat: an excluded private entry is no error as uid 65534) -------
for ex in '*.o' sub 't/a' 'a/b' 'b/*' '*' 'private' 'locked' 'f1' '*e*' '[st]*' 'x.d' \
  'odd names' 't' 't/' '*/c/*' 's1*'; do
  check -a --exclude="$ex" t
done
check --exclude='*.o' --exclude=sizes -a t
check -X excludes -a t
check -X excludes --exclude=private -c t
check --exclude=a -a t/a t/links
check --exclude=links/big-again -a t/links
# The ordered walk tests the patterns in its visits (its children hook runs before the
# directory's visit): the same, quiet about excluded entries it could not stat. (Without
# links/big-again: du charges big's two links to the one its directory lists first.)
for ex in '*.o' 'b/*' 'private' 'locked' 'f1' '*e*' 'x.d' 't/'; do
  frd_extra=--sorted check -a --exclude="$ex" --exclude=big-again t
done
frd_extra=--sorted check -X excludes --exclude=private -c t

# --- --files0-from ----------------------------------------------------------------------
check --files0-from=list
check --files0-from=list -c -s
check --files0-from=list-bad
check --files0-from=list-unterminated -a
STDIN=list check --files0-from=-
printf 't/a\0-\0' >list-dash
STDIN=list-dash check --files0-from=-
check --files0-from=/dev/null -c
check --files0-from=t

# --- messages in their place: du's error() flushes stdout first, so on one pipe a message
# follows the lines before it. Roots whose lines come in a fixed order (a file, an empty
# directory, one du cannot read as uid 65534), both outputs on one pipe compared whole.
printf 't/a/one\0\0missing\0t/empty\0' >list-msgs
merged() { # ARGS...: du's and frddu's stdout and stderr on one pipe, as every user
  local user
  for user in "${users[@]}"; do
    run_as "$user" du bash -c '"$@" 2>&1' - du "$@"
    run_as "$user" frd bash -c '"$@" 2>&1' - "$tmp/bin/du" "$@"
    if grep -q '^du: ' du.out && cmp -s du.out frd.out; then
      ok "du $* (as $user), stdout and stderr on one pipe: the same"
    else
      bad "du $* (as $user), stdout and stderr on one pipe:"
      diff du.out frd.out | head -8 || true
    fi
  done
}
merged t/a/one t/private/locked t/empty missing t/sizes/s1
merged --files0-from=list-msgs
merged -a t/a/one t/private/noexec missing t/empty

# --- frddu's own options: -j takes the walker's range, 1 to 256 --------------------------
for j in 0 257 x -1 ''; do
  for opt in -j --jobs; do
    rc=0
    "$frddu" "$opt" "$j" -s t >out.txt 2>err.txt || rc=$?
    want="frddu: invalid thread count '$j' for $opt (from 1 to 256)"
    if [ "$rc" -eq 1 ] && [ ! -s out.txt ] && [ "$(<err.txt)" = "$want" ]; then
      ok "frddu $opt '$j': exit 1, $want"
    else
      bad "frddu $opt '$j': exit $rc, stderr: $(<err.txt)"
    fi
  done
done
"$frddu" -a t >j.want 2>/dev/null || true
for j in 1 2 256; do
  "$frddu" -j "$j" -a t >j.out 2>/dev/null || true
  if same_records j.out j.want && [ -s j.out ]; then ok "frddu -j $j: the same lines"; else bad "frddu -j $j differs"; fi
done

# --- --sorted: lines in one order on every run (the ordered walk: each directory's entries by
# name, a directory after its contents), and a hard link charged to its first link in it ----
for j in 1 2 8; do
  for r in 1 2; do
    "$frddu" -j "$j" -a --sorted t >"sorted-$j-$r.out" 2>/dev/null || true
  done
done
"$frddu" -a --sorted t >sorted.want 2>/dev/null || true
for j in 1 2 8; do
  for r in 1 2; do
    if cmp -s "sorted-$j-$r.out" sorted.want && [ -s sorted.want ]; then
      ok "frddu -j $j -a --sorted (run $r): the same lines, in the same order, as at the default -j"
    else
      bad "frddu -j $j -a --sorted (run $r): $(cmp "sorted-$j-$r.out" sorted.want 2>&1)"
    fi
  done
done
"$frddu" -s t >total.want 2>/dev/null || true
"$frddu" -s --sorted t >total.out 2>/dev/null || true
if cmp -s total.out total.want && [ -s total.want ]; then ok "frddu -s --sorted t: the total of frddu -s t"; else bad "frddu -s --sorted t: $(<total.out), not $(<total.want)"; fi
# Where du walks in name order too (its order is the directories' own: tmpfs lists the
# newest entry first, so a tree made in reverse name order lists by name), frddu --sorted is
# du byte for byte, also where the links of one file are in different directories (du
# charges it to the first link met: a/h, not c/4; b/h2, not a/x/2).
sorted_root=$(mktemp -d /dev/shm/frddu-sorted.XXXXXX 2>/dev/null) || sorted_root=$tmp/s
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp" "$sorted_root"' EXIT
mkdir -p "$sorted_root/o" && chmod 755 "$sorted_root" && cd "$sorted_root"
mkdir o/c o/b o/a o/a/x
head -c 5000 /dev/urandom >o/c/4 && head -c 9000 /dev/urandom >o/a/x/2
ln o/c/4 o/a/h && head -c 100 /dev/urandom >o/a/1
ln o/a/x/2 o/b/h2 && head -c 20000 /dev/urandom >o/b/3
by_name=true
for d in o o/a o/a/x o/b o/c; do
  [ "$(ls -U "$d")" = "$(ls "$d")" ] || by_name=false
done
if $by_name; then
  for args in "-a o" "o" "-a -b o" "-a --inodes o" "-c -a o/b o/a" "-a -l o" "-a -d1 o"; do
    for j in 1 2 8; do
      # shellcheck disable=SC2086 # args split on purpose
      run_as root du du $args
      # shellcheck disable=SC2086
      run_as root frd "$tmp/bin/du" -j "$j" --sorted $args
      if cmp -s du.out frd.out && cmp -s du.err frd.err && [ -s du.out ]; then
        ok "du $args, entries in name order: frddu -j $j --sorted is du byte for byte"
      else
        bad "du $args: frddu -j $j --sorted differs: $(diff du.out frd.out | tr '\n' ' ')"
      fi
    done
  done
else
  echo "note: $sorted_root lists entries in no name order: du's own order is not checked"
fi
cd "$tmp"

# --- --du-order: du's own order (each directory's, as it lists its entries; a batch of more
# than 10,000 sorted by inode number, each 100,000 on its own, but not on tmpfs): du's
# stdout and stderr byte for byte, as every user, also for big directories ----------------
mkdir -p t/big10k
(cd t/big10k && seq -f 'n%g' 1 10001 | xargs touch)
mkdir -p "$sorted_root/big"
(cd "$sorted_root/big" && seq -f 'n%g' 1 10002 | xargs touch)
big100k=$tmp/big100k
mkdir "$big100k" && (cd "$big100k" && seq -f 'entry-%g' 1 100123 | xargs touch)
exact() { same_bytes_as_users du "$tmp/bin/du" --du-order "$@"; }
exact -a t
exact t
exact -a -b -c t t/a
exact -a --inodes t
exact -a -l t
exact -d 1 -S t
exact -a --time t
exact -a -L t
exact -a -x t
exact -a --exclude='*.o' --exclude=private t
exact -a -X excludes t
exact -a -0 t
exact -a t/big10k
exact -a "$sorted_root/big"
exact -a "$big100k"
rm -rf t/big10k "$big100k"

# --- locale: names and arguments quoted as in a UTF-8 locale ------------------------------
export LC_ALL=C.UTF-8
check "$(printf 'new\nline')" "it's" 'ümlaut' "$(printf 'bad\377byte')"
check -d 'ü' t
# shellcheck disable=SC1112 # the closing quote ’ is the point
check -X 'no-such-ü’' t
check --time=bogus t
check -a -h t/sizes

# --- under a limit of threads (prlimit --nproc: uid 65534's processes; root is not held
# by it) or of address space (--as, where each thread's stack counts): the walk goes on with
# the threads it can start, du's output ("Resource temporarily unavailable" before). A
# sanitizer's process cannot run under --as, nor LeakSanitizer's exit check with no thread
# to spare: those cases are skipped there. --------------------------------------------------
limits=(--nproc=2 --nproc=3)
if grep -q __asan_init "$frddu"; then
  echo "skip: frddu under --nproc=1 and --as (a sanitizer's frddu cannot run so)"
else
  limits+=(--nproc=1 --as=$((20000 * 1024)) --as=$((40000 * 1024)))
fi
# "nobody" is a uid no other test runs as here: --nproc counts the uid's processes on the
# whole machine, and tests run side by side as 65534 (LeakSanitizer's exit check, which
# needs a thread, then failed in CI).
for lim in "${limits[@]}"; do
  for j in "" --jobs=8 --jobs=32; do
    NOBODY_UID=64103 frd_limit=$lim frd_extra=$j check -a t
  done
  NOBODY_UID=64103 frd_limit=$lim frd_extra=--jobs=8 check -s -L t t/a
done

# --- the locale's digits: "'" in -B (and BLOCK_SIZE) groups them with its thousands
# separator (1,234 in en_US, 1.234 in de_DE, a narrow no-break space in fr_FR, U+066C in
# ps_AF), -h writes its decimal point; %c %B %p its names. Locales built here by localedef
# (Debian's locales package has their sources); C and C.UTF-8 group nothing. -----------
mkdir locales
built=()
for loc in en_US de_DE fr_FR ps_AF; do
  if localedef -i "$loc" -f UTF-8 "locales/$loc.utf8" >/dev/null 2>&1; then built+=("$loc"); fi
done
if [ ${#built[@]} -eq 4 ]; then
  # (2>/dev/null: bash itself, which read no LOCPATH at its start, warns that it cannot
  # take the locale; the tools can. No -c: du's "total" is translated where coreutils'
  # translations are installed, frddu's is not: frddu.1.)
  export LOCPATH=$tmp/locales
  for loc in "${built[@]}"; do
    for b in "'1" "'1K" "'h" "'si" "'KiB" "'512"; do
      LC_ALL=$loc.utf8 check -a --apparent-size -B "$b" t/sizes t/a
    done
    LC_ALL=$loc.utf8 BLOCK_SIZE="'1" check -a -b t/a
    LC_ALL=$loc.utf8 check -a --apparent-size -h t/sizes
    LC_ALL=$loc.utf8 check -a --time --time-style='+%c|%^B|%#b|%p|%r|%x|%X|%Ec|%Oe|%20A' t_dates
  done 2>/dev/null
  unset LOCPATH
else
  bad "localedef built ${built[*]-no locale} of en_US de_DE fr_FR ps_AF (needs Debian's locales)"
fi

cli_end
