#!/usr/bin/env python3
"""The include rules of ARCHITECTURE.md, read from the sources: which wing
of tools/ a file may include, directly or through a header. Usage:
layout.py wings   prints each include that breaks the rule and is not one
                  of the known ones below, or a known one that no longer
                  exists (fix the list); exits 1 on any.
layout.py cycles  prints each include circle among the objects (a file's
                  .c and .h together) of engine/, common/, deploy/ and
                  tools/; exits 1 on any.
layout.py selftest   the checkers on crafted trees: they must catch a break
                  and a circle.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# May include, besides its own wing and common/.
ALLOWED = {"base": set(), "run": {"base", "result"}, "result": {"base"},
           "read": {"base", "result"}}
# Breaks of the rule that are there today: none is left, and none may come.
KNOWN = set()


def includes(tools, rel):
    """The tools headers rel includes, directly or through headers."""
    seen, todo = set(), [rel]
    while todo:
        with open(os.path.join(tools, todo.pop())) as f:
            for name in INCLUDE.findall(f.read()):
                if "/" in name and name not in seen and \
                        os.path.exists(os.path.join(tools, name)):
                    seen.add(name)
                    todo.append(name)
    return seen


def breaks(tools):
    out = set()
    for wing in ALLOWED:
        folder = os.path.join(tools, wing)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            rel = wing + "/" + name
            for inc in includes(tools, rel):
                other = inc.split("/")[0]
                if other != wing and other not in ALLOWED[wing]:
                    out.add((rel, inc))
    return out


def wings(tools):
    found = breaks(tools)
    bad = 0
    for rel, inc in sorted(found - KNOWN):
        print("%s includes %s: %s/ may include only %s (ARCHITECTURE.md)" % (
            rel, inc, rel.split("/")[0],
            ", ".join(sorted(ALLOWED[rel.split("/")[0]])) or "base/ itself"))
        bad = 1
    for rel, inc in sorted(KNOWN - found):
        print("%s no longer includes %s: take it off KNOWN in %s" % (rel, inc, __file__))
        bad = 1
    return bad


def graph(root, parts):
    """Object -> objects it includes, an object being a part's file
    without its extension (X_impl.h, the private header of X, is X's);
    headers resolve in the including file's folder,
    then in the part's folder (tools/: "run/fiorun.h"), then in common/."""
    objs, edges = {}, {}
    for part in parts:
        for dirpath, _, names in os.walk(os.path.join(root, part)):
            for name in names:
                if name.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(dirpath, name), root)
                    objs.setdefault(re.sub(r"_impl$", "", rel[:-2]), []).append(rel)
    for obj, files in objs.items():
        edges[obj] = set()
        for rel in files:
            with open(os.path.join(root, rel)) as f:
                text = f.read()
            part = rel.split("/")[0]
            for name in INCLUDE.findall(text):
                for base in (os.path.dirname(rel), part, "common"):
                    cand = os.path.normpath(os.path.join(base, name))[:-2]
                    cand = re.sub(r"_impl$", "", cand)
                    if cand in objs:
                        if cand != obj:
                            edges[obj].add(cand)
                        break
    return edges


def circles(edges):
    """The strongly connected components of more than one object (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
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

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def cycles(root):
    found = circles(graph(root, ("engine", "common", "deploy", "tools")))
    for comp in found:
        print("include circle: %s (split what both need into an object of its own)"
              % " <-> ".join(comp))
    return 1 if found else 0


def selftest():
    with tempfile.TemporaryDirectory() as t:
        for d in ALLOWED:
            os.mkdir(os.path.join(t, d))
        files = {"run/fiorun.h": "", "result/model.h": '#include "run/fiorun.h"\n',
                 "read/report.c": '#include "result/model.h"\n',
                 "base/jsonread.c": '#include "base/jsonread.h"\n', "base/jsonread.h": ""}
        for rel, text in files.items():
            with open(os.path.join(t, rel), "w") as f:
                f.write(text)
        got = breaks(t)
        want = {("result/model.h", "run/fiorun.h"), ("read/report.c", "run/fiorun.h")}
        if got != want:
            print("selftest: found %r, want %r" % (sorted(got), sorted(want)))
            return 1
    with tempfile.TemporaryDirectory() as t:
        os.makedirs(os.path.join(t, "deploy"))
        os.makedirs(os.path.join(t, "common"))
        files = {"deploy/a.c": '#include "b.h"\n', "deploy/b.h": "",
                 "deploy/b.c": '#include "c.h"\n', "deploy/c.h": '#include "a.h"\n',
                 "deploy/a.h": '#include "rc_log.h"\n', "common/rc_log.h": ""}
        for rel, text in files.items():
            with open(os.path.join(t, rel), "w") as f:
                f.write(text)
        got = circles(graph(t, ("deploy", "common")))
        if got != [["deploy/a", "deploy/b", "deploy/c"]]:
            print("selftest: circles %r, want a <-> b <-> c" % got)
            return 1
    return 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    tools = os.path.join(root, "tools")
    sys.exit({"wings": lambda: wings(tools), "cycles": lambda: cycles(root),
              "selftest": selftest}[sys.argv[1]]())
