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

# What a refused command must leave as it was: nfsrdma's exports file, the
# export table, the mount table, the NFS daemons' pids and nfsrdma's records
# of the daemons it started.
daemons() {
	local c
	for c in rpcbind rpc.mountd rpc.statd; do
		echo "$c: $(pgrep -x "$c" | sort -n | tr '\n' ' ')"
	done
}
snap() {
	cat /etc/exports.d/rdmaio.exports 2>/dev/null
	exportfs -v
	awk '{ print $2, $3 }' /proc/mounts
	daemons
	head -n 20 /run/nfsrdma/rpc* 2>/dev/null
}
same_as() { # FILE: snap is what FILE holds
	snap | diff "$1" - && echo same
}
# An export made with exportfs -o lives in etab alone: nfsrdma must keep it.
xo() {
	exportfs -v | grep -Eq '^/srv/x[[:space:]]+198\.18\.0\.9\(.*fsid=20'
}

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
# An export made by hand with exportfs -o while nfsd is down: server start
# applies the exports files with exportfs -a, which keeps it (-r would not).
mkdir -p /srv/x && mount -t tmpfs -o size=1m tmpfs /srv/x
exportfs -o rw,fsid=20,no_subtree_check 198.18.0.9:/srv/x
check "exportfs -o rw 198.18.0.9:/srv/x is in exportfs -v" xo
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
		[ "$(pgrep -x rpcbind >/dev/null && echo 1 || echo 0)" = '$rb0' ] &&
		! ls /run/nfsrdma/rpc* 2>/dev/null'
}
printf '#!/bin/sh\nexit 1\n' >/tmp/nr-mountd.fail
chmod +x /tmp/nr-mountd.fail
mount --bind /tmp/nr-mountd.fail /usr/sbin/rpc.mountd
check_fails "server start whose rpc.mountd fails is undone" 1 \
	"server start: undone" "$nr" server start
umount /usr/sbin/rpc.mountd
check "... no listeners, no threads, no daemon it started, no record" down
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
check "... no listeners, no threads, no daemon it started, no record" down

# --- the server's kernel settings: raised by server start, recorded, put
# back by server stop; a limit below the kernel's own is refused.
ksettings() {
	local f
	for f in net/core/rmem_max net/core/wmem_max net/ipv4/tcp_rmem \
		net/ipv4/tcp_wmem sunrpc/svc_rdma/max_requests; do
		echo "$f $(tr '\t' ' ' <"/proc/sys/$f")"
	done
}
ksame() { ksettings | diff /tmp/nr-k0 - && ! test -e /run/nfsrdma/settings; }
modprobe rpcrdma
ksettings >/tmp/nr-k0
sed 's/^/# before: /' /tmp/nr-k0
rmem0=$(cat /proc/sys/net/core/rmem_max)
check "the kernel's own: tcp_rmem's limit above 4 MiB, svcrdma's credits known" \
	sh -c '[ "$(cut -f3 /proc/sys/net/ipv4/tcp_rmem)" -gt 4194304 ] &&
		grep -Eqx "[0-9]+" /proc/sys/sunrpc/svc_rdma/max_requests'
check_fails "server start --sock-buf 4194304 (below tcp_rmem's limit) is refused" 1 \
	"--sock-buf 4194304 is below the kernel's net.ipv4.tcp_rmem limit" \
	"$nr" server start --sock-buf 4194304
check "... the settings as they were, and no record" ksame
check "... and nfsd down" down
check_fails "server start --sock-buf 16777216 --rdma-requests 256" 0 \
	"^net.core.rmem_max = 16777216 \\(was $rmem0; server stop puts back $rmem0\\)" \
	"$nr" server start --sock-buf 16777216 --rdma-requests 256
check "... /proc/sys reads them while nfsd runs" \
	sh -c '[ "$(cat /proc/sys/net/core/rmem_max /proc/sys/net/core/wmem_max \
		/proc/sys/sunrpc/svc_rdma/max_requests | tr "\n" " ")" = "16777216 16777216 256 " ] &&
		[ "$(cut -f3 /proc/sys/net/ipv4/tcp_rmem)" = 16777216 ] &&
		[ "$(cut -f3 /proc/sys/net/ipv4/tcp_wmem)" = 16777216 ] &&
		grep -qx "rdma 20049" /proc/fs/nfsd/portlist'
