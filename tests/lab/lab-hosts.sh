#!/bin/bash
# lab-run: --softroce --hosts 3 --timeout 900
# Three guests: a server and two clients, each client on its own link to the
# server, whose guest bridges them. Each has rxe0 ACTIVE; the client runs
# commands on the others through $RDMAIO_SERVER_EXEC and $RDMAIO_HOST_EXEC and
# reaches them over ssh; both clients move data to the server at once.
. "$(dirname "$0")/../lib.sh"
check "client and server addresses differ" test "$RDMAIO_CLIENT_IP" != "$RDMAIO_SERVER_IP"
check "RDMAIO_HOSTS says three guests ($RDMAIO_HOSTS)" test "$RDMAIO_HOSTS" = 3
check "RDMAIO_CLIENT_IPS lists both clients, this one first ($RDMAIO_CLIENT_IPS)" \
	test "$RDMAIO_CLIENT_IPS" = "$RDMAIO_CLIENT_IP 198.18.0.3"
check "the server answers ping on the lab link" ping -c 2 -W 5 "$RDMAIO_SERVER_IP"
check "lab-client3 answers ping through the server's bridge" ping -c 2 -W 5 lab-client3
check "lab-client3 answers ping over IPv6" ping -6 -c 2 -W 5 fd18::3
check_fails "server-exec returns the server command's status and output" 4 '^lab-server$' \
	"$RDMAIO_SERVER_EXEC" sh -c 'hostname; exit 4'
check_fails "host-exec runs on lab-client3, with its status and output" 5 '^lab-client3$' \
	"$RDMAIO_HOST_EXEC" lab-client3 sh -c 'hostname; exit 5'
check_fails "host-exec refuses a host that is not a lab guest, naming it" 2 "'lab-client9' is not" \
	"$RDMAIO_HOST_EXEC" lab-client9 true
check_fails "host-exec says which --hosts boots a guest that is not up" 2 'no guest lab-client4 here' \
	"$RDMAIO_HOST_EXEC" lab-client4 true
# Streaming: the first line must arrive while the command still sleeps.
gap=$("$RDMAIO_SERVER_EXEC" sh -c 'echo a; sleep 4; echo b' |
	while read -r _; do date +%s; done | awk 'NR == 1 { t = $1 } END { print $1 - t }')
check "server-exec streams output as the command runs (lines ${gap:-?} s apart)" \
	test "${gap:-0}" -ge 3
name=$(ssh -o BatchMode=yes -o ConnectTimeout=30 lab-client3 hostname 2>&1)
check "ssh reaches lab-client3 by name, with this run's key ($name)" test "$name" = lab-client3
ports=$("$RDMAIO_SERVER_EXEC" sh -c 'ip -o addr show to 198.18.0.1/32 | cut -d" " -f2; ls /sys/class/net/br0/brif' | tr '\n' ' ')
check "the server's address is on br0, over eth0 and eth1 ($ports)" test "$ports" = "br0 eth0 eth1 "
check "the server's rxe0 is ACTIVE too, on br0" \
	"$RDMAIO_SERVER_EXEC" sh -c 'ibv_devinfo -d rxe0 | grep -q PORT_ACTIVE && rdma link show rxe0/1 | grep -q "netdev br0"'
check "lab-client3's rxe0 is ACTIVE" \
	"$RDMAIO_HOST_EXEC" lab-client3 sh -c 'ibv_devinfo -d rxe0 | grep -q PORT_ACTIVE'

# Both clients at once, each to its own ib_write_bw server on the server.
. "$(dirname "$0")/../../scripts/perftest.sh"
repo=$(cd "$(dirname "$0")/../.." && pwd)
bw_of() { awk '$1 == 65536 { print $4 }' "$1"; }
out=$(mktemp -d)
(PERFTEST_SERVER_EXEC=$RDMAIO_SERVER_EXEC perftest_pair "$RDMAIO_SERVER_IP" ib_write_bw \
	-d "$RDMAIO_RDMA_DEV" -R -s 65536 -D 4 -p 18515 >"$out/client" 2>&1) &
