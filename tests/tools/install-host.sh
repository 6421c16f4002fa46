#!/bin/bash
# make install as a tool of its field: into a staged root (DESTDIR, PREFIX=/usr)
# every file lands where it belongs with sane modes, nothing else lands; the
# man pages render without a warning, carry a NAME for lexgrog, stand alone and
# name every subcommand and option of rdmaio and nfsrdma and every option of
# librdmaio's fio table; the installed rdmaio finds the installed job files by
# name; make uninstall takes back exactly what install put, and leaves other
# files alone. Needs no root and never writes outside its temporary folder:
# make builds in a copy of BUILD and installs under DESTDIR there.
# Usage: tests/tools/install-host.sh [BUILD [MAKEVAR=VALUE...]]
#   BUILD: the repo's build folder (default build); MAKEVAR: the variables it
#   was built with (SAN=1, CC=clang), so that what make rebuilds matches.
# shellcheck disable=SC2317 # the checks' functions run through check()
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/tests/lib.sh"
build=$(realpath "${1:-$repo/build}")
shift
makevars=("$@")
# An ASan build relinks only with SAN=1; say it for a caller who did not.
if [[ " ${makevars[*]} " != *" SAN="* ]] && grep -q __asan_init "$build/rdmaio" 2>/dev/null; then
	makevars+=(SAN=1)
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmaio-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
prefix=/usr
stage=$root$prefix
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

# The build's outputs, copied: make rebuilds what PREFIX changes (jobpath.o,
# the pages) in the copy, never in the caller's folder.
mkdir -p "$tmp/build/tests"
for p in tools deploy engine rdmaio nfsrdma librdmaio.so; do
	[ -e "$build/$p" ] && cp -a "$build/$p" "$tmp/build/"
done
[ -e "$build/tests/engine" ] && cp -a "$build/tests/engine" "$tmp/build/tests/"
mk() {
	make -C "$repo" --no-print-directory -s B="$tmp/build" "${makevars[@]}" \
		DESTDIR="$root" PREFIX="$prefix" "$@"
}

# Every absolute path a command of `make -n TARGET` names lies in $tmp or the
# repo: nothing is written to the real PREFIX.
stays_inside() {
	local line word words bad=0
	while read -r line; do
		case $line in
		install* | "[ "* | rm* | for* | *rmdir*) ;;
		*) continue ;;
		esac
		read -ra words <<<"$line"
		for word in "${words[@]}"; do
			word=${word//\"/}
			case $word in
			/*) [[ $word == "$tmp"/* || $word == "$repo"/* ]] ||
				{ echo "outside DESTDIR: $word in: $line"; bad=1; } ;;
			esac
		done
	done < <(mk -n "$1")
	return "$bad"
}
# What install writes, as make uninstall lists it, without DESTDIR.
installed_paths() {
	mk -n uninstall | sed -n 's/^rm -f //p' | tr ' ' '\n' | sed "s|^$root||"
}
# The real paths install would write: their state, to see nothing changed.
real_state() {
	local p
	for p in $(installed_paths) "$prefix/share/rdmaio"; do
		stat -c '%n %i %Y %s' "$p" 2>/dev/null || echo "$p absent"
	done
}

check "make -n install writes under DESTDIR only" stays_inside install
check "make -n uninstall removes under DESTDIR only" stays_inside uninstall
if ! stays_inside install >/dev/null || ! stays_inside uninstall >/dev/null; then
	echo "# make would write outside DESTDIR: nothing is installed"
	done_testing
fi
real_before=$(real_state)
check "make install DESTDIR=\$tmp PREFIX=/usr" mk install

# What must be there: the binaries, every job file and README, the schema and
# its README, the pages; mode and content of each; nothing else.
expected() {
	local f
	printf '0755 %s\n' "$prefix/bin/rdmaio" "$prefix/bin/nfsrdma" \
		"$prefix/lib/librdmaio.so"
	for f in $(cd "$repo" && ls jobs/*.fio jobs/*/*.fio 2>/dev/null) jobs/README.md \
		results-schema/result.schema.json results-schema/README.md; do
		echo "0644 $prefix/share/rdmaio/$f"
	done
	echo "0644 $prefix/share/man/man1/rdmaio.1"
	echo "0644 $prefix/share/man/man7/librdmaio.7"
	echo "0644 $prefix/share/man/man8/nfsrdma.8"
}
actual() {
	(cd "$root" && find . ! -type d -printf '%m %p\n') | sed 's| \./| /|' |
		awk '{ printf "%04d %s\n", $1, $2 }'
}
check "every file is installed with its mode, and nothing else" \
	diff <(expected | sort -k2) <(actual | sort -k2)
