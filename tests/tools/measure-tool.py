#!/usr/bin/env python3
"""Checks of a result's CPU, kinds and CSV for tests/tools/measure-host.sh.

Each command exits non-zero with a message saying what is wrong.
"""
import csv
import io
import json
import subprocess
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(1)


def cpu(path, nhosts):
    """Every client job on this host got a window on nhosts hosts, busy > 0,
    window = its job_runtime, and each pair a ratio per host."""
    doc = load(path)
    nhosts = int(nhosts)
    if not doc["cpu"]["matched"]:
        fail("not matched: %s" % doc["cpu"]["match"])
    if len(doc["cpu"]["hosts"]) != nhosts:
        fail("hosts %r" % doc["cpu"]["hosts"])
    runtimes = {}
    for e in doc["fio"]["output"].get("client_stats", doc["fio"]["output"].get("jobs")):
        # fio's I/O time per direction: the longest of a group's jobs.
        runtimes[e["jobname"]] = max(e["read"]["runtime"], e["write"]["runtime"]) / 1000
    local = doc["host"]["hostname"]
    for r in doc["results"]:
        if r["host"] != local:
            if r["host_cpu"] is not None:
                fail("%s ran on %s but has a window" % (r["jobname"], r["host"]))
            continue
        if not r["host_cpu"] or len(r["host_cpu"]) != nhosts:
            fail("%s: host_cpu %r" % (r["jobname"], r["host_cpu"]))
        for h in r["host_cpu"]:
            if abs(h["window_s"] - runtimes[r["jobname"]]) > 1e-6:
                fail("%s: window %r, job_runtime %r" % (r["jobname"], h["window_s"],
                                                        runtimes[r["jobname"]]))
            if not h["busy_s"] > 0 or not 0 < h["busy_pct"] <= 100:
                fail("%s: busy %r" % (r["jobname"], h))
    for c in doc["comparisons"]:
        if len(c["host_cpu_per_gib"]) != nhosts:
            fail("%s: host_cpu_per_gib %r" % (c["workload"], c["host_cpu_per_gib"]))
        for h in c["host_cpu_per_gib"]:
            if not h["ratio"] or abs(h["ratio"] - h["rdma_s"] / h["tcp_s"]) > 1e-9:
                fail("%s: ratio %r" % (c["workload"], h))


def cpu_agree(path, tol):
    """Two series of one machine give the same busy time per job."""
    for r in load(path)["results"]:
        if not r["host_cpu"]:
            continue
        a, b = (h["busy_s"] for h in r["host_cpu"])
        if abs(a - b) > float(tol) * max(a, b):
            fail("%s: %r vs %r" % (r["jobname"], a, b))


def kinds(path, *want):
    got = {c["workload"]: c["kind"] for c in load(path)["comparisons"]}
    for w in want:
        name, kind = w.split("=")
        if got.get(name) != kind:
            fail("%s: kind %r, expected %r (all: %r)" % (name, got.get(name), kind, got))


def csv_rows(path, njobs, npairs, rdmaio):
    """rdmaio report --csv: one header, the jobs' and pairs' rows, each as
    wide as the header, figures as in the result."""
    out = subprocess.run([rdmaio, "report", path, "--csv"], check=True,
                         capture_output=True, text=True).stdout
    rows = list(csv.reader(io.StringIO(out)))
    head, body = rows[0], rows[1:]
    if any(len(r) != len(head) for r in body):
        fail("ragged rows")
    jobs = [r for r in body if r[0] == "job"]
    pairs = [r for r in body if r[0] == "pair"]
    if len(jobs) != int(njobs) or len(pairs) != int(npairs):
        fail("%d jobs, %d pairs" % (len(jobs), len(pairs)))
    doc = load(path)
    col = {k: i for i, k in enumerate(head)}
    for r, j in zip(jobs, doc["results"]):
        if float(r[col["bw_bytes_per_s"]]) != j["read"]["bw_bytes"]:
            fail("bw of %s" % r[col["name"]])
    for h in doc["cpu"]["hosts"]:
        busy = col["%s_busy_s" % h["host"]]
        for r, j in zip(jobs, doc["results"]):
            want = [x["busy_s"] for x in j["host_cpu"] or [] if x["host"] == h["host"]]
            if want and abs(float(r[busy]) - want[0]) > 1e-6 * max(1, want[0]):
                fail("busy of %s on %s" % (r[col["name"]], h["host"]))
        ratio = col["%s_cpu_per_gib_ratio" % h["host"]]
        for r, c in zip(pairs, doc["comparisons"]):
            want = [x["ratio"] for x in c["host_cpu_per_gib"] if x["host"] == h["host"]]
            if want and want[0] is not None and abs(float(r[ratio]) - want[0]) > 1e-6:
                fail("CPU ratio of %s on %s" % (r[col["name"]], h["host"]))
    for r, c in zip(pairs, doc["comparisons"]):
        if abs(float(r[col["bw_ratio"]]) - c["bw_ratio"]) > 1e-6 or r[col["verdict"]] != c["verdict"]:
            fail("pair %s" % r[col["name"]])


def baseline(path, name, size, rdmaio):
    """A --baseline that copied a file of size bytes: its bytes, a
    bandwidth that is bytes over its time, its command's argv with %o
    replaced, this host's CPU over its window, and its CSV row."""
    doc = load(path)
    bs = [b for b in doc.get("baselines", []) if b["name"] == name]
    if len(bs) != 1:
        fail("baselines %r" % doc.get("baselines"))
    b = bs[0]
    if b["error"] is not None or b["exit_status"] != 0 or b["bytes"] != int(size):
        fail("baseline %r" % b)
    if abs(b["bw_bytes"] - b["bytes"] / b["elapsed_s"]) > 1e-6 * b["bw_bytes"]:
        fail("bw %r is not bytes over elapsed_s" % b)
    if "%o" not in b["command"] or any("%o" in w for w in b["argv"]):
        fail("argv %r for %r" % (b["argv"], b["command"]))
    local = doc["host"]["hostname"]
    hc = [h for h in b["host_cpu"] if h["host"] == local]
    if len(hc) != 1 or abs(hc[0]["window_s"] - b["elapsed_s"]) > 1e-6:
        fail("host_cpu %r" % b["host_cpu"])
    out = subprocess.run([rdmaio, "report", path, "--csv"], check=True,
                         capture_output=True, text=True).stdout
    rows = list(csv.reader(io.StringIO(out)))
    col = {k: i for i, k in enumerate(rows[0])}
    mine = [r for r in rows[1:] if r[0] == "baseline" and r[col["name"]] == name]
    if len(mine) != 1 or abs(float(mine[0][col["bw_bytes_per_s"]]) - b["bw_bytes"]) > 1e-9 * b["bw_bytes"]:
        fail("CSV rows %r" % mine)


COMMANDS = {"cpu": cpu, "cpu_agree": cpu_agree, "kinds": kinds, "csv": csv_rows,
            "baseline": baseline}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
