# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""frd.os_walk against os.walk, tuple for tuple (python3 -m unittest; ctest label python).

frd.os_walk lists each directory when the walk reaches it, as os.walk does, so the two give
the same tuples in the same order (the file system's listing order) and the same onerror
calls, also when the consumer prunes dirnames, when the tree changes between two steps,
for directories it may not read (as uid 65534), through links, for bytes and path-like
tops, on chains 1,000 deep (past the descriptor budget too) and with 100 walks open at
once. Its counters (OsWalk._stats()) and strace show what it lists: nothing it was not
asked to reach.
"""
import errno
import gc
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from unittest import mock

import frd

from support import fds_after_close, make_tree, open_fds, threads, threads_after_join


def run(walker, top, consume=None, **kw):
    """(tuples as yielded, onerror calls) of a walk; consume(i, dirpath, dirs, files) may
    edit dirs or the tree between two steps."""
    errors = []
    out = []
    it = walker(top, onerror=lambda e: errors.append(
        (type(e), e.errno, e.strerror, e.filename)), **kw)
    for i, (dirpath, dirs, files) in enumerate(it):
        out.append((dirpath, list(dirs), list(files)))
        if consume is not None:
            consume(i, dirpath, dirs, files)
    return out, errors


def os_walk_listings(top, consume=None, **kw):
    """(tuples, onerror calls, directories os.walk read: its calls of os.scandir that
    did not fail)."""
    calls = []
    real = os.scandir

    def counting(path="."):
        it = real(path)
        calls.append(path)
        return it
    with mock.patch.object(os, "scandir", counting):
        out, errors = run(os.walk, top, consume, **kw)
    return out, errors, len(calls)


def make_wide(root, width=12, depth=3, files=3):
    """A tree `width` directories wide at each of `depth` levels, files in each."""
    def fill(d, level):
        for f in range(files):
            with open(os.path.join(d, "f%d" % f), "w"):
                pass
        if level == depth:
            return
        for i in range(width):
            sub = os.path.join(d, "d%02d" % i)
            os.mkdir(sub)
            fill(sub, level + 1)
    os.makedirs(root, exist_ok=True)
    fill(root, 1)
    return root


class TmpDir(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="frd-py-oswalk-")
        os.chmod(self.tmp, 0o755)

    def tearDown(self):
        # rm, not shutil.rmtree: that recurses once per level (a chain 1,000 deep).
        subprocess.run(["chmod", "-R", "u+rwx", self.tmp], check=True)
        subprocess.run(["rm", "-rf", self.tmp], check=True)


class TestSameAsOsWalk(unittest.TestCase):
    """The generated tree of test_frd (odd names, links, a chain 120 deep)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="frd-py-oswalk-")
        os.chmod(cls.tmp, 0o755)
        cls.root = os.path.join(cls.tmp, "t")
        os.mkdir(cls.root)
        cls.broot = make_tree(cls.root)
        # A link back up: a/loop -> .. (os.walk with followlinks goes round it 40 times).
        cls.loop_root = os.path.join(cls.tmp, "l")
        for d in ("l", "l/a", "l/b"):
            os.mkdir(os.path.join(cls.tmp, d))
        os.symlink("..", os.path.join(cls.loop_root, "a", "loop"))
        with open(os.path.join(cls.loop_root, "b", "file"), "w"):
            pass

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_tuples_and_their_order_are_os_walks(self):
        # main sorted dirnames and filenames (os.walk gives the listing's order).
        for top in (self.root, self.broot, self.root + "/", self.broot + b"/",
                    os.path.join(self.root, "a"), pathlib.Path(self.root)):
            for topdown in (True, False):
                with self.subTest(top=top, topdown=topdown):
                    self.assertEqual(run(frd.os_walk, top, topdown=topdown),
                                     run(os.walk, top, topdown=topdown))

    def test_bytes_top_gives_bytes_and_str_top_gives_fsdecoded_str(self):
        out, _ = run(frd.os_walk, self.broot)
        self.assertTrue(all(isinstance(x, bytes) for d, ds, fs in out for x in [d] + ds + fs))
        out, _ = run(frd.os_walk, pathlib.Path(self.root))
        self.assertTrue(all(isinstance(x, str) for d, ds, fs in out for x in [d] + ds + fs))
        self.assertIn(os.fsdecode(b"\xff\xfe-not-utf8"), out[0][2])

    def test_links_to_directories_are_dirnames_walked_only_with_followlinks(self):
        out, errors = run(frd.os_walk, self.broot)
        self.assertIn(b"link-to-dir", out[0][1])
        self.assertIn(b"dangling", out[0][2])
        self.assertNotIn(os.path.join(self.broot, b"link-to-dir"), [d for d, _, _ in out])
        self.assertEqual(errors, [])

    def test_followlinks_equals_os_walk(self):
        for top in (self.root, self.broot):
            with self.subTest(top=top):
                self.assertEqual(run(frd.os_walk, top, followlinks=True),
                                 run(os.walk, top, followlinks=True))

    def test_followlinks_reports_a_loop_once(self):
        # os.walk goes round l/a/loop -> .. until the path holds too many links (ELOOP);
        # frd.os_walk reports the directory that repeats an ancestor (ELOOP), once, and
        # walks each other directory as os.walk does.
        for top in (self.loop_root, os.fsencode(self.loop_root)):
            with self.subTest(top=top):
                sep = "/" if isinstance(top, str) else b"/"
                loop = os.path.join(top, os.path.join(*[os.fsencode(x) if isinstance(top, bytes)
                                                        else x for x in ("a", "loop")]))
                got, got_errors = run(frd.os_walk, top, followlinks=True)
                want, _ = run(os.walk, top, followlinks=True)
                want = [t for t in want if t[0] != loop and not t[0].startswith(loop + sep)]
                self.assertEqual(got, want)
                self.assertEqual(got_errors, [(OSError, errno.ELOOP, os.strerror(errno.ELOOP),
                                               loop)])

    def test_top_that_is_a_file_goes_to_onerror_as_not_a_directory(self):
        # main never called onerror: os.walk reports NotADirectoryError.
        for top in (os.path.join(self.root, "plain"), os.path.join(self.broot, b"link-to-file")):
            with self.subTest(top=top):
                got = run(frd.os_walk, top)
                self.assertEqual(got, run(os.walk, top))
                self.assertEqual(got[1], [(NotADirectoryError, errno.ENOTDIR,
                                           os.strerror(errno.ENOTDIR), top)])

    def test_missing_top_and_top_given_as_a_link(self):
        for top in (os.path.join(self.root, "no-such"), os.path.join(self.broot, b"link-to-dir"),
                    os.path.join(self.broot, b"dangling")):
            with self.subTest(top=top):
                self.assertEqual(run(frd.os_walk, top), run(os.walk, top))

    def test_relative_top(self):
        cwd = os.getcwd()
        os.chdir(self.root)
        try:
            for top in (".", "a", "./a/"):
                with self.subTest(top=top):
                    self.assertEqual(run(frd.os_walk, top), run(os.walk, top))
        finally:
            os.chdir(cwd)


