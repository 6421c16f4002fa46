#!/bin/bash
# lab-run: --softroce --hosts 2 --timeout 600
# nfsrdma across two guests: the server guest serves NFS over RDMA and exports
# to the client's address only; the client probes, mounts over RDMA and TCP
# (RDMA over IPv4 and IPv6; NFSv4.2 of a plain folder and NFSv3 from a client
# that runs no rpcbind until nfsrdma mount starts one, and stops it on the last
# umount), mounts TCP and TCP nconnect=8 of one export side by side through
# two server addresses, checksums data on both sides, and meets the
# real errors of a remote setup: a blacklisted rpcrdma, a server without
# rpcbind for NFSv3, an export for someone else, a stopped listener, no RDMA
# device.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
nr=${NFSRDMA:-$PWD/build/nfsrdma}
srv=$RDMAIO_SERVER_IP cli=$RDMAIO_CLIENT_IP srv6=$RDMAIO_SERVER_IP6
cli6=$RDMAIO_CLIENT_IP6 mnt=/mnt/two
S() { "$RDMAIO_SERVER_EXEC" "$@"; }
mkdir -p $mnt
head -c $((2 << 20)) /dev/urandom >/tmp/two-data
want=$(sha256sum </tmp/two-data | cut -d' ' -f1)
roundtrip() { # SPEC PROTO FILE [MOUNT OPTIONS]
	roundtrip_at /srv/two "$@"
}
roundtrip_at() { # SERVER_DIR SPEC PROTO FILE [MOUNT OPTIONS]
	local dir=$1 spec=$2 proto=$3 f=$4 got
	shift 4
	"$nr" mount "$spec" $mnt --proto "$proto" "$@" || return 1
	grep -Eq " $mnt nfs4? .*proto=$proto" /proc/mounts || return 1
	dd if=/tmp/two-data of="$mnt/$f" bs=1M oflag=direct status=none ||
		return 1
	"$nr" umount $mnt >/dev/null || return 1
	"$nr" mount "$spec" $mnt --proto "$proto" "$@" >/dev/null || return 1
	got=$(dd if="$mnt/$f" bs=1M iflag=direct status=none | sha256sum |
		cut -d' ' -f1)
	"$nr" umount $mnt >/dev/null || return 1
	[ "$got" = "$want" ] || { echo "client read $got != $want"; return 1; }
	got=$(S sha256sum "$dir/$f" | cut -d' ' -f1)
	[ "$got" = "$want" ] || { echo "server has $got != $want"; return 1; }
}

# --- client: rpcrdma blacklisted here, before anything loads it
echo "blacklist rpcrdma" >/etc/modprobe.d/nfsrdma-test.conf
check_fails "client: mount with rpcrdma blacklisted names the module" 1 \
	"module rpcrdma .*blacklisted" "$nr" mount "$srv:/" $mnt
rm /etc/modprobe.d/nfsrdma-test.conf

# --- an NFSv4-only server runs no rpcbind: an NFSv3 mount names the server's
#     missing rpcbind, not a refused listener or this client
check "client: no rpcbind or rpc.statd runs here yet" \
	bash -c "! pgrep -x rpcbind && ! pgrep -x rpc.statd"
check_fails "server: an NFSv4-only server" 0 "nfsd started" \
	S "$nr" server start --versions 4,4.1,4.2
S mkdir -p /srv/v4only
S "$nr" export add /srv/v4only --clients "$cli" --options rw,fsid=5 >/dev/null
check_fails "client: NFSv3 against it: the server's missing rpcbind named" 1 \
	"$srv runs no rpcbind \\(TCP port 111 refused\\)" \
	"$nr" mount "$srv:/srv/v4only" $mnt --vers 3 --proto tcp
check "client: ... and the failed mount stopped the rpcbind and rpc.statd it started" \
	bash -c "! pgrep -x rpcbind && ! pgrep -x rpc.statd"
S "$nr" export del /srv/v4only >/dev/null
check_fails "server: server stop stops the rpc.mountd its start launched" 0 \
	"stopped rpc.mountd \(pid [0-9]+\), which nfsrdma started for the server" \
	S "$nr" server stop
# An rpc.mountd of the admin's, started while no rpcbind ran (as an
# NFSv4-only server's is): NFSv3 needs it restarted.
S rpc.mountd
out=$(S "$nr" server start --grace 10 --lease 10 2>&1)
threads=$(S cat /proc/fs/nfsd/threads)
mountd=$(printf '%s\n' "$out" | sed -n 's/.*rpc.mountd (pid \([0-9]*\)) runs but rpcbind does not know it.*/\1/p')
check "server: NFSv3 after it names the unregistered rpc.mountd, before changing anything" \
	bash -c '[ -n "$1" ] && [ "$2" = 0 ] || { printf "%s\n" "$3"; exit 1; }' _ "$mountd" "$threads" "$out"
[ -n "$mountd" ] && S kill "$mountd"

# --- server guest
check_fails "server: the lab's rxe0 on eth0 is already there" 0 \
	"already present" S "$nr" link add rxe0 eth0
check_fails "server: server start (its fix followed: mountd restarted)" 0 "nfsd started" \
	S "$nr" server start --grace 10 --lease 10
S mkdir -p /srv/two /srv/other
S mount -t tmpfs -o size=64m tmpfs /srv/two
S mount -t tmpfs -o size=8m tmpfs /srv/other
# An ordinary folder on the server's root (a tmpfs in the lab, which nfsd can
# walk from the NFSv4 pseudo-root) over NFSv4.2, and over NFSv3; before any
# fsid=0 export below makes another folder the NFSv4 root.
S mkdir -p /srv/plain
check_fails "server: export a plain folder under /srv" 0 "added" \
	S "$nr" export add /srv/plain --clients "$cli" --options rw,no_root_squash,fsid=6
