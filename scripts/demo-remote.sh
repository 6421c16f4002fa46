# Sourced by scripts/demo (its checks of what the user typed, before
# anything boots) and by scripts/demo-run: the other hosts' side of the
# demo, each reached over ssh as root (BatchMode: a key, never a password):
# the server, and the client hosts other than this one; with HOSTS=1, the
# server's side on this host. Every step that changes something pushes its
# undo; demo_undo_all runs them newest first, on success, failure or
# Ctrl-C. What was there before stays as it was: the demo exports a folder
# of its own, leaves a running nfsd running, and puts back the exports that
# nfsrdma's `exportfs -r` drops.
#
# Each ssh command runs the server's login shell, with its rc files: a few
# milliseconds on a server, seconds on an emulated one. So the steps go over
# in few commands, each a POSIX sh script on ssh's stdin, and one connection
# serves them all.

demo_undos=()
# The client hosts other than this one, reached over ssh (ssh names).
demo_remote_clients=()

demo_die() {
	echo "demo: $*" >&2
	exit 1
}

# Bad input: refused before anything changed.
demo_refuse() {
	echo "demo: $*" >&2
	exit 2
}

# A value as messages show it: quoted, and with anything but printable
# ASCII escaped (printf %q), so that a hostile value cannot drive the
# terminal or pass for a second line.
demo_shown() {
	case $1 in
	*[!\ -~]*) printf '%q' "$1" ;;
	*) printf "'%s'" "$1" ;;
	esac
}

# Why $1 cannot be one word on a command line here, or nothing: ssh, scp,
# ip and getent take a word that begins with '-' for an option, rdmaio run
# splits its commands on blanks, the server's shell reads them again, and a
# control character has no place in a name and would garble the messages
# and the lines that the server's set-up prints back.
demo_word_flaw() {
	case $1 in
	'') echo "is empty" ;;
	-*) echo "begins with '-', which ssh and the other commands it reaches would read as an option" ;;
	*[[:space:][:cntrl:]]*) echo "holds a blank or a control character" ;;
	esac
}

