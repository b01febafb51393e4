# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Tests of the Python binding against os.walk and os.lstat (python3 -m unittest).

Run by ctest (label python) with PYTHONPATH set to the build's bindings/python and
FRD_TEST_DATA to tests/data; by hand:
  PYTHONPATH=build/bindings/python FRD_TEST_DATA=tests/data /usr/bin/python3 -m unittest \
      discover -s bindings/python/tests
"""
import fnmatch
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

import frd

from support import (DATA, DEEP, TYPE_BITS, make_tree, os_walk_entries,  # noqa: E402
                     threads, threads_after_join)


class Tree(unittest.TestCase):
    """A generated tree, made once per class."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="frd-py-")
        os.chmod(cls.tmp, 0o755)
        cls.root = os.path.join(cls.tmp, "t")
        os.mkdir(cls.root)
        cls.broot = make_tree(cls.root)
        for _ in os.walk(cls.root):  # the first listing updates the directories' atimes
            pass

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def check_against_lstat(self, root, **options):
        expect = os_walk_entries(root)
        got = {}
        for e in frd.walk(root, **options):
            self.assertNotIn(e.path, got)
            got[e.path] = e
        self.assertEqual(set(got), set(expect))
        for path, e in got.items():
            st = os.lstat(path)
            self.assertEqual(e.depth, expect[path], path)
            self.assertEqual(e.name, os.path.basename(path))
            self.assertEqual(TYPE_BITS[e.type], stat.S_IFMT(st.st_mode), path)
            self.assertEqual(e.is_dir(), stat.S_ISDIR(st.st_mode))
            self.assertEqual(e.is_file(), stat.S_ISREG(st.st_mode))
            self.assertEqual(e.is_symlink(), stat.S_ISLNK(st.st_mode))
            self.assertEqual(os.fspath(e), path)
            if options.get("stats", True):
                self.assertEqual((e.mode, e.ino, e.dev, e.nlink, e.uid, e.gid, e.size),
                                 (st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid,
                                  st.st_gid, st.st_size), path)
                self.assertEqual((e.mtime_ns, e.ctime_ns, e.atime_ns),
                                 (st.st_mtime_ns, st.st_ctime_ns, st.st_atime_ns), path)
                self.assertTrue(e.birthtime_ns is None or isinstance(e.birthtime_ns, int))
                self.assertIsNone(e.stat_errno)
            else:
                self.assertEqual((e.size, e.mtime_ns, e.mode, e.ino, e.nlink),
                                 (None, None, None, None, None))
        return got


