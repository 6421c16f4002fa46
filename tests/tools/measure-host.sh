#!/bin/bash
# What a result says about CPU, latency and the verdicts, on the host with
# fio's own engines: rdmaio run records this host's CPU over each job's
# window, a "remote" host's through --remote-cpu (here `rdmaio cpu-watch` on
# this very host, so both series must agree), the verdicts and kinds, the
# report in human units (and Gb/s), the CSV, the chart, and the refusals.
# Usage: tests/tools/measure-host.sh [PATH/TO/rdmaio]   (default build/rdmaio)
name=measure
. "$(dirname "$0")/host-lib.sh"
helper=$here/result-tool.py
measure=$here/measure-tool.py
write_pair_fio 1
py() { python3 "$measure" "$@"; }
valid() { python3 "$helper" validate "$schema" "$@"; }

check "run records this host's CPU" "$rdmaio" run -o r.json pair.fio
check "... and the result validates" valid r.json
check "... every job has a window and this host's busy CPU" py cpu r.json 1
check "... the kinds: bandwidth at 64 KiB, latency at 4 KiB and one in flight" \
	py kinds r.json seq-read=bandwidth rtt=latency
check "... the verdict names the ratios and the host's CPU" \
	grep -Eq '"verdict": "seq-read: RDMA vs TCP (1\.9[5-9]|2\.0[0-5])x bandwidth, [0-9.]+x p99 latency, [0-9.]+x CPU per GiB on [^ ]+"' r.json
check "... the latency verdict speaks of round trips" \
	grep -Eq '"verdict": "rtt: RDMA vs TCP [0-9.]+x p50 latency, [0-9.]+x p99 latency, [0-9.]+x round trips/s, [0-9.]+x CPU per round trip on ' r.json

check "report opens with the verdicts" sh -c "'$rdmaio' report r.json | head -n 1 | grep -qx '## What RDMA buys here'"
"$rdmaio" report r.json >report.md
# The versions line is left out: a commit id may be seven digits.
check "... in human units: MiB/s and µs, no bare nanoseconds" \
	sh -c "grep -Eq '(79|80)\.[0-9] MiB/s' report.md && grep -Eq '[0-9.]+ µs' report.md && ! grep -v '^- rdmaio ' report.md | grep -E '[0-9]{7,}'"
check "... with the hosts' CPU per GiB" grep -Eq '^\| seq-read \(read\) \| [^|]* \| [0-9.]+ m?s per GiB \| [0-9.]+ m?s per GiB \| [0-9.]+x \|$' report.md
check "... and fio's own CPU of the client" grep -q "of the client's fio job threads" report.md
check "--units gbit gives perftest's Gb/s" sh -c "'$rdmaio' report r.json --units gbit | grep -Eq '\| 0\.67[01] Gb/s \| 0\.33[56] Gb/s \|'"
check_fails "--units takes binary or gbit" 2 "neither 'binary'.*nor 'gbit'" "$rdmaio" report r.json --units bits
check "--csv prints one header and a row per job and pair" py csv r.json 4 2 "$rdmaio"
check_fails "--csv with --units is refused" 2 "drop one" "$rdmaio" report r.json --csv --units gbit
check "--plot draws the panels into a PNG" "$rdmaio" report r.json --plot chart.png
check "... which is a PNG" sh -c "head -c 8 chart.png | od -An -c | grep -q 'P   N   G'"

# A baseline: a plain copy timed after the jobs, read against their reads.
mkdir bt
check "run --baseline times a copy after the jobs" \
	env TMPDIR="$tmp/bt" "$rdmaio" run -o base.json --baseline "cp=cp $tmp/data %o" pair.fio
check "... and the result validates" valid base.json
check "... its bytes are the file's, its bandwidth bytes over its time, with this host's CPU and a CSV row" \
	py baseline base.json cp $((16 << 20)) "$rdmaio"
check "... and neither the copy nor its folder is left" test -z "$(ls -A bt)"
"$rdmaio" report base.json >base.md
check "report has the copy beside the sequential reads" \
	bash -c "grep -q '^## Against a plain copy' base.md &&
		grep -Eq '^\| cp \(--baseline\) \| [0-9.]+ [KMG]iB/s \| 1\.00x \| 16\.0 MiB in ' base.md &&
		grep -Eq '^\| seq-read over NFS/RDMA \(fio: seq-read-rdma\) \| (79|80)\.[0-9] MiB/s \| ' base.md"
