#!/bin/bash
# rdmaio on the host, with fio's own engines (psync on a temporary file, which
# produces the same fio JSON as the RDMA jobs): results validate with an
# independent validator and carry fio's own numbers, repeat runs differ only in
# measured values, the physics check flags the 17.6 GiB/s fake and not an
# honest run, report and compare work, and bad inputs fail cleanly.
# Usage: tests/tools/rdmaio-host.sh [PATH/TO/rdmaio]   (default build/rdmaio)
name=host
. "$(dirname "$0")/host-lib.sh"
helper=$here/result-tool.py

cat >pair.fio <<JOB
; Two runs of one workload, named by rdmaio's pairing convention.
[global]
ioengine=psync
filename=$tmp/data
size=8m
bs=64k
rate=400m
[seq-read-rdma]
rw=read
stonewall
[seq-read-tcp]
rw=read
stonewall
[seq-write-rdma]
rw=write
stonewall
[seq-write-tcp]
rw=write
stonewall
; A round trip counted as a read on one side and a write on the other.
[rtt-rdma]
rw=randread
bs=4k
size=1m
stonewall
[rtt-tcp]
rw=randwrite
bs=4k
size=1m
stonewall
JOB
valid() { python3 "$helper" validate "$schema" "$@"; }

check "run writes a result" "$rdmaio" run -o r1.json pair.fio
check "the result validates with python3-jsonschema" valid r1.json
check "results equal fio's own numbers, job files and argv recorded" \
	python3 "$helper" fio-numbers r1.json pair.fio
check "RDMA/TCP comparisons for both workloads and directions, and the round trip" \
	python3 "$helper" comparisons r1.json 3
check "without -o the result goes to results/<job>-<UTC time>.json" \
	bash -c "'$rdmaio' run pair.fio >/dev/null && ls results | grep -Eqx 'pair-[0-9]{8}T[0-9]{6}Z\.json'"
mv r1.json first.json
check "the same jobs run again" "$rdmaio" run -o r1.json pair.fio
check "two runs differ only in measured values and timestamps" \
	python3 "$helper" same-but-measured first.json r1.json

# fio's JSON imported as is: the embedded copy must be byte-for-value equal.
fio --output-format=json+ --output=fio.json pair.fio >/dev/null 2>&1
check "--fio-json keeps fio's JSON untouched" \
	bash -c "'$rdmaio' run --fio-json fio.json -o imp.json pair.fio >/dev/null &&
		python3 '$helper' untouched imp.json fio.json && python3 '$helper' validate '$schema' imp.json"

# The published 17.6 GiB/s claim against one 100 Gb/s link, and an honest run.
python3 "$helper" set-read-bw fio.json 17.6 fake.json
python3 "$helper" set-read-bw fio.json 9.5 honest.json
check_fails "check flags 17.6 GiB/s read on a 100 Gb/s link" 3 \
	'flagged payload-ceiling: read 17.60 GiB/s \(151.2 Gb/s\) of job seq-read-rdma exceeds the 11.41 GiB/s' \
	"$rdmaio" check fake.json --link-gbps 100
check_fails "... with its likely causes" 3 'likely cause: .*cache' \
	"$rdmaio" check fake.json --link-gbps 100
check "check passes an honest 9.5 GiB/s on the same link" \
	"$rdmaio" check honest.json --link-gbps 100
check "the real psync run passes too" "$rdmaio" check fio.json --link-gbps 100
check "a result built from the fake has a flagged check and validates" \
	bash -c "'$rdmaio' run --fio-json fake.json --link-gbps 100 -o fake-result.json >/dev/null &&
		python3 '$helper' validate '$schema' fake-result.json &&
		python3 '$helper' flagged fake-result.json 1"
check "... and the honest one has none" \
	bash -c "'$rdmaio' run --fio-json honest.json --link-gbps 100 -o honest-result.json >/dev/null &&
		python3 '$helper' flagged honest-result.json 0"
# The line-rate verdict (--expect-link-pct): 9.5 GiB/s is 83.2 % of one
# 100 Gb/s link's ceiling, crafted as jobs that kept 32 I/Os in flight.
python3 "$helper" set-deep honest.json deep.json
check_fails "line rate: 83.2 % of the link passes at --expect-link-pct 80" 0 \
	'^pass line-rate: read 9.50 GiB/s is 83.2 % of the 11.41 GiB/s payload ceiling of 100 Gb/s ethernet MTU 4096: at least the 80 % expected' \
	"$rdmaio" check deep.json --link-gbps 100 --expect-link-pct 80
check_fails "... and fails at 90 (exit 3)" 3 \
	'^flagged line-rate: read 9.50 GiB/s is 83.2 % .*below the 90 % expected' \
	"$rdmaio" check deep.json --link-gbps 100 --expect-link-pct 90
check_fails "... with its likely causes" 3 '^  likely cause: too little in flight to fill the link' \
	"$rdmaio" check deep.json --link-gbps 100 --expect-link-pct 90
check_fails "... jobs that ran at depth 1 are latency jobs, not judged" 3 \
	'^skipped line-rate: read .* not judged .*: its jobs ran at I/O depth 1: latency jobs' \
	"$rdmaio" check deep.json --link-gbps 100 --expect-link-pct 90
check_fails "... run with it writes the result and exits 3" 3 "" \
	"$rdmaio" run --fio-json deep.json --link-gbps 100 --expect-link-pct 90 -o lr.json