c2=$!
"$RDMAIO_HOST_EXEC" lab-client3 bash -c '. "$0/scripts/perftest.sh" &&
	PERFTEST_SERVER_EXEC=$RDMAIO_SERVER_EXEC perftest_pair "$RDMAIO_SERVER_IP" ib_write_bw \
	-d "$RDMAIO_RDMA_DEV" -R -s 65536 -D 4 -p 18516' "$repo" >"$out/client3" 2>&1 &
c3=$!
wait $c2
wait $c3
bw2=$(bw_of "$out/client") bw3=$(bw_of "$out/client3")
echo "# ib_write_bw 64 KiB to the server guest at once: lab-client ${bw2:-none}, lab-client3 ${bw3:-none} MiB/s"
check "ib_write_bw moves data from lab-client to the server (${bw2:-?} MiB/s)" \
	awk -v bw="${bw2:-0}" 'BEGIN { exit !(bw > 0) }'
check "ib_write_bw moves data from lab-client3 to the server, started with lab-client's (${bw3:-?} MiB/s)" \
	awk -v bw="${bw3:-0}" 'BEGIN { exit !(bw > 0) }'
rm -rf "$out"

# ---- Many clients, one server: one rdmaio run from both clients at once, NFS
# over RDMA and over TCP (one export, each client mounting a folder of its
# own: fio's client expands ${VAR} before it sends a job, so every host gets
# the driver's paths, and fio --server names its files after its own socket's
# address, which is no address for a unix socket) and a
# librdmaio target serving both (jobs/verbs/fanin.fio), with an "all clients"
# sum of each pair ----
nr=$repo/build/nfsrdma rdmaio=$repo/build/rdmaio
S() { (cd "$repo" && "$RDMAIO_SERVER_EXEC" "$@"); }
C3() { (cd "$repo" && "$RDMAIO_HOST_EXEC" lab-client3 "$@"); }
exp=/srv/fleet rdir=/mnt/fleet-rdma tdir=/mnt/fleet-tcp port=8766
# In the repository: host-exec runs each command in this folder there too.
work=$(mktemp -d "$repo/build/lab-hosts.XXXXXX")
fleet_down() {
	$nr umount $rdir >/dev/null 2>&1
	$nr umount $tdir >/dev/null 2>&1
	C3 sh -c "$nr umount $rdir; $nr umount $tdir; kill \$(cat /run/fleet-fio.pid)" >/dev/null 2>&1
	S sh -c "kill \$(cat /run/fleet-fio.pid); $nr server stop" >/dev/null 2>&1
	rm -rf "$work"
}
trap fleet_down EXIT
check "the server exports one tmpfs to the clients' subnet, over RDMA and TCP" \
	S sh -c "mkdir -p $exp && mount -t tmpfs -o size=96m tmpfs $exp &&
		mkdir $exp/lab-client $exp/lab-client3 && $nr server start &&
		$nr export add $exp --clients 198.18.0.0/24 --options rw,no_root_squash,fsid=21"
mounts="mkdir -p $rdir $tdir && h=\$(hostname) &&
	$nr mount $RDMAIO_SERVER_IP:$exp/\$h $rdir --proto rdma --vers 3 &&
	$nr mount $RDMAIO_SERVER_IP:$exp/\$h $tdir --proto tcp --vers 3"
