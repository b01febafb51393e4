# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""The package's types and signatures: inspect.signature() on every function and method,
and, where mypy is installed (Debian: python3-mypy), stubtest of the stubs against the
module, mypy --strict on a program using the whole API (typecheck/usage.py, its
reveal_type() results checked) and on misuses it must reject (typecheck/misuse.py)."""
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import tempfile
import unittest

import frd

HERE = os.path.dirname(os.path.abspath(__file__))
HAVE_MYPY = importlib.util.find_spec("mypy") is not None


class TestSignatures(unittest.TestCase):
    def params(self, fn):
        return [(p.name, p.kind.name, p.default) for p in inspect.signature(fn).parameters.values()]

    def test_the_c_functions_and_methods_have_signatures(self):
        # main: "ValueError: no signature found for builtin <built-in function walk>".
        walk_params = [("path", "POSITIONAL_OR_KEYWORD", inspect.Parameter.empty)] + [
            (name, "KEYWORD_ONLY", default) for name, default in (
                ("stats", True), ("follow_links", False), ("max_depth", None),
                ("hidden", True), ("exclude", None), ("sort", False), ("workers", None),
                ("onerror", None))]
        # walk alone takes gitignore (the walk's ignore rules) and what backup tools collect.
        walk_only = [("gitignore", "KEYWORD_ONLY", False), ("link_targets", "KEYWORD_ONLY", False),
                     ("xattrs", "KEYWORD_ONLY", False), ("xattr_value_max", "KEYWORD_ONLY", None),
                     ("link_groups", "KEYWORD_ONLY", False)]
        self.assertEqual(self.params(frd._frd.walk), walk_params + walk_only)
        self.assertEqual(self.params(frd.walk), walk_params + walk_only)
        self.assertEqual(self.params(frd.scandir_tree), walk_params)
        os_walk_params = [("top", "POSITIONAL_OR_KEYWORD", inspect.Parameter.empty),
                          ("topdown", "POSITIONAL_OR_KEYWORD", True),
                          ("onerror", "POSITIONAL_OR_KEYWORD", None),
                          ("followlinks", "POSITIONAL_OR_KEYWORD", False)]
        self.assertEqual(self.params(frd._frd.os_walk), os_walk_params)
        self.assertEqual(self.params(frd.os_walk), os_walk_params)
        for method in (frd.Entry.is_dir, frd.Entry.is_file, frd.Entry.is_symlink,
                       frd.Entry.__fspath__, frd.Walker.close, frd.Walker.__enter__,
                       frd.OsWalk.close, frd.OsWalk._stats, frd.OsWalk.__enter__):
            with self.subTest(method=method.__qualname__):
                self.assertEqual(self.params(method), [("self", "POSITIONAL_ONLY",
                                                        inspect.Parameter.empty)])
        self.assertEqual([p[0] for p in self.params(frd.OsWalk.__exit__)],
                         ["self", "exc_type", "exc_value", "traceback"])

    def test_every_public_name_has_a_docstring(self):
        for name in frd.__all__:
            obj = getattr(frd, name)
            if callable(obj):
                with self.subTest(name=name):
                    self.assertTrue(inspect.getdoc(obj))

    def test_the_types_take_subscripts_as_annotations_do(self):
        self.assertEqual(frd.Entry[str].__args__, (str,))
        self.assertEqual(frd.OsWalk[bytes].__origin__, frd.OsWalk)


@unittest.skipUnless(HAVE_MYPY, "mypy is not installed (Debian: python3-mypy)")
class TestMypy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.mkdtemp(prefix="frd-mypy-")

    @classmethod
    def tearDownClass(cls):
        import shutil
        shutil.rmtree(cls.cache)

    def mypy(self, *args):
        env = dict(os.environ)
        env["MYPYPATH"] = os.path.dirname(os.path.dirname(frd.__file__))
        return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                               self.cache, "--no-error-summary", "--hide-error-context",
                               "--show-error-codes", *args], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)

    def test_stubtest_finds_the_stubs_and_the_module_agree(self):
        env = dict(os.environ)
        env["MYPYPATH"] = os.path.dirname(os.path.dirname(frd.__file__))
        res = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--mypy-config-file",
                              os.devnull, "frd"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        self.assertEqual(res.returncode, 0, res.stdout)

    def test_a_program_using_the_whole_api_type_checks(self):
        path = os.path.join(HERE, "typecheck", "usage.py")
        res = self.mypy(path)
        want = {}
        with open(path) as f:
            for n, line in enumerate(f, 1):
                m = re.search(r"# R: (.*)$", line)
                if m:
                    want[n] = m.group(1).strip()
        got = {}
        for line in res.stdout.splitlines():
            m = re.match(r".*usage\.py:(\d+): note: Revealed type is \"(.*)\"", line)
            if m:
                got[int(m.group(1))] = m.group(2)
            else:
                self.fail("mypy: " + line)
        self.assertEqual(got, want)

    def test_misuses_are_rejected_line_by_line(self):
        path = os.path.join(HERE, "typecheck", "misuse.py")
        res = self.mypy(path)
        want = set()
        with open(path) as f:
            for n, line in enumerate(f, 1):
                m = re.search(r"# E: ([a-z-]+)$", line)
                if m:
                    want.add((n, m.group(1)))
        got = {(int(m.group(1)), m.group(2))
               for m in re.finditer(r"misuse\.py:(\d+): error: .*\[([a-z-]+)\]$", res.stdout,
                                    re.MULTILINE)}
        self.assertEqual(got, want, res.stdout)


if __name__ == "__main__":
    unittest.main()
