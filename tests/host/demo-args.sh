#!/bin/bash
# make demo's checks of what the user typed, on the host: a SERVER,
# SERVER_IP, SERVER_DIR or DEV that ssh or a shell would read as more than
# a host, an address or a folder is refused with exit 2 and a message that
# names it, before anything boots or runs (scripts/demo, lab or not) and
# before anything is made (scripts/demo-run). Runs copies of the scripts in
# a folder of their own, whose lab/run only notes that it was started; no
# guest boots. The demo itself runs in tests/lab/demo-two-hosts.sh.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
mkdir -p "$repo/scripts" "$repo/lab"
cp scripts/demo scripts/demo-run scripts/demo-remote.sh "$repo/scripts/"
cp -r jobs "$repo/"
cat >"$repo/lab/run" <<EOF
#!/bin/sh
echo "lab/run \$*" >"$tmp/booted"
EOF
chmod +x "$repo/lab/run"
pwned=$tmp/pwned
demo_dirs() { find /tmp -maxdepth 1 -name 'rdmaio-demo.*' | wc -l; }

# refused NAME REGEX CMD...: CMD exits 2, its output matches REGEX and is
# one line per message (no value's newline in it), and nothing booted,
# ran or was made.
refused() {
	local name=$1 re=$2 before out rc
	shift 2
	before=$(demo_dirs)
	rm -f "$tmp/booted"
	out=$(env -u SERVER -u SERVER_IP -u SERVER_DIR -u DEV -u HOSTS -u LAB -u CLIENTS \
		-u DEMO_SERVER -u DEMO_SERVER_DIR -u RDMAIO_SERVER_IP -u RDMAIO_RDMA_DEV \
		-u DEMO_CLIENTS -u DEMO_COUNTS -u DEMO_JOBS "$@" 2>&1) &&
		rc=0 || rc=$?
	if [ "$rc" != 2 ]; then
		check "$name" sh -c 'printf "exit %s, not 2: %s\n" "$1" "$2"; exit 1' _ "$rc" "$out"
	elif ! printf '%s\n' "$out" | grep -Eq -- "$re"; then
		check "$name" sh -c 'printf "no line matches /%s/: %s\n" "$1" "$2"; exit 1' _ "$re" "$out"
	elif [ "$(printf '%s\n' "$out" | grep -vc '^demo: ')" != 0 ]; then
		check "$name" sh -c 'printf "a line that is no message of its own: %s\n" "$1"; exit 1' _ "$out"
	elif [ -e "$tmp/booted" ] || [ -e "$pwned" ] || [ "$(demo_dirs)" != "$before" ]; then
		check "$name" sh -c 'echo "something booted, ran or was made"; exit 1'
	else
		check "$name" true
	fi
}

hostile="-oProxyCommand=touch $pwned"
refused "lab: SERVER '-oProxyCommand=...' is refused before the lab boots" \
	"^demo: SERVER '-oProxyCommand=touch [^']*' begins with '-', which ssh .* would read as an option: give the server's host name or address" \
	env LAB=1 SERVER="$hostile" "$repo/scripts/demo"
refused "LAB=0: the same SERVER is refused before demo-run starts" \
	"^demo: SERVER '-oProxyCommand=touch [^']*' begins with '-'" \
	env LAB=0 SERVER="$hostile" SERVER_IP=192.0.2.10 "$repo/scripts/demo"
refused "a SERVER whose host after '@' begins with '-'" \
	"^demo: SERVER 'root@-oProxyCommand=x' has no host after '@', or one that begins with '-'" \
	env LAB=0 SERVER=root@-oProxyCommand=x "$repo/scripts/demo"
refused "a SERVER with a newline: refused, and shown escaped on one line" \
	"^demo: SERVER \\$'host-b\\\\n-oProxyCommand=touch [^']*' holds a blank or a control character" \
	env LAB=0 SERVER=$'host-b\n'"$hostile" "$repo/scripts/demo"
refused "a SERVER with a blank" "^demo: SERVER 'host-b -oProxyCommand=x' holds a blank" \
	env LAB=0 SERVER='host-b -oProxyCommand=x' "$repo/scripts/demo"
refused "a SERVER with shell syntax" "^demo: SERVER 'host-b;id' holds ';', which no host name" \
	env LAB=0 SERVER='host-b;id' "$repo/scripts/demo"
refused "a SERVER with rdmaio run's %h" "^demo: SERVER 'x%h' holds '%'" \
	env LAB=0 SERVER='x%h' "$repo/scripts/demo"
