#!/usr/bin/env bash
# frddu prints what GNU du prints: for each option set, the sorted output of `frddu OPTS
# ROOT` equals that of `du OPTS ROOT`, and so does the exit status, on generated trees (sizes
# sparse and dense, hard links, symlinks, odd names, an unreadable directory, a mount point
# for -x) and on the u-boot tree (tests/data). Also: lines come in post-order (a
# directory after everything below it), and the progress line shows on a terminal only.
# Usage: tests/cli/frddu_vs_du.sh PATH/TO/frddu
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cli_own_mounts "$0" "$@" # the tmpfs of the -x case: in a mount namespace of its own
frddu=$(realpath "$1")
data=$(realpath "$(dirname "$0")/../data")
export LC_ALL=C

tmp=$(mktemp -d)
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  chmod -R u+rwx "$tmp" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
chmod 755 "$tmp"
cd "$tmp"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# compare OPTS... -- ROOT...: same sorted stdout (NUL-separated with -0) and exit status.
compare() {
  local opts=() roots=() sort_opt=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  roots=("$@")
  [[ " ${opts[*]-} " == *" -0 "* ]] && sort_opt=(-z)
  local du_rc=0 frd_rc=0
  du ${opts[@]+"${opts[@]}"} "${roots[@]}" 2>/dev/null | sort "${sort_opt[@]}" >du.out || du_rc=$?
  du ${opts[@]+"${opts[@]}"} "${roots[@]}" >/dev/null 2>&1 || du_rc=$?
  "$frddu" ${opts[@]+"${opts[@]}"} "${roots[@]}" 2>/dev/null | sort "${sort_opt[@]}" >frd.out || true
  "$frddu" ${opts[@]+"${opts[@]}"} "${roots[@]}" >/dev/null 2>&1 || frd_rc=$?
  local what="frddu ${opts[*]-} ${roots[*]}"
  if ! cmp -s du.out frd.out; then
    bad "$what differs from du ($(wc -l <du.out) lines):"
    diff du.out frd.out | head -10 || true
  elif [ "$du_rc" -ne "$frd_rc" ]; then
    bad "$what exits $frd_rc, du $du_rc"
  else
    ok "$what ($(tr -cd '\n\0' <du.out | wc -c) lines)"
  fi
}

# --- a generated tree -------------------------------------------------------------------
t=gen
mkdir -p $t/a/b/c/d/e $t/empty $t/sparse "$t/odd names/sub dir" $t/links
printf 'x' >$t/a/one
head -c 5000 /dev/urandom >$t/a/b/five-k
head -c 70000 /dev/urandom >$t/a/b/c/seventy-k
head -c 1 /dev/urandom >$t/a/b/c/d/e/deep
for s in 0 1 512 1023 1024 1025 4095 4096 4097 10239 10240 10241 1048575 1048576 1048577 \
  1572864 10485759 10485761 1073741824 5000000000; do
  truncate -s $s $t/sparse/s$s
done
head -c 100000 /dev/urandom >$t/links/big
ln $t/links/big $t/links/big-again          # hard links in one directory: counted once
ln $t/links/big $t/links/big-third
ln -s big $t/links/to-file
ln -s ../a $t/links/to-dir
ln -s /nonexistent $t/links/dangling
mkfifo $t/a/fifo
printf 'y' >"$t/odd names/sub dir/$(printf 'tab\there')"
printf 'y' >"$t/odd names/$(printf 'bad\377byte')"
printf 'y' >"$t/odd names/$(printf 'new\nline')"

for opts in "" "-a" "-s" "--apparent-size" "-a --apparent-size" "-b" "-a -b" "-h" "-a -h" \
  "-a --si" "-k" "-m" "-a -m" "-d 0" "-d 1" "-a -d 2" "-c" "-a -l" "-b -l" "-x" "-a -x" \
  "-0 -a" "-D" "-a -P"; do
  # shellcheck disable=SC2086
  compare $opts -- $t
done
compare -L -a -- $t/a $t/sparse           # -L where no target is reached twice
mkdir -p loops/a/b && ln -s ../.. loops/a/b/up && ln -s ../a loops/a/self && printf 'l' >loops/a/f
compare -L -a -- loops                    # links back up: skipped silently, as du does
ln -s itself loops/itself
compare -L -a -- loops                    # a link to itself: an error, exit 1
compare -a -- $t/ "$t/odd names"          # a trailing slash and several roots
compare -a -- $t//                        # two trailing slashes print as one
compare -- $t/a/one $t/sparse/s4097       # files as roots
compare -c -- $t/a $t/links $t/a          # a root given twice counts once
compare -- $t/nonexistent $t/a            # a missing root: error, exit 1, the rest printed
compare -s -- $t/links/to-dir             # a symlink root is not followed by default
compare -s -H -- $t/links/to-dir          # ... but with -H

