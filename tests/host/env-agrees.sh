#!/bin/bash
# `nfsrdma status --json` and `rdmaio env` on this host describe it with one
# code: the same document, member by member. The lab test deploy-nfsrdma
# compares them again with an rxe device, nfsd, an export and a mount.
cd "$(dirname "$0")/../.."
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "nfsrdma status --json runs" sh -c "build/nfsrdma status --json >$tmp/nr.json"
check "rdmaio env runs" sh -c "build/rdmaio env >$tmp/env.json"
check "they agree, member by member" \
	tests/status-agree.py "$tmp/nr.json" "$tmp/env.json"
# rdmaio found no nfsrdma before it could say anything; now it needs none.
check "rdmaio env needs no nfsrdma on PATH" sh -c \
	"cd $tmp && env PATH=/nonexistent $PWD/build/rdmaio env >env2.json &&
	 $PWD/tests/status-agree.py nr.json env2.json"
done_testing
