#!/usr/bin/env python3
"""Where a SEND's CPU goes, per message, in the whole guest: /proc/stat's
columns (user, system, softirq, ...) and context switches, by the
difference of two run lengths, for ib_send_bw -e and for librdmaio SEND
with use_events on both sides, and fio's own loop (the null engine, a
write and a read job: the client's I/O and the target's). The difference
of two lengths takes out start-up and connection set-up. Meant for the
exact lab, whose clock counts instructions, so CPU time is an instruction
count (one vCPU: both sides sleep on completion events):

    make bench-send-cpu  (lab/run --softroce --exact -- scripts/cpu-split.py)

Under lab/run --insn-count (make bench-send-insn) every run is also a window
of the instruction counter, for scripts/insn-report.py to split by function.

A benchmark, not a test: it prints figures and asserts nothing."""
import json
import os
import subprocess
import sys

import insnlab

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEV = os.environ["RDMAIO_RDMA_DEV"]
IP = os.environ["RDMAIO_SERVER_IP"]
ENGINE = os.path.join(REPO, "build", "librdmaio.so")
COLS = ["user", "nice", "system", "idle", "iowait", "irq", "softirq"]
HZ = os.sysconf("SC_CLK_TCK")
PORT = [7900]
INSN = insnlab.Windows()


def stat():
    """The cpu line's first seven columns in s, and the context switches."""
    with open("/proc/stat") as f:
        lines = f.read().splitlines()
    cols = [int(x) / HZ for x in lines[0].split()[1:8]]
    ctxt = next(int(line.split()[1]) for line in lines if line.startswith("ctxt "))
    return cols, ctxt


def fio(*args):
    p = subprocess.run(["timeout", "-k", "5", "120", "fio", "--output-format=json",
                        *args], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"cpu-split: fio failed: {p.stderr.strip()[-300:]}")
    return json.loads(p.stdout[p.stdout.index("{"):])


def ios(doc, name):
    return next(j["write"]["total_ios"] for j in doc["jobs"] if j["jobname"] == name)


def perftest(n):
    """n messages of ib_send_bw -e (scripts/perftest.sh starts its server)."""
    script = '. "$0"; perftest_pair "$@"'
    p = subprocess.run(["bash", "-c", script, os.path.join(REPO, "scripts", "perftest.sh"),
                        IP, "ib_send_bw", "-d", DEV, "-e", "-s", "8", "-t", "64",
                        "-n", str(n), "-N"], capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"cpu-split: ib_send_bw failed: {p.stderr.strip()[-300:]}")
    return n


def librdmaio(secs, depth=64):
    PORT[0] += 1
    target = ["--name=t", f"--ioengine=external:{ENGINE}", "--listen", f"--port={PORT[0]}",
              "--size=1m", "--bs=8", "--clients=1", "--use_events=1", "--verb=send",
              "--iodepth=512"]
    client = ["--name=c", f"--ioengine=external:{ENGINE}", f"--hostname={IP}",
              f"--port={PORT[0]}", "--verb=send", "--rw=write", "--bs=8", "--size=1m",
              f"--iodepth={depth}", "--use_events=1", "--time_based", f"--runtime={secs}"]
    return ios(fio(*target, *client), "c")


def fio_null(secs):
    jobs = []
    for ddir in ("read", "write"):
        jobs += [f"--name={ddir}", "--ioengine=null", f"--rw={ddir}", "--bs=8",
                 "--size=1m", "--iodepth=64", "--time_based", f"--runtime={secs}"]
    return ios(fio(*jobs), "write")


def measure(name, run, arg):
    INSN.begin()
    a, ca = stat()
    n = run(arg)
    b, cb = stat()
    INSN.end(name, n)
    return n, [y - x for x, y in zip(a, b)], cb - ca


def split(name, run, short, long_):
    n1, d1, c1 = measure(name, run, short)
    n2, d2, c2 = measure(name, run, long_)
    dn = n2 - n1
    us = [(y - x) / dn * 1e6 for x, y in zip(d1, d2)]
    busy = sum(us) - us[COLS.index("idle")] - us[COLS.index("iowait")]
    print(f"{name}: {n1} and {n2} messages; per message, us: " +
          ", ".join(f"{c} {v:.2f}" for c, v in zip(COLS, us) if c not in ("nice", "iowait")) +
          f"; busy {busy:.2f}; context switches {(c2 - c1) / dn:.2f}", flush=True)


def main():
    src = "/sys/devices/system/clocksource/clocksource0/current_clocksource"
    with open(src) as f:
        print(f"clocksource: {f.read().strip()}")
    split("ib_send_bw -e, 8 B, 64 in flight", perftest, 20000, 80000)
    split("librdmaio SEND, use_events, 8 B, 64 in flight", librdmaio, 2, 6)
    split("librdmaio SEND, use_events, 8 B, 1 in flight",
          lambda s: librdmaio(s, 1), 2, 6)
    split("fio null engine, a write and a read job, 8 B, 64 in flight", fio_null, 2, 6)
    INSN.finish()


if __name__ == "__main__":
    main()
