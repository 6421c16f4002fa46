#!/usr/bin/env python3
"""The body of `make bench-steady`: is a swing in librdmaio's bandwidth the
engine's or the host's? A benchmark, not a test: it prints figures.

In one boot, ROUNDS rounds of WRITE at 64 KiB with 128 in flight, perftest's
ib_write_bw and librdmaio alternated (the order flips every round), each for
SECS seconds with a bandwidth sample every second: perftest's own
(--run_infinitely -D 1) and fio's bandwidth log (log_avg_msec=1000). Both
clients are pinned to the same CPU, as in `make bench`.

Two spreads tell the causes apart:
- within a run, second by second: a slow spell of the host (or a stall of
  the engine) shows as a dip inside a run;
- between runs, of each run's mean second: what a run's set-up leaves
  (registration, placement, warm-up) shows as whole runs that are slower
  while their seconds stay even.
If both tools dip in the same stretch of the timeline, the swing is the
host's; if librdmaio's runs differ from one another more than perftest's
between the same neighbours, it is the engine's.

Prints every run's samples, per tool the median of the run means, their
spread and the median within-run spread, the ratio paired by round, and writes results/steady-TIME.json.
Environment: RDMAIO_RDMA_DEV, RDMAIO_SERVER_IP, RDMAIO_SERVER_EXEC (two
guests: servers run there); STEADY_ROUNDS (default 6), STEADY_SECONDS
(default 10), BENCH_CLIENT_CPU as for `make bench`.
"""
import datetime
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEV = os.environ["RDMAIO_RDMA_DEV"]
IP = os.environ["RDMAIO_SERVER_IP"]
EXEC = os.environ.get("RDMAIO_SERVER_EXEC", "")
ROUNDS = int(os.environ.get("STEADY_ROUNDS", "6"))
SECS = int(os.environ.get("STEADY_SECONDS", "10"))
ENGINE = os.path.join(REPO, "build", "librdmaio.so")
BS, DEPTH = 65536, 128
BATCH = [f"--iodepth_batch_submit={DEPTH // 4}", "--iodepth_batch_complete_min=1",
         f"--iodepth_batch_complete_max={DEPTH}"]
CPUS = sorted(os.sched_getaffinity(0))
CPU = os.environ.get("BENCH_CLIENT_CPU", str(CPUS[-1]) if len(CPUS) > 1 else "none")
PIN = [] if CPU == "none" else ["taskset", "-c", CPU]
PORT = [7700]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def server_argv(argv):
    """argv on the server: this guest, or the other one through EXEC."""
    return ([EXEC] if EXEC else []) + argv


def perftest_run():
    """Per-second MiB/s of one ib_write_bw run, [] when it failed."""
    args = ["-d", DEV, "-R", "-s", str(BS), "-D", "1", "--run_infinitely",
            "-p", str(PORT[0])]
    PORT[0] += 1
    # The server runs until its timeout: the client's end plus a margin.
    srv = subprocess.Popen(server_argv(["timeout", "-k", "2", str(SECS + 9),
                                        "ib_write_bw", *args]),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["sleep", "1"])
    # perftest buffers its stdout in a pipe: line-buffered, so the lines
    # printed before the SIGINT that ends it are not lost. Its rdma_cm
    # handshake takes a few seconds in the lab before the first sample.
    p = subprocess.run(["timeout", "-s", "INT", "-k", "2", str(SECS + 5), *PIN,
                        "stdbuf", "-oL", "ib_write_bw", *args, IP],
                       capture_output=True, text=True)
    srv.wait()
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) >= 5 and f[0] == str(BS):
            out.append(float(f[3]))
    if not out:
        log(f"steady: ib_write_bw gave no samples: {p.stderr.strip()[-300:]}")
    return out


def librdmaio_run(tmp):
    """Per-second MiB/s of one librdmaio WRITE run, [] when it failed."""
    PORT[0] += 1
    logname = os.path.join(tmp, f"bw{PORT[0]}")
    size = BS * DEPTH
    target = ["fio", "--output-format=json", "--name=target",
              f"--ioengine=external:{ENGINE}", "--listen", f"--port={PORT[0]}",
              f"--size={size}", f"--bs={BS}", "--clients=1"]
    client = ["--name=steady", f"--ioengine=external:{ENGINE}", f"--hostname={IP}",
              f"--port={PORT[0]}", "--verb=write", "--rw=write", f"--bs={BS}",
              f"--size={size}", f"--iodepth={DEPTH}", *BATCH, "--time_based",
              f"--runtime={SECS}", f"--write_bw_log={logname}", "--log_avg_msec=1000"]
    if CPU != "none":
        client.append(f"--cpus_allowed={CPU}")
    if EXEC:
        srv = subprocess.Popen(server_argv(["timeout", "-k", "2", str(SECS + 30),
                                            *target]),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["sleep", "2"])
        p = subprocess.run(["timeout", "-k", "5", str(SECS + 30), "fio", *client],
                           capture_output=True, text=True)
        srv.wait()
    else:
        p = subprocess.run(["timeout", "-k", "5", str(SECS + 30), *target, *client],
                           capture_output=True, text=True)
    if p.returncode:
        log(f"steady: fio failed (exit {p.returncode}): {p.stderr.strip()[-300:]}")
        return []
    # fio numbers the log by the job's place: 2 behind a target in the
    # same fio, 1 alone.
    logs = glob.glob(f"{logname}_bw.*.log")
    if len(logs) != 1:
        log(f"steady: not one bandwidth log for the client: {logs}")
        return []
    with open(logs[0]) as f:
        return [int(line.split(",")[1]) / 1024.0 for line in f]