check "... the result validates and holds the flagged line-rate checks" \
	bash -c "valid() { python3 '$helper' validate '$schema' \"\$@\"; }; valid lr.json &&
		python3 -c \"import json; c = [x for x in json.load(open('lr.json'))['checks'] if x['name'] == 'line-rate']
assert c and c[0]['status'] == 'flagged' and c[0]['likely_causes'], c\""
check_fails "... where no link rate is known (the lab's Soft-RoCE), it says why it judges nothing" 0 \
	'^skipped line-rate: read 9.50 GiB/s not judged against 90 % of a link: no link rate is known \(software RDMA devices such as Soft-RoCE have none' \
	"$rdmaio" check deep.json --expect-link-pct 90
check_fails "... and a rate-limited job is not judged, naming its rate" 0 \
	'^skipped line-rate: read 9.50 GiB/s .*job seq-read-rdma is held to rate=400m' \
	"$rdmaio" check honest.json --link-gbps 100 --expect-link-pct 90
check_fails "... --expect-link-pct out of range" 2 "expect-link-pct" \
	"$rdmaio" check deep.json --link-gbps 100 --expect-link-pct 150

"$rdmaio" report r1.json --plot chart.svg >report.md 2>report.err
check "report's table figures match the JSON" python3 "$helper" table report.md r1.json
check "report opens with the verdicts, then the setup the numbers were measured on" \
	bash -c "head -1 report.md | grep -qx '## What RDMA buys here' &&
		grep -m1 '^## ' <(sed 1d report.md) | grep -qx '## Setup' && grep -q '^- rdmaio .*fio-3' report.md"
check "report renders a non-empty SVG" bash -c "test -s chart.svg && grep -q '<svg' chart.svg"
check "the chart draws a stated link's ceiling" \
	bash -c "'$rdmaio' report honest-result.json --plot ceiling.svg >/dev/null &&
		grep -q 'link payload ceiling 11.4 GiB/s' ceiling.svg"
check "report renders a PNG" bash -c "'$rdmaio' report r1.json --plot chart.png >/dev/null &&
	head -c 8 chart.png | od -An -c | grep -q 'P   N   G'"
check "compare of two runs of the same jobs finds no environment difference" \
	bash -c "'$rdmaio' compare first.json r1.json | grep -q '^- none: same versions'"
python3 "$helper" change-env r1.json changed.json
check "compare names an environment change" \
	bash -c "'$rdmaio' compare first.json changed.json | grep -q '^- fio version: fio-3.33 -> fio-9.99'"
check "compare names a mount that appeared" \
	bash -c "'$rdmaio' compare first.json changed.json | grep -q '^- NFS mount during the run /mnt/r: only in the new result'"
python3 "$helper" scale-bw r1.json 0.5 slower.json
check "compare flags a halved bandwidth beyond noise" \
	bash -c "'$rdmaio' compare r1.json slower.json | grep -q 'seq-read-rdma (read) | MiB/s .* -50.0% .*beyond noise'"

# fio client/server mode on this host: the numbers are kept per host.
port=$((20000 + RANDOM % 20000))
fio --server=,"$port" >server.log 2>&1 &
server_pid=$!
sleep 1
check "--client runs the jobs through fio --server and keeps the host" \
	bash -c "'$rdmaio' run --client localhost,$port -o client.json pair.fio >/dev/null &&
		python3 '$helper' validate '$schema' client.json &&
		python3 '$helper' client client.json localhost"

# --remote-env: each --client host's `rdmaio env`, recorded before fio runs.
# On loopback the remote host is this one; env(1) shows %h became the host.
"$rdmaio" env >env.json 2>env.err
check "rdmaio env prints a document that validates with python3-jsonschema" \
	python3 "$helper" validate-env "$schema" env.json
check "rdmaio env -o writes the same kind of document" \
	bash -c "'$rdmaio' env -o env2.json && python3 '$helper' validate-env '$schema' env2.json"
check_fails "rdmaio env takes no file argument" 2 "env: takes no file argument" \
	"$rdmaio" env extra.json
check "--remote-env records the client host's environment" \
	bash -c "'$rdmaio' run --client localhost,$port --remote-env 'env RDMAIO_REMOTE=%h $rdmaio env' \
		-o remote.json pair.fio >/dev/null &&
		python3 '$helper' validate '$schema' remote.json + \
		remote remote.json localhost,$port localhost '$(hostname)' '$(uname -r)' - \
		env RDMAIO_REMOTE=localhost '$rdmaio' env"
"$rdmaio" report remote.json >remote.md 2>&1
check "report shows the remote host's environment" \
	grep -Eq "^- remote host localhost \(fio --client localhost,$port\) is $(hostname): kernel $(uname -r)" remote.md
python3 "$helper" change-remote-env remote.json remote-changed.json
check "compare names a remote host's environment change" \
	bash -c "'$rdmaio' compare remote.json remote-changed.json |
		grep -q '^- remote host localhost: kernel version: $(uname -r) -> 9.9.9-changed'"
check_fails "--remote-env failing: host, command, exit status and stderr named" 1 \
	"for client localhost,$port: 'ls /nonexistent-localhost' exited with status 2" \
	"$rdmaio" run --client localhost,$port --remote-env 'ls /nonexistent-%h' -o bad.json pair.fio
