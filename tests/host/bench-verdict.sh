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
r = b.row("m", "m", b.BW_GOALS, ([100, 50, 80, 60, 90], [None] * 5, [110, 55, 88, 66, 99]))
assert r["ratios"]["perftest"] == [1.1] * 5, r["ratios"]
assert r["vs_perftest"] == 1.1 and r["goals"][0]["verdict"] == "met", r
# Medians alone (88 over 80) would say 1.1 too, but not in every round:
r = b.row("m", "m", b.BW_GOALS, ([100, 50, 80, 60, 90], [None] * 5, [99, 60, 88, 70, 95]))
assert r["goals"][0]["verdict"] == "spread too wide", r["goals"]
assert r["goals"][1]["verdict"] == "not measured", r["goals"]'
check "fio's own time per I/O is taken out of librdmaio's and judged against perftest's whole" bench_py '
# 0.05 Mpps is 20 us a message; fio takes 4 of them: 16 us, 0.0625 Mpps.
assert abs(b.rate_less(0.05, 4.0) - 0.0625) < 1e-9
assert b.rate_less(0.05, 20.0) is None and b.rate_less(None, 4.0) is None
g = b.SHARE_GOALS + b.RATE_DEFAULT_GOALS[:1]
r = b.row("m", "m", g, ([0.06] * 5, [None] * 5, [0.05] * 5, [4.0] * 5, [0.0625] * 5))
assert r["ratios"]["perftest_less_fio"] == [1.042] * 5, r["ratios"]
assert [x["verdict"] for x in r["goals"]] == ["met", "missed"], r["goals"]
assert r["fio_null"] == 4.0 and r["librdmaio_less_fio"] == 0.0625, r
r = b.row("m", "m", g, ([0.06] * 5, [None] * 5, [0.05] * 5))
assert "fio_null" not in r and "perftest_less_fio" not in r["ratios"], r
assert r["goals"][0]["verdict"] == "not measured", r["goals"]'
doc='
rows = [b.row(i, n, goals, ([70.0] * 5, [60.0] * 5, [75.0] * 5, [1.0] * 5, [80.0] * 5))
        for i, n, _, _, goals in b.metrics()]
doc = {"kind": "rdmaio-bench/3", "time": "20261202T000000Z", "device": "fake0",
       "server_ip": "192.0.2.1", "seconds_per_test": 5, "rounds": 5, "verdict_rounds": 5,
       "bandwidth_bs": 65536, "bandwidth_iodepth": 128, "bandwidth_margin_seconds": 1,
       "librdmaio_batch": [a.lstrip("-") for a in b.BATCH], "multi_qp": b.QPS,
       "message_rate_iodepth": b.RATE_DEPTH,
       "message_rate_canned": [a.lstrip("-") for a in b.RATE_CANNED],
       "client_cpu": None, "lab": False, "emulation": "none", "events": False,
       "fio": "fio-3.33", "kernel": "6.1", "line_rate": b.line_rate(), "rows": rows}'
check "a bench document is valid against its schema, every metric with its goals" bench_py "$doc
b.validate(doc)
assert len(rows) == 23 and sum(len(r['goals']) for r in rows) == 39, len(rows)
assert len({r['id'] for r in rows}) == len(rows), 'row ids are unique'"
check "no line-rate verdict, saying why (one host: the device loops it back; the lab: Soft-RoCE) and how to get one" bench_py "$doc"'
l = b.line_rate()
assert l["judged"] is False and "one host" in l["why"], l
assert "loops the traffic back" in l["why"], l
assert "rdmaio run --expect-link-pct 90" in l["instead"], l
b.validate(dict(doc, line_rate=l))
b.LAB = True
assert "Soft-RoCE" in b.line_rate()["why"], b.line_rate()
b.validate(dict(doc, line_rate=b.line_rate(), lab=True, emulation="exact"))'
check "every verb has bandwidth, message rate at 8 B and 4 KiB, latency and fio's rdma engine" bench_py '
ids = {m[0]: m for m in b.metrics()}
for v in ("write", "read", "send"):
    for i in (v + "-bw", v + "-rate-8", v + "-rate-4096", v + "-rate-8-defaults",
              v + "-rate-4096-defaults", v + "-lat", v + "-lat-total"):
        assert i in ids, i
    assert [g["ratio"] for g in ids[v + "-rate-8"][4]] == [1.0]
    assert [(g["against"], g["ratio"]) for g in ids[v + "-rate-8-defaults"][4]] == \
        [("perftest", 0.9), ("perftest_less_fio", 1.0), ("fio_rdma", 1.15)]
    assert [g["ratio"] for g in ids[v + "-lat"][4]] == [1.0] * (2 if v != "read" else 1)'
