#!/usr/bin/env python3
"""Independent checks of results of rounds (rdmaio run --repeat N) for
tests/tools/rounds-host.sh: the rounds kept, the medians, ranges and
intervals recomputed here from them, the report's cells, and results
crafted from real ones. Each subcommand exits 0 when the check holds, else
prints why and exits 1.
"""
import importlib.util
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("result_tool", os.path.join(HERE, "result-tool.py"))
rt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rt)
load, save, fail = rt.load, rt.save, rt.fail

# Student's t(0.975, df), from the tables.
T975 = {1: 12.706204736174698, 2: 4.302652729911275, 3: 3.182446305284263,
        4: 2.776445105197799, 5: 2.570581835636314}


def close(a, b, what):
    if a is None or b is None:
        if a is not b:
            fail("%s: %r != %r" % (what, a, b))
        return
    if abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b)):
        fail("%s: %r != %r" % (what, a, b))


def dig(o, path):
    for k in path.split("."):
        if not isinstance(o, dict) or o.get(k) is None:
            return None
        o = o[k]
    return o


def matches(rounds, what, entry, keys, occ):
    """entry's counterpart in each round (host, name, occurrence)."""
    out = []
    for r in rounds:
        same = [x for x in r[what] if all(x.get(k) == entry.get(k) for k in keys)]
        out.append(same[occ] if occ < len(same) else None)
    return out


def occurrence(arr, i, keys):
    return sum(all(arr[j].get(k) == arr[i].get(k) for k in keys) for j in range(i))


def spread_of(values):
    vs = [v for v in values if v is not None]
    if not vs:
        return None
    return {"median": statistics.median(vs), "min": min(vs), "max": max(vs), "n": len(vs)}


def same_spread(got, want, what):
    if (got is None) != (want is None):
        fail("%s: spread %r, want %r" % (what, got, want))
    for k in want or {}:
        close(got[k], want[k], "%s.%s" % (what, k))


def ratio_spread(values):
    s = spread_of(values)
    if s is None:
        return None
    vs = [v for v in values if v is not None]
    logs = [math.log(v) for v in vs]
    m = statistics.mean(logs)
    s["geomean"] = math.exp(m)
    s["ci95_low"] = s["ci95_high"] = None
    if len(vs) > 1:
        half = T975[len(vs) - 1] * statistics.stdev(logs) / math.sqrt(len(vs))
        s["ci95_low"], s["ci95_high"] = math.exp(m - half), math.exp(m + half)
    return s


JOB_KEYS = ("host", "jobname")
PAIR_KEYS = ("host", "workload", "direction", "tcp_direction")
DIR_FIELDS = ("io_bytes", "bw_bytes", "iops", "runtime_ms", "total_ios",
              "clat_ns.mean", "clat_ns.p50", "clat_ns.p99", "clat_ns.p99_9")
FIGURES = {"bw_bytes": "bw_bytes", "iops": "iops", "p50": "clat_ns.p50", "p99": "clat_ns.p99"}
RATIOS = ("bw_ratio", "iops_ratio", "p50_ratio", "p99_ratio", "fio_cpu_per_gib_ratio")


def check_results(doc):
    rounds, top = doc["rounds"], doc["results"]
    for i, r in enumerate(top):
        ms = matches(rounds, "results", r, JOB_KEYS, occurrence(top, i, JOB_KEYS))
        ov = r["over_rounds"]
        if ov["rounds"] != sum(m is not None for m in ms):
            fail("%s: over_rounds.rounds %r" % (r["jobname"], ov["rounds"]))
        for d in ("read", "write"):
            if r[d] is None:
                if ov[d] is not None or any(m and m[d] for m in ms):
                    fail("%s %s: null at the top, not in the rounds" % (r["jobname"], d))
                continue
            for f in DIR_FIELDS:
                s = spread_of([dig(m, d + "." + f) for m in ms if m])
                close(dig(r, d + "." + f), s and s["median"], "%s %s %s median" % (r["jobname"], d, f))
            for name, path in FIGURES.items():
                same_spread(ov[d][name], spread_of([dig(m, d + "." + path) for m in ms if m]),
                            "%s %s over_rounds %s" % (r["jobname"], d, name))
    return len(top)


def check_comparisons(doc, n):
    rounds, top = doc["rounds"], doc["comparisons"]
    for i, c in enumerate(top):
        ms = [m for m in matches(rounds, "comparisons", c, PAIR_KEYS, occurrence(top, i, PAIR_KEYS)) if m]
        ov, label = c["over_rounds"], c["workload"]
        for k in RATIOS:
            vals = [m.get(k) for m in ms]
            close(c.get(k), statistics.median([v for v in vals if v is not None])
                  if any(v is not None for v in vals) else None, "%s %s median" % (label, k))
            same_spread(ov[k], ratio_spread(vals), "%s over_rounds %s" % (label, k))
        for side in ("rdma", "tcp"):
            for name, path in FIGURES.items():
                same_spread(ov[side][name], spread_of([dig(m, side + "." + path) for m in ms]),
                            "%s %s %s" % (label, side, name))
        for h in ov["host_cpu_per_gib"]:
            vals = [next((x["ratio"] for x in m.get("host_cpu_per_gib", []) if x["host"] == h["host"]), None)
                    for m in ms]
            same_spread(h["ratio"], ratio_spread(vals), "%s CPU on %s" % (label, h["host"]))
        if "(median of %d rounds" % n not in (c["verdict"] or ""):
            fail("%s: verdict %r does not say it is a median of %d rounds" % (label, c["verdict"], n))
        if any("median of" in (m["verdict"] or "") for m in ms):
            fail("%s: a round's own verdict speaks of a median" % label)
    return len(top)


