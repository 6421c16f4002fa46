#!/bin/bash
# Rounds and honest noise on the host, with fio's psync engine: `rdmaio run
# --repeat 3` keeps every round and sums them up (medians, ranges, the
# ratios' intervals, recomputed in Python), the report shows them, check
# checks each round, and compare judges changes from the rounds: two runs
# of the same jobs are within noise (exit 0), a halved bandwidth is beyond
# it (exit 1), and a one-round result says that its noise is unknown.
# Usage: tests/tools/rounds-host.sh [PATH/TO/rdmaio]   (default build/rdmaio)
name=rounds
. "$(dirname "$0")/host-lib.sh"
tool=$here/rounds-tool.py
write_pair_fio 500ms
py() { python3 "$tool" "$@"; }
valid() { python3 "$here/result-tool.py" validate "$schema" "$@"; }
# compare OLD NEW STATUS OUT: compare's output into OUT, with that status.
compare_is() {
	local rc=0
	"$rdmaio" compare "$1" "$2" >"$4" 2>&1 || rc=$?
	[ "$rc" = "$3" ] || { cat "$4"; echo "exit $rc, want $3"; return 1; }
}
# Every line of a table of changes in FILE matches the extended REGEX.
rows_all() {
	! grep '^| ' "$1" | grep -Ev '^\| (Job|Pair) \|' | grep -Ev -- "$2"
}

check "run --repeat 3 keeps three rounds" \
	bash -c "'$rdmaio' run --repeat 3 -o a.json --baseline 'cp=cp $tmp/data %o' pair.fio >a.out 2>a.err &&
		grep -qx 'rdmaio: round 3 of 3' a.err"
check "... and the result validates with python3-jsonschema" valid a.json
check "... each round's results are its fio's numbers; medians, ranges and intervals are the rounds'" \
	py rounds a.json 3
check "... a --baseline runs in every round, summed up as the jobs are" \
	python3 -c "
import json
d = json.load(open('a.json'))
per = [r['baselines'] for r in d['rounds']]
assert all(len(b) == 1 and b[0]['bytes'] == 16 << 20 and 'window' in b[0] for b in per), per
bw = sorted(b[0]['bw_bytes'] for b in per)
top = d['baselines'][0]
assert top['name'] == 'cp' and 'window' not in top and top['bw_bytes'] == bw[1], top
sp = top['over_rounds']
assert sp['rounds'] == 3 and sp['bw_bytes'] == {'median': bw[1], 'min': bw[0], 'max': bw[2], 'n': 3}, sp
"
check "... --csv of rounds has each watched host's CPU columns and the baseline's row" \
	bash -c "'$rdmaio' report --csv a.json >a.csv && head -n 1 a.csv | grep -q '_busy_s,' &&
		grep -q '^baseline,[^,]*,cp,,copy,' a.csv"
# mv moves the file in round 1; in rounds 2 and 3 there is none to move.
printf '[global]\nioengine=psync\nfilename=%s/data\nsize=16m\ntime_based\nruntime=200ms\n[seq-read-rdma]\nrw=read\n' "$tmp" >tiny.fio
cp "$tmp/data" once
check_fails "a baseline that fails in some rounds: exit 1" 1 "baseline mv: 'mv $tmp/once %o' exited 1" \
	"$rdmaio" run --repeat 3 -o m.json --baseline "mv=mv $tmp/once %o" tiny.fio
check "... summed up from the round it worked in, its error saying in how many it failed" \
	python3 -c "
import json
d = json.load(open('m.json'))
r1 = d['rounds'][0]['baselines'][0]
b = d['baselines'][0]
assert b['error'] == 'failed in 2 of 3 rounds: exited 1' and b['exit_status'] == 1, b
assert b['over_rounds']['failed'] == 2 and b['over_rounds']['bw_bytes']['n'] == 1, b
assert b['bw_bytes'] == r1['bw_bytes'] and [h['host'] for h in b['host_cpu']] == [h['host'] for h in r1['host_cpu']], b
"
check "... and the report says so" \
	bash -c "'$rdmaio' report m.json | grep -q '^- against mv (one file, 16.0 MiB in .*(failed in 2 of 3 rounds: exited 1)$'"
"$rdmaio" report a.json >a.md
check "report shows each pair's median with its range and each ratio's interval" \
	py report a.md a.json
check "check checks every round" \
	bash -c "'$rdmaio' check a.json >check.out; test \$? = 3 &&
		grep -qx 'round 3 of 3:' check.out && grep -q '^flagged nfs-transport' check.out"