class TestPruning(TmpDir):
    def test_pruning_is_os_walks_and_lists_only_what_os_walk_lists(self):
        top = make_wide(os.path.join(self.tmp, "w"))
        file_name = "f0"
        prunings = {
            "none": lambda i, d, dirs, f: None,
            "all": lambda i, d, dirs, f: dirs.clear(),
            "half": lambda i, d, dirs, f: dirs.__setitem__(
                slice(None), [x for x in dirs if int(x[1:]) % 2 == 0]),
            "sorted, reversed": lambda i, d, dirs, f: dirs.sort(reverse=True),
            "top only keeps 3": lambda i, d, dirs, f: dirs.__setitem__(
                slice(None), sorted(dirs)[:3] if i == 0 else dirs),
            # New objects with the same text: found by name, not by identity.
            "copies": lambda i, d, dirs, f: dirs.__setitem__(
                slice(None), [x.encode().decode() for x in dirs]),
            "missing, a file, twice": lambda i, d, dirs, f: dirs.extend(
                ["no-such", file_name, dirs[0]] if i == 0 else []),
        }
        for name, prune in prunings.items():
            with self.subTest(pruning=name):
                want, want_errors, listed = os_walk_listings(top, prune)
                it = frd.os_walk(top, onerror=lambda e: got_errors.append(
                    (type(e), e.errno, e.strerror, e.filename)))
                got, got_errors = [], []
                for i, (d, dirs, files) in enumerate(it):
                    got.append((d, list(dirs), list(files)))
                    prune(i, d, dirs, files)
                self.assertEqual((got, got_errors), (want, want_errors))
                # Every directory frd opened is one os.walk opened: none pruned, none
                # listed ahead of the consumer's edits. (main listed all 157 each time.)
                self.assertEqual(it._stats()["dirs_listed"], listed)

    def test_links_and_wrong_types_put_in_dirnames(self):
        top = make_wide(os.path.join(self.tmp, "w"), width=3, depth=2)
        os.symlink("d00", os.path.join(top, "link"))
        for extra in (["link"], [5], [b"d01"]):
            with self.subTest(extra=extra):
                def add(i, d, dirs, f):
                    if i == 0:
                        dirs.extend(extra)
                for followlinks in (False, True):
                    want = got = None
                    try:
                        want = run(os.walk, top, add, followlinks=followlinks)
                    except TypeError as e:
                        want = type(e)
                    try:
                        got = run(frd.os_walk, top, add, followlinks=followlinks)
                    except TypeError as e:
                        got = type(e)
                    self.assertEqual(got, want)

    def test_bottom_up_ignores_edits_as_os_walk_does(self):
        top = make_wide(os.path.join(self.tmp, "w"), width=4, depth=3)

        def prune(i, d, dirs, f):
            dirs.clear()
        self.assertEqual(run(frd.os_walk, top, prune, topdown=False),
                         run(os.walk, top, prune, topdown=False))


