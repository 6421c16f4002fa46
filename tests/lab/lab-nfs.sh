#!/bin/bash
# lab-run: --softroce --timeout 300
# The lab kernel serves and mounts NFS over RDMA and over TCP: nfsd with
# "rdma 20049" in its portlist, then a file written through each mount, read back
# after a fresh mount (so the bytes cross the wire), with matching checksums.
# These are the raw kernel steps; deploy/nfsrdma wraps them for users.
. "$(dirname "$0")/../lib.sh"
srv=$RDMAIO_SERVER_IP
check "nfsd, rpcrdma and the NFS client modules load" modprobe -a nfsd rpcrdma nfsv4 nfs
check "the nfsd filesystem mounts" mount -t nfsd nfsd /proc/fs/nfsd
mkdir -p /srv/lab /mnt/rdma /mnt/tcp
mount -t tmpfs -o size=256m tmpfs /srv/lab
echo "/srv/lab $srv/24(rw,no_root_squash,no_subtree_check,insecure,fsid=0)" >/etc/exports
mkdir -p /run/rpcbind /var/lib/nfs/rpc_pipefs
check "rpcbind starts" rpcbind -w
check "the export is applied" exportfs -ra
check "rpc.mountd starts" rpc.mountd
check "rpc.nfsd starts 4 threads" rpc.nfsd 4
check "the RDMA listener is added" sh -c 'echo "rdma 20049" >/proc/fs/nfsd/portlist'
check "the portlist shows rdma 20049" grep -qx 'rdma 20049' /proc/fs/nfsd/portlist

head -c $((8 << 20)) /dev/urandom >/tmp/data
want=$(sha256sum </tmp/data)
roundtrip() { # PROTO PORT MOUNTPOINT
	mount -t nfs -o "vers=4.2,proto=$1,port=$2" "$srv:/" "$3" || return 1
	# The kernel lists port= only when it is not the default 2049.
	local opts
	opts=$(awk -v m="$3" '$2 == m && $3 == "nfs4" { print $4 }' /proc/mounts)
	case ",$opts," in *,proto=$1,*) ;; *) echo "$3 is not proto=$1: $opts"; return 1 ;; esac
	if [ "$2" != 2049 ]; then
		case ",$opts," in *,port=$2,*) ;; *) echo "$3 is not on port $2: $opts"; return 1 ;; esac
	fi
	dd if=/tmp/data of="$3/data.$1" bs=1M oflag=direct status=none || return 1
	umount "$3" || return 1
	mount -t nfs -o "vers=4.2,proto=$1,port=$2" "$srv:/" "$3" || return 1
	got=$(dd if="$3/data.$1" bs=1M iflag=direct status=none | sha256sum)
	umount "$3" || return 1
	[ "$got" = "$want" ] || { echo "checksum mismatch over $1: $got != $want"; return 1; }
}
check "NFS over RDMA (proto=rdma, port 20049): write, remount, read back, same sha256" \
	roundtrip rdma 20049 /mnt/rdma
check "NFS over TCP (proto=tcp, port 2049): write, remount, read back, same sha256" \
	roundtrip tcp 2049 /mnt/tcp
check "the server holds both files, byte for byte" \
	sh -c "cmp /tmp/data /srv/lab/data.rdma && cmp /tmp/data /srv/lab/data.tcp"
done_testing
