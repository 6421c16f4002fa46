#!/bin/bash
# lab-run: --softroce --timeout 600
# The body of `make bench` (scripts/bench-run.py), one short round in one guest
# (make bench's default): perftest's
# output is parsed (its -q 4 multi-QP run too) and the result JSON, valid
# against results-schema/bench.schema.json, holds every row, with librdmaio's
# and perftest's figures, the round's paired ratios, and no verdict (that
# takes 5 rounds). fio's rdma engine is not asserted: it fails on its own at
# times (no retry while its server starts, RNR on SEND). It asserts what the
# bench reports, never how fast anything was.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bench() {
	BENCH_SECONDS=4 BENCH_ROUNDS=1 scripts/bench-run.py >"$tmp/out" 2>"$tmp/err" || {
		cat "$tmp/out" "$tmp/err"
		return 1
	}
	cat "$tmp/out"
}
check "bench: one round of every metric, exit 0" bench

result() {
	local f
	f=$(sed -n 's/^result: //p' "$tmp/out")
	[ -n "$f" ] && [ -f "$f" ] || { echo "no result file in: $(cat "$tmp/out")"; return 1; }
	python3 - "$f" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
want(doc["kind"] == "rdmaio-bench/2", "kind")
import jsonschema
try:
    jsonschema.validate(doc, json.load(open("results-schema/bench.schema.json")))
except jsonschema.ValidationError as e:
    want(False, "valid against results-schema/bench.schema.json: %s" % e.message)
want(doc["rounds"] == 1 and doc["seconds_per_test"] == 4, "rounds/seconds")
# perftest's -D margin (a quarter) is fio's ramp_time for bandwidth.
want(doc["bandwidth_margin_seconds"] == 1, "bandwidth_margin_seconds")
want(doc["client_cpu"] == 1, "client_cpu (the last of the lab's two CPUs)")
want(doc.get("two_hosts") is False, "two_hosts false: one guest")
rows = {r["metric"]: r for r in doc["rows"]}
want(len(rows) == 9, "9 rows, got %d" % len(rows))
for name, r in rows.items():
    want(r["librdmaio"] and r["librdmaio"] > 0, "librdmaio figure of " + name)
    want(len(r["samples"]["librdmaio"]) == 1, "one librdmaio sample in " + name)
    # perftest has a figure for everything but fio's own total latency row.
    if "fio total lat" not in name:
        want(r["perftest"] and r["perftest"] > 0, "perftest figure of " + name)
        want(r["ratios"]["perftest"] == [r["vs_perftest"]] and r["vs_perftest"],
             "the round's paired ratio to perftest of " + name)
    # One round judges nothing.
    for g in r["goals"]:
        want(g["verdict"] in ("fewer than 5 rounds", "not measured"),
             "no verdict from one round: %s, %s" % (name, g))
want(sum(len(r["goals"]) for r in rows.values()) == 11, "11 goals")
for m in bad:
    print("BAD:", m)
print(json.dumps(doc["rows"], indent=1)[:3000] if bad else "all rows complete")
sys.exit(1 if bad else 0)
PY
	local rc=$?
	rm -f "$f" # a one-round smoke run is no result to keep
	return $rc
}
check "bench: the result JSON has every row, ratio, goal and setting" result
check "bench: the table says how each goal is judged" \
	grep -q "goals (met: every round meets it; missed: none does" "$tmp/out"
done_testing