class TestBigDirectories(TmpDir):
    def test_a_directory_bigger_than_a_kernel_buffer_is_read_in_batches(self):
        # 20,000 entries: more than one 64 KiB buffer of records, and more directory
        # blocks than a listing read whole or made ahead takes: read a buffer at a time,
        # each batch added to the lists, which come out as os.walk's.
        top = os.path.join(self.tmp, "b")
        for d in ["s%d" % i for i in range(20)] + ["big"]:
            os.makedirs(os.path.join(top, d))
        big = os.path.join(top, "big")
        for i in range(20000):
            with open(os.path.join(big, "file-with-a-longer-name-%05d" % i), "w"):
                pass
        for i in range(40):
            os.mkdir(os.path.join(big, "dir-%02d" % i))
        self.assertGreater(os.stat(big).st_size, 65536)
        for topdown in (True, False):
            with self.subTest(topdown=topdown):
                want, want_errors, listed = os_walk_listings(top, topdown=topdown)
                it = frd.os_walk(top, topdown=topdown)
                got = [(d, list(ds), list(fs)) for d, ds, fs in it]
                self.assertEqual(got, want)
                self.assertEqual(it._stats()["dirs_listed"], listed)


class TestLazy(TmpDir):
    def test_the_first_step_lists_the_top_only(self):
        # main listed the whole tree (here 157 directories) before the first tuple.
        top = make_wide(os.path.join(self.tmp, "w"))
        it = frd.os_walk(top)
        dirpath, dirs, _ = next(it)
        self.assertEqual((dirpath, len(dirs)), (top, 12))
        self.assertEqual(it._stats()["dirs_listed"], 1)
        # The next step lists the first subdirectory; the pool may list the next few
        # ahead (they are entered whatever the consumer does now), no more.
        next(it)
        time.sleep(0.05)  # lets the pool run: the bound must hold however far it got
        stats = it._stats()
        self.assertGreaterEqual(stats["dirs_listed"], 2)
        self.assertLessEqual(stats["dirs_listed"], 2 + stats["ahead"])
        it.close()

    @unittest.skipUnless(shutil.which("strace"), "no strace")
    def test_strace_sees_one_directory_opened_for_the_first_step(self):
        top = make_wide(os.path.join(self.tmp, "w"))
        code = textwrap.dedent("""
            import os, sys, frd
            it = frd.os_walk(sys.argv[1])
            for marker in ("/frd-marker-begin", "/frd-marker-end"):
                try:
                    os.open(marker, os.O_RDONLY)
                except FileNotFoundError:
                    pass
                if marker.endswith("begin"):
                    next(it)
            it.close()
        """)
        log = os.path.join(self.tmp, "strace.log")
        subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat", "-o", log, sys.executable,
                        "-c", code, top], check=True, env=dict(os.environ))
        with open(log) as f:
            lines = f.read().splitlines()
        begin = next(i for i, line in enumerate(lines) if "/frd-marker-begin" in line)
        end = next(i for i, line in enumerate(lines) if "/frd-marker-end" in line)
        opened = [line for line in lines[begin + 1:end] if "O_DIRECTORY" in line]
        self.assertEqual(len(opened), 1, opened)
        self.assertIn(top, opened[0])