check "... the values before are recorded in /run/nfsrdma/settings" \
	grep -qx "net.core.rmem_max $rmem0" /run/nfsrdma/settings
check_fails "server status shows each setting and what it was" 0 \
	"^sunrpc.svc_rdma.max_requests = 256 \\(set by nfsrdma server start; was [0-9]+\\)$" \
	"$nr" server status
check_fails "server stop puts them back" 0 "^net.core.rmem_max = $rmem0 \\(put back\\)$" \
	"$nr" server stop
check "... /proc/sys reads what it did before, and the record is gone" ksame
check "... and nfsd is down" down
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
check "... recorded with their pids in /run/nfsrdma (root's, 0700)" \
	sh -c '[ "$(stat -c %a:%U /run/nfsrdma)" = 700:root ] &&
		grep -qx "pid $(pgrep -x rpcbind)" /run/nfsrdma/rpcbind &&
		grep -qx "users server" /run/nfsrdma/rpcbind &&
		grep -qx "pid $(pgrep -x rpc.mountd)" /run/nfsrdma/rpc.mountd'
check "... and the exportfs -o export is still there" xo
check_fails "server start again is a no-op" 0 "already running" \
	"$nr" server start
check_fails "server status shows the RDMA listener" 0 "rdma 20049" \
	"$nr" server status
check_fails "server status names the daemons nfsrdma started" 0 \
	"^started by nfsrdma: rpcbind pid [0-9]+ for the server, rpc.mountd pid [0-9]+ for the server$" \
	"$nr" server status
check "... and a start of the running server kept the exportfs -o export" xo

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
check "... and the exportfs -o export of /srv/x is still there" xo
# Another client of the exportfs -o export's own path: that entry alone is
# added and deleted, exportfs -o's stays.
check_fails "export add of /srv/x for another client (198.18.0.10)" 0 "added" \
	"$nr" export add /srv/x --clients 198.18.0.10 \
	--options rw,no_subtree_check,fsid=20
check "... both clients of /srv/x are in exportfs -v" \
	sh -c 'exportfs -v | grep -Eq "^/srv/x[[:space:]]+198\.18\.0\.10\(" &&
		exportfs -v | grep -Eq "^/srv/x[[:space:]]+198\.18\.0\.9\("'
check_fails "export del /srv/x deletes nfsrdma's entry" 0 "deleted" \
	"$nr" export del /srv/x
check "... 198.18.0.10 is gone, the exportfs -o entry for 198.18.0.9 stays" \
	sh -c '! exportfs -v | grep -q "198\.18\.0\.10" &&
		! grep -q "^/srv/x " /etc/exports.d/rdmaio.exports'
check "... in exportfs -v" xo
# exportfs itself fails: a wrapper bound over it runs the real one, which
# writes etab, then fails. The entry must leave nfsrdma's file and the
# export table again, and nothing else may change.
mkdir -p /srv/third && mount -t tmpfs -o size=1m tmpfs /srv/third
cp /usr/sbin/exportfs /tmp/nr-exportfs.real
printf '#!/bin/sh\n/tmp/nr-exportfs.real "$@"\ncase " $* " in *" -o "*) exit 1 ;; esac\n' \
	>/tmp/nr-exportfs.fail
chmod +x /tmp/nr-exportfs.fail
snap >/tmp/nr-snap
mount --bind /tmp/nr-exportfs.fail /usr/sbin/exportfs
check_fails "exportfs failing makes export add fail and roll back" 1 \
	"exportfs -i -o rw,fsid=3,no_subtree_check $srv:/srv/third failed \(status 1\)" \
	"$nr" export add /srv/third --clients "$srv" --options rw,fsid=3
umount /usr/sbin/exportfs
check "... the file, exportfs -v (the exportfs -o export too), mounts and daemons are as they were" \
	same_as /tmp/nr-snap
