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
# All or nothing: a start that fails or is interrupted after nfsd came up
# is undone. rpc.mountd, the last daemon it starts, is replaced (a bind
# mount over it) by one that fails, then by one that is slow.
pgrep -x rpcbind >/dev/null && rb0=1 || rb0=0
mkdir -p /tmp/nr-real && cp /usr/sbin/rpc.mountd /tmp/nr-real/rpc.mountd
down() {
	sh -c '! test -s /proc/fs/nfsd/portlist &&
		{ ! test -e /proc/fs/nfsd/threads ||
		  [ "$(cat /proc/fs/nfsd/threads)" = 0 ]; } &&
		! pgrep -x rpc.mountd >/dev/null &&
		[ "$(pgrep -x rpcbind >/dev/null && echo 1 || echo 0)" = '$rb0' ]'
}
printf '#!/bin/sh\nexit 1\n' >/tmp/nr-mountd.fail
chmod +x /tmp/nr-mountd.fail
mount --bind /tmp/nr-mountd.fail /usr/sbin/rpc.mountd
check_fails "server start whose rpc.mountd fails is undone" 1 \
	"server start: undone" "$nr" server start
umount /usr/sbin/rpc.mountd
check "... no listeners, no threads, no daemon it started" down
printf '#!/bin/sh\ntouch /tmp/nr-mountd.began\nsleep 3\nexec /tmp/nr-real/rpc.mountd "$@"\n' \
	>/tmp/nr-mountd.slow
chmod +x /tmp/nr-mountd.slow
rm -f /tmp/nr-mountd.began
mount --bind /tmp/nr-mountd.slow /usr/sbin/rpc.mountd
"$nr" server start >/tmp/nr-start.out 2>&1 &
ps=$!
for _ in $(seq 300); do test -e /tmp/nr-mountd.began && break; sleep 0.1; done
kill -TERM $ps
wait $ps
rs=$?
umount /usr/sbin/rpc.mountd
check "SIGTERM mid-start ends server start by it (status $rs, want 143)" \
	test "$rs" = 143
check "... after undoing it" grep -q "server start: undone" /tmp/nr-start.out
check "... no listeners, no threads, no daemon it started" down
# Two starts at once on a stopped server: the lock makes one start it and
# the other find it running.
"$nr" server start --threads 4 --grace 10 --lease 10 >/tmp/nr-s1 2>&1 &
p1=$!
"$nr" server start --threads 4 --grace 10 --lease 10 >/tmp/nr-s2 2>&1 &
p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
check "two server starts at once both succeed (status $r1 and $r2)" \
	test "$r1$r2" = 00
check "... one started nfsd with RDMA, the other found it running" \
	sh -c 'test "$(cat /tmp/nr-s1 /tmp/nr-s2 | grep -c "nfsd started")" = 1 &&
		cat /tmp/nr-s1 /tmp/nr-s2 | grep -q "already running"'
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
check "... and out of the export table that exportfs had already written" \
	sh -c '! exportfs -v | grep -q "^/srv/third"'
cp /tmp/nr-exports.orig /etc/exports
exportfs -ra

# --- hostile and careless input: refused with exit 2, and neither the
# exports file nor the kernel's export table (exportfs -v) changes.
state() { cat /etc/exports.d/rdmaio.exports; exportfs -v; }
state >/tmp/nr-state.before
unchanged() {
	check "... the exports file and exportfs -v are unchanged" \
		cmp -s /tmp/nr-state.before <(state)
}
check_fails "an option value cannot open the export to every host" 2 \
	"export option 'refer': a value cannot hold a blank" \
	"$nr" export add /srv/other --clients 198.18.0.1 --options \
	'rw,fsid=8,refer=/a@h) *(rw,no_root_squash,insecure,fsid=8'
unchanged
check_fails "a newline in a value cannot write a second line" 2 \
	"a value cannot hold a blank, a control character" \
	"$nr" export add /srv/other --clients 198.18.0.1 --options \
	"$(printf 'rw,fsid=8,refer=/a@h\n/srv/x *(rw,no_root_squash')"
unchanged
check_fails "a client spec '-rw' is not default options" 2 \
	"client spec '-rw' is not valid: it starts with '-'" \
	"$nr" export add /srv/other --clients -rw --options fsid=8
unchanged
check_fails "fsid= is a number by strict rules ('010' would be 8)" 2 \
	"needs a number \\(digits only, no leading 0\\)" \
	"$nr" export add /srv/other --clients 198.18.0.1 --options fsid=010
unchanged
long=/srv/long
for i in 1 2 3 4 5 6 7 8 9 10 11; do long=$long/$(printf 'd%.0s' {1..95}); done
mkdir -p "$long"
check_fails "a path longer than exportfs reads is refused, not cut" 2 \
	"exportfs reads paths of at most 1020" \
	"$nr" export add "$long" --clients 198.18.0.1 --options fsid=9
unchanged
check_fails "CLIENT(OPTIONS) longer than exportfs's 511-byte token" 2 \
	"longer than the 511 bytes exportfs reads" \
	"$nr" export add /srv/other --options \
	"rw,fsid=2$(printf ',no_wdelay%.0s' {1..26})" \
	--clients "$(printf 'h%.0s' {1..250}).lab"
unchanged
check_fails "a trailing slash names the same export" 0 "already present" \
	"$nr" export add /srv/other/ --clients 203.0.113.7 \
	--options rw,no_subtree_check,fsid=2
