#!/usr/bin/env python3
"""Where a message's CPU goes, in the whole guest: /proc/stat's columns
(user, system, softirq, ...) and context switches, by the difference of
two run lengths, for perftest and librdmaio and fio's own loop (the null
engine). VERB (default send): SEND, with use_events on both sides and a
write and a read null job (the client's I/O and the target's); READ or
WRITE, with a passive target and a polling client, as make bench runs
them. The difference of two lengths takes out start-up and connection
set-up. Meant for the exact lab, whose clock counts instructions, so CPU
time is an instruction count (one vCPU: two sides that both poll would
measure its scheduler):

    make bench-send-cpu  (lab/run --softroce --exact -- scripts/cpu-split.py send)

Under lab/run --insn-count (make bench-insn VERB=...) every run is also a
window of the instruction counter, for scripts/insn-report.py to split by
function.

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


def ios(doc, name, ddir="write"):
    return next(j[ddir]["total_ios"] for j in doc["jobs"] if j["jobname"] == name)


def perftest(verb, n, depth=64):
    """n messages of ib_VERB_bw, 8 B, depth in flight (scripts/perftest.sh
    starts its server); SEND with events on both sides, READ and WRITE
    with a passive server and a polling client, as make bench runs them."""
    script = '. "$0"; perftest_pair "$@"'
    tool = f"ib_{verb}_bw"
    p = subprocess.run(["bash", "-c", script, os.path.join(REPO, "scripts", "perftest.sh"),
                        IP, tool, "-d", DEV, *(["-e"] if verb == "send" else []),
                        "-s", "8", "-t", str(depth), "-n", str(n), "-N"],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"cpu-split: {tool} failed: {p.stderr.strip()[-300:]}")
    return n


def librdmaio(verb, secs, depth=64):
    """A target and a client job, 8 B: SEND with use_events on both sides,
    READ and WRITE with the target asleep and the client polling."""
    PORT[0] += 1
    ddir = "read" if verb == "read" else "write"
    target = ["--name=t", f"--ioengine=external:{ENGINE}", "--listen", f"--port={PORT[0]}",
              "--size=1m", "--bs=8", "--clients=1", "--use_events=1"]
    if verb == "send":
        target += ["--verb=send", "--iodepth=512"]
    client = ["--name=c", f"--ioengine=external:{ENGINE}", f"--hostname={IP}",
              f"--port={PORT[0]}", f"--verb={verb}", f"--rw={ddir}", "--bs=8", "--size=1m",
              f"--iodepth={depth}", "--time_based", f"--runtime={secs}",
              *(["--use_events=1"] if verb == "send" else [])]
    return ios(fio(*target, *client), "c", ddir)


def fio_null(verb, secs, depth=64):
    """fio's own loop: the client's job, and for SEND the target's too."""
    jobs = []
    ddirs = ("read", "write") if verb == "send" else ("read" if verb == "read" else "write",)
    for ddir in ddirs:
        jobs += [f"--name={ddir}", "--ioengine=null", f"--rw={ddir}", "--bs=8",
                 "--size=1m", f"--iodepth={depth}", "--time_based", f"--runtime={secs}"]
    return ios(fio(*jobs), ddirs[-1], ddirs[-1])


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
    verb = sys.argv[1] if len(sys.argv) > 1 else "send"
    if verb not in ("send", "read", "write") or len(sys.argv) > 2:
        sys.exit(f"usage: cpu-split.py [send|read|write], not {' '.join(sys.argv[1:])}")
    src = "/sys/devices/system/clocksource/clocksource0/current_clocksource"
    with open(src) as f:
        print(f"clocksource: {f.read().strip()}")
    if verb == "send":
        # Each run outlasts insnlab's reads of its maps (they go on until
        # the maps have been still for a second), at both lengths.
        split("ib_send_bw -e, 8 B, 64 in flight", lambda n: perftest(verb, n), 40000, 160000)
        split("librdmaio SEND, use_events, 8 B, 64 in flight",
              lambda s: librdmaio(verb, s), 2, 6)
        split("librdmaio SEND, use_events, 8 B, 1 in flight",
              lambda s: librdmaio(verb, s, 1), 2, 6)
        split("fio null engine, a write and a read job, 8 B, 64 in flight",
              lambda s: fio_null(verb, s), 2, 6)
    else:
        # One in flight too: make bench's depth-1 WRITE row.
        for d in (64, 1):
            split(f"ib_{verb}_bw, 8 B, {d} in flight",
                  lambda n, d=d: perftest(verb, n, d), 100000, 400000)
            split(f"librdmaio {verb.upper()}, client polling, 8 B, {d} in flight",
                  lambda s, d=d: librdmaio(verb, s, d), 2, 6)
            split(f"fio null engine, a {verb} job, 8 B, {d} in flight",
                  lambda s, d=d: fio_null(verb, s, d), 2, 6)
    INSN.finish()


if __name__ == "__main__":
    main()