class TestChangesBetweenSteps(TmpDir):
    """The tree changes while the consumer holds a tuple: renamed, removed, filled and
    replaced directories, some listed ahead by the pool already."""

    def make(self, top):
        if os.path.exists(top):
            shutil.rmtree(top)
        os.mkdir(top)
        for i in range(24):
            d = os.path.join(top, "s%02d" % i)
            os.mkdir(d)
            os.mkdir(os.path.join(d, "sub"))
            with open(os.path.join(d, "file"), "w"):
                pass
        return top

    def change(self, top, order):
        """Changes four subdirectories of top that the walk reaches later."""
        os.rename(os.path.join(top, order[3]), os.path.join(top, "renamed"))
        shutil.rmtree(os.path.join(top, order[4]))
        with open(os.path.join(top, order[5], "new-file"), "w"):
            pass
        shutil.rmtree(os.path.join(top, order[6]))
        os.mkdir(os.path.join(top, order[6]))
        with open(os.path.join(top, order[6], "other"), "w"):
            pass

    def test_each_directory_is_seen_as_it_is_when_reached(self):
        # main yielded the old names and contents, and no onerror call.
        top = os.path.join(self.tmp, "c")
        order = []

        def os_change(i, dirpath, dirs, files):
            if i == 0:
                order.extend(dirs)
            if i == 1:
                self.change(top, order)
        self.make(top)
        want = run(os.walk, top, os_change)

        self.make(top)
        it = frd.os_walk(top, onerror=lambda e: errors.append(
            (type(e), e.errno, e.strerror, e.filename)))
        got, errors = [], []
        for i, (dirpath, dirs, files) in enumerate(it):
            got.append((dirpath, list(dirs), list(files)))
            if i == 1:
                # The second step submitted the next 16 directories to the pool: wait
                # until it has listed them, so that the changes below hit listings made
                # ahead (60 s at most: a liveness bound, not a timing assertion).
                deadline = time.monotonic() + 60
                while (it._stats()["dirs_listed_ahead"] < it._stats()["ahead"] and
                       time.monotonic() < deadline):
                    time.sleep(0.001)
                self.assertEqual(it._stats()["dirs_listed_ahead"], it._stats()["ahead"])
                # Past one tick of a coarse clock, so the new mtimes differ on kernels
                # without fine-grained timestamps.
                time.sleep(0.02)
                self.change(top, order)
        self.assertEqual((got, errors), want)
        self.assertEqual([e[1] for e in errors], [errno.ENOENT, errno.ENOENT])
        # The four changed directories had been listed ahead: each was listed again.
        self.assertEqual(it._stats()["dirs_relisted"], 4)