check_fails "... with the end of its stderr" 1 \
	"stderr of ls /nonexistent-localhost: .*No such file or directory" \
	"$rdmaio" run --client localhost,$port --remote-env 'ls /nonexistent-%h' -o bad.json pair.fio
check_fails "--remote-env printing garbage: where its JSON breaks" 1 \
	"from 'echo garbage' for client localhost,$port: not valid JSON at byte 0" \
	"$rdmaio" run --client localhost,$port --remote-env 'echo garbage' -o bad.json pair.fio
check_fails "--remote-env printing another document: its schema named" 1 \
	'"schema" is "rdmaio-status/1", not "rdmaio-env/1"' \
	"$rdmaio" run --client localhost,$port --remote-env 'echo {"schema":"rdmaio-status/1"}' -o bad.json pair.fio
check_fails "--remote-env that cannot start" 1 \
	"cannot run '/nonexistent/rdmaio env': No such file" \
	"$rdmaio" run --client localhost,$port --remote-env '/nonexistent/rdmaio env' -o bad.json pair.fio
check_fails "--remote-env without --client" 2 "give --client HOST" \
	"$rdmaio" run --remote-env "$rdmaio env" -o bad.json pair.fio
printf '[w]\nioengine=psync\nfilename=%s/early-data\nsize=1m\nrw=write\n' "$tmp" >early.fio
check_fails "a failing --remote-env stops rdmaio before fio runs" 1 "exited with status 1" \
	"$rdmaio" run --client localhost,$port --remote-env false -o bad.json early.fio
check "... so the job never wrote its file" test ! -e "$tmp/early-data"
check "... while the same job with a good --remote-env does" \
	bash -c "'$rdmaio' run --client localhost,$port --remote-env '$rdmaio env' -o early.json early.fio >/dev/null &&
		test -s '$tmp/early-data'"
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
server_pid=

# --server-host/--client-host local: each role through a fio --server of
# rdmaio's own, on private sockets; the listen section on one, the client on
# the other; both are this host, and its TCP over loopback is flagged.
cat >roles.fio <<JOB
[global]
ioengine=net
protocol=tcp
port=$((port + 1))
bs=8
size=256k
[echo-server]
listen
rw=read
[ping-tcp]
hostname=127.0.0.1
; the server job must be listening first: they start on separate servers
startdelay=1
rw=write
JOB
# Its own TMPDIR, so that the check of what it left finds only its own.
mkdir -m 700 "$tmp/roles-tmp"
check "--server-host/--client-host local: one result, each section on its host" \
	bash -c "TMPDIR='$tmp/roles-tmp' '$rdmaio' run --server-host local --client-host local --timeout 60 \
		-o roles.json roles.fio >roles.out 2>&1 &&
		python3 '$helper' validate '$schema' roles.json && python3 - roles.json '$(hostname)' <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
hs = d['fio']['hosts']
assert [(h['role'], h['sections'], h['local']) for h in hs] == [
    ('server', ['echo-server'], True), ('client', ['ping-tcp'], True)], hs
assert all(h['host'] == sys.argv[2] and h['client'].startswith('sock:/') for h in hs), hs
assert sorted(r['jobname'] for r in d['results']) == ['echo-server', 'ping-tcp'], d['results']
assert all(r['host'] == sys.argv[2] for r in d['results']), d['results']
lb = [c for c in d['checks'] if c['name'] == 'loopback']
assert len(lb) == 1 and lb[0]['status'] == 'flagged' and 'ping-tcp' in lb[0]['message'], lb
assert not any(w['code'] == 'remote-environment' for w in d['warnings']), d['warnings']
PY"
check "... its fio argv sends each host its sections" \
	bash -c "python3 -c \"import json; a = json.load(open('roles.json'))['fio']['argv']; \\
		i = a.index('--section=echo-server'); j = a.index('--section=ping-tcp'); \\
		assert a[i - 1] == a[j - 1] == 'roles.fio' and a[i - 2] != a[j - 2], a\""
check "... the report says where each part ran, and flags the loopback" \
	bash -c "grep -q '^- fio client/server mode: server jobs on $(hostname) (this host, sock:' roles.out &&
		grep -q '^- FLAGGED loopback: 1 job on $(hostname) reached $(hostname) itself (ping-tcp); the first: job ping-tcp on $(hostname): its peer 127.0.0.1' roles.out"
check "... and its fio servers are gone, with their sockets" \
	bash -c "! ls -d '$tmp/roles-tmp/rdmaio-fio.'* 2>/dev/null &&
		! pgrep -f 'fio --server=sock:$tmp/roles-tmp/rdmaio-fi[o]'"
check "rdmaio check of the result flags the loopback again" \
	bash -c "'$rdmaio' check roles.json; test \$? = 3 && '$rdmaio' check roles.json | grep -q '^flagged loopback'"
# Several client hosts at once: two fio servers of this host on sockets of
# their own stand for two client hosts; the server host has no section of
# pair.fio (no listen), so it sits out.
fio --server=sock:"$tmp/c1.sock" >c1.log 2>&1 &
server_pid=$!
fio --server=sock:"$tmp/c2.sock" >c2.log 2>&1 &
server_pid="$server_pid $!"
sleep 1
check "--client-host twice: both hosts run the client jobs in one fio run, each kept by name" \
	bash -c "'$rdmaio' run --server-host local --client-host sock:$tmp/c1.sock \
		--client-host sock:$tmp/c2.sock --timeout 60 -o multi.json pair.fio >/dev/null &&
		python3 '$helper' validate '$schema' multi.json && python3 - multi.json '$tmp' <<'PY'
