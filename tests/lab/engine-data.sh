#!/bin/bash
# lab-run: --softroce --timeout 600
# librdmaio moves real bytes: each verb, sequential and random, iodepth 1 and
# 32, checked by fio verify; data written by one fio process is read back and
# verified by another over a new connection; send/write_imm byte and
# completion counts agree on both sides; numjobs, qps and IPv6.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

SO=$PWD/build/librdmaio.so
IP=$RDMAIO_SERVER_IP
PORT=7500
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# fio leaves verify state files in its working directory: keep them out of the repo.
cd "$tmp" || exit 1

# pair TARGET_OPTS -- CLIENT_OPTS: one fio run with a target and a client job.
pair() {
	local t=() c=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do t+=("$1"); shift; done
	shift
	c=("$@")
	PORT=$((PORT + 1))
	timeout 120 fio --name=target --ioengine=external:"$SO" --listen \
		--port=$PORT "${t[@]}" \
		--name=client --ioengine=external:"$SO" --hostname="$IP" \
		--port=$PORT "${c[@]}"
}

# Four clients at once, each on its own quarter of the target's region:
# sequential and random, iodepth 1 and 32, each verified.
quad() {
	PORT=$((PORT + 1))
	timeout 180 fio --name=target --ioengine=external:"$SO" --listen \
		--port=$PORT --size=16m --clients=4 \
		--name=seq1 --ioengine=external:"$SO" --hostname="$IP" \
		--port=$PORT --rw=write --bs=4k --offset=0 --size=4m \
		--iodepth=1 --verify=crc32c \
		--name=seq32 --ioengine=external:"$SO" --hostname="$IP" \
		--port=$PORT --rw=write --bs=4k --offset=4m --size=4m \
		--iodepth=32 --verify=crc32c \
		--name=rand1 --ioengine=external:"$SO" --hostname="$IP" \
		--port=$PORT --rw=randwrite --bs=4k --offset=8m --size=4m \
		--iodepth=1 --verify=crc32c \
		--name=rand32 --ioengine=external:"$SO" --hostname="$IP" \
		--port=$PORT --rw=randwrite --bs=4k --offset=12m --size=4m \
		--iodepth=32 --verify=crc32c
}
check "seq/rand x iodepth 1/32 verified, four clients at once" quad
# Across processes and connections: the target keeps its region between
# clients, so a second fio reads back and verifies what the first wrote.
cross() {
	local rc
	PORT=$((PORT + 1))
	timeout 120 fio --name=target --ioengine=external:"$SO" --listen \
		--port=$PORT --size=4m --clients=2 >"$tmp/target.out" 2>&1 &
	local tpid=$!
	timeout 60 fio --name=writer --ioengine=external:"$SO" \
		--hostname="$IP" --port=$PORT --rw=randwrite --bs=16k \
		--size=4m --iodepth=16 --verify=crc32c --do_verify=0 \
		--verify_state_save=0 || { wait $tpid; return 1; }
	timeout 60 fio --name=reader --ioengine=external:"$SO" \
		--hostname="$IP" --port=$PORT --rw=randwrite --bs=16k \
		--size=4m --iodepth=16 --verify=crc32c --verify_only \
		--verify_state_load=0
	rc=$?
	wait $tpid || rc=1
	return $rc
}
check "write in one process, verify_only in another" cross

# The same verify_only against a fresh target must fail: verify really
# reads the target's memory.
fresh() {
	timeout 60 fio --name=target --ioengine=external:"$SO" --listen \
		--port=$((PORT + 50)) --size=1m \
		--name=reader --ioengine=external:"$SO" --hostname="$IP" \
		--port=$((PORT + 50)) --rw=write --bs=4k --size=1m \
		--verify=crc32c --verify_only --verify_state_load=0
}
check_fails "verify_only of an unwritten region fails" nonzero \
	"verify|bad magic|crc32c" fresh

