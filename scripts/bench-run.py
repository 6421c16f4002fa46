#!/usr/bin/env python3
"""The body of `make bench`: perftest, fio's built-in rdma engine and librdmaio,
side by side on one RDMA device in one boot, with matching parameters, judged
against librdmaio's goals by ratios paired within each round.

Like with like: bandwidth at 64 KiB with 128 in flight (perftest's default
tx-depth), over the same sample window. perftest -D leaves a margin of a
quarter of the duration out at each end; fio gets that margin as ramp_time and
the window as runtime (in the lab, a fio run's first quarter-second goes at
about half speed). librdmaio's bandwidth runs use fio's batch options
(BATCH below, as the canned jobs/verbs files do). Latency at 8 B, one in
flight. perftest's write/send latency is half a ping-pong round trip, while a
fio completion is a full round trip (as is ib_read_lat), so write/send are
compared with twice perftest's figure. Multi-QP: ib_write_bw -q 4 against four
fio jobs of one queue pair each, and against one job with qps=4.

Each round measures every metric with every tool back to back, so a slow
spell of the shared host falls on all of them; a ratio is librdmaio's figure
over the other tool's in the same round, and a goal is judged on the median
of those ratios over BENCH_ROUNDS rounds (at least 5 for a verdict): met when
every round's ratio meets it, missed when none does, and otherwise the spread
of the rounds is wider than the goal can be judged by, which the bench says
instead of a verdict.

Every tool's client runs pinned to one CPU (BENCH_CLIENT_CPU, default the last
one; "none" leaves it to the scheduler): under Soft-RoCE the client's CPU does
the whole transfer, and an unpinned fio client hops between two CPUs about a
hundred times a second while perftest's, with its busy server beside it, stays
put (engine/README.md, "Performance").
Between two hosts (RDMAIO_SERVER_EXEC set, as `lab/run --hosts 2` sets it;
`make bench BENCH_HOSTS=2`), every server side runs there: perftest's
servers, fio's rdma server and librdmaio's targets, each a fio of its own;
clients run here. In the lab that is not the default: between two emulated
guests a round trip is the emulated link's, milliseconds, and hides the
engines' microseconds (engine/README.md, "Performance").
Prints a table and writes results/bench-TIME.json (results-schema/
bench.schema.json), every sample included.
Environment: RDMAIO_RDMA_DEV, RDMAIO_SERVER_IP, RDMAIO_SERVER_EXEC;
BENCH_SECONDS (default 5), BENCH_ROUNDS (default 5), BENCH_CLIENT_CPU.
"""
import ctypes
import datetime
import json
import math
import os
import signal
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEV = os.environ["RDMAIO_RDMA_DEV"]
IP = os.environ["RDMAIO_SERVER_IP"]
# A command that runs its arguments on the server host; empty: one host.
EXEC = os.environ.get("RDMAIO_SERVER_EXEC", "")
SECS = int(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
# Fewer rounds than this give figures and ratios, but no verdict.
VERDICT_ROUNDS = 5
ENGINE = os.path.join(REPO, "build", "librdmaio.so")
# perftest's default margin for -D (duration / 4), passed to it as -f too.
MARGIN = SECS // 4
BW_TIME = ["--time_based", f"--ramp_time={MARGIN}", f"--runtime={SECS - 2 * MARGIN}"]
# perftest's latency tests count iterations and report the median (typical),
# which a slow start barely moves; fio's p50 of a whole run is compared.
LAT_TIME = ["--time_based", f"--runtime={SECS}"]
BS, DEPTH = 65536, 128
RX_DEPTH = 512
QPS = 4
# fio's batching for librdmaio's bandwidth runs: post a quarter of the depth
# as one list, and take completions as they come, up to the whole depth.
BATCH = [f"--iodepth_batch_submit={DEPTH // 4}", "--iodepth_batch_complete_min=1",
         f"--iodepth_batch_complete_max={DEPTH}"]
PORT = [7600]


def client_cpu():
    v = os.environ.get("BENCH_CLIENT_CPU")
    cpus = os.sched_getaffinity(0)
    if v is None:
        return str(max(cpus)) if len(cpus) > 1 else None
    if v == "none":
        return None
    if not v.isdigit() or int(v) not in cpus:
        sys.exit(f"bench: BENCH_CLIENT_CPU={v} is not a CPU this process may use "
                 f"({sorted(cpus)}); name one of them, or 'none'")
    return v


CPU = client_cpu()
PIN = [f"--cpus_allowed={CPU}"] if CPU else []


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def perftest(tool, *args):
    """Client output of one perftest pair (scripts/perftest.sh), or None."""
    script = '. "$0"; perftest_pair "$@"'
    cmd = ["bash", "-c", script, os.path.join(REPO, "scripts", "perftest.sh"),
           IP, tool, "-d", DEV, "-R", *args]
    env = dict(os.environ, PERFTEST_CLIENT_CPU=CPU or "", PERFTEST_SERVER_EXEC=EXEC)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode:
        log(f"bench: {tool} failed: {p.stderr.strip()[-300:]}")
        return None
    return p.stdout


def perftest_row(out, size, col):
    """Column col of perftest's row for size; None when absent or not finite
    (perftest 4.5 prints "inf" for a latency it failed to measure)."""
    for line in (out or "").splitlines():
        f = line.split()
        if f and f[0] == str(size):
            v = float(f[col])
            return v if math.isfinite(v) else None
    return None


# fio's job processes outlive a killed or failed fio. As a child subreaper
# this process inherits them, so it can stop exactly those, by pid, and
# never another user's fio.
PR_SET_CHILD_SUBREAPER = 36
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0):
    sys.exit(f"bench: prctl(PR_SET_CHILD_SUBREAPER): "
             f"{os.strerror(ctypes.get_errno())}")