import json, sys
d, t = json.load(open(sys.argv[1])), sys.argv[2]
hs = d['fio']['hosts']
assert [(h['client'], h['role']) for h in hs] == [
    ('sock:' + t + '/c1.sock', 'client'), ('sock:' + t + '/c2.sock', 'client')], hs
a = d['fio']['argv']
assert [x for x in a if x.startswith('--client=')] == [
    '--client=sock:' + t + '/c1.sock', '--client=sock:' + t + '/c2.sock'], a
per = {}
for r in d['results']:
    per.setdefault(r['host'], []).append(r['jobname'])
one, two = (sorted(per.get(t + '/c%d.sock' % i, [])) for i in (1, 2))
assert len(per) == 2 and one == two and 'seq-read-rdma' in one, per
# Each pair once per host, then once over both: their sums.
cs = d['comparisons']
alls = [c for c in cs if c['host'] == 'all clients']
hosts = [t + '/c1.sock', t + '/c2.sock']
assert alls and len(cs) == 3 * len(alls), [(c['host'], c['workload']) for c in cs]
for a in alls:
    assert sorted(a['clients']) == hosts, a
    own = [c for c in cs if c['workload'] == a['workload'] and c['host'] in hosts
           and c['direction'] == a['direction']]
    assert len(own) == 2, own
    for side in ('rdma', 'tcp'):
        assert a[side]['bw_bytes'] == sum(c[side]['bw_bytes'] for c in own), (a, own)
        assert abs(a[side]['iops'] - sum(c[side]['iops'] for c in own)) < 1e-6 * a[side]['iops']
    assert ', 2 clients: RDMA vs TCP' in a['verdict'], a['verdict']
    assert not any('clients' in c for c in own), own
seq = [a for a in alls if a['workload'] == 'seq-read'][0]
assert 'aggregate bandwidth' in seq['verdict'], seq['verdict']
PY"
check "... the report gives the sum's verdict with its count of clients" \
	bash -c "'$rdmaio' report multi.json | grep -q '^- seq-read, 2 clients: RDMA vs TCP [0-9.]*x aggregate bandwidth'"
check "... and one host's result has no sum" \
	bash -c "! grep -q 'all clients' roles.json"
# fio's client drops a host whose fio --server it cannot reach and still
# exits 0: the run must not sum the hosts that are left and call it theirs.
check_fails "a client host that fio dropped (nothing listens on its socket): no result, naming it" 1 \
	"fio ran no job on client host sock:$tmp/c3.sock for .*pair.fio: fio drops a host" \
	"$rdmaio" run --server-host local --client-host sock:"$tmp/c1.sock" \
	--client-host sock:"$tmp/c3.sock" --timeout 60 -o dropped.json pair.fio
check "... and wrote no result" test ! -e dropped.json
# rdmaio scale: the same jobs by one client host, then by two.
check "one client host runs pair.fio alone (the scale's first count)" \
	"$rdmaio" run --server-host local --client-host sock:"$tmp/c1.sock" --timeout 60 \
	-o one.json pair.fio
check "rdmaio scale: each count's verdict, the growth and the table, and its chart" \
	bash -c "'$rdmaio' scale one.json multi.json --plot scale.png >scale.out &&
		grep -q '^- seq-read, 1 client: RDMA vs TCP [0-9.]*x bandwidth' scale.out &&
		grep -q '^- seq-read, 2 clients: RDMA vs TCP [0-9.]*x aggregate bandwidth' scale.out &&
		grep -q '^- seq-read, 1 to 2 client hosts: aggregate bandwidth RDMA [0-9.]*x, TCP [0-9.]*x' scale.out &&
		grep -Eq '^\| seq-read \| 2 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+x \|' scale.out &&
		test \"\$(head -c 4 scale.png | tail -c 3)\" = PNG"
check_fails "rdmaio scale refuses two results of one count (exit 2)" 2 \
	"one.json and one2.json were both run by 1 client host: give one result per count" \
	bash -c "cp one.json one2.json && '$rdmaio' scale one.json one2.json"
check_fails "rdmaio scale refuses one result (exit 2)" 2 "give two results or more" \
	"$rdmaio" scale one.json
check_fails "rdmaio scale refuses a result without pairs (exit 2)" 2 \
	"roles.json has no RDMA/TCP pair" "$rdmaio" scale roles.json multi.json
# Each host reads 40 MiB/s at most: 0.34 Gb/s, within a 0.5 Gb/s link, but
# both at once are 0.67 Gb/s through the server's link.
cat >link.fio <<JOB
[global]
ioengine=psync
filename=$tmp/data
size=16m
time_based
runtime=500ms
bs=64k
rw=read
[seq-read-rdma]
rate=40m
stonewall
[seq-read-tcp]
rate=20m
stonewall
JOB
check "--link-gbps: each client host within its link, their sum over the server's flagged" \
	bash -c "'$rdmaio' run --server-host local --client-host sock:$tmp/c1.sock \
		--client-host sock:$tmp/c2.sock --link-gbps 0.5 --timeout 60 -o link.json link.fio >/dev/null;
		python3 - link.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pc = [c for c in d['checks'] if c['name'] == 'payload-ceiling' and c['direction'] == 'read']
