#!/bin/bash
# lab-run: --softroce --hosts 2 --timeout 420
# rdmaio in the lab, one boot for all parts. 1) rdmaio run on the client guest:
# the result records rxe0 as a software device, warns about software RDMA and
# the emulated CPU, does not take rxe0's made-up rate for a link ceiling but
# checks a stated link, validates with python3-jsonschema, and reports. 2) rdmaio run --client: fio
# --server runs on the server guest, the jobs run there through fio's
# client/server mode, the result keeps that host's numbers, and --remote-env
# records that host's own environment (its name, kernel and rxe0) through
# `rdmaio env` run there. 3) the same for a verbs job through librdmaio.so
# (engine issue) on the server guest's rxe0, without --remote-env: a warning
# says the remote environment is not recorded.
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/tests/lib.sh"
rdmaio=$repo/build/rdmaio
helper=$repo/tests/tools/result-tool.py
schema=$repo/results-schema/result.schema.json
# Under the shared repository: "$RDMAIO_SERVER_EXEC" runs in the same folder.
mkdir -p "$repo/build"
tmp=$(mktemp -d "$repo/build/tools-lab.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cat >lab.fio <<JOB
[global]
ioengine=psync
filename=/tmp/rdmaio-lab-data
size=4m
bs=64k
rate=20m
[seq-read-rdma]
rw=read
stonewall
[seq-read-tcp]
rw=read
stonewall
JOB
echo "# ${SECONDS}s: start"
check "rdmaio run in the lab writes a result" "$rdmaio" run -o lab.json lab.fio
echo "# ${SECONDS}s: run done"
check "its numbers are fio's own" python3 "$helper" fio-numbers lab.json lab.fio
echo "# ${SECONDS}s: validated"
# One python start for the environment checks: python is slow under TCG.
python3 - lab.json "$RDMAIO_RDMA_DEV" "$RDMAIO_NETDEV" <<'PY' || _tap_failed=1
import json, sys
d = json.load(open(sys.argv[1]))
failed = 0
def check(name, cond, detail):
    global failed
    print(("ok - " if cond else "not ok - ") + name)
    if not cond:
        print("#   " + json.dumps(detail))
        failed = 1
env = d["environment"]
devs = (env["status"] or {}).get("rdma_devices", [])
dev = [x for x in devs if x["name"] == sys.argv[2]]
port = dev[0]["ports"][0] if dev and dev[0]["ports"] else {}
check("the environment lists rxe0 as a software device on the lab netdev",
      env["source"] == "rdmaio" and dev and dev[0]["transport"] == "software"
      and port.get("state") == "ACTIVE" and port.get("link_layer") == "Ethernet"
      and port.get("netdev") == sys.argv[3], env)
print("# rxe0 port: " + json.dumps(port))
codes = {w["code"] for w in d["warnings"]}
check("warnings say software RDMA and emulated CPU",
      {"software-rdma", "emulated-cpu"} <= codes, sorted(codes))
cs = [c for c in d["checks"] if c["name"] == "payload-ceiling"]
check("rxe0's rate is not taken as a link ceiling: checks skipped with a warning",
      not d["links"] and cs and all(c["status"] == "skipped" for c in cs)
      and "no-link" in codes, [d["links"], cs])
print("# links: " + json.dumps(d["links"]))
sys.exit(failed)
PY
"$rdmaio" report lab.json --plot lab.svg >lab.md 2>&1
check "report in the lab draws the chart" bash -c "grep -q 'seq-read (read)' lab.md && grep -q '<svg' lab.svg"
check "report says plainly: software transport, emulated CPU" \
	bash -c "grep -q 'RDMA transport is software' lab.md && grep -q 'CPU is emulated' lab.md"
# Its -rdma/-tcp jobs use a local file, which the nfs-transport check flags
# (exit 3); the link checks themselves pass.
check "check passes the run against a stated 10 Gb/s link" \
	bash -c "'$rdmaio' check lab.json --link-gbps 10 >check.txt; [ \$? = 3 ] &&
		grep -q '^pass payload-ceiling' check.txt && ! grep -q '^flagged payload-ceiling' check.txt &&
		grep -q '^flagged nfs-transport: job seq-read-rdma uses .* which is on no NFS mount' check.txt"
fio --output-format=json+ --output=lab-fio.json lab.fio >/dev/null 2>&1
check "a stated link is checked in the lab, the honest run passes, the chart shows it" \
	bash -c "'$rdmaio' run --fio-json lab-fio.json --link-gbps 10 -o stated.json >/dev/null &&
		grep -q '\"status\": \"pass\"' stated.json &&
		'$rdmaio' report stated.json --plot stated.svg >/dev/null &&
		grep -q 'link payload ceiling' stated.svg"

echo "# ${SECONDS}s: part 1 done"
# 2) fio client/server mode across the two guests.
check "fio --server starts on the server guest" \
	"$RDMAIO_SERVER_EXEC" fio --server --daemonize=/tmp/fio-server.pid
cat >remote.fio <<JOB
[global]
ioengine=psync
filename=/tmp/rdmaio-remote-data
size=4m
bs=64k
[seq-write-rdma]
rw=write
stonewall
[seq-write-tcp]
rw=write
stonewall
JOB
ok=1
for _ in 1 2 3 4 5; do
	"$rdmaio" run --client "$RDMAIO_SERVER_IP" --remote-env "$RDMAIO_SERVER_EXEC $rdmaio env" \
		-o remote.json remote.fio >run.log 2>&1 && ok=0 && break
	sleep 1
done
[ $ok -eq 0 ] || sed "s/^/# /" run.log
check "rdmaio run --client --remote-env runs the jobs on the server guest" test $ok -eq 0
echo "# ${SECONDS}s: client run done"
srv_host=$("$RDMAIO_SERVER_EXEC" hostname)
srv_kernel=$("$RDMAIO_SERVER_EXEC" uname -r)
check "its numbers are the server's, and it records the server's name ($srv_host), kernel and $RDMAIO_RDMA_DEV" \
	python3 "$helper" remote remote.json "$RDMAIO_SERVER_IP" "$RDMAIO_SERVER_IP" \
	"$srv_host" "$srv_kernel" "$RDMAIO_RDMA_DEV" "$RDMAIO_SERVER_EXEC" "$rdmaio" env
check "the server guest is not the client guest" test "$srv_host" != "$(hostname)"
"$rdmaio" report remote.json >remote.md 2>&1
check "report shows the server guest's environment" \
	bash -c "grep -q '^- remote host $RDMAIO_SERVER_IP (fio --client $RDMAIO_SERVER_IP) is $srv_host: kernel $srv_kernel' remote.md &&
		grep -Eq '^  - RDMA device $RDMAIO_RDMA_DEV \((rxe|rdma_rxe), software\) port 1: ACTIVE' remote.md ||
		{ sed -n '/^## Setup/,/^## RDMA/p' remote.md; false; }"
check "the server really wrote the job's file" "$RDMAIO_SERVER_EXEC" test -s /tmp/rdmaio-remote-data
check "and the client did not" test ! -e /tmp/rdmaio-remote-data

# 3) A verbs job (librdmaio.so, target and client on the server guest's rxe0)
#    through the same fio --server: the remote host's RDMA numbers.
cat >verbs.fio <<JOB
[global]
ioengine=external:$repo/build/librdmaio.so
port=7479
size=16m
exitall_on_error
[target]
listen
bindname=$RDMAIO_SERVER_IP
clients=1
runtime=60
[write-rdma]
hostname=$RDMAIO_SERVER_IP
connect_timeout=30
verb=write
rw=write
bs=64k
iodepth=8
JOB
"$rdmaio" run --client "$RDMAIO_SERVER_IP" --timeout 120 -o verbs.json verbs.fio >verbs.log 2>&1
rc=$?
[ $rc -eq 0 ] || sed "s/^/# /" verbs.log
check "rdmaio run --client runs a verbs job on the server guest" test $rc -eq 0
check "its RDMA WRITE numbers are the server's" \
	python3 - verbs.json "$RDMAIO_SERVER_IP" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = [r for r in d["results"] if r["jobname"] == "write-rdma"]
assert w and w[0]["host"] == sys.argv[2] and w[0]["write"]["bw_bytes"] > 0, d["results"]
assert w[0]["write"]["io_bytes"] == 16 << 20, w[0]["write"]
assert "remote_hosts" not in d and any(
    x["code"] == "remote-environment" and "--remote-env" in x["message"]
    for x in d["warnings"]), d["warnings"]
print("# write-rdma on %s: %.1f MiB/s" % (w[0]["host"], w[0]["write"]["bw_bytes"] / 2**20))
PY
"$RDMAIO_SERVER_EXEC" sh -c 'kill $(cat /tmp/fio-server.pid)' 2>/dev/null
# One jsonschema import for all results: it is slow under TCG.
check "every result validates with python3-jsonschema" \
	python3 "$helper" validate "$schema" lab.json stated.json remote.json verbs.json
echo "# ${SECONDS}s: end"
done_testing
