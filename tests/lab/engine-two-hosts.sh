#!/bin/bash
# lab-run: --softroce --hosts 2 --timeout 600
# A librdmaio target on the server guest and its clients on the client guest,
# in one fio client/server run (rdmaio run --server-host/--client-host): the
# server's fio --server on a unix socket forwarded over ssh, as make demo
# reaches it. One client writes, another reads the target's memory back and
# verifies it; against a fresh target the same reader fails, so the check
# reads what crossed the link.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
repo=$PWD
S() { "$RDMAIO_SERVER_EXEC" "$@"; }
# server-exec runs in the same folder there, which must exist there.
SR() { (cd "$repo" && "$RDMAIO_SERVER_EXEC" "$@"); }
tmp=$(mktemp -d)
ssh_opts=(-o BatchMode=yes -o ControlMaster=auto -o "ControlPath=$tmp/cm-%C" -o ControlPersist=yes)
cleanup() {
	ssh "${ssh_opts[@]}" -O exit lab-server 2>/dev/null
	S sh -c 'kill "$(cat /run/verify-fio.pid)"' 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
check "the server guest runs fio --server on a unix socket" \
	S env RDMAIO_ENGINE="$repo/build/librdmaio.so" RDMAIO_SERVER_IP="$RDMAIO_SERVER_IP" \
	sh -c 'fio --server=sock:/run/verify-fio.sock --daemonize=/run/verify-fio.pid &&
		while [ ! -S /run/verify-fio.sock ]; do sleep 0.1; done'
# fio leaves verify state files in its working directory: keep them here.
cd "$tmp" || exit 1
check "ssh forwards the server guest's fio socket here" \
	bash -c "ssh ${ssh_opts[*]} lab-server true &&
		ssh ${ssh_opts[*]} -O forward -L '$tmp/server.sock:/run/verify-fio.sock' lab-server"

# The target serves both clients in turn; the reader's verify_only reads
# every block the writer wrote, through its own connection.
cat >cross.fio <<'JOB'
[global]
ioengine=external:${RDMAIO_ENGINE}
port=7630
bs=16k
size=4m
iodepth=16
[target]
listen
clients=2
[writer]
hostname=${RDMAIO_SERVER_IP}
rw=randwrite
verify=crc32c
do_verify=0
verify_state_save=0
[reader]
wait_for=writer
hostname=${RDMAIO_SERVER_IP}
rw=randwrite
verify=crc32c
verify_only
verify_state_load=0
JOB
# The reader alone, against a target nobody wrote to.
sed -e 's/^clients=2/clients=1/' -e 's/^port=7630/port=7631/' \
	-e '/^\[writer\]/,/^verify_state_save=0/d' -e '/^wait_for=writer/d' cross.fio >fresh.fio
export RDMAIO_ENGINE=$repo/build/librdmaio.so
run() { # JOB RESULT
	"$repo/build/rdmaio" run --timeout 180 -o "$2" --server-host "sock:$tmp/server.sock" \
		--client-host local --remote-env "ssh ${ssh_opts[*]} lab-server $repo/build/rdmaio env" "$1"
}
check "a client here writes into the target there, another reads it back and verifies it" \
	run cross.fio cross.json
check "... in one result: the target on lab-server, both clients on lab-client, no errors" \
	python3 - cross.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
on = {r["jobname"]: (r["host"], r["error"]) for r in d["results"]}
assert on.get("writer") == ("lab-client", 0) and on.get("reader") == ("lab-client", 0), on
assert [h["sections"] for h in d["fio"]["hosts"]] == [["target"], ["writer", "reader"]], d["fio"]["hosts"]
assert d["remote_hosts"][0]["env"]["host"]["hostname"] == "lab-server"
assert all(c["status"] == "pass" for c in d["checks"] if c["name"] == "loopback"), d["checks"]
w = [r for r in d["results"] if r["jobname"] == "writer"][0]["write"]
print("# writer: %d bytes to the other guest at %.1f MiB/s" % (w["io_bytes"], w["bw_bytes"] / 2**20))
PY
check_fails "the same reader against a fresh target fails verification" 1 \
	"fio said: <lab-client> .*(verify|bad magic|crc32c)" run fresh.fio fresh.json

# fio's own rdma job files (tests/lab/fio-rdma), changed only in ioengine=
# and their [placeholders]: the server file on the server guest, the client
# file here. A runtime before the job file (its default) cuts the client's
# size=100g. Engine options cannot come before a job file's ioengine=, so
# the bindname= case (fio's source address on a client: here an address of
# this guest's that is not its first) adds its line to the file.
ex=$repo/build/fio-examples.$$
mkdir -p "$ex"
trap 'cleanup; rm -rf "$ex"' EXIT
ip addr add 198.18.0.3/24 dev "$RDMAIO_NETDEV"
fill() { # FILE VERB PORT [SED...]
	local f=$1 v=$2 port=$3
	shift 3
	sed -e "s|^ioengine=rdma\$|ioengine=external:$repo/build/librdmaio.so|" \
		-e "s|\[hostname\]|$RDMAIO_SERVER_IP|" -e "s|\[port\]|$port|" \
		-e "s|\[read/write/send/recv\]|$v|" "$@" "$repo/tests/lab/fio-rdma/$f"
}
# The client's connect_timeout is 5 s: start it once the target listens.
listening() { # PORT
	local i
	for ((i = 0; i < 40; i++)); do
		(cd "$repo" && S rdma resource show cm_id) 2>/dev/null | grep -Eq "LISTEN.*src-addr [^ ]*:$1( |$)" && return 0
		sleep 0.5
	done
	return 1
}
example() { # VERB PORT [SED...]
	local v=$1 port=$2 spid cpid rc=0 i
	shift 2
	fill rdmaio-server.fio "$v" "$port" >"$ex/server-$v.fio"
	fill rdmaio-client.fio "$v" "$port" "$@" >"$ex/client-$v.fio"
	diff "$repo/tests/lab/fio-rdma/rdmaio-client.fio" "$ex/client-$v.fio" | grep '^[<>]'
	(cd "$repo" && exec "$RDMAIO_SERVER_EXEC" timeout -k 5 60 fio --output-format=json \
		--output="$ex/server-$v.json" "$ex/server-$v.fio") >"$ex/server-$v.log" 2>&1 &
	spid=$!
	listening "$port" || echo "the server job does not listen on port $port"
	timeout -k 5 60 fio --runtime=3 --time_based --output-format=json \
		--output="$ex/client-$v.json" "$ex/client-$v.fio" >"$ex/client-$v.log" 2>&1 &
	cpid=$!
	for ((i = 0; i < 100; i++)); do
		rdma resource show cm_id 2>/dev/null | grep -o "src-addr [0-9.]*:[0-9]* dst-addr [0-9.]*:$port" >>"$ex/cm-$v"
		[ -s "$ex/cm-$v" ] && break
		sleep 0.1
	done
	wait $cpid || rc=$?
	wait $spid || rc=$((rc + 100))
	cat "$ex/server-$v.log" "$ex/client-$v.log"
	return $rc
}
check "fio's rdma example files, verb=write: both sides end well" \
	example write 7640 -e "/^hostname=/a bindname=198.18.0.3"
check "... the client connected from its bindname= address" grep -q '^src-addr 198.18.0.3:' "$ex/cm-write"
check "fio's rdma example files, verb=read (rw=write): both sides end well" example read 7641
check "fio's rdma example files, verb=send: both sides end well" example send 7642
check "... the server job says it is the target and what it exposes" \
	grep -q "this job is the target, as fio's rdma server is; it exposes iodepth x bs = 16777216 bytes" "$ex/server-write.log"
check "... the client's 100 GiB wrap onto those 16 MiB, and it says so" \
	grep -q "addresses \[0, 107374182400) but target .* exposes 16777216 bytes: offsets wrap" "$ex/client-write.log"
check "... verb=read with rw=write says how fio counts it" \
	grep -q "verb=read with rw writing: every I/O is an RDMA READ" "$ex/client-read.log"
check "... bytes crossed the link each way, and the send target counted what it received" \
	python3 - "$ex" <<'PY'
import json, sys
ex = sys.argv[1]
def job(name):
    return json.load(open("%s/%s.json" % (ex, name)))["jobs"][0]
for v in ("write", "read", "send"):
    c = job("client-" + v)
    assert c["error"] == 0 and c["write"]["io_bytes"] > 0, (v, c["error"], c["write"]["io_bytes"])
    print("# %s: %d MiB at %.1f MiB/s (fio's rdma files, 1 MiB, iodepth 1)" % (v, c["write"]["io_bytes"] >> 20, c["write"]["bw_bytes"] / 2**20))
s = job("server-send")
c = job("client-send")
assert s["error"] == 0 and s["read"]["io_bytes"] == c["write"]["io_bytes"], (s["read"]["io_bytes"], c["write"]["io_bytes"])
PY

# tos= on the wire: RoCE v2 carries a connection's traffic class in each
# packet's IP TOS byte, the target's answers too (they follow the class of
# the client's connection request). tcpdump here sees both directions; the
# same job without tos= shows the check can fail.
so=$repo/build/librdmaio.so
wire() { # NAME PORT [CLIENT OPTIONS...]
	local name=$1 port=$2 spid tpid rc=0
	shift 2
	(cd "$repo" && exec "$RDMAIO_SERVER_EXEC" timeout -k 5 60 fio --name=t --ioengine=external:"$so" \
		--listen --port="$port" --size=1m --device="$RDMAIO_RDMA_DEV") >"$ex/$name-target.log" 2>&1 &
	spid=$!
	listening "$port" || echo "the target does not listen on port $port"
	tcpdump -i "$RDMAIO_NETDEV" -n -v -U -w "$ex/$name.pcap" udp port 4791 2>"$ex/$name-tcpdump.log" &
	tpid=$!
	sleep 1
	timeout -k 5 60 fio --name=c --ioengine=external:"$so" --hostname="$RDMAIO_SERVER_IP" \
		--port="$port" --rw=write --bs=4k --size=1m --iodepth=8 --device="$RDMAIO_RDMA_DEV" "$@" \
		>"$ex/$name-client.log" 2>&1 || rc=$?
	wait $spid || rc=$((rc + 100))
	sleep 0.5
	kill "$tpid" && wait "$tpid"
	tcpdump -n -v -r "$ex/$name.pcap" >"$ex/$name.txt" 2>/dev/null
	cat "$ex/$name-target.log" "$ex/$name-client.log"
	return $rc
}
# Counts of RoCE packets by direction (to/from the target) and IP TOS byte.
tos_count() { # NAME
	python3 - "$ex/$1.txt" "$RDMAIO_SERVER_IP" <<'PY'
import collections, re, sys
lines, server = open(sys.argv[1]).read().splitlines(), sys.argv[2]
n = collections.Counter()
for ip, udp in zip(lines, lines[1:]):
    m = re.match(r"\S+ IP \(tos (0x[0-9a-f]+)", ip)
    d = re.match(r"\s+([0-9.]+)\.\d+ > ([0-9.]+)\.4791:", udp)
    if m and d:
        n[("to" if d.group(2) == server else "from") + ":" + m.group(1)] += 1
print(" ".join("%s=%d" % kv for kv in sorted(n.items())))
PY
}
# Every packet of the connection, both ways, in one class: CLASS TALLY.
in_class() {
	python3 -c 'import sys; c, t = sys.argv[1], dict(kv.split("=") for kv in sys.argv[2].split())
assert set(t) == {"to:" + c, "from:" + c} and int(t["to:" + c]) >= 100, t' "$@"
}
check "a client job without tos= writes over the wire" wire plain 7650
tally=$(tos_count plain)
check "... its packets carry the default class 0 both ways: $tally" in_class 0x0 "$tally"
check "a client job with tos=106 writes over the wire" wire tos 7651 --tos=106
tally=$(tos_count tos)
check "... its packets carry 106 (0x6a: DSCP 26, ECN 10) both ways: $tally" in_class 0x6a "$tally"
check "... and the engine saw the class it asked for" bash -c "! grep -q 'tos=106 was asked' '$ex/tos-client.log'"
check_fails "a client job with device= naming no device here is refused, with the devices there are" 1 \
	"device=nosuch0: no such RDMA device on this host \(it has: $RDMAIO_RDMA_DEV\)" \
	fio --name=c --ioengine=external:"$so" --hostname="$RDMAIO_SERVER_IP" --port=7652 \
	--rw=write --bs=4k --size=1m --connect_timeout=1 --device=nosuch0
check_fails "a target job with device= naming no device there is refused" 1 \
	"device=nosuch0: no such RDMA device on this host" \
	SR timeout -k 5 30 fio --name=t --ioengine=external:"$so" --listen --port=7653 --size=1m --device=nosuch0

# hugepages: the target's region from the pool vm.nr_hugepages reserves
# (4 pages of 2 MiB here), and a clear refusal when the pool is too small.
huge_avail() { SR awk '/^HugePages_Free/ {f = $2} /^HugePages_Rsvd/ {r = $2} END {print f - r}' /proc/meminfo; }
huge() { # PORT SIZE
	local spid rc=0 avail
	(cd "$repo" && exec "$RDMAIO_SERVER_EXEC" timeout -k 5 60 fio --name=t --ioengine=external:"$so" \
		--listen --hugepages --port="$1" --size="$2") >"$ex/huge-$1.log" 2>&1 &
	spid=$!
	listening "$1" || { wait $spid; cat "$ex/huge-$1.log"; return 1; }
	avail=$(huge_avail)
	echo "huge pages free while the target listens: $avail"
	timeout -k 5 60 fio --name=c --ioengine=external:"$so" --hostname="$RDMAIO_SERVER_IP" \
		--port="$1" --rw=randwrite --bs=64k --size="$2" --iodepth=8 --verify=crc32c || rc=$?
	wait $spid || rc=$((rc + 100))
	cat "$ex/huge-$1.log"
	[ "$avail" = 1 ] || { echo "expected 1 huge page left of 4 with a 6 MiB region"; rc=1; }
	return $rc
}
check "the server guest reserves 4 huge pages" SR sysctl -q vm.nr_hugepages=4
check "a hugepages target's 6 MiB region takes 3 of them, and a client's writes verify" huge 7654 6m
check_fails "a hugepages target whose region needs more pages than are free is refused, with the fix" 1 \
	"needs 8 huge pages of 2048 KiB and 4 are free; reserve more \(sysctl vm.nr_hugepages" \
	SR timeout -k 5 30 fio --name=t --ioengine=external:"$so" --listen --hugepages --port=7655 --size=16m
check "the server guest gives its huge pages back" SR sysctl -q vm.nr_hugepages=0
check_fails "a client job with tos= out of range is refused before it connects" 1 \
	"tos=300 is not a traffic class in 0..255" \
	fio --name=c --ioengine=external:"$so" --hostname="$RDMAIO_SERVER_IP" --port=7652 \
	--rw=write --bs=4k --size=1m --tos=300
done_testing