seq = lambda c: 'seq-read-rdma' in c['message']
own = [c for c in pc if c['host'] != 'all clients' and seq(c)]
alls = [c for c in pc if c['host'] == 'all clients' and seq(c)]
assert len(own) == 2 and all(c['status'] == 'pass' for c in own), own
assert len(alls) == 1 and alls[0]['status'] == 'flagged', alls
a = alls[0]
assert abs(a['measured_bytes_per_s'] - sum(c['measured_bytes_per_s'] for c in own)) < 1, (a, own)
assert 'on 2 client hosts at once' in a['message'] and 'did not run at once' in a['likely_causes'][0], a
PY"
# Plain --client hosts may each load a server of their own: their pairs are
# summed, but no one server's link is checked against the sum; whether they
# ran at once is not known without --remote-cpu watching their jobs.
check "--client twice: pairs summed, no check of a server's link, overlap not known" \
	bash -c "'$rdmaio' run --client sock:$tmp/c1.sock link.fio --client sock:$tmp/c2.sock link.fio \
		--link-gbps 0.5 --timeout 60 -o plain.json >/dev/null;
		python3 - plain.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert any(c['host'] == 'all clients' for c in d['comparisons']), d['comparisons']
ac = [c for c in d['checks'] if c['host'] == 'all clients']
assert [(c['name'], c['status']) for c in ac] == [('overlap', 'skipped')], ac
assert 'not watched' in ac[0]['message'], ac
PY"
# shellcheck disable=SC2086 # pids
kill $server_pid 2>/dev/null
# shellcheck disable=SC2086
wait $server_pid 2>/dev/null
server_pid=
check_fails "two --client-host that are one host (as fio names results)" 2 \
	"--client-host h1 and --client-host ip:h1,8765 are one host" \
	"$rdmaio" run --server-host s --client-host h1 --client-host ip:h1,8765 -o bad.json pair.fio
check_fails "a --client-host that is the --server-host, beside another" 2 \
	"--client-host s is the --server-host \\(s\\)" \
	"$rdmaio" run --server-host s --client-host h1 --client-host s -o bad.json pair.fio
check "... refused before anything ran: no result" test ! -e bad.json
check_fails "--server-host alone" 2 "go together" \
	"$rdmaio" run --server-host local -o bad.json roles.fio
check_fails "--client with --server-host" 2 "cannot join" \
	"$rdmaio" run --server-host local --client-host local --client x -o bad.json roles.fio
check_fails "a --client with no job file of its own or in common" 2 "--client b: no job file for it" \
	"$rdmaio" run --client a pair.fio --client b -o bad.json
check_fails "--remote-env with local hosts only" 2 "hosts other than this one" \
	"$rdmaio" run --server-host local --client-host local --remote-env 'ssh %h rdmaio env' -o bad.json roles.fio
printf '[x]\nlisten\n' >clash1.fio
printf '[x]\nrw=read\n' >clash2.fio
check_fails "a section name that is a target in one file and a client in another" 1 \
	"section \\[x\\] is a client here and a target in another" \
	"$rdmaio" run --server-host local --client-host local -o bad.json clash1.fio clash2.fio

# ---- begin: payload-ceiling with wait_for, nfs-transport on a local folder
# (tools/result/check.c, tools/result/check_nfs.c) ----
# pair.fio's jobs are named -rdma/-tcp but use a local file: each was
# measured on the local file system, and its nfs-transport check says so.
check "a -rdma/-tcp job on a local file gets a flagged nfs-transport check" \
	python3 - r1.json "$tmp/data" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
nt = [c for c in d["checks"] if c["name"] == "nfs-transport"]
names = [r["jobname"] for r in d["results"]]
assert len(nt) == len(names) == 6, (nt, names)
for c, n in zip(nt, names):
    tr = n.rsplit("-", 1)[1]
    want = ("job %s uses %s, which is on no NFS mount during the run: "
            "it measured the local file system, not NFS over %s" % (n, sys.argv[2], tr))
    assert c["status"] == "flagged" and c["message"] == want, (c, want)
    assert any("mount failed" in x for x in c["likely_causes"]), c
PY
# psync writes held to 40 MiB/s by rate= against a stated 0.5 Gb/s link
# (58.4 MiB/s of payload): chained by wait_for they ran one after another
# and pass; two in one group without it ran at once, 80 MiB/s, and are
# flagged. Their names carry no transport: no nfs-transport check.
cat >serial.fio <<JOB
[global]
ioengine=psync
size=4m
bs=64k
rate=40m
rw=write
[serial-a]
filename=$tmp/serial-a
[serial-b]
filename=$tmp/serial-b
wait_for=serial-a
[serial-c]
filename=$tmp/serial-c
wait_for=serial-b
JOB
cat >together.fio <<JOB
[global]
ioengine=psync
size=4m
bs=64k
rate=40m
rw=write
[both-a]
filename=$tmp/both-a
[both-b]
filename=$tmp/both-b
JOB
check "three psync jobs chained by wait_for pass a 0.5 Gb/s link" \
	bash -c "'$rdmaio' run --link-gbps 0.5 -o serial.json serial.fio >/dev/null &&
		python3 '$helper' flagged serial.json 0 &&
		'$rdmaio' check serial.json --link-gbps 0.5 |
		grep -Eq '^pass payload-ceiling: write .* of job serial-[abc] is within .*; jobs serial-[abc], serial-[abc] were left out: wait_for ran them'"