def spread(xs):
    """max/min of the samples, None with fewer than two."""
    xs = [x for x in xs if x]
    return round(max(xs) / min(xs), 3) if len(xs) > 1 else None


def run_mean(samples):
    """A run's figure: the mean of its seconds after the first (the first
    holds the start: connection set-up, an empty pipeline). A mean, not a
    median: fio counts a second's bytes as whole reaps of up to the depth
    (8 MiB at 64 KiB x 128), so its seconds come in steps of that size."""
    return statistics.fmean(samples[1:]) if len(samples) > 1 else None


def summary(runs):
    meds = [m for m in (run_mean(r) for r in runs) if m]
    within = [spread(r) for r in runs if len(r) > 1]
    return {
        "runs": len(meds),
        "median_MiB_s": round(statistics.median(meds), 1) if meds else None,
        "run_means_MiB_s": [round(m, 1) for m in meds],
        "between_runs_spread": spread(meds),
        "within_run_spread_median": round(statistics.median(within), 3) if within else None,
    }


def paired(timeline):
    """Per round, librdmaio's run mean over perftest's, and how the two
    tools' run means move together over the rounds (Pearson's r)."""
    by_round = {}
    for t in timeline:
        if run_mean(t["samples_MiB_s"]):
            by_round.setdefault(t["round"], {})[t["tool"]] = \
                run_mean(t["samples_MiB_s"])
    both = [v for _, v in sorted(by_round.items()) if len(v) == 2]
    lib = [v["librdmaio"] for v in both]
    pt = [v["perftest"] for v in both]
    r = None
    if len(both) > 2 and statistics.pstdev(lib) and statistics.pstdev(pt):
        r = round(statistics.correlation(lib, pt), 2) \
            if hasattr(statistics, "correlation") else None
    return {"ratios": [round(a / b, 2) for a, b in zip(lib, pt)], "pearson_r": r}


def main():
    timeline = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(ROUNDS):
            order = ["perftest", "librdmaio"] if r % 2 == 0 else ["librdmaio", "perftest"]
            for tool in order:
                s = perftest_run() if tool == "perftest" else librdmaio_run(tmp)
                timeline.append({"round": r + 1, "tool": tool,
                                 "samples_MiB_s": [round(x, 1) for x in s]})
                log(f"steady: round {r + 1} {tool}: "
                    + " ".join(f"{x:.0f}" for x in s))
    result = {"schema": "rdmaio-steady/1",
              "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "device": DEV, "two_hosts": bool(EXEC), "seconds": SECS, "rounds": ROUNDS,
              "client_cpu": CPU, "timeline": timeline, "tools": {}}
    print(f"WRITE {BS // 1024} KiB, {DEPTH} in flight, one sample a second, "
          f"{ROUNDS} alternated rounds of {SECS} s on {DEV}"
          f"{' between two guests' if EXEC else ''}")
    print("| tool | median of run means, MiB/s | run means | between runs (max/min) | within a run (median max/min) |")
    print("|---|---:|---|---:|---:|")
    for tool in ("perftest", "librdmaio"):
        runs = [t["samples_MiB_s"] for t in timeline if t["tool"] == tool]
        s = summary(runs)
        result["tools"][tool] = s
        print(f"| {tool} | {s['median_MiB_s']} | {', '.join(map(str, s['run_means_MiB_s']))} "
              f"| {s['between_runs_spread']} | {s['within_run_spread_median']} |")
    pairs = paired(timeline)
    result["paired"] = pairs
    print(f"Paired by round (librdmaio over perftest): "
          f"{', '.join(str(r) for r in pairs['ratios'])}; run means move "
          f"together with r = {pairs['pearson_r']} (1: the same slow and fast "
          f"rounds for both tools, the host's; 0: unrelated)")
    os.makedirs(os.path.join(REPO, "results"), exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = os.path.join(REPO, "results", f"steady-{stamp}.json")
    with open(path, "w") as f:
        json.dump(result, f, indent=1)
    print(f"result: results/steady-{stamp}.json")


main()
