#!/bin/bash
# make bench's judgement (scripts/bench-run.py), without a device: ratios are
# paired within rounds, a goal is met only when every round meets it, missed
# only when none does, and rounds that straddle it get no verdict; its JSON
# matches results-schema/bench.schema.json, and the schema refuses what it
# does not describe.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

bench_py() { # PYTHON: runs with the bench loaded as module b
	RDMAIO_RDMA_DEV=fake0 RDMAIO_SERVER_IP=192.0.2.1 BENCH_CLIENT_CPU=none python3 -c "
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location('b', 'scripts/bench-run.py')
b = importlib.util.module_from_spec(spec)
spec.loader.exec_module(b)
$1"
}

check "a goal every round meets is met; one no round meets is missed" bench_py '
g = {"against": "perftest", "want": ">=", "ratio": 1.0}
assert b.judge(g, [1.01, 1.2, 1.0, 1.05, 1.3])["verdict"] == "met"
assert b.judge(g, [0.5, 0.99, 0.9, 0.8, 0.7])["verdict"] == "missed"
l = {"against": "perftest", "want": "<=", "ratio": 1.05}
assert b.judge(l, [0.9, 1.05, 1.0, 0.7, 1.01])["verdict"] == "met"
assert b.judge(l, [1.06, 1.2, 1.1, 1.3, 1.5])["verdict"] == "missed"'
check "rounds that straddle the goal, or too few, give no verdict" bench_py '
g = {"against": "perftest", "want": ">=", "ratio": 1.0}
j = b.judge(g, [1.2, 1.3, 1.25, 1.4, 0.99])
assert j["verdict"] == "spread too wide" and j["median"] == 1.25, j
assert (j["min"], j["max"], j["rounds"]) == (0.99, 1.4, 5), j
assert b.judge(g, [1.5, 1.6, 1.7, 1.8])["verdict"] == "fewer than 5 rounds"
assert b.judge(g, [None, None])["verdict"] == "not measured"
assert b.judge(g, [1.1, None, 1.2, 1.3, 1.4, 1.5])["rounds"] == 5'
check "ratios pair librdmaio with the other tool in the same round, not medians" bench_py '
r = b.row("m", b.BW_GOALS, ([100, 50, 80, 60, 90], [None] * 5, [110, 55, 88, 66, 99]))
assert r["ratios"]["perftest"] == [1.1] * 5, r["ratios"]
assert r["vs_perftest"] == 1.1 and r["goals"][0]["verdict"] == "met", r
# Medians alone (88 over 80) would say 1.1 too, but not in every round:
r = b.row("m", b.BW_GOALS, ([100, 50, 80, 60, 90], [None] * 5, [99, 60, 88, 70, 95]))
assert r["goals"][0]["verdict"] == "spread too wide", r["goals"]
assert r["goals"][1]["verdict"] == "not measured", r["goals"]'
doc='
rows = [b.row(n, goals, ([70.0] * 5, [60.0] * 5, [75.0] * 5)) for n, _, _, goals in b.metrics()]
doc = {"kind": "rdmaio-bench/2", "time": "20261202T000000Z", "device": "fake0",
       "server_ip": "192.0.2.1", "seconds_per_test": 5, "rounds": 5, "verdict_rounds": 5,
       "bandwidth_bs": 65536, "bandwidth_iodepth": 128, "bandwidth_margin_seconds": 1,
       "librdmaio_batch": [a.lstrip("-") for a in b.BATCH], "multi_qp": b.QPS,
       "client_cpu": None, "lab": False, "fio": "fio-3.33", "kernel": "6.1", "rows": rows}'
check "a bench document is valid against its schema, every metric with its goals" bench_py "$doc
b.validate(doc)
assert len(rows) == 9 and sum(len(r['goals']) for r in rows) == 11, len(rows)"
check "the schema refuses an unknown field, a verdict of its own, a negative figure" bench_py "$doc
import copy, jsonschema
for bad in ('field', 'verdict', 'figure'):
    d = copy.deepcopy(doc)
    if bad == 'field':
        d['rows'][0]['extra'] = 1
    elif bad == 'verdict':
        d['rows'][0]['goals'][0]['verdict'] = 'probably fine'
    else:
        d['rows'][0]['samples']['librdmaio'][0] = -1.0
    try:
        b.validate(d)
    except jsonschema.ValidationError:
        continue
    sys.exit('schema took a document with a bad ' + bad)"
done_testing
