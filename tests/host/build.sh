#!/bin/bash
# The build's promises: `make deps` is quiet and changes nothing when all is
# present; the engine is built only against the source of the installed fio, and
# a wrong tree is a clear error, never a silent ABI break.
cd "$(dirname "$0")/../.."
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "make deps prints nothing when everything is installed" \
	bash -c 'out=$(make -s deps 2>&1) && [ -z "$out" ] || { echo "$out"; false; }'
check "build/fio-src is the configured source of the installed fio" \
	bash -c 'grep -qx "FIO_VERSION = $(fio --version)" build/fio-src/FIO-VERSION-FILE &&
		test -f build/fio-src/config-host.h'
check "the engine is built from it" test -f build/librdmaio.so

mkdir -p "$tmp/fio"
cp build/fio-src/config-host.h "$tmp/fio/"
echo "FIO_VERSION = fio-3.99" >"$tmp/fio/FIO-VERSION-FILE"
check_fails "FIO_SRC of another fio version is a build error naming both versions" \
	nonzero "fio-3\.99.*$(fio --version)" \
	make -s B="$tmp/b" FIO_SRC="$tmp/fio" "$tmp/b/librdmaio.so"
rm "$tmp/fio/config-host.h"
check_fails "an unconfigured FIO_SRC says to run ./configure" nonzero \
	"config-host.h is missing.*configure" \
	make -s B="$tmp/b" FIO_SRC="$tmp/fio" "$tmp/b/librdmaio.so"
done_testing
