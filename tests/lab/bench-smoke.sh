#!/bin/bash
# lab-run: --softroce --exact --timeout 900
# The body of `make bench` (scripts/bench-run.py) in its default lab, the
# exact one (one guest whose clock counts instructions): three figures, one
# short round, twice. Each kind of perftest output the bench reads is parsed
# (a bandwidth, a message rate, here SEND's with events on both sides and a
# message count, and a latency), the result JSON (which the bench validates against
# results-schema/bench.schema.json before writing it) holds each row with every tool's
# figure and the round's paired ratios, and no verdict (that takes three
# rounds); and the two runs of this one build agree within 2 % on every
# figure (bench-compare --within 2), which is what lets the bench judge an
# engine change to the percent. fio's rdma engine is not asserted: it fails
# on its own at times (no retry while its server starts, RNR on SEND).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BENCH_SECONDS=2 BENCH_ROUNDS=1 BENCH_ONLY=write-bw,send-rate-8,read-lat

# bench N: one run; its table in $tmp/outN, its result file's path in $tmp/fileN.
bench() {
	scripts/bench-run.py >"$tmp/out$1" 2>"$tmp/err$1" || {
		cat "$tmp/out$1" "$tmp/err$1"
		return 1
	}
	cat "$tmp/out$1"
	sed -n 's/^result: //p' "$tmp/out$1" >"$tmp/file$1"
	[ -s "$tmp/file$1" ] && [ -f "$(cat "$tmp/file$1")" ]
}
check "bench: one round of three figures in the exact lab, exit 0" bench 1

result() {
	python3 - "$(cat "$tmp/file1")" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
# Valid against results-schema/bench.schema.json: the bench checks that
# itself before it writes (and exits non-zero otherwise), and importing
# jsonschema again would cost this emulated guest half a minute.
want(doc["kind"] == "rdmaio-bench/3", "kind")
want(doc["rounds"] == 1 and doc["seconds_per_test"] == 2, "rounds/seconds")
want(doc["emulation"] == "exact" and doc["events"] is True, "emulation exact, events")
want(doc["verdict_rounds"] == 3, "three rounds judge in the exact lab")
want(doc["client_cpu"] is None, "client_cpu null: the exact guest has one CPU")
want(doc.get("two_hosts") is False, "two_hosts false: one guest")
lr = doc.get("line_rate", {})
want(lr.get("judged") is False and "Soft-RoCE" in lr.get("why", ""),
     "no line-rate verdict in the lab, saying why")
rows = {r["id"]: r for r in doc["rows"]}
want(sorted(rows) == sorted(["write-bw", "send-rate-8", "read-lat"]),
     "the rows BENCH_ONLY named, got %s" % sorted(rows))
for rid, r in rows.items():
    want(r["librdmaio"] and r["librdmaio"] > 0, "librdmaio figure of " + rid)
    want(r["perftest"] and r["perftest"] > 0, "perftest figure of " + rid)
    want(r["ratios"]["perftest"] == [r["vs_perftest"]] and r["vs_perftest"],
         "the round's paired ratio to perftest of " + rid)
    for g in r["goals"]:
        want(g["verdict"] in ("fewer than 3 rounds", "not measured"),
             "no verdict from one round: %s, %s" % (rid, g))
# Sanity of units: a message rate in Mpps, a latency in microseconds.
want(0 < rows["send-rate-8"]["perftest"] < 10, "send-rate-8 in Mpps")
want(1 < rows["read-lat"]["perftest"] < 10000, "read-lat in us")
for m in bad:
    print("BAD:", m)
print(json.dumps(doc["rows"], indent=1)[:3000] if bad else "all rows complete")
sys.exit(1 if bad else 0)
PY
}
check "bench: the result JSON has every row, ratio, goal and setting" result
check "bench: the table says how each goal is judged and that events were used" \
	grep -q "sides that wait for a peer sleep on completion events" "$tmp/out1"
check "bench: the same figures again" bench 2
check "bench: two runs of one build agree within 2 % on every figure" \
	scripts/bench-compare.py "$(cat "$tmp/file1")" "$(cat "$tmp/file2")" --within 2
# One short round is no result to keep.
rm -f "$(cat "$tmp/file1")" "$(cat "$tmp/file2")"
done_testing