# Every other feature in one fio run (fio starts slowly under emulation):
# eleven target/client pairs side by side on their own ports, sleeping on
# completion channels (use_events) so 25 processes share two vCPUs. Each
# job's result is judged from fio's JSON output.
features() {
	local p=7510 E=(--ioengine=external:"$SO")
	local C=(--hostname="$IP" --connect_timeout=60 --use_events=1)
	timeout 300 fio --output-format=json --output="$tmp/features.json" \
		--name=t-randrw "${E[@]}" --listen --port=$p --size=3m \
		--name=randrw "${E[@]}" "${C[@]}" --port=$p --rw=randrw \
		--bs=12k --size=3m --iodepth=8 --verify=md5 \
		--name=t-write "${E[@]}" --listen --port=$((p + 1)) \
		--verb=write --size=2m \
		--name=write "${E[@]}" "${C[@]}" --port=$((p + 1)) --verb=write \
		--rw=randwrite --bs=64k --size=2m --iodepth=32 \
		--name=t-read "${E[@]}" --listen --port=$((p + 2)) --verb=read \
		--size=2m \
		--name=read "${E[@]}" "${C[@]}" --port=$((p + 2)) --verb=read \
		--rw=randread --bs=4k --size=2m --iodepth=32 \
		--name=t-send "${E[@]}" --listen --port=$((p + 3)) --verb=send \
		--use_events=1 --bs=64k --size=3m --iodepth=16 \
		--name=send "${E[@]}" "${C[@]}" --port=$((p + 3)) --verb=send \
		--rw=write --bs=32k --size=3m --iodepth=8 \
		--name=t-imm "${E[@]}" --listen --port=$((p + 4)) \
		--verb=write_imm --use_events=1 --bs=64k --size=3m --iodepth=16 \
		--name=imm "${E[@]}" "${C[@]}" --port=$((p + 4)) \
		--verb=write_imm --rw=write --bs=32k --size=3m --iodepth=8 \
		--name=t-numjobs "${E[@]}" --listen --port=$((p + 5)) --size=4m \
		--clients=4 \
		--name=numjobs "${E[@]}" "${C[@]}" --port=$((p + 5)) --numjobs=4 \
		--rw=randwrite --bs=4k --size=1m --offset_increment=1m \
		--iodepth=8 --verify=crc32c \
		--name=t-qps "${E[@]}" --listen --port=$((p + 6)) --size=2m \
		--clients=4 \
		--name=qps "${E[@]}" "${C[@]}" --port=$((p + 6)) --qps=4 \
		--rw=randwrite --bs=8k --size=2m --iodepth=32 --verify=crc32c \
		--name=t-inline "${E[@]}" --listen --port=$((p + 7)) --size=256k \
		--name=inline "${E[@]}" "${C[@]}" --port=$((p + 7)) --inline=64 \
		--rw=write --bs=64 --size=256k --iodepth=16 --verify=crc32c \
		--name=t-fetch_add "${E[@]}" --listen --port=$((p + 9)) \
		--verb=fetch_add --size=64k \
		--name=fetch_add "${E[@]}" "${C[@]}" --port=$((p + 9)) \
		--verb=fetch_add --rw=randwrite --bs=8 --size=64k --iodepth=16 \
		--name=t-cmp_swap "${E[@]}" --listen --port=$((p + 10)) \
		--verb=cmp_swap --size=64k \
		--name=cmp_swap "${E[@]}" "${C[@]}" --port=$((p + 10)) \
		--verb=cmp_swap --rw=write --bs=8 --size=64k --iodepth=16 \
		--name=t-ipv6 "${E[@]}" --listen --port=$((p + 8)) \
		--bindname="$RDMAIO_SERVER_IP6" --size=1m \
		--name=ipv6 "${E[@]}" "${C[@]}" --hostname="$RDMAIO_SERVER_IP6" \
		--port=$((p + 8)) --rw=randwrite --bs=4k --size=1m --iodepth=8 \
		--verify=crc32c
}
check "eleven target/client pairs in one fio run" features
python3 - "$tmp/features.json" <<'PY' || _tap_failed=1
import json, sys
try:
    jobs = json.load(open(sys.argv[1]))["jobs"]
except Exception as e:
    print("not ok - feature results readable (%s)" % e)
    sys.exit(1)
bad = 0
def tap(ok, name, why=""):
    global bad
    print(("ok - " if ok else "not ok - ") + name + (" (%s)" % why if why and not ok else ""))
    bad |= not ok
def moved(j):
    return j["read"]["io_bytes"] + j["write"]["io_bytes"]
by = {}
for j in jobs:
    by.setdefault(j["jobname"], []).append(j)
desc = {
    "randrw": "auto randrw bs=12k verify=md5",
    "write": "verb=write randwrite iodepth=32",
    "read": "verb=read randread iodepth=32",
    "numjobs": "numjobs=4 to one target, verified",
    "qps": "qps=4 in one job, verified",
    "inline": "inline=64 writes, verified",
    "ipv6": "IPv6 target and client, verified",
    "send": "send, use_events",
    "imm": "write_imm, use_events",
    "fetch_add": "fetch_add 8-byte atomics",
    "cmp_swap": "cmp_swap 8-byte atomics",
}
for name, what in desc.items():
    js = by.get(name, [])
    tap(js and all(j["error"] == 0 and moved(j) > 0 for j in js), what,
        "jobs=%d errors=%s bytes=%s" % (len(js), [j["error"] for j in js],
                                        [moved(j) for j in js]))
for t in by:
    if t.startswith("t-"):
        tap(all(j["error"] == 0 for j in by[t]), "target %s ends cleanly" % t[2:])
for v in ("send", "imm"):
    try:
        a = by["t-" + v][0]["read"]["io_bytes"]
        b = by[v][0]["write"]["io_bytes"]
    except (KeyError, IndexError):
        a, b = -1, -2
    tap(a == b and b > 0, "%s: target counted the %d bytes the client sent" % (v, b),
        "target %d" % a)
sys.exit(bad)
PY

done_testing