# A path and client the admin's /etc/exports lists too: nfsrdma would shadow
# or unexport what is not its own, so it refuses before changing anything.
cp /etc/exports /tmp/nr-exports.orig 2>/dev/null || : >/tmp/nr-exports.orig
echo "/srv/third 198.18.0.77(rw,fsid=3,no_subtree_check)" >>/etc/exports
snap >/tmp/nr-snap
check_fails "export add of a path and client /etc/exports lists too is refused" 1 \
	"/srv/third to 198.18.0.77 is also listed in /etc/exports or another file" \
	"$nr" export add /srv/third --clients 198.18.0.77 --options rw,fsid=3
check "... nothing changed" same_as /tmp/nr-snap
cp /tmp/nr-exports.orig /etc/exports

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
check "... and kept the exportfs -o export of /srv/x" xo
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
# umount removes NFS mounts only, and only the one named: a tmpfs, a link
# to the NFS mountpoint and a path through a linked folder are refused, and
# nothing is unmounted.
mkdir -p /mnt/nr-tmp && mount -t tmpfs -o size=1m tmpfs /mnt/nr-tmp
ln -sfn $mnt /tmp/nr-link
ln -sfn /mnt /tmp/nr-mntlink
snap >/tmp/nr-snap
check_fails "umount of a tmpfs is refused (exit 2), naming what it is" 2 \
	"/mnt/nr-tmp is a tmpfs mount \(of tmpfs\), not NFS: nfsrdma umount only removes NFS mounts" \
	"$nr" umount /mnt/nr-tmp
check "... still mounted; exports, mounts and daemons as they were" \
	same_as /tmp/nr-snap
check_fails "umount of a symlink to the NFS mountpoint is refused (exit 2)" 2 \
	"umount /tmp/nr-link: is a symbolic link to $mnt: nfsrdma umount follows no symbolic link" \
	"$nr" umount /tmp/nr-link
check "... the NFS mount is still there; nothing else changed" \
	same_as /tmp/nr-snap
check_fails "umount through a linked folder is refused (exit 2)" 2 \
	"umount /tmp/nr-mntlink/nr: leads through a symbolic link to $mnt" \
	"$nr" umount /tmp/nr-mntlink/nr
check "... the NFS mount is still there; nothing else changed" \
	same_as /tmp/nr-snap
umount /mnt/nr-tmp
check_fails "umount of $mnt/ unmounts $mnt" 0 "unmounted" "$nr" umount $mnt/
check_fails "umount again is a no-op" 0 "not mounted" "$nr" umount $mnt
check "NFS/TCP: mount, write, remount, read back, same sha256" roundtrip tcp
check_fails "umount (tcp)" 0 "unmounted" "$nr" umount $mnt
check_fails "NFSv3 over RDMA mounts the full path (with its space)" 0 \
	"mounted" "$nr" mount "$srv:$exp" $mnt --proto rdma --vers 3
check "the v3 mount is proto=rdma with mountproto=tcp" \
	grep -q " $mnt nfs .*proto=rdma,port=20049,.*mountproto=tcp" /proc/mounts
check "the v3 mount reads the RDMA file" cmp /tmp/nr-data $mnt/f.rdma
check "... it started rpc.statd (recorded for mounts) and uses the server's rpcbind" \
	sh -c 'grep -qx "pid $(pgrep -x rpc.statd)" /run/nfsrdma/rpc.statd &&
		grep -qx "users mount" /run/nfsrdma/rpc.statd &&
		grep -qx "users server mount" /run/nfsrdma/rpcbind'
# With rxe0, nfsd, the exports and this mount all there: one description.
"$nr" status --json >/tmp/nr-status.json
"${RDMAIO:-$PWD/build/rdmaio}" env >/tmp/nr-env.json
check "nfsrdma status --json and rdmaio env agree, member by member" \
	tests/status-agree.py /tmp/nr-status.json /tmp/nr-env.json --lab
rb=$(pgrep -x rpcbind)
check_fails "umount of the last NFSv3 mount stops the rpc.statd mount started" 0 \
	"stopped rpc.statd \(pid [0-9]+\), which nfsrdma started for NFSv3 mounts" \
	"$nr" umount $mnt
