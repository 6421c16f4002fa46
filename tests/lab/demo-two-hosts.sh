#!/bin/bash
# lab-run: --softroce --hosts 2 --mem 3072 --timeout 1200
# make demo's two-host path, as on hardware: the client guest reaches the
# server guest with ssh (OpenSSH, a key, BatchMode) and sets it up with the
# server's own rdmaio. First what it refuses — a SERVER, SERVER_IP or
# SERVER_DIR that ssh or a shell would read as more than a host, an address
# or a folder (exit 2, and nothing runs: no marker file appears), no key,
# no rdmaio there, not root there, the server being this host, a running
# nfsd without RDMA, a failure half-way — each naming the cause and the fix
# and leaving both hosts as they were; then, with an export of
# /srv/rdmaio-demo of the server's own (in /etc/exports and from
# `exportfs -o`), the demo stopped while it runs, and the demo itself with
# short runtimes on a running nfsd: a valid result with both hosts'
# environments, every RDMA/TCP pair (each NFS workload against TCP and TCP
# nconnect=8, the latter by the server's second address, which the demo
# adds and removes), the targets on the server, no loopback
# flagged, the scp baseline, every ssh and scp with -- before the host, and
# both hosts as they were before, that export and nfsd included.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
S() { "$RDMAIO_SERVER_EXEC" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One round: the rounds are tested on the host (tests/tools/rounds-host.sh);
# here the suite's time goes to the two guests.
export HOSTS=2 DEMO_SERVER=lab-server DEMO_RUNTIME=1 DEMO_SWEEP_RUNTIME=1 DEMO_REPEAT=1
export DEMO_NFS_SIZE=4m DEMO_RESULT=$tmp/demo.json DEMO_TIMEOUT=600

# The processes a host runs, by pid and command line: userspace only, and
# without the lab's own or this probe's (rdmaio-probe). rpcbind, rpc.mountd
# and rpc.statd, which nfsrdma starts for its server and mounts and stops
# with them, are listed apart: with $1 = nfs, only they.
procs() {
	ps -N --ppid 2 -p 2 -o pid=,args= | awk -v want="${1:-}" '
		/rdmaio-probe|lab\/guest\/|lab\/(server|host)-exec|demo-two-hosts|^ *[0-9]+ ps -N --ppid 2 / { next }
		{ d = $2 ~ /(^|\/)(rpcbind|rpc\.mountd|rpc\.statd)$/ }
		(want == "nfs") == d { print }'
}

# What the demo could touch on either host, as a text to compare: exports
# (in effect and in the files), nfsd, folders, mounts and processes.
state() {
	echo "server:"
	S bash -c "$(declare -f procs)"'
		# rdmaio-probe
		echo "exports:"; exportfs -v
		echo "in the exports files:"
		cat /etc/exports /etc/exports.d/*.exports 2>/dev/null | grep -v -e "^#" -e "^$"
		echo "nfsd: threads $(cat /proc/fs/nfsd/threads 2>/dev/null || echo 0), listeners $(tr "\n" " " 2>/dev/null </proc/fs/nfsd/portlist)"
		echo "folders:"; find /srv /run -maxdepth 2 \( -path "/srv*" -o -name "rdmaio-demo*" \) -printf "%p %m %s\n" | sort
		echo "mounts:"; grep -E " (/srv|/run/rdmaio-demo)" /proc/mounts
		echo "addresses:"; ip -o addr show | awk "{ print \$2, \$4 }"
		echo "processes:"; procs'
	echo "client:"
	echo "nfs mounts:"
	grep -E ' nfs4? ' /proc/mounts
	echo "folders:"
	ls -d /mnt/* /tmp/rdmaio-demo.* 2>/dev/null
	echo "processes:"
	procs
}

# as_before STATE: both hosts are in STATE again (a process that ends as
# the demo ends gets a few seconds); shows what differs when not.
as_before() {
	local now
	for _ in $(seq 20); do
		now=$(state)
		[ "$now" = "$1" ] && return 0
		sleep 0.5
	done
	diff <(printf '%s\n' "$1") <(printf '%s\n' "$now")
	return 1
}

# No marker file on either guest: what a hostile value would have run.
no_pwned() {
	[ ! -e /tmp/pwned ] || { echo "/tmp/pwned was made on the client"; return 1; }
	S test ! -e /tmp/pwned || { echo "/tmp/pwned was made on the server"; return 1; }
}

# refused NAME STATUS REGEX... -- CMD...: CMD exits STATUS, its output
# matches every REGEX.
refused() {
	local name=$1 want=$2 res=() out rc re
	shift 2
	while [ "$1" != -- ]; do res+=("$1"); shift; done
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	for re in "${res[@]}"; do
		printf '%s\n' "$out" | grep -Eq -- "$re" || { rc="$rc, and no line matches /$re/"; break; }
	done
	if [ "$rc" = "$want" ]; then
		check "$name" true
	else
		check "$name" sh -c 'printf "%s\n" "$1"; exit 1' _ "exit $rc, not $want; output: $out"
	fi
}

S rm -f /tmp/pwned
rm -f /tmp/pwned
base0=$(state)
# nfsrdma's daemons on both hosts, to say at the end which it left running.
nfs_daemons() {
	procs nfs | sed 's/^ */client: /'
	S bash -c "$(declare -f procs); procs nfs # rdmaio-probe" | sed 's/^ */server: /'
}
nfs0=$(nfs_daemons)
untouched() { as_before "$base0"; }
check "before the demo, neither host has its traces" \
	bash -c '! grep -E "rdmaio-demo|/mnt/rdmaio-|fio --server|nfsd: threads [1-9]" <<<"$1"' _ "$base0"

# Hosts are hosts: refused before anything runs, even ssh.
refused "refused: DEMO_SERVER '-oProxyCommand=touch /tmp/pwned', an ssh option (exit 2)" 2 \
	"^demo: DEMO_SERVER '-oProxyCommand=touch /tmp/pwned' begins with '-', which ssh .* would read as an option: give the server's host name or address" \
	-- env DEMO_SERVER='-oProxyCommand=touch /tmp/pwned' scripts/demo-run
check "... it ran nothing (no /tmp/pwned on either guest)" no_pwned
check "... and changed nothing" untouched
refused "refused: make demo LAB=0 SERVER='-oProxyCommand=touch /tmp/pwned' (exit 2)" 2 \
	"^demo: SERVER '-oProxyCommand=touch /tmp/pwned' begins with '-'" \
	-- env LAB=0 SERVER='-oProxyCommand=touch /tmp/pwned' SERVER_IP="$RDMAIO_SERVER_IP" scripts/demo
refused "refused: SERVER_IP with a newline and a fio option after it (exit 2)" 2 \
	"^demo: RDMAIO_SERVER_IP \\$'198.18.0.1\\\\nexec_prerun=touch /tmp/pwned' holds a blank or a control character" \
	-- env RDMAIO_SERVER_IP=$'198.18.0.1\nexec_prerun=touch /tmp/pwned' scripts/demo-run
# A folder whose name the server's shell would run, holding rdmaio's build:
# it passes every check on the server, so only the demo's own refuses it.
hostile_dir='/tmp/d;touch$IFS/tmp/pwned;'
S mkdir -p "$hostile_dir"
S ln -s "$PWD/build" "$hostile_dir/build"
refused "refused: SERVER_DIR with shell syntax, though it holds rdmaio's build (exit 2)" 2 \
	"^demo: DEMO_SERVER_DIR '/tmp/d;touch\\\$IFS/tmp/pwned;' holds ';', which the server's shell would read as syntax" \
	"the demo takes only letters, digits and / . _ \\+ , @ = - in it" \
	-- env DEMO_SERVER_DIR="$hostile_dir" scripts/demo-run
S rm -r /tmp/d\;touch\$IFS
check "... none of them ran anything (no /tmp/pwned on either guest)" no_pwned
check "... or changed anything" untouched

mv /root/.ssh/rdmaio-lab /root/.ssh/rdmaio-lab.off
refused "refused: no ssh key for the server; names the host and the fix (exit 2)" 2 \
	"cannot ssh to the server lab-server \(ssh said: .*Permission denied" \
	"key login as root \(ssh-copy-id root@lab-server\)" \
	-- scripts/demo-run
mv /root/.ssh/rdmaio-lab.off /root/.ssh/rdmaio-lab
check "... and changes nothing" untouched

refused "refused: no rdmaio build on the server (exit 2)" 2 \
	"lab-server \(the server\) has no rdmaio build in /nonexistent \(missing: build/nfsrdma build/rdmaio build/librdmaio.so\)" \
	"fix: clone rdmaio there and run 'make'.*SERVER_DIR=" \
	-- env DEMO_SERVER_DIR=/nonexistent scripts/demo-run
check "... and changes nothing" untouched

# A user with the same key; '*': no password, but not a locked account.
S useradd -m -s /bin/bash -p '*' rdmaio-nonroot
uid=$(S id -u rdmaio-nonroot)
refused "refused: ssh logs in as another user than root (exit 2)" 2 \
	"ssh rdmaio-nonroot@lab-server \(the server\) logs in as uid $uid, not root" \
	"fix: log in as root \(root@lab-server, or 'User root'" \
	-- env DEMO_SERVER=rdmaio-nonroot@lab-server scripts/demo-run
check "... and changes nothing" untouched

refused "refused: a server that is this host (exit 2)" 2 \
	"lab-client \($RDMAIO_CLIENT_IP\) is this host: two hosts need another one" "HOSTS=1" \
	-- env DEMO_SERVER=lab-client RDMAIO_SERVER_IP="$RDMAIO_CLIENT_IP" scripts/demo-run
check "... and changes nothing" untouched

# The TCP nconnect mounts' second address: one the server holds, on the
# RDMA link's device (the lab's spare one is added only when none is given).
refused "refused: SERVER_IP2 that the server does not hold; names its addresses and the fix" 1 \
	"SERVER_IP2 198.18.0.99 is not an address of lab-server \(its addresses: .*198.18.0.1 " \
	"fix: give an address the server holds on the RDMA link's network" \
	-- env RDMAIO_SERVER_IP2=198.18.0.99 scripts/demo-run
check "... and changes nothing" untouched
refused "refused: SERVER_IP2 on another device of the server (lo)" 1 \
	"SERVER_IP2 127.0.0.1 is on lab-server's lo, not on eth0 with 198.18.0.1" \
	-- env RDMAIO_SERVER_IP2=127.0.0.1 scripts/demo-run
check "... and changes nothing" untouched

# An NFS server of the server's own, without RDMA (NFSv4 alone: no
# rpcbind needed): the demo would have to add a listener that the kernel
# cannot take away again.
S sh -c 'modprobe nfsd && { grep -qs " /proc/fs/nfsd " /proc/mounts || mount -t nfsd nfsd /proc/fs/nfsd; } &&
	rpc.nfsd -N 3 2'
base=$(state)
refused "refused: nfsd runs on the server without an RDMA listener; names it and the fix" 1 \
	"nfsd runs on lab-server without threads or without an RDMA listener on port 20049 \(threads: 2; listeners: tcp 2049" \
	"fix: add it there yourself, and it stays: .*/build/nfsrdma server start" \
	-- scripts/demo-run
check "... and that nfsd runs on as it was (threads, listeners), nothing else changed" as_before "$base"
S rpc.nfsd 0
check "... (stopped by the test)" untouched

# Half-way: the export folder cannot be made (/srv is read-only), after the
# demo made its folder in /run and started nfsd there.
S mount -t tmpfs -o ro,size=1m tmpfs /srv
base=$(state)
refused "a failure half-way on the server stops the demo" 1 \
	"mktemp: failed to create directory via template '/srv/rdmaio-demo.XXXXXX': Read-only file system" \
	"setting up lab-server failed" \
	-- scripts/demo-run
check "... and what it had made there is undone (nfsd stopped, its folder gone)" as_before "$base"
S umount /srv

# What was there stays: a folder /srv/rdmaio-demo with a file, exported to
# this client with options of its own in /etc/exports and to another host
# with `exportfs -o` (in etab alone, which nfsrdma's `exportfs -r` drops).
S cp /etc/exports /root/exports.before
S sh -c 'mkdir /srv/rdmaio-demo && echo mine >/srv/rdmaio-demo/keep &&
	echo "/srv/rdmaio-demo 198.18.0.2(ro,sync,root_squash,no_subtree_check,fsid=77)" >>/etc/exports &&
	exportfs -ra && exportfs -o rw,async,no_subtree_check,fsid=78 192.0.2.9:/srv/rdmaio-demo'
base=$(state)
etab_but_demo() {
	S awk -F '\t' '$1 !~ /^\/srv\/rdmaio-demo\.[A-Za-z0-9]+$/' /var/lib/nfs/etab | sort
}
etab0=$(etab_but_demo)
check "the server's own exports of /srv/rdmaio-demo are in effect" \
	bash -c 'grep -c "^/srv/rdmaio-demo	" <<<"$1" | grep -qx 2' _ "$etab0"

# Interrupted while its jobs run, as Ctrl-C would (SIGTERM to its process
# group: a background job ignores SIGINT): it stops and undoes everything.
setsid scripts/demo-run >"$tmp/stopped.out" 2>&1 &
pid=$!
for _ in $(seq 300); do
	grep -q 'running .* job files' "$tmp/stopped.out" && break
	sleep 0.5
done
check "while the demo runs, the server's own exports are there with their options" \
	bash -c '[ "$1" = "$2" ] || { diff <(echo "$1") <(echo "$2"); exit 1; }' _ "$etab0" "$(etab_but_demo)"
sleep 3
kill -TERM -- "-$pid"
wait "$pid" && rc=0 || rc=$?
check "a demo stopped while its jobs run exits non-zero ($rc) and tears down" \
	bash -c '[ "$1" != 0 ] && grep -q "torn down" "$2" || { cat "$2"; exit 1; }' _ "$rc" "$tmp/stopped.out"
check "... leaving both hosts as they were: the server's exports with their options, nfsd stopped" \
	as_before "$base"

# The demo itself, on an nfsd that runs already (with RDMA, 3 threads), with
# every ssh and scp it runs seen on their way (a wrapper on PATH that
# notes the arguments and runs the real one).
S build/nfsrdma server start --threads 3 >/dev/null
base=$(state)
check "nfsrdma server start kept the server's own exports of /srv/rdmaio-demo, the exportfs -o one too" \
	bash -c '[ "$1" = "$2" ] || { diff <(echo "$1") <(echo "$2"); exit 1; }' _ "$etab0" "$(etab_but_demo)"
mkdir "$tmp/wrap"
for p in ssh scp; do
	printf '#!/bin/bash\nprintf "%%s\\n" "$(printf "%%q " "${0##*/}" "$@")" >>%q\nexec /usr/bin/%s "$@"\n' \
		"$tmp/ssh.log" "$p" >"$tmp/wrap/$p"
	chmod +x "$tmp/wrap/$p"
done
t0=$SECONDS
out=$(PATH=$tmp/wrap:$PATH scripts/demo-run 2>&1) && rc=0 || rc=$?
printf '%s\n' "$out" | grep -E '^\[ *[0-9]+ s\]' | sed 's/^/# /'
echo "# the demo took $((SECONDS - t0)) s with ${DEMO_RUNTIME} s per workload"
check "the demo between the two guests exits 0" \
	bash -c "[ $rc = 0 ] || { printf '%s\n' \"\$0\" | tail -n 40; exit 1; }" "$out"
check "its result validates with python3-jsonschema" \
	python3 tests/tools/result-tool.py validate results-schema/result.schema.json "$DEMO_RESULT"
check "it has both hosts, every RDMA/TCP pair, targets on the server, no loopback" \
	python3 - "$DEMO_RESULT" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["host"]["hostname"] == "lab-client" and "198.18.0.2" in d["host"]["addresses"], d["host"]
rh = d["remote_hosts"]
assert len(rh) == 1 and rh[0]["env"]["host"]["hostname"] == "lab-server", rh
assert "198.18.0.1" in rh[0]["env"]["host"]["addresses"], rh[0]["env"]["host"]
st = rh[0]["env"]["environment"]["status"]
# Its own folder, exported to this client, beside the server's own export.
own = [e for e in st["exports"] if re.fullmatch(r"/srv/rdmaio-demo\.[A-Za-z0-9]+", e["path"])]
assert st["nfsd"]["running"] and len(own) == 1 and own[0]["clients"] == "198.18.0.2", st
assert {"ro", "root_squash"} <= set([e for e in st["exports"] if e["path"] == "/srv/rdmaio-demo"][0]["options"]), st
# Through scripts/demo-ssh, given the forwarded socket's path for %h; it
# runs ssh with -- before the host (the ssh calls' own check is below).
argv = rh[0]["command"]
assert argv[0].endswith("/scripts/demo-ssh") and re.fullmatch(
    r"/tmp/rdmaio-demo\.[A-Za-z0-9]+/hosts/h0", argv[1]) and argv[3] == "env", argv
hosts = {h["role"]: h for h in d["fio"]["hosts"]}
assert hosts["server"]["host"] == "lab-server" and not hosts["server"]["local"], hosts
assert hosts["client"]["host"] == "lab-client" and hosts["client"]["local"], hosts
pairs = {c["workload"] for c in d["comparisons"]}
want = {"rtt", "seq-write", "seq-read", "rand-read", "rand-write", "randrw"}
assert want <= pairs, pairs
# Each NFS workload against both TCP mounts, each side its own job.
nfs = want - {"rtt"}
three = {(c["workload"], c["against"]) for c in d["comparisons"] if c["workload"] in nfs}
assert three == {(w, a) for w in nfs for a in ("tcp", "tcp-nconnect")}, three
assert all(c["tcp"]["jobname"] == c["workload"] + "-" + c["against"] for c in d["comparisons"])
on = {r["jobname"]: r["host"] for r in d["results"]}
assert on["bw-target-send"] == on["rtt-tcp-server"] == "lab-server", on
assert on["write-bw"] == on["seq-read-tcp"] == "lab-client", on
assert not [r for r in d["results"] if r["error"]], [r for r in d["results"] if r["error"]]
flagged = [c for c in d["checks"] if c["status"] == "flagged"]
assert not flagged, flagged
lb = [c for c in d["checks"] if c["name"] == "loopback"]
assert len(lb) >= 10 and all(c["status"] == "pass" for c in lb), lb
print("# %d jobs, pairs %s; seq-read RDMA/TCP %.2f" % (len(d["results"]), sorted(pairs),
      [c for c in d["comparisons"] if c["workload"] == "seq-read"][0]["bw_ratio"]))
PY
check "it carries both hosts' CPU over each client job, a verdict per pair and the scp copy" \
	python3 - "$DEMO_RESULT" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
cpu = d["cpu"]
print("# cpu: " + cpu["match"])
assert cpu["matched"], cpu["match"]
names = sorted(h["host"] for h in cpu["hosts"])
assert names == ["lab-client", "lab-server"] and all(h["readings"] > 20 for h in cpu["hosts"]), cpu
for r in d["results"]:
    if r["host"] == "lab-client":
        assert r["host_cpu"] and sorted(h["host"] for h in r["host_cpu"]) == names, r
        assert all(h["busy_s"] > 0 for h in r["host_cpu"]), r["host_cpu"]
for c in d["comparisons"]:
    assert sorted(h["host"] for h in c["host_cpu_per_gib"]) == names, c
    v = c["verdict"]
    assert (v.startswith(c["workload"] + ": RDMA vs TCP ") or
            v.startswith("%s (%s): RDMA vs TCP " % (c["workload"], c["direction"]))), v
    assert "on lab-server" in v, v
    assert v.endswith("(software RDMA on an emulated CPU: ratios only)"), v
    print("# " + v)
# The NFS comparisons' baseline: a file of their size, copied here with scp.
b = d["baselines"]
assert [x["name"] for x in b] == ["scp"] and b[0]["error"] is None, b
b = b[0]
assert b["bytes"] == 4 << 20 and b["argv"][0] == "scp", b
src = [w for w in b["argv"] if w.startswith("lab-server:")]
assert len(src) == 1 and re.fullmatch(r"lab-server:/srv/rdmaio-demo\.[A-Za-z0-9]+/rdmaio-scp\.0", src[0]), b["argv"]
assert b["argv"][b["argv"].index(src[0]) - 1] == "--", b["argv"]
assert sorted(h["host"] for h in b["host_cpu"]) == names, b["host_cpu"]
print("# scp: %d bytes in %.2f s, %.1f MiB/s" % (b["bytes"], b["elapsed_s"], b["bw_bytes"] / 2**20))
PY
check "the report opens with the verdicts, RDMA against both TCP mounts first" \
	bash -c "build/rdmaio report '$DEMO_RESULT' >'$tmp/report.md'; head -n 20 '$tmp/report.md';
		head -n 3 '$tmp/report.md' | grep -Eq '^- seq-write: RDMA [0-9.]+x TCP, [0-9.]+x TCP nconnect=8 in bandwidth$' &&
		head -n 20 '$tmp/report.md' | grep -q '^- seq-write: RDMA vs TCP ' &&
		grep -q '^- against scp (one file, 4.00 MiB in ' '$tmp/report.md' &&
		grep -q '^| scp (--baseline) | ' '$tmp/report.md'"
check "the report's three-way table and lines hold the result's figures" \
	python3 tests/tools/result-tool.py three "$tmp/report.md" "$DEMO_RESULT" "TCP nconnect=8"
awk '/^RDMA against both TCP mounts/ { on = 1 } on && /^$/ && ++blank == 2 { exit } on' \
	"$tmp/report.md" | sed 's/^/# /'
check "each NFS workload's fairness check passes: the sides differ only in the transport" \
	python3 - "$DEMO_RESULT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
nfs = sorted(set(c["workload"] for c in d["comparisons"] if c["workload"].startswith(("seq-", "rand"))))
fair = [c for c in d["checks"] if c["name"] == "fairness"]
assert nfs and sorted(c["settings"]["rdma"]["jobname"][:-5] for c in fair) == nfs, (nfs, fair)
for c in fair:
    r, t, n = (c["settings"][k] for k in ("rdma", "tcp", "tcp_nconnect"))
    assert c["status"] == "pass", c
    assert (r["proto"], t["proto"], n["proto"]) == ("rdma", "tcp", "tcp") and r["source"] == t["source"], c
    # nconnect=8 by the server's second address: a client of its own.
    assert (t["nconnect"] or 1) == 1 and n["nconnect"] == 8, c
    assert n["source"] == "198.18.0.11:" + r["source"].split(":", 1)[1] and n["server"] == "lab-server", c
    # The TCP mounts took the RDMA mount's sizes (512 KiB on Soft-RoCE).
    assert r["rsize"] == t["rsize"] == n["rsize"] and r["wsize"] == t["wsize"] == n["wsize"], c
    # nfsd is the server's own here, with the test's threads.
    assert r["server"] == "lab-server" and r["nfsd_threads"] > 0 and r["export_sync"] == "sync", c
    # fio's client mode printed no options for most jobs: the job file's.
    assert r["depth"] in (128, 512), c
print("# " + fair[0]["message"])
PY
check "the report shows the three mounts' settings side by side" \
	bash -c "sed -n '/^## NFS settings side by side/,/^Fairness/p' '$tmp/report.md' | tee /dev/stderr |
		grep -Eq '^\| rsize \| ([0-9]+) \| \1 \| \1 \|$' &&
		grep -q '^| setting | RDMA | TCP | TCP nconnect |$' '$tmp/report.md' &&
		grep -q '^| nconnect | 1 | 1 | 8 |$' '$tmp/report.md'"
check "the chart draws, as a PNG" build/rdmaio report "$DEMO_RESULT" --plot "$tmp/demo.png"
check "the report says where each part ran" \
	bash -c "build/rdmaio report '$DEMO_RESULT' | grep -q '^- fio client/server mode: server jobs on lab-server (sock:'"
check "every ssh and scp the demo ran put -- before the server" bash -c '
	n=0
	while IFS= read -r line; do
		eval "a=($line)"
		n=$((n + 1))
		for ((i = 1; i < ${#a[@]}; i++)); do [ "${a[i]}" = -- ] && break; done
		case ${a[i + 1]:-} in
		lab-server | lab-server:*) ;;
		*) echo "no -- right before the server: $line"; exit 1 ;;
		esac
	done <"$1"
	echo "# $n calls of ssh and scp"
	[ "$n" -ge 6 ]' _ "$tmp/ssh.log"
check "after the demo, both hosts are as they were: its export gone, the server's own there with their options, nfsd running with its threads" \
	as_before "$base"
check "... its own export gone" bash -c '! "$RDMAIO_SERVER_EXEC" exportfs -v | grep "^/srv/rdmaio-demo\."'

S build/nfsrdma server stop >/dev/null
S sh -c 'exportfs -u 192.0.2.9:/srv/rdmaio-demo; cp /root/exports.before /etc/exports; exportfs -ra
	rm -r /srv/rdmaio-demo'
check "after the demo and the test's own server state, both hosts are as they were" untouched
check "... and no rpcbind, rpc.mountd or rpc.statd that nfsrdma started runs on either" \
	bash -c '[ "$1" = "$2" ] || { diff <(echo "$1") <(echo "$2"); exit 1; }' _ "$nfs0" "$(nfs_daemons)"
done_testing
