#!/usr/bin/env python3
"""Independent checks of rdmaio result files for tests/tools/rdmaio-host.sh.

Each subcommand exits 0 when the check holds, else prints why and exits 1.
It reads results with Python's json and jsonschema, not with rdmaio's code.
"""
import copy
import hashlib
import json
import os
import re
import sys

GIB = 1024 ** 3
MIB = 1024 ** 2


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def save(doc, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)


def fail(msg):
    print(msg)
    sys.exit(1)


def entries(output):
    if "client_stats" in output:
        return [e for e in output["client_stats"] if e["jobname"] != "All clients"]
    return output["jobs"]


def validate(schema, *docs):
    # Imported here only: it takes most of a minute in the lab's emulated CPU.
    import jsonschema  # pylint: disable=import-outside-toplevel

    s = load(schema)
    jsonschema.Draft202012Validator.check_schema(s)
    for d in docs:
        jsonschema.Draft202012Validator(s).validate(load(d))


def validate_env(schema, *docs):
    """Validates `rdmaio env` documents against the schema's $defs/env."""
    import jsonschema  # pylint: disable=import-outside-toplevel

    s = load(schema)
    jsonschema.Draft202012Validator.check_schema(s)
    sub = {"$schema": s["$schema"], "$defs": s["$defs"], "$ref": "#/$defs/env"}
    for d in docs:
        doc = load(d)
        jsonschema.Draft202012Validator(sub).validate(doc)
        if doc["schema"] != "rdmaio-env/1":
            fail("%s: schema %r" % (d, doc["schema"]))


def remote(path, client_arg, host, hostname, kernel, dev, *command):
    """The one --remote-env entry: for client_arg (fio's host name host), run
    as command, describing a host named hostname with that kernel release and,
    unless dev is "-", the software RDMA device dev."""
    doc = load(path)
    same_numbers(doc)
    rs = doc.get("remote_hosts")
    if not rs or len(rs) != 1:
        fail("remote_hosts %r" % rs)
    r = rs[0]
    if r["client"] != client_arg or r["host"] != host or r["command"] != list(command):
        fail("remote host entry %r" % {k: r[k] for k in ("client", "host", "command")})
    # fio names the entries by the --client address; the result by the name
    # the host's own `rdmaio env` gave.
    if not doc["results"] or any(x["host"] != hostname for x in doc["results"]):
        fail("result hosts %r, not %r" % ([x["host"] for x in doc["results"]], hostname))
    env = r["env"]
    if env["host"]["hostname"] != hostname or env["host"]["kernel"]["release"] != kernel \
            or env["versions"]["kernel"] != kernel:
        fail("remote host %r, kernel %r" % (env["host"]["hostname"], env["versions"]["kernel"]))
    if env["versions"]["fio"] != doc["fio"]["output"]["fio version"]:
        fail("remote fio %r" % env["versions"]["fio"])
    if any(w["code"] == "remote-environment" for w in doc["warnings"]):
        fail("remote-environment warning despite --remote-env")
    if dev != "-":
        devs = (env["environment"]["status"] or {}).get("rdma_devices", [])
        if not any(d["name"] == dev and d["transport"] == "software" for d in devs):
            fail("remote environment has no software %s: %r" % (dev, env["environment"]))
        if not any(w["code"] == "software-rdma" and w["message"].startswith(
                "remote host %s: RDMA device %s" % (hostname, dev)) for w in doc["warnings"]):
            fail("no software-rdma warning for the remote host: %r" % doc["warnings"])
    print("# remote host %s: %s, kernel %s, devices %s" % (
        host, env["host"]["hostname"], kernel,
        [d["name"] for d in (env["environment"]["status"] or {}).get("rdma_devices", [])]))


def change_remote_env(src, dst):
    doc = load(src)
    doc["remote_hosts"][0]["env"]["versions"]["kernel"] = "9.9.9-changed"
    save(doc, dst)


def pct(entry, d, p):
    return entry[d]["clat_ns"].get("percentile", {}).get("%f" % p)


