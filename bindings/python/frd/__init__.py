# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""frd for Python: fast directory walks, with the metadata read in the same pass.

walk(path, ...)          an iterator of Entry objects, streamed in batches as frd's threads
                         produce them (frd's pull iterator: the walk waits when Python lags)
scandir_tree(path, ...)  the same entries as a list
os_walk(top, ...)        os.walk(): the same (dirpath, dirnames, filenames) tuples in the
                         same order, each directory listed when the walk reaches it (ahead
                         on other threads), pruning by editing dirnames in place

Paths come back as the root was given: str (decoded as os.fsdecode does) or bytes.
Errors are OSError (FileNotFoundError, PermissionError, ...) with errno, strerror and
filename, as os raises them.
"""
from __future__ import annotations

import os as _os
import typing as _t
from collections import abc as _abc

from ._frd import FRD_VERSION, Entry, OsWalk, Walker
from ._frd import os_walk as _os_walk
from ._frd import walk as _walk

__all__ = ["walk", "scandir_tree", "os_walk", "Entry", "Walker", "OsWalk", "FRD_VERSION",
           "__version__"]

__version__: str = FRD_VERSION

# Types of the arguments (private names: the module's public surface is __all__).
_Glob = _t.Union[str, bytes, "_os.PathLike[str]", "_os.PathLike[bytes]"]
_StrPath = _t.Union[str, "_os.PathLike[str]"]
_BytesPath = _t.Union[bytes, "_os.PathLike[bytes]"]
_OnError = _t.Optional[_abc.Callable[[OSError], object]]
_Globs = _t.Optional[_abc.Iterable[_Glob]]


@_t.overload
def walk(path: _StrPath, *, stats: bool = ..., follow_links: bool = ...,
         max_depth: _t.Optional[int] = ..., hidden: bool = ..., exclude: _Globs = ...,
         sort: bool = ..., workers: _t.Optional[int] = ...,
         onerror: _OnError = ..., gitignore: bool = ...,
         link_targets: bool = ..., xattrs: bool = ...,
         xattr_value_max: _t.Optional[int] = ..., link_groups: bool = ...) -> Walker[str]: ...
@_t.overload
def walk(path: _BytesPath, *, stats: bool = ..., follow_links: bool = ...,
         max_depth: _t.Optional[int] = ..., hidden: bool = ..., exclude: _Globs = ...,
         sort: bool = ..., workers: _t.Optional[int] = ...,
         onerror: _OnError = ..., gitignore: bool = ...,
         link_targets: bool = ..., xattrs: bool = ...,
         xattr_value_max: _t.Optional[int] = ..., link_groups: bool = ...) -> Walker[bytes]: ...


def walk(path: _t.Union[_StrPath, _BytesPath], *, stats: bool = True, follow_links: bool = False,
         max_depth: _t.Optional[int] = None, hidden: bool = True, exclude: _Globs = None,
         sort: bool = False, workers: _t.Optional[int] = None,
         onerror: _OnError = None,
         gitignore: bool = False, link_targets: bool = False, xattrs: bool = False,
         xattr_value_max: _t.Optional[int] = None,
         link_groups: bool = False) -> _t.Union[Walker[str], Walker[bytes]]:
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
    onerror       None: a root that cannot be walked raises OSError (FileNotFoundError,
                  NotADirectoryError for a file, ...), other errors are skipped as os.walk
                  skips them; a callable: called with the OSError (errno, strerror,
                  filename) of every error, root included; what it raises ends the walk
    gitignore     leave out what git ignores (.gitignore files, info/exclude, the global
                  excludes file, inside a git work tree: frd_ignore(3)), before any stat: an
                  ignored entry is neither yielded nor stat'ed, an ignored directory not opened
    link_targets  each symbolic link's Entry.link_target, as os.readlink gives it (read
                  relative to its directory's descriptor, never by path)
    xattrs        each entry's extended attributes in Entry.xattrs, a dict of name to value
                  (bytes), as os.listxattr/os.getxattr with follow_symlinks=False give them
                  (a followed link's: its target's); ACLs and file capabilities included
    xattr_value_max  None (64 KiB), or the largest value read (an int >= 1): a longer one
                  is None in the dict
    link_groups   hard links: Entry.link_group, the same int for every link to one file
                  (non-directories with nlink > 1), and Entry.link_first, the path under
                  which the walk met the group first (None in that entry); with sort=True
                  groups are numbered 1, 2, ... in the walk's order
    A link target or attributes that cannot be read go to onerror (frd_op "readlink" or
    "xattr"), and the entry is yielded without them.

    Bad arguments raise at once, naming the argument: TypeError for a wrong type (an int
    option given a bool, a float or a str; a path or glob that is not str, bytes or
    os.PathLike), ValueError for a value out of range or a NUL in the path or a glob. The
    flags (stats, follow_links, hidden, sort) are taken by truth value, as os.walk takes
    followlinks.

    The iterator owns the walk's threads: close() (or dropping it, or an exception such as
    KeyboardInterrupt, which is checked while waiting) cancels the walk and joins them.
    """
    return _walk(path, stats=stats, follow_links=follow_links, max_depth=max_depth,
                 hidden=hidden, exclude=exclude, sort=sort, workers=workers, onerror=onerror,
                 gitignore=gitignore, link_targets=link_targets, xattrs=xattrs,
                 xattr_value_max=xattr_value_max, link_groups=link_groups)


@_t.overload
def scandir_tree(path: _StrPath, *, stats: bool = ..., follow_links: bool = ...,
                 max_depth: _t.Optional[int] = ..., hidden: bool = ...,
                 exclude: _Globs = ..., sort: bool = ...,
                 workers: _t.Optional[int] = ...,
                 onerror: _OnError = ...) -> list[Entry[str]]: ...
@_t.overload
def scandir_tree(path: _BytesPath, *, stats: bool = ...,
                 follow_links: bool = ..., max_depth: _t.Optional[int] = ..., hidden: bool = ...,
                 exclude: _Globs = ..., sort: bool = ...,
                 workers: _t.Optional[int] = ...,
                 onerror: _OnError = ...) -> list[Entry[bytes]]: ...


def scandir_tree(path: _t.Union[_StrPath, _BytesPath], *, stats: bool = True,
                 follow_links: bool = False, max_depth: _t.Optional[int] = None,
                 hidden: bool = True, exclude: _Globs = None, sort: bool = False,
                 workers: _t.Optional[int] = None,
                 onerror: _OnError = None) -> _t.Union[list[Entry[str]], list[Entry[bytes]]]:
    """Every entry below `path` as a list of Entry (the options are walk()'s)."""
    with walk(path, stats=stats, follow_links=follow_links, max_depth=max_depth, hidden=hidden,
              exclude=exclude, sort=sort, workers=workers, onerror=onerror) as it:
        entries: list[_t.Any] = list(it)  # all str, or all bytes: as path
    return entries


@_t.overload
def os_walk(top: _StrPath, topdown: bool = ...,
            onerror: _OnError = ...,
            followlinks: bool = ...) -> OsWalk[str]: ...
@_t.overload
def os_walk(top: _BytesPath, topdown: bool = ...,
            onerror: _OnError = ...,
            followlinks: bool = ...) -> OsWalk[bytes]: ...


def os_walk(top: _t.Union[_StrPath, _BytesPath], topdown: bool = True, onerror: _OnError = None,
            followlinks: bool = False) -> _t.Union[OsWalk[str], OsWalk[bytes]]:
    """os.walk(top, topdown, onerror, followlinks): yields the same
    (dirpath, dirnames, filenames) tuples, in the same order, str or bytes as top is.

    Each directory is listed when the walk reaches it, as os.walk lists it: the first tuple
    comes after one listing; with topdown, editing dirnames in place (dirnames[:] = ...)
    prunes the walk, and the directories pruned are never opened; a directory that cannot be
    listed when reached (unreadable, renamed or removed meanwhile) goes to onerror as the
    OSError os.scandir raises (a top that is a file: NotADirectoryError). Symbolic links to
    directories are among the dirnames and walked only with followlinks.

    Ahead of the consumer, other threads list the next directories the walk will enter
    (at most a few, those it enters whatever dirnames is made to hold); one so listed is
    used only if its name still leads to it with the same modification and change times
    when the walk reaches it, or it is listed again then.

    Differences from os.walk: a directory that repeats one of its ancestors (a link loop
    with followlinks, a bind mount of a directory below itself) goes to onerror as ELOOP
    and is not walked again (os.walk goes round until the path is too long); directories
    are opened relative to their parent's descriptor, so trees deeper than PATH_MAX are
    walked whole. Arguments are checked at the first step, as os.walk's generator does.

    The iterator (OsWalk) has close() and is a context manager, as generators are.
    """
    return _os_walk(top, topdown, onerror, followlinks)
