#!/bin/bash
# lab-run: --softroce --timeout 600
# librdmaio moves real bytes: each verb, sequential and random, iodepth 1 and
# 32, checked by fio verify; data written by one fio process is read back and
# verified by another over a new connection; send/write_imm byte and
# completion counts agree on both sides; numjobs, qps and IPv6; the atomics'
# results read back from the target's memory; I/O buffers in huge pages;
# use_events clients through fio's thinktime; an auto target's busy poll
# ends with its last sender; keepalives keep a target's live clients.
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
# The client asks for a completion on one request in every few, on the one
# that fills iodepth, and nudges when fio waits on requests that asked for
# none (a job's last, fio's verify phase): verified at depths that divide
# into it and that do not, over 1-4 queue pairs, with fio's batching.
signalling() {
	local depth qps batch name prev= clients=0 job=$tmp/signal.fio
	PORT=$((PORT + 1))
	printf '[global]\nioengine=external:%s\nport=%s\nbs=4k\nsize=2m\n' "$SO" "$PORT" >"$job"
	# One client after another (wait_for: a stonewall would wait for the
	# target too), all served by one target.
	for d in 1:1 3:1 3:2 5:4 7:1 128:1 128:3 128:4 64:2:16; do
		IFS=: read -r depth qps batch <<<"$d"
		name=d$depth-q$qps${batch:+-b$batch}
		clients=$((clients + qps))
		printf '[%s]\nhostname=%s\nrw=randwrite\niodepth=%s\nqps=%s\nverify=crc32c\n%s\n' \
			"$name" "$IP" "$depth" "$qps" "${prev:+wait_for=$prev}" >>"$job"
		[ -z "$batch" ] || printf 'iodepth_batch_submit=%s\niodepth_batch_complete_max=%s\n' "$batch" "$batch" >>"$job"
		prev=$name
	done
	printf '[s3]\nhostname=%s\nverb=send\nrw=write\niodepth=3\nwait_for=%s\n' "$IP" "$prev" >>"$job"
	printf '[e1]\nhostname=%s\nrw=write\niodepth=8\nsignal_every=1\nverify=crc32c\nwait_for=s3\n' "$IP" >>"$job"
	clients=$((clients + 2))
	timeout 300 fio --output-format=json --output="$tmp/signal.json" \
		--name=target --ioengine=external:"$SO" --listen --port=$PORT \
		--size=2m --iodepth=16 --clients=$clients "$job" || return 1
	python3 - "$tmp/signal.json" <<'PY'
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
ok = True
for j in jobs:
    if j["jobname"] == "target":
        continue
    moved = j["write"]["io_bytes"]
    print("%s: error %d, wrote %d, read back %d" % (j["jobname"], j["error"], moved, j["read"]["io_bytes"]))
    want_read = 0 if j["jobname"] == "s3" else 2 << 20
    ok &= j["error"] == 0 and moved == 2 << 20 and j["read"]["io_bytes"] == want_read
t = [j for j in jobs if j["jobname"] == "target"][0]
print("target: error %d, received %d" % (t["error"], t["read"]["io_bytes"]))
ok &= t["error"] == 0 and t["read"]["io_bytes"] == 2 << 20
sys.exit(0 if ok else 1)
PY
}
check "signalling: iodepth 1, 3, 5, 7, 64 and 128 over 1-4 queue pairs, batched or not, verified; send at depth 3" signalling
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

