#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check-deps.py - the layering rules of the tree, checked from its files (tests/cli/deps.t).

usage: scripts/check-deps.py [--top DIR] [--objects DIR]

Rules (each broken one prints a line naming the files, and the exit status is 1):
 1. no include cycle among the files of src/: a module is a stem (x.c with x.h), an edge
    "x includes y.h" (from x.c or x.h), and the modules form no cycle;
 2. no include cycle among the parts of the library: lib/DIR is one module, a file at the
    top of lib/ (lib/presets.c, lib/error.h) another, kshim/ another;
 3. lib/gov includes nothing of lib/kgov (a `file:` preset is resolved above both, in
    lib/presets.c), and lib/ includes nothing of src/ (the library never prints);
 4. with --objects DIR (the src/*.o of a build): no call cycle among the objects of src/
    (an edge "x.o uses a symbol y.o defines", from nm), and the command files are leaves:
    what a cmd_*.o defines is used by commands.o alone (the dispatch table).
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def files_under(top, sub, exts):
    base = os.path.join(top, sub)
    for root, _dirs, names in os.walk(base):
        for name in sorted(names):
            if name.endswith(exts):
                yield os.path.relpath(os.path.join(root, name), top)


def includes(top, path):
    """(line, the included name) of each #include "..." of @path."""
    with open(os.path.join(top, path), errors="replace") as f:
        text = f.read()
    for m in INCLUDE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1)


def resolve(top, path, name, search):
    """The tree-relative path #include "name" of @path reads: its directory first, then -I."""
    for d in [os.path.dirname(path)] + search:
        cand = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(top, cand)):
            return cand
    return None


def src_module(path):
    return os.path.splitext(path)[0] if path.startswith("src/") else None


def lib_module(path):
    parts = path.split("/")
    if parts[0] == "kshim":
        return "kshim"
    if parts[0] != "lib":
        return None
    return "lib/" + parts[1] if len(parts) > 2 else "lib/" + os.path.splitext(parts[1])[0]


def find_cycle(graph):
    """A cycle of @graph (node -> {node: why}) as a list of nodes, first == last; or None."""
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, {})):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def report_cycles(graph, what, problems):
    """Every cycle, one at a time: report it, drop its first edge, look again."""
    graph = {n: dict(e) for n, e in graph.items()}
    while True:
        c = find_cycle(graph)
        if not c:
            return
        steps = "; ".join(graph[a][b] for a, b in zip(c, c[1:]))
        problems.append("%s cycle: %s (%s)" % (what, " -> ".join(c), steps))
        del graph[c[0]][c[1]]


def include_graph(top, paths, module, search):
    graph = {}
    for path in paths:
        a = module(path)
        for line, name in includes(top, path):
            target = resolve(top, path, name, search)
            b = module(target) if target else None
            if a and b and a != b:
                graph.setdefault(a, {}).setdefault(b, "%s:%d includes %s" % (path, line, name))
    return graph


def check_includes(top, problems):
    src = list(files_under(top, "src", (".c", ".h")))
    report_cycles(include_graph(top, src, src_module, ["lib", "include"]), "include", problems)

    lib = list(files_under(top, "lib", (".c", ".h"))) + list(files_under(top, "kshim", (".c", ".h")))
    report_cycles(include_graph(top, lib, lib_module, ["lib", "include"]), "library include", problems)
    for path in lib:
        for line, name in includes(top, path):
            target = resolve(top, path, name, ["lib", "include"]) or ""
            if path.startswith("lib/gov/") and target.startswith("lib/kgov/"):
                problems.append("%s:%d includes %s: lib/gov includes nothing of lib/kgov" % (path, line, name))
            if path.startswith("lib/") and target.startswith("src/"):
                problems.append("%s:%d includes %s: the library includes nothing of src/" % (path, line, name))


def nm_symbols(obj):
    """(the global symbols @obj defines, those it uses) from nm -P."""
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        if parts[1] == "U":
            used.add(parts[0])
        elif parts[1] in "TDBRGSCVW":
            defined.add(parts[0])
    return defined, used


def check_calls(objdir, problems):
    objs = sorted(n for n in os.listdir(objdir) if n.endswith(".o")) if os.path.isdir(objdir) else []
    if not objs:
        problems.append("%s: no objects (build first)" % objdir)
        return
    owner, uses = {}, {}
    for o in objs:
        defined, used = nm_symbols(os.path.join(objdir, o))
        for sym in defined:
            owner[sym] = o[:-2]
        uses[o[:-2]] = used
    graph = {}
    for a, used in sorted(uses.items()):
        for sym in sorted(used):
            b = owner.get(sym)
            if b and b != a:
                graph.setdefault(a, {}).setdefault(b, "%s.o calls %s of %s.o" % (a, sym, b))
    report_cycles(graph, "call", problems)
    for a, edges in sorted(graph.items()):
        for b, why in sorted(edges.items()):
            if b.startswith("cmd_") and a != "commands":
                problems.append("%s: a command file is a leaf, only commands.o calls it" % why)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--objects", help="the directory of the src/*.o of a build")
    args = ap.parse_args()
    problems = []
    check_includes(args.top, problems)
    if args.objects:
        check_calls(args.objects, problems)
    for p in problems:
        print("check-deps: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