check "... and a verdict against it" \
	grep -Eq '^- against cp \(one file, 16\.0 MiB in [0-9.]+ m?s: [0-9.]+ [KMG]iB/s\): seq-read over NFS/RDMA [0-9.]+x cp.s bandwidth, over NFS/TCP [0-9.]+x$' base.md
# With a -tcp-nconnect job too: RDMA's row and phrase once, then each TCP's.
{ cat pair.fio; printf '[seq-read-tcp-nconnect]\nrw=read\nstonewall\n'; } >three.fio
"$rdmaio" run -o base3.json --baseline "cp=cp $tmp/data %o" three.fio >/dev/null 2>&1
"$rdmaio" report base3.json >base3.md 2>&1
check "against a copy, RDMA is said once beside both TCP mounts" \
	bash -c "grep -Eq '^- against cp .*: seq-read over NFS/RDMA [0-9.]+x cp.s bandwidth, over NFS/TCP [0-9.]+x, over NFS/TCP nconnect [0-9.]+x$' base3.md &&
		test \"\$(grep -c '^| seq-read over NFS/RDMA ' base3.md)\" = 1 &&
		grep -q '^| seq-read over NFS/TCP (fio: seq-read-tcp) |' base3.md &&
		grep -q '^| seq-read over NFS/TCP nconnect (fio: seq-read-tcp-nconnect) |' base3.md"
printf '[global]\nioengine=psync\nfilename=%s/data\nsize=16m\ntime_based\nruntime=200ms\n[seq-read-rdma]\nrw=read\n' "$tmp" >tiny.fio
check_fails "a baseline that fails: exit 1" 1 "baseline no: 'false %o' exited 1 \(run it by hand" \
	"$rdmaio" run -o fail.json --baseline "no=false %o" --baseline "cp=cp $tmp/data %o" tiny.fio
check "... the result is written, with the error, a warning and the other baseline's figures" \
	python3 -c "
import json, sys
d = json.load(open('fail.json'))
b = {x['name']: x for x in d['baselines']}
assert b['no']['error'] == 'exited 1' and b['no']['bytes'] is None and b['no']['bw_bytes'] is None, b
assert b['cp']['error'] is None and b['cp']['bytes'] == 16 << 20, b
assert [w['code'] for w in d['warnings']].count('baseline-failed') == 1, d['warnings']
"
check_fails "a baseline that leaves no file at %o fails too" 1 "left no file at %o" \
	"$rdmaio" run -o nofile.json --baseline "none=true %o" tiny.fio
mkdir -m 0777 open
check_fails "a TMPDIR every user may write to, without the sticky bit, is refused" 1 \
	"TMPDIR $tmp/open: every user may write there and it has no sticky bit" \
	env TMPDIR="$tmp/open" "$rdmaio" run -o open.json --baseline "cp=cp $tmp/data %o" tiny.fio
check "... and nothing was made there" test -z "$(ls -A open)"
check_fails "a TMPDIR that is missing fails the run before fio, saying so" 1 \
	"TMPDIR $tmp/none is missing: rdmaio keeps its temporary files there \(set TMPDIR to a folder, or unset it for /tmp\)" \
	env TMPDIR="$tmp/none" "$rdmaio" run -o none.json --baseline "cp=cp $tmp/data %o" tiny.fio
check_fails "--baseline needs NAME=CMD" 2 "give NAME=CMD" "$rdmaio" run -o x.json --baseline "cp $tmp/data %o" pair.fio
check_fails "... a name of letters, digits, . _ -" 2 "a name is 1 to 32 letters" \
	"$rdmaio" run -o x.json --baseline "a b=cp x %o" pair.fio
check_fails "... a command with %o" 2 "has no %o; put %o where the command writes its copy" \
	"$rdmaio" run -o x.json --baseline "cp=cp $tmp/data $tmp/copy" pair.fio
