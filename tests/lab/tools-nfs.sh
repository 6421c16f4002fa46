#!/bin/bash
# lab-run: --softroce --timeout 360
# rdmaio run on NFS over RDMA and over TCP (nfsrdma sets both up, NFSv3, one
# export): the result lists both mounts as seen while fio ran, its nfs-transport
# checks pass for honestly named jobs and flag a job whose name says rdma while
# its files sit on the TCP mount, it pairs the -rdma and -tcp jobs, and every
# result validates with python3-jsonschema.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/tests/lib.sh"
rdmaio=$repo/build/rdmaio
nr=$repo/build/nfsrdma
helper=$repo/tests/tools/result-tool.py
schema=$repo/results-schema/result.schema.json
tmp=$(mktemp -d)
cd "$tmp" || exit 1
exp=/srv/tools-nfs rdir=/mnt/tools-rdma tdir=/mnt/tools-tcp
mkdir -p $exp $rdir $tdir
mount -t tmpfs -o size=64m tmpfs $exp
check "nfsd with an RDMA listener" $nr server start
check "the export" $nr export add $exp --clients "$RDMAIO_SERVER_IP" --options rw,no_root_squash,fsid=11
check "NFSv3 mount over RDMA" $nr mount "$RDMAIO_SERVER_IP:$exp" $rdir --proto rdma --vers 3
check "NFSv3 mount over TCP" $nr mount "$RDMAIO_SERVER_IP:$exp" $tdir --proto tcp --vers 3
# The kernel keeps one NFSv3 client per server address and protocol: a
# second TCP mount asking for 8 connections would silently get the first
# one's single connection (Linux 6.1 does). nfsrdma refuses it up front.
mkdir -p /mnt/tools-tcp8
check_fails "a second TCP mount of the server with --nconnect 8 is refused, naming the first" 1 \
	"with 8 connections: .* is mounted over tcp on $tdir with 1, and the kernel would give this mount that client and its connections" \
	$nr mount "$RDMAIO_SERVER_IP:$exp" /mnt/tools-tcp8 --proto tcp --vers 3 --nconnect 8
check "... and nothing is mounted there" bash -c '! grep -q " /mnt/tools-tcp8 " /proc/mounts'

cat >nfs.fio <<JOB
[global]
ioengine=libaio
direct=1
bs=256k
iodepth=4
size=4m
[seq-write-rdma]
directory=$rdir
rw=write
stonewall
[seq-write-tcp]
directory=$tdir
rw=write
stonewall
JOB
cat >swapped.fio <<JOB
[global]
ioengine=libaio
direct=1
bs=256k
iodepth=4
size=4m
[seq-read-rdma]
directory=$tdir
rw=write
JOB
check "rdmaio run on both mounts" "$rdmaio" run --timeout 200 -o nfs.json nfs.fio
check "rdmaio run of a misnamed job" "$rdmaio" run --timeout 200 -o swapped.json swapped.fio
python3 - nfs.json swapped.json "$rdir" "$tdir" <<'PY' || _tap_failed=1
import json, sys
nfs, swapped = (json.load(open(p)) for p in sys.argv[1:3])
rdir, tdir = sys.argv[3:5]
failed = 0
def check(name, cond, detail):
    global failed
    print(("ok - " if cond else "not ok - ") + name)
    if not cond:
        print("#   " + json.dumps(detail))
        failed = 1
seen = {m["mountpoint"]: m["proto"] for m in nfs["environment"]["nfs_mounts_during_run"] or []}
check("the result lists both mounts seen during the run, with their protos",
      seen.get(rdir) == "rdma" and seen.get(tdir) == "tcp", seen)
nt = [c for c in nfs["checks"] if c["name"] == "nfs-transport"]
check("nfs-transport passes for both honestly named jobs",
      len(nt) == 2 and all(c["status"] == "pass" for c in nt), nt)
nt = [c for c in swapped["checks"] if c["name"] == "nfs-transport"]
check("nfs-transport flags the -rdma job on the TCP mount, with causes",
      len(nt) == 1 and nt[0]["status"] == "flagged" and nt[0]["likely_causes"], nt)
cs = nfs["comparisons"]
check("seq-write RDMA and TCP are paired",
      len(cs) == 1 and cs[0]["workload"] == "seq-write" and cs[0]["bw_ratio"] > 0, cs)
