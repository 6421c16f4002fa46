#!/bin/bash
# The layout's promises (ARCHITECTURE.md): tools/read/ never includes
# tools/run/, tools/result/ includes neither, tools/base/ only itself,
# directly or through a header; the breaks still there are listed by name
# in layout.py and may only shrink. No include circle in engine/, common/,
# deploy/ or tools/.
cd "$(dirname "$0")/../.."
. tests/lib.sh
check "the checkers catch a break, also through a header, and a circle" \
	python3 tests/host/layout.py selftest
check "tools/: no include across wings beyond the known ones" python3 tests/host/layout.py wings
check "no include circle between objects" python3 tests/host/layout.py cycles
done_testing
