#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Generated cases for frdfind -gitignore against git itself (run by frdfind_gitignore.sh).

Each case is a small work tree made from a seed: nested directories with names holding
spaces, '#', '!', '[', '\\' and bytes above 0x7f; .gitignore files in some directories
(negations, anchored, '**', directory-only, escapes, trailing spaces, classes, comments);
sometimes $GIT_DIR/info/exclude, a global excludes file found through XDG_CONFIG_HOME,
core.ignoreCase, a nested repository, a root below the top. The expected set is what find
yields minus what `git check-ignore --no-index` ignores (a path, or an ancestor of it, in
the repository that owns it; .git itself left out), asked of git once per repository; it
must equal what frdfind -gitignore prints, in each mode given.

Usage: gitignore_cases.py FRDFIND WORKDIR NCASES [USER...]   (USER: root or nobody)
Prints one line per failing case and a tally; exits 1 if any failed.
"""
import os
import random
import subprocess
import sys

NAMES = [b"a", b"b", b"c.o", b"d.log", b"build", b"doc", b"x y", b"#h", b"!bang", b"[br",
         b"back\\slash", b"caf\xc3\xa9", b"raw\xff", b"keep.log", b"Mixed", b"trail ",
         b"tmp", b"lib", b"1num", b"z.c"]
RULES = [b"*.o", b"!*.o", b"/build", b"build/", b"**/doc", b"a/**", b"a/**/b", b"doc/*.log",
         b"\\#h", b"\\!bang", b"\\[br", b"x\\ y", b"[a-c]*", b"?.o", b"*.[lo]*", b"!keep*",
         b"trail\\ ", b"trail ", b"# comment", b"", b"[!a]*", b"**/x y/", b"[[:digit:]]*",
         b"*.log", b"!d.log", b"lib/", b"/a/b", b"**/tmp/**", b"b/**/c.o", b"mixed",
         b"caf\xc3\xa9", b"raw\xff", b"back\\\\slash", b"*", b"!*/", b"!b", b"doc/**/z.c",
         b"**", b"[z-a]*", b"[a-]*", b"[]a]*", b"\\*", b"a/*/", b"*/b", b"!/a", b"x*y",
         b"**/", b"/**/c.o", b"[", b"abc\\"]
MODES = [["-j", "1"], ["-j", "2"], ["-j", "8"], ["-s"], ["-s", "-j", "1"]]


def make_tree(rng, root, depth):
    """Directories and files below root; returns the directories made."""
    dirs = [root]
    for _ in range(rng.randint(2, 6)):
        name = rng.choice(NAMES)
        p = os.path.join(root, name)
        if os.path.lexists(p):
            continue
        if depth < 3 and rng.random() < 0.45:
            os.mkdir(p)
            dirs += make_tree(rng, p, depth + 1)
        else:
            with open(p, "wb") as f:
                f.write(b"x")
    return dirs


def rules(rng):
    return b"\n".join(rng.choice(RULES) for _ in range(rng.randint(1, 6))) + b"\n"


def git(env, *args, cwd, stdin=None):
    return subprocess.run(["git", *args], cwd=cwd, env=env, input=stdin, capture_output=True)


def build_case(seed, base):
    rng = random.Random(seed)
    case = os.path.join(base, b"case%d" % seed)
    home = os.path.join(case, b"home")
    top = os.path.join(case, b"top")
    os.makedirs(os.path.join(home, b"xdg", b"git"))
    os.makedirs(top)
    env = dict(os.environ, HOME=os.fsdecode(home), XDG_CONFIG_HOME=os.fsdecode(home + b"/xdg"),
               GIT_CONFIG_NOSYSTEM="1", LC_ALL="C")
    env.pop("GIT_DIR", None)
    git(env, "init", "-q", ".", cwd=top)
    dirs = make_tree(rng, top, 0)
    repos = [top]
    if rng.random() < 0.25:
        sub = os.path.join(top, b"nested")
        if not os.path.lexists(sub):
            os.mkdir(sub)
            git(env, "init", "-q", ".", cwd=sub)
            dirs += make_tree(rng, sub, 1)
            repos.append(sub)
    for d in dirs:
        if rng.random() < 0.6:
            with open(os.path.join(d, b".gitignore"), "wb") as f:
                f.write(rules(rng))
    for r in repos:
        if rng.random() < 0.3:
            with open(os.path.join(r, b".git", b"info", b"exclude"), "ab") as f:
                f.write(rules(rng))
        if rng.random() < 0.15:
            git(env, "config", "core.ignoreCase", "true", cwd=r)
        elif rng.random() < 0.1:
            git(env, "config", "core.ignoreCase", "false", cwd=r)
    if rng.random() < 0.3:
        with open(os.path.join(home, b"xdg", b"git", b"ignore"), "wb") as f:
            f.write(rules(rng))
    root = top
    if rng.random() < 0.15:
        below = [d for d in dirs if d != top and not d.startswith(top + b"/nested")]
        if below:
            root = rng.choice(below)
    return env, top, root, repos


def expected(env, top, root, repos):
    out = subprocess.run(["find", ".", "-path", "*/.git", "-prune", "-o", "-print0"],
                         cwd=root, capture_output=True, check=True).stdout
    paths = [p for p in out.split(b"\0") if p]
    # The repository of each path: the deepest repo whose top is above the path.
    ignored = set()
    by_repo = {r: [] for r in repos}
    for p in paths:
        full = os.path.normpath(os.path.join(root, p))
        owner = top
        for r in repos:
            if full.startswith(r + b"/") and len(r) > len(owner):
                owner = r
        if full != owner and p != b".":  # a root is always visited (frdfind names it)
            by_repo[owner].append((p, os.path.relpath(full, owner)))
    for r, items in by_repo.items():
        if not items:
            continue
        res = git(env, "check-ignore", "--no-index", "-z", "--stdin", cwd=r,
                  stdin=b"\0".join(rel for _, rel in items) + b"\0")
        hit = set(x for x in res.stdout.split(b"\0") if x)
        for p, rel in items:
            if rel in hit:
                ignored.add(p)
    # A root below an ignored directory (or ignored itself): git reads nothing in it.
    ignored_above = set()
    if root != top:
        rel = os.path.relpath(root, top).split(b"/")
        owner_paths = [b"/".join(rel[:i]) for i in range(1, len(rel) + 1)]
        res = git(env, "check-ignore", "--no-index", "-z", "--stdin", cwd=top,
                  stdin=b"\0".join(owner_paths) + b"\0")
        if any(x for x in res.stdout.split(b"\0") if x):
            ignored_above.add(b".")
    keep = []
    for p in paths:
        parts = p.split(b"/")
        if p != b"." and (b"." in ignored_above or
                          any(b"/".join(parts[:i]) in ignored for i in range(2, len(parts) + 1))):
            continue
        keep.append(p)
    return sorted(keep)


def frd_paths(frdfind, env, root, mode, user):
    cmd = [frdfind] + mode + [".", "-gitignore", "-print0"]
    if user == "nobody":
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    res = subprocess.run(cmd, cwd=root, env=env, capture_output=True)
    return res.returncode, res.stderr, sorted(p for p in res.stdout.split(b"\0") if p)


def main():
    frdfind, work, ncases = os.path.abspath(sys.argv[1]), os.fsencode(sys.argv[2]), int(sys.argv[3])
    users = sys.argv[4:] or ["root"]
    passed = failed = 0
    for seed in range(ncases):
        env, top, root, repos = build_case(seed, work)
        want = expected(env, top, root, repos)
        for user in users:
            for mode in MODES if user == "root" else MODES[1::2]:
                rc, err, got = frd_paths(frdfind, env, root, mode, user)
                if rc == 0 and got == want and not err:
                    passed += 1
                    continue
                failed += 1
                extra = sorted(set(got) - set(want))[:4]
                missing = sorted(set(want) - set(got))[:4]
                print("FAIL: case %d (root %r) %s as %s: exit %d, extra %r, missing %r, stderr %r"
                      % (seed, os.path.relpath(root, top), " ".join(mode), user, rc, extra, missing,
                         err[:200]))
    print("%d cases, %d runs passed, %d failed" % (ncases, passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