class TestDeep(TmpDir):
    def make_chain(self, depth, name=b"d", sibling=b"s"):
        top = os.path.join(self.tmp, "chain")
        os.mkdir(top)
        fd = os.open(top, os.O_RDONLY)
        try:
            for _ in range(depth):
                os.mkdir(name, dir_fd=fd)
                if sibling:
                    os.mkdir(sibling, dir_fd=fd)
                nfd = os.open(name, os.O_RDONLY, dir_fd=fd)
                os.close(fd)
                fd = nfd
        finally:
            os.close(fd)
        return top

    def os_walk_deep(self, *args, **kw):
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(10000)  # os.walk of Python 3.11 recurses once per level
        try:
            return run(os.walk, *args, **kw)
        finally:
            sys.setrecursionlimit(old)

    def test_a_chain_1000_deep_with_siblings(self):
        top = self.make_chain(1000)
        for topdown in (True, False):
            with self.subTest(topdown=topdown):
                self.assertEqual(run(frd.os_walk, top, topdown=topdown),
                                 self.os_walk_deep(top, topdown=topdown))

    def test_past_the_descriptor_budget_frames_are_reopened(self):
        # Under RLIMIT_NOFILE 64 the walk keeps 32 descriptors at most; sorted, the 1,000
        # levels each wait for their sibling (s after d), so shallower levels are closed
        # and reopened.
        top = self.make_chain(1000)
        code = textwrap.dedent("""
            import json, os, resource, sys, frd
            resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
            it = frd.os_walk(sys.argv[1], onerror=lambda e: print("error", e))
            out = []
            for d, ds, fs in it:
                out.append([d, list(ds), fs])
                ds.sort()
            print(json.dumps({"out": out, "stats": it._stats()}))
        """)
        res = subprocess.run([sys.executable, "-c", code, top], check=True,
                             stdout=subprocess.PIPE, text=True, env=dict(os.environ))
        import json
        got = json.loads(res.stdout)
        want, _ = self.os_walk_deep(top, lambda i, d, ds, fs: ds.sort())
        self.assertEqual(got["out"], [list(t) for t in want])
        self.assertGreater(got["stats"]["dirs_reopened"], 0)

    def test_deeper_than_path_max_is_walked_whole(self):
        # os.walk stops where the path passes PATH_MAX (ENAMETOOLONG); frd.os_walk opens
        # each directory relative to its parent.
        top = self.make_chain(600, name=b"12345678", sibling=None)
        got, errors = run(frd.os_walk, top)
        self.assertEqual(errors, [])
        self.assertEqual(len(got), 601)
        self.assertEqual(got[-1][0], os.path.join(top, *["12345678"] * 600))
        self.assertGreater(len(got[-1][0]), 4096)


class TestManyAndLifetime(TmpDir):
    def test_100_walks_at_once_interleaved(self):
        top = make_wide(os.path.join(self.tmp, "w"), width=5, depth=3)
        want = run(os.walk, top)[0]
        fds, nthreads = open_fds(), threads()
        walks = [frd.os_walk(top) for _ in range(100)]
        outs = [[] for _ in walks]
        live = list(range(100))
        while live:
            for k in list(live):
                try:
                    d, ds, fs = next(walks[k])
                    outs[k].append((d, list(ds), list(fs)))
                except StopIteration:
                    live.remove(k)
        for out in outs:
            self.assertEqual(out, want)
        del walks
        self.assertEqual(threads_after_join(nthreads), nthreads)
        self.assertEqual(fds_after_close(fds), fds)

    def test_close_mid_walk_and_dropping_release_threads_and_descriptors(self):
        top = make_wide(os.path.join(self.tmp, "w"))
        fds, nthreads = open_fds(), threads()
        for end in ("close", "del", "with", "exhaust"):
            with self.subTest(end=end):
                it = frd.os_walk(top)
                for _ in range(5):
                    next(it)
                if end == "close":
                    it.close()
                    self.assertEqual(list(it), [])
                elif end == "del":
                    del it
                elif end == "with":
                    with it:
                        next(it)
                else:
                    list(it)
                self.assertEqual(threads_after_join(nthreads), nthreads)
                self.assertEqual(fds_after_close(fds), fds)

    def test_a_walk_in_a_reference_cycle_is_collected(self):
        top = make_wide(os.path.join(self.tmp, "w"))
        fds, nthreads = open_fds(), threads()
        box = []
        it = frd.os_walk(top, onerror=lambda e: box)
        box.append(it)  # it -> onerror -> box -> it
        next(it)
        next(it)
        del it, box
        gc.collect()
        self.assertEqual(threads_after_join(nthreads), nthreads)
        self.assertEqual(fds_after_close(fds), fds)

    def test_an_exception_from_onerror_ends_the_walk(self):
        top = make_wide(os.path.join(self.tmp, "w"), width=3, depth=2)

        def boom(exc):
            raise RuntimeError("stop")
        it = frd.os_walk(top, onerror=boom)
        next(it)
        shutil.rmtree(os.path.join(top, "d00"))
        with self.assertRaises(RuntimeError):
            list(it)
        self.assertEqual(list(it), [])

    def test_a_forked_child_walks_on(self):
        # The child has no thread of the parent's pool: it lists what was queued itself.
        top = make_wide(os.path.join(self.tmp, "w"))
        want = run(os.walk, top)[0]
        it = frd.os_walk(top)
        head = [next(it), next(it)]
        head = [(d, list(ds), list(fs)) for d, ds, fs in head]
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                ok = head + [(d, list(ds), list(fs)) for d, ds, fs in it] == want
                os.write(w, b"ok" if ok else b"differs")
            finally:
                os._exit(0)
        os.close(w)
        rest = [(d, list(ds), list(fs)) for d, ds, fs in it]
        with os.fdopen(r, "rb") as f:
            child = f.read()
        os.waitpid(pid, 0)
        self.assertEqual(head + rest, want)
        self.assertEqual(child, b"ok")