# The atomics are real, checked in the target's memory: the region is
# read back over RDMA READ (an atomic target also serves READ for this) by
# later client jobs, each its own process and connection, with fio's
# verify=pattern of the expected little-endian 8-byte word. On a fresh
# 16 KiB region: fetch_add over the first half, sequential, 3 loops: every
# word there is 3 (a plain write would leave fio's data, a single pass 1).
# cmp_swap over the whole region, twice: the second half's words were 0 and
# are swapped to 1; the first half's are 3, unequal to the compare value 0,
# and stay 3 (an unconditional write would make them 1: the last reader
# expects 1 there and must fail). The old values the compare-and-swaps
# return land in each client's I/O buffer, and the engine counts those that
# were 0 (a swap) in a line at the job's end: 1024 of swap1's 2048, none of
# swap2's (the words hold 3 and 1 by then).
atomics() {
	local p=7530 E=(--ioengine=external:"$SO")
	local C=(--hostname="$IP" --port=$p --connect_timeout=60)
	local R=(--verb=read --rw=read --bs=4k --size=8k --verify=pattern)
	timeout 240 fio --output-format=json --output="$tmp/atomics.json" \
		--name=t-atomics "${E[@]}" --listen --port=$p --verb=fetch_add \
		--size=16k --clients=6 \
		--name=add3 "${E[@]}" "${C[@]}" --verb=fetch_add --rw=write \
		--bs=8 --size=8k --loops=3 --iodepth=16 \
		--name=swap1 --wait_for=add3 "${E[@]}" "${C[@]}" --verb=cmp_swap \
		--rw=write --bs=8 --size=16k --iodepth=16 \
		--name=swap2 --wait_for=swap1 "${E[@]}" "${C[@]}" --verb=cmp_swap \
		--rw=write --bs=8 --size=16k --iodepth=16 \
		--name=read3 --wait_for=swap2 "${E[@]}" "${C[@]}" "${R[@]}" \
		--verify_pattern=0x0300000000000000 \
		--name=read1 --wait_for=read3 "${E[@]}" "${C[@]}" "${R[@]}" \
		--offset=8k --verify_pattern=0x0100000000000000 \
		--name=read-swapped --wait_for=read1 "${E[@]}" "${C[@]}" "${R[@]}" \
		--verify_pattern=0x0100000000000000 2>"$tmp/atomics.err"
	# read-swapped fails by design: fio exits 1; the JSON says which.
	python3 - "$tmp/atomics.json" "$tmp/atomics.err" <<'PY'
import json, re, sys
err = open(sys.argv[2]).read()
swaps = {m[0]: (int(m[1]), int(m[2])) for m in re.findall(
    r"client job '(\w+)' to \S+: cmp_swap: (\d+) of (\d+) compares found 0", err)}
text = open(sys.argv[1]).read()
jobs = {j["jobname"]: j for j in json.loads(text[text.index("{"):])["jobs"]}
want = {  # job: (error, bytes read, bytes written)
    "t-atomics": (0, None, None),
    "add3": (0, 0, 3 * 8192),
    "swap1": (0, 0, 16384),
    "swap2": (0, 0, 16384),
    "read3": (0, 8192, 0),
    "read1": (0, 8192, 0),
    "read-swapped": (84, None, 0),  # EILSEQ: fio's verify failure
}
bad = 0
for name, (err, rd, wr) in want.items():
    j = jobs.get(name)
    got = (j["error"], j["read"]["io_bytes"], j["write"]["io_bytes"]) if j else None
    ok = got is not None and got[0] == err and rd in (None, got[1]) and wr in (None, got[2])
    print("%s %s: error, read, written = %s (want %s)" % ("ok" if ok else "BAD", name, got, (err, rd, wr)))
    bad |= not ok
# swapped, compared; fetch_add jobs print no such line.
want_swaps = {"swap1": (1024, 2048), "swap2": (0, 2048)}
ok = swaps == want_swaps
print("%s cmp_swap lines: %s (want %s)" % ("ok" if ok else "BAD", swaps, want_swaps))
sys.exit(bad or not ok)
PY
}
check "atomics: fetch_add x3 reads back 3, cmp_swap swaps 0 to 1 and leaves 3" atomics

# Four client jobs, each its own connection and queue pair, run cmp_swap
# (0 -> 1) over the same 1024 fresh words. Whichever wins a word, the counts
# the engine reads from the returned old values must add up to 1024, and
# every word must read back 1. Whether the jobs overlapped shows in the TAP
# comment: how many of them won swaps (in the lab usually two, e.g. 844 and
# 180). All jobs run as threads, with --output: the summary lines go to
# stderr, and the output file must still be fio's JSON alone.
atomics_race() {
	local p=7590 E=(--ioengine=external:"$SO")
	local C=(--hostname="$IP" --port=$p --connect_timeout=60)
	timeout 240 fio --output-format=json --output="$tmp/race.json" --thread \
		--name=t-race "${E[@]}" --listen --port=$p --verb=cmp_swap \
		--size=8k --clients=5 \
		--name=race "${E[@]}" "${C[@]}" --verb=cmp_swap --rw=write \
		--bs=8 --size=8k --iodepth=16 --numjobs=4 \
		--name=read1 --wait_for=race "${E[@]}" "${C[@]}" --verb=read \
		--rw=read --bs=4k --size=8k --verify=pattern \
		--verify_pattern=0x0100000000000000 2>"$tmp/race.err" || {
		cat "$tmp/race.err"
		return 1
	}
	python3 - "$tmp/race.err" "$tmp/race.json" >"$tmp/race.out" <<'PY'
import json, re, sys
got = [(int(a), int(b)) for a, b in re.findall(
    r"client job 'race' to \S+: cmp_swap: (\d+) of (\d+) compares found 0",
    open(sys.argv[1]).read())]
print("per job (swapped, compared):", got)
jobs = json.load(open(sys.argv[2]))["jobs"]  # strict: nothing but JSON
errors = [(j["jobname"], j["error"]) for j in jobs if j["error"]]
ok = (len(got) == 4 and all(b == 1024 for _, b in got) and
      sum(a for a, _ in got) == 1024 and len(jobs) == 6 and not errors)
print("jobs in the JSON: %d, with errors: %s" % (len(jobs), errors))
print("winners: %d of 4 jobs" % sum(1 for a, _ in got if a))
sys.exit(0 if ok else "want 4 jobs of 1024 compares whose swaps add up to 1024")
PY
	local rc=$?
	cat "$tmp/race.out"
	return $rc
}
check "atomics: four connections racing cmp_swap on 1024 words win 1024 swaps in all" atomics_race
sed -n 's/^winners: /# cmp_swap race: jobs that won swaps: /p' "$tmp/race.out"