check "lab-client mounts its folder over RDMA and over TCP" sh -c "$mounts"
check "lab-client3 mounts its folder over RDMA and over TCP" C3 sh -c "$mounts"
fio_servers() {
	S fio --server="$RDMAIO_SERVER_IP,$port" --daemonize=/run/fleet-fio.pid &&
		C3 fio --server="198.18.0.3,$port" --daemonize=/run/fleet-fio.pid
}
check "the server and lab-client3 run fio --server on their lab addresses" fio_servers
cd "$work" || exit 1
cat >nfs.fio <<'JOB'
[global]
ioengine=libaio
direct=1
bs=256k
iodepth=4
size=4m
time_based
runtime=2
[seq-write-rdma]
directory=${RDMAIO_NFS_RDMA_DIR}
rw=write
stonewall
[seq-write-tcp]
directory=${RDMAIO_NFS_TCP_DIR}
rw=write
stonewall
JOB
# Set here, for every host's sections: fio's client expands them.
export RDMAIO_ENGINE=$repo/build/librdmaio.so RDMAIO_RUNTIME=2 RDMAIO_CLIENTS=2
export RDMAIO_NFS_RDMA_DIR=$rdir RDMAIO_NFS_TCP_DIR=$tdir
fleet() { # RESULT CLIENT...
	local out=$1 c args=()
	shift
	for c in "$@"; do
		args+=(--client-host "$c")
	done
	"$rdmaio" run --timeout 240 -o "$out" --server-host "$RDMAIO_SERVER_IP,$port" "${args[@]}" \
		--remote-env "$RDMAIO_HOST_EXEC %h $repo/build/rdmaio env" \
		--remote-cpu "$RDMAIO_HOST_EXEC %h $repo/build/rdmaio cpu-watch --max-s 240" \
		"$repo/jobs/verbs/fanin.fio" nfs.fio
}
check "rdmaio run with two client hosts: the target and NFS, both clients at once" \
	fleet fleet.json local "198.18.0.3,$port"
check "... the result has every host's jobs, each pair summed over both clients, the server's CPU under their sum" \
	python3 - fleet.json "$repo/results-schema/result.schema.json" <<'PY'
import json, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
on = sorted((r["host"], r["jobname"], r["error"]) for r in d["results"])
want = sorted([("lab-server", "fanin-target", 0)] + [
    (h, j, 0) for h in ("lab-client", "lab-client3")
    for j in ("fanin-write", "seq-write-rdma", "seq-write-tcp")])
assert on == want, on
assert sorted(r["env"]["host"]["hostname"] for r in d["remote_hosts"]) == [
    "lab-client3", "lab-server"], d["remote_hosts"]
cs = {(c["host"], c["workload"]): c for c in d["comparisons"]}
assert sorted(cs) == [("all clients", "seq-write"), ("lab-client", "seq-write"),
                      ("lab-client3", "seq-write")], sorted(cs)
a = cs[("all clients", "seq-write")]
assert a["clients"] == ["lab-client", "lab-client3"] or \
    a["clients"] == ["lab-client3", "lab-client"], a["clients"]
for side in ("rdma", "tcp"):
    assert a[side]["bw_bytes"] == sum(cs[(h, "seq-write")][side]["bw_bytes"]
                                      for h in ("lab-client", "lab-client3")), a
assert "seq-write, 2 clients: RDMA vs TCP" in a["verdict"], a["verdict"]
# The server's CPU per GiB under both clients' load; no client's CPU.
hc = [h["host"] for h in a.get("host_cpu_per_gib", [])]
assert hc == ["lab-server"], a
assert "CPU per GiB on lab-server" in a["verdict"], a["verdict"]
# lab-client's own pair: its CPU and the server's, not lab-client3's (which
# went to lab-client3's own jobs).
own = sorted(h["host"] for h in cs[("lab-client", "seq-write")]["host_cpu_per_gib"])
assert own == ["lab-client", "lab-server"], own
# Both clients' jobs seen (lab-client3's through its cpu-watch), in each of
# the two fio runs (one per job file). Whether they overlapped is not asserted
# here: these jobs lay out files over NFS as they start, and on a slower
# machine the clients' jobs can start or end apart by more than the
# tolerance. The null-engine
# runs below assert the pass and the flag.
ov = [c for c in d["checks"] if c["name"] == "overlap"]
assert len(ov) == 2 and all(c["status"] in ("pass", "flagged") and
                            "lab-client " in c["message"] and "lab-client3 " in c["message"]
                            for c in ov), ov
PY
# The figures, for the log (check shows a command's output only on failure).
python3 - fleet.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = {r["host"]: r["write"]["bw_bytes"] / 2**20 for r in d["results"] if r["jobname"] == "fanin-write"}
print("# librdmaio WRITE 64 KiB into one target, MiB/s: " + ", ".join(
    "%s %.1f" % kv for kv in sorted(w.items())))
for c in d["comparisons"]:
    print("# NFS %s on %s: RDMA %.1f, TCP %.1f MiB/s; %s" % (
        c["workload"], c["host"], c["rdma"]["bw_bytes"] / 2**20, c["tcp"]["bw_bytes"] / 2**20,
        c["verdict"]))