def same_numbers(doc):
    out = entries(doc["fio"]["output"])
    res = doc["results"]
    if len(out) != len(res):
        fail("%d results for %d fio entries" % (len(res), len(out)))
    for e, r in zip(out, res):
        if e["jobname"] != r["jobname"]:
            fail("jobname %s != %s" % (r["jobname"], e["jobname"]))
        for d in ("read", "write"):
            if e[d]["io_bytes"] == 0:
                if r[d] is not None:
                    fail("%s %s: fio moved no data but result has numbers" % (r["jobname"], d))
                continue
            x = r[d]
            pairs = [(x["bw_bytes"], e[d]["bw_bytes"]), (x["iops"], e[d]["iops"]),
                     (x["io_bytes"], e[d]["io_bytes"]), (x["runtime_ms"], e[d]["runtime"]),
                     (x["total_ios"], e[d]["total_ios"]),
                     (x["clat_ns"]["p50"], pct(e, d, 50)), (x["clat_ns"]["p99"], pct(e, d, 99)),
                     (x["clat_ns"]["p99_9"], pct(e, d, 99.9))]
            for got, want in pairs:
                if got != want:
                    fail("%s %s: %r != fio's %r" % (r["jobname"], d, got, want))


def fio_numbers(path, *jobs):
    doc = load(path)
    same_numbers(doc)
    # Mounts are watched whenever rdmaio runs fio itself (none on the host).
    if not isinstance(doc["environment"]["nfs_mounts_during_run"], list):
        fail("nfs_mounts_during_run is %r" % doc["environment"]["nfs_mounts_during_run"])
    if doc["versions"]["fio"] != doc["fio"]["output"]["fio version"]:
        fail("fio version mismatch")
    if doc["fio"]["argv"] != ["fio", "--output-format=json+"] + list(jobs):
        fail("fio argv %r" % doc["fio"]["argv"])
    for jf, path in zip(doc["job_files"], jobs):
        with open(path, "rb") as f:
            data = f.read()
        if jf["path"] != path or jf["sha256"] != hashlib.sha256(data).hexdigest() \
                or jf["text"] != data.decode():
            fail("job file record wrong for %s" % path)


def comparisons(path, n):
    doc = load(path)
    cs = doc["comparisons"]
    if len(cs) != int(n):
        fail("%d comparisons, want %s" % (len(cs), n))
    by_name = {r["jobname"]: r for r in doc["results"]}
    for c in cs:
        if c["tcp"]["jobname"] != "%s-%s" % (c["workload"], c["against"]):
            fail("%s is not the -%s job of %s" % (c["tcp"]["jobname"], c["against"],
                                                 c["workload"]))
        d, td = c["direction"], c["tcp_direction"]
        r, t = by_name[c["rdma"]["jobname"]], by_name[c["tcp"]["jobname"]]
        if c["rdma"]["bw_bytes"] != r[d]["bw_bytes"] or c["tcp"]["bw_bytes"] != t[td]["bw_bytes"]:
            fail("comparison bandwidth differs from the jobs'")
        if abs(c["bw_ratio"] - r[d]["bw_bytes"] / t[td]["bw_bytes"]) > 1e-9:
            fail("ratio %r wrong" % c["bw_ratio"])
        if c["rdma"]["clat_ns"]["p99"] != r[d]["clat_ns"]["p99"]:
            fail("p99 differs from the job's")


# host_cpu_per_gib lists the hosts whose CPU was measured over both jobs'
# windows: on a loaded host a half-second job's window may hold no reading.
# cpu.match and matched say how the windows were matched to the jobs, from
# when the task watch (every 100 ms) saw each job's process: on a loaded
# host two short jobs may be seen running at once in one run and not in the
# next (the matching itself is unit-tested in tests/tools/test-cpu.c).
MEASURED_KEYS = {"time", "timestamp", "timestamp_ms", "created", "bins", "verdict",
                 "host_cpu_per_gib", "match", "matched"}


