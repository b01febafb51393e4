#!/usr/bin/env bash
# examples/backup_scan --snapshot, the incremental scanner: its snapshot of a tree (names of
# any bytes, hard-link groups across directories, symlinks, user xattrs and an ACL) equals
# what this script computes with find, readlink and getfattr; after changes (content, mode,
# owner, xattr, a new link, a rename, a removal, an addition) its diff equals the one
# computed from the two expected snapshots; an unreadable root-owned 000 directory walked as
# uid 65534 is listed at the end with exit 1; stdout on /dev/full and a full disk (a small
# tmpfs, as root) fail with a message and leave the previous snapshot as it was.
# Usage: tests/cli/backup_scan_snapshot.sh PATH/TO/backup_scan
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cli_own_mounts "$0" "$@"
src=$(realpath "$1")
export LC_ALL=C
cli_begin
chmod 755 "$tmp"
# A copy the test's own, so that uid 65534 can run it (CI clones into a 0700 folder).
cp "$src" ./backup_scan && chmod 755 ./backup_scan
scan=$tmp/backup_scan

t=tree
mkdir -p $t/a/deep $t/b $t/c "$t/odd dir" $t/a-b/x
printf 'one' >$t/a/f && printf 'two2' >$t/a/g && printf '' >$t/c/empty && printf 'q' >$t/a-b/x/q
printf 'x' >"$t/odd dir/new
line" && printf 'y' >"$t/odd dir/tab	eq=,\\" && printf 'z' >"$t/odd dir/$(printf 'bad\377utf')"
ln $t/a/f $t/b/f-link && ln $t/a/f $t/c/z-link && ln $t/a/g $t/a/deep/g2
ln -s ../a/f $t/b/sym && ln -s "/no/such/$(printf 'target\twith tab')" $t/c/dangling
mkfifo $t/c/fifo
have_xattr=0
if command -v setfattr >/dev/null && setfattr -n user.k -v val $t/a/f 2>/dev/null; then
  have_xattr=1
  setfattr -n user.empty $t/c/empty
  setfattr -n user.bin -v 0x00ff10 $t/a/g
  if command -v setfacl >/dev/null; then setfacl -m u:65534:r $t/c/empty; fi
else
  echo "skip: user xattrs (no setfattr or not supported here)"
fi

# expect ROOT: the snapshot lines of ROOT (backup_snapshot.h), from find, readlink and
# getfattr, in backup_scan's order (each directory's entries by name).
expect() {
  local root=$1
  find "$root" -printf '%P\0%y\0%s\0%T@\0%m\0%U\0%G\0%D\0%i\0%n\0' -exec readlink -z {} \; \
    -o -printf '\0' >find.out 2>/dev/null || true
  # readlink -z prints only for links: find's -exec is true there and prints the target;
  # for other entries readlink fails, and -o prints an empty field instead.
  : >attrs.out
  if [ $have_xattr -eq 1 ]; then
    (cd "$root" && find . -print0 | xargs -0 getfattr -d -m - -h -e hex --absolute-names \
      2>/dev/null) >attrs.out || true
  fi
  python3 - "$root" <<'PY'
import sys, os
root = sys.argv[1].encode()
def esc(b):
    return b"".join(bytes([c]) if 0x21 <= c <= 0x7e and c not in b"\\,=" else b"\\x%02x" % c
                    for c in b)
f = open("find.out", "rb").read().split(b"\0")
rows = []
for i in range(0, len(f) - 1, 11):
    p, y, s, t, m, u, g, d, ino, n, tgt = f[i:i + 11]
    sec, _, frac = t.partition(b".")
    ns = int(sec) * 10**9 + int(frac[:9].ljust(9, b"0"))
    rows.append(dict(p=p, y=y, s=s, ns=ns, m=m, u=u, g=g, d=d, i=ino, n=n, tgt=tgt))
# getfattr: "# file: ./PATH" then name=0xHEX lines (name alone for an empty value).
attrs = {}
cur = None
for line in open("attrs.out", "rb").read().split(b"\n"):
    if line.startswith(b"# file: "):
        cur = line[8:]
        cur = b"" if cur == b"." else cur[2:]
        # getfattr escapes odd bytes in names as octal: undo it.
        cur = cur.decode("unicode_escape").encode("latin-1")
        attrs[cur] = []
    elif line and cur is not None:
        name, eq, val = line.partition(b"=")
        v = val[2:] if val.startswith(b"0x") else b""
        attrs[cur].append(esc(name) + b"=" + v)
def key(r):
    return [] if r["p"] == b"" else r["p"].split(b"/")
rows.sort(key=key)  # the walk's order: which link of a group is met first
first = {}
for r in rows:
    if r["y"] != b"d" and int(r["n"]) > 1:
        first.setdefault((r["d"], r["i"]), r["p"])
out = []
for r in rows:
    path = b"." if r["p"] == b"" else esc(r["p"])
    if r["y"] == b"d" or int(r["n"]) < 2:
        link = b"-"
    else:
        fp = first[(r["d"], r["i"])]
        link = b"=" if fp == r["p"] else esc(fp)
    tgt = esc(r["tgt"]) if r["y"] == b"l" else b"-"
    xa = sorted(attrs.get(r["p"], []))
    out.append(b"\t".join([path, r["y"], r["s"], str(r["ns"]).encode(), r["m"].lstrip(b"0") or b"0",
                           r["u"], r["g"], r["d"], r["i"], r["n"], link, tgt,
                           b",".join(xa) if xa else b"-"]))
out.sort(key=lambda l: l.split(b"\t")[0])  # the snapshot's order: by escaped path
sys.stdout.buffer.write(b"".join(l + b"\n" for l in out))
PY
}

