#!/usr/bin/env python3
"""The body of `make bench`: perftest, fio's built-in rdma engine and librdmaio,
side by side on one RDMA device in one boot, with matching parameters, judged
against librdmaio's goals by ratios paired within each round.

Like with like. Bandwidth at 64 KiB with 128 in flight (perftest's default
tx-depth), over the same sample window: perftest -D leaves a margin of a
quarter of the duration out at each end; fio gets that margin as ramp_time and
the window as runtime. librdmaio's bandwidth runs use fio's batch options
(BATCH below, as the canned jobs/verbs files do). Message rate at 8 B and
4 KiB with 64 in flight: perftest's MsgRate column against fio's IOPS, once
with the canned message-rate settings (jobs/verbs/msgrate.fio: gtod_reduce
and batches) and once with fio's defaults. Latency at 8 B, one in flight:
READ as ib_read_lat's typical (median) round trip against fio's p50; WRITE and
SEND as a round trip from the message rate at depth 1 (ib_write_bw and
ib_send_bw -t 1 against fio's IOPS at iodepth=1, mean against mean: perftest's
ib_write_lat and ib_send_lat measure a ping-pong of two messages, not one
message and its acknowledgement, and ib_write_lat busy-polls memory on both
sides, which one CPU cannot run). fio's rdma engine is measured on every verb
it has, with fio's mean total latency (lat) for both fio engines. Multi-QP:
ib_write_bw -q 4 against four fio jobs of one queue pair each, and against one
job with qps=4.

fio's own part. An I/O of librdmaio is also one of fio's: fio's loop, its
clock reads and its accounting, whatever the engine. The rows judged with
fio's defaults (message rate and latency) run fio once more with the null
engine and the client's options (fio_null, per I/O; with SEND on one host
the target's reads too, a fio job's on the same CPU) and judge librdmaio's
share as well: its time per message less fio's own, against perftest's
whole time per message ("perftest_less_fio": what the engine and the verbs
add is no more than perftest's loop).

In the exact lab (lab/run --exact, RDMAIO_LAB_EXACT=1; make bench's default)
the guest's clock counts instructions, so figures repeat to about 1 % and
three rounds judge a goal. It has one CPU, where two sides that both
busy-poll measure the scheduler, not the tools: with SEND, where both sides
wait for the other, both sleep on completion events there (perftest -e,
use_events=1); with WRITE and READ the server side is passive (perftest's
waits on its socket, librdmaio's target sleeps on events) and the client
polls its completions, as perftest's does (it has no events for them).

Each round measures every metric with every tool back to back, so a slow
spell of the shared host falls on all of them; a ratio is librdmaio's figure
over the other tool's in the same round, and a goal is judged on the median
of those ratios over the rounds (at least VERDICT_ROUNDS for a verdict): met
when every round's ratio meets it, missed when none does, and otherwise the
spread of the rounds is wider than the goal can be judged by, which the bench
says instead of a verdict.

Every tool's client runs pinned to one CPU (BENCH_CLIENT_CPU, default the last
one; "none" leaves it to the scheduler): under Soft-RoCE the client's CPU does
the whole transfer, and an unpinned fio client hops between two CPUs about a
hundred times a second while perftest's, with its busy server beside it, stays
put (engine/README.md, "Performance").
Between two hosts (RDMAIO_SERVER_EXEC set, as `lab/run --hosts 2` sets it;
`make bench BENCH_EXACT=0 BENCH_HOSTS=2`), every server side runs there: perftest's
servers, fio's rdma server and librdmaio's targets, each a fio of its own;
clients run here.
Prints a table and writes results/bench-TIME.json (results-schema/
bench.schema.json), every sample included.
Environment: RDMAIO_RDMA_DEV, RDMAIO_SERVER_IP, RDMAIO_SERVER_EXEC,
RDMAIO_LAB_EXACT; BENCH_STAMP (the result's time, from the host: see main);
BENCH_SECONDS (default 4 exact, 5 otherwise), BENCH_ROUNDS
(default 3 exact, 5 otherwise), BENCH_CLIENT_CPU, BENCH_EVENTS (1: sleep on
events outside the exact lab too), BENCH_ONLY (metric ids, comma-separated:
only those rows, as `make bench-exact FIGURE=...` runs them); BENCH_PERF_DIR
(a folder: every fio and perftest run is sampled with `perf record -a`, both
sides and the kernel, and its reports written there, as `make bench-exact
PERF=1` asks; in the exact lab perf's cpu-clock ticks with the instruction
clock, so the profiles repeat as the figures do, though a symbol's share in
a loop that repeats exactly may be perf's lock-step, not the loop's:
lab/README.md, "Exact"; its figures are not judged).
"""
import ctypes
import datetime
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEV = os.environ["RDMAIO_RDMA_DEV"]
IP = os.environ["RDMAIO_SERVER_IP"]
# A command that runs its arguments on the server host; empty: one host.
EXEC = os.environ.get("RDMAIO_SERVER_EXEC", "")
LAB = os.environ.get("RDMAIO_LAB") == "1"
EXACT = LAB and os.environ.get("RDMAIO_LAB_EXACT") == "1"
EMULATION = "exact" if EXACT else "real-time" if LAB else "none"
# Sides that wait for a peer's message sleep on completion events.
EVENTS = EXACT or os.environ.get("BENCH_EVENTS") == "1"
PT_EVENTS = ["-e"] if EVENTS else []
# perftest's servers connected by rdma_cm (-R) busy-poll its channel while
# the client runs: on the exact lab's one CPU that halves the client's
# WRITE and READ bandwidth (36.98 MiB/s against 73.49 without -R). There
# they exchange their queue pairs over their own TCP socket and sleep on it.
PT_CM = [] if EXACT else ["-R"]
RIO_EVENTS = ["--use_events=1"] if EVENTS else []


