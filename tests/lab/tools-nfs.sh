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
check "both results validate with python3-jsonschema" \
	python3 "$helper" validate "$schema" nfs.json swapped.json
check "the jobs' files landed on the server's export" \
	bash -c "ls $exp | grep -q seq-write-rdma && ls $exp | grep -q seq-write-tcp"
$nr umount $tdir >/dev/null 2>&1
$nr umount $rdir >/dev/null 2>&1
rm -rf "$tmp"
done_testing