check_fails "two psync jobs of one group without wait_for are summed and flagged" 3 \
	'^flagged payload-ceiling: write .* of jobs both-a \+ both-b that may run at once exceeds the 0.06 GiB/s' \
	bash -c "'$rdmaio' run --link-gbps 0.5 -o together.json together.fio >/dev/null &&
		'$rdmaio' check together.json --link-gbps 0.5"
rm -f "$tmp"/serial-? "$tmp"/both-?
# ---- end: payload-ceiling with wait_for, nfs-transport on a local folder ----

# ---- begin: fairness (tools/result/check_fair.c) ----
# r1.json's -rdma jobs moved to /mnt/r, its -tcp jobs to /mnt/t: two NFS
# mounts of 198.18.0.1:/srv/x, which this host's environment exports
# (result-tool.py nfs-pair); each crafted difference must be named with
# its fix, and the same settings on both sides must pass.
fair() { # NAME OVERRIDE...: rdmaio check of r1.json made NFS so, into fair-NAME.out
	local name=$1
	shift
	python3 "$helper" nfs-pair r1.json "fair-$name.json" "$@" &&
		"$rdmaio" check "fair-$name.json" --link-gbps 100 >"fair-$name.out"
}
said() { # NAME WANT-STATUS ERE: fair NAME exited so and said a line matching ERE
	local st=0
	[ -e "fair-$1.out" ] || return 1
	grep -Eq -- "$3" "fair-$1.out" && [ "$(cat "fair-$1.rc")" = "$2" ] || st=1
	[ $st = 0 ] || cat "fair-$1.out"
	return $st
}
for args in "same tcp_nconnect=8" "rsize tcp_rsize=1048576 tcp_nconnect=8" \
	"async tcp_source=198.18.0.1:/srv/y async=1 tcp_nconnect=8" "nconnect" \
	"threads threads=8 cpus=64 depth=32 tcp_nconnect=8" \
	"threads2 threads=8 cpus=4 depth=32 tcp_nconnect=8"; do
	# shellcheck disable=SC2086 # words: NAME and its overrides
	fair $args
	echo $? >"fair-${args%% *}.rc"
done
check "mounts that differ only in the transport pass the fairness check" said same 0 \
	'^pass fairness: seq-read on [^ ]+: the RDMA and TCP sides differ only in the transport: 198.18.0.1:/srv/x, NFS version 3, rsize/wsize 524288/524288, timeo 600, sync export, TCP 8 connections, 8 nfsd threads on 2 CPUs for 1 request in flight$'
check "a TCP mount with another rsize is flagged, with the sizes for both" said rsize 3 \
	'^flagged fairness: seq-write on [^ ]+: the RDMA and TCP sides differ in more than the transport: rsize/wsize 524288/524288 \(RDMA\) against 1048576/524288 \(TCP\)$'
check "... and its fix names the sizes" said rsize 3 '^  fix: mount both with -o rsize=524288,wsize=524288 '
check "one sync and one async export are flagged" said async 3 \
	"the TCP side 198.18.0.1:/srv/y: not the same export of the same server; the RDMA side's export is sync and the TCP side's async"
check "TCP without nconnect on a 100 Gb/s link, and no -tcp-nconnect job, is flagged" said nconnect 3 \
	'^  fix: add a -tcp-nconnect job on a mount with --nconnect 8'
check "fewer nfsd threads than both the CPUs and the requests in flight are flagged" said threads 3 \
	'runs 8 nfsd threads on 64 CPUs for 32 requests in flight: the thread pool, not the transport, caps every side$'
check "... with the threads to start it with" said threads 3 \
	'^  fix: start the server with more threads: nfsrdma server start --threads 32$'
check "... but not on a server with fewer CPUs than threads" said threads2 0 \
	'^pass fairness: seq-read .*, 8 nfsd threads on 4 CPUs for 32 requests in flight$'
# ---- end: fairness ----

# ---- begin: three transports (derive.c, check_fair.c, report_three.c) ----
# A workload's -rdma job against its -tcp and its -tcp-nconnect job: two
# pairs, one report line and table row of the three, one fairness check
# with three sides.
{
	sed -n '/^\[global\]/,/^\[seq-read-rdma\]/p' pair.fio | sed '$d'
	for t in rdma tcp tcp-nconnect; do
		printf '[seq-read-%s]\nrw=read\nstonewall\n' $t
	done
	for t in rdma tcp tcp-nconnect; do
		printf '[rtt-%s]\nrw=%s\nbs=4k\nsize=1m\nstonewall\n' $t \
			"$([ $t = rdma ] && echo randread || echo randwrite)"
	done
} >three.fio
check "a run of three transports writes a valid result" \
	bash -c "'$rdmaio' run -o three.json three.fio >/dev/null && python3 '$helper' validate '$schema' three.json"
check "each workload is paired against both TCP jobs, each pair the job's own figures" \
	python3 "$helper" comparisons three.json 4
"$rdmaio" report three.json >three.md 2>&1
check "the report's line and table of RDMA against both TCP mounts hold the result's ratios" \
	python3 "$helper" three three.md three.json "TCP nconnect"
check "... and its RDMA vs TCP table still every pair's figures" python3 "$helper" table three.md three.json
check "the CSV says which TCP each pair is against" \
	bash -c "'$rdmaio' report three.json --csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"against\") c = i }
		\$1 == \"pair\" { print \$3, \$c }' | sort | tr '\n' ';' | grep -qx 'rtt tcp;rtt tcp-nconnect;seq-read tcp;seq-read tcp-nconnect;'"
