#!/usr/bin/env python3
"""The include rules of ARCHITECTURE.md, read from the sources: which wing
of tools/ a file may include, directly or through a header. Usage:
layout.py wings   prints each include that breaks the rule and is not one
                  of the known ones below, or a known one that no longer
                  exists (fix the list); exits 1 on any.
layout.py selftest   the checker on a crafted tree: it must catch a break.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# May include, besides its own wing and common/.
ALLOWED = {"base": set(), "run": {"base", "result"}, "result": {"base"},
           "read": {"base", "result"}}
# Breaks of the rule that are there today, to go with the typed model.
KNOWN = {
    ("result/check.c", "run/fiorun.h"),
    ("result/check.c", "run/remote.h"),
    ("result/cpucost.c", "run/cpustat.h"),
    ("result/cpucost.c", "run/cpuwatch.h"),
    ("result/cpucost.c", "run/fiorun.h"),
    ("result/cpucost.c", "run/remote.h"),
    ("result/cpucost.c", "run/taskwatch.h"),
    ("result/result.c", "run/fiohosts.h"),
    ("result/result.c", "run/fiorun.h"),
    ("result/result.c", "run/remote.h"),
    ("result/summary.c", "run/jobfile.h"),
}


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


def selftest():
    with tempfile.TemporaryDirectory() as t:
        for d in ALLOWED:
            os.mkdir(os.path.join(t, d))
        files = {"run/fiorun.h": "", "result/model.h": '#include "run/fiorun.h"\n',
                 "read/report.c": '#include "result/model.h"\n',
                 "base/jutil.c": '#include "base/jutil.h"\n', "base/jutil.h": ""}
        for rel, text in files.items():
            with open(os.path.join(t, rel), "w") as f:
                f.write(text)
        got = breaks(t)
        want = {("result/model.h", "run/fiorun.h"), ("read/report.c", "run/fiorun.h")}
        if got != want:
            print("selftest: found %r, want %r" % (sorted(got), sorted(want)))
            return 1
    return 0


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    tools = os.path.join(here, "..", "..", "tools")
    sys.exit({"wings": lambda: wings(tools), "selftest": selftest}[sys.argv[1]]())
