# Sourced by the rdmaio host test scripts, after setting name: the repo, the
# rdmaio under test ($1, default build/rdmaio), a private folder made the
# working directory (removed at exit, with any fio --server whose pid a test
# put in server_pid, a list of pids), and a PATH without the caller's own tools: only an
# nfsrdma built next to rdmaio describes the environment, never one that
# happens to be on the caller's PATH.
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/tests/lib.sh"
rdmaio=$(realpath "${1:-$repo/build/rdmaio}")
schema=$repo/results-schema/result.schema.json
tmp=$(mktemp -d "/tmp/rdmaio-${name:-host}.XXXXXX")
server_pid=
cleanup() {
	# shellcheck disable=SC2086 # pids, one word each
	[ -n "$server_pid" ] && kill $server_pid 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

# write_pair_fio RUNTIME (fio's: 1, 500ms): pair.fio, a 64 KiB pair (bandwidth) and a 4 KiB one
# at one in flight (round trips), each side held to its rate, so every
# ratio is known: RDMA's side has twice TCP's bandwidth, four times its
# round trips.
write_pair_fio() {
	cat >pair.fio <<JOB
[global]
ioengine=psync
filename=$tmp/data
size=16m
time_based
runtime=$1
[seq-read-rdma]
bs=64k
rw=read
rate=80m
stonewall
[seq-read-tcp]
bs=64k
rw=read
rate=40m
stonewall
[rtt-rdma]
bs=4k
rw=randread
rate=8m
stonewall
[rtt-tcp]
bs=4k
rw=randread
rate=2m
stonewall
JOB
}
