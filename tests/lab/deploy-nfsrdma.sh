#!/bin/bash
# lab-run: --softroce --timeout 600
# nfsrdma end to end on one host, on the real lab kernel: Soft-RoCE link,
# NFS/RDMA server, export, mounts over RDMA and TCP with checksummed data,
# idempotence of every command, and each error provoked for real, with its
# message and exit status.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
nr=${NFSRDMA:-$PWD/build/nfsrdma}
dev=$RDMAIO_NETDEV srv=$RDMAIO_SERVER_IP
# The lab's / is an overlay, which NFS cannot export, so NFSv4's pseudo root
# must be a real export: the test export is fsid=0 and v4 mounts "$srv:/".
exp="/srv/nr data" mnt=/mnt/nr

# --- module blacklist, before anything loads rpcrdma
echo "blacklist rpcrdma" >/etc/modprobe.d/nfsrdma-test.conf
check_fails "server start with rpcrdma blacklisted fails and names it" 1 \
	"module rpcrdma .*blacklisted" "$nr" server start
check "the failed start left nfsd without listeners" \
	sh -c '! test -s /proc/fs/nfsd/portlist'
rm /etc/modprobe.d/nfsrdma-test.conf

# --- links
check "link del removes the lab's rxe0" "$nr" link del rxe0
check "rxe0 is gone" sh -c "! test -e /sys/class/infiniband/rxe0"
check "link add rxe0 on $dev" "$nr" link add rxe0 "$dev"
check_fails "link add again is a no-op" 0 "already present" \
	"$nr" link add rxe0 "$dev"
check_fails "link list shows rxe0 on $dev, driver rxe" 0 \
	"^rxe0 netdev $dev driver rxe$" "$nr" link list
check_fails "a second link on $dev: EEXIST explained" 1 \
	"already carries RDMA device rxe0" "$nr" link add rxe1 "$dev"
check_fails "a taken name: ENFILE explained as name taken" 1 \
	"name is taken" "$nr" link add rxe0 lo
check_fails "a missing netdev: ENODEV explained" 1 \
	"network device nosuch0 does not exist" "$nr" link add rxe2 nosuch0
ip link add nrdummy0 type dummy && ip link set nrdummy0 up
check_fails "without CAP_NET_ADMIN the kernel's EPERM is explained" 1 \
	"permission denied: needs CAP_NET_ADMIN" \
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin \
	"$nr" link add rxe9 nrdummy0
check_fails "as a user, link add says root is needed" 1 "needs root" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$nr" link add rxe9 nrdummy0

# --- server
check_fails "server start brings up nfsd with RDMA" 0 "nfsd started" \
	"$nr" server start --threads 4 --grace 10 --lease 10
check "the portlist has rdma 20049 and tcp 2049" \
	sh -c 'grep -qx "rdma 20049" /proc/fs/nfsd/portlist &&
		grep -qx "tcp 2049" /proc/fs/nfsd/portlist'
check "rpc.mountd and rpcbind run" pgrep -x rpc.mountd
check_fails "server start again is a no-op" 0 "already running" \
	"$nr" server start
check_fails "server status shows the RDMA listener" 0 "rdma 20049" \
	"$nr" server status

# --- exports
mkdir -p "$exp" "$mnt" /srv/other
mount -t tmpfs -o size=64m tmpfs "$exp"
mount -t tmpfs -o size=16m tmpfs /srv/other
check_fails "a tmpfs export without fsid= is refused before writing" 2 \
	"on tmpfs, which needs an fsid=" \
	"$nr" export add "$exp" --clients "$srv/24"
check_fails "exporting to * needs --clients '*'" 2 "no --clients given" \
	"$nr" export add "$exp"
check_fails "a bad option is refused" 2 "not an exports\(5\) option" \
	"$nr" export add "$exp" --clients "$srv" --options rw,bogus,fsid=1
check_fails "export add (path with a space)" 0 "added" \
	"$nr" export add "$exp" --clients "$srv/24" \
	--options rw,sync,no_subtree_check,no_root_squash,fsid=0