unchanged
# A fake exportfs first in PATH: nfsrdma runs as root and must not run it.
mkdir -p /tmp/nr-fakebin
printf '#!/bin/sh\ntouch /tmp/nr-fake-ran\n' >/tmp/nr-fakebin/exportfs
chmod +x /tmp/nr-fakebin/exportfs
check_fails "export add ignores an exportfs put first in PATH" 0 "added" \
	env PATH=/tmp/nr-fakebin:$PATH "$nr" export add /srv/other \
	--clients 203.0.113.8 --options rw,fsid=2
check "... the fake never ran, the real one applied the export" \
	sh -c '! test -e /tmp/nr-fake-ran &&
		exportfs -v | grep -A1 "^/srv/other" | grep -q 203.0.113.8'
check_fails "NFSRDMA_ROOT means nothing to the installed nfsrdma" 0 \
	"deleted" env NFSRDMA_ROOT=/tmp/nr-fakeroot "$nr" export del /srv/other/
check "... the live file and table lost /srv/other" \
	sh -c '! grep -q "^/srv/other" /etc/exports.d/rdmaio.exports &&
		! exportfs -v | grep -q "^/srv/other"'
"$nr" export add /srv/other --clients 203.0.113.7 \
	--options rw,no_subtree_check,fsid=2 >/dev/null
state >/tmp/nr-state.before
# Two writers at once: the lock serialises them, both entries land.
mkdir -p /srv/c1 /srv/c2
"$nr" export add /srv/c1 --clients 198.18.0.9 --options fsid=11 >/dev/null &
p1=$!
"$nr" export add /srv/c2 --clients 198.18.0.9 --options fsid=12 >/dev/null &
p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
check "two concurrent export adds both succeed (status $r1 and $r2), both in file and table" \
	sh -c "[ $r1 = 0 ] && [ $r2 = 0 ] &&
		grep -q '^/srv/c1 ' /etc/exports.d/rdmaio.exports &&
		grep -q '^/srv/c2 ' /etc/exports.d/rdmaio.exports &&
		exportfs -v | grep -q '^/srv/c1' && exportfs -v | grep -q '^/srv/c2'"
"$nr" export del /srv/c1 >/dev/null
"$nr" export del /srv/c2 >/dev/null
# SIGTERM while exportfs runs (slowed by a wrapper bound over it): the
# change is rolled back before nfsrdma ends by the signal.
cp /usr/sbin/exportfs /tmp/nr-exportfs.real
printf '#!/bin/sh\nsleep 2\nexec /tmp/nr-exportfs.real "$@"\n' \
	>/tmp/nr-exportfs.slow
chmod +x /tmp/nr-exportfs.slow
mount --bind /tmp/nr-exportfs.slow /usr/sbin/exportfs
"$nr" export add /srv/c1 --clients 198.18.0.9 --options fsid=11 \
	>/tmp/nr-term.out 2>&1 &
pt=$!
sleep 1
kill -TERM $pt
wait $pt
rt=$?
umount /usr/sbin/exportfs
check "SIGTERM mid-change: nfsrdma ends by it (status $rt, want 143)" \
	test "$rt" = 143
check "... saying nothing changed" \
	grep -q "export add /srv/c1: interrupted, nothing changed" /tmp/nr-term.out
unchanged

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
check_fails "... also when the mountpoint is written $mnt/" 0 \
	"already mounted" "$nr" mount "$srv:/" $mnt/ --proto rdma
check_fails "mount SERVER without :/PATH is bad input (exit 2)" 2 \
	"'$srv' is not SERVER:/PATH" "$nr" mount "$srv" /mnt/nr2
check_fails "mount --proto udp is bad input (exit 2)" 2 \
	"mount protocol 'udp' is not supported" \
	"$nr" mount "$srv:/" /mnt/nr2 --proto udp
check_fails "a different mount on a busy mountpoint is refused" 1 \
	"mountpoint $mnt is busy" "$nr" mount "$srv:/" $mnt --proto tcp
mkdir -p /mnt/nr2
check_fails "a TCP mount beside the RDMA one is refused: one NFSv4 client" 1 \
	"would reuse that NFSv4 client" "$nr" mount "$srv:/" /mnt/nr2 --proto tcp
check "... and nothing was mounted there" \
	sh -c "! grep -q ' /mnt/nr2 ' /proc/mounts"
check_fails "umount of $mnt/ unmounts $mnt" 0 "unmounted" "$nr" umount $mnt/
check_fails "umount again is a no-op" 0 "not mounted" "$nr" umount $mnt
check "NFS/TCP: mount, write, remount, read back, same sha256" roundtrip tcp
check_fails "umount (tcp)" 0 "unmounted" "$nr" umount $mnt
check_fails "NFSv3 over RDMA mounts the full path (with its space)" 0 \
	"mounted" "$nr" mount "$srv:$exp" $mnt --proto rdma --vers 3
check "the v3 mount is proto=rdma with mountproto=tcp" \
	grep -q " $mnt nfs .*proto=rdma,port=20049,.*mountproto=tcp" /proc/mounts
check "the v3 mount reads the RDMA file" cmp /tmp/nr-data $mnt/f.rdma
# With rxe0, nfsd, the exports and this mount all there: one description.
"$nr" status --json >/tmp/nr-status.json
"${RDMAIO:-$PWD/build/rdmaio}" env >/tmp/nr-env.json
check "nfsrdma status --json and rdmaio env agree, member by member" \
	tests/status-agree.py /tmp/nr-status.json /tmp/nr-env.json --lab
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