for c in cs:
    print("# seq-write over NFS: RDMA %.1f MiB/s, TCP %.1f MiB/s, ratio %.2f" % (
        c["rdma"]["bw_bytes"] / 2**20, c["tcp"]["bw_bytes"] / 2**20, c["bw_ratio"]))
sys.exit(failed)
PY
check_fails "rdmaio check of the misnamed run exits 3" 3 'flagged nfs-transport' \
	"$rdmaio" check swapped.json
# The fairness check on the real kernel's mounts, the server's exports and
# nfsd. The two mounts above, with the kernel's sizes, differ only in the
# transport: pass. A TCP mount made with other sizes (-o rsize=65536,...)
# moves less per call than the RDMA one: flagged, naming both sizes and the
# mount options that match them. (check exits 3 for both: on one host the
# loopback check flags every job.)
io=$(awk -v m=$rdir '$2 == m { print $4 }' /proc/mounts | tr , '\n' |
	grep -E '^[rw]size=' | paste -sd, -)
echo "# the RDMA mount's sizes: $io; TCP's: $(awk -v m=$tdir '$2 == m { print $4 }' /proc/mounts |
	tr , '\n' | grep -E '^[rw]size=' | paste -sd, -)"
fair_json() { # RESULT STATUS: its one fairness check, with both sides' settings
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [c for c in d["checks"] if c["name"] == "fairness"]
assert len(f) == 1 and f[0]["status"] == sys.argv[2], f
r, t = f[0]["settings"]["rdma"], f[0]["settings"]["tcp"]
assert (r["proto"], t["proto"], r["vers"], t["vers"]) == ("rdma", "tcp", "3", "3"), f
assert r["mount_found_by"] == "path" and r["depth"] == 4, f
# This host serves the export: its nfsd and exports are in the result.
assert r["server"] == d["host"]["hostname"] and r["nfsd_threads"] > 0, f
assert r["export"] == "/srv/tools-nfs" and r["export_sync"] == "sync", f
PY
}
check_fails "the kernel's own sizes on both mounts pass the fairness check" 0 \
	"^pass fairness: seq-write on [^ ]+: the RDMA and TCP sides differ only in the transport: $RDMAIO_SERVER_IP:$exp, NFS version 3, rsize/wsize [0-9]+/[0-9]+, timeo 600, sync export, TCP 1 connection, [0-9]+ nfsd threads on [0-9]+ CPUs for 4 requests in flight$" \
	bash -c "'$rdmaio' check nfs.json || [ \$? = 3 ]"
check "... and the result carries both sides' settings" fair_json nfs.json pass
$nr umount $tdir >/dev/null 2>&1
check "NFSv3 mount over TCP with other sizes (rsize=65536,wsize=65536)" \
	$nr mount "$RDMAIO_SERVER_IP:$exp" $tdir --proto tcp --vers 3 -o rsize=65536,wsize=65536
check_fails "... is flagged by the fairness check, with the sizes for both" 3 \
	"^  fix: mount both with -o rsize=65536,wsize=65536 " \
	bash -c "'$rdmaio' run --timeout 200 -o unfair.json nfs.fio >/dev/null && '$rdmaio' check unfair.json"
check "... and the result says so with both sides' settings" fair_json unfair.json flagged
check "the report shows the settings side by side" \
	bash -c "'$rdmaio' report unfair.json | sed -n '/^## NFS settings side by side/,/^Fairness/p' | tee /dev/stderr |
		grep -q '^| rsize | [0-9]* | 65536 |$'"
check "Soft-RoCE has no NUMA node: the result says so, and its numa check is skipped" \
	python3 - nfs.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = d["host"]["numa"]
assert n["node"] is None and not n["placed"] and "Soft-RoCE have none" in n["note"], n
c = [c for c in d["checks"] if c["name"] == "numa"]
assert len(c) == 1 and c[0]["status"] == "skipped" and c[0]["message"] == n["note"], c
dev = d["environment"]["status"]["rdma_devices"]
assert dev and all(x["numa_node"] is None for x in dev), dev
PY
check "both results validate with python3-jsonschema" \
	python3 "$helper" validate "$schema" nfs.json swapped.json unfair.json
check "the jobs' files landed on the server's export" \
	bash -c "ls $exp | grep -q seq-write-rdma && ls $exp | grep -q seq-write-tcp"
$nr umount $tdir >/dev/null 2>&1
$nr umount $rdir >/dev/null 2>&1
rm -rf "$tmp"
done_testing
