# Sourced: perftest_pair runs one perftest server/client pair robustly. perftest's
# client fails when the server is not listening yet, a failed attempt can leave the
# server stuck, and its handshake has no timeout, so each attempt starts a fresh
# server, bounds the client with timeout(1) and cleans up after itself.
# Usage: perftest_pair SERVER_IP TOOL ARG...   (prints the client's output)
# With PERFTEST_SERVER_EXEC set (e.g. to "$RDMAIO_SERVER_EXEC"), the server side
# runs through it, on the other lab guest. With PERFTEST_CLIENT_CPU set, the
# client runs pinned to that CPU (taskset -c), as `make bench` pins fio's clients.
perftest_pair() {
	local ip=$1 tool=$2 out= srv attempt pin=() pidf=
	shift 2
	[ -n "${PERFTEST_CLIENT_CPU:-}" ] && pin=(taskset -c "$PERFTEST_CLIENT_CPU")
	for attempt in 1 2 3; do
		if [ -n "${PERFTEST_SERVER_EXEC:-}" ]; then
			# Its pid there, to stop that server and no other (named by
			# this host and shell: clients of one server may run pairs at once).
			pidf=/tmp/rdmaio-perftest-$tool-$HOSTNAME-$$.pid
			$PERFTEST_SERVER_EXEC sh -c 'echo $$ >"$0"; exec timeout -k 5 90 "$@"' \
				"$pidf" "$tool" "$@" >/dev/null 2>&1 &
		else
			timeout -k 5 90 "$tool" "$@" >/dev/null 2>&1 &
		fi
		srv=$!
		sleep "$attempt"
		if out=$(timeout -k 5 60 "${pin[@]}" "$tool" "$@" "$ip" 2>&1); then
			wait $srv 2>/dev/null
			printf '%s\n' "$out"
			return 0
		fi
		if [ -n "${PERFTEST_SERVER_EXEC:-}" ]; then
			$PERFTEST_SERVER_EXEC sh -c 'kill "$(cat "$0")"' "$pidf" 2>/dev/null
		fi
		kill $srv 2>/dev/null
		wait $srv 2>/dev/null
	done
	echo "perftest_pair: $tool failed 3 times against $ip; last output:" >&2
	printf '%s\n' "$out" | tail -n 5 >&2
	return 1
}