refused "SERVER_IP with a blank and an option" \
	"^demo: SERVER_IP '192.0.2.10 -oProxyCommand=x' holds a blank or a control character: give the server's address on the RDMA link" \
	env LAB=0 SERVER=host-b SERVER_IP='192.0.2.10 -oProxyCommand=x' "$repo/scripts/demo"
refused "SERVER_IP with a newline and a fio option after it" \
	"^demo: SERVER_IP \\$'192.0.2.10\\\\nexec_prerun=touch [^']*' holds a blank or a control" \
	env LAB=0 SERVER=host-b SERVER_IP=$'192.0.2.10\nexec_prerun=touch '"$pwned" "$repo/scripts/demo"
refused "SERVER_IP that begins with '-'" "^demo: SERVER_IP '-1' begins with '-'" \
	env LAB=0 SERVER=host-b SERVER_IP=-1 "$repo/scripts/demo"
refused "SERVER_IP that is a name, not an address" "^demo: SERVER_IP 'host-b' is no IPv4 or IPv6 address" \
	env LAB=0 SERVER=host-b SERVER_IP=host-b "$repo/scripts/demo"
refused "SERVER_IP2 with a newline and a fio option after it" \
	"^demo: SERVER_IP2 \\$'192.0.2.11\\\\nexec_prerun=touch [^']*' holds a blank or a control" \
	env LAB=0 SERVER=host-b SERVER_IP2=$'192.0.2.11\nexec_prerun=touch '"$pwned" "$repo/scripts/demo"
refused "SERVER_IP2 that is a name, not an address (demo-run)" \
	"^demo: SERVER_IP2 'host-c' is no IPv4 or IPv6 address" \
	env HOSTS=2 DEMO_SERVER=host-b RDMAIO_SERVER_IP2=host-c "$repo/scripts/demo-run"
refused "SERVER_IP2 that is SERVER_IP: no second NFS client" \
	"^demo: SERVER_IP2 192.0.2.10 is SERVER_IP: the TCP nconnect mounts need a second address of the server" \
	env HOSTS=2 DEMO_SERVER=host-b RDMAIO_SERVER_IP=192.0.2.10 RDMAIO_SERVER_IP2=192.0.2.10 "$repo/scripts/demo-run"
# Without a second address the NFS files run without their -tcp-nconnect
# jobs: what is left is every other section as it was, and fio takes it
# with RDMAIO_NFS_TCPN_DIR unset (it refuses a file whose job names it).
two() { # FILE
	# shellcheck source=scripts/demo-remote.sh
	. scripts/demo-remote.sh
	demo_two_transports "$1" >"$tmp/two.fio" || return 1
	python3 - "$1" "$tmp/two.fio" <<'PY' || return 1
import re, sys
text = open(sys.argv[1]).read()
parts = re.split(r"(?m)^(?=\[)", text)
want = "".join(p for p in parts if not re.match(r"\[[^]]*-tcp-nconnect\]", p))
got = open(sys.argv[2]).read()
assert got == want and "-tcp]" in got and "nconnect]" not in got, got
PY
	env -u RDMAIO_NFS_TCPN_DIR RDMAIO_NFS_RDMA_DIR=/tmp RDMAIO_NFS_TCP_DIR=/tmp \
		RDMAIO_NFS_SIZE=1m RDMAIO_RUNTIME=1 fio --parse-only "$tmp/two.fio"
}
check "jobs/nfs/seq.fio without its -tcp-nconnect jobs, as fio takes it" two jobs/nfs/seq.fio
check "jobs/nfs/rand4k.fio without its -tcp-nconnect jobs, as fio takes it" two jobs/nfs/rand4k.fio
check_fails "... which fio refuses whole (RDMAIO_NFS_TCPN_DIR unset)" 1 "failed parsing directory=\\\$\\{RDMAIO_NFS_TCPN_DIR\\}" \
	env -u RDMAIO_NFS_TCPN_DIR RDMAIO_NFS_RDMA_DIR=/tmp RDMAIO_NFS_TCP_DIR=/tmp \
	RDMAIO_NFS_SIZE=1m RDMAIO_RUNTIME=1 fio --parse-only jobs/nfs/seq.fio
refused "SERVER_DIR with shell syntax" \
	"^demo: SERVER_DIR '/opt/rdmaio;id' holds ';', which the server's shell would read as syntax .*: the demo takes only letters, digits and / . _ \+ , @ = - in it" \
	env LAB=0 SERVER=host-b SERVER_DIR='/opt/rdmaio;id' "$repo/scripts/demo"
