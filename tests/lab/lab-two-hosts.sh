#!/bin/bash
# lab-run: --softroce --hosts 2 --timeout 300
# Two guests on a private link: each has rxe0 ACTIVE, the client runs commands on
# the server through $RDMAIO_SERVER_EXEC, and ib_write_bw moves data between them.
. "$(dirname "$0")/../lib.sh"
check "client and server addresses differ" test "$RDMAIO_CLIENT_IP" != "$RDMAIO_SERVER_IP"
check "the server answers ping on the lab link" ping -c 2 -W 5 "$RDMAIO_SERVER_IP"
check_fails "server-exec returns the server command's status and output" 4 '^lab-server$' \
	"$RDMAIO_SERVER_EXEC" sh -c 'hostname; exit 4'
# Streaming: the first line must arrive while the command still sleeps.
gap=$("$RDMAIO_SERVER_EXEC" sh -c 'echo a; sleep 4; echo b' |
	while read -r _; do date +%s; done | awk 'NR == 1 { t = $1 } END { print $1 - t }')
check "server-exec streams output as the command runs (lines ${gap:-?} s apart)" \
	test "${gap:-0}" -ge 3
check "the server's rxe0 is ACTIVE too" \
	"$RDMAIO_SERVER_EXEC" sh -c 'ibv_devinfo -d rxe0 | grep -q PORT_ACTIVE'

. "$(dirname "$0")/../../scripts/perftest.sh"
out=$(PERFTEST_SERVER_EXEC=$RDMAIO_SERVER_EXEC perftest_pair "$RDMAIO_SERVER_IP" ib_write_bw -d "$RDMAIO_RDMA_DEV" -R -s 65536 -D 2)
bw=$(printf '%s\n' "$out" | awk '$1 == 65536 { print $4 }')
echo "# ib_write_bw 64 KiB client guest -> server guest: ${bw:-none} MiB/s"
check "ib_write_bw moves data from one guest to the other (${bw:-?} MiB/s)" \
	awk -v bw="${bw:-0}" 'BEGIN { exit !(bw > 0) }'
done_testing