for c in d["checks"]:
    if c["name"] == "overlap":
        print("# overlap %s: %s" % (c["status"], c["message"]))
PY
# The overlap check's negative control: two plain --client hosts (the
# server's and lab-client3's fio --server), lab-client3's job starting 2 s
# late (fio forks a job after its startdelay).
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
two_clients() { # RESULT JOB-FILE-OF-LAB-CLIENT3
	"$rdmaio" run --timeout 120 -o "$1" --client "$RDMAIO_SERVER_IP,$port" on-time.fio \
		--client "198.18.0.3,$port" "$2" \
		--remote-env "$RDMAIO_HOST_EXEC %h $repo/build/rdmaio env" \
		--remote-cpu "$RDMAIO_HOST_EXEC %h $repo/build/rdmaio cpu-watch --max-s 120"
}
overlap() { python3 "$repo/tests/tools/overlap-tool.py" "$@"; } # RESULT STATUS PATTERN
check "a client host whose job starts 2 s late (startdelay=2 on lab-client3)" \
	two_clients late.json late.fio
check "... is flagged by the overlap check, naming it" \
	overlap late.json flagged "lab-client3 started (1\.[6-9]|2\.[0-4])[0-9] s late"
check "... and without the delay, both pass it" two_clients on-time.json on-time.fio
check "... as overlapping" overlap on-time.json pass "all started and ended together"
# The messages, for the log (check shows a command's output only on failure).
overlap late.json flagged . && overlap on-time.json pass .
check "... each client wrote into its own folder of the one export" \
	S sh -c "ls -lR $exp; ls $exp/lab-client | grep -q seq-write-rdma &&
		ls $exp/lab-client3 | grep -q seq-write-rdma"
check_fails "a client host that is not up fails before fio runs, naming it" nonzero \
	"198.18.0.4" fleet down.json local "198.18.0.4,$port"
check "... and writes no result" test ! -e down.json
cd "$repo" || exit 1
fleet_down
trap - EXIT
check "the mounts are gone from both clients" \
	sh -c "! grep -q fleet /proc/mounts && ! $RDMAIO_HOST_EXEC lab-client3 grep -q fleet /proc/mounts"

# ---- make demo with several client hosts (CLIENTS=2 in the lab): the
# demo's own set-up on all three guests over ssh, both clients' jobs at
# once, and everything undone on every host. First what it refuses before
# anything changes. ----
# What the demo could leave on a host: its mounts, exports, folders and
# fio servers, and nfsd's threads.
traces() {
	local h
	for h in local lab-server lab-client3; do
		if [ $h = local ]; then
			sh -c "$1"
		else
			"$RDMAIO_HOST_EXEC" $h sh -c "$1"
		fi | sed "s/^/$h: /"
	done
}
# shellcheck disable=SC2016 # for the guests' sh
probe='grep -hE "rdmaio-demo|/mnt/rdmaio-" /proc/mounts /var/lib/nfs/etab 2>/dev/null
	ip -o addr show | grep -F " '"$RDMAIO_LAB_SPARE_IP"'/"
	ls -d /run/rdmaio-demo.* /srv/rdmaio-demo.* /mnt/rdmaio-* 2>/dev/null
	ps -eo args= | grep "^fio --server"
	echo "nfsd threads: $(cat /proc/fs/nfsd/threads 2>/dev/null || echo 0)"'
before=$(traces "$probe")
check "before the demo, no host has its traces" \
	bash -c '! grep -E "rdmaio-demo|/mnt/rdmaio-|fio --server|threads: [1-9]" <<<"$1"' _ "$before"
unchanged() { test "$(traces "$probe")" = "$before"; }
demo_clients() { # CLIENTS [VAR=VALUE...]
	local c=$1
	shift
	env HOSTS=2 DEMO_SERVER=lab-server DEMO_CLIENTS="$c" DEMO_RUNTIME=1 DEMO_REPEAT=1 \
		DEMO_NFS_SIZE=4m DEMO_TIMEOUT=600 "$@" "$repo/scripts/demo-run"
}
check_fails "demo refused: a client host named twice (exit 2)" 2 \
	"DEMO_CLIENTS names 'lab-client3' twice" demo_clients "local lab-client3 lab-client3"
