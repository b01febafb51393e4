#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright (c) 2026 The frd authors
"""Checks that frd's modules depend one way, by their includes and by their calls.

  includes  every source file includes headers of its own module or of a module ranked
            below it, never above and never of another module of its rank; a module's
            private header (MODULES' `private`) only from that module's own files
  calls     (with a build directory) the library's call graph between source files, read
            from the object files' symbol tables (nm): no cycle between files, and no call
            to a module ranked above or beside the caller's
  realloc   no realloc( in the library outside its growth helper (FRD__RESERVE,
            frd__grow_array in lib/alloc.c): lib/internal.h

The modules are the table MODULES below, lowest first; lib/README.md draws them. To place
a new directory, add a row: its rank (a file may use ranks below its own), a name, the
path patterns of its files (fnmatch, first row that matches wins), and its private headers.

Usage: scripts/check-layers.py [--figures] [BUILD_DIR]
  BUILD_DIR  a configured and built build directory (compile_commands.json and the
             library's object files): the calls are checked too; without it, includes and
             realloc only
  --figures  prints the walker's figures instead of checking: file-level call cycles,
             fields per struct, the longest functions, assertions per 1,000 lines (needs
             BUILD_DIR, and clang for the struct fields)
Exits 0 when clean, 1 naming each offence, 2 for a file no module places.
"""
import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
from collections import defaultdict

# (rank, module, path patterns, private headers: included only by the module's own files)
MODULES = [
    (0, "interface", ["decode/*", "lib/include/*", "frd_config.h", "frd_version.h"], []),
    (1, "lib-core", ["lib/internal.h", "lib/introsort.h", "lib/alloc.c", "lib/error.c",
                     "lib/list.c"], []),
    (2, "platform", ["platform/*"], []),
    (3, "lister", ["lib/lister.c"], []),
    (4, "sched", ["walker/sched/*"], ["walker/sched/sched_int.h", "walker/sched/deque.h"]),
    (4, "ignore", ["walker/ignore/*"], []),
    (5, "walk-core", ["walker/core/*"], []),
    (6, "concurrent", ["walker/concurrent/*"], []),
    (6, "ordered", ["walker/ordered/*"], ["walker/ordered/ordered_int.h"]),
    (7, "walker-api", ["walker/api.c", "walker/api.h", "walker/iter.c"], ["walker/api.h"]),
    (8, "mpi", ["mpi/*"], []),
    (9, "users", ["examples/*", "tests/*", "bench/*", "bindings/*"], []),
]
# Private headers tests may include all the same (unit tests of a module's parts).
PRIVATE_OPEN_TO = ["tests/*"]
# Where the include checks look, and where quoted includes are searched after the
# including file's own directory (the build's -I directories).
SOURCE_DIRS = ["decode", "lib", "platform", "walker", "mpi", "examples", "tests", "bench",
               "bindings"]
INCLUDE_DIRS = ["lib/include", "mpi/include", "lib", "platform", "decode", "walker", "mpi",
                "examples/common", "examples", "tests/support", "tests", "bench"]
# <name.h> is followed only into these: the public headers users include (<frd.h>,
# <frd_mpi.h>); any other <name.h> is a system or third-party header.
PUBLIC_INCLUDE_DIRS = ["lib/include", "mpi/include"]
# Folders the include check never enters: installed packages, builds, vendored copies.
SKIP_NAMES = {"node_modules", "vendor", ".git"}
SKIP_PATHS = {"bindings/node/frd"}  # the C sources npm pack copies in (scripts/vendor.js)
GENERATED = {"frd_config.h", "frd_version.h"}
# The library (the calls and realloc checks), and its growth helper.
LIBRARY_DIRS = ["decode", "lib", "platform", "walker", "mpi"]
GROWTH_HELPERS = ["lib/alloc.c"]
SOURCE_EXTS = (".c", ".h", ".cc", ".cpp", ".hpp")


def module_of(path):
    for rank, name, patterns, _ in MODULES:
        if any(fnmatch.fnmatchcase(path, p) for p in patterns):
            return rank, name
    return None


def private_owner(path):
    """The module whose private header `path` is, or None."""
    for _, name, _, private in MODULES:
        if path in private:
            return name
    return None


def sources(dirs):
    out = []
    for d in dirs:
        for base, subdirs, files in os.walk(d):
            subdirs[:] = [s for s in subdirs if s not in SKIP_NAMES and not s.startswith("build")
                          and os.path.join(base, s) not in SKIP_PATHS]
            out.extend(os.path.join(base, f) for f in files if f.endswith(SOURCE_EXTS))
    return sorted(out)