class TestUnreadableLater(TmpDir):
    """A directory made unreadable after the walk started, listed ahead meanwhile."""

    def test_onerror_as_os_walk_for_a_directory_closed_between_steps(self):
        if os.getuid() == 0 and shutil.which("setpriv") is None:
            self.skipTest("root without setpriv")
        top = os.path.join(self.tmp, "u")
        code = textwrap.dedent("""
            import json, os, shutil, sys, time, frd
            top = sys.argv[1]
            def make():
                if os.path.exists(top):
                    for d in os.listdir(top):
                        os.chmod(os.path.join(top, d), 0o755)
                    shutil.rmtree(top)
                os.mkdir(top)
                for i in range(8):
                    os.makedirs(os.path.join(top, "s%d" % i, "sub"))
            def run(walker, wait):
                errs, out, order = [], [], []
                it = walker(top, onerror=lambda e: errs.append([e.errno, e.strerror,
                                                                e.filename]))
                for i, (d, ds, fs) in enumerate(it):
                    out.append([d, list(ds), fs])
                    if i == 0:
                        order = list(ds)
                    if i == 1:
                        wait(it)
                        os.chmod(os.path.join(top, order[3]), 0)
                return out, errs
            def pool_done(it):
                deadline = time.monotonic() + 60
                while it._stats()["dirs_listed_ahead"] < 6 and time.monotonic() < deadline:
                    time.sleep(0.001)
                time.sleep(0.02)
            make()
            want = run(os.walk, lambda it: None)
            make()
            got = run(frd.os_walk, pool_done)
            print(json.dumps({"uid": os.getuid(), "os": want, "frd": got}))
            make()
        """)
        cmd = [sys.executable, "-c", code, top]
        env = dict(os.environ)
        if os.getuid() == 0:
            os.chown(self.tmp, 65534, 65534)
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
            pkg = os.path.join(self.tmp, "pkg")
            shutil.copytree(os.path.dirname(frd.__file__), os.path.join(pkg, "frd"))
            for dirpath, _, files in os.walk(pkg):
                os.chmod(dirpath, 0o755)
                for f in files:
                    os.chmod(os.path.join(dirpath, f), 0o644)
            env["PYTHONPATH"] = pkg
        import json
        out = json.loads(subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                                        env=env).stdout)
        self.assertNotEqual(out["uid"], 0)
        self.assertEqual(out["frd"], out["os"])
        self.assertEqual([e[0] for e in out["os"][1]], [errno.EACCES])


if __name__ == "__main__":
    unittest.main()