check_fails "demo refused: a client host that is the server (exit 2)" 2 \
	"client host 'lab-server' is the server" demo_clients "local lab-server"
check_fails "demo refused: the server under another name, by boot id (exit 2)" 2 \
	"client host 198.18.0.1 is the server lab-server \\(one machine: the same boot id\\)" \
	demo_clients "local 198.18.0.1"
check_fails "demo refused: a client host that cannot be reached, named (exit 2)" 2 \
	"cannot ssh to the client lab-client4 \\(ssh said: .*nothing was changed on any host" \
	demo_clients "local lab-client3 lab-client4"
check_fails "demo refused: a one-client verbs job with two client hosts (exit 2)" 2 \
	"jobs/verbs/bw.fio serves one client host, and DEMO_CLIENTS names 2.*fanin.fio" \
	demo_clients "local lab-client3" DEMO_JOBS=jobs/verbs/bw.fio
check "... none of them changed anything on any host" unchanged
dtmp=$(mktemp -d)
check "the demo with two client hosts (lab-client here, lab-client3 over ssh) exits 0" \
	demo_clients "local lab-client3" DEMO_RESULT="$dtmp/demo.json" \
	DEMO_JOBS="jobs/verbs/fanin.fio jobs/nfs/seq.fio"
check "... its result has three hosts, both clients' rows, their sums and overlap" \
	python3 - "$dtmp/demo.json" "$repo/results-schema/result.schema.json" <<'PY'
import json, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(sys.argv[2])))
assert sorted(r["env"]["host"]["hostname"] for r in d["remote_hosts"]) == [
    "lab-client3", "lab-server"], d["remote_hosts"]
on = sorted({(r["host"], r["jobname"]) for r in d["results"]})
want = sorted([("lab-server", "fanin-target")] + [
    (h, j) for h in ("lab-client", "lab-client3")
    for j in ("fanin-write", "seq-read-rdma", "seq-read-tcp", "seq-read-tcp-nconnect",
              "seq-write-rdma", "seq-write-tcp", "seq-write-tcp-nconnect")])
assert on == want, on
assert all(r["error"] == 0 for r in d["results"]), d["results"]
# Each workload against both TCP mounts, summed over the clients (each
# client mounted TCP nconnect=8 by the server's second address).
alls = sorted((c["workload"], c["against"]) for c in d["comparisons"] if c["host"] == "all clients")
assert alls == [(w, a) for w in ("seq-read", "seq-write") for a in ("tcp", "tcp-nconnect")], alls
for c in d["comparisons"]:
    if c["host"] == "all clients":
        assert ", 2 clients: RDMA vs TCP" in c["verdict"], c["verdict"]
# One overlap check per fio run, naming both clients. With 1 s per workload
# the emulated guests' start skew (up to about 1 s) may exceed its tolerance:
# the status is printed, not asserted (the null-engine runs above assert it).
ov = [c for c in d["checks"] if c["name"] == "overlap"]
assert len(ov) == 2 and all(c["status"] in ("pass", "flagged") and
                            "lab-client " in c["message"] and "lab-client3 " in c["message"]
                            for c in ov), ov
for c in ov:
    print("# demo overlap %s: %s" % (c["status"], c["message"]))
PY
check "... by one client host, then both: rdmaio scale's verdicts per count and its chart" \
	bash -c "test -s '$dtmp/demo-1-clients.json' && test -s '$dtmp/demo-scaling.svg' &&
		grep -q '^- seq-read, 1 client: RDMA vs TCP' '$dtmp/demo-scaling.md' &&
		grep -q '^- seq-read, 2 clients: RDMA vs TCP' '$dtmp/demo-scaling.md' &&
		grep -q '^| seq-write | 2 | .* | lab-server |' '$dtmp/demo-scaling.md'"
cat "$dtmp/demo-scaling.md" 2>/dev/null | sed 's/^/# /'
check "... and every host is as it was: no mount, export, folder or fio server left, nfsd stopped" unchanged
rm -rf "$dtmp"
done_testing
