# Sourced by test scripts. Prints TAP lines ("ok - NAME", "not ok - NAME") that
# tests/run counts; the script's exit status is non-zero when any check failed.
# Use: . "$(dirname "$0")/../lib.sh"   then   check NAME CMD [ARG...]
_tap_failed=0

# check NAME CMD...: passes when CMD exits 0; on failure shows its output.
# Each check's duration follows as a TAP comment: the lab is slow, keep an eye.
check() {
	local name=$1 out rc t0=$SECONDS
	shift
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ $rc -eq 0 ]; then
		echo "ok - $name"
		echo "# $((SECONDS - t0)) s"
	else
		echo "not ok - $name (exit $rc)"
		printf '%s\n' "$out" | tail -n 40 | sed 's/^/#   /'
		_tap_failed=1
	fi
}

# check_fails NAME STATUS REGEX CMD...: passes when CMD exits with STATUS
# ("nonzero" for any failure) and its output matches the extended REGEX.
check_fails() {
	local name=$1 want=$2 re=$3 out rc t0=$SECONDS
	shift 3
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if { [ "$want" = nonzero ] && [ $rc -ne 0 ]; } || [ "$rc" = "$want" ]; then
		if printf '%s\n' "$out" | grep -Eq -- "$re"; then
			echo "ok - $name"
			echo "# $((SECONDS - t0)) s"
			return 0
		fi
		echo "not ok - $name (exit $rc as expected, but no line matches /$re/)"
	else
		echo "not ok - $name (exit $rc, expected $want)"
	fi
	printf '%s\n' "$out" | tail -n 40 | sed 's/^/#   /'
	_tap_failed=1
}

# Call last: exits with the scripts's verdict.
done_testing() {
	exit $_tap_failed
}