# normalize SNAPSHOT: its lines with the xattrs sorted (getfattr's order is its own).
normalize() {
  python3 -c '
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
assert lines[0] == b"# frd backup_scan snapshot 1", lines[0]
for l in lines[1:]:
    if l:
        f = l.split(b"\t")
        if f[12] != b"-":
            f[12] = b",".join(sorted(f[12].split(b",")))
        sys.stdout.buffer.write(b"\t".join(f) + b"\n")' "$1"
}

# diff_of OLD NEW: the changes backup_scan(1) prints from two expected snapshots.
diff_of() {
  python3 - "$1" "$2" <<'PY'
import sys
names = "path type size mtime mode uid gid dev ino nlink link target xattrs".split()
def load(p):
    return {l.split(b"\t")[0]: l.split(b"\t") for l in open(p, "rb").read().split(b"\n") if l}
a, b = load(sys.argv[1]), load(sys.argv[2])
out = []
for p in sorted(set(a) & set(b)):
    what = [names[i] for i in range(1, 13) if a[p][i] != b[p][i]]
    if what:
        out.append(b"changed\t" + p + b"\t" + ",".join(what).encode())
gone = [p for p in a if p not in b]
new = [p for p in b if p not in a]
ren = []
for p in sorted(gone):
    for q in sorted(new):
        if [a[p][i] for i in (1, 2, 3, 7, 8)] == [b[q][i] for i in (1, 2, 3, 7, 8)]:
            ren.append((p, q)); new.remove(q); break
done = {p for p, q in ren}
out += [b"removed\t" + p for p in sorted(gone) if p not in done]
out += [b"added\t" + q for q in sorted(new)]
out += [b"renamed\t" + p + b"\t" + q for p, q in ren]
sys.stdout.buffer.write(b"".join(l + b"\n" for l in out))
PY
}

# 1. The first scan: every entry added, the snapshot as computed.
rc=0
"$scan" --snapshot snap $t >out1 2>err1 || rc=$?
expect $t >want1
normalize snap >got1 || true
if [ $rc -ne 0 ] || [ -s err1 ]; then
  bad "first scan: exit $rc, stderr: $(cat err1)"
elif ! cmp -s got1 want1; then
  bad "first snapshot differs from find/readlink/getfattr's:"
  diff got1 want1 | head -20
else
  ok "first snapshot: $(wc -l <got1) entries as find/readlink/getfattr give them"
fi
cut -f1 want1 | sed 's/^/added\t/' | sort >want_added
if ! sort out1 | cmp -s - want_added; then
  bad "first scan's changes are not every entry added"
  diff <(sort out1) want_added | head
else
  ok "first scan: $(wc -l <out1) entries added"
fi
firsts=$(grep -c '	=	' got1 || true)
if [ "$firsts" -eq 2 ]; then
  ok "two hard-link groups, each with one first link"
else
  bad "hard-link groups: $firsts firsts, want 2"
fi
if [ $have_xattr -eq 1 ] && command -v setfacl >/dev/null; then
  if grep -q '^c/empty	.*system\.posix_acl_access=' got1; then
    ok "the ACL set by setfacl is in the snapshot"
  else
    bad "no ACL in the snapshot: $(grep '^c/empty' got1)"
  fi
fi
if [ ! -e snap.tmp ] && [ -z "$(ls snap.* 2>/dev/null)" ]; then
  ok "no temporary file left"
else
  bad "temporary files left: $(ls snap.*)"
fi

# 2. Changes: the diff equals the one of the expected snapshots.
sleep 0.01
printf 'changed!' >$t/a/g && chmod 600 $t/c/empty && chown 65534 $t/b/f-link
ln $t/c/empty $t/b/empty-link && mv $t/a/deep/g2 $t/b/g2-moved && rm "$t/odd dir/new
line" && printf 'n' >$t/c/new && rm $t/b/sym && ln -s ../a/g $t/b/sym && mv $t/c/fifo $t/b/fifo2
if [ $have_xattr -eq 1 ]; then setfattr -n user.added -v 1 $t/c/new; fi
expect $t >want2
diff_of want1 want2 >want_diff
rc=0
"$scan" -j 2 --snapshot snap $t >out2 2>err2 || rc=$?
normalize snap >got2 || true
if [ $rc -ne 0 ] || [ -s err2 ]; then
  bad "second scan: exit $rc, stderr: $(cat err2)"
