#!/bin/bash
# lab-run: --softroce --hosts 2 --mem 3072 --timeout 1200
# make demo's two-host path, as on hardware: the client guest reaches the
# server guest with ssh (OpenSSH, a key, BatchMode) and sets it up with the
# server's own rdmaio. First its refusals — a SERVER, SERVER_IP or
# SERVER_DIR that ssh or a shell would read as more than a host, an address
# or a folder (exit 2, and nothing runs: no marker file appears), no key, no
# rdmaio there, not root there, the server being this host, a failure
# half-way — each naming the cause and the fix and leaving both hosts as they
# were; then the demo itself
# with short runtimes: a valid result with both hosts' environments, every
# RDMA/TCP pair, the targets on the server, no loopback flagged, the scp
# baseline, and nothing left behind on either host.
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

# Both hosts as they were: no nfsd, export, folder or fio server there; no
# mount, temporary folder or ssh master here.
untouched() {
	S bash -c '! grep -qs rdmaio-demo /etc/exports.d/rdmaio.exports &&
		! ls -d /run/rdmaio-demo.* 2>/dev/null && [ ! -e /srv/rdmaio-demo ] &&
		{ [ ! -e /proc/fs/nfsd/threads ] || [ "$(cat /proc/fs/nfsd/threads)" = 0 ]; } &&
		! pgrep -f "fio --server=sock:/run/rdmaio-dem[o]"' ||
		{ echo "the server guest was changed"; return 1; }
	! grep -E ' nfs4? ' /proc/mounts || { echo "an NFS mount is left here"; return 1; }
	! ls -d /tmp/rdmaio-demo.* 2>/dev/null || { echo "a demo folder is left here"; return 1; }
	! pgrep -f 'ControlPath=/tmp/rdmaio-dem[o]' || { echo "an ssh master is left here"; return 1; }
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
check "before the demo, neither host has its traces" untouched
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
refused "refused: no ssh key for the server; names the host and the fix" 1 \
	"cannot ssh to lab-server without a password \(ssh said: .*Permission denied" \
	"fix: set up key login as root from here \(ssh-copy-id root@lab-server\)" \
	-- scripts/demo-run
mv /root/.ssh/rdmaio-lab.off /root/.ssh/rdmaio-lab
check "... and changes nothing" untouched

refused "refused: no rdmaio build on the server" 1 \
	"lab-server has no rdmaio build in /nonexistent \(missing: build/nfsrdma build/rdmaio build/librdmaio.so\)" \
	"fix: clone rdmaio there and run 'make'.*SERVER_DIR=" \
	-- env DEMO_SERVER_DIR=/nonexistent scripts/demo-run
check "... and changes nothing" untouched

# A user with the same key; '*': no password, but not a locked account.
S useradd -m -s /bin/bash -p '*' rdmaio-nonroot
uid=$(S id -u rdmaio-nonroot)
refused "refused: ssh logs in as another user than root" 1 \
	"ssh rdmaio-nonroot@lab-server logs in as uid $uid, not root" \
	"fix: log in as root \(SERVER=root@lab-server, or 'User root'" \
	-- env DEMO_SERVER=rdmaio-nonroot@lab-server scripts/demo-run
check "... and changes nothing" untouched

refused "refused: a server that is this host" 1 \
	"lab-client \($RDMAIO_CLIENT_IP\) is this host: two hosts need another one" "HOSTS=1" \
	-- env DEMO_SERVER=lab-client RDMAIO_SERVER_IP="$RDMAIO_CLIENT_IP" scripts/demo-run
check "... and changes nothing" untouched

# Half-way: the export folder cannot be made (a file is in its place), after
# the demo made its folder in /run and started nfsd there.
S touch /srv/rdmaio-demo
refused "a failure half-way on the server stops the demo" 1 \
	"mkdir: cannot create directory .*/srv/rdmaio-demo.*File exists" \
	"setting up lab-server failed" \
	-- scripts/demo-run
S rm /srv/rdmaio-demo
check "... and what it had made there is undone (nfsd stopped, its folder gone)" untouched

# Interrupted while its jobs run, as Ctrl-C would (SIGTERM to its process
# group: a background job ignores SIGINT): it stops and undoes everything.
setsid scripts/demo-run >"$tmp/stopped.out" 2>&1 &
pid=$!
for _ in $(seq 300); do
	grep -q 'running .* job files' "$tmp/stopped.out" && break
	sleep 0.5
done
sleep 5
kill -TERM -- "-$pid"
wait "$pid" && rc=0 || rc=$?
check "a demo stopped while its jobs run exits non-zero ($rc) and tears down" \
	bash -c '[ "$1" != 0 ] && grep -q "torn down" "$2" || { cat "$2"; exit 1; }' _ "$rc" "$tmp/stopped.out"
check "... leaving both hosts as they were" untouched

t0=$SECONDS
out=$(scripts/demo-run 2>&1) && rc=0 || rc=$?
printf '%s\n' "$out" | grep -E '^\[ *[0-9]+ s\]' | sed 's/^/# /'
echo "# the demo took $((SECONDS - t0)) s with ${DEMO_RUNTIME} s per workload"
check "the demo between the two guests exits 0" \
	bash -c "[ $rc = 0 ] || { printf '%s\n' \"\$0\" | tail -n 40; exit 1; }" "$out"
check "its result validates with python3-jsonschema" \
	python3 tests/tools/result-tool.py validate results-schema/result.schema.json "$DEMO_RESULT"
check "it has both hosts, every RDMA/TCP pair, targets on the server, no loopback" \
	python3 - "$DEMO_RESULT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["host"]["hostname"] == "lab-client" and "198.18.0.2" in d["host"]["addresses"], d["host"]
rh = d["remote_hosts"]
assert len(rh) == 1 and rh[0]["env"]["host"]["hostname"] == "lab-server", rh
assert "198.18.0.1" in rh[0]["env"]["host"]["addresses"], rh[0]["env"]["host"]
st = rh[0]["env"]["environment"]["status"]
assert st["nfsd"]["running"] and any(e["path"] == "/srv/rdmaio-demo" for e in st["exports"]), st
hosts = {h["role"]: h for h in d["fio"]["hosts"]}
assert hosts["server"]["host"] == "lab-server" and not hosts["server"]["local"], hosts
assert hosts["client"]["host"] == "lab-client" and hosts["client"]["local"], hosts
pairs = {c["workload"] for c in d["comparisons"]}
want = {"rtt", "seq-write", "seq-read", "rand-read", "rand-write", "randrw"}
assert want <= pairs, pairs
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
import json, sys
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
assert "lab-server:/srv/rdmaio-demo/rdmaio-scp.0" in b["argv"], b["argv"]
assert sorted(h["host"] for h in b["host_cpu"]) == names, b["host_cpu"]
print("# scp: %d bytes in %.2f s, %.1f MiB/s" % (b["bytes"], b["elapsed_s"], b["bw_bytes"] / 2**20))
PY
check "the report opens with the verdicts" \
	bash -c "build/rdmaio report '$DEMO_RESULT' >'$tmp/report.md'; head -n 12 '$tmp/report.md';
		head -n 12 '$tmp/report.md' | grep -q '^- seq-write: RDMA vs TCP ' &&
		grep -q '^- against scp (one file, 4.00 MiB in ' '$tmp/report.md' &&
		grep -q '^| scp (--baseline) | ' '$tmp/report.md'"
check "the chart draws, as a PNG" build/rdmaio report "$DEMO_RESULT" --plot "$tmp/demo.png"
check "the report says where each part ran" \
	bash -c "build/rdmaio report '$DEMO_RESULT' | grep -q '^- fio client/server mode: server jobs on lab-server (sock:'"
check "after the demo, both hosts are as they were" untouched
done_testing