dirs_0755() { ! (cd "$root" && find . -type d ! -perm 0755 | grep .); }
check "every installed folder is 0755" dirs_0755
same_files() {
	local f
	cmp "$tmp/build/rdmaio" "$stage/bin/rdmaio" &&
		cmp "$tmp/build/nfsrdma" "$stage/bin/nfsrdma" &&
		cmp "$tmp/build/librdmaio.so" "$stage/lib/librdmaio.so" || return 1
	for f in $(cd "$repo" && ls jobs/*.fio jobs/*/*.fio 2>/dev/null) jobs/README.md \
		results-schema/result.schema.json results-schema/README.md; do
		cmp "$repo/$f" "$stage/share/rdmaio/$f" || return 1
	done
}
check "installed files are the built and the source ones" same_files

# The pages, as installed (their folders are PREFIX's) and as in the tree.
pages=("$stage/share/man/man1/rdmaio.1" "$stage/share/man/man7/librdmaio.7"
	"$stage/share/man/man8/nfsrdma.8")
render() { MANWIDTH=80 man -l "$1" 2>&1; }
no_warnings() {
	local p err
	command -v man >/dev/null ||
		{ echo "man is not installed (Debian: man-db, with groff-base)"; return 1; }
	for p in "$@"; do
		err=$(MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null) || return 1
		[ -z "$err" ] || { echo "$p: $err"; return 1; }
	done
}
check "the pages render without a warning (man --warnings)" no_warnings "${pages[@]}"
check "... the pages in man/ too" no_warnings "$repo"/man/*.[0-9]
has_name() {
	local p n
	for p in "$@"; do
		n=$(basename "${p%.*}")
		lexgrog "$p" | grep -q ": \"$n - " || { lexgrog "$p"; return 1; }
	done
}
check "lexgrog finds each page's NAME" has_name "${pages[@]}"
name_folders() {
	render "${pages[0]}" | grep -q "$prefix/share/rdmaio/jobs/" &&
		render "${pages[0]}" | grep -q "RDMAIO_ENGINE=$prefix/lib/librdmaio.so" &&
		render "${pages[1]}" | grep -q "RDMAIO_ENGINE=$prefix/lib/librdmaio.so" &&
		! grep -n /usr/local "${pages[@]}"
}
check "the pages name the installed folders, not another PREFIX's" name_folders
# Standing alone: no page sends its reader into a source tree or past the
# project (the comments in the sources may say where their text came from).
stands_alone() {
	local p
	for p in "$@"; do
		! render "$p" | grep -nE '\.\./[[:alnum:]_]|shared/|\b(engine|deploy|tools|tests|lab|scripts)/|https?:' ||
			return 1
	done
}
check "the pages cite no file outside what is installed" stands_alone "${pages[@]}"

# Every option of librdmaio's fio table is an entry of librdmaio.7's OPTIONS.
engine_options() {
	sed -n '/^static struct fio_option/,/^};/p' "$repo"/engine/*.c |
		sed -n 's/^[[:space:]]*\.name = "\([^"]*\)",*$/\1/p'
}
page_entries() { # the first word of each .TP tag, without its =VALUE
	awk 'prev ~ /^\.TP/ { sub(/^\.B[IR]* /, ""); sub(/[= ].*/, ""); gsub(/\\/, ""); print }
		{ prev = $0 }' "$1"
}
every_engine_option() {
	local o n=0 entries
	entries=$(page_entries "$repo/man/librdmaio.7")
	for o in $(engine_options); do
		n=$((n + 1))
		grep -qx -- "$o" <<<"$entries" || { echo "engine option $o is not in librdmaio.7"; return 1; }
	done
	[ "$n" -ge 11 ] || { echo "found only $n options in engine/*.c's fio_option table"; return 1; }
}
check "every engine option in engine/*.c's fio table is in librdmaio.7" every_engine_option

# rdmaio: every subcommand its usage lists is a section of rdmaio.1, every
# option of its tables (tools/rdmaio.c) and usages is in the page.
rdmaio_options() {
	sed -n 's/^[[:space:]]*{ "\([a-z][a-z-]*\)", \(OPT_[A-Z_]*\|'"'"'.'"'"'\), .*/\1/p' \
		"$repo/tools/rdmaio.c"
	"$stage/bin/rdmaio" --help | grep -oE -- '--[a-z][a-z-]*'
}
every_rdmaio_command() {
	local page s o subs
	page=$(render "${pages[0]}")
	subs=$("$stage/bin/rdmaio" --help | sed -n 's/^\(usage:\)\{0,1\} *rdmaio \([a-z-]*\).*/\2/p' | sort -u)
	[ "$(wc -w <<<"$subs")" -ge 6 ] || { echo "subcommands: $subs"; return 1; }
	for s in $subs; do
		grep -qx "   $s" <<<"$page" || { echo "rdmaio $s has no section in rdmaio.1"; return 1; }
	done
	for o in $(rdmaio_options | sed 's/^--//' | sort -u); do
		grep -q -- "--$o\b" <<<"$page" || { echo "rdmaio option --$o is not in rdmaio.1"; return 1; }
	done
}
check "every rdmaio subcommand and option is in rdmaio.1" every_rdmaio_command

