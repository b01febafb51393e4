#!/usr/bin/env python3
"""Reads ncdu JSON exports (format 1.x) for tests/cli/frddu_ncdu.sh.

  ncdu_json.py same A B      exit 0 if the two exports hold the same tree: the same items
                             with the same fields (names as bytes), children in any order;
                             metadata and ncdu's "dev":0 on excluded items are ignored
  ncdu_json.py loaded A B    the same, where B is A as ncdu loaded and wrote it again: ncdu
                             1.18 reads its own "excluded":"othfs" back as "pattern"
  ncdu_json.py totals A      print "DISK APPARENT ITEMS": the totals ncdu shows for the
                             root, a file with several links (hlnkc) counted once (as du -s -B1, -b, --inodes)
  ncdu_json.py sorted A      print each directory whose children are not in byte order of
                             their names (exit 1 if any)
"""
import json
import sys


def load(path):
    # Names are the kernel's bytes: read them through surrogateescape, as ncdu writes them.
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "surrogateescape")
    doc = json.loads(text)
    if not (isinstance(doc, list) and doc[0] == 1 and len(doc) == 4):
        sys.exit(f"{path}: not an ncdu export (major version 1, four elements)")
    return doc[3]


def norm(item, loaded=False):
    """A comparable form: (info, sorted children) for a directory, info for anything else."""
    if isinstance(item, list):
        info = dict(item[0])
        kids = sorted((norm(k, loaded) for k in item[1:]), key=repr)
        return ("dir", tuple(sorted(clean(info, loaded).items())), tuple(kids))
    return ("item", tuple(sorted(clean(dict(item), loaded).items())))


def clean(info, loaded):
    if loaded and info.get("excluded") == "othfs":
        info["excluded"] = "pattern"
    if info.get("excluded") == "pattern":
        info.pop("dev", None)  # ncdu 1.18 writes "dev":0 there, meaning nothing
    return info


def totals(root):
    disk = apparent = items = 0
    seen = set()
    stack = [(root, None)]
    while stack:
        item, dev = stack.pop()
        kids = []
        if isinstance(item, list):
            item, kids = item[0], item[1:]
        dev = item.get("dev", dev)
        stack.extend((k, dev) for k in kids)
        if "excluded" in item:
            continue
        if item.get("hlnkc"):
            key = (dev, item["ino"])
            if key in seen:
                continue
            seen.add(key)
        items += 1
        disk += item.get("dsize", 0)
        apparent += item.get("asize", 0)
    return disk, apparent, items


def unsorted(root):
    """The paths of the directories whose children are not in byte order of their names."""
    out = []
    stack = [(root, "")]
    while stack:
        item, parent = stack.pop()
        if not isinstance(item, list):
            continue
        path = parent + "/" + item[0]["name"]
        names = [k[0]["name"] if isinstance(k, list) else k["name"] for k in item[1:]]
        as_bytes = [n.encode("utf-8", "surrogateescape") for n in names]
        if as_bytes != sorted(as_bytes):
            out.append(path)
        stack.extend((k, path) for k in item[1:])
    return out


if __name__ == "__main__":
    if sys.argv[1] in ("same", "loaded"):
        loaded = sys.argv[1] == "loaded"
        a, b = norm(load(sys.argv[2]), loaded), norm(load(sys.argv[3]), loaded)
        if a != b:
            def flat(n, path=""):
                name = dict(n[1]).get("name", "?")
                out = {path + "/" + name: n[1]}
                for k in (n[2] if n[0] == "dir" else ()):
                    out.update(flat(k, path + "/" + name))
                return out
            fa, fb = flat(a), flat(b)
            for p in sorted(set(fa) | set(fb)):
                if fa.get(p) != fb.get(p):
                    print(f"  {p!r}: {fa.get(p)} vs {fb.get(p)}")
            sys.exit(1)
    elif sys.argv[1] == "sorted":
        bad = unsorted(load(sys.argv[2]))
        for p in bad:
            print(f"  {p!r}: children not by name")
        sys.exit(1 if bad else 0)
    elif sys.argv[1] == "totals":
        print(*totals(load(sys.argv[2])))
    else:
        sys.exit(__doc__)