def env_int(name, default, low):
    v = os.environ.get(name, str(default))
    if not v.isdigit() or int(v) < low:
        sys.exit(f"bench: {name}={v} is not a whole number of at least {low}; "
                 f"unset it for the default ({default})")
    return int(v)


SECS = env_int("BENCH_SECONDS", 4 if EXACT else 5, 2)
ROUNDS = env_int("BENCH_ROUNDS", 3 if EXACT else 5, 1)
# Fewer rounds than this give figures and ratios, but no verdict. In real
# time a round swings 1.4-2x, so it takes five that all agree; in the exact
# lab three (rounds repeat to about 1 %).
VERDICT_ROUNDS = 3 if EXACT else 5
ENGINE = os.path.join(REPO, "build", "librdmaio.so")


def engine_in_memory():
    """The engine copied into the guest's own memory (its /tmp), for the
    runs to load. The repository share is uncached: every fio would read
    the engine from this host over 9p, and in the exact lab a guest that
    waits for this host is idle, so its clock jumps ahead (sleep=off): on a
    busy host that made a WRITE run at depth 1 outlive its 44 s limit
    (2026-12-07)."""
    global ENGINE
    d = tempfile.mkdtemp(prefix="rdmaio-bench-")
    shutil.copy(ENGINE, os.path.join(d, "librdmaio.so"))
    ENGINE = os.path.join(d, "librdmaio.so")
# perftest's default margin for -D (duration / 4), passed to it as -f too.
MARGIN = SECS // 4
BW_TIME = ["--time_based", f"--ramp_time={MARGIN}", f"--runtime={SECS - 2 * MARGIN}"]
# perftest's latency tests count iterations and report the median (typical),
# which a slow start barely moves; fio's p50 of a whole run is compared.
LAT_TIME = ["--time_based", f"--runtime={SECS}"]
BS, DEPTH = 65536, 128
RX_DEPTH = 512
QPS = 4
# Runs of the four-job figure per round (multi_qp_samples): one run lands
# anywhere in a band 2.8 % wide (twelve runs of one boot, 2026-12-07, with
# the jobs polling or asleep on events alike), and the median of three
# still moved 1 % between benches.
JOBS_RUNS = 5
# Runs per round of the canned SEND rows when both sides sleep on events
# (rate_samples).
SEND_CANNED_RUNS = 3 if EVENTS else 1
# Runs per round of the rows of fio's total latency (fio_lat_samples), of
# librdmaio and of fio's rdma engine.
LAT_RUNS = 3
# librdmaio's runs per round of the WRITE and SEND rows at depth 1
# (lat_samples).
DEPTH_ONE_RUNS = 3
# fio's batching for librdmaio's bandwidth runs: post a quarter of the depth
# as one list, and take completions as they come, up to the whole depth.
BATCH = [f"--iodepth_batch_submit={DEPTH // 4}", "--iodepth_batch_complete_min=1",
         f"--iodepth_batch_complete_max={DEPTH}"]
PORT = [7600]
# Message rate: messages in flight, and the canned settings of
# jobs/verbs/msgrate.fio (no clock read per I/O; a quarter of the depth posted
# as one list, completions taken as they come).
RATE_DEPTH = 64
RATE_CANNED = ["--gtod_reduce=1", f"--iodepth_batch_submit={RATE_DEPTH // 4}",
               "--iodepth_batch_complete_min=1",
               f"--iodepth_batch_complete_max={RATE_DEPTH}"]
RATE_SIZES = (8, 4096)
# perftest's output columns: bytes, iterations, peak and average MB/s, Mpps;
# a latency test's typical (median) latency in us.
PT_BW_COL, PT_RATE_COL, PT_LAT_COL = 3, 4, 4


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


# Profiles (BENCH_PERF_DIR): where the row and round being run are kept, to
# name each run's profile.
PERF_DIR = os.environ.get("BENCH_PERF_DIR", "")
NOW = {"row": "", "round": 0}