check_fails "... a name of its own" 2 "two --baseline commands are named cp" \
	"$rdmaio" run -o x.json --baseline "cp=cp a %o" --baseline "cp=cp b %o" pair.fio
check_fails "... and a run rdmaio starts" 2 "--fio-json imports a finished run" \
	"$rdmaio" run --fio-json r.json --baseline "cp=cp a %o"
check "... none of them wrote a result" test ! -e x.json

# A message-size sweep (jobs named PREFIX-SIZE) gets a panel of its own.
{
	printf '[global]\nioengine=psync\nfilename=%s/data\nsize=16m\ntime_based\nruntime=1\nrw=write\n' "$tmp"
	for s in 512 4096 16384 65536; do printf '[write-%s]\nbs=%s\nstonewall\n' $s $s; done
} >sweep.fio
check "a sweep's result charts bandwidth against message size" \
	sh -c "'$rdmaio' run -o sweep.json sweep.fio >/dev/null && '$rdmaio' report sweep.json --plot sweep.svg >/dev/null &&
		grep -q 'Bandwidth against message size: the write jobs' sweep.svg"
check "... and one without a sweep has no such panel" sh -c "'$rdmaio' report r.json --plot nosweep.svg >/dev/null && ! grep -q 'against message size' nosweep.svg"

# A fio --server on this host stands for the server host; cpu-watch run by
# --remote-cpu reads the same /proc/stat, so the two series must agree.
cat >net.fio <<JOB
[global]
bs=4k
size=64m
time_based
runtime=2
[net-tcp-server]
ioengine=net
listen
protocol=tcp
port=18811
rw=read
[net-tcp]
ioengine=net
hostname=127.0.0.1
protocol=tcp
port=18811
rw=write
rate=8m
startdelay=1
[net-rdma]
ioengine=psync
filename=$tmp/data
rw=write
rate=16m
wait_for=net-tcp
JOB
port=$((20000 + $$ % 20000))
fio --server=127.0.0.1,$port >server.log 2>&1 &
server_pid=$!
for _ in $(seq 50); do grep -q "listening" server.log 2>/dev/null && break; sleep 0.1; done
check "run --remote-cpu reads the server host's CPU while fio runs" \
	"$rdmaio" run -o r2.json --server-host 127.0.0.1,$port --client-host local \
	--remote-cpu "$rdmaio cpu-watch --interval-ms 50" net.fio
check "... and the result validates" valid r2.json
check "... both hosts' series, the remote one on this host's clock" py cpu r2.json 2
check "... which agree, being one machine (within 15 %)" py cpu_agree r2.json 0.15
check_fails "--remote-cpu without a remote host is refused" 2 "hosts other than this one" \
	"$rdmaio" run -o r3.json --remote-cpu "$rdmaio cpu-watch" pair.fio
check "... and writes nothing" test ! -e r3.json
check_fails "--remote-cpu with --fio-json is refused" 2 "watches a run rdmaio starts" \
	"$rdmaio" run --fio-json /dev/null --remote-cpu x
check_fails "a --remote-cpu command that prints no reading stops the run before fio" 1 \
	"for 127.0.0.1,$port: '/bin/echo garbage' ended without printing a reading" \
	"$rdmaio" run -o r4.json --server-host 127.0.0.1,$port --client-host local \
	--remote-cpu "/bin/echo garbage" net.fio
check "... and writes no result" test ! -e r4.json
check "a --remote-cpu command that stops after one reading leaves a warning" \
	"$rdmaio" run -o r5.json --server-host 127.0.0.1,$port --client-host local \
	--remote-cpu "$rdmaio cpu-watch --max-s 1 --interval-ms 5000" net.fio
check "... naming the host and the command" \
	grep -q "host 127.0.0.1: $rdmaio cpu-watch --max-s 1 --interval-ms 5000 gave 1 CPU readings" r5.json
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
server_pid=

check "cpu-watch prints a header, then rdmaio-cpu/1 lines, and stops at --max-s" \
	sh -c "timeout 10 '$rdmaio' cpu-watch --interval-ms 100 --max-s 1 >cpu.txt && [ \$(wc -l <cpu.txt) -ge 6 ] && head -n 1 cpu.txt | grep -qx '{\"schema\":\"rdmaio-tasks/1\"}' && [ \$(grep -c '^{\"schema\":\"rdmaio-cpu/1\",' cpu.txt) = \$((\$(wc -l <cpu.txt) - 1)) ]"
