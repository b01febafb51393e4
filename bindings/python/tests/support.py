# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""What the binding's tests share: generated trees, thread and descriptor counts."""
import os
import stat
import time

DATA = os.environ.get("FRD_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                    "tests", "data"))
TYPE_BITS = {"f": stat.S_IFREG, "d": stat.S_IFDIR, "l": stat.S_IFLNK, "p": stat.S_IFIFO,
             "s": stat.S_IFSOCK, "c": stat.S_IFCHR, "b": stat.S_IFBLK}
DEEP = 120


def threads():
    """Threads of this process (frd's workers included)."""
    return len(os.listdir("/proc/self/task"))


def threads_after_join(expected):
    """Threads of this process once joined ones are gone from /proc/self/task.

    pthread_join returns when the thread has cleared its id, a moment before the kernel
    drops its task entry; a loaded machine stretches that moment. So this waits (at most
    5 s) for the count to come down to `expected`: a thread that was not joined and still
    runs (a walk worker left behind) keeps the count up and the assertion fails.
    """
    deadline = time.monotonic() + 5.0
    n = threads()
    while n != expected and time.monotonic() < deadline:
        time.sleep(0.001)
        n = threads()
    return n


def make_tree(root):
    """Lays out a tree with odd names (bytes, not UTF-8), links, empty and deep dirs."""
    r = os.fsencode(root)
    names = [b"plain", b"sp ace", b"new\nline", b"\xff\xfe-not-utf8", b"caf\xc3\xa9", b"-dash",
             b"*star?", b".hidden", b"tab\tname", b"x" * 255]
    for d in (b"a", b"a/b", b"a/b/c", b"empty", b"\xfe\xfd-dir", b".hdir", b"a/.hsub"):
        os.mkdir(os.path.join(r, d))
    for d in (b"", b"a", b"a/b/c", b"\xfe\xfd-dir", b".hdir"):
        for n in names:
            with open(os.path.join(r, d, n), "wb") as f:
                f.write(n)
    os.symlink(b"a", os.path.join(r, b"link-to-dir"))
    os.symlink(b"plain", os.path.join(r, b"link-to-file"))
    os.symlink(b"missing", os.path.join(r, b"dangling"))
    os.link(os.path.join(r, b"plain"), os.path.join(r, b"a", b"hardlink"))
    os.mkfifo(os.path.join(r, b"fifo"))
    deep = os.path.join(r, b"deep")
    os.mkdir(deep)
    p = deep
    for i in range(DEEP):
        p = os.path.join(p, b"d%d" % i)
        os.mkdir(p)
    with open(os.path.join(p, b"leaf"), "wb"):
        pass
    return r


def os_walk_entries(root, followlinks=False):
    """{path: depth} of every entry below root as os.walk sees them."""
    sep = b"/" if isinstance(root, bytes) else "/"
    cut = len(root.rstrip(sep)) + 1
    out = {}
    for dirpath, dirs, files in os.walk(root, followlinks=followlinks):
        for n in dirs + files:
            path = os.path.join(dirpath, n)
            out[path] = path[cut:].count(sep) + 1
    return out




def open_fds():
    """Descriptors this process holds open."""
    return len(os.listdir("/proc/self/fd"))


def fds_after_close(expected):
    """Descriptors of this process, once a pool thread that lists ahead has closed what it
    opened for a walk that ended (at most 5 s, as threads_after_join waits)."""
    deadline = time.monotonic() + 5.0
    n = open_fds()
    while n != expected and time.monotonic() < deadline:
        time.sleep(0.001)
        n = open_fds()
    return n