def mask(v, key=None):
    """Replaces measured values: every number, fio's timestamps and the
    latency histograms; strings keep their text with digits masked only in
    check messages."""
    if key in MEASURED_KEYS:
        return "<masked>"
    if isinstance(v, dict):
        return {k: mask(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [mask(x, key) for x in v]
    if isinstance(v, bool):
        return v
    # A measured figure may be null in one run (no TCP CPU time counted
    # in a short window) and a number in the next.
    if isinstance(v, (int, float)) or v is None:
        return 0
    if key == "message":
        return re.sub(r"[0-9]+(\.[0-9]+)?", "#", v)
    return v


def first_diff(a, b, path=""):
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return path + "/" + k
            p = first_diff(a[k], b[k], path + "/" + k)
            if p is not None:
                return p
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            p = first_diff(x, y, "%s/%d" % (path, i))
            if p is not None:
                return p
        return None
    return None if a == b else path


def same_but_measured(p1, p2):
    a, b = mask(load(p1)), mask(load(p2))
    # The job options and every non-measured field must match exactly.
    d = first_diff(a, b)
    if d is not None:
        fail("results differ beyond measured values at %s" % d)
    if load(p1)["fio"]["output"]["jobs"][0]["read"]["bw_bytes"] == 0:
        fail("masking compared empty runs")


def untouched(res, fio):
    if load(res)["fio"]["output"] != load(fio):
        fail("embedded fio output differs from fio's file")


def set_read_bw(src, gib, dst):
    doc = load(src)
    j = doc["jobs"][0]
    j["read"]["bw_bytes"] = int(float(gib) * GIB)
    j["read"]["bw"] = j["read"]["bw_bytes"] // 1024
    save(doc, dst)


def set_deep(src, dst):
    """The first job as if it had kept 32 I/Os in flight, never at depth 1,
    and no job held to a rate=: the first is meant to fill the link, the
    others (at depth 1) are latency jobs."""
    doc = load(src)
    doc.get("global options", {}).pop("rate", None)
    for j in doc["jobs"]:
        j.get("job options", {}).pop("rate", None)
    j = doc["jobs"][0]
    j["iodepth_level"] = {k: 0.0 for k in j["iodepth_level"]}
    j["iodepth_level"]["32"] = 100.0
    save(doc, dst)


def flagged(path, n):
    got = [c for c in load(path)["checks"] if c["status"] == "flagged"]
    if len(got) != int(n):
        fail("%d flagged checks, want %s: %r" % (len(got), n, got))
    for c in got:
        if not c["likely_causes"]:
            fail("flagged without likely causes")


def sig3(v, unit):
    prec = 0 if v >= 99.95 else 1 if v >= 9.995 else 2 if v >= 0.9995 else 3
    return "%.*f %s" % (prec, v, unit)


def scaled(v, step, units):
    if v is None:
        return "-"
    i = 0
    while i < len(units) - 1 and abs(v) >= step - step * 5e-5:
        v /= step
        i += 1
    return sig3(v, units[i])


def rate(v):
    return scaled(v, 1024, ["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"])


def ns(v):
    return scaled(v, 1000, ["ns", "\u00b5s", "ms", "s"])


def count(v):
    return "%.0f" % v if abs(v) < 1000 else scaled(v, 1000, ["", "k", "M", "G"]).replace(" ", "")


def ratio(v):
    return "-" if v is None else ("%.2fx" if v < 9.995 else "%.1fx") % v


def lat(clat):
    return " / ".join(ns(clat[k]) for k in ("p50", "p99", "p99_9"))


def section(md, title):
    """The table rows of one "## title" section of the report."""
    rows, inside = [], False
    for line in open(md, encoding="utf-8"):
        if line.startswith("## "):
            inside = line.strip() == "## " + title
        elif inside and line.startswith("| "):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def table(md, path):
    """The report's figures, recomputed here from the result in its units."""
    doc = load(path)
    pairs = section(md, "RDMA vs TCP")
    want = []
    for c in doc["comparisons"]:
        d = c["direction"] if c["direction"] == c["tcp_direction"] else \
            c["direction"] + "/" + c["tcp_direction"]
        r, t = c["rdma"], c["tcp"]
        name = c["workload"] + (" vs TCP nconnect" if c["against"] == "tcp-nconnect" else "")
        want.append(["%s (%s)" % (name, d), c["kind"], rate(r["bw_bytes"]),
                     rate(t["bw_bytes"]), ratio(c["bw_ratio"]), count(r["iops"]),
                     count(t["iops"]), ratio(c["iops_ratio"]), lat(r["clat_ns"]),
                     lat(t["clat_ns"]), ratio(c["p50_ratio"]), ratio(c["p99_ratio"])])
    for w in want:
        if w not in pairs:
            fail("row %r not in the report:\n%s" % (w, open(md, encoding="utf-8").read()))
    jobs = section(md, "Jobs")
    want = []
    for r in doc["results"]:
        for d in ("read", "write"):
            if r[d] and r["role"] != "target":
                want.append(["%s (%s)" % (r["jobname"], d), rate(r[d]["bw_bytes"]),
                             count(r[d]["iops"]), lat(r[d]["clat_ns"])])
    if [j[:4] for j in jobs[1:]] != want:
        fail("jobs %r, want %r" % (jobs[1:], want))


MEASURE = {"bandwidth": ("bw_bytes", "bw_ratio", rate, "bandwidth"),
           "iops": ("iops", "iops_ratio", count, "IOPS"),
           "latency": (None, "p50_ratio", None, "p50 latency")}


def three(md, path, nconnect):
    """The report's verdict lines and table of RDMA against both TCP mounts,
    recomputed here from the result's pairs; nconnect: the table's name
    for the second ("TCP nconnect=8", or "TCP nconnect" unknown)."""
    doc = load(path)
    text = open(md, encoding="utf-8").read()
    rows = section(md, "RDMA vs TCP")
    head = ["Workload", "Measures", "RDMA", "TCP", nconnect, "RDMA/TCP", "RDMA/" + nconnect]
    if head not in rows:
        fail("no three-way table headed %r:\n%s" % (head, text))
    cs = doc["comparisons"]
    n = 0
    for c in cs:
        if c["against"] != "tcp":
            continue
        q = [x for x in cs if x["against"] == "tcp-nconnect" and
             all(x[k] == c[k] for k in ("host", "workload", "direction", "tcp_direction"))]
        if not q:
            continue
        q = q[0]
        key, rkey, fmt, what = MEASURE[c["kind"]]
        def fig(side):
            return ns(side["clat_ns"]["p50"]) if key is None else fmt(side[key])
        d = c["direction"] if c["direction"] == c["tcp_direction"] else \
            c["direction"] + "/" + c["tcp_direction"]
        label = "%s (%s)" % (c["workload"], d)
        several = sum(1 for x in cs if all(x[k] == c[k] for k in ("host", "workload", "against")))
        name = c["workload"] + (" (%s)" % c["direction"] if several > 1 else "")
        line = "- %s: RDMA %s TCP, %s %s in %s" % (name, ratio(c[rkey]), ratio(q[rkey]),
                                                    nconnect, what)
        if line not in text.splitlines():
            fail("no verdict line %r:\n%s" % (line, text))
        row = [label, what, fig(c["rdma"]), fig(c["tcp"]), fig(q["tcp"]), ratio(c[rkey]),
               ratio(q[rkey])]
        if row not in rows:
            fail("no row %r:\n%s" % (row, text))
        n += 1
    if not n:
        fail("no workload has both TCP pairs in %s" % path)


def fio_output(src, dst):
    save(load(src)["fio"]["output"], dst)


def change_env(src, dst):
    doc = load(src)
    doc["versions"]["fio"] = "fio-9.99"
    doc["environment"]["nfs_mounts_during_run"] = [{
        "source": "s:/x", "mountpoint": "/mnt/r", "fstype": "nfs", "proto": "tcp",
        "port": 2049, "vers": "3", "rsize": 1048576, "wsize": 1048576, "nconnect": None}]
    save(doc, dst)


def nfs_pair(src, dst, *overrides):
    """Makes src's -rdma jobs read /mnt/r, its -tcp jobs /mnt/t and its
    -tcp-nconnect jobs /mnt/n: NFS mounts of one export of a server this
    host's environment lists (/mnt/n by a second address).
    overrides: KEY=VALUE of tcp_rsize, tcp_nconnect, tcp_source, threads,
    cpus, depth (each job's iodepth), async (the second export's),
    n_nconnect (/mnt/n's)."""
    o = {"tcp_rsize": "524288", "tcp_nconnect": "1", "tcp_source": "198.18.0.1:/srv/x",
         "threads": "8", "cpus": "2", "depth": "1", "async": "0", "n_nconnect": "8"}
    for kv in overrides:
        k, v = kv.split("=", 1)
        if k not in o:
            fail("nfs-pair: unknown %s" % k)
        o[k] = v
    doc = load(src)
    for j in doc["fio"]["output"]["jobs"]:
        side = j["jobname"].rsplit("-", 1)[-1]
        if side in ("rdma", "tcp", "nconnect"):
            j.setdefault("job options", {})["filename"] = "/mnt/%s/f" % side[0]
            j["job options"]["iodepth"] = o["depth"]
    mount = {"fstype": "nfs", "vers": "3", "timeo": 600}
    doc["environment"]["nfs_mounts_during_run"] = [
        dict(mount, source="198.18.0.1:/srv/x", mountpoint="/mnt/r", proto="rdma",
             port=20049, rsize=524288, wsize=524288, nconnect=None),
        dict(mount, source=o["tcp_source"], mountpoint="/mnt/t", proto="tcp", port=2049,
             rsize=int(o["tcp_rsize"]), wsize=524288, nconnect=int(o["tcp_nconnect"])),
        dict(mount, source="198.18.0.11:/srv/x", mountpoint="/mnt/n", proto="tcp", port=2049,
             rsize=524288, wsize=524288, nconnect=int(o["n_nconnect"]))]
    st = doc["environment"]["status"]
    st["exports"] = [{"path": "/srv/x", "clients": "*", "options": ["rw"]},
                     {"path": "/srv/y", "clients": "*",
                      "options": ["rw", "async" if o["async"] == "1" else "sync"]}]
    st["nfsd"] = dict(st.get("nfsd") or {}, running=True, threads=int(o["threads"]))
    doc["host"]["cpu"]["count"] = int(o["cpus"])
    doc["host"]["addresses"] = ["198.18.0.2"]
    save(doc, dst)


def scale_bw(src, factor, dst):
    doc = load(src)
    for r in doc["results"]:
        for d in ("read", "write"):
            if r[d]:
                r[d]["bw_bytes"] = int(r[d]["bw_bytes"] * float(factor))
    save(doc, dst)


def client(path, host):
    doc = load(path)
    same_numbers(doc)
    if not doc["results"] or any(r["host"] != host for r in doc["results"]):
        fail("hosts %r" % [r["host"] for r in doc["results"]])
    if not any(a.startswith("--client=" + host) for a in doc["fio"]["argv"]):
        fail("argv %r" % doc["fio"]["argv"])
    ws = [w for w in doc["warnings"] if w["code"] == "remote-environment"]
    if not ws or "--remote-env" not in ws[0]["message"]:
        fail("no remote-environment warning naming --remote-env: %r" % ws)
    if "remote_hosts" in doc:
        fail("remote_hosts without --remote-env")


COMMANDS = {"validate": validate, "fio-numbers": fio_numbers, "comparisons": comparisons,
            "same-but-measured": same_but_measured, "untouched": untouched,
            "set-read-bw": set_read_bw, "set-deep": set_deep, "flagged": flagged, "table": table,
            "change-env": change_env, "nfs-pair": nfs_pair, "three": three, "fio-output": fio_output, "scale-bw": scale_bw, "client": client,
            "validate-env": validate_env, "remote": remote, "change-remote-env": change_remote_env}

if __name__ == "__main__":
    # Several checks in one start ("CMD ARGS + CMD ARGS"): python starts
    # slowly in the lab's emulated CPU.
    args = sys.argv[1:]
    while args:
        cut = args.index("+") if "+" in args else len(args)
        COMMANDS[args[0]](*args[1:cut])
        args = args[cut + 1:]