# Hard links in different directories: which directory du charges depends on its readdir
# order, and frddu's on which worker gets there first, so only the totals are compared.
mkdir -p xlinks/p xlinks/q
head -c 30000 /dev/urandom >xlinks/p/f
ln xlinks/p/f xlinks/q/g
for opts in "-s" "-s -b" "-s -h" "-s -l"; do
  # shellcheck disable=SC2086
  compare $opts -- xlinks
done
compare -c -s -- xlinks/p xlinks/q        # several roots: the first root pays, as in du

# An unreadable directory: du and frddu both report it, count its own size, exit 1.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  mkdir -p locked/in/deeper && printf 'z' >locked/in/file && chmod 700 locked/in
  chown -R 65534:65534 locked && chown root:root locked/in && chmod 755 locked "$tmp"
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  as_nobody du -a locked 2>/dev/null | sort >du.out || true
  as_nobody "$frddu" -a locked 2>/dev/null | sort >frd.out || true
  du_rc=0; as_nobody du -a locked >/dev/null 2>&1 || du_rc=$?
  frd_rc=0; as_nobody "$frddu" -a locked >/dev/null 2>frd.err || frd_rc=$?
  if cmp -s du.out frd.out && [ "$du_rc" -eq "$frd_rc" ] && grep -q "cannot read directory" frd.err; then
    ok "unreadable directory: same totals, exit $frd_rc, an error message"
  else
    bad "unreadable directory: exit $frd_rc (du $du_rc)"; diff du.out frd.out | head || true; cat frd.err
  fi
else
  echo "skip: unreadable directory (needs root and setpriv)"
fi

# One message per failure, in du's words: as uid 65534, on a tree with an unreadable
# directory and one readable but not searchable (0444, whose entries cannot be stat'ed),
# stdout, stderr (the lines sorted: both tools meet the failures in their own order, with
# "frddu:" read as "du:") and the exit status are the same as du's.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  mkdir -p perm/locked/in/deeper perm/noexec/sub perm/ok "perm/odd name"
  printf 'a' >perm/locked/in/f && printf 'b' >perm/noexec/f1 && printf 'c' >perm/noexec/f2
  printf 'd' >perm/ok/f && printf 'e' >"perm/odd name/g"
  chown -R 65534:65534 perm && chown root:root perm/locked/in perm/noexec "perm/odd name"
  chmod 700 perm/locked/in && chmod 0444 perm/noexec && chmod 0711 "perm/odd name"
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  for opts in "" "-a" "-s" "-d 1" "-c -a" "-b -a"; do
    du_rc=0; frd_rc=0
    # shellcheck disable=SC2086
    as_nobody du $opts perm perm/nonexistent >du.out 2>du.err || du_rc=$?
    # shellcheck disable=SC2086
    as_nobody "$frddu" $opts perm perm/nonexistent >frd.out 2>frd.err || frd_rc=$?
    sort du.out >du.sorted && sort frd.out >frd.sorted
    sort du.err >du.esorted && sed 's/^frddu: /du: /' frd.err | sort >frd.esorted
    what="as uid 65534: frddu $opts perm perm/nonexistent"
    if ! cmp -s du.sorted frd.sorted; then
      bad "$what: stdout differs"; diff du.sorted frd.sorted | head || true
    elif ! cmp -s du.esorted frd.esorted; then
      bad "$what: stderr differs"; diff du.esorted frd.esorted | head || true
    elif [ "$du_rc" -ne "$frd_rc" ]; then
      bad "$what exits $frd_rc, du $du_rc"
    else
      ok "$what: same stdout, the same $(wc -l <du.err) error lines, exit $frd_rc"
    fi
  done
else
  echo "skip: error messages as uid 65534 (needs root and setpriv)"
fi

# Links crossed one a level (as coreutils' tests/du/long-sloop.sh has them): 1/s -> ../2,
# 2/s -> ../3, ... 400/s -> ../401 (a file), so 1/s/s/.../s crosses a link per level. du -L
# stats the whole path and the kernel fails it at the 41st link: "cannot access" with
# ELOOP's text, the 41 lines above it, exit 1. frddu -L reaches each level by descriptor,
# and must stop there too. Also two links at once (nest/30/t -> u -> ../31), links to files
# and dangling links near the limit, a root given 10 links down. --du-order: stdout, stderr
# ("frddu:" read as "du:") and the status byte for byte; frddu's own order: the same sorted
# (but for the root nest, whose levels are met twice, by their own names and through links:
# which of them is counted, once, depends on the order). As root, and as uid 65534.
mkdir sloop nest
for i in $(seq 1 400); do mkdir sloop/$i && ln -s ../$((i + 1)) sloop/$i/s; done
printf 'foo\n' >sloop/401
for i in $(seq 1 45); do
  mkdir nest/$i && ln -s ../$((i + 1)) nest/$i/s && printf 'x' >nest/$i/f
  ln -s f nest/$i/fl && ln -s nowhere nest/$i/dang
