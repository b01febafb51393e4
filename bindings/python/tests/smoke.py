# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""A smoke test of an installed frd (tests/package.sh runs it with each venv's python,
from outside the source tree): the package imports from where pip put it, holds its
stubs, and its walks agree with os on a small generated tree.

Usage: python smoke.py [EXPECTED_PREFIX]   (frd must be imported from below it)
"""
import inspect
import os
import stat
import sys
import tempfile

import frd

if len(sys.argv) > 1 and not frd.__file__.startswith(sys.argv[1]):
    sys.exit("frd imported from %s, not from below %s" % (frd.__file__, sys.argv[1]))
pkg = os.path.dirname(frd.__file__)
for name in ("py.typed", "_frd.pyi", "__init__.py"):
    assert os.path.exists(os.path.join(pkg, name)), name
assert frd.__version__ == frd.FRD_VERSION and frd.FRD_VERSION.count(".") == 2
assert "onerror" in inspect.signature(frd._frd.walk).parameters

with tempfile.TemporaryDirectory() as top:
    for d in ("a", "a/b", "c", "c/d/e"):
        os.makedirs(os.path.join(top, d), exist_ok=True)
    for f in ("x", "a/y", "a/b/z", "c/d/e/w"):
        with open(os.path.join(top, f), "w") as fh:
            fh.write(f)
    os.symlink("a", os.path.join(top, "link"))
    assert list(frd.os_walk(top)) == list(os.walk(top))
    assert list(frd.os_walk(os.fsencode(top), topdown=False)) == \
        list(os.walk(os.fsencode(top), topdown=False))
    seen = 0
    for e in frd.walk(top):
        st = os.lstat(e.path)
        assert (e.size, e.mode, e.ino, e.mtime_ns) == (st.st_size, st.st_mode, st.st_ino,
                                                       st.st_mtime_ns), e.path
        seen += 1
    assert seen == 10, seen
    assert stat.S_ISLNK(next(e for e in frd.scandir_tree(top) if e.name == "link").mode)
    try:
        list(frd.walk(os.path.join(top, "x")))
        sys.exit("frd.walk on a file did not raise")
    except NotADirectoryError as e:
        assert e.filename == os.path.join(top, "x") and e.strerror == os.strerror(e.errno)
print("smoke test passed: frd %s from %s" % (frd.__version__, pkg))