def stop_strays():
    """Kill and reap the processes left to us: what a fio run left behind
    (no other child of ours is running when this is called)."""
    me = os.getpid()
    # A killed process's own children are reparented to us in turn: go
    # round until none is left (a bounded number of rounds).
    for _ in range(10):
        found = False
        for d in os.listdir("/proc"):
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid == me:
                found = True
                try:
                    os.kill(int(d), signal.SIGKILL)
                    os.waitpid(int(d), 0)
                except (ProcessLookupError, ChildProcessError):
                    pass
        if not found:
            break


def fio(*jobs, server=None, head_start=0):
    """fio's JSON for one run of the given jobs (lists of --opt=val), or None.
    server is the job of the other side: with two hosts it runs there, as a
    fio of its own, head_start seconds before the client (librdmaio's client
    retries for connect_timeout, fio's rdma client does not), and otherwise
    as the first job of this one."""
    if server and not EXEC:
        jobs = (server, *jobs)
        server = None
    argv = ["timeout", "-k", "5", str(SECS + 40), "fio", "--output-format=json"]
    for job in jobs:
        argv += job
    remote = None
    if server:
        # Bounded there too: no stray is left on the server host when this
        # side fails (it cannot be stopped by pid from here).
        remote = subprocess.Popen([EXEC, "timeout", "-k", "5", str(SECS + 45), "fio",
                                   "--output-format=json", *server],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if head_start:
            subprocess.run(["sleep", str(head_start)])
    # Files, not pipes: fio's job processes run in their own session, so a
    # timeout kills only the parent and a child still holding a pipe would
    # keep us waiting for its end of file forever (stop_strays ends them).
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.run(argv, stdout=out, stderr=err, text=True)
        out.seek(0)
        err.seek(0)
        text, errtext = out.read(), err.read()
    if remote:
        remote.wait()
    if p.returncode:
        stop_strays()
        log(f"bench: fio {' '.join(argv[6:])[:100]}... failed (exit {p.returncode}): "
            f"{errtext.strip()[-300:]}")
        return None
    return json.loads(text[text.index("{"):])


def job_stats(doc, name):
    for j in (doc or {}).get("jobs", []):
        if j.get("jobname") == name:
            return j
    return None


def mib_s(job, ddir):
    return job[ddir]["bw_bytes"] / 2**20 if job else None


def p50_us(job, ddir, kind="clat_ns"):
    if not job:
        return None
    pct = job[ddir][kind].get("percentile", {})
    return pct.get("50.000000", 0) / 1000.0


def librdmaio(verb, bs, depth, name, timing, *extra, jobs=1, qps=1):
    """One target+client run of librdmaio; returns the client's job stats
    (with jobs > 1, the group's: the jobs' sum)."""
    PORT[0] += 1
    ddir = "read" if verb == "read" else "write"
    size = max(bs * depth, 1 << 20)
    target = [f"--name={name}-target", f"--ioengine=external:{ENGINE}", "--listen",
              f"--port={PORT[0]}", f"--size={size}", f"--bs={bs}",
              f"--clients={jobs * qps}"]
    if verb == "send":
        # Receives posted: perftest's ib_send_bw server keeps --rx-depth=512.
        target += ["--verb=send", f"--iodepth={max(depth * 2, RX_DEPTH)}"]
    client = [f"--name={name}", f"--ioengine=external:{ENGINE}", f"--hostname={IP}",
              f"--port={PORT[0]}", f"--verb={verb}", f"--rw={ddir}", f"--bs={bs}",
              f"--size={size}", f"--iodepth={depth * qps}", *timing, *PIN, *extra]
    if jobs > 1:
        # A group of their own: fio's group_reporting sums a whole group,
        # and the target is in the first.
        client += ["--new_group", f"--numjobs={jobs}", "--group_reporting"]
    if qps > 1:
        client += [f"--qps={qps}"]
    return job_stats(fio(client, server=target), name), ddir


def fio_rdma(verb):
    """fio's built-in rdma engine: server rw=read, client rw=write (its roles)."""
    PORT[0] += 1
    server = ["--name=server", "--ioengine=rdma", f"--port={PORT[0]}", "--rw=read",
              f"--bs={BS}", f"--size={BS * 16}", f"--iodepth={DEPTH}", f"--verb={verb}"]
    client = ["--name=client", "--ioengine=rdma", f"--hostname={IP}", f"--port={PORT[0]}",
              "--rw=write", f"--verb={verb}", f"--bs={BS}", f"--size={BS * 16}",
              f"--iodepth={DEPTH}", *BW_TIME, *PIN]
    j = job_stats(fio(client, server=server, head_start=2), "client")
    return mib_s(j, "write")


def fio_rdma_read_lat():
    """p50 of fio's total latency (lat) for one 8-byte RDMA READ in flight
    with fio's built-in engine. It reads in its commit hook, so its clat
    is not a round trip; lat is, for both engines."""
    PORT[0] += 1
    server = ["--name=server", "--ioengine=rdma", f"--port={PORT[0]}", "--rw=read",
              "--bs=8", "--size=4k", "--iodepth=1", "--verb=read"]
    client = ["--name=client", "--ioengine=rdma", f"--hostname={IP}", f"--port={PORT[0]}",
              "--rw=write", "--verb=read", "--bs=8", "--size=4k", "--iodepth=1",
              "--lat_percentiles=1", *LAT_TIME, *PIN]
    return p50_us(job_stats(fio(client, server=server, head_start=2), "client"),
                  "write", "lat_ns")


def ratio(a, b):
    return round(a / b, 3) if a and b else None


def median(xs):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


def meets(r, goal):
    return r >= goal["ratio"] if goal["want"] == ">=" else r <= goal["ratio"]


def judge(goal, ratios):
    """A goal's verdict from the rounds' paired ratios: met when every
    round meets it, missed when none does; otherwise the rounds straddle it
    and their spread cannot tell."""
    rs = [r for r in ratios if r is not None]
    out = dict(goal, rounds=len(rs), median=median(rs),
               min=min(rs) if rs else None, max=max(rs) if rs else None)
    if not rs:
        out["verdict"] = "not measured"
    elif len(rs) < VERDICT_ROUNDS:
        out["verdict"] = f"fewer than {VERDICT_ROUNDS} rounds"
    elif all(meets(r, goal) for r in rs):
        out["verdict"] = "met"
    elif not any(meets(r, goal) for r in rs):
        out["verdict"] = "missed"
    else:
        out["verdict"] = "spread too wide"
    return out


def bw_samples(verb):
    pt = perftest_row(perftest(f"ib_{verb}_bw", "-s", str(BS), "-D", str(SECS),
                               "-f", str(MARGIN)), BS, 3)
    rf = fio_rdma(verb)
    job, ddir = librdmaio(verb, BS, DEPTH, f"{verb}-bw", BW_TIME, *BATCH)
    return pt, rf, mib_s(job, ddir)


def multi_qp_samples(shape):
    """ib_write_bw -q 4, then librdmaio as 4 jobs of 1 queue pair ("jobs")
    or 1 job of 4 ("qps"), each queue pair with perftest's depth."""
    pt = perftest_row(perftest("ib_write_bw", "-s", str(BS), "-q", str(QPS), "-D", str(SECS),
                               "-f", str(MARGIN)), BS, 3)
    jobs, qps = (QPS, 1) if shape == "jobs" else (1, QPS)
    job, ddir = librdmaio("write", BS, DEPTH, f"write-bw-{shape}", BW_TIME, *BATCH,
                          jobs=jobs, qps=qps)
    return pt, None, mib_s(job, ddir)


def lat_samples(verb):
    typ = perftest_row(perftest(f"ib_{verb}_lat", "-s", "8", "-n", "2000"), 8, 4)
    # ib_read_lat is a full round trip; write/send are half of one.
    rt = typ if verb == "read" else (typ * 2 if typ else None)
    job, ddir = librdmaio(verb, 8, 1, f"{verb}-lat", LAT_TIME)
    return rt, None, p50_us(job, ddir)


def fio_lat_samples(_verb):
    job, ddir = librdmaio("read", 8, 1, "read-lat-total", LAT_TIME,
                          "--lat_percentiles=1")
    return None, fio_rdma_read_lat(), p50_us(job, ddir, "lat_ns")


# librdmaio's goals, as ratios to the other tools (librdmaio / other).
BW_GOALS = [{"against": "perftest", "want": ">=", "ratio": 1.00},
            {"against": "fio_rdma", "want": ">=", "ratio": 1.15}]
LAT_GOALS = [{"against": "perftest", "want": "<=", "ratio": 1.05}]
# Faster by 1.15x in latency is a ratio of at most 1 / 1.15.
FIO_LAT_GOALS = [{"against": "fio_rdma", "want": "<=", "ratio": round(1 / 1.15, 3)}]
QP_GOALS = [{"against": "perftest", "want": ">=", "ratio": 0.95}]
TOOLS = ("perftest", "fio_rdma", "librdmaio")


def metrics():
    m = [(f"{v} bandwidth 64 KiB (MiB/s)", bw_samples, v, BW_GOALS)
         for v in ("write", "read", "send")]
    m += [(f"write bandwidth 64 KiB, {QPS} jobs x 1 QP (MiB/s, sum; perftest -q {QPS})",
           multi_qp_samples, "jobs", QP_GOALS),
          (f"write bandwidth 64 KiB, 1 job x {QPS} QPs (MiB/s; perftest -q {QPS})",
           multi_qp_samples, "qps", [])]
    m += [(f"{v} latency 8 B p50 (us, full round trip)", lat_samples, v, LAT_GOALS)
          for v in ("read", "write", "send")]
    # fio's own figure for both fio engines: submission and completion.
    m += [("read latency 8 B p50 (us, fio total lat)", fio_lat_samples, "read",
           FIO_LAT_GOALS)]
    return m


def row(name, goals, samples):
    figs = dict(zip(TOOLS, samples))
    r = {"metric": name}
    r.update({t: median(figs[t]) for t in TOOLS})
    paired = {o: [ratio(a, b) for a, b in zip(figs["librdmaio"], figs[o])]
              for o in ("perftest", "fio_rdma")}
    r["vs_perftest"] = median(paired["perftest"])
    r["vs_fio_rdma"] = median(paired["fio_rdma"])
    r["ratios"] = paired
    r["goals"] = [judge(g, paired[g["against"]]) for g in goals]
    r["samples"] = figs
    return r


def fmt(v):
    return "-" if v is None else f"{v:.2f}"


def fmt_ratio(rs):
    rs = [x for x in rs if x is not None]
    if not rs:
        return "-"
    return f"{median(rs):.2f}" + (f" ({min(rs):.2f}-{max(rs):.2f})" if len(rs) > 1 else "")


def print_table(rows):
    print(f"{'metric':<64} {'perftest':>9} {'fio rdma':>9} {'librdmaio':>9} "
          f"{'x perftest':>18} {'x fio rdma':>18}")
    for r in rows:
        print(f"{r['metric']:<64} {fmt(r['perftest']):>9} {fmt(r['fio_rdma']):>9} "
              f"{fmt(r['librdmaio']):>9} {fmt_ratio(r['ratios']['perftest']):>18} "
              f"{fmt_ratio(r['ratios']['fio_rdma']):>18}")
    print(f"(clients pinned to CPU {CPU})" if CPU else "(clients not pinned)")
    print("(servers and targets on the server host, clients here)" if EXEC
          else "(one host: servers, targets and clients share it)")
    print(f"(figures: medians of {ROUNDS} rounds; x = librdmaio / other, the median of the "
          "rounds' paired ratios (lowest-highest); bandwidth: higher is better; latency: lower)")
    print()
    print("goals (met: every round meets it; missed: none does; spread too wide: "
          "the rounds straddle it):")
    count = {}
    for r in rows:
        for g in r["goals"]:
            count[g["verdict"]] = count.get(g["verdict"], 0) + 1
            print(f"  {g['verdict']:<26} {r['metric']}: x {g['against']} {g['want']} "
                  f"{g['ratio']:.2f}: {fmt_ratio(r['ratios'][g['against']])}")
    print("  " + ", ".join(f"{n} {v}" for v, n in sorted(count.items())))


def validate(doc):
    """The bench's JSON against its schema: a bench that writes what its
    schema does not describe fails here, not in a reader."""
    import jsonschema
    with open(os.path.join(REPO, "results-schema", "bench.schema.json")) as f:
        jsonschema.validate(doc, json.load(f))


def main():
    ms = metrics()
    samples = {m[0]: ([], [], []) for m in ms}
    for rnd in range(1, ROUNDS + 1):
        for name, fn, arg, _ in ms:
            log(f"bench: round {rnd}/{ROUNDS}: {name}, {SECS} s each")
            for acc, v in zip(samples[name], fn(arg)):
                acc.append(v)
    rows = [row(name, goals, samples[name]) for name, _, _, goals in ms]
    print_table(rows)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    os.makedirs(os.path.join(REPO, "results"), exist_ok=True)
    path = os.path.join(REPO, "results", f"bench-{stamp}.json")
    doc = {"kind": "rdmaio-bench/2", "time": stamp, "device": DEV, "server_ip": IP,
           "seconds_per_test": SECS, "rounds": ROUNDS, "verdict_rounds": VERDICT_ROUNDS,
           "bandwidth_bs": BS, "bandwidth_iodepth": DEPTH, "bandwidth_margin_seconds": MARGIN,
           "librdmaio_batch": [a.lstrip("-") for a in BATCH], "multi_qp": QPS,
           "client_cpu": None if CPU is None else int(CPU),
           "lab": os.environ.get("RDMAIO_LAB") == "1", "two_hosts": bool(EXEC),
           "fio": subprocess.run(["fio", "--version"], capture_output=True,
                                 text=True).stdout.strip(),
           "kernel": os.uname().release, "rows": rows}
    validate(doc)
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.rename(path + ".tmp", path)
    print(f"result: results/bench-{stamp}.json")
    if os.environ.get("RDMAIO_LAB") == "1":
        print("note: Soft-RoCE on an emulated CPU (lab): compare the ratios, not the figures.")
    return 0 if all(r["librdmaio"] is not None for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
