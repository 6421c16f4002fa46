# Sourced by scripts/demo (its checks of what the user typed, before
# anything boots) and by scripts/demo-run: the server's side of the demo,
# on the server host reached over ssh as root (BatchMode: a key, never a
# password), or on this host with HOSTS=1. Every step that changes
# something pushes its undo; demo_undo_all runs them newest first, on
# success, failure or Ctrl-C. What was there before stays as it was: the
# demo exports a folder of its own, leaves a running nfsd running, and puts
# back the exports that nfsrdma's `exportfs -r` drops.
#
# Each ssh command runs the server's login shell, with its rc files: a few
# milliseconds on a server, seconds on an emulated one. So the steps go over
# in few commands, each a POSIX sh script on ssh's stdin, and one connection
# serves them all.

demo_undos=()

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

# NAME VALUE: an ssh destination, HOST or USER@HOST. Beyond the flaws of
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
		demo_refuse "$1 $(demo_shown "$2") $flaw: give the server's host name or address, or USER@HOST (e.g. $1=host-b)"
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

demo_ssh_close() {
	ssh "${demo_ssh_opts[@]}" -O exit -- "$DEMO_SERVER" 2>/dev/null
}

# A word quoted for the remote sh (POSIX single quotes).
demo_q() {
	printf "'%s'" "${1//\'/\'\\\'\'}"
}

# Runs the sh script on stdin on the server (on this host with HOSTS=1),
# with ARG... as $1...
demo_remote_sh() {
	local cmd="sh -s --" w
	if [ "$hosts" = 1 ]; then
		sh -s -- "$@"
		return
	fi
	for w in "$@"; do
		cmd+=" $(demo_q "$w")"
	done
	ssh "${demo_ssh_opts[@]}" -- "$DEMO_SERVER" "$cmd"
}

# An undo: here (L, quoted for bash's eval) or on the server (R, quoted
# for its sh), an argv kept as one string of quoted words.
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
demo_push_remote_undo() { demo_push_undo_at R "$@"; }