class TestWalk(Tree):
    def test_bytes_root_gives_bytes_that_match_os_walk_and_lstat(self):
        got = self.check_against_lstat(self.broot)
        self.assertTrue(all(isinstance(p, bytes) for p in got))
        self.assertIn(os.path.join(self.broot, b"\xfe\xfd-dir", b"\xff\xfe-not-utf8"), got)
        self.assertIn(os.path.join(self.broot, b"deep", *[b"d%d" % i for i in range(DEEP)],
                                   b"leaf"), got)

    def test_str_root_gives_str_decoded_as_os_walk_does(self):
        got = self.check_against_lstat(self.root)
        self.assertTrue(all(isinstance(p, str) for p in got))
        self.assertIn(os.path.join(self.root, os.fsdecode(b"\xff\xfe-not-utf8")), got)

    def test_names_only_matches_os_walk_with_no_stat_fields(self):
        self.check_against_lstat(self.broot, stats=False)

    def test_one_worker_and_sorted_match_too(self):
        self.check_against_lstat(self.broot, workers=1)
        self.check_against_lstat(self.broot, sort=True, workers=2)

    def test_pathlike_root_is_taken(self):
        import pathlib
        got = {e.path for e in frd.walk(pathlib.Path(self.root), stats=False)}
        self.assertEqual(got, set(os_walk_entries(self.root)))

    def test_sort_yields_depth_first_by_byte_order(self):
        def expected(d, depth):
            for n in sorted(os.listdir(d)):
                p = os.path.join(d, n)
                yield p
                if os.path.isdir(p) and not os.path.islink(p):
                    yield from expected(p, depth + 1)
        self.assertEqual([e.path for e in frd.walk(self.broot, sort=True)],
                         list(expected(self.broot, 1)))

    def test_max_depth_limits_what_is_yielded(self):
        all_entries = os_walk_entries(self.broot)
        for depth in (1, 2, 3):
            got = {e.path for e in frd.walk(self.broot, max_depth=depth, stats=False)}
            self.assertEqual(got, {p for p, d in all_entries.items() if d <= depth})

    def test_exclude_drops_matching_names_and_their_subtrees(self):
        globs = ["*.hidden", "b", "\xff*", "sp *"]
        bglobs = [os.fsencode(g) if isinstance(g, str) else g for g in globs]
        bglobs[2] = b"\xff*"
        expect = set()
        for dirpath, dirs, files in os.walk(self.broot):
            dirs[:] = [d for d in dirs if not any(fnmatch.fnmatchcase(d, g) for g in bglobs)]
            expect.update(os.path.join(dirpath, n) for n in dirs + files
                          if not any(fnmatch.fnmatchcase(n, g) for g in bglobs))
        got = {e.path for e in frd.walk(self.broot, exclude=bglobs)}
        self.assertEqual(got, expect)
        self.assertNotIn(os.path.join(self.broot, b"a", b"b", b"c", b"plain"), got)

    def test_gitignore_leaves_out_what_git_ignores(self):
        with tempfile.TemporaryDirectory() as top:
            os.mkdir(os.path.join(top, ".git"))
            os.makedirs(os.path.join(top, "build", "deep"))
            os.mkdir(os.path.join(top, "src"))
            for name, text in ((".gitignore", "build/\n*.o\n"), ("src/a.c", ""),
                               ("src/a.o", ""), ("build/deep/x", ""), ("src/.gitignore", "!a.o\n")):
                with open(os.path.join(top, name), "w") as f:
                    f.write(text)
            got = {os.path.relpath(e.path, top) for e in frd.walk(top, gitignore=True)}
            self.assertEqual(got, {".gitignore", "src", "src/a.c", "src/a.o", "src/.gitignore"})
            self.assertIn("build", {os.path.relpath(e.path, top) for e in frd.walk(top)})

    def test_hidden_false_skips_dot_names_and_their_subtrees(self):
        expect = {p for p in os_walk_entries(self.broot)
                  if not any(part.startswith(b".")
                             for part in p[len(self.broot) + 1:].split(b"/"))}
        self.assertEqual({e.path for e in frd.walk(self.broot, hidden=False)}, expect)

    def test_follow_links_matches_os_walk_followlinks(self):
        expect = os_walk_entries(self.broot, followlinks=True)
        got = {e.path: e for e in frd.walk(self.broot, follow_links=True)}
        self.assertEqual(set(got), set(expect))
        self.assertTrue(got[os.path.join(self.broot, b"link-to-dir")].is_dir())
        self.assertEqual(got[os.path.join(self.broot, b"link-to-file")].ino,
                         os.stat(os.path.join(self.broot, b"plain")).st_ino)

    def test_missing_root_raises_file_not_found(self):
        missing = os.path.join(self.root, "no-such")
        with self.assertRaises(FileNotFoundError) as cm:
            list(frd.walk(missing))
        self.assertEqual((cm.exception.errno, cm.exception.filename), (2, missing))
        seen = []
        self.assertEqual(list(frd.walk(missing, onerror=seen.append)), [])
        self.assertEqual([(type(e), e.errno, e.filename) for e in seen],
                         [(FileNotFoundError, 2, missing)])

    def test_root_given_as_a_link_to_a_directory_is_followed_as_os_walk_does(self):
        top = os.path.join(self.broot, b"link-to-dir")
        self.check_against_lstat(top)
        self.assertEqual(list(frd.os_walk(top)), list(os.walk(top)))

    def test_root_that_is_a_file_raises_not_a_directory_as_os_scandir(self):
        # main yielded nothing, silently.
        for top in (os.path.join(self.root, "plain"), os.path.join(self.broot, b"link-to-file")):
            with self.assertRaises(NotADirectoryError) as cm:
                list(frd.walk(top, stats=False))
            with self.assertRaises(NotADirectoryError) as os_cm:
                os.scandir(top)
            self.assertEqual((cm.exception.errno, cm.exception.strerror, cm.exception.filename),
                             (os_cm.exception.errno, os_cm.exception.strerror, top))
            self.assertEqual(str(cm.exception), str(os_cm.exception))
            seen = []
            self.assertEqual(list(frd.walk(top, onerror=seen.append)), [])
            self.assertEqual([(type(e), e.errno, e.filename, e.frd_op) for e in seen],
                             [(NotADirectoryError, 20, top, "open")])

    def test_errors_carry_the_c_librarys_strerror_as_os_errors_do(self):
        # main said "no such file or directory" (frd's own text) where os says "No such
        # file or directory" (strerror's).
        missing = os.path.join(self.root, "no-such")
        with self.assertRaises(FileNotFoundError) as cm:
            list(frd.walk(missing))
        with self.assertRaises(FileNotFoundError) as os_cm:
            os.scandir(missing)
        self.assertEqual(cm.exception.strerror, os.strerror(2))
        self.assertEqual(str(cm.exception), str(os_cm.exception))

    def test_onerror_exception_ends_the_walk(self):
        def boom(exc):
            raise RuntimeError("stop here")
        with self.assertRaises(RuntimeError):
            list(frd.walk(os.path.join(self.root, "no-such"), onerror=boom))

    def test_bad_arguments_raise(self):
        for kwargs in ({"workers": 0}, {"workers": 9}, {"max_depth": -1}, {"exclude": "*.c"},
                       {"onerror": 3}):
            with self.assertRaises((ValueError, TypeError)):
                frd.walk(self.root, **kwargs)
        with self.assertRaises(TypeError):
            frd.walk(self.root, True)

    def test_every_bad_argument_raises_naming_it(self):
        # (keyword arguments, exception, text its message holds); main raised OverflowError
        # for huge ints, took max_depth=True as 1, and named neither the path nor the glob
        # with a NUL, nor the option given a float or a str.
        cases = [
            ({"max_depth": -1}, ValueError, "max_depth must be an int >= 0 or None, not -1"),
            ({"max_depth": 2**70}, ValueError, "max_depth must be an int >= 0 or None"),
            ({"max_depth": 2**31}, ValueError, "max_depth"),
            ({"max_depth": 1.5}, TypeError, "max_depth must be an int or None, not float"),
            ({"max_depth": "3"}, TypeError, "max_depth must be an int or None, not str"),
            ({"max_depth": True}, TypeError, "max_depth must be an int or None, not bool"),
            ({"workers": 0}, ValueError, "workers must be an int from 1 to 8 or None, not 0"),
            ({"workers": -1}, ValueError, "workers must be an int from 1 to 8"),
            ({"workers": 9}, ValueError, "workers must be an int from 1 to 8"),
            ({"workers": 2**70}, ValueError, "workers must be an int from 1 to 8"),
            ({"workers": 2.0}, TypeError, "workers must be an int or None, not float"),
            ({"workers": False}, TypeError, "workers must be an int or None, not bool"),
            ({"exclude": ["ok", "a\0b"]}, ValueError, "exclude[1]: embedded null character in glob"),
            ({"exclude": [b"a\0"]}, ValueError, "exclude[0]: embedded null character in glob"),
            ({"exclude": [5]}, TypeError, "exclude[0] must be str, bytes or os.PathLike, not int"),
            ({"exclude": 5}, TypeError, "exclude must be a sequence of globs or None, not int"),
            ({"exclude": "*.c"}, TypeError, "exclude must be a sequence of globs, not one"),
            ({"onerror": 3}, TypeError, "onerror must be callable or None, not int"),
        ]
        for kwargs, exc, text in cases:
            for fn in (frd.walk, frd.scandir_tree):
                with self.subTest(fn=fn.__name__, **{k: repr(v) for k, v in kwargs.items()}):
                    with self.assertRaises(exc) as cm:
                        fn(self.root, **kwargs)
                    self.assertIn(text, str(cm.exception))
        for path, exc, text in [(self.root + "\0x", ValueError, "path: embedded null character"),
                                (os.fsencode(self.root) + b"\0", ValueError, "path: embedded null"),
                                (5, TypeError, "path must be str, bytes or os.PathLike, not int"),
                                (None, TypeError, "path must be str, bytes or os.PathLike")]:
            with self.subTest(path=repr(path)):
                with self.assertRaises(exc) as cm:
                    frd.walk(path)
                self.assertIn(text, str(cm.exception))
                # os_walk, a generator as os.walk is, raises at its first step.
                with self.assertRaises(exc) as cm:
                    next(frd.os_walk(path))
                self.assertIn(text.replace("path", "top", 1), str(cm.exception))
        with self.assertRaises(TypeError) as cm:
            next(frd.os_walk(self.root, onerror=5))
        self.assertIn("onerror must be callable or None, not int", str(cm.exception))

    def test_the_bounds_and_index_types_are_taken(self):
        want = sorted(e.path for e in frd.walk(self.root, stats=False))
        for kwargs in ({"workers": 1}, {"workers": 8}, {"max_depth": 2**31 - 1},
                       {"max_depth": None, "workers": None, "exclude": None, "onerror": None},
                       {"exclude": []}, {"exclude": ()}):
            with self.subTest(**{k: repr(v) for k, v in kwargs.items()}):
                self.assertEqual(sorted(e.path for e in frd.walk(self.root, stats=False, **kwargs)),
                                 want)
        # max_depth 0: nothing below the root; an int-like (operator.index) is an int.
        self.assertEqual(list(frd.walk(self.root, max_depth=0)), [])

        class Two:
            def __index__(self):
                return 2
        self.assertEqual(sorted(e.path for e in frd.walk(self.root, stats=False, max_depth=Two())),
                         sorted(e.path for e in frd.walk(self.root, stats=False, max_depth=2)))

    def test_scandir_tree_returns_the_list(self):
        got = frd.scandir_tree(self.broot, stats=False)
        self.assertIsInstance(got, list)
        self.assertEqual({e.path for e in got}, set(os_walk_entries(self.broot)))