for args in "three-same" "three-one n_nconnect=1" "three-rsize tcp_rsize=1048576"; do
	# shellcheck disable=SC2086 # words: NAME and its overrides
	set -- $args
	python3 "$helper" nfs-pair three.json "fair-$1.json" "${@:2}" &&
		"$rdmaio" check "fair-$1.json" >"fair-$1.out"
	echo $? >"fair-$1.rc"
done
check "three mounts that differ only in the transport and TCP's connections pass" said three-same 0 \
	'^pass fairness: seq-read on [^ ]+: the RDMA and both TCP sides differ only in the transport: 198.18.0.1:/srv/x, NFS version 3, rsize/wsize 524288/524288, timeo 600, sync export, TCP 1 connection, TCP nconnect 8 connections, '
check "a -tcp-nconnect job on a mount of one connection is flagged, with the fix" said three-one 3 \
	'^  fix: mount it with --nconnect 8 by a second address of the server'
check "... and so is its nfs-transport" said three-one 3 \
	'^flagged nfs-transport: job seq-read-tcp-nconnect uses /mnt/n/f on 198.18.0.11:/srv/x mounted at /mnt/n with proto=tcp: not the transport its name says'
check "the plain TCP side's rsize is flagged beside a fair nconnect side" said three-rsize 3 \
	'^flagged fairness: seq-read on [^ ]+: .*rsize/wsize 524288/524288 \(RDMA\) against 1048576/524288 \(TCP\)$'
check "... while a fair nconnect side passes nfs-transport, named with its connections" said three-rsize 3 \
	'^pass nfs-transport: job seq-read-tcp-nconnect uses /mnt/n/f on 198.18.0.11:/srv/x mounted at /mnt/n with proto=tcp,nconnect=8: as its name says'
# ---- end: three transports ----

# Bad inputs: a clear message, a non-zero exit, and no result file at all.
nothing_written() { ! ls "$tmp"/bad* >/dev/null 2>&1; }
check_fails "missing job file" 1 'job file nosuch.fio: not found, neither as a path nor under .*/jobs' \
	"$rdmaio" run -o bad.json nosuch.fio
printf '[x]\nioengine=psync\nrw=nosuchmode\n' >broken.fio
check_fails "fio failing" 1 'fio exited with status 1 .*no result written' \
	"$rdmaio" run -o bad.json broken.fio
check_fails "fio missing" 1 "cannot start fio '/nonexistent/fio'" \
	"$rdmaio" run --fio /nonexistent/fio -o bad.json pair.fio
# fio refuses a whole file for one unset ${VAR} (it drops the job, then
# exits 1): refused before fio starts, naming the line; a comment's is not
# read, and a set one passes.
printf '; ${RDMAIO_NOT_SET_X} in a comment\n[x]\nioengine=psync\nfilename=%s/data\nsize=${RDMAIO_TEST_SIZE}\nrw=read\n[y-tcp-nconnect]\ndirectory=${RDMAIO_NOT_SET_X}\n' "$tmp" >unset.fio
check_fails "a job file with an unset \${VAR} is refused before fio runs, naming its line" 1 \
	'job file unset.fio, line 8: \$\{RDMAIO_NOT_SET_X\} is not set: fio refuses the whole file for it' \
	env -u RDMAIO_NOT_SET_X RDMAIO_TEST_SIZE=1m "$rdmaio" run -o bad.json unset.fio
check_fails "... the first one unset, whichever line" 1 'unset.fio, line 5: \$\{RDMAIO_TEST_SIZE\}' \
	env -u RDMAIO_TEST_SIZE "$rdmaio" run -o bad.json unset.fio
printf '[x]\nioengine=psync\nfilename=%s/data\nsize=8m\nrw=read\ntime_based\nruntime=60\n' "$tmp" >long.fio
check_fails "a hung fio is stopped by --timeout" 1 'did not finish within 1 s' \
	"$rdmaio" run --timeout 1 -o bad.json long.fio
printf '{"fio version": "fio-3.33", "jobs": [' >bad-trunc.json
check_fails "truncated fio JSON" 1 'JSON ends early' \
	"$rdmaio" run --fio-json bad-trunc.json -o bad.json
echo 'not json' >bad-text.json
check_fails "invalid JSON to report" 1 'not valid JSON' "$rdmaio" report bad-text.json
check_fails "fio JSON given to report is not a result" 1 'not an rdmaio result: at /: missing required member' \
	"$rdmaio" report fio.json
rm -f bad-trunc.json bad-text.json
check_fails "output folder missing" 1 'folder /nonexistent does not exist' \
	"$rdmaio" run -o /nonexistent/bad.json pair.fio
check_fails "output cannot be written" 1 'cannot write it' \
	"$rdmaio" run --fio-json fio.json -o /proc/bad.json
check_fails "output is a folder" 1 'is a folder' "$rdmaio" run -o "$tmp" pair.fio
check_fails "plot with an unknown format" 1 'must end in .svg or .png' \
	"$rdmaio" report r1.json --plot bad.pdf
check_fails "a job file named like an option" 1 "pass it as ./-x.fio" \
	bash -c "cp pair.fio ./-x.fio && '$rdmaio' run -o bad.json -- -x.fio"