check "... and ends when its reader goes away" \
	sh -c "timeout 10 '$rdmaio' cpu-watch --interval-ms 20 | head -n 2 >/dev/null"
check_fails "cpu-watch refuses a file argument" 2 "takes no file argument" "$rdmaio" cpu-watch x.json

# Two client hosts at once, each a fio --server on a loopback address of
# its own in a pid namespace of its own (its own /proc, as another host
# has), and cpu-watch entered there as --remote-cpu, reporting fio's jobs
# there: the overlap check, and a host that starts late (startdelay) as its
# negative control.
cat >on-time.fio <<'JOB'
[global]
ioengine=null
size=1g
time_based
runtime=2
[overlap]
rw=write
JOB
sed 's/^runtime=2$/runtime=2\nstartdelay=2/' on-time.fio >late.fio
# fio is the namespace's init there, which takes no signal but SIGKILL from
# outside, and unshare ignores SIGTERM: both end by killing fio.
ns_fio=
trap 'kill -KILL $ns_fio 2>/dev/null; cleanup' EXIT
for h in 127.0.0.2 127.0.0.3; do
	unshare --pid --fork --mount-proc --kill-child fio --server=$h,$port >ns-$h.log 2>&1 &
	for _ in $(seq 50); do
		read -r child <"/proc/$!/task/$!/children" && [ -n "$child" ] && break
		sleep 0.1
	done
	echo "$child" >ns-$h.pid
	ns_fio="$ns_fio $child"
	for _ in $(seq 50); do grep -q "listening" ns-$h.log 2>/dev/null && break; sleep 0.1; done
done
cat >ns-exec <<NSEXEC
#!/bin/sh
# ns-exec HOST CMD...: CMD in the pid and mount namespaces of HOST's fio.
h=\$1
shift
exec nsenter -t "\$(cat $tmp/ns-\$h.pid)" -p -m "\$@"
NSEXEC
chmod +x ns-exec
two_clients() { # RESULT JOB-FILE-OF-THE-SECOND [CPU-WATCH]
	"$rdmaio" run -o "$1" --client 127.0.0.2,$port on-time.fio \
		--client 127.0.0.3,$port "$2" \
		--remote-cpu "$tmp/ns-exec %h ${3:-$rdmaio cpu-watch}"
}
overlap() { python3 "$here/overlap-tool.py" "$@"; } # RESULT STATUS PATTERN
check "two client hosts running at once" two_clients ov.json on-time.fio
check "... and the result validates" valid ov.json
check "... pass the overlap check, each host's jobs seen there" \
	overlap ov.json pass "127.0.0.2 [0-9.]+-[0-9.]+ s, 127.0.0.3 [0-9.]+-[0-9.]+ s after the run started; all started and ended together \(within"
check "a client host whose jobs start 2 s late" two_clients late.json late.fio
check "... is flagged, named, and so is the one that ended first" \
	overlap late.json flagged "127.0.0.3 started (1\.[89]|2\.[0-2])[0-9] s late, 127.0.0.2 ended (1\.[89]|2\.[0-2])[0-9] s early \(more than the"
# An older rdmaio's cpu-watch: readings only.
cat >old-watch <<OLD
#!/bin/sh
exec "$rdmaio" cpu-watch | grep --line-buffered rdmaio-cpu/1
OLD
chmod +x old-watch
check "a host whose cpu-watch reports no jobs (an older rdmaio) skips the check" \
	two_clients old.json on-time.fio "$tmp/old-watch"
check "... naming both hosts" overlap old.json skipped \
	"^127.0.0.2, 127.0.0.3: fio's jobs there were not watched"
# shellcheck disable=SC2086 # pids, one word each
kill -KILL $ns_fio
wait
ns_fio=
check_fails "cpu-watch refuses run's options" 2 "is not an option of cpu-watch" "$rdmaio" cpu-watch -o x
done_testing
