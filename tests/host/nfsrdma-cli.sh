#!/bin/bash
# nfsrdma's command line on the host, where nothing needs root: -h and
# --help after any subcommand print the syntax and change nothing (never
# "umount ./--help" or a probe of a host called -h), and an option a
# subcommand does not know is refused as one (exit 2), not taken for a
# folder or a host. The commands themselves run in the lab.
cd "$(dirname "$0")/../.."
. tests/lib.sh
nfsrdma=${1:-build/nfsrdma}

for args in "umount --help" "umount -h" "probe --help" "probe -h" "doctor --help" \
	"mount a:/x /mnt/x --help" "export add /x --help" "link add --help" "server start -h"; do
	# shellcheck disable=SC2086 # the words are the arguments
	check "nfsrdma $args prints the syntax and exits 0" \
		bash -c "'$nfsrdma' $args | grep -q '^usage: nfsrdma COMMAND'"
done
check_fails "umount -x is an unknown option, not a folder" 2 '^nfsrdma: umount: unknown option -x$' \
	"$nfsrdma" umount -x
check_fails "probe --frob is an unknown option, not a host" 2 '^nfsrdma: probe: unknown option --frob$' \
	"$nfsrdma" probe --frob
check_fails "doctor -q is an unknown option, not a server" 2 '^nfsrdma: doctor: unknown option -q$' \
	"$nfsrdma" doctor -q
check_fails "after --, --help is an operand again" 2 "^nfsrdma: export: expected" \
	"$nfsrdma" export add /x --clients a -- --help
check_fails "server start --sock-buf below 64 KiB is refused before root is asked" 2 \
	"^nfsrdma: --sock-buf '4096' is not a number from 65536 to 2147483647$" \
	"$nfsrdma" server start --sock-buf 4096
check_fails "server start --rdma-requests past svcrdma's bound is refused" 2 \
	"^nfsrdma: --rdma-requests '20000' is not a number from 4 to 16384$" \
	"$nfsrdma" server start --rdma-requests 20000
done_testing