class Sampled:
    """perf record -a over one run: from before its start to after its end.
    The workload perf starts marks that recording is on (perf takes a while
    to start under emulation); the run waits for the mark."""

    def __init__(self, tool):
        self.base = os.path.join(PERF_DIR, f"{NOW['row']}-r{NOW['round']}-{tool}")
        self.perf = None

    def __enter__(self):
        if not PERF_DIR:
            return self
        mark = self.base + ".on"
        self.perf = subprocess.Popen(
            ["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-a", "-g",
             "-o", self.base + ".data", "--", "sh", "-c",
             'echo >"$0"; exec sleep 100000', mark],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(600):
            if os.path.exists(mark) or self.perf.poll() is not None:
                break
            subprocess.run(["sleep", "0.1"])
        return self

    def __exit__(self, *exc):
        if not self.perf:
            return False
        self.perf.send_signal(signal.SIGINT)
        self.perf.wait()
        with open(self.base + ".txt", "w") as out:
            for sort, limit in (("comm,dso", "0.5"), ("comm,dso,sym", "0.4")):
                subprocess.run(["perf", "report", "-i", self.base + ".data", "--stdio",
                                "--no-children", "-g", "none", "--sort", sort,
                                "--percent-limit", limit], stdout=out,
                               stderr=subprocess.DEVNULL)
        return False


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# One round's perftest outputs by arguments: a run that two rows compare
# against (message rate with canned settings and with fio's defaults) runs
# once per round. main() empties it at each round.
PT_RUNS = {}


def perftest(tool, *args, fresh=False):
    """Client output of one perftest pair (scripts/perftest.sh), or None;
    fresh: a run of its own, not the round's run of the same arguments."""
    key = (tool, *args)
    if key in PT_RUNS and not fresh:
        return PT_RUNS[key]
    script = '. "$0"; perftest_pair "$@"'
    cmd = ["bash", "-c", script, os.path.join(REPO, "scripts", "perftest.sh"),
           IP, tool, "-d", DEV, *PT_CM, *args]
    env = dict(os.environ, PERFTEST_CLIENT_CPU=CPU or "", PERFTEST_SERVER_EXEC=EXEC)
    with Sampled(tool):
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode:
        log(f"bench: {tool} failed: {p.stderr.strip()[-300:]}")
    PT_RUNS[key] = None if p.returncode else p.stdout
    return PT_RUNS[key]


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


# How long a fio run may go on after its window before it is stopped.
GRACE = 40


# librdmaio runs that failed and ran once more (the bench file's
# failed_runs): where, how, and what their processes were doing.
FAILED_RUNS = []


def strays():
    """What the processes a failed fio left to us were doing: name, state
    and the kernel function each waited in."""
    me, out = os.getpid(), []
    for d in os.listdir("/proc"):
        try:
            with open(f"/proc/{d}/stat") as f:
                st = f.read()
            with open(f"/proc/{d}/wchan") as f:
                wchan = f.read().strip() or "-"
        except OSError:
            continue
        head, rest = st.rsplit(")", 1)
        fields = rest.split()
        if len(fields) > 1 and fields[1] == str(me):
            out.append(f"{d} {head.split('(', 1)[1]} {fields[0]} {wchan}")
    return out


def fio(*jobs, server=None, head_start=0, grace=GRACE):
    """fio's JSON for one run of the given jobs (lists of --opt=val), or
    None. A librdmaio run that fails runs once more, and FAILED_RUNS keeps
    the failure: one lost run would leave its row without a figure for the
    round, and so without a verdict."""
    doc, failed = fio_once(*jobs, server=server, head_start=head_start, grace=grace)
    if doc is not None or tool_of(jobs) != "librdmaio":
        return doc
    log("bench: running it once more")
    doc, _ = fio_once(*jobs, server=server, head_start=head_start, grace=grace)
    FAILED_RUNS.append(dict(failed, again="worked" if doc is not None else "failed"))
    return doc


def tool_of(jobs):
    return ("fio_rdma" if "--ioengine=rdma" in jobs[-1] else
            "fio_null" if "--ioengine=null" in jobs[-1] else "librdmaio")


def fio_once(*jobs, server=None, head_start=0, grace=GRACE):
    """fio's JSON for one run of the given jobs (lists of --opt=val), or None
    and how it failed.
    server is the job of the other side: with two hosts it runs there, as a
    fio of its own, head_start seconds before the client (librdmaio's client
    retries for connect_timeout, fio's rdma client does not), and otherwise
    as the first job of this one. A run still going grace seconds after
    its window is stopped and counts as failed."""
    if server and not EXEC:
        jobs = (server, *jobs)
        server = None
    argv = ["timeout", "-k", "5", str(SECS + grace), "fio", "--output-format=json"]
    for job in jobs:
        argv += job
    remote = None
    if server:
        # Bounded there too: no stray is left on the server host when this
        # side fails (it cannot be stopped by pid from here).
        remote = subprocess.Popen([EXEC, "timeout", "-k", "5", str(SECS + grace + 5), "fio",
                                   "--output-format=json", *server],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if head_start:
            subprocess.run(["sleep", str(head_start)])
    # Files, not pipes: fio's job processes run in their own session, so a
    # timeout kills only the parent and a child still holding a pipe would
    # keep us waiting for its end of file forever (stop_strays ends them).
    tool = tool_of(jobs)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            Sampled(tool):
        p = subprocess.run(argv, stdout=out, stderr=err, text=True)
        out.seek(0)
        err.seek(0)
        text, errtext = out.read(), err.read()
    if remote:
        remote.wait()
    if p.returncode:
        left = strays()
        stop_strays()
        log(f"bench: fio {' '.join(argv[6:])[:100]}... failed (exit {p.returncode}): "
            f"{errtext.strip()[-300:]}")
        return None, {"row": NOW["row"], "round": NOW["round"],
                      "exit_status": p.returncode, "stderr": errtext.strip()[-300:],
                      "processes_left": left}
    return json.loads(text[text.index("{"):]), None


def job_stats(doc, name):
    for j in (doc or {}).get("jobs", []):
        if j.get("jobname") == name:
            return j
    return None


def mib_s(job, ddir):
    return job[ddir]["bw_bytes"] / 2**20 if job else None


def mpps(job, ddir):
    return job[ddir]["iops"] / 1e6 if job and job[ddir]["iops"] > 0 else None


def mean_us_of_rate(job, ddir):
    """The mean time of one I/O at depth 1: one over its message rate."""
    return 1e6 / job[ddir]["iops"] if job and job[ddir]["iops"] > 0 else None


def p50_us(job, ddir):
    if not job:
        return None
    pct = job[ddir]["clat_ns"].get("percentile", {})
    return pct.get("50.000000", 0) / 1000.0


def run_size(bs, depth):
    return max(bs * depth, 1 << 20)


def librdmaio(verb, bs, depth, name, timing, *extra, jobs=1, qps=1, poll=False,
              target_extra=()):
    """One target+client run of librdmaio; returns the client's job stats
    (with jobs > 1, the group's: the jobs' sum). With events, the target
    sleeps on them and so does the client, unless poll (a WRITE or READ
    client, whose target is passive, polls as perftest's does).
    target_extra: fio options of the target's job."""
    PORT[0] += 1
    ddir = "read" if verb == "read" else "write"
    size = run_size(bs, depth)
    target = [f"--name={name}-target", f"--ioengine=external:{ENGINE}", "--listen",
              f"--port={PORT[0]}", f"--size={size}", f"--bs={bs}",
              f"--clients={jobs * qps}", *RIO_EVENTS, *target_extra]
    if verb == "send":
        # Receives posted: perftest's ib_send_bw server keeps --rx-depth=512.
        target += ["--verb=send", f"--iodepth={max(depth * 2, RX_DEPTH)}"]
    client = [f"--name={name}", f"--ioengine=external:{ENGINE}", f"--hostname={IP}",
              f"--port={PORT[0]}", f"--verb={verb}", f"--rw={ddir}", f"--bs={bs}",
              f"--size={size}", f"--iodepth={depth * qps}", *timing, *PIN,
              *([] if poll else RIO_EVENTS), *extra]
    if jobs > 1:
        # A group of their own: fio's group_reporting sums a whole group,
        # and the target is in the first.
        client += ["--new_group", f"--numjobs={jobs}", "--group_reporting"]
    if qps > 1:
        client += [f"--qps={qps}"]
    return job_stats(fio(client, server=target), name), ddir


def median_run(runs, figure, *args, tool=None, **kw):
    """runs runs of the same arguments (librdmaio's, or tool's: a function
    returning job stats and direction): the run whose figure (a function of
    them) is the median, and that figure, None unless every run worked.
    With none working, the first run. Where the sides take turns on the
    exact guest's one CPU, a run lands in one of a few levels 1-3 % apart,
    and the median run holds still."""
    tried = [(tool or librdmaio)(*args, **kw) for _ in range(runs)]
    ok = sorted((t for t in tried if figure(*t) is not None), key=lambda t: figure(*t))
    pick = ok[len(ok) // 2] if ok else tried[0]
    return pick, figure(*pick) if len(ok) == runs else None


# fio's rdma engine's SEND runs do not end here (its server meets RNR, or
# it hangs: engine/README.md). In the exact lab, where a run takes a second
# or two to start, a run is stopped 15 s after its window, not 40: twelve
# such runs in a bench, 5 minutes.
FIO_RDMA_GRACE = {"send": 15} if EXACT else {}


def fio_rdma(verb, bs, depth, timing, *extra):
    """fio's built-in rdma engine, server rw=read and client rw=write (its
    roles); the client's job stats (its figures are under "write"). It
    sleeps on completion events whatever it is told."""
    PORT[0] += 1
    size = run_size(bs, depth)
    server = ["--name=server", "--ioengine=rdma", f"--port={PORT[0]}", "--rw=read",
              f"--bs={bs}", f"--size={size}", f"--iodepth={depth}", f"--verb={verb}"]
    client = ["--name=client", "--ioengine=rdma", f"--hostname={IP}", f"--port={PORT[0]}",
              "--rw=write", f"--verb={verb}", f"--bs={bs}", f"--size={size}",
              f"--iodepth={depth}", *timing, *PIN, *extra]
    return job_stats(fio(client, server=server, head_start=2,
                         grace=FIO_RDMA_GRACE.get(verb, GRACE)), "client")


# One round's null-engine runs by options (cleared with PT_RUNS): the rows
# of one size and direction share one.
NULL_RUNS = {}


def fio_null(ddir, bs, depth, timing, *extra):
    """fio's own cost of one I/O (us): the null engine with the client's
    options; None when it failed."""
    key = (ddir, bs, depth, *timing, *extra)
    if key not in NULL_RUNS:
        job = [f"--name={ddir}-null", "--ioengine=null", f"--rw={ddir}", f"--bs={bs}",
               f"--size={run_size(bs, depth)}", f"--iodepth={depth}", *timing, *PIN,
               *extra]
        st = job_stats(fio(job), f"{ddir}-null")
        NULL_RUNS[key] = mean_us_of_rate(st, ddir)
    return NULL_RUNS[key]


def fio_null_of(verb, bs, depth):
    """fio's own time per message: the client's I/O, and with SEND on one
    host the target's as well (each message is one of its reads there, on
    the same CPU). At depth 1 the null engine completes in its queue hook,
    fio's synchronous path, a little shorter than an engine's queue, commit
    and getevents: there the share left to librdmaio is, if anything, too
    large."""
    null = fio_null("read" if verb == "read" else "write", bs, depth, BW_TIME)
    if verb == "send" and not EXEC and null is not None:
        target = fio_null("read", bs, max(depth * 2, RX_DEPTH), BW_TIME)
        null = None if target is None else null + target
    return null


def rate_less(rate, null_us):
    """A message rate (Mpps) with fio's own time per I/O taken out."""
    if not rate or not null_us or 1 / rate <= null_us:
        return None
    return 1 / (1 / rate - null_us)


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


def pt_bw(verb, *args, lib=None, fresh=False):
    """A perftest bandwidth run for SECS seconds (-D, perftest's window),
    except SEND with events, which has no duration mode ("Duration mode
    doesn't work with events"): that one runs -n as many messages as
    librdmaio's run of the same round (lib: its job stats and direction)
    moved in its window, so both do the same work, with -N (no timestamp
    per message, which -D runs do not take either). perftest has events for
    SEND only ("Events feature not available on WRITE verb"): its WRITE and
    READ servers are passive anyway."""
    if verb != "send" or not EVENTS:
        return perftest(f"ib_{verb}_bw", "-D", str(SECS), "-f", str(MARGIN), *args,
                        fresh=fresh)
    job, ddir = lib
    n = max(1000, job[ddir]["total_ios"] if job else 0)
    return perftest(f"ib_{verb}_bw", "-n", str(n), "-N", *PT_EVENTS, *args, fresh=fresh)


def bw_samples(verb):
    job, ddir = librdmaio(verb, BS, DEPTH, f"{verb}-bw", BW_TIME, *BATCH,
                          poll=verb != "send")
    pt = perftest_row(pt_bw(verb, "-s", str(BS), lib=(job, ddir)), BS, PT_BW_COL)
    rf = mib_s(fio_rdma(verb, BS, DEPTH, BW_TIME), "write")
    return pt, rf, mib_s(job, ddir)


def multi_qp_samples(shape):
    """ib_write_bw -q 4, then librdmaio as 4 jobs of 1 queue pair ("jobs")
    or 1 job of 4 ("qps"), each queue pair with perftest's depth."""
    pt = perftest_row(pt_bw("write", "-s", str(BS), "-q", str(QPS)), BS, PT_BW_COL)
    jobs, qps = (QPS, 1) if shape == "jobs" else (1, QPS)
    # Four polling processes share the exact guest's one vCPU, and how they
    # take turns sets how many requests each post and poll carries: one run
    # lands anywhere in a 2-3 % band whatever its length (2 s and 4 s
    # windows measured alike).
    _, lib = median_run(JOBS_RUNS if shape == "jobs" else 1, mib_s, "write", BS, DEPTH,
                        f"write-bw-{shape}", BW_TIME, *BATCH, jobs=jobs, qps=qps, poll=True)
    return pt, None, lib


def rate_samples(arg):
    """Message rate (Mpps) at RATE_DEPTH: perftest's, and fio's IOPS with the
    canned settings or with fio's defaults (and fio's rdma engine with them)."""
    verb, bs, canned = arg
    opts = RATE_CANNED if canned else []
    # With the canned batching, a SEND client and its target both asleep on
    # events take turns in one of two steady patterns, 2 % apart (8 B:
    # 0.0705 Mpps in five runs of a boot, 0.0692 in the sixth). perftest
    # moves as many messages as the median run.
    # The canned file's gtod_reduce is global: its targets have it too.
    (job, ddir), lib = median_run(
        SEND_CANNED_RUNS if canned and verb == "send" else 1, mpps, verb, bs, RATE_DEPTH,
        f"{verb}-rate-{bs}{'' if canned else '-defaults'}", BW_TIME, *opts,
        target_extra=opts[:1], poll=verb != "send")
    pt = perftest_row(pt_bw(verb, "-s", str(bs), "-t", str(RATE_DEPTH), lib=(job, ddir)),
                      bs, PT_RATE_COL)
    # fio's rdma engine crashes with gtod_reduce=1 (it loses track of its
    # requests: "send wr 10 not found", then SIGSEGV; fio 3.33): it runs in
    # the rows of fio's defaults, like with like.
    rf = None if canned else mpps(fio_rdma(verb, bs, RATE_DEPTH, BW_TIME), "write")
    if canned:
        return pt, rf, lib, None, None
    null = fio_null_of(verb, bs, RATE_DEPTH)
    return pt, rf, lib, null, rate_less(lib, null)


def lat_samples(verb):
    """A full round trip of one 8-byte message (us): READ as ib_read_lat's
    typical against fio's p50, both polling; WRITE and SEND as the mean of
    one over the message rate at depth 1 (see the top)."""
    if verb == "read":
        typ = perftest_row(perftest("ib_read_lat", "-s", "8", "-n", "2000"), 8, PT_LAT_COL)
        job, ddir = librdmaio(verb, 8, 1, f"{verb}-lat", LAT_TIME, poll=True)
        return typ, None, p50_us(job, ddir), None, None
    # A WRITE run at depth 1 sits at 15.35 or at 15.64 us (1.8 % apart:
    # two of three rounds at the higher on 2026-12-07, one of fifteen
    # before): the median of DEPTH_ONE_RUNS runs holds still.
    (job, ddir), lib = median_run(DEPTH_ONE_RUNS, mean_us_of_rate, verb, 8, 1,
                                  f"{verb}-lat", BW_TIME, poll=verb != "send")
    # perftest's own runs sit in levels too (WRITE 13.10, 13.16 and 13.27
    # us, 2026-12-07: one round at the highest flipped a goal's verdict):
    # the median of as many runs.
    rates = [perftest_row(pt_bw(verb, "-s", "8", "-t", "1", lib=(job, ddir), fresh=True),
                          8, PT_RATE_COL) for _ in range(DEPTH_ONE_RUNS)]
    rate = median(rates) if all(rates) else None
    null = fio_null_of(verb, 8, 1)
    less = lib - null if lib and null and lib > null else None
    return (1 / rate if rate else None), None, lib, null, less


def mean_lat_us(job, ddir):
    """fio's mean total latency (lat), us."""
    return job[ddir]["lat_ns"]["mean"] / 1000.0 if job else None


def fio_lat_samples(verb):
    """fio's mean total latency (lat) of one 8-byte I/O in flight, both fio
    engines: fio's rdma engine reads in its commit hook, so its clat is not
    a round trip; lat is, for both. The mean, not fio's p50: a percentile
    is a bucket of fio's histogram, 1/64 of a power of two (0.8-1.6 % wide
    between 8 and 32 us), so two runs a few ns apart could read a bucket
    apart. A librdmaio run sits in one of a few steady levels up to 2.8 %
    apart (13.63, 13.76 or 14.02 us for WRITE, 2026-12-06): the median of
    LAT_RUNS runs holds still."""
    pct = ["--lat_percentiles=1"]
    _, lib = median_run(LAT_RUNS, mean_lat_us, verb, 8, 1, f"{verb}-lat-total", LAT_TIME,
                        *pct, poll=verb != "send")
    # fio's rdma engine moves between levels too (WRITE 23.44-23.78 us,
    # 2026-12-07). Its SEND runs never end here (FIO_RDMA_GRACE): one try.
    _, rf = median_run(1 if verb == "send" else LAT_RUNS, mean_lat_us, verb, 8, 1, LAT_TIME,
                       *pct, tool=lambda *a: (fio_rdma(*a), "write"))
    return None, rf, lib


# librdmaio's goals, as ratios to the other tools (librdmaio / other).
PT_AT_LEAST = [{"against": "perftest", "want": ">=", "ratio": 1.00}]
FIO_AT_LEAST = [{"against": "fio_rdma", "want": ">=", "ratio": 1.15}]
BW_GOALS = PT_AT_LEAST + FIO_AT_LEAST
# fio's own time per I/O taken out: the engine's share against perftest.
SHARE_GOALS = [{"against": "perftest_less_fio", "want": ">=", "ratio": 1.00}]
RATE_DEFAULT_GOALS = [{"against": "perftest", "want": ">=", "ratio": 0.90}] + SHARE_GOALS
LAT_GOALS = [{"against": "perftest", "want": "<=", "ratio": 1.00}]
LAT_SHARE_GOALS = [{"against": "perftest_less_fio", "want": "<=", "ratio": 1.00}]
# Faster by 1.15x in latency is a ratio of at most 1 / 1.15.
FIO_LAT_GOALS = [{"against": "fio_rdma", "want": "<=", "ratio": round(1 / 1.15, 3)}]
QP_GOALS = [{"against": "perftest", "want": ">=", "ratio": 0.95}]
TOOLS = ("perftest", "fio_rdma", "librdmaio")
# Beside the tools' figures: fio's own time per I/O (null engine, us) and
# librdmaio's figure with it taken out, where a row measures them.
EXTRA = ("fio_null", "librdmaio_less_fio")
VERBS = ("write", "read", "send")


def size_name(bs):
    return f"{bs // 1024} KiB" if bs >= 1024 else f"{bs} B"


def metrics():
    """Every row: (id, name, samples function, its argument, goals)."""
    m = [(f"{v}-bw", f"{v} bandwidth 64 KiB (MiB/s)", bw_samples, v, BW_GOALS)
         for v in VERBS]
    m += [("write-bw-jobs",
           f"write bandwidth 64 KiB, {QPS} jobs x 1 QP (MiB/s, sum; perftest -q {QPS})",
           multi_qp_samples, "jobs", QP_GOALS),
          ("write-bw-qps", f"write bandwidth 64 KiB, 1 job x {QPS} QPs (MiB/s; perftest -q {QPS})",
           multi_qp_samples, "qps", [])]
    for bs in RATE_SIZES:
        for v in VERBS:
            m += [(f"{v}-rate-{bs}",
                   f"{v} message rate {size_name(bs)}, depth {RATE_DEPTH}, canned (Mpps)",
                   rate_samples, (v, bs, True), PT_AT_LEAST),
                  (f"{v}-rate-{bs}-defaults",
                   f"{v} message rate {size_name(bs)}, depth {RATE_DEPTH}, fio defaults (Mpps)",
                   rate_samples, (v, bs, False), RATE_DEFAULT_GOALS + FIO_AT_LEAST)]
    m += [("read-lat", "read latency 8 B p50 (us, full round trip)", lat_samples, "read",
           LAT_GOALS)]
    m += [(f"{v}-lat", f"{v} latency 8 B mean (us, 1 / message rate at depth 1)",
           lat_samples, v, LAT_GOALS + LAT_SHARE_GOALS) for v in ("write", "send")]
    # fio's own figure for both fio engines: submission and completion.
    m += [(f"{v}-lat-total", f"{v} latency 8 B mean (us, fio total lat)", fio_lat_samples,
           v, FIO_LAT_GOALS) for v in VERBS]
    return m


def selected(ms, only):
    """The rows BENCH_ONLY names (all when empty); an unknown id is an error
    that lists the known ones."""
    if not only:
        return ms
    ids = [x.strip() for x in only.split(",") if x.strip()]
    known = [m[0] for m in ms]
    bad = [i for i in ids if i not in known]
    if bad or not ids:
        sys.exit(f"bench: BENCH_ONLY={only}: no such figure {', '.join(bad) or '(empty)'}; "
                 f"figures: {' '.join(known)}")
    return [m for m in ms if m[0] in ids]


def row(rid, name, goals, samples):
    names = TOOLS + EXTRA
    figs = dict(zip(names, tuple(samples) + ([],) * (len(names) - len(samples))))
    r = {"id": rid, "metric": name}
    r.update({t: median(figs[t]) for t in TOOLS})
    paired = {o: [ratio(a, b) for a, b in zip(figs["librdmaio"], figs[o])]
              for o in ("perftest", "fio_rdma")}
    if any(v is not None for v in figs["librdmaio_less_fio"]):
        # Only where measured: older readers see the rows they know.
        r.update({t: median(figs[t]) for t in EXTRA})
        paired["perftest_less_fio"] = [ratio(a, b) for a, b in
                                       zip(figs["librdmaio_less_fio"], figs["perftest"])]
    else:
        del figs["fio_null"], figs["librdmaio_less_fio"]
    r["vs_perftest"] = median(paired["perftest"])
    r["vs_fio_rdma"] = median(paired["fio_rdma"])
    r["ratios"] = paired
    r["goals"] = [judge(g, paired.get(g["against"], [])) for g in goals]
    r["samples"] = figs
    return r


def fmt(v):
    # Four figures: a message rate is a few hundredths of a Mpps here.
    return "-" if v is None else f"{v:.4g}"


def fmt_ratio(rs):
    rs = [x for x in rs if x is not None]
    if not rs:
        return "-"
    return f"{median(rs):.2f}" + (f" ({min(rs):.2f}-{max(rs):.2f})" if len(rs) > 1 else "")


def print_table(rows):
    print(f"{'metric':<64} {'perftest':>9} {'fio rdma':>9} {'librdmaio':>9} "
          f"{'x perftest':>18} {'x fio rdma':>18} {'fio null':>9} {'less fio':>9} "
          f"{'x perftest':>18}")
    for r in rows:
        print(f"{r['metric']:<64} {fmt(r['perftest']):>9} {fmt(r['fio_rdma']):>9} "
              f"{fmt(r['librdmaio']):>9} {fmt_ratio(r['ratios']['perftest']):>18} "
              f"{fmt_ratio(r['ratios']['fio_rdma']):>18} {fmt(r.get('fio_null')):>9} "
              f"{fmt(r.get('librdmaio_less_fio')):>9} "
              f"{fmt_ratio(r['ratios'].get('perftest_less_fio', [])):>18}")
    print(f"(clients pinned to CPU {CPU})" if CPU else "(clients not pinned)")
    print(f"(lab: {EMULATION}; " if LAB else "(", end="")
    print("sides that wait for a peer sleep on completion events)" if EVENTS
          else "every side polls)")
    print("(servers and targets on the server host, clients here)" if EXEC
          else "(one host: servers, targets and clients share it)")
    print(f"(figures: medians of {ROUNDS} rounds; x = librdmaio / other, the median of the "
          "rounds' paired ratios (lowest-highest); bandwidth: higher is better; latency: lower)")
    print("(fio null: fio's own time per I/O, us, the null engine with the client's options; "
          "less fio: librdmaio with that time taken out, and its x perftest)")
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
    lr = line_rate()
    print(f"line rate: not judged: {lr['why']}; {lr['instead']}")
    for f in FAILED_RUNS:
        print(f"failed librdmaio run: {f['row']} round {f['round']}, exit {f['exit_status']}; "
              f"run once more: {f['again']}; processes left: "
              f"{'; '.join(f['processes_left']) or 'none'}")


def line_rate():
    """Why the bench gives no line-rate verdict: its figures never cross a
    link a line rate could be read from. perftest's 90 % of the link is a
    test between two hosts."""
    if LAB:
        why = ("Soft-RoCE in emulated guests: a software device has no link rate, and "
               "an emulated CPU, not a link, sets the pace")
    elif EXEC:
        why = ("the bench judges the tools against each other, not against the link "
               "between its hosts")
    else:
        why = ("one host: the client and the target share the device, which loops the "
               "traffic back (an adapter inside itself, Soft-RoCE in software), so it "
               "never crosses the link")
    return {"judged": False, "why": why,
            "instead": "run the verbs jobs between two hosts with rdmaio run "
                       "--expect-link-pct 90 (and --link-gbps where the port reports "
                       "no rate): each bandwidth figure is judged against 90 % of the "
                       "link's payload ceiling, exit 3 below it"}


def validate(doc):
    """The bench's JSON against its schema: a bench that writes what its
    schema does not describe fails here, not in a reader."""
    import jsonschema
    with open(os.path.join(REPO, "results-schema", "bench.schema.json")) as f:
        jsonschema.validate(doc, json.load(f))


def warm_up():
    """One short librdmaio run, and each perftest tool started once, before
    the first round. An exact guest's clock jumps ahead while it waits idle
    (sleep=off), and its programs and libraries come over 9p from this
    host: with the host busy, the first run of a bench waited that long for
    them that it met its timeout (WRITE 64 KiB, round 1, 2026-12-06)."""
    job, _ = librdmaio("write", 8, 1, "warm-up", ["--time_based", "--runtime=1"], poll=True)
    if not job:
        log("bench: the warm-up run failed (above); it only brings the programs "
            "into the guest, and no round uses its figures")
    for tool in ("ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_read_lat"):
        subprocess.run([tool, "--help"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def main():
    only = os.environ.get("BENCH_ONLY", "")
    if sys.argv[1:] == ["--list"]:
        # The figures' ids (those BENCH_ONLY names, all for "list").
        for m in selected(metrics(), "" if only == "list" else only):
            print(f"  {m[0]:<25} {m[1]}")
        return 0
    ms = selected(metrics(), only)
    samples = {m[0]: tuple([] for _ in TOOLS + EXTRA) for m in ms}
    if LAB:
        engine_in_memory()
    if EXACT:
        NOW.update(row="warm-up", round=0)
        warm_up()
    for rnd in range(1, ROUNDS + 1):
        PT_RUNS.clear()
        NULL_RUNS.clear()
        for rid, name, fn, arg, _ in ms:
            NOW.update(row=rid, round=rnd)
            log(f"bench: round {rnd}/{ROUNDS}: {name}, {SECS} s each")
            got = tuple(fn(arg))
            for acc, v in zip(samples[rid], got + (None,) * (len(TOOLS + EXTRA) - len(got))):
                acc.append(v)
    rows = [row(rid, name, goals, samples[rid]) for rid, name, _, _, goals in ms]
    print_table(rows)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    # An exact guest's date drifts from this host's (lab/README.md, "Exact"):
    # scripts/bench hands in the host's time of the start, which names the file.
    host_stamp = os.environ.get("BENCH_STAMP", "")
    if re.fullmatch(r"[0-9]{8}T[0-9]{6}Z", host_stamp):
        stamp = host_stamp
    os.makedirs(os.path.join(REPO, "results"), exist_ok=True)
    path = os.path.join(REPO, "results", f"bench-{stamp}.json")
    doc = {"kind": "rdmaio-bench/3", "time": stamp, "device": DEV, "server_ip": IP,
           "seconds_per_test": SECS, "rounds": ROUNDS, "verdict_rounds": VERDICT_ROUNDS,
           "bandwidth_bs": BS, "bandwidth_iodepth": DEPTH, "bandwidth_margin_seconds": MARGIN,
           "librdmaio_batch": [a.lstrip("-") for a in BATCH], "multi_qp": QPS,
           "multi_job_runs": JOBS_RUNS, "send_canned_runs": SEND_CANNED_RUNS,
           "total_latency_runs": LAT_RUNS, "depth_one_runs": DEPTH_ONE_RUNS,
           "message_rate_iodepth": RATE_DEPTH,
           "message_rate_canned": [a.lstrip("-") for a in RATE_CANNED],
           "client_cpu": None if CPU is None else int(CPU),
           "lab": LAB, "emulation": EMULATION, "events": EVENTS, "two_hosts": bool(EXEC),
           "fio": subprocess.run(["fio", "--version"], capture_output=True,
                                 text=True).stdout.strip(),
           "kernel": os.uname().release, "failed_runs": FAILED_RUNS,
           "line_rate": line_rate(), "rows": rows}
    validate(doc)
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.rename(path + ".tmp", path)
    print(f"result: results/bench-{stamp}.json")
    if EXACT:
        print("note: Soft-RoCE on an emulated CPU whose clock counts instructions (exact "
              "lab): the ratios are CPU cost, the figures are not a NIC's.")
    elif LAB:
        print("note: Soft-RoCE on an emulated CPU (lab): compare the ratios, not the figures.")
    return 0 if all(r["librdmaio"] is not None for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
