#!/bin/bash
# lab/run itself, driven from the host: exit status, output streams, the shared
# repository, timeouts, and failures reported as failures (bad arguments, a kernel
# that does not boot, a panic). Boots several short guests.
cd "$(dirname "$0")/../.."
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Failed runs keep their run folders: here, they go with the test's.
export TMPDIR=$tmp

# One guest for what a command sees and leaves (each boot costs seconds):
# its streams, clock, user, working directory, writes, and exit status.
mark=build/lab-share-test.$$
rm -f "$mark"
rc=0
lab/run -- sh -c "echo to-out; echo to-err >&2
	cat /sys/devices/system/clocksource/clocksource0/current_clocksource
	echo uid=\$(id -u) cwd=\$(pwd)
	echo shared >$mark
	echo x >/etc/rdmaio-lab-test && cat /etc/rdmaio-lab-test
	exit 3" >"$tmp/out" 2>"$tmp/err" || rc=$?
check "exit status of the command is lab/run's" test "$rc" = 3
check "stdout and stderr stay apart" \
	bash -c "grep -qx to-out '$tmp/out' && grep -qx to-err '$tmp/err' && ! grep -q to-err '$tmp/out'"
# fio's clock: hpet would make each clock_gettime a trapped MMIO read.
check "the guest keeps time with the TSC" grep -qx tsc "$tmp/out"
check "the command runs as root in the caller's working directory" \
	grep -qx "uid=0 cwd=$(pwd)" "$tmp/out"
check "files written under the repository appear on the host" grep -qx shared "$mark"
rm -f "$mark"
check "the guest's writes outside the repository stay in the guest" grep -qx x "$tmp/out"
check "... and never reach the host" test ! -e /etc/rdmaio-lab-test
# This boot also stalls once (as TCG sometimes hangs a boot): lab/run must
# boot again and run the command as if nothing had happened.
echo here >"$tmp/seen"
(cd "$tmp" && RDMAIO_LAB_BOOT_S=25 RDMAIO_LAB_APPEND=rdmaio.stall=1 "$OLDPWD/lab/run" -- cat seen) \
	>"$tmp/seen.out" 2>"$tmp/seen.err"
check "a working directory outside the repository (under /tmp) is kept too" grep -qx here "$tmp/seen.out"
check "a boot that hangs is tried once more, and says so" \
	grep -q "had not started 'cat' after 25 s; booting the guests again" "$tmp/seen.err"
check_fails "a boot that hangs twice is a lab failure that says so" 125 'after 5 s, twice: the emulator hangs at boot' \
	env RDMAIO_LAB_BOOT_S=5 RDMAIO_LAB_APPEND=rdmaio.stall=1,2 lab/run -- true
check_fails "RDMAIO_LAB_BOOT_S takes seconds" 125 'RDMAIO_LAB_BOOT_S must be a positive number' \
	env RDMAIO_LAB_BOOT_S=soon lab/run -- true

t0=$SECONDS
check_fails "--timeout kills a hung command" 124 'timeout: .*after 8 s' \
	lab/run --timeout 8 -- sleep 600
check "... within seconds of the limit" test $((SECONDS - t0)) -lt 40

check_fails "a kernel panic is reported with the console lines" 125 'Kernel panic' \
	env RDMAIO_LAB_APPEND=rdinit=/nonexistent lab/run -- true

# A cache whose kernel image is garbage: qemu cannot load it.
k=$(lab/kernel)
bad=$tmp/cache/lab/$(basename "$k")
mkdir -p "$bad"
cp -r "$k/version" "$k/lib" "$bad/"
head -c 65536 /dev/urandom >"$bad/vmlinuz"
check_fails "a guest that cannot boot is reported, not taken for success" 125 'stopped before reporting' \
	env RDMAIO_CACHE="$tmp/cache" lab/run -- true

check_fails "a module that fails to load is reported as a lab failure" 125 \
	"setup failed: 'modprobe .*rdma_rxe" \
	env RDMAIO_LAB_APPEND=module_blacklist=rdma_rxe lab/run --softroce -- true

# Two runs at once share nothing but the read-only kernel cache.
lab/run -- sh -c 'sleep 2; echo one' >"$tmp/one" 2>&1 &
p1=$!
lab/run -- sh -c 'sleep 2; echo two' >"$tmp/two" 2>&1 &
p2=$!
wait $p1 && r1=0 || r1=$?
wait $p2 && r2=0 || r2=$?
check "two lab runs at once both succeed, each with its own output" \
	bash -c "[ $r1 = 0 ] && [ $r2 = 0 ] && grep -qx one '$tmp/one' && grep -qx two '$tmp/two'"

check_fails "--hosts takes 1 to 4" 125 'hosts must be 1 to 4 \(a server and up to three clients\)' \
	lab/run --hosts 5 -- true
check_fails "--hosts takes a number" 125 "hosts must be 1 to 4 .*not 'two'" lab/run --hosts two -- true
check_fails "guests that do not fit this host's memory are refused before any boots" 125 \
	"4 guests of 4000000 MiB need 16000000 MiB, and this host has [0-9]* MiB available" \
	lab/run --hosts 4 --mem 4000000 -- true
check_fails "--timeout takes seconds" 125 'timeout must be a positive number' lab/run --timeout soon -- true
check_fails "a command is required" 125 'no command given' lab/run --softroce
check_fails "unknown options are refused" 125 "unknown option '--bogus'" lab/run --bogus -- true
check_fails "--exact with two hosts is refused, saying why" 125 \
	"--exact runs one guest: two instruction-counted guests keep separate clocks" \
	lab/run --exact --hosts 2 -- true
check_fails "--exact with three hosts is refused too" 125 "drop --exact for 3 hosts" \
	lab/run --exact --hosts 3 -- true
check_fails "host-exec outside a lab names the --hosts that boots the guest" 2 \
	"no guest lab-client3 here: lab/run --hosts 2 boots lab-server, --hosts 3 lab-client3 too" \
	lab/host-exec lab-client3 true
check_fails "host-exec refuses a host that is no lab guest, naming it" 2 \
	"'198.18.0.9' is not a guest that runs commands for this one" lab/host-exec 198.18.0.9 true
check_fails "server-exec outside a lab says so" 2 "no guest lab-server here" lab/server-exec true
check_fails "--insn-count without --exact is refused, saying why" 125 \
	"--insn-count needs --exact" lab/run --insn-count build/insn-refused -- true
check_fails "--insn-count outside the repository is refused" 125 \
	"is outside .*repository share" lab/run --exact --insn-count "$tmp/insn" -- true
check_fails "--insn-count into a folder with files is refused" 125 \
	"is not empty; give a new folder" lab/run --exact --insn-count scripts -- true
check "... and a refused --insn-count creates nothing" test ! -e build/insn-refused
done_testing