done
mkdir nest/46 && ln -s u nest/30/t && ln -s ../31 nest/30/u
chmod -R go+rX sloop nest
sloop_users=(root)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then sloop_users+=(nobody); fi
for user in "${sloop_users[@]}"; do
  as=()
  [ "$user" = nobody ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  for args in "-L sloop/1" "-L -a sloop/1" "-L -s sloop/1" "-L -c sloop/1/s/s/s/s/s/s/s/s/s/s" \
    "-L -a nest/1" "-L -a nest/1/s/s/s/s/s/s/s/s/s/s" "-L -S nest/1" "-L -a nest" "-P -a sloop/1" \
    "-H -s sloop/1/s/s"; do
    frd_rc=0; own_rc=0
    # shellcheck disable=SC2086
    "${as[@]}" "$frddu" --du-order $args >frd.out 2>frd.err || frd_rc=$?
    sed -i 's/^frddu: /du: /' frd.err
    # shellcheck disable=SC2086
    "${as[@]}" "$frddu" $args >own.out 2>own.err || own_rc=$?
    sed -i 's/^frddu: /du: /' own.err
    # du's stat of a whole path can fail early, never late, when the kernel restarts the
    # lookup (a mount elsewhere, as other tests make); frddu asks again before it believes
    # ELOOP, and du is run again while it differs.
    for try in 1 2 3 4 5 6 7 8 9 10; do
      du_rc=0
      # shellcheck disable=SC2086
      "${as[@]}" du $args >du.out 2>du.err || du_rc=$?
      if cmp -s du.out frd.out && cmp -s du.err frd.err && [ $du_rc -eq $frd_rc ]; then break; fi
    done
    what="as $user: frddu $args"
    if ! cmp -s du.out frd.out || ! cmp -s du.err frd.err || [ $du_rc -ne $frd_rc ]; then
      bad "$what --du-order: exit $frd_rc, du $du_rc"
      diff du.out frd.out | head -4 || true
      diff du.err frd.err | head -4 || true
    elif [ "$args" != "-L -a nest" ] && { ! cmp -s <(sort du.out) <(sort own.out) ||
      ! cmp -s <(sort du.err) <(sort own.err) || [ $du_rc -ne $own_rc ]; }; then
      bad "$what: exit $own_rc, du $du_rc"
      diff <(sort du.out) <(sort own.out) | head -4 || true
      diff <(sort du.err) <(sort own.err) | head -4 || true
    else
      ok "$what: as du ($(wc -l <du.out) lines, $(wc -l <du.err) errors, exit $du_rc)"
    fi
  done
done

# -x: a file system mounted inside the tree is left out entirely, mount point included.
mkdir -p mnt/outer mnt/inner
printf 'o' >mnt/outer/file
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=4m frd-test mnt/inner 2>/dev/null; then
  mounted=$tmp/mnt/inner
  mkdir mnt/inner/sub && head -c 9000 /dev/urandom >mnt/inner/sub/data
  compare -a -- mnt
  compare -a -x -- mnt
  compare -s -x -- mnt
  compare -x -- mnt/inner                # a root on another file system is still walked
  umount mnt/inner && mounted=""
else
  echo "skip: -x with a mount point (cannot mount tmpfs here)"
fi

# Post-order: every line comes after the lines of everything below it.
"$frddu" -a $t >order.out 2>/dev/null || true
if python3 - order.out <<'PY'
import sys
paths = [l.split(b"\t", 1)[1] for l in open(sys.argv[1], "rb").read().split(b"\n") if b"\t" in l]
seen = set()
for p in paths:
    seen.add(p)
    parent = p.rsplit(b"/", 1)[0]
    if parent in seen and parent != p:
        sys.exit(f"{parent!r} printed before {p!r}")
PY
then ok "frddu -a prints in post-order"; else bad "frddu -a is not in post-order"; fi

# --top N: the N largest lines of the same output, largest first.
"$frddu" -a $t 2>/dev/null | sort -t$'\t' -k1,1nr -k2 | head -5 >top.want
"$frddu" -a --top 5 $t >top.got 2>/dev/null || true
if cmp -s top.want top.got; then ok "--top 5 lists the five largest"; else bad "--top 5:"; diff top.want top.got || true; fi

# --- the u-boot tree --------------------------------------------------------------------
if [ -f "$data/u-boot.tsv.gz" ]; then
  python3 "$data/materialize-tree" "$data/u-boot.tsv.gz" uboot >/dev/null
  for opts in "" "-a" "-s" "-a --apparent-size" "-a -b" "-a -h" "-d 2" "-x" "-L -s" "-c -s"; do
    # shellcheck disable=SC2086
    compare $opts -- uboot
  done

  # Progress: nothing on stderr when it is not a terminal, even with no delay...
  FRDDU_PROGRESS_DELAY_MS=0 FRDDU_PROGRESS_INTERVAL_MS=1 "$frddu" -s uboot >plain.out 2>plain.err
  if [ ! -s plain.err ]; then ok "no progress line when stderr is not a terminal"
  else bad "progress written to a non-terminal stderr: $(head -c 200 plain.err | od -c | head -3)"; fi
  # ...and on a terminal, a progress line that is erased at the end, stdout unchanged.
  if python3 - "$frddu" uboot <<'PY'
import os, pty, sys
frddu, root = sys.argv[1], sys.argv[2]
env = dict(os.environ, FRDDU_PROGRESS_DELAY_MS="0", FRDDU_PROGRESS_INTERVAL_MS="1")
master, slave = pty.openpty()
out_r, out_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.dup2(out_w, 1)
    os.dup2(slave, 2)
    os.execve(frddu, [frddu, "-a", root], env)
os.close(slave); os.close(out_w)
stdout, tty = b"", b""
import select
fds = [master, out_r]
while fds:
    for fd in select.select(fds, [], [])[0]:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            fds.remove(fd)
        elif fd == master:
            tty += data
        else:
            stdout += data
_, status = os.waitpid(pid, 0)
if status != 0:
    sys.exit(f"frddu exited with {status}")
if b"entries" not in tty or b"entries/s" not in tty:
    sys.exit(f"no progress line on the terminal: {tty[:200]!r}")
if not tty.endswith(b"\r\x1b[K"):
    sys.exit(f"progress line not erased at the end: {tty[-80:]!r}")
lines = stdout.count(b"\n")
if lines != 41566:
    sys.exit(f"stdout has {lines} lines, not 41566")
PY
  then ok "progress line on a terminal, erased at the end"; else bad "progress line on a terminal"; fi
else
  bad "no u-boot listing in $data"
fi

# The progress line cuts long paths on UTF-8 character boundaries: on a 100-column terminal,
# a walk of directories with long names of two- and three-byte characters draws lines that
# are all valid UTF-8.
mkdir -p utf8
for i in $(seq 1 60); do
  for j in 1 2 3; do
    d="utf8/$(printf 'é%.0s' $(seq 1 $((30 + i % 7))))$i/$(printf '€%.0s' $(seq 1 $((20 + j))))$j"
    mkdir -p "$d/$(printf 'ü%.0s' $(seq 1 40))"
    for k in $(seq 1 20); do : >"$d/f$k"; done
  done
done
if python3 - "$frddu" utf8 <<'PY'
import fcntl, os, pty, re, select, struct, sys, termios
frddu, root = sys.argv[1], sys.argv[2]
env = dict(os.environ, FRDDU_PROGRESS_DELAY_MS="0", FRDDU_PROGRESS_INTERVAL_MS="1")
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
tty = b""
for run in range(20):  # a walk this small draws only a few lines: walk it until some show
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        os.dup2(slave, 2)
        os.execve(frddu, [frddu, "-j", "1", root], env)
    os.waitpid(pid, 0)
    while select.select([master], [], [], 0.05)[0]:
        tty += os.read(master, 65536)
    if tty.count(b"entries/s") >= 3:
        break
lines = [l for l in tty.split(b"\r\x1b[K") if l]
if not lines:
    sys.exit("no progress line drawn")
for l in lines:
    try:
        l.decode("utf-8")
    except UnicodeDecodeError as e:
        sys.exit(f"a progress line is not valid UTF-8: {l!r} ({e})")
cut = [l for l in lines if b"..." in l]
print(f"{len(lines)} progress lines, {len(cut)} cut, all valid UTF-8")
PY
then ok "progress line: long UTF-8 paths cut on character boundaries"
else bad "progress line: long UTF-8 paths"; fi

# --- errors and help --------------------------------------------------------------------
if "$frddu" --help | grep -q -- "--apparent-size"; then ok "--help"; else bad "--help"; fi
if "$frddu" -s -a $t >/dev/null 2>&1; then bad "-s -a accepted"; else ok "-s -a refused"; fi
if "$frddu" --top 0 $t >/dev/null 2>&1; then bad "--top 0 accepted"; else ok "--top 0 refused"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