refused "SERVER_DIR with a command substitution" "^demo: SERVER_DIR '/opt/\\\$\(id\)' holds '\\$'" \
	env LAB=0 SERVER=host-b SERVER_DIR='/opt/$(id)' "$repo/scripts/demo"
refused "SERVER_DIR with a blank" "^demo: SERVER_DIR '/opt/my rdmaio' holds a blank" \
	env LAB=0 SERVER=host-b SERVER_DIR='/opt/my rdmaio' "$repo/scripts/demo"
refused "SERVER_DIR that is relative" "^demo: SERVER_DIR 'opt/rdmaio' is no absolute path" \
	env LAB=0 SERVER=host-b SERVER_DIR=opt/rdmaio "$repo/scripts/demo"
refused "lab: a bad SERVER_DIR is refused before the lab boots too" "^demo: SERVER_DIR '/x;id' holds ';'" \
	env LAB=1 SERVER_DIR='/x;id' "$repo/scripts/demo"
refused "HOSTS=1: SERVER is this host's address, and '-x' is none" "^demo: SERVER '-x' begins with '-'" \
	env LAB=0 HOSTS=1 SERVER=-x DEV=mlx5_0 "$repo/scripts/demo"
refused "DEV with a blank" "^demo: DEV 'mlx5_0 -x' holds a blank" \
	env LAB=0 HOSTS=1 SERVER=192.0.2.10 DEV='mlx5_0 -x' "$repo/scripts/demo"
refused "HOSTS other than 1 or 2" "^demo: HOSTS must be 1 or 2, not '3'" env HOSTS=3 "$repo/scripts/demo"
refused "lab: CLIENTS beyond the lab's three client guests" \
	"^demo: CLIENTS in the lab is how many client guests load the server: 1, 2 or 3 .*not '4'" \
	env LAB=1 CLIENTS=4 "$repo/scripts/demo"
refused "lab: CLIENTS that is no count" "^demo: CLIENTS in the lab .*not 'lab-client3'" \
	env LAB=1 CLIENTS=lab-client3 "$repo/scripts/demo"
refused "lab: HOSTS=1 with CLIENTS=2" "^demo: HOSTS=1 runs everything in one guest: CLIENTS=2 needs" \
	env LAB=1 HOSTS=1 CLIENTS=2 "$repo/scripts/demo"
refused "LAB=0: a client host that ssh would read as an option" \
	"^demo: CLIENTS' host '-oProxyCommand=touch' begins with '-'.*give the client's host name" \
	env LAB=0 SERVER=host-b CLIENTS="c1 $hostile" "$repo/scripts/demo"
refused "LAB=0: a client host with shell syntax, and a glob that must stay one" \
	"^demo: CLIENTS' host '\*' holds '\*'" env LAB=0 SERVER=host-b CLIENTS='c1 *' "$repo/scripts/demo"

# demo-run, as scripts/demo hands over to it and as the lab test runs it:
# the same checks, before its temporary folder or anything else is made.
refused "demo-run: DEMO_SERVER '-oProxyCommand=...' is refused before anything is made" \
	"^demo: DEMO_SERVER '-oProxyCommand=touch [^']*' begins with '-'" \
	env HOSTS=2 DEMO_SERVER="$hostile" RDMAIO_SERVER_IP=192.0.2.10 "$repo/scripts/demo-run"
refused "demo-run: RDMAIO_SERVER_IP with a newline" "^demo: RDMAIO_SERVER_IP \\$'192.0.2.10\\\\nx' holds" \
	env HOSTS=2 DEMO_SERVER=host-b RDMAIO_SERVER_IP=$'192.0.2.10\nx' "$repo/scripts/demo-run"
refused "demo-run: DEMO_SERVER_DIR with shell syntax" "^demo: DEMO_SERVER_DIR '/x;id' holds ';'" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_SERVER_DIR='/x;id' "$repo/scripts/demo-run"
cp -r "$repo" "$tmp/my repo"
refused "demo-run: the default DEMO_SERVER_DIR (this checkout's path) is checked too" \
	"^demo: DEMO_SERVER_DIR '$tmp/my repo' holds a blank" \
	env HOSTS=2 DEMO_SERVER=host-b "$tmp/my repo/scripts/demo-run"
