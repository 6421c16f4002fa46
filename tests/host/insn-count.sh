#!/bin/bash
# The exact lab's instruction counter, end to end: lab/run --insn-count loads
# the plugin, a guest process closes windows with the mark, and the host names
# each block's function. A loop of known length, run at two lengths, must come
# out as a whole number of instructions per turn, all in its own function.
# Boots one exact guest.
cd "$(dirname "$0")/../.."
. tests/lib.sh
tmp=$(mktemp -d)
out=build/test-insn.$$
trap 'rm -rf "$tmp" "$out"' EXIT
export TMPDIR=$tmp

make -s lab-insn >"$tmp/make.log" 2>&1 || {
	echo "not ok - make lab-insn builds the plugin and the mark"
	sed 's/^/#   /' "$tmp/make.log"
	exit 1
}

# The loop's sum goes through an empty asm so the compiler keeps every turn.
# It sleeps first, so the guest's side has read its maps (until they have
# been still for a second) before it runs; asleep, an exact guest's clock
# jumps ahead at no cost.
cat >"$tmp/spin.c" <<'EOF'
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) static unsigned long spin_loop(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++) {
		s += i;
		__asm__ volatile("" : "+r"(s));
	}
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	sleep(2);
	return (int)(spin_loop(strtoul(argv[1], NULL, 10)) & 1);
}
EOF
cc -O1 -o "$tmp/spin" "$tmp/spin.c"

# In the guest: two windows of the loop, named and counted as insnlab keeps
# them (the names, the turns, the processes' maps), then the kernel's symbols.
cat >"$tmp/guest.py" <<EOF
import subprocess, sys
sys.path.insert(0, "$PWD/scripts")
import insnlab
w = insnlab.Windows()
for n in (1000000, 3000000):
    w.begin()
    subprocess.run(["$tmp/spin", str(n)])
    w.end("spin", n)
w.finish()
EOF
rc=0
lab/run --exact --insn-count "$out" --timeout 300 -- python3 "$tmp/guest.py" >"$tmp/lab.out" 2>&1 || rc=$?
check "an exact guest runs with the counter loaded" test "$rc" = 0
check "each mark writes a window, and the guest its maps and the kernel's symbols" \
	test -s "$out/window-0001.txt" -a -s "$out/window-0003.txt" -a -s "$out/maps-0003.txt" \
	-a -s "$out/kallsyms" -a -s "$out/windows.json"

cat >"$tmp/turn.py" <<EOF
import os, sys
sys.path.insert(0, "scripts")
import insnlab
namer = insnlab.Namer(insnlab.Kallsyms("$out/kallsyms"))
(name, short, long_), = insnlab.pairs("$out")
per = insnlab.per_message("$out", namer, short, long_)
turn = per.get(("spin", "spin_loop"), 0)
user = sum(v for (o, _), v in per.items() if not insnlab.is_kernel(o))
print(f"spin_loop: {turn} instructions per turn; user space {user}")
# Whole: a count per block is exact, not a sample. 2 to 8: a loop body.
# The rest of user space is the same in both runs (the guest's side reads
# /proc until the maps have been still for a second, before the loop):
# 2.5 % of a turn is 50,000.
assert abs(turn - round(turn)) < 1e-3 and 2 <= round(turn) <= 8, turn
assert abs(user - turn) < 0.025 * turn, user
EOF
check "the loop's function gets a whole number of instructions per turn, and user space little else" \
	python3 "$tmp/turn.py"
check "insn-report prints the loop's object per turn" \
	bash -c "scripts/insn-report.py '$out' | grep -E '^\| spin +\| +[2-8] \|'"

# What the report refuses.
mkdir "$tmp/bad"
cp "$out"/* "$tmp/bad/"
sed -i '1a lost 3' "$tmp/bad/window-0003.txt"
check_fails "a window the counter could not keep whole is refused" 1 'ran out of memory' \
	scripts/insn-report.py "$tmp/bad"
cp "$out/window-0003.txt" "$tmp/bad/"
python3 -c "import json; p='$tmp/bad/windows.json'; d=json.load(open(p)); json.dump(d[:1], open(p, 'w'))"
check_fails "a run with one length only is refused" 1 "'spin' has 1 runs, not two lengths" \
	scripts/insn-report.py "$tmp/bad"
done_testing