check_fails "export add again is a no-op" 0 "already present" \
	"$nr" export add "$exp" --clients "$srv/24" \
	--options rw,sync,no_subtree_check,no_root_squash,fsid=0
check "the exports file escapes the space" \
	grep -q '^/srv/nr\\040data ' /etc/exports.d/rdmaio.exports
check_fails "export list shows the unescaped path" 0 \
	"^/srv/nr data $srv/24\\(rw,sync" "$nr" export list
check "exportfs applied it" sh -c 'exportfs -v | grep -q "/srv/nr data\|/srv/nr\\\\040data"'
check_fails "an export to another client only" 0 "added" \
	"$nr" export add /srv/other --clients 203.0.113.7 \
	--options rw,no_subtree_check,fsid=2
# exportfs itself fails (a bad line in the admin's /etc/exports): the new
# entry must not stay in nfsrdma's file.
cp /etc/exports /tmp/nr-exports.orig 2>/dev/null || : >/tmp/nr-exports.orig
echo "/srv/other *(bogus_option)" >>/etc/exports
mkdir -p /srv/third && mount -t tmpfs -o size=1m tmpfs /srv/third
check_fails "exportfs failing makes export add fail" 1 "exportfs -ra failed" \
	"$nr" export add /srv/third --clients "$srv" --options rw,fsid=3
check "... and the entry was taken back out of the file" \
	sh -c '! grep -q "^/srv/third" /etc/exports.d/rdmaio.exports &&
		grep -q "^/srv/nr\\\\040data" /etc/exports.d/rdmaio.exports'
cp /tmp/nr-exports.orig /etc/exports
exportfs -ra

check_fails "probe: the export is visible to this client over TCP" 0 \
	"is exported to this host" "$nr" probe "$srv:$exp"
check_fails "probe: an export for another client is refused and listed" 1 \
	"refuses it.*|/srv/other 203.0.113.7" "$nr" probe "$srv:/srv/other"
check_fails "probe: no server at all fails fast" 1 \
	"rpcbind \\(TCP 111\\) does not answer" "$nr" probe 198.18.0.99
check_fails "doctor: all well with rxe0 and nfsd over RDMA" 0 \
	"ok   nfsd has an RDMA listener" "$nr" doctor "$srv:$exp"

# --- data over RDMA, then TCP
head -c $((4 << 20)) /dev/urandom >/tmp/nr-data
want=$(sha256sum </tmp/nr-data | cut -d' ' -f1)
roundtrip() { # PROTO
	"$nr" mount "$srv:/" $mnt --proto "$1" || return 1
	grep -q " $mnt nfs4 .*proto=$1" /proc/mounts || return 1
	dd if=/tmp/nr-data of="$mnt/f.$1" bs=1M oflag=direct status=none ||
		return 1
	"$nr" umount $mnt || return 1
	"$nr" mount "$srv:/" $mnt --proto "$1" || return 1
	got=$(dd if="$mnt/f.$1" bs=1M iflag=direct status=none | sha256sum |
		cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "sha256 $got != $want"; return 1; }
	[ "$(sha256sum <"$exp/f.$1" | cut -d' ' -f1)" = "$want" ]
}
check "NFS/RDMA: mount, write, remount, read back, same sha256" roundtrip rdma
check_fails "mount again is a no-op" 0 "already mounted" \
	"$nr" mount "$srv:/" $mnt --proto rdma
check_fails "a different mount on a busy mountpoint is refused" 1 \
	"mountpoint $mnt is busy" "$nr" mount "$srv:/" $mnt --proto tcp
mkdir -p /mnt/nr2
check_fails "a TCP mount beside the RDMA one is refused: one NFSv4 client" 1 \
	"would reuse that NFSv4 client" "$nr" mount "$srv:/" /mnt/nr2 --proto tcp
check "... and nothing was mounted there" \
	sh -c "! grep -q ' /mnt/nr2 ' /proc/mounts"