# The first character of $1 outside the pattern set $2, or nothing.
demo_first_outside() {
	local rest=${1//$2/}
	printf '%s' "${rest:0:1}"
}

# NAME VALUE [ROLE EXAMPLE]: an ssh destination, HOST or USER@HOST, of the
# server (or ROLE), as NAME=EXAMPLE would give it. Beyond the flaws of
# any word: only what host names, addresses and user names hold, so that
# neither ssh nor rdmaio run (which reads %h and %% in its commands) takes
# a part of it for something else.
demo_check_server() {
	local flaw bad host=${2#*@}
	flaw=$(demo_word_flaw "$2")
	if [ -z "$flaw" ]; then
		bad=$(demo_first_outside "$2" '[A-Za-z0-9._:@-]')
		if [ -z "$host" ] || [ "${host:0:1}" = - ]; then
			flaw="has no host after '@', or one that begins with '-'"
		elif [ -n "$bad" ]; then
			flaw="holds $(demo_shown "$bad"), which no host name, address or user name holds"
		elif [[ $2 == *@*@* ]]; then
			flaw="holds more than one '@'"
		fi
	fi
	[ -z "$flaw" ] ||
		demo_refuse "$1 $(demo_shown "$2") $flaw: give the ${3:-server}'s host name or address, or USER@HOST (e.g. ${4:-$1=host-b})"
}

# NAME VALUE: an IPv4 or IPv6 address, as nfsrdma mount, ip route and the
# job files take it.
demo_check_ip() {
	local flaw
	flaw=$(demo_word_flaw "$2")
	if [ -z "$flaw" ] && ! [[ $2 =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]] &&
		! [[ $2 =~ ^[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*$ ]]; then
		flaw="is no IPv4 or IPv6 address"
	fi
	[ -z "$flaw" ] ||
		demo_refuse "$1 $(demo_shown "$2") $flaw: give the server's address on the RDMA link (e.g. $1=192.0.2.10)"
}

# NAME VALUE: the rdmaio checkout on the server. Its path goes into
# commands that rdmaio run splits on blanks and ssh joins again for the
# server's shell: only characters that neither reads as syntax.
demo_check_dir() {
	local flaw bad
	flaw=$(demo_word_flaw "$2")
	if [ -z "$flaw" ] && [ "${2:0:1}" != / ]; then
		flaw="is no absolute path"
	elif [ -z "$flaw" ]; then
		bad=$(demo_first_outside "$2" '[A-Za-z0-9/._+,@=-]')
		[ -z "$bad" ] ||
			flaw="holds $(demo_shown "$bad"), which the server's shell would read as syntax or a word break"
	fi
	[ -z "$flaw" ] ||
		demo_refuse "$1 $(demo_shown "$2") $flaw: the demo takes only letters, digits and / . _ + , @ = - in it; put rdmaio there in such a folder and name it (e.g. $1=/opt/rdmaio)"
}

# NAME VALUE: an RDMA device's name, as ibv_devices lists it.
demo_check_dev() {
	local flaw bad
	flaw=$(demo_word_flaw "$2")
	bad=$(demo_first_outside "$2" '[A-Za-z0-9._-]')
	[ -n "$flaw" ] || [ -z "$bad" ] || flaw="holds $(demo_shown "$bad")"
	[ -z "$flaw" ] ||
		demo_refuse "$1 $(demo_shown "$2") $flaw: give an RDMA device's name as ibv_devices lists it (e.g. $1=mlx5_0)"
}

# One ssh connection for the whole demo (OpenSSH's ControlMaster): each later
# command opens a channel on it instead of a new key exchange. Needs demo_tmp.
# Every ssh and scp puts -- before the host and its operands.
demo_ssh_init() {
	demo_ssh_opts=(-o BatchMode=yes -o ConnectTimeout=15 -o ServerAliveInterval=15
		-o ControlMaster=auto -o "ControlPath=$demo_tmp/ssh-%C" -o ControlPersist=yes)
}

# Every host reached: the server and the remote clients.
demo_ssh_close() {
	local h
	for h in "$DEMO_SERVER" "${demo_remote_clients[@]}"; do
		ssh "${demo_ssh_opts[@]}" -O exit -- "$h" 2>/dev/null
	done
}

# A word quoted for the remote sh (POSIX single quotes).
demo_q() {
	printf "'%s'" "${1//\'/\'\\\'\'}"
}

# HOST ARG...: runs the sh script on stdin on HOST (with HOSTS=1, the
# server's side on this host), with ARG... as $1...
demo_remote_sh() {
	local host=$1 cmd="sh -s --" w
	shift
	if [ "$hosts" = 1 ]; then
		sh -s -- "$@"
		return
	fi
	for w in "$@"; do
		cmd+=" $(demo_q "$w")"
	done
	ssh "${demo_ssh_opts[@]}" -- "$host" "$cmd"
}

# An undo: here (L, quoted for bash's eval) or on a host reached over ssh
# (RHOST, quoted for its sh; checked host names hold no blank), an argv
# kept as one string of quoted words after a blank.
demo_push_undo_at() {
	local where=$1 w s=
	shift
	for w in "$@"; do
		if [ "$where" = L ]; then
			s+=" $(printf '%q' "$w")"
		else
			s+=" $(demo_q "$w")"
		fi
	done
	demo_undos+=("$where$s")
}
demo_push_undo() { demo_push_undo_at L "$@"; }
# HOST CMD...
demo_push_remote_undo() {
	local host=$1
	shift
	demo_push_undo_at "R$host" "$@"
}

# The server's own undo steps, sent with the setup and with every undo
# script.
demo_remote_helpers() {
	declare -f demo_io_opts
	cat <<'SH'
tab=$(printf '\t')
# Puts back each export that etab listed before the demo ($1, its copy) and
# lists no longer, or with other options: nfsrdma's `exportfs -r` drops
# every export that `exportfs -o` made. etab writes a path's blanks and
# backslashes as \ooo; printf's %b reads them as \0ooo.
demo_restore_exports() {
	bad=0
	while IFS= read -r line; do
		grep -qxF -e "$line" /var/lib/nfs/etab 2>/dev/null && continue
		path=$(printf '%s' "${line%%"$tab"*}" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')
		path=$(printf '%bx' "$path")
		path=${path%x}
		rest=${line#*"$tab"}
		client=${rest%%(*}
		opts=${rest#*(}
		opts=${opts%)}
		exportfs -o "$opts" "$client:$path" >/dev/null 2>&1 || :
		grep -qxF -e "$line" /var/lib/nfs/etab || {
			printf "demo: on %s, the export of %s to %s was there before the demo and could not be put back; put it back with: exportfs -o '%s' '%s:%s'\n" \
				"$(hostname)" "$path" "$client" "$opts" "$client" "$path" >&2
			bad=1
		}
	done <"$1"
	return $bad
}
# Starts fio --server on a unix socket in the root-only folder $1 and prints
# the line of its pid; fails when no socket comes.
demo_start_fio() {
	fio --server="sock:$1/fio.sock" --daemonize="$1/fio.pid"
	echo "fio=$(cat "$1/fio.pid")"
	i=0
	while [ ! -S "$1/fio.sock" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -S "$1/fio.sock" ] || { echo "fio --server made no socket $1/fio.sock" >&2; return 1; }
}
# Unmounts the export's tmpfs $1. A running nfsd (one that ran before the
# demo, and stays) can hold it for a while after the export is gone: its
# export cache (flushed by exportfs -f; clients still active get new entries
# from mountd) and its cache of open files (closed a few seconds after their
# last use). So a busy mount is tried again for up to 10 s.
demo_umount_export() {
	i=0
	while ! umount "$1" 2>/dev/null; do
		[ $i -lt 20 ] || { umount "$1"; return; }
		[ $i != 0 ] || exportfs -f
		sleep 0.5
		i=$((i + 1))
	done
}
# Stops the fio --server the demo started, pid $1, if that pid still is
# that fio (its socket $2 on its command line), and waits until it is gone.
demo_stop_fio() {
	tr '\0' ' ' 2>/dev/null <"/proc/$1/cmdline" | grep -qF -e "--server=sock:$2" || return 0
	kill "$1" || return 1
	i=0
	while grep -qs '^State:[^Z]*$' "/proc/$1/status" && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! grep -qs '^State:[^Z]*$' "/proc/$1/status"
}
SH
}

# Runs the undos collected in demo_script on demo_script_host as one
# script. A host that cannot be reached any more is named.
demo_undo_flush() {
	[ -n "$demo_script" ] || return 0
	demo_remote_sh "$demo_script_host" <<<"$(demo_remote_helpers)"$'\n'"rc=0"$'\n'"$demo_script"'exit $rc'
	local rc=$?
	[ $rc -ne 255 ] || [ "$hosts" = 1 ] ||
		echo "demo: teardown on $demo_script_host failed: ssh could not reach it; undo there by hand: $demo_script" >&2
	demo_script=
	return $rc
}

# Newest first; one host's undos in a row go over as one script.
demo_undo_all() {
	local i rc=0 u host cmd
	demo_script= demo_script_host=
	for ((i = ${#demo_undos[@]} - 1; i >= 0; i--)); do
		u=${demo_undos[i]}
		if [ "${u:0:1}" = R ]; then
			host=${u:1}
			host=${host%% *}
			cmd=${u:$((1 + ${#host}))}
			[ "$host" = "$demo_script_host" ] || demo_undo_flush || rc=1
			demo_script_host=$host
			demo_script+="$cmd >/dev/null || { echo \"demo: teardown step failed on \$(hostname): \"$(demo_q "$cmd") >&2; rc=1; }"$'\n'
			continue
		fi
		demo_undo_flush || rc=1
		if ! eval "${u:1}" </dev/null >/dev/null 2>"$demo_tmp/undo.err"; then
			echo "demo: teardown step failed: ${u:1}: $(tail -n 1 "$demo_tmp/undo.err")" >&2
			rc=1
		fi
	done
	demo_undo_flush || rc=1
	demo_undos=()
	return $rc
}

# HOST ROLE: nothing changes before these pass on every host: ssh access as
# root, its rdmaio build and fio (the same version: fio's client and server
# must match); a client's route to the server. Each failure is refused
# (exit 2), naming the host. Sets demo_boot (the host's boot id: one per
# machine and boot, whatever name reached it) and, for a client, demo_src
# (its address towards the server).
demo_preflight() {
	local host=$1 role=$2 out uid= fio_there= missing=() line rc=0 engine_missing= dest=${1#*@}
	demo_boot= demo_src=
	out=$(demo_remote_sh "$host" "$DEMO_SERVER_DIR" "$RDMAIO_ENGINE" "$role" "${RDMAIO_SERVER_IP:-}" <<'SH' 2>"$demo_tmp/ssh.err"
echo "uid=$(id -u)"
echo "boot=$(cat /proc/sys/kernel/random/boot_id)"
for f in build/nfsrdma build/rdmaio build/librdmaio.so; do
	[ -f "$1/$f" ] || echo "missing=$f"
done
[ -f "$2" ] || echo "engine=$2"
echo "fio=$(fio --version 2>/dev/null)"
[ "$3" = server ] || echo "src=$(ip route get "$4" 2>/dev/null | sed -n 's/.* src \([^ ]*\).*/\1/p' | head -n 1)"
SH
	) || rc=$?
	# 255 is ssh's own failure: no connection, or no login.
	[ $rc -ne 255 ] || demo_refuse "cannot ssh to the $role $host (ssh said: $(tail -n 1 "$demo_tmp/ssh.err")); nothing was changed on any host
demo:   fix: make 'ssh -o BatchMode=yes $host true' work from here: the host up, its name
demo:   known, key login as root (ssh-copy-id root@$dest); the demo never asks for a password"
	[ $rc -eq 0 ] || demo_refuse "ssh $host (the $role): checking it failed (status $rc: $(tail -n 1 "$demo_tmp/ssh.err")); nothing was changed on any host"
	while IFS= read -r line; do
		case $line in
		uid=*) uid=${line#uid=} ;;
		boot=*) demo_boot=${line#boot=} ;;
		src=*) demo_src=${line#src=} ;;
		missing=*) missing+=("${line#missing=}") ;;
		fio=*) fio_there=${line#fio=} ;;
		engine=*) engine_missing=${line#engine=} ;;
		esac
	done <<<"$out"
	[ "$uid" = 0 ] || demo_refuse "ssh $host (the $role) logs in as uid $uid, not root: nfsrdma and the jobs need root there
demo:   fix: log in as root (root@$dest, or 'User root' for it in ~/.ssh/config); sudo is not used"
	[ ${#missing[@]} -eq 0 ] || demo_refuse "$host (the $role) has no rdmaio build in $DEMO_SERVER_DIR (missing: ${missing[*]})
demo:   fix: clone rdmaio there and run 'make' (it fetches what it needs), or name its folder with SERVER_DIR=/path (one path on every host)"
	[ -z "$engine_missing" ] || demo_refuse "$host (the $role) has no $engine_missing: fio's client expands \${RDMAIO_ENGINE} here before it sends a job file, so the jobs there load this host's path
demo:   fix: put rdmaio's checkout there at $(dirname "$(dirname "$engine_missing")") too (or link that path to $DEMO_SERVER_DIR)"
	[ -n "$fio_there" ] ||
		demo_refuse "$host (the $role) has no fio: install it there (apt-get install fio, or 'make deps' in $DEMO_SERVER_DIR)"
	[ "$fio_there" = "$(fio --version)" ] ||
		demo_refuse "$host (the $role) runs $fio_there, this host $(fio --version): fio's client and server must be one version; install the same fio on every host"
	[[ $demo_boot =~ ^[0-9a-f-]{36}$ ]] ||
		demo_refuse "$host (the $role) printed no boot id ($(demo_shown "$demo_boot")): the demo runs on Linux hosts"
	[ "$role" = server ] || [ -n "$demo_src" ] ||
		demo_refuse "client $host has no route to the server's $RDMAIO_SERVER_IP: give the server's address on the RDMA link, one that every client reaches (SERVER_IP=)"
	[ "$role" = server ] || [[ $demo_src =~ ^[0-9A-Fa-f.:]+$ ]] ||
		demo_refuse "client $host printed $(demo_shown "$demo_src") as its address towards $RDMAIO_SERVER_IP, which is no address: check 'ip route get $RDMAIO_SERVER_IP' there"
}

# The server side, in one script: nfsd with an RDMA listener, a folder of
# the demo's own exported to each client host (with several, a folder in it
# per client, as every host's fio names its files alike), and (with two
# hosts or more) fio --server on a unix socket in a root-only folder (fio's
# protocol has no authentication: it never listens on the network). It needs none of the
# jobs' variables: fio's client expands them here before it sends a job.
# With ip2 (the address the TCP nconnect mounts go by), the server must hold
# it; in the lab (add2=1) the script adds it beside ip1, on ip1's device.
# It checks before it changes anything, and prints one line per thing it
# made, as soon as it made it, so that a failure half-way still undoes the
# rest.
demo_server_script() {
	demo_remote_helpers
	cat <<'SH'
set -eu
dir=$1 clients=$2 fsid=$3 tmpfs=$4 write=$5 copy=$6 fio=$7 subdirs=$8
ip1=$9 ip2=${10} add2=${11}
# An address's device and prefix length here: "eth0 24"; nothing when
# this host does not hold it.
dev_of() { ip -o addr show | awk -v a="$1" '{ split($4, p, "/") } p[1] == a { print $2 " " p[2]; exit }'; }
dev1=$(dev_of "$ip1")
dev2=
[ -z "$ip2" ] || dev2=$(dev_of "$ip2")
# ip2 carries the TCP nconnect mounts: on ip1's device, or they would
# cross another link than the RDMA and plain TCP ones.
if [ -n "$dev2" ] && [ "${dev2% *}" != "${dev1% *}" ]; then
	echo "demo: SERVER_IP2 $ip2 is on $(hostname)'s ${dev2% *}, not on ${dev1% *} with $ip1: its TCP traffic would cross another link than the other mounts'" >&2
	echo "demo:   fix: give an address of ${dev1% *} on $(hostname) as SERVER_IP2 (ip addr add ADDRESS/PREFIX dev ${dev1% *} there), or leave SERVER_IP2 out" >&2
	exit 1
elif [ -n "$dev2" ]; then
	add2=0
elif [ -n "$ip2" ] && { [ "$add2" != 1 ] || [ -z "$dev1" ]; }; then
	echo "demo: SERVER_IP2 $ip2 is not an address of $(hostname) (its addresses: $(ip -o addr show | awk '{ sub("/.*", "", $4); printf "%s ", $4 }'))" >&2
	echo "demo:   fix: give an address the server holds on the RDMA link's network, other than $ip1; or leave SERVER_IP2 out (the demo then runs without NFS over TCP with nconnect)" >&2
	exit 1
fi
threads=$(cat /proc/fs/nfsd/threads 2>/dev/null || echo 0)
ports=$(tr '\n' ' ' 2>/dev/null </proc/fs/nfsd/portlist || :)
# A running nfsd is used as it is and left running: the kernel cannot drop
# one listener alone, so one that the demo added would stay after it.
if [ "$threads" != 0 ] || [ -n "$ports" ]; then
	if [ "$threads" = 0 ] || ! grep -qx 'rdma 20049' /proc/fs/nfsd/portlist; then
		echo "demo: nfsd runs on $(hostname) without threads or without an RDMA listener on port 20049 (threads: $threads; listeners: ${ports:-none}); the demo adds none to a running NFS server, as the kernel cannot remove one listener alone" >&2
		echo "demo:   fix: add it there yourself, and it stays: $dir/build/nfsrdma server start; then run the demo again" >&2
		exit 1
	fi
fi
rdir=$(mktemp -d /run/rdmaio-demo.XXXXXX)
echo "rdir=$rdir"
if [ -n "$ip2" ] && [ "$add2" = 1 ]; then
	ip addr add "$ip2/${dev1#* }" dev "${dev1% *}"
	echo "addr=$ip2/${dev1#* } ${dev1% *}"
fi
cat /var/lib/nfs/etab >"$rdir/etab" 2>/dev/null || :
echo "etab=$rdir/etab"
if [ ! -d /srv ]; then
	mkdir /srv
	echo "srv=/srv"
fi
export=$(mktemp -d /srv/rdmaio-demo.XXXXXX)
echo "folder=$export"
# The lab's server keeps the files in memory: the report says so.
if [ "$tmpfs" = 1 ]; then
	mount -t tmpfs -o size=1g,mode=0700 tmpfs "$export"
	echo "tmpfs=$export"
fi
# After the folder: an nfsd the demo started is stopped before the folder is
# unmounted, so nothing of nfsd's (its open files) holds it then.
if [ "$threads" = 0 ] && [ -z "$ports" ]; then
	out=$("$dir/build/nfsrdma" server start --threads 8)
	case $out in "nfsd started"*) echo "nfsd=started" ;; esac
fi
# The file the scp baseline copies: random, so nothing compresses it.
[ "$copy" = 0 ] || head -c "$copy" /dev/urandom >"$export/rdmaio-scp.0"
i=1
while [ "$i" -le "$subdirs" ]; do
	mkdir "$export/client$i"
	i=$((i + 1))
done
# Its undo (export del) drops the path's every client, and is harmless
# where none was added yet.
echo "export=$export"
set -f
for client in $clients; do
	"$dir/build/nfsrdma" export add "$export" --clients "$client" \
		--options "rw,$write,no_root_squash,fsid=$fsid" >/dev/null
done
set +f
demo_restore_exports "$rdir/etab"
[ "$fio" = 1 ] || exit 0
demo_start_fio "$rdir"
SH
}

# HOST LINE: one line of a host's set-up output (the server's, or a client
# host's): the undo of what it made, on that host. Sets demo_rdir and
# demo_export; refuses a path or pid it did not make.
demo_host_made() {
	local host=$1 v=${2#*=}
	case $2 in
	rdir=*) [[ $v =~ ^/run/rdmaio-demo\.[A-Za-z0-9]+$ ]] ;;
	etab=*) [[ $v =~ ^/run/rdmaio-demo\.[A-Za-z0-9]+/etab$ ]] ;;
	folder=* | tmpfs=* | export=*) [[ $v =~ ^/srv/rdmaio-demo\.[A-Za-z0-9]+$ ]] ;;
	mkdir=* | mount=*) [ "$v" = "$RDMAIO_NFS_RDMA_DIR" ] || [ "$v" = "$RDMAIO_NFS_TCP_DIR" ] ||
		[ "$v" = "$RDMAIO_NFS_TCPN_DIR" ] ;;
	# Only the lab's spare address, added by the server's set-up, once.
	addr=*) [ "$demo_add_ip2" = 1 ] && [ "$host" = "${DEMO_SERVER:-}" ] &&
		[ "${v%%/*}" = "$demo_ip2" ] && [ -z "${demo_addr_seen:-}" ] &&
		[[ $v =~ ^[0-9A-Fa-f.:]+/[0-9]+\ [A-Za-z0-9_.@-]+$ ]] && demo_addr_seen=1 ;;
	fio=*) [[ $v =~ ^[1-9][0-9]*$ ]] ;;
	*) true ;;
	esac || demo_die "the set-up of ${host:-this host} printed '$2', which is not what it makes"
	case $2 in
	rdir=*)
		demo_rdir=$v
		demo_push_remote_undo "$host" rm -rf -- "$v"
		;;
	etab=*) demo_push_remote_undo "$host" demo_restore_exports "$v" ;;
	nfsd=started) demo_push_remote_undo "$host" "$DEMO_SERVER_DIR/build/nfsrdma" server stop ;;
	srv=/srv) demo_push_remote_undo "$host" rmdir /srv ;;
	addr=*) demo_push_remote_undo "$host" ip addr del "${v% *}" dev "${v#* }" ;;
	folder=*)
		demo_export=$v
		demo_push_remote_undo "$host" rm -rf --one-file-system -- "$v"
		;;
	tmpfs=*) demo_push_remote_undo "$host" demo_umount_export "$v" ;;
	export=*) demo_push_remote_undo "$host" "$DEMO_SERVER_DIR/build/nfsrdma" export del "$v" ;;
	mkdir=*) demo_push_remote_undo "$host" rmdir -- "$v" ;;
	mount=*) demo_push_remote_undo "$host" "$DEMO_SERVER_DIR/build/nfsrdma" umount "$v" ;;
	fio=*) demo_push_remote_undo "$host" demo_stop_fio "$v" "$demo_rdir/fio.sock" ;;
	esac
}