# The server's own undo steps, sent with the setup and with every undo
# script.
demo_remote_helpers() {
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

# Runs the server's undos collected in demo_script as one script.
demo_undo_flush() {
	[ -n "$demo_script" ] || return 0
	demo_remote_sh <<<"$(demo_remote_helpers)"$'\n'"rc=0"$'\n'"$demo_script"'exit $rc'
	local rc=$?
	demo_script=
	return $rc
}

# Newest first; the server's undos in a row go over as one script.
demo_undo_all() {
	local i rc=0 u
	demo_script=
	for ((i = ${#demo_undos[@]} - 1; i >= 0; i--)); do
		u=${demo_undos[i]}
		if [ "${u:0:1}" = R ]; then
			demo_script+="${u:1} >/dev/null || { echo \"demo: teardown step failed on \$(hostname): \"$(demo_q "${u:1}") >&2; rc=1; }"$'\n'
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

# Nothing changes before these pass: ssh access as root, the server's rdmaio
# build and fio (the same version: fio's client and server must match).
demo_preflight() {
	local out uid= fio_there= missing=() line rc=0 engine_missing=
	out=$(demo_remote_sh "$DEMO_SERVER_DIR" "$RDMAIO_ENGINE" <<'SH' 2>"$demo_tmp/ssh.err"
echo "uid=$(id -u)"
for f in build/nfsrdma build/rdmaio build/librdmaio.so; do
	[ -f "$1/$f" ] || echo "missing=$f"
done
[ -f "$2" ] || echo "engine=$2"
echo "fio=$(fio --version 2>/dev/null)"
SH
	) || rc=$?
	# 255 is ssh's own failure: no connection, or no login.
	[ $rc -ne 255 ] || demo_die "cannot ssh to $DEMO_SERVER without a password (ssh said: $(tail -n 1 "$demo_tmp/ssh.err"))
demo:   fix: set up key login as root from here (ssh-copy-id root@${DEMO_SERVER#*@}), and check
demo:   that 'ssh -o BatchMode=yes $DEMO_SERVER true' works; the demo never asks for a password"
	[ $rc -eq 0 ] || demo_die "ssh $DEMO_SERVER: checking it failed (status $rc: $(tail -n 1 "$demo_tmp/ssh.err"))"
	while IFS= read -r line; do
		case $line in
		uid=*) uid=${line#uid=} ;;
		missing=*) missing+=("${line#missing=}") ;;
		fio=*) fio_there=${line#fio=} ;;
		engine=*) engine_missing=${line#engine=} ;;
		esac
	done <<<"$out"
	[ "$uid" = 0 ] || demo_die "ssh $DEMO_SERVER logs in as uid $uid, not root: nfsrdma and the target jobs need root there
demo:   fix: log in as root (SERVER=root@${DEMO_SERVER#*@}, or 'User root' for it in ~/.ssh/config); sudo is not used"
	[ ${#missing[@]} -eq 0 ] || demo_die "$DEMO_SERVER has no rdmaio build in $DEMO_SERVER_DIR (missing: ${missing[*]})
demo:   fix: clone rdmaio there and run 'make' (it fetches what it needs), or name its folder with SERVER_DIR=/path"
	[ -z "$engine_missing" ] || demo_die "$DEMO_SERVER has no $engine_missing: fio's client expands \${RDMAIO_ENGINE} here before it sends a job file, so the target jobs there load this host's path
demo:   fix: put rdmaio's checkout there at $(dirname "$(dirname "$engine_missing")") too (or link that path to $DEMO_SERVER_DIR)"
	[ -n "$fio_there" ] ||
		demo_die "$DEMO_SERVER has no fio: install it there (apt-get install fio, or 'make deps' in $DEMO_SERVER_DIR)"
	[ "$fio_there" = "$(fio --version)" ] ||
		demo_die "$DEMO_SERVER runs $fio_there, this host $(fio --version): fio's client and server must be one version; install the same fio on both hosts"
}

# The server side, in one script: nfsd with an RDMA listener, a folder of
# the demo's own exported to this host, and (with two hosts) fio --server
# on a unix socket in a root-only folder (fio's protocol has no
# authentication: it never listens on the network). It needs none of the
# jobs' variables: fio's client expands them here before it sends a job.
# It checks before it changes anything, and prints one line per thing it
# made, as soon as it made it, so that a failure half-way still undoes the
# rest.
demo_server_script() {
	demo_remote_helpers
	cat <<'SH'
set -eu
dir=$1 client=$2 fsid=$3 tmpfs=$4 write=$5 copy=$6 fio=$7
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
cat /var/lib/nfs/etab >"$rdir/etab" 2>/dev/null || :
echo "etab=$rdir/etab"
if [ "$threads" = 0 ] && [ -z "$ports" ]; then
	out=$("$dir/build/nfsrdma" server start --threads 8)
	case $out in "nfsd started"*) echo "nfsd=started" ;; esac
fi
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
# The file the scp baseline copies: random, so nothing compresses it.
[ "$copy" = 0 ] || head -c "$copy" /dev/urandom >"$export/rdmaio-scp.0"
"$dir/build/nfsrdma" export add "$export" --clients "$client" \
	--options "rw,$write,no_root_squash,fsid=$fsid" >/dev/null
echo "export=$export"
demo_restore_exports "$rdir/etab"
[ "$fio" = 1 ] || exit 0
fio --server="sock:$rdir/fio.sock" --daemonize="$rdir/fio.pid"
echo "fio=$(cat "$rdir/fio.pid")"
i=0
while [ ! -S "$rdir/fio.sock" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -S "$rdir/fio.sock" ] || { echo "fio --server made no socket $rdir/fio.sock" >&2; exit 1; }
SH
}

# One line of the server script's output: the undo of what it made. Sets
# demo_rdir and demo_export; refuses a path or pid it did not make.
demo_server_made() {
	local v=${1#*=}
	case $1 in
	rdir=*) [[ $v =~ ^/run/rdmaio-demo\.[A-Za-z0-9]+$ ]] ;;
	etab=*) [[ $v =~ ^/run/rdmaio-demo\.[A-Za-z0-9]+/etab$ ]] ;;
	folder=* | tmpfs=* | export=*) [[ $v =~ ^/srv/rdmaio-demo\.[A-Za-z0-9]+$ ]] ;;
	fio=*) [[ $v =~ ^[1-9][0-9]*$ ]] ;;
	*) true ;;
	esac || demo_die "the server's set-up printed '$1', which is not what it makes"
	case $1 in
	rdir=*)
		demo_rdir=$v
		demo_push_remote_undo rm -rf -- "$v"
		;;
	etab=*) demo_push_remote_undo demo_restore_exports "$v" ;;
	nfsd=started) demo_push_remote_undo "$DEMO_SERVER_DIR/build/nfsrdma" server stop ;;
	srv=/srv) demo_push_remote_undo rmdir /srv ;;
	folder=*)
		demo_export=$v
		demo_push_remote_undo rm -rf --one-file-system -- "$v"
		;;
	tmpfs=*) demo_push_remote_undo umount "$v" ;;
	export=*) demo_push_remote_undo "$DEMO_SERVER_DIR/build/nfsrdma" export del "$v" ;;
	fio=*) demo_push_remote_undo demo_stop_fio "$v" "$demo_rdir/fio.sock" ;;
	esac
}

# Sets demo_export (the folder exported to this host) and, with two hosts,
# demo_server_sock: the server's fio socket, forwarded here by ssh.
demo_server_setup() {
	local client_ip=$1 copy=$2 out rc=0 line fsid fio=1
	[ "$hosts" = 2 ] || fio=0
	# A uuid fsid cannot collide with the server's own exports' numbers.
	fsid=$(cat /proc/sys/kernel/random/uuid)
	out=$(demo_server_script | demo_remote_sh "$DEMO_SERVER_DIR" "$client_ip" \
		"$fsid" "${RDMAIO_LAB:-0}" "$demo_export_write" "$copy" "$fio") || rc=$?
	while IFS= read -r line; do
		[ -z "$line" ] || demo_server_made "$line"
	done <<<"$out"
	[ $rc -eq 0 ] || demo_die "setting up ${DEMO_SERVER:-this host} failed (its messages are above)"
	[ "$fio" = 1 ] || return 0
	demo_server_forward
}

# The forward lives in the ssh master connection; -O cancel removes it.
demo_server_forward() {
	local spec
	demo_server_sock=$demo_tmp/server-fio.sock
	spec=$demo_server_sock:$demo_rdir/fio.sock
	if ssh "${demo_ssh_opts[@]}" -O forward -L "$spec" -- "$DEMO_SERVER" \
		</dev/null 2>"$demo_tmp/forward.err"; then
		demo_push_undo ssh "${demo_ssh_opts[@]}" -O cancel -L "$spec" -- "$DEMO_SERVER"
		for _ in $(seq 100); do
			[ -S "$demo_server_sock" ] && return 0
			sleep 0.1
		done
	fi
	demo_die "ssh could not forward $DEMO_SERVER's fio socket ($demo_rdir/fio.sock) here ($(tail -n 1 "$demo_tmp/forward.err"))
demo:   fix: allow it in $DEMO_SERVER's sshd_config (AllowStreamLocalForwarding yes)"
}