check "... and rpcbind (pid $rb) keeps running for the server" \
	sh -c '! pgrep -x rpc.statd && [ "$(pgrep -x rpcbind)" = '"$rb"' ] &&
		grep -qx "users server" /run/nfsrdma/rpcbind'

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
	bash -c '"$0" mount "$1:/srv/other" "$2" --proto tcp --vers 3 \
		>/tmp/nr-eacces.out 2>&1; rc=$?; cat /tmp/nr-eacces.out; exit $rc' \
	"$nr" "$srv" $mnt
check "... and the failed mount stopped the rpc.statd it had started" \
	sh -c 'grep -Eq "^stopped rpc.statd \(pid [0-9]+\)" /tmp/nr-eacces.out &&
		! pgrep -x rpc.statd && ! test -e /run/nfsrdma/rpc.statd'
check_fails "a path the server does not export (v4)" 1 \
	"has no such export" "$nr" mount "$srv:/nothing" $mnt --proto tcp
check_fails "status --json names its schema" 0 \
	'"schema": *"rdmaio-status/1"' "$nr" status --json

# --- server stop stops what server start launched
check_fails "server stop stops nfsd, and the rpc.mountd server start launched" 0 \
	"stopped rpc.mountd \(pid [0-9]+\), which nfsrdma started for the server" \
	"$nr" server stop
check "... and its rpcbind; no daemon and no record left" \
	sh -c '! pgrep -x rpcbind && ! pgrep -x rpc.mountd &&
		! ls /run/nfsrdma/rpc* 2>/dev/null'
check_fails "server stop again is a no-op" 0 "already stopped" \
	"$nr" server stop
# A records folder another user could write to is refused before a start
# changes anything.
chmod 0755 /run/nfsrdma
snap >/tmp/nr-snap
check_fails "server start refuses a /run/nfsrdma of mode 0755" 1 \
	"/run/nfsrdma is owned by uid 0 with mode 0755: nfsrdma keeps its records" \
	"$nr" server start
check "... no daemon started, nothing else changed" same_as /tmp/nr-snap
chmod 0700 /run/nfsrdma

# --- a running nfsd without RDMA gets it added; the rpcbind and rpc.mountd
# that ran before nfsrdma started anything are never stopped by it
mkdir -p /run/rpcbind
rpcbind && rpc.mountd
rb=$(pgrep -x rpcbind) md=$(pgrep -x rpc.mountd)
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
check "... server start recorded neither the rpcbind nor the rpc.mountd that ran" \
	sh -c '! ls /run/nfsrdma/rpc* 2>/dev/null'
check_fails "an NFSv3 mount while this rpcbind runs" 0 "mounted" \
	"$nr" mount "$srv:$exp" $mnt --proto tcp --vers 3
check_fails "umount of it stops the rpc.statd the mount started" 0 \
	"stopped rpc.statd \(pid [0-9]+\), which nfsrdma started for NFSv3 mounts" \
	"$nr" umount $mnt
check "... and not the rpcbind that ran before (pid $rb)" \
	sh -c '! pgrep -x rpc.statd && [ "$(pgrep -x rpcbind)" = '"$rb"' ]'
# A record whose pid now names another process (forged here: a sleep's pid
# with another start time) stops nothing.
sleep 600 &
sl=$!
printf 'pid %d\nstart 1\nexe /usr/sbin/rpc.mountd\nusers server\n' $sl \
	>/run/nfsrdma/rpc.mountd
check_fails "server stop with a forged rpc.mountd record warns and signals no one" 0 \
	"/run/nfsrdma/rpc.mountd names pid $sl, which is now another process \(sleep, /usr/bin/sleep" \
	"$nr" server stop
check "... the sleep runs on; the rpcbind and rpc.mountd of before run with their pids; the record is gone" \
	sh -c 'kill -0 '$sl' && [ "$(pgrep -x rpcbind)" = '"$rb"' ] &&
		[ "$(pgrep -x rpc.mountd)" = '"$md"' ] &&
		! test -e /run/nfsrdma/rpc.mountd'
kill $sl

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