check "BENCH_ONLY picks rows by id; an unknown id is refused, naming the known ones" bench_py '
ms = b.metrics()
assert [m[0] for m in b.selected(ms, "send-rate-8, read-lat")] == ["send-rate-8", "read-lat"]
assert b.selected(ms, "") == ms
try:
    b.selected(ms, "write-bw,nope")
except SystemExit as e:
    assert "no such figure nope" in str(e) and "write-rate-8-defaults" in str(e), e
else:
    sys.exit("took an unknown id")'
check "the exact lab judges with three rounds and sleeps on events; real time needs five" bash -c '
for exact in 0 1; do
	RDMAIO_LAB=1 RDMAIO_LAB_EXACT=$exact RDMAIO_RDMA_DEV=fake0 RDMAIO_SERVER_IP=192.0.2.1 \
		BENCH_CLIENT_CPU=none python3 -c "
import importlib.util
spec = importlib.util.spec_from_file_location(\"b\", \"scripts/bench-run.py\")
b = importlib.util.module_from_spec(spec)
spec.loader.exec_module(b)
print(b.EMULATION, b.VERDICT_ROUNDS, b.ROUNDS, b.EVENTS, b.PT_EVENTS, b.SECS)"
done | tr "\n" "|" | grep -qx "real-time 5 5 False \[\] 5|exact 3 3 True \[.-e.\] 4|"'
check "a bad BENCH_SECONDS or BENCH_ROUNDS is refused, naming it" bash -c '
out=$(BENCH_ROUNDS=x RDMAIO_RDMA_DEV=fake0 RDMAIO_SERVER_IP=192.0.2.1 scripts/bench-run.py 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q "BENCH_ROUNDS=x is not a whole number"'
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
# bench-compare: two results of one kind, figure by figure.
cmp_docs() { # OLD_WRITE_BW NEW_WRITE_BW OLD_LAT NEW_LAT EMULATION
	python3 - "$tmp" "$@" <<'PY'
import json, sys
d, ob, nb, ol, nl, emu = sys.argv[1], *map(float, sys.argv[2:6]), sys.argv[6]
for name, bw, lat in (("old", ob, ol), ("new", nb, nl)):
    rows = [{"id": "write-bw", "perftest": 70.0, "fio_rdma": None, "librdmaio": bw},
            {"id": "read-lat", "perftest": 18.0, "fio_rdma": None, "librdmaio": lat}]
    json.dump({"kind": "rdmaio-bench/3", "emulation": emu, "rows": rows},
              open(f"{d}/{name}.json", "w"))
PY
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compare_says() { # WANT_REGEX ARGS...: bench-compare's output matches
	local want=$1
	shift
	cmp_docs "$@" && scripts/bench-compare.py "$tmp/old.json" "$tmp/new.json" |
		grep -qE "$want"
}
check "bench-compare: within 1 % is the same, in the exact lab" \
	compare_says '^write-bw +librdmaio +73.5 +74 +same$' 73.5 74 18 18 exact
check "bench-compare: a higher rate is faster" \
	compare_says '^write-bw +librdmaio .* faster by 10.0 %$' 70 77 18 18 exact
check "bench-compare: a higher latency is slower" \
	compare_says '^read-lat +librdmaio .* slower by 5.0 %$' 70 70 20 21 exact
check "bench-compare: real-time results are not judged" \
	compare_says 'not judged' 70 77 18 18 real-time
within_2() {
	cmp_docs 70 70 18 18.5 exact
	scripts/bench-compare.py "$tmp/old.json" "$tmp/new.json" --within 2 >/dev/null 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q 'read-lat librdmaio -2.8 %' "$tmp/err" || return 1
	cmp_docs 70 70.7 18 18.3 exact
	scripts/bench-compare.py "$tmp/old.json" "$tmp/new.json" --within 2 >/dev/null
}
check "bench-compare --within 2: exit 1 naming the figure that moved more, else 0" within_2
check "bench-compare: a file of another kind is refused (exit 2), naming it" bash -c "
	echo '{\"kind\": \"rdmaio-result/1\"}' >$tmp/other.json
	scripts/bench-compare.py $tmp/other.json $tmp/other.json 2>$tmp/err
	[ \$? -eq 2 ] && grep -q 'other.json: not a rdmaio-bench/3 result' $tmp/err"
done_testing
