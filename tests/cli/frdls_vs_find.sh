#!/usr/bin/env bash
# frdls agrees field for field with GNU find on directories: for each directory, the
# sorted lines "type size mtime_ns ctime_ns inode name" from `frdls DIR` equal those from
# `find DIR -mindepth 1 -maxdepth 1 -printf` (times converted to integer nanoseconds), and
# `frdls -n` equals find's "type name". Also checks the errors for bad paths. The directories
# are the given ones, else four of the u-boot tree (tests/data); plus a generated one.
# Usage: tests/cli/frdls_vs_find.sh PATH/TO/frdls [DIR...]
set -euo pipefail
frdls=$1
shift
dirs=("$@")
data=$(realpath "$(dirname "$0")/../data")

# find prints %T@ as seconds.fraction with 10 fractional digits: turn it into integer ns.
to_ns='BEGIN { FS = OFS = "\t" }
function ns(t,  s, f) { s = t; f = ""; if (index(t, ".")) { s = substr(t, 1, index(t, ".") - 1); f = substr(t, index(t, ".") + 1) }
  f = substr(f "000000000", 1, 9); return (s f) + 0 == 0 ? "0" : sprintf("%s%s", s, f) }
NF < 6 { print; next }
{ $3 = ns($3); $4 = ns($4); sub(/^0+/, "", $3); sub(/^0+/, "", $4); if ($3 == "") $3 = 0; if ($4 == "") $4 = 0; print }'

tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp"; rm -rf "$tmp"' EXIT

if [ ${#dirs[@]} -eq 0 ]; then
  python3 "$data/materialize-tree" "$data/u-boot.tsv.gz" "$tmp/u-boot" >/dev/null
  dirs=("$tmp/u-boot" "$tmp/u-boot/arch/arm/dts" "$tmp/u-boot/include" "$tmp/u-boot/drivers")
fi

# A generated directory with every file type and odd names.
odd="$tmp/odd"
mkdir "$odd" "$odd/sub dir"
printf 'data' >"$odd/plain"
printf 'x' >"$odd/$(printf 'bad\377utf8')"
printf 'x' >"$odd/$(printf 'new\nline')"
printf 'x' >"$odd/tab	and space"
ln -s plain "$odd/link" && ln -s /nonexistent "$odd/dangling"
mkfifo "$odd/fifo"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$odd/sock"
dirs+=("$odd")
fail=0
pass=0
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || { echo "skip: $dir is not here"; continue; }
  # Both sides print names as raw bytes and end records with a newline, so a name with a
  # newline splits the same way on both sides and the sorted lines still compare.
  find "$dir" -mindepth 1 -maxdepth 1 -printf '%y\t%s\t%T@\t%C@\t%i\t%f\n' |
    LC_ALL=C awk "$to_ns" | LC_ALL=C sort >"$tmp/find"
  "$frdls" "$dir" | LC_ALL=C sort >"$tmp/frd"
  if cmp -s "$tmp/find" "$tmp/frd"; then
    pass=$((pass + 1)); echo "ok: frdls $dir matches find ($(wc -l <"$tmp/frd") entries)"
  else
    fail=$((fail + 1)); echo "FAIL: frdls $dir differs from find:"; diff "$tmp/find" "$tmp/frd" | head -10
  fi
  find "$dir" -mindepth 1 -maxdepth 1 -printf '%y\t%f\n' | LC_ALL=C sort >"$tmp/find-n"
  "$frdls" -n "$dir" | LC_ALL=C sort >"$tmp/frd-n"
  if cmp -s "$tmp/find-n" "$tmp/frd-n"; then
    pass=$((pass + 1)); echo "ok: frdls -n $dir matches find"
  else
    fail=$((fail + 1)); echo "FAIL: frdls -n $dir differs from find:"; diff "$tmp/find-n" "$tmp/frd-n" | head -10
  fi
done

# Errors: ls's words on stderr ("cannot open directory 'X': ERROR") and a non-zero exit.
check_error() {
  local path=$1 want=$2
  if "$frdls" "$path" >/dev/null 2>"$tmp/err"; then
    fail=$((fail + 1)); echo "FAIL: frdls $path exited 0"
  elif grep -q "$want" "$tmp/err"; then
    pass=$((pass + 1)); echo "ok: frdls $path fails with '$want'"
  else
    fail=$((fail + 1)); echo "FAIL: frdls $path said: $(cat "$tmp/err")"
  fi
}
check_error /nonexistent/frd "^frdls: cannot open directory '/nonexistent/frd': No such file or directory$"
check_error /etc/hostname "^frdls: cannot open directory '/etc/hostname': Not a directory$"
mkdir "$tmp/locked" && chmod 000 "$tmp/locked"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  chmod 755 "$tmp"
  if setpriv --reuid=65534 --regid=65534 --clear-groups "$frdls" "$tmp/locked" >/dev/null 2>"$tmp/err"; then
    fail=$((fail + 1)); echo "FAIL: unreadable directory listed"
  elif grep -q "^frdls: cannot open directory '$tmp/locked': Permission denied$" "$tmp/err"; then
    pass=$((pass + 1)); echo "ok: frdls on an unreadable directory fails with 'Permission denied'"
  else
    fail=$((fail + 1)); echo "FAIL: unreadable directory said: $(cat "$tmp/err")"
  fi
else
  check_error "$tmp/locked" "^frdls: cannot open directory '$tmp/locked': Permission denied$"
fi
chmod 755 "$tmp/locked"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