# HOST SCRIPT-OUTPUT RC WHAT: pushes the undo of each line, then stops the
# demo if the script failed.
demo_host_undos() {
	local line
	while IFS= read -r line; do
		[ -z "$line" ] || demo_host_made "$1" "$line"
	done <<<"$2"
	[ "$3" -eq 0 ] || demo_die "setting up $4 failed (its messages are above)"
}

# CLIENTS SUBDIRS COPY: sets demo_export (the folder exported to the client
# addresses CLIENTS, blank-separated, with SUBDIRS folders client1... in it
# when there are several) and, with two hosts or more, the server's fio
# socket forwarded here (demo_forward).
demo_server_setup() {
	local clients=$1 subdirs=$2 copy=$3 out rc=0 fsid fio=1
	[ "$hosts" = 2 ] || fio=0
	# A uuid fsid cannot collide with the server's own exports' numbers.
	fsid=$(cat /proc/sys/kernel/random/uuid)
	out=$(demo_server_script | demo_remote_sh "${DEMO_SERVER:-}" "$DEMO_SERVER_DIR" "$clients" \
		"$fsid" "${RDMAIO_LAB:-0}" "$demo_export_write" "$copy" "$fio" "$subdirs" \
		"$RDMAIO_SERVER_IP" "$demo_ip2" "$demo_add_ip2") || rc=$?
	demo_host_undos "${DEMO_SERVER:-}" "$out" $rc "${DEMO_SERVER:-this host}"
	[ "$fio" = 1 ] || return 0
	demo_forward "$DEMO_SERVER"
	demo_server_sock=$demo_sock
}

