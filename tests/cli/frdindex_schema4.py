#!/usr/bin/env python3
"""Rewrites a schema 5 frdindex database as schema 4 wrote it: each row's metadata, packed
in one BLOB (`meta`, examples/frdindex/frdindex_rowpack.h), back in the 16 columns of its
own it had, the rest as it is. For the migration's test (frdindex_history.sh).
Usage: frdindex_schema4.py DB"""
import sqlite3
import sys

V4_ENTRIES = (
    "CREATE TABLE entries(id INTEGER PRIMARY KEY, name BLOB NOT NULL, "
    "type INTEGER NOT NULL, size INTEGER NOT NULL, mtime INTEGER NOT NULL, "
    "ctime INTEGER NOT NULL, file_id INTEGER NOT NULL, dev INTEGER NOT NULL, "
    "mode INTEGER NOT NULL, persistent INTEGER NOT NULL, nlink INTEGER NOT NULL, "
    "uid INTEGER NOT NULL, gid INTEGER NOT NULL, btime INTEGER NOT NULL, "
    "rdev INTEGER NOT NULL, attrs INTEGER NOT NULL, attrs_known INTEGER NOT NULL, "
    "fields INTEGER NOT NULL, node INTEGER)")
COLUMNS = ("type", "size", "mtime", "ctime", "file_id", "dev", "mode", "persistent", "nlink",
           "uid", "gid", "btime", "rdev", "attrs", "attrs_known", "fields")
M64 = (1 << 64) - 1


def varints(blob):
    """The varints (7 bits a byte, low first) of blob, in order."""
    out, v, shift = [], 0, 0
    for b in blob:
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            out.append(v & M64)
            v, shift = 0, 0
    if shift:
        raise ValueError("a varint runs past the end")
    return out


def unzigzag(v):
    return (v >> 1) ^ (-(v & 1) & M64)


def signed(v):
    """An unsigned 64-bit value as SQLite's INTEGER held it (frdindex cast it to int64)."""
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def unpack(blob):
    """The 16 columns, in COLUMNS' order, of one packed row."""
    vals = varints(blob)
    head = vals.pop(0)
    common = head & 4
    fields = 0x7FFF if common else vals.pop(0)
    size, mtime, ctime_off, file_id, dev, mode, nlink, uid, gid = vals[:9]
    rest = vals[9:]
    mtime = unzigzag(mtime)
    ctime = (mtime + unzigzag(ctime_off)) & M64
    btime = (ctime + unzigzag(rest.pop(0))) & M64 if head & 1 else 0
    rdev, attrs, attrs_known = (0, 0, 0x1FF) if common else rest
    mode = (mode & 0xFFFF0000) | (mode >> 4 & 0o7777) | (mode & 0xF) << 12
    return (head >> 3, signed(size), signed(mtime), signed(ctime), signed(file_id), signed(dev),
            mode, (head >> 1) & 1, nlink, uid, gid, signed(btime), signed(rdev), attrs,
            attrs_known, fields)


def main():
    con = sqlite3.connect(sys.argv[1], isolation_level=None)
    con.create_function("v4col", 2, lambda blob, i: unpack(blob)[i], deterministic=True)
    picks = ", ".join(f"v4col(meta, {i})" for i in range(len(COLUMNS)))
    con.executescript(
        "BEGIN; ALTER TABLE entries RENAME TO v5_entries; " + V4_ENTRIES + "; "
        f"INSERT INTO entries(id, name, {', '.join(COLUMNS)}, node) "
        f"SELECT id, name, {picks}, node FROM v5_entries; "
        "DROP TABLE v5_entries; PRAGMA user_version = 4; COMMIT")
    con.close()


if __name__ == "__main__":
    main()