check "client: NFSv4.2/RDMA of the plain folder, checksummed on both hosts" \
	roundtrip_at /srv/plain "$srv:/srv/plain" rdma p.rdma --vers 4.2
check "client: NFSv4.2/TCP of the plain folder, checksummed on both hosts" \
	roundtrip_at /srv/plain "$srv:/srv/plain" tcp p.tcp --vers 4.2
check "client: NFSv3/RDMA of it (the mount starts this client's rpcbind and rpc.statd)" \
	roundtrip_at /srv/plain "$srv:/srv/plain" rdma p3.rdma --vers 3
check "client: ... and the last umount stopped both again" \
	bash -c "! pgrep -x rpcbind && ! pgrep -x rpc.statd && ! ls /run/nfsrdma/rpc* 2>/dev/null"
S "$nr" export del /srv/plain >/dev/null

check_fails "server: export to the client's IPv4 address only" 0 "added" \
	S "$nr" export add /srv/two --clients "$cli" \
	--options rw,no_root_squash,fsid=0
check_fails "server: the same export to the client's IPv6 address" 0 \
	"added" S "$nr" export add /srv/two --clients "$cli6" \
	--options rw,no_root_squash,fsid=0
check_fails "server: an export for another host" 0 "added" \
	S "$nr" export add /srv/other --clients 198.18.0.77 --options rw,fsid=1

# --- client
check_fails "client: probe sees the export" 0 "is exported to this host" \
	"$nr" probe "$srv:/srv/two"
check "client: NFS/RDMA over IPv4, data checksummed on both hosts" \
	roundtrip "$srv:/" rdma f.rdma
check "client: NFS/TCP nconnect=2, data checksummed on both hosts" \
	roundtrip "$srv:/" tcp f.tcp --nconnect 2
check "client: NFS/RDMA over IPv6" roundtrip "[$srv6]:/" rdma f.rdma6
# TCP and TCP with nconnect side by side need two NFS clients: the kernel
# keeps one per server address, port, protocol and version, with the first
# mount's connections (nfsrdma mount refuses the second otherwise). A second
# address of the server gives the nconnect=8 mount its own.
srv2=$RDMAIO_LAB_SPARE_IP
second_addr() { S sh -c "ip addr $1 $srv2/24 dev \$RDMAIO_NETDEV"; }
side_by_side() {
	local xprts
	second_addr add || return 1
	mkdir -p /mnt/two-tcp /mnt/two-tcp8
	"$nr" mount "$srv:/srv/two" /mnt/two-tcp --proto tcp --vers 3 >/dev/null &&
		"$nr" mount "$srv2:/srv/two" /mnt/two-tcp8 --proto tcp --vers 3 --nconnect 8 >/dev/null ||
		return 1
	dd if=/tmp/two-data of=/mnt/two-tcp8/f.tcp8 bs=256k oflag=direct status=none || return 1
	xprts=$(sed -n 's/^num_xprts=//p' /sys/kernel/sunrpc/xprt-switches/*/xprt_switch_info | sort -n | tr '\n' ' ')
	{
		awk '$2 ~ /^\/mnt\/two-tcp8?$/ { print $1, $2, $4 }' /proc/mounts
		echo "transports of each RPC client: $xprts"
	} | tee /tmp/two-side-by-side
	grep " /mnt/two-tcp8 nfs .*,nconnect=8," /proc/mounts >/dev/null &&
		! grep " /mnt/two-tcp nfs .*,nconnect=" /proc/mounts >/dev/null &&
		[[ " $xprts" == *" 8 "* ]]
}
check "client: TCP of $srv and TCP nconnect=8 of $srv2 (a second address of the server) at once, each its own NFS client, one with 8 transports" \
	side_by_side
[ ! -f /tmp/two-side-by-side ] || sed 's/^/# /' /tmp/two-side-by-side
both_down() {
	"$nr" umount /mnt/two-tcp >/dev/null && "$nr" umount /mnt/two-tcp8 >/dev/null &&
		second_addr del
}
check "client: both unmounted, then the server's second address removed" both_down
check_fails "client: the mount table has clientaddr=$cli; status --json the mount" \
	0 '"proto": *"rdma"' sh -c "'$nr' mount '$srv:/' $mnt >/dev/null &&
		grep -q ' $mnt nfs4 .*clientaddr=$cli,' /proc/mounts &&
		'$nr' status --json"
"$nr" umount $mnt >/dev/null
check_fails "client: an export for another host is refused (EACCES)" 1 \
	"does not export it to this client \\($cli\\)" \
	"$nr" mount "$srv:/srv/other" $mnt --vers 3

# --- the server loses its listener, then the client its device
check_fails "server: server stop" 0 "nfsd stopped" S "$nr" server stop
start=$(date +%s)
check_fails "client: no listener on the server: ECONNREFUSED explained" 1 \
	"refuses rdma connections on port 20049" "$nr" mount "$srv:/" $mnt
check "client: ... and it failed fast (under 30 s)" \
	test $(($(date +%s) - start)) -lt 30
check "client: link del rxe0" "$nr" link del rxe0
check_fails "client: no RDMA device: EPROTO explained" 1 \
	"no RDMA device on the route to $srv" "$nr" mount "$srv:/" $mnt
done_testing