# Whether two real runs on this host fall within noise is the host's
# business (a loaded CI machine moved a p50 latency by 31 % between two runs,
# each steady in itself): a second real run is judged, whatever the verdict;
# the rule is checked on a change of known size below.
check "the same jobs run again, --repeat 3" \
	"$rdmaio" run --repeat 3 -o b.json pair.fio
check "two runs of the same jobs compare: a verdict, exit 0 or 1" \
	bash -c "'$rdmaio' compare a.json b.json >ab.md 2>&1; test \$? -lt 2"
check "... judged by the rule for rounds, every row with a verdict" \
	bash -c "grep -q '^Old result: 3 rounds; new result: 3 rounds' ab.md &&
		grep -q 'Welch' ab.md && grep -q '^| seq-read (read) | bandwidth | ' ab.md &&
		! grep '^| ' ab.md | grep -Ev '^\| (Job|Pair) \|' | grep -Ev '\| (within|\*\*beyond) [^|]* \|$'"
# A figure known in one round only (the CPU of a round whose tasks did not
# match its jobs) has no measured noise: within --noise, said so.
within='\| within (noise|--noise \(noise unknown\)) \|$'
py scale a.json 0.97 less.json
check "a bandwidth 3 % lower in every round, under --noise (5 %): within noise, exit 0" \
	compare_is a.json less.json 0 less.md
check "... (every row)" rows_all less.md "$within"
check "... the bandwidths' rows say -3.0 %, the ratios' +0.0 %" \
	bash -c "grep -q '^| seq-read-rdma (read) | MiB/s | .* | -3.0% | ' less.md &&
		grep -q '^| seq-read (read) | bandwidth | .* | +0.0% | ' less.md"
check "a result compared with itself: no change at all, exit 0" compare_is a.json a.json 0 aa.md
check "... (every row)" rows_all aa.md "\\| \\+0\\.0% \\| (1|-) $within"

py halve a.json seq-read-rdma half.json
check "a halved bandwidth in every round is beyond noise, a regression: exit 1" \
	compare_is a.json half.json 1 half.md
check "... the job's bandwidth and the pair's ratio, nothing else" \
	bash -c "grep -q '^| seq-read-rdma (read) | MiB/s | .* | -50.0% | .* | \*\*beyond noise\*\*, worse |$' half.md &&
		grep -q '^| seq-read (read) | bandwidth | .* | -50.0% | .* | \*\*beyond noise\*\*, worse |$' half.md &&
		test \$(grep -c 'beyond noise\*\*' half.md) = 2"
check "... the other way round an improvement: exit 0" compare_is half.json a.json 0 back.md
check "... (said so)" grep -q '| +100.0% | .* | \*\*beyond noise\*\*, better |$' back.md

check "run without --repeat writes one round, as before" \
	bash -c "'$rdmaio' run -o one.json pair.fio >/dev/null && python3 '$tool' one-round one.json &&
		python3 '$here/result-tool.py' validate '$schema' one.json"
check "one round against three: run-to-run noise is unknown, said plainly" \
	bash -c "'$rdmaio' compare one.json a.json >oa.md; test \$? -lt 2 &&
		grep -q '^\*\*Run-to-run noise is unknown\*\*: the old result has one round only' oa.md"
check "... on every row" rows_all oa.md '\(noise unknown\)'
py halve one.json seq-read-rdma one-half.json
check "... judged by --noise alone, and so marked: a halved bandwidth, exit 1" \
	compare_is one.json one-half.json 1 oh.md
check "... (the row)" grep -q '^| seq-read-rdma (read) | MiB/s | .* | -50.0% | - | \*\*beyond noise\*\* by --noise alone (noise unknown), worse |$' oh.md
check_fails "--repeat takes 1..100 rounds" 2 "'0' is not a number in 1..100" \
	"$rdmaio" run --repeat 0 -o bad.json pair.fio
check_fails "... whole ones" 2 "not a whole number of rounds" \
	"$rdmaio" run --repeat 2.5 -o bad.json pair.fio
check_fails "--repeat with --fio-json is refused" 2 "imports one finished run" \
	"$rdmaio" run --repeat 2 --fio-json a.json -o bad.json
python3 "$here/result-tool.py" fio-output one.json fio.json
check_fails "compare of a file that is no result: exit 2" 2 "fio.json: not an rdmaio result" \
	"$rdmaio" compare a.json fio.json
check "no refused run wrote a result" test ! -e bad.json
done_testing