# librdmacm opens the devices once per process and keeps them: a job process
# fio forks after a thread job used RDMA in fio's own process inherits
# handles that do not work there (Soft-RoCE: EACCES on the first post).
# Such a job must be refused before it touches them, with the message that
# says how to run the file.
mixed() {
	local p=7595 E=(--ioengine=external:"$SO")
	local C=(--hostname="$IP" --port=$p --connect_timeout=60)
	timeout 120 fio --name=t-mixed "${E[@]}" --listen --port=$p --size=1m \
		--thread \
		--name=first "${E[@]}" "${C[@]}" --rw=write --bs=4k --size=1m \
		--thread \
		--name=forked --wait_for=first "${E[@]}" "${C[@]}" --rw=read \
		--bs=4k --size=1m
}
check_fails "a job process forked after thread jobs used RDMA is refused" \
	nonzero "forked after a thread job had used RDMA in fio's own process .* set thread for every job of the run, or for none" mixed

# Huge pages through fio's own iomem=: fio allocates each job's I/O buffers
# in huge pages and librdmaio registers that area once (a client's MR, a
# send target's receive buffers in post_init). fio has no fallback: a job
# whose huge pages cannot be had fails (engine-errors.sh), so jobs that
# pass ran on them. Both kinds: shmhuge (SysV SHM_HUGETLB) on a verified
# RDMA WRITE/READ pair, mmaphuge on a SEND pair, the target's buffers in a
# file on a hugetlbfs mount, the client's anonymous (MAP_HUGETLB). While
# fio runs, the huge pages neither used nor promised (HugePages_Free minus
# HugePages_Rsvd) must drop by at least two at once: a target keeps its
# pages until its client is done, so a pair holds two while it moves data.
# (All four jobs at once is the rule but not a certainty: a pair may end
# before the other starts.) loops= keeps each pair busy for a second or so,
# well above the sampler's 0.1 s.
hugepages() {
	local p=7540 E=(--ioengine=external:"$SO") rc low
	local C=(--hostname="$IP" --connect_timeout=60)
	echo 32 >/proc/sys/vm/nr_hugepages
	if ! grep -q '^HugePages_Free: *32$' /proc/meminfo; then
		echo "the guest could not reserve 32 huge pages"
		grep -i huge /proc/meminfo
		return 1
	fi
	mkdir -p "$tmp/huge" &&
		mount -t hugetlbfs -o pagesize=2M none "$tmp/huge" || return 1
	# Bash builtins only: a process per sample would hardly ever be
	# scheduled next to fio on the emulated CPUs.
	mkfifo "$tmp/never"
	(exec 9<>"$tmp/never"
	while :; do
		while read -r k v _; do
			case $k in
			HugePages_Free:) f=$v ;;
			HugePages_Rsvd:) r=$v ;;
			esac
		done </proc/meminfo
		echo $((f - r))
		read -r -t 0.1 -u 9
	done) >"$tmp/huge-avail" &
	local sampler=$!
	timeout 120 fio --output-format=json --output="$tmp/huge.json" \
		--hugepage-size=2m \
		--name=t-shm "${E[@]}" --listen --port=$p --size=4m \
		--iomem=shmhuge \
		--name=shm "${E[@]}" "${C[@]}" --port=$p --rw=randwrite \
		--bs=64k --size=4m --iodepth=16 --iomem=shmhuge --loops=4 \
		--verify=crc32c --verify_state_save=0 \
		--name=t-mmap "${E[@]}" --listen --port=$((p + 1)) --verb=send \
		--bs=64k --iodepth=32 --size=2m \
		--iomem=mmaphuge:"$tmp/huge/t-mmap" \
		--name=mmap "${E[@]}" "${C[@]}" --port=$((p + 1)) --verb=send \
		--rw=write --bs=64k --size=4m --iodepth=8 --iomem=mmaphuge \
		--loops=8
	rc=$?
	kill $sampler
	wait $sampler 2>/dev/null
	umount "$tmp/huge"
	echo 0 >/proc/sys/vm/nr_hugepages
	low=$(sort -n "$tmp/huge-avail" | head -n 1)
	echo "32 before, $low at the lowest of $(wc -l <"$tmp/huge-avail") samples while fio ran" |
		tee "$tmp/huge-low"
	[ $rc -eq 0 ] || return 1
	python3 - "$tmp/huge.json" <<'PY' || return 1