elif ! cmp -s out2 want_diff; then
  bad "second scan's changes differ:"
  diff out2 want_diff | head -20
elif ! cmp -s got2 want2; then
  bad "second snapshot differs:"
  diff got2 want2 | head
else
  ok "second scan: $(wc -l <out2) changes as computed ($(cut -f1 out2 | sort | uniq -c | tr -s ' \n' ' '))"
fi
rc=0
"$scan" --snapshot snap $t >out3 2>err3 || rc=$?
if [ $rc -eq 0 ] && [ ! -s out3 ]; then
  ok "a third scan of the same tree: no changes"
else
  bad "third scan: exit $rc, $(wc -l <out3) changes: $(head -3 out3)"
fi

# 3. Output that fails: message, exit 1, the previous snapshot kept (the changes told again).
printf 'more' >>$t/c/new
cp snap snap.before
rc=0
"$scan" --snapshot snap $t >/dev/full 2>err4 || rc=$?
if [ $rc -eq 1 ] && grep -q '^backup_scan: write error: No space left on device$' err4 &&
  cmp -s snap snap.before; then
  ok "stdout on /dev/full: '$(cat err4)', exit 1, previous snapshot kept"
else
  bad "stdout on /dev/full: exit $rc, stderr: $(cat err4), snapshot kept: $(cmp -s snap snap.before && echo yes || echo no)"
fi
rm snap.before

# 4. Not a snapshot.
echo "hello" >notsnap
rc=0
"$scan" --snapshot notsnap $t >/dev/null 2>err5 || rc=$?
if [ $rc -eq 1 ] && [ "$(cat notsnap)" = hello ] &&
  grep -q "^backup_scan: cannot read snapshot 'notsnap': not a backup_scan snapshot$" err5; then
  ok "a file that is no snapshot: refused, kept"
else
  bad "no snapshot: exit $rc, $(cat err5)"
fi

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
  echo "skip: unreadable directory as uid 65534, full disk (need root and setpriv)"
  cli_end
  exit
fi

# 5. An unreadable directory (root's, mode 000) walked as uid 65534: listed at the end,
# exit 1, the rest scanned and the snapshot written, with what the previous scan saw in the
# directory carried over (not reported removed).
mkdir -p $t/locked/in && printf 'l' >$t/locked/in/f
chmod 644 $t/c/empty # its user xattrs readable by all: the one failure is the directory
mkdir -p nobody && chmod 777 nobody
rc=0
as_nobody "$scan" --snapshot nobody/snap $t >/dev/null 2>err6 || rc=$?
if [ $rc -eq 0 ] && [ ! -s err6 ] && grep -q '^locked/in/f	' nobody/snap; then
  ok "as uid 65534, a readable tree: no error"
else
  bad "as uid 65534: exit $rc, stderr: $(cat err6)"
fi
chmod 000 $t/locked
grep '^locked/' nobody/snap >carried.want
rc=0
as_nobody "$scan" --snapshot nobody/snap $t >out6 2>err6 || rc=$?
printf "backup_scan: 1 error, skipped:\nbackup_scan: cannot read '%s': permission denied\n" \
  "$t/locked" >want_err6
if [ $rc -eq 1 ] && cmp -s err6 want_err6 && [ "$(cat out6)" = "$(printf 'changed\tlocked\tmode')" ] &&
  grep '^locked/' nobody/snap | cmp -s - carried.want; then
  ok "unreadable directory as uid 65534: reported at the end, exit 1, its old entries carried over"
else
  bad "unreadable directory: exit $rc, stderr: $(cat err6), changes: $(cat out6)"
  diff err6 want_err6 || true
  grep '^locked/' nobody/snap | diff - carried.want || true
fi
chmod 755 $t/locked

# 6. A full disk: a 64 KiB tmpfs holding the snapshot; a tree whose snapshot does not fit.
mkdir -p full
if mount -t tmpfs -o size=64k frdtest full 2>/dev/null; then
  mkdir -p big
  for i in $(seq 1000); do : >big/file-with-a-long-name-$i; done
  "$scan" --snapshot full/snap $t >/dev/null
  cp full/snap old.snap
  rc=0
  "$scan" --snapshot full/snap big >/dev/null 2>err7 || rc=$?
  if [ $rc -eq 1 ] && grep -q "^backup_scan: cannot write snapshot 'full/snap': No space left on device$" err7 &&
    cmp -s full/snap old.snap && [ "$(ls full)" = snap ]; then
    ok "full disk: '$(cat err7)', exit 1, previous snapshot kept, no temporary file"
  else
    bad "full disk: exit $rc, stderr: $(cat err7), files: $(ls full)"
  fi
  umount full
else
  echo "skip: full disk (cannot mount tmpfs)"
fi
cli_end
