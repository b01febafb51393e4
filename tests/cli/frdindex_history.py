#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""frdindex's change feed against an independent model.

Runs scripted random edit sequences on a tree (one seed per sequence). After some edits,
not all (skipped updates), it runs `frdindex update` and snapshots the tree itself with
os.walk/lstat. At the end, for every generation G it compares `frdindex changes --all
--since G` with the model: the per-update differences of its own snapshots, folded per path
by the rules frdindex.1 documents. A rename printed by frdindex counts as its two halves
(the new path added; the old one removed unless it has a line of its own), since the model
does not guess renames. `-0` must list the paths the model says exist and changed.

Usage: frdindex_history.py FRDINDEX SCRATCH_DIR [SEQUENCES]
Exit status 0 when every comparison agrees, 1 otherwise.
"""
import os
import random
import shutil
import subprocess
import sys
import time

FRDINDEX = sys.argv[1]
SCRATCH = sys.argv[2]
SEQUENCES = int(sys.argv[3]) if len(sys.argv) > 3 else 24

# The fields frd_entry_same() compares that lstat shows (no birth time or attributes: the
# edits below never change those without changing the inode).
def snapshot(root):
    snap = {}
    def add(path):
        st = os.lstat(path)
        snap[os.fsencode(path)] = st
    add(root)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            add(os.path.join(dirpath, name))
    return snap


def same_file(a, b):
    return (a.st_mode >> 12) == (b.st_mode >> 12) and a.st_ino == b.st_ino and a.st_dev == b.st_dev


def classify(old, new):
    """One update's finding for a path in both snapshots, or None."""
    if not same_file(old, new):
        return "replaced"
    if old.st_size != new.st_size or old.st_mtime_ns != new.st_mtime_ns:
        return "modified"
    if (old.st_ctime_ns, old.st_mode, old.st_uid, old.st_gid, old.st_nlink, old.st_rdev) != (
            new.st_ctime_ns, new.st_mode, new.st_uid, new.st_gid, new.st_nlink, new.st_rdev):
        return "metadata"
    return None


def diff(old, new):
    events = {}
    for p in new:
        if p not in old:
            events[p] = "added"
        else:
            c = classify(old[p], new[p])
            if c:
                events[p] = c
    for p in old:
        if p not in new:
            events[p] = "removed"
    return events


def fold(kinds):
    """The documented fold of one path's events, oldest first."""
    before = kinds[0] != "added"
    after = kinds[-1] != "removed"
    if not before and not after:
        return None
    if not before:
        return "added"
    if not after:
        return "removed"
    if any(k not in ("modified", "metadata") for k in kinds):
        return "replaced"
    return "modified" if "modified" in kinds else "metadata"


def expected(snaps, since):
    per_path = {}
    for g in range(since + 1, len(snaps)):
        for p, k in diff(snaps[g - 1], snaps[g]).items():
            per_path.setdefault(p, []).append(k)
    out = {}
    for p, kinds in per_path.items():
        f = fold(kinds)
        if f:
            out[p] = f
    return out


