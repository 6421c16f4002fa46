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
done_testing