def strip_c(text):
    """The text without comments and string literals (kept line for line)."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pattern.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0)[0] == "/" else '""',
                       text)


def resolve_include(src, name):
    here = os.path.normpath(os.path.join(os.path.dirname(src), name))
    if os.path.exists(here):
        return here
    for d in INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.exists(p):
            return p
    if os.path.basename(name) in GENERATED:
        return os.path.basename(name)
    return None  # a system or third-party header


def resolve_public(name):
    """The tree's public header `<name>` names (<frd.h>, <frd_mpi.h>), or None."""
    for d in PUBLIC_INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.exists(p):
            return p
    return None


def check_includes(problems):
    unplaced = False
    inc_re = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)
    for src in sources(SOURCE_DIRS):
        here = module_of(src)
        if here is None:
            print(f"check-layers: {src} is in no module: place it in scripts/check-layers.py",
                  file=sys.stderr)
            unplaced = True
            continue
        with open(src, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for bracket, name in inc_re.findall(text):
            target = resolve_include(src, name) if bracket == '"' else resolve_public(name)
            if target is None:
                continue
            there = module_of(target)
            if there is None:
                continue
            owner = private_owner(target)
            if owner is not None and owner != here[1] and \
                    not any(fnmatch.fnmatchcase(src, p) for p in PRIVATE_OPEN_TO):
                problems.append(f"{src} ({here[1]}) includes {target}, private to {owner}")
            elif there[1] != here[1] and there[0] >= here[0]:
                way = "above" if there[0] > here[0] else "beside"
                problems.append(f"{src} ({here[1]}, rank {here[0]}) includes {target} "
                                f"({there[1]}, rank {there[0]}): a module {way} it")
    return unplaced


def check_realloc(problems):
    call = re.compile(r"\b(?:frd__)?realloc\s*\(")
    for src in sources(LIBRARY_DIRS):
        if src in GROWTH_HELPERS:
            continue
        with open(src, encoding="utf-8", errors="replace") as f:
            text = strip_c(f.read())
        for i, line in enumerate(text.split("\n"), 1):
            if call.search(line) and not re.search(r"\b(?:void|\*)\s*\*?\s*(?:frd__)?realloc\s*\(", line):
                problems.append(f"{src}:{i}: realloc( outside the growth helper: use "
                                "FRD__RESERVE (lib/internal.h)")


def library_objects(build):
    """{source: object file} of the library's sources in build's compile_commands.json."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = json.load(f)
    root = os.getcwd()
    out = {}
    for c in commands:
        src = os.path.relpath(c["file"], root)
        if src.split(os.sep)[0] not in LIBRARY_DIRS:
            continue
        args = c["arguments"] if "arguments" in c else shlex.split(c["command"])
        if "-o" not in args:
            continue
        obj = args[args.index("-o") + 1]
        obj = os.path.normpath(os.path.join(c["directory"], obj))
        if any(f"/{t}.dir/" in obj for t in ("frd_objects", "frd_decode_objects", "frd_mpi")):
            out[src] = obj
    return out


def call_graph(build):
    """The library's file-level call graph: {caller: {callee: [symbols]}}."""
    objects = library_objects(build)
    if not objects:
        sys.exit(f"check-layers: no library objects in {build}/compile_commands.json")
    defined = {}
    used = {}
    for src, obj in objects.items():
        if not os.path.exists(obj):
            sys.exit(f"check-layers: {obj} is missing: build {build} first")
        out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
        used[src] = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                used[src].add(f[1])
            elif len(f) == 3 and f[1] in "TDBRGSVWC":
                defined.setdefault(f[2], src)
    edges = {src: defaultdict(list) for src in objects}
    for src, symbols in used.items():
        for sym in sorted(symbols):
            to = defined.get(sym)
            if to is not None and to != src:
                edges[src][to].append(sym)
    return edges


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def check_calls(build, problems):
    edges = call_graph(build)
    for comp in cycles(edges):
        inside = set(comp)
        detail = "; ".join(f"{a} -> {b} ({', '.join(edges[a][b][:3])})"
                           for a in comp for b in sorted(edges[a]) if b in inside)
        problems.append(f"call cycle between {len(comp)} files: {detail}")
    for a in sorted(edges):
        ma = module_of(a)
        for b, syms in sorted(edges[a].items()):
            mb = module_of(b)
            if ma and mb and mb[1] != ma[1] and mb[0] >= ma[0]:
                way = "above" if mb[0] > ma[0] else "beside"
                problems.append(f"{a} ({ma[1]}) calls {b} ({mb[1]}, a module {way} it): "
                                f"{', '.join(syms[:3])}")
    return edges


def function_lengths(paths):
    """(lines, name, file) of each function (clang-format: a function's braces at column 0)."""
    out = []
    for path in paths:
        with open(path) as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            if lines[i] == "{":
                j = i - 1
                while j > 0 and not re.match(r"^[A-Za-z_].*\(", lines[j]):
                    j -= 1
                m = re.search(r"(\w+)\s*\(", lines[j])
                k = i + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                out.append((k - j + 1, m.group(1) if m else "?", path))
                i = k
            i += 1
    return sorted(out, reverse=True)


def struct_fields(build, names, units):
    """{struct: (leaf fields, top-level fields)} from clang's AST of the source files `units`:
    a member whose type is a struct defined inside the struct counts its own fields."""
    dirs = sorted({os.path.dirname(p) for p in sources(["walker"])})
    out = ""
    for unit in units:
        if not os.path.exists(unit):
            continue
        cmd = (["clang", "-fsyntax-only", "-std=c11", "-D_GNU_SOURCE", "-D_FILE_OFFSET_BITS=64",
                "-Xclang", "-ast-dump=json", "-Xclang", "-ast-dump-filter=frd_"] +
               [f"-I{d}" for d in ["lib/include", "lib", "platform", "decode", "walker"] + dirs] +
               [f"-I{build}/include", f"-I{build}/generated", unit])
        try:
            out += subprocess.run(cmd, capture_output=True, text=True).stdout
        except FileNotFoundError:
            return {}
    decoder = json.JSONDecoder()
    nodes, i = [], 0
    while True:
        i = out.find("{", i)
        if i < 0:
            break
        node, i = decoder.raw_decode(out, i)
        nodes.append(node)

    def leaves(rec):
        inner = rec.get("inner", [])
        inline = [x for x in inner if x.get("kind") == "RecordDecl" and x.get("completeDefinition")]
        n = 0
        for x in inner:
            if x.get("kind") != "FieldDecl":
                continue
            qt = x.get("type", {}).get("qualType", "")
            sub = next((r for r in inline if not r.get("_used") and "*" not in qt and
                        ("(unnamed" in qt or "(anonymous" in qt or
                         (r.get("name") and qt.startswith("struct " + r["name"])))), None)
            if sub is not None:
                sub["_used"] = True
                n += leaves(sub)
            else:
                n += 1
        return n

    found = {}
    for node in nodes:
        name = node.get("name")
        if node.get("kind") == "RecordDecl" and node.get("completeDefinition") and \
                name in names and name not in found:
            top = sum(1 for x in node.get("inner", []) if x.get("kind") == "FieldDecl")
            found[name] = (leaves(node), top)
    return found


def figures(build):
    edges = call_graph(build)
    comps = cycles(edges)
    walker = [f for f in edges if f.startswith("walker/")]
    print(f"library source files: {len(edges)} (walker/: {len(walker)}); "
          f"file-level call cycles: {len(comps)}")
    for comp in comps:
        print(f"  cycle of {len(comp)}: {' '.join(comp)}")
    srcs = [p for p in sources(["walker"]) if p.endswith(".c")]
    hdrs = [p for p in sources(["walker"]) if p.endswith(".h")]
    total = asserts = 0
    for p in srcs + hdrs:
        with open(p) as f:
            text = f.read()
        total += text.count("\n")
        asserts += len(re.findall(r"\bFRD_(?:ASSERT|VERIFY)\s*\(", strip_c(text)))
    print(f"walker/: {len(srcs)} .c, {len(hdrs)} .h, {total} lines; assertions "
          f"{asserts} ({1000 * asserts / total:.1f} per 1,000 lines)")
    lengths = function_lengths(srcs)
    print(f"functions: {len(lengths)}; over 100 lines {sum(1 for x in lengths if x[0] > 100)}, "
          f"over 60 {sum(1 for x in lengths if x[0] > 60)}; longest:")
    for n, name, path in lengths[:6]:
        print(f"  {n:4d}  {name} ({path})")
    biggest = sorted(hdrs, key=lambda p: -sum(1 for _ in open(p)))[:3]
    print("largest headers: " + ", ".join(f"{p} {sum(1 for _ in open(p))}" for p in biggest))
    fields = struct_fields(build, {"frd_walk", "frd__worker", "frd__walk_plan", "frd__wnode",
                                   "frd__sched", "frd__sched_worker", "frd__ordered"},
                           ["walker/api.c", "walker/sched/threads.c", "walker/ordered/consumer.c",
                            "walker/ordered.c"])
    for name, (leaf, top) in sorted(fields.items()):
        print(f"struct {name}: {leaf} leaf fields ({top} members)")


def main(argv):
    args = [a for a in argv if a != "--figures"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(args[0]) if args else None
    os.chdir(root)
    if "--figures" in argv:
        if build is None:
            sys.exit("check-layers: --figures needs a build directory")
        figures(build)
        return 0
    problems = []
    unplaced = check_includes(problems)
    check_realloc(problems)
    if build is not None:
        edges = check_calls(build, problems)
    for p in problems:
        print(f"check-layers: {p}", file=sys.stderr)
    if unplaced:
        return 2
    if problems:
        return 1
    what = "includes and realloc"
    if build is not None:
        what = f"includes, realloc, and the calls of {len(edges)} library files (no cycle)"
    print(f"check-layers: {what}: every dependency points down")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