class TestBackupFields(unittest.TestCase):
    """link_targets, xattrs and link_groups against os.readlink, os.listxattr/os.getxattr
    and os.lstat's (st_dev, st_ino), at 1, 2 and 8 workers, in both orders."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="frd-py-backup-")
        os.chmod(cls.tmp, 0o755)
        root = cls.root = os.path.join(cls.tmp, "t")
        os.makedirs(os.path.join(root, "sub", "deeper"))
        for name in ("plain", "tagged", "one", "sub/deeper/f"):
            with open(os.path.join(root, name), "w") as f:
                f.write(name)
        os.link(os.path.join(root, "one"), os.path.join(root, "sub", "two"))
        os.link(os.path.join(root, "one"), os.path.join(root, "sub", "deeper", "three"))
        os.link(os.path.join(root, "plain"), os.path.join(root, "plain.2"))
        os.symlink("plain", os.path.join(root, "to-plain"))
        os.symlink("no/such\nplace", os.path.join(root, "dangling"))
        os.symlink(b"\xff" * 300, os.path.join(root.encode(), b"long-invalid-utf8"))
        try:
            os.setxattr(os.path.join(root, "tagged"), "user.small", b"v")
            os.setxattr(os.path.join(root, "tagged"), "user.big", b"x" * 300)
            os.setxattr(os.path.join(root, "sub"), "user.empty", b"")
            cls.have_xattrs = True
        except OSError:
            cls.have_xattrs = False

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def walks(self, root, **options):
        for workers in (1, 2, 8):
            for sort in (False, True):
                with self.subTest(workers=workers, sort=sort):
                    yield list(frd.walk(root, workers=workers, sort=sort, **options))

    def test_without_the_options_the_fields_are_none(self):
        for e in frd.walk(self.root):
            self.assertIsNone(e.link_target)
            self.assertIsNone(e.xattrs)
            self.assertIsNone(e.link_group)
            self.assertIsNone(e.link_first)

    def test_link_targets_equal_readlink(self):
        for root in (self.root, self.root.encode()):
            for entries in self.walks(root, link_targets=True):
                links = 0
                for e in entries:
                    if e.is_symlink():
                        links += 1
                        self.assertEqual(e.link_target, os.readlink(e.path), e.path)
                        self.assertIs(type(e.link_target), type(root))
                    else:
                        self.assertIsNone(e.link_target, e.path)
                self.assertEqual(links, 3)

    def test_xattrs_equal_listxattr_and_getxattr(self):
        if not self.have_xattrs:
            self.skipTest("no user extended attributes on this file system")
        for entries in self.walks(self.root, xattrs=True):
            for e in entries:
                names = os.listxattr(e.path, follow_symlinks=False)
                expect = {n: os.getxattr(e.path, n, follow_symlinks=False) for n in names}
                self.assertEqual(e.xattrs, expect, e.path)
            tagged = [e for e in entries if e.name == "tagged"][0]
            self.assertEqual(tagged.xattrs["user.big"], b"x" * 300)
        broot = self.root.encode()
        sub = [e for e in frd.walk(broot, xattrs=True) if e.name == b"sub"][0]
        self.assertEqual(sub.xattrs, {b"user.empty": b""})

    def test_a_value_above_xattr_value_max_is_none(self):
        if not self.have_xattrs:
            self.skipTest("no user extended attributes on this file system")
        tagged = [e for e in frd.walk(self.root, xattrs=True, xattr_value_max=10)
                  if e.name == "tagged"][0]
        self.assertEqual(tagged.xattrs, {"user.small": b"v", "user.big": None})
        with self.assertRaises(ValueError):
            frd.walk(self.root, xattrs=True, xattr_value_max=0)

    def test_link_groups_equal_those_of_lstat(self):
        for entries in self.walks(self.root, link_groups=True):
            by_inode = {}
            for e in entries:
                st = os.lstat(e.path)
                if stat.S_ISDIR(st.st_mode) or st.st_nlink < 2:
                    self.assertIsNone(e.link_group, e.path)
                    self.assertIsNone(e.link_first, e.path)
                else:
                    by_inode.setdefault((st.st_dev, st.st_ino), []).append(e)
            self.assertEqual(sorted(len(g) for g in by_inode.values()), [2, 3])
            groups = set()
            for members in by_inode.values():
                self.assertEqual(len({e.link_group for e in members}), 1)
                groups.add(members[0].link_group)
                firsts = [e for e in members if e.link_first is None]
                self.assertEqual(len(firsts), 1, [e.path for e in members])
                for e in members:
                    if e is not firsts[0]:
                        self.assertEqual(e.link_first, firsts[0].path)
            self.assertEqual(len(groups), 2)

    def test_sorted_link_groups_are_numbered_in_walk_order(self):
        entries = list(frd.walk(self.root, link_groups=True, sort=True))
        seen = []
        for e in entries:
            if e.link_group is not None and e.link_group not in seen:
                self.assertIsNone(e.link_first, e.path)
                seen.append(e.link_group)
        self.assertEqual(seen, [1, 2])


class TestUnreadable(unittest.TestCase):
    """A directory the walker may not open: as uid 65534 when run as root (setpriv)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="frd-py-perm-")
        os.chmod(self.tmp, 0o755)
        self.root = os.path.join(self.tmp, "t")
        os.mkdir(self.root)
        make_tree(self.root)
        for d in ("a/b", "closed"):
            os.makedirs(os.path.join(self.root, d), exist_ok=True)
        with open(os.path.join(self.root, "closed", "inside"), "w"):
            pass
        os.chmod(os.path.join(self.root, "closed"), 0)
        os.chmod(os.path.join(self.root, "a", "b"), 0o644)  # readable, not searchable

    def tearDown(self):
        os.chmod(os.path.join(self.root, "closed"), 0o755)
        os.chmod(os.path.join(self.root, "a", "b"), 0o755)
        shutil.rmtree(self.tmp)

    def test_unreadable_dirs_agree_with_os_walk(self):
        code = textwrap.dedent("""
            import json, os, sys, frd
            root = sys.argv[1]
            def run(walker):
                errs = []
                out = []
                for dirpath, dirs, files in walker(root, onerror=errs.append):
                    out.append([dirpath, list(dirs), files])
                return out, [[type(e).__name__, e.errno, e.strerror, e.filename] for e in errs]
            walk_errs = []
            got = list(frd.walk(root, onerror=walk_errs.append))
            entries = sorted(e.path for e in got)
            stat_errnos = sorted([e.path, e.stat_errno, e.size] for e in got
                                 if e.stat_errno is not None)
            print(json.dumps({"os": run(os.walk), "frd": run(frd.os_walk),
                              "uid": os.getuid(), "entries": entries,
                              "stat_errnos": stat_errnos,
                              "walk_errs": sorted([type(e).__name__, e.errno, e.filename,
                                                   e.frd_op] for e in walk_errs)}))
        """)
        cmd = [sys.executable, "-c", code, self.root]
        env = dict(os.environ)
        if os.getuid() == 0:
            if shutil.which("setpriv") is None:
                self.skipTest("root without setpriv")
            cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
            # The build tree may sit in a folder only root can enter (a mktemp -d clone):
            # the unprivileged interpreter imports a copy of the package from the test's
            # own folder, which it can read.
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
        # "a/b" can be listed (read permission) but not searched, so "a/b/c" cannot be
        # opened; "closed" cannot be listed at all.
        self.assertEqual(sorted(e[3] for e in out["os"][1]),
                         sorted([os.path.join(self.root, "a", "b", "c"),
                                 os.path.join(self.root, "closed")]))
        # frd.walk: the unreadable directories are entries, their contents are not.
        closed = os.path.join(self.root, "closed")
        self.assertIn(closed, out["entries"])
        self.assertNotIn(os.path.join(closed, "inside"), out["entries"])
        self.assertIn([PermissionError.__name__, 13, closed, "open"], out["walk_errs"])
        # The entries of "a/b" are listed but cannot be stat'ed: each is reported to onerror
        # (op "stat") and yielded with stat_errno set and no metadata.
        ab = os.path.join(self.root, "a", "b")
        self.assertEqual(out["stat_errnos"], [[os.path.join(ab, "c"), 13, None]])
        self.assertIn([PermissionError.__name__, 13, os.path.join(ab, "c"), "stat"],
                      out["walk_errs"])
        # Each failure once: "a/b/c" is a directory whose stat failed, so the walk does not
        # try to open it as well (that would report the same path twice).
        self.assertEqual(len(out["walk_errs"]), 2)


