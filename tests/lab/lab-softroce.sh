#!/bin/bash
# lab-run: --softroce --timeout 300
# The lab's Soft-RoCE: rdma_rxe loaded, rxe0 ACTIVE on the lab netdev before the
# command starts, the lab variables set, and ib_write_bw moving data over it.
. "$(dirname "$0")/../lib.sh"
check "RDMAIO_LAB, RDMAIO_NETDEV, server/client IPs and RDMAIO_RDMA_DEV are set" \
	test "${RDMAIO_LAB:-}" = 1 -a -n "${RDMAIO_NETDEV:-}" -a -n "${RDMAIO_SERVER_IP:-}" \
	-a -n "${RDMAIO_CLIENT_IP:-}" -a "${RDMAIO_RDMA_DEV:-}" = rxe0
check "rdma_rxe is loaded" grep -q '^rdma_rxe ' /proc/modules
check "ibv_devinfo shows rxe0 PORT_ACTIVE over Ethernet" \
	bash -c 'ibv_devinfo -d "$RDMAIO_RDMA_DEV" | grep -q "state:.*PORT_ACTIVE" &&
		ibv_devinfo -d "$RDMAIO_RDMA_DEV" | grep -q "link_layer:.*Ethernet"'
check "rxe0 sits on the lab netdev" \
	bash -c 'rdma link show | grep -q "rxe0/1 state ACTIVE .*netdev $RDMAIO_NETDEV"'
check "rxe0 has a RoCE v2 GID for the IPv6 lab address" \
	bash -c 'grep -qx "RoCE v2" /sys/class/infiniband/rxe0/ports/1/gid_attrs/types/* 2>/dev/null &&
		grep -q "fd18:0000:0000:0000:0000:0000:0000:0001" /sys/class/infiniband/rxe0/ports/1/gids/*'

# ib_write_bw over rdma_cm, server and client on rxe0, 2 s of 64 KiB writes.
. "$(dirname "$0")/../../scripts/perftest.sh"
out=$(perftest_pair "$RDMAIO_SERVER_IP" ib_write_bw -d "$RDMAIO_RDMA_DEV" -R -s 65536 -D 2)
bw=$(printf '%s\n' "$out" | awk '$1 == 65536 { print $4 }')
echo "# ib_write_bw 64 KiB over rxe0: ${bw:-none} MiB/s"
check "ib_write_bw moves data over rxe0 (64 KiB, ${bw:-?} MiB/s)" \
	awk -v bw="${bw:-0}" 'BEGIN { exit !(bw > 0) }'
done_testing