# nfsrdma: every command of its usage is an entry of nfsrdma.8, every option
# of its getopt tables (deploy/main.c, deploy/cmd_*.c) is in the page.
nfsrdma_commands() {
	"$stage/bin/nfsrdma" --help | grep -E '^  [a-z]' | sed 's/ | /\n  /g' |
		awk '{ print ($2 ~ /^[a-z]+$/) ? $1 " " $2 : $1 }' | sort -u
}
every_nfsrdma_command() {
	local page c o n=0
	page=$(render "${pages[2]}")
	while read -r c; do
		n=$((n + 1))
		grep -qE "^       $c( |\$)" <<<"$page" || { echo "nfsrdma $c has no entry in nfsrdma.8"; return 1; }
	done < <(nfsrdma_commands)
	[ "$n" -ge 14 ] || { echo "found only $n nfsrdma commands"; return 1; }
	for o in $(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", \(required\|no\)_argument.*/\1/p' \
		"$repo"/deploy/main.c "$repo"/deploy/cmd_*.c) o; do
		[ ${#o} -eq 1 ] && o=-$o || o=--$o
		grep -q -- "$o\b" <<<"$page" || { echo "nfsrdma option $o is not in nfsrdma.8"; return 1; }
	done
}
check "every nfsrdma command and option is in nfsrdma.8" every_nfsrdma_command

# The installed rdmaio finds the installed job files by name (RDMAIO_DATADIR
# points it at the staged install; fio's JSON is imported, no RDMA needed).
cd "$tmp" || exit 1
cat >psync.fio <<JOB
[global]
ioengine=psync
filename=$tmp/data
size=1m
bs=64k
[w]
rw=write
JOB
fio --output-format=json --output=fio.json psync.fio >/dev/null 2>&1
data=$stage/share/rdmaio
job_paths() {
	python3 -c 'import json, sys
print("\n".join(f["path"] for f in json.load(open(sys.argv[1]))["job_files"]))' "$1"
}
by_name() {
	RDMAIO_DATADIR=$data "$stage/bin/rdmaio" run --fio-json fio.json -o r.json \
		verbs/bw nfs/seq.fio >/dev/null &&
		diff <(job_paths r.json) <(printf '%s\n' "$data/jobs/verbs/bw.fio" "$data/jobs/nfs/seq.fio")
}
check "rdmaio run finds installed job files by name, with or without .fio" by_name
by_path() {
	RDMAIO_DATADIR=$data "$stage/bin/rdmaio" run --fio-json fio.json -o p.json \
		psync.fio >/dev/null && [ "$(job_paths p.json)" = psync.fio ]
}
check "a job file given by path is used as given" by_path
names=$(cd "$repo/jobs" && find . -maxdepth 2 -name '*.fio' | sed 's|^\./||; s|\.fio$||' |
	LC_ALL=C sort | paste -sd, | sed 's/,/, /g')
check_fails "a name found nowhere fails, listing the installed job files" 1 \
	"job file nosuch: not found, neither as a path nor under $data/jobs \(installed job files: $names\)" \
	env RDMAIO_DATADIR="$data" "$stage/bin/rdmaio" run --fio-json fio.json -o n.json nosuch
check_fails "a name spelled as a path is not looked for among them" 1 \
	"job file \./verbs/bw: not found \(spelled as a path" \
	env RDMAIO_DATADIR="$data" "$stage/bin/rdmaio" run --fio-json fio.json -o n.json ./verbs/bw
check_fails "the compiled-in data folder is PREFIX's" 1 \
	"neither as a path nor under $prefix/share/rdmaio/jobs" \
	env -u RDMAIO_DATADIR "$stage/bin/rdmaio" run --fio-json fio.json -o n.json nosuch
cd "$repo" || exit 1

# uninstall: nothing of rdmaio's is left, only the standard folders (empty).
standard_dirs() {
	printf '%s\n' . ./usr ./usr/bin ./usr/lib ./usr/share ./usr/share/man \
		./usr/share/man/man1 ./usr/share/man/man7 ./usr/share/man/man8
}
nothing_left() {
	mk uninstall && ! find "$root" ! -type d | grep . &&
		diff <(cd "$root" && find . -type d | LC_ALL=C sort) <(standard_dirs | LC_ALL=C sort)
}
check "make uninstall leaves no file behind" nothing_left
# ... and takes only what install put: another package's files stay, and so
# does a job file of the user's in rdmaio's folder (with its folder).
others=("$stage/bin/other" "$stage/share/man/man1/other.1" "$stage/lib/libother.so"
	"$stage/share/rdmaio/jobs/verbs/mine.fio")
reinstall_with_others() {
	mk install && touch "${others[@]}" && mk uninstall || return 1
	diff <(cd "$root" && find . ! -type d | LC_ALL=C sort) \
		<(printf '%s\n' "${others[@]}" | sed "s|^$root|.|" | LC_ALL=C sort)
}
check "make uninstall leaves other files alone" reinstall_with_others
check "uninstall twice is harmless" mk uninstall
check "the real $prefix was not touched" diff <(echo "$real_before") <(real_state)

done_testing
