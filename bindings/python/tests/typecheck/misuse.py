# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Misuses of frd's API that a type checker must reject: each line marked `# E: code` is an
error of that code for mypy --strict, and no other line is (tests/test_typing.py)."""
import frd

frd.walk(5)  # E: call-overload
frd.walk("/usr", max_depth="3")  # E: call-overload
frd.walk("/usr", 2)  # E: call-overload
frd.walk("/usr", exclude=[5])  # E: list-item
frd.os_walk("/usr", onerror=5)  # E: call-overload
frd.scandir_tree(None)  # E: call-overload
name: bytes = next(frd.walk("/usr")).name  # E: assignment
path: str = next(frd.os_walk(b"/usr"))[0]  # E: assignment
size: int = next(frd.walk("/usr")).size  # E: assignment
frd.walk("/usr").no_such_method()  # E: attr-defined
