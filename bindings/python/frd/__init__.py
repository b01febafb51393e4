# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""frd for Python: a parallel directory walk with the metadata in the same pass.

walk(path, ...)          an iterator of Entry objects, streamed in batches as frd's threads
                         produce them (a bounded queue: the walk waits when Python lags)
scandir_tree(path, ...)  the same entries as a list
os_walk(top, ...)        an os.walk() replacement: the same (dirpath, dirnames, filenames)
                         tuples

Paths come back as the root was given: str (decoded as os.fsdecode does) or bytes.
"""
import os

from ._frd import Entry, FRD_VERSION, Walker, walk as _walk

__all__ = ["walk", "scandir_tree", "os_walk", "Entry", "Walker", "FRD_VERSION"]


def walk(path, *, stats=True, follow_links=False, max_depth=None, hidden=True, exclude=None,
         sort=False, workers=None, onerror=None):
    """Walks the tree below `path` and yields an Entry for every entry below it (not the
    root itself).

    stats         with False, names and types only (no stat per entry): the stat fields of
                  the entries are then None
    follow_links  follow symbolic links (a loop is reported as an error, not walked);
                  without it a root given as a link is still followed, as os.walk does
    max_depth     None, or the deepest depth yielded (an int >= 0): 1 for the root's entries
                  only, 0 for none
    hidden        with False, names starting with '.' are skipped (and not entered)
    exclude       globs (fnmatch(3), str or bytes) matched in C against each name before any
                  stat: a matching entry is neither yielded nor entered
    sort          depth-first, each directory's entries in byte order of their names;
                  otherwise the order is the walk's (parallel, unspecified)
    workers       threads (an int from 1 to 8); None: one per CPU, at most 8
    onerror       None: a root that cannot be walked raises OSError (FileNotFoundError, ...),
                  other errors are skipped as os.walk skips them; a callable: called with
                  the OSError (errno, strerror, filename) of every error, root included; what
                  it raises ends the walk

    Bad arguments raise at once, naming the argument: TypeError for a wrong type (an int
    option given a bool, a float or a str; a path or glob that is not str, bytes or
    os.PathLike), ValueError for a value out of range or a NUL in the path or a glob. The
    flags (stats, follow_links, hidden, sort) are taken by truth value, as os.walk takes
    followlinks.

    The iterator owns the walk's threads: close() (or dropping it, or an exception such as
    KeyboardInterrupt, which is checked while waiting) cancels the walk and joins them.
    """
    return _walk(path, stats=stats, follow_links=follow_links, max_depth=max_depth,
                 hidden=hidden, exclude=exclude, sort=sort, workers=workers, onerror=onerror)


def scandir_tree(path, **options):
    """Every entry below `path` as a list of Entry (options as for walk())."""
    with walk(path, **options) as it:
        return list(it)


def _is_link(path):
    try:
        return os.path.islink(path)
    except OSError:
        return False


def os_walk(top, topdown=True, onerror=None, followlinks=False):
    """Like os.walk(top, topdown, onerror, followlinks): yields the same
    (dirpath, dirnames, filenames) tuples, str or bytes as top is.

    Order: depth-first; in each tuple dirnames and filenames are sorted (by code point for
    str, by byte for bytes), and the subdirectories are walked in dirnames' order, so the
    output is what os.walk gives with its lists sorted. With topdown, editing dirnames in
    place prunes the walk as it does for os.walk.

    Differences: the whole tree is listed (in parallel, names only) before the first tuple
    is yielded, so pruning saves no listing and the tuples reflect the tree as it was then;
    with followlinks, a symlink loop is reported to onerror (ELOOP) instead of being
    walked around again (os.walk follows it until the path is too long).
    """
    if onerror is not None and not callable(onerror):
        raise TypeError(f"onerror must be callable or None, not {type(onerror).__name__}")
    try:
        top = os.fspath(top)
    except TypeError:
        raise TypeError(f"top must be str, bytes or os.PathLike, not {type(top).__name__}") from None
    sep = b"/" if isinstance(top, bytes) else "/"
    if (b"\0" if isinstance(top, bytes) else "\0") in top:
        raise ValueError("top: embedded null character in path")
    groups = {}  # dirpath -> (dirnames, filenames)
    failed = {}  # dirpath -> OSError: its listing failed, as scandir(dirpath) would
    stat_failed = {}  # path -> OSError of its stat (a directory in one not searchable)
    loops = []

    def collect(exc):
        # Listings that failed are os.walk errors (a root that cannot be stat'ed, a
        # directory that cannot be opened or read); stats of entries are not (it does not
        # stat), except a directory's, which the walk does not enter (it sits in a directory
        # that cannot be searched): os.walk fails to list it; a loop (followlinks) is
        # reported when os.walk would enter it.
        op = getattr(exc, "frd_op", "other")
        if op in ("open", "read") or exc.filename == top:
            failed.setdefault(exc.filename, exc)
        elif op == "stat":
            stat_failed.setdefault(exc.filename, exc)
        elif op == "loop":
            loops.append(exc)
            failed.setdefault(exc.filename, exc)

    for e in _walk(top, stats=False, follow_links=followlinks, onerror=collect):
        name = e.name
        parent = top if e.depth == 1 else e.path[: len(e.path) - len(name) - 1]
        g = groups.get(parent)
        if g is None:
            g = groups[parent] = ([], [])
        if e.is_dir():
            g[0].append(name)
            if e.path in stat_failed:
                failed.setdefault(e.path, stat_failed[e.path])
        elif e.is_symlink() and os.path.isdir(e.path):
            g[0].append(name)  # os.walk lists a link to a directory with the directories
        else:
            g[1].append(name)
    for exc in loops:
        path = exc.filename
        cut = path.rfind(sep)
        if cut > 0:
            groups.setdefault(path[:cut] if path[:cut] != top.rstrip(sep) else top,
                              ([], []))[0].append(path[cut + 1:])
    for g in groups.values():
        g[0].sort()
        g[1].sort()
    if top not in groups and top not in failed:
        if os.path.isdir(top):
            groups[top] = ([], [])
        else:
            return

    def listing(path):
        exc = failed.get(path)
        if exc is not None:
            if onerror is not None:
                onerror(exc)
            return None
        return groups.get(path, ([], []))

    def join(a, b):
        return a + b if a.endswith(sep) else a + sep + b

    if topdown:
        stack = [top]
        while stack:
            path = stack.pop()
            g = listing(path)
            if g is None:
                continue
            dirs, files = list(g[0]), list(g[1])
            yield path, dirs, files
            for d in reversed(dirs):
                sub = join(path, d)
                if followlinks or not _is_link(sub):
                    stack.append(sub)
    else:
        # Post-order: a frame is (path, dirs, files, next index into dirs).
        stack = []
        g = listing(top)
        if g is not None:
            stack.append([top, list(g[0]), list(g[1]), 0])
        while stack:
            frame = stack[-1]
            path, dirs, files, i = frame
            if i < len(dirs):
                frame[3] = i + 1
                sub = join(path, dirs[i])
                if followlinks or not _is_link(sub):
                    g = listing(sub)
                    if g is not None:
                        stack.append([sub, list(g[0]), list(g[1]), 0])
                continue
            stack.pop()
            yield path, dirs, files