import json, sys
text = open(sys.argv[1]).read()
jobs = {j["jobname"]: j for j in json.loads(text[text.index("{"):])["jobs"]}
b = {n: (j["error"], j["read"]["io_bytes"], j["write"]["io_bytes"]) for n, j in jobs.items()}
print("error, read, written:", b)
ok = (all(e == 0 for e, _, _ in b.values()) and b["shm"][2] == 16 << 20
      and b["t-mmap"][1] == b["mmap"][2] == 32 << 20)
sys.exit(not ok)
PY
	[ "$low" -le 30 ]
}
check "iomem=shmhuge and mmaphuge: verified pair and send pair on huge pages" \
	hugepages
echo "# huge pages free and unreserved: $(cat "$tmp/huge-low" 2>/dev/null)"

# ticks PID: the process's CPU time so far (user and system), in clock ticks.
ticks() {
	local f
	read -r -a f <"/proc/$1/stat" || return 1
	echo $((f[13] + f[14]))
}

# A verb=auto target busy-polls its CQ only while a client that sends is
# connected, and goes back to sleeping in poll() once the last one has gone.
# Its CPU (a thread job: fio's one process) is measured over the sender's
# life, mostly think time while connected, then over 3 s with only a
# silent client still due. Spinning is a whole CPU, sleeping a few percent
# even in TCG: a target that kept spinning measured 105 % after its sender
# left (and 88 % while it was there), this one 8 % (86 %).
idle() {
	local p=7620 E=(--ioengine=external:"$SO") tpid t0 t1 t2 s0 s1 s2 rc=0
	local C=(--hostname="$IP" --port=$p --connect_timeout=60)
	fio --thread --name=t-auto "${E[@]}" --listen --port=$p --size=1m \
		--iodepth=16 --clients=2 --runtime=60 >"$tmp/idle.out" 2>&1 &
	tpid=$!
	sleep 2
	t0=$(ticks $tpid) s0=$(date +%s%N)
	timeout 60 fio --name=sender "${E[@]}" "${C[@]}" --verb=send \
		--rw=write --bs=4k --size=12k --iodepth=1 --number_ios=3 \
		--thinktime=2s --thinktime_blocks=1 >/dev/null || rc=1
	t1=$(ticks $tpid) s1=$(date +%s%N)
	sleep 3
	t2=$(ticks $tpid) s2=$(date +%s%N)
	timeout 60 fio --name=last "${E[@]}" "${C[@]}" --rw=write --bs=4k \
		--size=64k >/dev/null || rc=1
	wait $tpid || { rc=1; cat "$tmp/idle.out"; }
	# Percent of one CPU: a tick is 10 ms, the clock's figures are ns.
	local busy=$(((t1 - t0) * 1000000 / ((s1 - s0) / 1000)))
	local quiet=$(((t2 - t1) * 1000000 / ((s2 - s1) / 1000)))
	echo "target CPU: ${busy} % while a sender was connected, ${quiet} % in the 3 s after it left" |
		tee "$tmp/idle.cpu"
	[ $rc -eq 0 ] && [ "$busy" -ge 50 ] && [ "$quiet" -le 40 ]
}
check "an auto target spins while a sender is connected and stops once it has gone" idle
sed 's/^/# /' "$tmp/idle.cpu" 2>/dev/null