@unittest.skipUnless(os.path.exists(os.path.join(DATA, "u-boot.tsv.gz")), "no tests/data")
class TestUBoot(Tree):
    """The U-Boot source tree laid out by tests/data/materialize-tree."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="frd-py-uboot-")
        cls.root = os.path.join(cls.tmp, "u-boot")
        subprocess.run([sys.executable, os.path.join(DATA, "materialize-tree"),
                        os.path.join(DATA, "u-boot.tsv.gz"), cls.root], check=True,
                       stdout=subprocess.DEVNULL)
        cls.broot = os.fsencode(cls.root)
        for _ in os.walk(cls.root):
            pass

    def test_walk_matches_os_walk_and_lstat(self):
        got = self.check_against_lstat(self.root)
        self.assertGreater(len(got), 40000)
        self.check_against_lstat(self.broot, stats=False)

    def test_os_walk_equals_os_walk(self):
        self.assertEqual(list(frd.os_walk(self.root)), list(os.walk(self.root)))
        self.assertEqual(list(frd.os_walk(self.broot, topdown=False)),
                         list(os.walk(self.broot, topdown=False)))

    def test_close_mid_walk_cancels_and_joins_threads(self):
        # The tree holds more entries than the queue (16 batches of 512) and the workers'
        # batches: the walk waits for Python, so its threads are there until close().
        before = threads()
        for _ in range(20):
            it = frd.walk(self.broot, workers=4)
            next(it)
            self.assertGreater(threads(), before)
            it.close()
            self.assertEqual(threads_after_join(before), before)
            self.assertEqual(list(it), [])

    def test_dropping_an_iterator_mid_walk_joins_threads(self):
        before = threads()
        for _ in range(20):
            it = frd.walk(self.broot)
            next(it)
            del it
            self.assertEqual(threads_after_join(before), before)

    def test_a_walker_in_a_reference_cycle_is_collected_and_joined(self):
        import gc
        before = threads()
        for _ in range(5):
            box = []
            it = frd.walk(self.broot, onerror=lambda exc: box)
            box.append(it)  # it -> onerror -> box -> it
            next(it)
            del it, box
            gc.collect()
            self.assertEqual(threads_after_join(before), before)

    def test_with_block_closes(self):
        before = threads()
        with frd.walk(self.broot) as it:
            next(it)
        self.assertEqual(threads_after_join(before), before)

    def test_other_threads_run_while_next_waits_for_the_walk(self):
        # With a switch interval of 1000 s the interpreter never takes the GIL from the main
        # thread by force: the counting thread can run while phase[0] == "in next" only if
        # __next__ released the GIL while it waited for a batch. Thousands of globs per name
        # make the walk slower than Python, so __next__ does wait.
        import threading
        phase = ["before"]
        counts = {"before": 0, "in next": 0, "after": 0}
        stop = []

        def count():
            while not stop:
                counts[phase[0]] += 1
                time.sleep(0.001)  # releases the GIL, so the main thread gets it back

        old = sys.getswitchinterval()
        sys.setswitchinterval(1000)
        t = threading.Thread(target=count)
        t.start()
        try:
            with frd.walk(self.broot, exclude=["no-such-%d*" % i for i in range(3000)]) as it:
                phase[0] = "in next"
                next(it)
                phase[0] = "after"
        finally:
            stop.append(True)
            sys.setswitchinterval(old)
            t.join()
        self.assertGreater(counts["in next"], 0)

    def test_sigint_stops_the_walk_and_joins_threads(self):
        # The child walks again and again until SIGINT arrives: it must raise
        # KeyboardInterrupt out of the iteration and leave only its main thread.
        code = textwrap.dedent("""
            import os, signal, sys, frd
            # A process started in the background by a non-interactive shell inherits
            # SIGINT ignored, and Python then keeps it ignored: restore Python's handler.
            signal.signal(signal.SIGINT, signal.default_int_handler)
            root, slow = sys.argv[1], sys.argv[2] == "slow"
            # "slow": thousands of globs per name make the walk slower than Python, so
            # the signal comes while __next__ waits for a batch with the GIL released.
            exclude = ["no-such-%d*" % i for i in range(3000)] if slow else None
            try:
                print("walking", flush=True)
                while True:
                    for e in frd.walk(root, exclude=exclude):
                        pass
            except KeyboardInterrupt:
                print("interrupted", len(os.listdir("/proc/self/task")), flush=True)
        """)
        for mode in ("fast", "slow", "fast", "slow"):
            p = subprocess.Popen([sys.executable, "-c", code, self.broot, mode],
                                 stdout=subprocess.PIPE, text=True)
            self.assertEqual(p.stdout.readline(), "walking\n")
            os.kill(p.pid, signal.SIGINT)
            out, _ = p.communicate(timeout=120)
            self.assertEqual(out, "interrupted 1\n")
            self.assertEqual(p.returncode, 0)


if __name__ == "__main__":
    unittest.main()