# MOUNTPOINT: its NFS mount's rsize= and wsize= ("rsize=R,wsize=W"), as
# /proc/mounts shows them. The TCP mount takes the RDMA mount's: RDMA's
# largest depends on the device (512 KiB on Soft-RoCE, where TCP's is
# 1 MiB), and a comparison whose sides move different sizes per call is no
# fair one (rdmaio's fairness check flags it). POSIX sh: the client script
# runs it too.
demo_io_opts() {
	awk -v m="$1" '$2 == m && $3 ~ /^nfs/ {
		n = split($4, o, ",")
		s = ""
		for (i = 1; i <= n; i++)
			if (o[i] ~ /^[rw]size=[0-9]+$/)
				s = s (s == "" ? "" : ",") o[i]
		print s
	}' /proc/mounts
}

# A client host other than this one, in one script: the mount points
# (unless they are there), the export (or its folder for this client)
# mounted over RDMA and over TCP, and with src2 (the same by the server's
# second address) over TCP with nconnect, and fio --server on a unix socket
# in a root-only folder, as on the server.
demo_client_script() {
	demo_remote_helpers
	cat <<'SH'
set -eu
dir=$1 src=$2 rdma=$3 tcp=$4 src2=$5 tcpn=$6
rdir=$(mktemp -d /run/rdmaio-demo.XXXXXX)
echo "rdir=$rdir"
for d in "$rdma" "$tcp" ${src2:+"$tcpn"}; do
	[ -e "$d" ] && continue
	mkdir "$d"
	echo "mkdir=$d"
done
"$dir/build/nfsrdma" mount "$src" "$rdma" --proto rdma --vers 3 >/dev/null
echo "mount=$rdma"
io=$(demo_io_opts "$rdma")
"$dir/build/nfsrdma" mount "$src" "$tcp" --proto tcp --vers 3 ${io:+-o "$io"} >/dev/null
echo "mount=$tcp"
if [ -n "$src2" ]; then
	"$dir/build/nfsrdma" mount "$src2" "$tcpn" --proto tcp --vers 3 \
		--nconnect 8 ${io:+-o "$io"} >/dev/null
	echo "mount=$tcpn"
fi
demo_start_fio "$rdir"
SH
}