# A target without runtime ends a client that sends no keepalive for its
# stall_timeout (engine-errors.sh); clients that do I/O, whatever the verb
# and whether they poll or sleep on events, and one that thinks for less
# than that, are kept: each pair runs well past its target's stall_timeout,
# one-sided verbs included, which the target's CPU never sees.
keepalives() {
	local p=7640 E=(--ioengine=external:"$SO")
	local C=(--hostname="$IP" --connect_timeout=60)
	local T=(--size=1m --stall_timeout=2)
	timeout 120 fio --output-format=json --output="$tmp/alive.json" \
		--name=t-write "${E[@]}" --listen --port=$p "${T[@]}" \
		--name=write "${E[@]}" "${C[@]}" --port=$p --rw=randwrite \
		--bs=4k --size=1m --time_based --runtime=6 \
		--name=t-read "${E[@]}" --listen --port=$((p + 1)) --verb=read \
		--use_events=1 "${T[@]}" \
		--name=read "${E[@]}" "${C[@]}" --port=$((p + 1)) --verb=read \
		--rw=randread --bs=4k --size=1m --time_based --runtime=6 \
		--use_events=1 \
		--name=t-send "${E[@]}" --listen --port=$((p + 2)) --verb=send \
		--bs=4k --iodepth=16 "${T[@]}" \
		--name=send "${E[@]}" "${C[@]}" --port=$((p + 2)) --verb=send \
		--rw=write --bs=4k --size=1m --iodepth=8 --time_based --runtime=6 \
		--name=t-think "${E[@]}" --listen --port=$((p + 3)) --size=1m \
		--stall_timeout=3 \
		--name=think "${E[@]}" "${C[@]}" --port=$((p + 3)) --rw=write \
		--bs=4k --size=1m --iodepth=1 --number_ios=6 --thinktime=1s \
		--thinktime_blocks=1 2>"$tmp/alive.err"
	local rc=$?
	grep rdmaio "$tmp/alive.err"
	[ $rc -eq 0 ] || return 1
	python3 - "$tmp/alive.json" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
ok = True
for name, j in sorted(jobs.items()):
    moved = j["read"]["io_bytes"] + j["write"]["io_bytes"]
    print("%s: error %d, %d bytes, %.1f s" % (name, j["error"], moved, j["job_runtime"] / 1000))
    ok &= j["error"] == 0 and (name.startswith("t-") or moved > 0)
ok &= jobs["think"]["write"]["io_bytes"] == 6 * 4096
sys.exit(0 if ok else 1)
PY
}
check "keepalives: WRITE, READ with use_events, SEND and a thinking client outlive their targets' stall_timeout" keepalives

# Every other feature in one fio run (fio starts slowly under emulation):
# twelve target/client pairs side by side on their own ports, sleeping on
# completion channels (use_events) so 27 processes share two vCPUs. Each
# job's result is judged from fio's JSON output. With thinktime at
# iodepth > 1, fio waits for every unit in flight before each think, on
# requests none of which may have asked for a completion: a client asleep
# on its channel then needs its nudge (think, and send).
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
		--rw=write --bs=32k --size=3m --iodepth=8 --thinktime=2ms \
		--thinktime_blocks=5 \
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
		--name=inline "${E[@]}" "${C[@]}" --port=$((p + 7)) \
		--rw=write --bs=64 --size=256k --iodepth=16 --verify=crc32c \
		--name=t-noinline "${E[@]}" --listen --port=$((p + 12)) --size=64k \
		--name=noinline "${E[@]}" "${C[@]}" --port=$((p + 12)) --inline=0 \
		--rw=write --bs=64 --size=64k --iodepth=16 --verify=crc32c \
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
		--verify=crc32c \
		--name=t-think "${E[@]}" --listen --port=$((p + 11)) --size=1m \
		--name=think "${E[@]}" "${C[@]}" --port=$((p + 11)) \
		--rw=randwrite --bs=4k --size=1m --iodepth=8 --thinktime=2ms \
		--thinktime_blocks=5 --verify=crc32c
}
check "twelve target/client pairs in one fio run" features
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
    "inline": "64-byte writes, inline by default, verified",
    "noinline": "inline=0 64-byte writes from the buffer, verified",
    "ipv6": "IPv6 target and client, verified",
    "send": "send, use_events, thinktime at iodepth 8",
    "think": "verified writes, use_events, thinktime at iodepth 8",
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
