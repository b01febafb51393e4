# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Uses frd's whole public surface as a typed program would: mypy --strict accepts it
(tests/test_typing.py), and each reveal_type() must show the type in its comment."""
import os
import pathlib

import frd


def sizes(root: str) -> dict[str, int]:
    out: dict[str, int] = {}
    with frd.walk(root, exclude=["*.pyc", b"__pycache__"], max_depth=3, workers=2,
                  onerror=lambda e: print(e.filename, e.strerror)) as it:
        for e in it:
            reveal_type(e)  # R: frd._frd.Entry[builtins.str]
            if e.is_file() and e.size is not None:
                out[e.path] = e.size
            reveal_type(e.mtime_ns)  # R: Union[builtins.int, None]
            os.fspath(e)
    return out


def names(root: bytes) -> list[bytes]:
    entries = frd.scandir_tree(root, stats=False, sort=True)
    reveal_type(entries)  # R: builtins.list[frd._frd.Entry[builtins.bytes]]
    return [e.name for e in entries if not e.is_symlink() and e.depth < 3]


def tree(top: pathlib.Path) -> int:
    n = 0
    walker = frd.os_walk(top, topdown=True, onerror=None, followlinks=False)
    reveal_type(walker)  # R: frd._frd.OsWalk[builtins.str]
    for dirpath, dirnames, filenames in walker:
        reveal_type(dirpath)  # R: builtins.str
        dirnames[:] = [d for d in dirnames if d != ".git"]
        n += len(filenames)
    walker.close()
    for bdir, bdirs, bfiles in frd.os_walk(b"/tmp", topdown=False):
        reveal_type(bfiles)  # R: builtins.list[builtins.bytes]
    return n


version: str = frd.FRD_VERSION + frd.__version__