check_fails "unknown command" 2 "unknown command 'frobnicate'" "$rdmaio" frobnicate
check_fails "bad link option" 2 'not a number' "$rdmaio" check fio.json --link-gbps fast
# ---- begin: each subcommand takes only its own options (rdmaio.c's tables) ----
# A refused option exits 2 before anything runs: one line naming the option,
# the subcommand, what it takes and who does take it; then its usage only.
printf '[w]\nioengine=psync\nfilename=%s/refused-data\nsize=1m\nrw=write\n' "$tmp" >refused.fio
check_fails "run refuses compare's --noise, naming both" 2 \
	'^rdmaio: run: --noise is not an option of run \(it takes -o FILE, .*--remote-env CMD, --remote-cpu CMD, --baseline NAME=CMD, --force and LINK options; --noise belongs to compare\)$' \
	"$rdmaio" run -o bad-refused.json --noise 3 refused.fio
check "... and writes no result and starts no fio" \
	bash -c "test ! -e bad-refused.json && test ! -e '$tmp/refused-data'"
check_fails "check refuses report's --plot" 2 \
	'^rdmaio: check: --plot is not an option of check \(it takes LINK options; --plot belongs to report and scale\)$' \
	"$rdmaio" check fio.json --plot bad-check.svg
check_fails "report refuses a LINK option" 2 \
	'^rdmaio: report: --link-gbps is not an option of report \(it takes --plot FILE, --csv and --units binary\|gbit; LINK options belong to run and check\)$' \
	"$rdmaio" report r1.json --plot bad-report.svg --link-gbps 100
check_fails "... also written --link-gbps=G" 2 'report: --link-gbps is not an option of report' \
	"$rdmaio" report r1.json --link-gbps=100
check_fails "report refuses -o, which run and env take" 2 \
	'report: -o is not an option of report \(it takes --plot FILE, --csv and --units binary\|gbit; -o belongs to run and env\)$' \
	"$rdmaio" report r1.json -o bad-report.md
check_fails "compare refuses run's --client" 2 \
	'^rdmaio: compare: --client is not an option of compare \(it takes --noise PCT; --client belongs to run\)$' \
	"$rdmaio" compare first.json r1.json --client localhost
check_fails "env refuses compare's --noise" 2 \
	'^rdmaio: env: --noise is not an option of env \(it takes -o FILE, --force and --fio PATH; --noise belongs to compare\)$' \
	"$rdmaio" env -o bad-env.json --noise 3
refused_usage() { # SUBCOMMAND ARGS...: exit 2, one message line, its usage only
	local sub=$1 out rc
	out=$("$rdmaio" "$@" 2>&1 >/dev/null) && rc=0 || rc=$?
	printf '%s\n' "$out"
	[ $rc = 2 ] && [ "$(printf '%s\n' "$out" | grep -c '^rdmaio: ')" = 1 ] &&
		printf '%s\n' "$out" | grep -q "^usage: rdmaio $sub " &&
		! printf '%s\n' "$out" | grep -E '^(usage: | {7})rdmaio ' | grep -vq "rdmaio $sub "
}
check "a refused option prints one line and report's usage only" \
	refused_usage report r1.json --link-gbps 100
check "... and run's only" refused_usage run -o bad-refused.json --plot bad.svg refused.fio
check "... and env's only" refused_usage env --link-gbps 100
check_fails "an option no subcommand has" 2 \
	'^rdmaio: report: unknown option --frobnicate \(report takes --plot FILE, --csv and --units binary\|gbit\)$' \
	"$rdmaio" report r1.json --frobnicate
check_fails "an unknown short option" 2 '^rdmaio: env: unknown option -x \(env takes' \
	"$rdmaio" env -x
check_fails "an option without its argument" 2 \
	'^rdmaio: report: --plot needs an argument \(--plot FILE\)$' "$rdmaio" report r1.json --plot
check_fails "an abbreviation of two options" 2 \
	'^rdmaio: run: --fi is ambiguous \(--fio or --fio-json\): spell the option out$' \
	"$rdmaio" run --fi fio -o bad-refused.json refused.fio
check "... none of which ran fio" test ! -e "$tmp/refused-data"
for sub in run check report compare env; do
	check "rdmaio $sub --help prints $sub's usage only, on stdout" \
		bash -c "'$rdmaio' $sub --help >help.out 2>help.err && test ! -s help.err &&
			grep -q '^usage: rdmaio $sub ' help.out &&
			! grep -E '^(usage: | {7})rdmaio ' help.out | grep -vq 'rdmaio $sub '"
done
check "... and -h as well" bash -c "'$rdmaio' compare -h | grep -q '^usage: rdmaio compare '"
check "each subcommand's own options still work: compare --noise" \
	bash -c "'$rdmaio' compare first.json r1.json --noise 50 | grep -q '^- none: same versions'"
check "... check with every LINK option" \
	"$rdmaio" check honest.json --link-gbps 100 --link-layer infiniband --mtu 4096
check "... env --fio and -o" \
	bash -c "'$rdmaio' env --fio fio -o env3.json && python3 '$helper' validate-env '$schema' env3.json"
check "... compare --noise, abbreviated as getopt_long allows" \
	bash -c "'$rdmaio' compare first.json r1.json --nois 50 | grep -q '^- none: same versions'"
# ---- end: each subcommand takes only its own options ----
check "no failed run left a result or a temporary file" nothing_written
check "no temporary file left next to the results" \
	bash -c "! ls '$tmp' | grep -q '\.tmp\.'"
done_testing