def frdindex(*args, check=True):
    r = subprocess.run([FRDINDEX, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise RuntimeError(f"frdindex {' '.join(args)}: exit {r.returncode}: {r.stderr!r}")
    return r


ESCAPES = {b"a": b"\a", b"b": b"\b", b"f": b"\f", b"n": b"\n", b"r": b"\r", b"t": b"\t",
           b"v": b"\v", b"\\": b"\\", b"'": b"'", b'"': b'"'}


def unquote(field):
    """A path of the text form: as it is, or quoted for the shell ('a'$'\\377', 'it'\\''s')."""
    if not field.startswith(b"'"):
        return field
    out = bytearray()
    i = 0
    while i < len(field):
        if field.startswith(b"$'", i):  # C escapes up to the next unescaped quote
            i += 2
            while field[i:i + 1] != b"'":
                if field[i:i + 1] != b"\\":
                    out += field[i:i + 1]
                    i += 1
                elif field[i + 1:i + 2] in ESCAPES:
                    out += ESCAPES[field[i + 1:i + 2]]
                    i += 2
                else:
                    out.append(int(field[i + 1:i + 4], 8))
                    i += 4
            i += 1
        elif field.startswith(b"'", i):  # a literal run
            end = field.index(b"'", i + 1)
            out += field[i + 1:end]
            i = end + 1
        elif field.startswith(b"\\'", i):
            out += b"'"
            i += 2
        else:
            raise RuntimeError(f"not shell quoting: {field!r}")
    return bytes(out)


def got_changes(db, since):
    out = frdindex("changes", "--all", "--since", str(since), db).stdout
    lines = {}
    renames = []
    for line in out.split(b"\n"):
        if not line:
            continue
        kind, *paths = line.split(b"\t")  # a quoted path holds no tab: it is escaped
        fields = [kind] + [unquote(p) for p in paths]
        kind = fields[0].decode()
        if kind == "renamed":
            renames.append((fields[1], fields[2]))
            lines[fields[2]] = "added"
        else:
            if fields[1] in lines:
                raise RuntimeError(f"two lines for {fields[1]!r}")
            lines[fields[1]] = kind
    for old, new in renames:
        lines.setdefault(old, "removed")
    return lines


class Tree:
    """The random edits: each picks among the entries that exist now."""

    def __init__(self, root, rng):
        self.root = root
        self.rng = rng
        self.gone = []  # paths removed, to create again later
        self.n = 0

    def new_name(self, d):
        self.n += 1
        return os.path.join(d, f"n{self.n}" + self.rng.choice(["", ".txt", "\udcff"]))

    def entries(self, want):
        found = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            if want == "dir":
                found += [os.path.join(dirpath, d) for d in dirnames]
            else:
                found += [os.path.join(dirpath, f) for f in filenames
                          if not os.path.islink(os.path.join(dirpath, f))]
        return sorted(found)

    def dirs(self):
        return [self.root] + self.entries("dir")

    def write(self, path, data):
        with open(path, "wb") as f:
            f.write(data)

    def step(self):
        r = self.rng
        files, subdirs = self.entries("file"), self.entries("dir")
        ops = ["create", "create", "mkdir", "symlink"]
        if files:
            ops += ["append", "touch", "chmod", "rename", "remove", "replace", "link", "move_over"]
        if subdirs:
            ops += ["rmtree", "rename_dir", "chmod_dir"]
        if self.gone:
            ops += ["recreate", "recreate"]
        op = r.choice(ops)
        if op == "create":
            self.write(self.new_name(r.choice(self.dirs())), os.urandom(r.randint(0, 300)))
        elif op == "mkdir":
            os.mkdir(self.new_name(r.choice(self.dirs())))
        elif op == "symlink":
            os.symlink("target" * r.randint(1, 3), self.new_name(r.choice(self.dirs())))
        elif op == "append":
            with open(r.choice(files), "ab") as f:
                f.write(b"x" * r.randint(1, 50))
        elif op == "touch":
            t = r.randint(10**9, 2 * 10**9)
            os.utime(r.choice(files), ns=(t * 10**9, t * 10**9), follow_symlinks=False)
        elif op == "chmod":
            os.chmod(r.choice(files), r.choice([0o600, 0o644, 0o640, 0o755]))
        elif op == "chmod_dir":
            os.chmod(r.choice(subdirs), r.choice([0o755, 0o750, 0o700]))
        elif op == "rename":
            src = r.choice(files)
            os.rename(src, self.new_name(r.choice(self.dirs())))
            self.gone.append(src)
        elif op == "remove":
            src = r.choice(files)
            os.unlink(src)
            self.gone.append(src)
        elif op == "replace":
            dst = r.choice(files)
            tmp = dst + ".tmp"
            self.write(tmp, os.urandom(r.randint(0, 100)))
            os.replace(tmp, dst)
        elif op == "link":
            os.link(r.choice(files), self.new_name(r.choice(self.dirs())))
        elif op == "move_over":
            if len(files) > 1:
                a, b = r.sample(files, 2)
                os.replace(a, b)
                self.gone.append(a)
        elif op == "rmtree":
            d = r.choice(subdirs)
            shutil.rmtree(d)
            self.gone.append(d)
        elif op == "rename_dir":
            d = r.choice(subdirs)
            dst = self.new_name(r.choice([x for x in self.dirs()
                                          if not (x + "/").startswith(d + "/")]))
            os.rename(d, dst)
            self.gone.append(d)
        elif op == "recreate":
            p = r.choice(self.gone)
            if os.path.isdir(os.path.dirname(p)) and not os.path.lexists(p):
                self.gone.remove(p)
                if r.random() < 0.3:
                    os.mkdir(p)
                else:
                    self.write(p, os.urandom(r.randint(0, 100)))
        return op


def run_sequence(seed):
    rng = random.Random(seed)
    base = os.path.join(SCRATCH, f"seq{seed}")
    os.mkdir(base)
    root = os.path.join(base, "tree")
    os.mkdir(root)
    db = os.path.join(base, "index.db")
    tree = Tree(root, rng)
    for _ in range(rng.randint(3, 12)):
        tree.step()
    snaps = [{}]  # generation 0: the empty index
    frdindex("update", "-q", db, root)
    snaps.append(snapshot(root))
    times = [None, time.time()]
    steps = rng.randint(15, 40)
    skipped = 0
    for i in range(steps):
        tree.step()
        if rng.random() < 0.4 or i == steps - 1:
            frdindex("update", "-q", db)
            snaps.append(snapshot(root))
            times.append(time.time())
        else:
            skipped += 1
    failures = 0
    for since in range(len(snaps)):
        want = expected(snaps, since)
        got = got_changes(db, since)
        if got != want:
            failures += 1
            print(f"FAIL: seed {seed} --since {since}:")
            for p in sorted(set(want) | set(got)):
                if want.get(p) != got.get(p):
                    print(f"   {p!r}: model {want.get(p)}, frdindex {got.get(p)}")
        # -0: the paths that exist and changed, each ended by NUL.
        nul = frdindex("changes", "--all", "-0", "--since", str(since), db).stdout
        listed = sorted(p for p in nul.split(b"\0") if p)
        if listed != sorted(p for p, k in want.items() if k != "removed"):
            failures += 1
            print(f"FAIL: seed {seed} -0 --since {since}: {listed!r}")
    # --since TIME: @0 is before every update (generation 0); a time after the last update
    # means its generation: nothing.
    if got_changes(db, "@0") != expected(snaps, 0):
        failures += 1
        print(f"FAIL: seed {seed} --since @0")
    later = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(time.time() + 120))
    if got_changes(db, later) != {}:
        failures += 1
        print(f"FAIL: seed {seed} --since '{later}'")
    # Without --since: the last update's changes.
    last = frdindex("changes", "--all", db).stdout
    if last != frdindex("changes", "--all", "--since", str(len(snaps) - 2), db).stdout:
        failures += 1
        print(f"FAIL: seed {seed}: changes without --since differs from --since LAST-1")
    print(f"{'ok' if failures == 0 else 'FAIL'}: seed {seed}: {steps} edits, "
          f"{len(snaps) - 1} updates ({skipped} edits without one), "
          f"{len(snaps)} --since generations compared")
    return failures


def main():
    failed = 0
    for seed in range(1, SEQUENCES + 1):
        failed += run_sequence(seed) > 0
    print(f"{SEQUENCES - failed} of {SEQUENCES} sequences agree with the model")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
