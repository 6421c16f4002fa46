#!/bin/bash
# lab-run: --softroce --mem 3072 --timeout 900
# Every canned job file runs with plain fio in the lab and finishes without error,
# with short runtimes; the NFS jobs run on mounts that really are proto=rdma,
# proto=tcp and proto=tcp with nconnect=8 (by a second address of the
# server: one address keeps one NFS client), read from the mount table
# while fio runs.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
# fio takes a time with its unit: the sweep's 20 sizes a quarter second each.
export RDMAIO_ENGINE=$PWD/build/librdmaio.so RDMAIO_RUNTIME=1 RDMAIO_SWEEP_RUNTIME=250ms RDMAIO_CLIENTS=1
export RDMAIO_NFS_SIZE=8m RDMAIO_NFS_RDMA_DIR=/mnt/jobs-rdma RDMAIO_NFS_TCP_DIR=/mnt/jobs-tcp
export RDMAIO_NFS_TCPN_DIR=/mnt/jobs-tcpn

# runjob FILE: fio exits 0 and no job in its JSON reports an error.
runjob() {
	timeout 600 fio --output-format=json --output="$tmp/out.json" "$1" || return 1
	python3 - "$tmp/out.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
doc = json.loads(text[text.index('{'):])
bad = [(j["jobname"], j["error"]) for j in doc["jobs"] if j["error"]]
sys.exit("jobs with errors: %s" % bad if bad else 0)
PY
}
for f in jobs/verbs/*.fio jobs/latency/*.fio; do
	check "$f runs without error" runjob "$f"
done

nr=build/nfsrdma
exp=/srv/jobs-canned
mkdir -p $exp $RDMAIO_NFS_RDMA_DIR $RDMAIO_NFS_TCP_DIR $RDMAIO_NFS_TCPN_DIR
mount -t tmpfs -o size=600m tmpfs $exp
ip addr add "$RDMAIO_LAB_SPARE_IP/24" dev "$RDMAIO_NETDEV"
check "nfsd with an RDMA listener" $nr server start
check "the export" $nr export add $exp --clients "$RDMAIO_SERVER_IP" --options rw,no_root_squash,fsid=9
check "NFSv3 mount over RDMA" $nr mount "$RDMAIO_SERVER_IP:$exp" $RDMAIO_NFS_RDMA_DIR --proto rdma --vers 3
check "NFSv3 mount over TCP" $nr mount "$RDMAIO_SERVER_IP:$exp" $RDMAIO_NFS_TCP_DIR --proto tcp --vers 3
check "NFSv3 mount over TCP with nconnect=8, by the second address" \
	$nr mount "$RDMAIO_LAB_SPARE_IP:$exp" $RDMAIO_NFS_TCPN_DIR --proto tcp --vers 3 --nconnect 8

# Sample the mount table while the NFS jobs run.
(while :; do awk '$3 == "nfs" { print $2, $4 }' /proc/mounts; sleep 1; done) >"$tmp/mounts" &
sampler=$!
for f in jobs/nfs/*.fio; do
	check "$f runs without error" runjob "$f"
done
kill $sampler
proto_of() { # MOUNTPOINT -> the protos seen for it while fio ran
	awk -v m="$1" '$1 == m' "$tmp/mounts" | grep -o ',proto=[a-z0-9]*' | sort -u | tr -d ',' | tr '\n' ' '
}
check "the RDMA directory was proto=rdma throughout the NFS jobs" \
	test "$(proto_of $RDMAIO_NFS_RDMA_DIR)" = "proto=rdma "
check "the TCP directory was proto=tcp throughout the NFS jobs" \
	test "$(proto_of $RDMAIO_NFS_TCP_DIR)" = "proto=tcp "
check "the TCP nconnect directory was proto=tcp with nconnect=8 throughout" \
	bash -c 'test "$(awk -v m="$1" "\$1 == m" "$2" | grep -o ",proto=tcp,nconnect=8," | sort -u)" = ",proto=tcp,nconnect=8," &&
		! awk -v m="$1" "\$1 == m" "$2" | grep -v ",nconnect=8,"' _ $RDMAIO_NFS_TCPN_DIR "$tmp/mounts"
check "the NFS jobs' files landed on the server's export" \
	bash -c "ls $exp | grep -q rdmaio-seq && ls $exp | grep -q rdmaio-rand"

# One host: every peer is this host's own address, and rdmaio says so.
check "rdmaio run of the latency and NFS files on one host" \
	build/rdmaio run --timeout 300 -o "$tmp/one.json" jobs/latency/rdma-vs-tcp.fio jobs/nfs/seq.fio
check "... flags a loopback for every job with a peer, over RDMA and TCP" \
	python3 - "$tmp/one.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lb = {c["message"].split(" ")[1]: c for c in d["checks"] if c["name"] == "loopback"}
want = {"send-rdma", "rtt-rdma", "rtt-tcp", "seq-write-rdma", "seq-write-tcp",
        "seq-read-rdma", "seq-read-tcp", "seq-write-tcp-nconnect", "seq-read-tcp-nconnect"}
assert set(lb) == want, sorted(lb)
assert all(c["status"] == "flagged" and c["likely_causes"] for c in lb.values()), lb
assert "TCP over loopback never reaches a NIC" in lb["seq-read-tcp"]["message"], lb["seq-read-tcp"]
assert "looped back by the device" in lb["seq-read-rdma"]["message"], lb["seq-read-rdma"]
# The nconnect mount's transport is what its name says; the fairness check
# has all three sides.
nt = [c for c in d["checks"] if c["name"] == "nfs-transport"]
assert nt and all(c["status"] == "pass" for c in nt), nt
fair = [c for c in d["checks"] if c["name"] == "fairness"]
assert sorted(c["message"].split(" ")[0] for c in fair) == ["seq-read", "seq-write"], fair
assert all(c["settings"]["tcp_nconnect"]["nconnect"] == 8 for c in fair), fair
PY
ip addr del "$RDMAIO_LAB_SPARE_IP/24" dev "$RDMAIO_NETDEV"
rm -rf "$tmp"
done_testing