refused "demo-run: a client host named twice" "^demo: DEMO_CLIENTS names 'c1' twice" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_CLIENTS="local c1 c1" "$repo/scripts/demo-run"
refused "demo-run: a client host that is the server" "^demo: client host 'host-b' is the server" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_CLIENTS="local host-b" "$repo/scripts/demo-run"
refused "demo-run: a one-client verbs job with several client hosts" \
	"^demo: jobs/verbs/bw.fio serves one client host, and DEMO_CLIENTS names 2" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_CLIENTS="local c1" DEMO_JOBS=jobs/verbs/bw.fio "$repo/scripts/demo-run"
refused "demo-run: ... also named as a canned job (verbs/lat)" \
	"^demo: verbs/lat serves one client host" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_CLIENTS="local c1" DEMO_JOBS="jobs/nfs/seq.fio verbs/lat" "$repo/scripts/demo-run"
refused "demo-run: ... or by another path to it" "^demo: ./jobs/verbs/../verbs/bw.fio serves one client host" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_CLIENTS="local c1" DEMO_JOBS=./jobs/verbs/../verbs/bw.fio "$repo/scripts/demo-run"
refused "demo-run: NFS jobs only, with no target for the server to run" \
	"^demo: DEMO_JOBS 'jobs/nfs/seq.fio' has no target \\(a section with listen\\) for the server" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_JOBS=jobs/nfs/seq.fio "$repo/scripts/demo-run"
refused "demo-run: counts that do not end at every client host" "^demo: DEMO_COUNTS '1' ends below the 2 client hosts" \
	env HOSTS=2 DEMO_SERVER=host-b DEMO_CLIENTS="local c1" DEMO_COUNTS=1 "$repo/scripts/demo-run"
refused "demo-run: HOSTS=1 with another client host" "^demo: HOSTS=1 runs everything on this host: its only client is 'local'" \
	env HOSTS=1 RDMAIO_RDMA_DEV=rxe0 RDMAIO_SERVER_IP=192.0.2.10 DEMO_CLIENTS="local c1" "$repo/scripts/demo-run"
refused "demo-run: HOSTS=1 with a bad RDMAIO_RDMA_DEV" "^demo: RDMAIO_RDMA_DEV 'rxe0;id' holds ';'" \
	env HOSTS=1 RDMAIO_RDMA_DEV='rxe0;id' RDMAIO_SERVER_IP=192.0.2.10 "$repo/scripts/demo-run"

# make itself: the values reach the scripts through the environment, so a
# SERVER that is shell syntax never becomes part of a recipe's command line.
check "make demo/bench: SERVER with shell syntax stays out of the recipes" \
	bash -c "out=\$(make --no-print-directory -n demo bench LAB=0 SERVER='\`touch $pwned\`;x' 2>&1) &&
		! printf '%s' \"\$out\" | grep -q 'touch' && [ ! -e '$pwned' ]"

# Good values pass: the lab boots, or (LAB=0) demo-run starts, and stops at
# the build that this copy lacks.
rm -f "$tmp/booted"
check "lab: good values boot the lab" \
	bash -c "env LAB=1 SERVER_DIR=/opt/rdmaio-2.0/x_y+z,a@b=c '$repo/scripts/demo' >/dev/null &&
		grep -q -- '--hosts 2 .* -- scripts/demo-run' '$tmp/booted'"
rm -f "$tmp/booted"
check "lab: CLIENTS=3 boots four guests" \
	bash -c "env -u HOSTS LAB=1 CLIENTS=3 '$repo/scripts/demo' >/dev/null &&
		grep -q -- '--hosts 4 .* -- scripts/demo-run' '$tmp/booted'"
if [ "$(id -u)" = 0 ]; then
	check_fails "LAB=0: root@host-b, an IPv6 SERVER_IP and a SERVER_DIR pass to demo-run" 1 \
		"^demo: .*build/nfsrdma is missing: run 'make' first" \
		env LAB=0 SERVER=root@host-b.example SERVER_IP=2001:db8::10 SERVER_DIR=/opt/rdmaio "$repo/scripts/demo"
	check_fails "LAB=0 HOSTS=1: an address and a device pass to demo-run" 1 \
		"^demo: .*build/nfsrdma is missing: run 'make' first" \
		env LAB=0 HOSTS=1 SERVER=192.0.2.10 DEV=mlx5_0 "$repo/scripts/demo"
else
	check_fails "LAB=0: good values pass to the check for root" 2 "^demo: LAB=0 mounts NFS .* run it as root" \
		env LAB=0 SERVER=root@host-b.example SERVER_IP=2001:db8::10 SERVER_DIR=/opt/rdmaio "$repo/scripts/demo"
fi
done_testing