# FILE: the job file without its -tcp-nconnect sections: for a server with
# one address, where a TCP mount with nconnect would share the plain TCP
# mount's single connection.
demo_two_transports() {
	awk '/^[[:space:]]*\[/ { skip = ($0 ~ /-tcp-nconnect\][[:space:]]*$/) } !skip' "$1"
}

# HOST SOURCE SOURCE2: mounts SOURCE (the server's ADDRESS:FOLDER) on HOST,
# and SOURCE2 (by its second address; none: no TCP nconnect mount), and
# starts its fio --server, forwarded here (demo_sock).
demo_client_setup() {
	local out rc=0
	out=$(demo_client_script | demo_remote_sh "$1" "$DEMO_SERVER_DIR" "$2" \
		"$RDMAIO_NFS_RDMA_DIR" "$RDMAIO_NFS_TCP_DIR" "$3" \
		"$RDMAIO_NFS_TCPN_DIR") || rc=$?
	demo_host_undos "$1" "$out" $rc "client $1"
	demo_forward "$1"
}

# HOST: forwards HOST's fio socket (in demo_rdir there) to demo_sock here,
# $demo_tmp/hosts/hN, with the ssh name beside it in hN.dest: `rdmaio run`
# gives a command the socket's path for %h, and scripts/demo-ssh reads the
# host from there (the name itself may hold a ':', which -L would split).
# The forward lives in the ssh master connection; -O cancel removes it.
demo_forward() {
	local spec n
	mkdir -p "$demo_tmp/hosts"
	n=$(find "$demo_tmp/hosts" -name '*.dest' | wc -l)
	demo_sock=$demo_tmp/hosts/h$n
	printf '%s\n' "$1" >"$demo_sock.dest"
	spec=$demo_sock:$demo_rdir/fio.sock
	if ssh "${demo_ssh_opts[@]}" -O forward -L "$spec" -- "$1" \
		</dev/null 2>"$demo_tmp/forward.err"; then
		demo_push_undo ssh "${demo_ssh_opts[@]}" -O cancel -L "$spec" -- "$1"
		for _ in $(seq 100); do
			[ -S "$demo_sock" ] && return 0
			sleep 0.1
		done
	fi
	demo_die "ssh could not forward $1's fio socket ($demo_rdir/fio.sock) here ($(tail -n 1 "$demo_tmp/forward.err"))
demo:   fix: allow it in $1's sshd_config (AllowStreamLocalForwarding yes)"
}