check_fails "umount" 0 "unmounted" "$nr" umount $mnt
check_fails "umount again is a no-op" 0 "not mounted" "$nr" umount $mnt
check "NFS/TCP: mount, write, remount, read back, same sha256" roundtrip tcp
check_fails "umount (tcp)" 0 "unmounted" "$nr" umount $mnt
check_fails "NFSv3 over RDMA mounts the full path (with its space)" 0 \
	"mounted" "$nr" mount "$srv:$exp" $mnt --proto rdma --vers 3
check "the v3 mount is proto=rdma with mountproto=tcp" \
	grep -q " $mnt nfs .*proto=rdma,port=20049,.*mountproto=tcp" /proc/mounts
check "the v3 mount reads the RDMA file" cmp /tmp/nr-data $mnt/f.rdma
"$nr" umount $mnt >/dev/null

# --- mount errors
check_fails "a missing mountpoint is explained" 1 \
	"mountpoint /mnt/nowhere does not exist" \
	"$nr" mount "$srv:$exp" /mnt/nowhere
start=$(date +%s)
check_fails "no RDMA listener on the port: ECONNREFUSED explained" 1 \
	"refuses rdma connections on port 20050" \
	"$nr" mount "$srv:$exp" $mnt --port 20050
check "... and it failed fast (under 30 s)" \
	test $(($(date +%s) - start)) -lt 30
check_fails "an export for another client: EACCES explained (v3)" 1 \
	"does not export it to this client \\($srv\\)" \
	"$nr" mount "$srv:/srv/other" $mnt --proto tcp --vers 3
check_fails "a path the server does not export (v4)" 1 \
	"has no such export" "$nr" mount "$srv:/nothing" $mnt --proto tcp
check_fails "status --json names its schema" 0 \
	'"schema": *"rdmaio-status/1"' "$nr" status --json

# --- a running nfsd without RDMA gets it added
check_fails "server stop" 0 "nfsd stopped" "$nr" server stop
check_fails "server stop again is a no-op" 0 "already stopped" \
	"$nr" server stop
rpc.nfsd 2
check "rpc.nfsd started nfsd without RDMA" \
	sh -c '! grep -q rdma /proc/fs/nfsd/portlist'
check_fails "doctor: nfsd without an RDMA listener is a failure" 1 \
	"FAIL nfsd runs without an RDMA listener" "$nr" doctor
# A mount with --retry started now is refused until the listener appears.
"$nr" mount "$srv:/" $mnt --retry >/tmp/nr-retry.log 2>&1 &
retry=$!
sleep 3
check_fails "server start adds RDMA to the running nfsd" 0 "nfsd updated" \
	"$nr" server start
check "the portlist now has rdma 20049" \
	grep -qx "rdma 20049" /proc/fs/nfsd/portlist
wait $retry
retry_rc=$?
check "mount --retry, begun before the RDMA listener existed, got through" \
	sh -c "test $retry_rc -eq 0 || { cat /tmp/nr-retry.log; exit 1; }"
check "NFS/RDMA works on the updated server: read back" \
	cmp /tmp/nr-data $mnt/f.tcp
"$nr" umount $mnt >/dev/null

# --- cleanup is idempotent too
check_fails "export del" 0 "deleted" "$nr" export del "$exp"
check_fails "export del again is a no-op" 0 "not present" \
	"$nr" export del "$exp"
check "the export is gone from etab" \
	sh -c '! grep -q "^/srv/nr" /var/lib/nfs/etab'
check_fails "server start --persist writes the nfs.conf drop-in" 0 \
	"wrote /etc/nfs.conf.d/rdmaio-rdma.conf" "$nr" server start --persist
check "the drop-in enables rdma on 20049" \
	sh -c 'grep -qx "rdma=y" /etc/nfs.conf.d/rdmaio-rdma.conf &&
		grep -qx "rdma-port=20049" /etc/nfs.conf.d/rdmaio-rdma.conf'

# --- no RDMA device: EPROTO
check "link del rxe0" "$nr" link del rxe0
check_fails "mount over RDMA without a device: EPROTO explained" 1 \
	"no RDMA device on the route to $srv" "$nr" mount "$srv:/" $mnt
done_testing
