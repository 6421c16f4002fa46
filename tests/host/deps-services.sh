#!/bin/bash
# scripts/deps-services against a stand-in systemctl and dpkg-query (the
# package manager's seam): the units an install enabled or started are
# stopped and disabled with one line; the user's own are left alone; without
# systemd nothing is done.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/bin state=$tmp/state
mkdir -p "$bin" "$state"
cat >"$bin/systemctl" <<'SH'
#!/bin/bash
s=$FAKE_STATE
case $1 in
is-system-running) cat "$s/system"; [ "$(cat "$s/system")" = running ] ;;
list-unit-files) sed 's/$/ enabled enabled/' "$s/enabled" ;;
list-units) sed 's/$/ loaded active running x/' "$s/active" ;;
disable)
	shift
	for u in "$@"; do
		case $u in --*) continue ;; esac
		echo "$u" >>"$s/disabled"
		grep -vx "$u" "$s/enabled" >"$s/e" || true; mv "$s/e" "$s/enabled"
		grep -vx "$u" "$s/active" >"$s/a" || true; mv "$s/a" "$s/active"
	done ;;
esac
SH
cat >"$bin/dpkg-query" <<'SH'
#!/bin/bash
[ "$1" = -L ] && cat "$FAKE_STATE/pkg-$2" 2>/dev/null
SH
chmod +x "$bin/systemctl" "$bin/dpkg-query"
export FAKE_STATE=$state
ds() { PATH=$bin:/usr/bin:/bin scripts/deps-services "$@"; }
reset() {
	echo running >"$state/system"
	printf '%s\n' "$@" >"$state/enabled"
	printf '%s\n' "$@" >"$state/active"
	: >"$state/disabled"
	printf '/lib/systemd/system/rpcbind.service\n/lib/systemd/system/rpcbind.socket\n/usr/sbin/rpcbind\n' >"$state/pkg-rpcbind"
	printf '/lib/systemd/system/nfs-server.service\n/lib/systemd/system/nfs-mountd.service\n' >"$state/pkg-nfs-kernel-server"
}
install_starts() { # what apt-get's postinst scripts would do
	printf '%s\n' "$@" >>"$state/enabled"
	printf '%s\n' "$@" >>"$state/active"
}

reset ssh.service
ds snapshot "$tmp/snap"
install_starts rpcbind.service rpcbind.socket nfs-server.service cron.service
out=$(ds settle "$tmp/snap" rpcbind nfs-kernel-server)
check "the units the install started are stopped and disabled" \
	test "$(sort "$state/disabled" | tr '\n' ' ')" = \
	"nfs-server.service rpcbind.service rpcbind.socket "
check "... with one line naming them" \
	test "$(printf '%s\n' "$out" | grep -c 'deps: stopped and disabled nfs-server.service rpcbind.service rpcbind.socket')" = 1
check "... the user's ssh and a unit no installed package ships are left" \
	sh -c "grep -qx ssh.service '$state/enabled' && grep -qx cron.service '$state/active'"

reset ssh.service rpcbind.service rpcbind.socket
ds snapshot "$tmp/snap"
install_starts nfs-server.service
out=$(ds settle "$tmp/snap" rpcbind nfs-kernel-server)
check "rpcbind the user already ran stays; only nfs-server is disabled" \
	sh -c "[ \"\$(cat '$state/disabled')\" = nfs-server.service ] &&
		grep -qx rpcbind.socket '$state/enabled'"

reset ssh.service
echo offline >"$state/system"
ds snapshot "$tmp/snap"
install_starts rpcbind.service
out=$(ds settle "$tmp/snap" rpcbind)
check "without systemd running nothing is touched or said" \
	sh -c "[ ! -s '$state/disabled' ] && [ -z '$out' ]"

rm "$bin/systemctl"
out=$(ds snapshot "$tmp/snap2" && ds settle "$tmp/snap2" rpcbind)
check "without systemctl nothing is done" \
	sh -c "[ ! -e '$tmp/snap2' ] && [ -z '$out' ]"
check_fails "usage errors exit 2" 2 "usage: deps-services" ds settle
done_testing