def rounds(path, n):
    """Every round kept with its own fio output, and the top level summed
    up from them: medians, ranges, intervals, verdicts, checks."""
    doc, n = load(path), int(n)
    if len(doc.get("rounds", [])) != n:
        fail("%d rounds, want %d" % (len(doc.get("rounds", [])), n))
    if [r["round"] for r in doc["rounds"]] != list(range(1, n + 1)):
        fail("rounds numbered %r" % [r["round"] for r in doc["rounds"]])
    if "output" in doc["fio"] or doc["fio"]["argv"] != doc["rounds"][0]["fio"]["argv"]:
        fail("top-level fio %r" % doc["fio"])
    for r in doc["rounds"]:
        # Each round's results are that round's fio numbers, untouched.
        rt.same_numbers({"fio": r["fio"], "results": r["results"]})
        if not isinstance(r["nfs_mounts_during_run"], list) or "cpu" not in r:
            fail("round %d lacks its mounts or its cpu" % r["round"])
    jobs, pairs = check_results(doc), check_comparisons(doc, n)
    for c in doc["checks"]:
        if not c.get("rounds") or not set(c["rounds"]) <= set(range(1, n + 1)):
            fail("check without its rounds: %r" % c)
    print("# %d rounds, %d jobs and %d pairs summed up as recomputed here" % (n, jobs, pairs))


def one_round(path):
    doc = load(path)
    if "rounds" in doc or "output" not in doc["fio"]:
        fail("a one-round result with rounds or without fio.output")
    if any("over_rounds" in x for x in doc["results"] + doc["comparisons"]):
        fail("over_rounds in a one-round result")
    rt.same_numbers(doc)


def spread_cell(s, fmt):
    return "-" if s is None else "%s (%s – %s)" % (fmt(s["median"]), fmt(s["min"]), fmt(s["max"]))


def interval_cell(s):
    if s is None:
        return "-"
    if s["ci95_low"] is None:
        return "%s (no interval)" % rt.ratio(s["median"])
    return "%s (%s – %s)" % (rt.ratio(s["median"]), rt.ratio(s["ci95_low"]), rt.ratio(s["ci95_high"]))


def report(md, path):
    """The report's table over the rounds, recomputed from the result."""
    doc = load(path)
    n = len(doc["rounds"])
    text = open(md, encoding="utf-8").read()
    if "- rounds: %d (rdmaio run --repeat %d)" % (n, n) not in text:
        fail("the report does not say how many rounds")
    rows = rt.section(md, "RDMA vs TCP")
    for c in doc["comparisons"]:
        ov = c["over_rounds"]
        d = c["direction"] if c["direction"] == c["tcp_direction"] else \
            c["direction"] + "/" + c["tcp_direction"]
        want = ["%s (%s)" % (c["workload"], d), str(ov["rounds"]),
                spread_cell(ov["rdma"]["bw_bytes"], rt.rate), spread_cell(ov["tcp"]["bw_bytes"], rt.rate),
                interval_cell(ov["bw_ratio"]),
                spread_cell(ov["rdma"]["iops"], rt.count), spread_cell(ov["tcp"]["iops"], rt.count),
                interval_cell(ov["iops_ratio"]), interval_cell(ov["p50_ratio"]),
                interval_cell(ov["p99_ratio"])]
        if want not in rows:
            fail("row %r not in the report:\n%s" % (want, text))


def halve(src, job, dst):
    """A real result of rounds with job's bandwidth halved in every round
    (its results, and its side and bw_ratio in the pairs)."""
    doc = load(src)
    for r in doc.get("rounds", [doc]):
        for x in r["results"]:
            for d in ("read", "write"):
                if x["jobname"] == job and x[d]:
                    x[d]["bw_bytes"] //= 2
        for c in r["comparisons"]:
            if c["rdma"]["jobname"] == job:
                c["rdma"]["bw_bytes"] //= 2
                c["bw_ratio"] /= 2
    save(doc, dst)


def scale(src, factor, dst):
    """A real result of rounds with every job's bandwidth times factor in
    every round (results and both sides of the pairs: the ratios stay)."""
    doc, f = load(src), float(factor)
    for r in doc.get("rounds", [doc]):
        for x in r["results"]:
            for d in ("read", "write"):
                if x[d]:
                    x[d]["bw_bytes"] = int(x[d]["bw_bytes"] * f)
        for c in r["comparisons"]:
            for side in ("rdma", "tcp"):
                c[side]["bw_bytes"] = int(c[side]["bw_bytes"] * f)
    save(doc, dst)


COMMANDS = {"rounds": rounds, "one-round": one_round, "report": report, "halve": halve,
            "scale": scale}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
