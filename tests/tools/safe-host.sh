#!/bin/bash
# rdmaio as root on someone else's data: a result, a job file, fio or a host
# may hold anything, and nothing of it may run, be taken for an option, or
# cost the user a file. Each case is provoked for real (gnuplot, fio and
# rdmaio as they run), asserting the message, the exit status, that nothing
# ran (a marker file never made) and that nothing changed.
# Usage: tests/tools/safe-host.sh [PATH/TO/rdmaio]   (default build/rdmaio)
name=safe
. "$(dirname "$0")/host-lib.sh"

# No marker may ever appear: every hostile string below would make one.
no_marker() { ! ls "$tmp"/pwned* 2>/dev/null; }

# Job names that are gnuplot code, in a sweep (its title and key) and in a
# pair (the CDF's key, the bars' labels, the CPU panel).
cat >hostile.fio <<JOB
[global]
ioengine=psync
filename=$tmp/data
size=4m
time_based
runtime=200ms
rw=write
[x\`touch $tmp/pwned-sweep\`-4096]
bs=4096
[x\`touch $tmp/pwned-sweep\`-8192]
bs=8192
[x\`touch $tmp/pwned-sweep\`-16384]
bs=16384
[x\`touch $tmp/pwned-sweep\`-32768]
bs=32768
[a'b"c\`touch $tmp/pwned-pair\`@m -rdma]
rw=read
bs=64k
[a'b"c\`touch $tmp/pwned-pair\`@m -tcp]
rw=read
bs=64k
JOB
check "a run whose job names are gnuplot code" "$rdmaio" run -o hostile.json hostile.fio
check "... its chart draws, as SVG" "$rdmaio" report hostile.json --plot hostile.svg
check "... and PNG" "$rdmaio" report hostile.json --plot hostile.png
check "... and nothing ran: no marker" no_marker
check "... the names are shown as they are, in the key and the sweep's title" \
	grep -q "x\`touch $tmp/pwned-sweep\` jobs" hostile.svg

# A result edited by hand (still schema-valid): terminal escapes, line
# breaks, a Markdown column and spreadsheet formulas in its names.
python3 - hostile.json evil.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i, r in enumerate(d["results"]):
    r["jobname"] = ["=HYPERLINK(\"http://x\")", "+1+2", "-3+4", "@SUM(A1)",
                    "esc\x1b[2J\x9b31m\u202e|col", "two\nlines\r|x"][i % 6]
c = d["comparisons"][0]
c["workload"] = "w\x1b]0;title\x07|k"
c["verdict"] = "=cmd|' /C calc'!A0\nforged: line"
json.dump(d, open(sys.argv[2], "w"))
PY
check "a result with terminal escapes, line breaks and formulas in its names" \
	bash -c "'$rdmaio' report evil.json >evil.md && '$rdmaio' report evil.json --csv >evil.csv"
check "... the report holds no control character (a terminal would act on it)" \
	python3 -c "
import sys
t = open('evil.md', 'rb').read()
bad = [b for b in t if (b < 32 and b not in (9, 10)) or b == 127]
assert not bad, bad
assert '\u202e'.encode() not in t and b'\xc2\x9b' not in t
assert b'esc?[2J?31m?\\\\|col' in t, t
"
check "... no name starts a line of its own or adds a table column" \
	python3 -c "
t = open('evil.md').read().splitlines()
assert not [l for l in t if l.startswith(('lines', 'forged'))], t
for l in t:
    if l.startswith('|'):
        cells = l.replace('\\\\|', '').count('|')
        assert cells in (6, 13, 7, 5, 11), (cells, l)
"
check "... in the CSV a formula is text, a figure stays a number" \
	python3 -c "
import csv
rows = list(csv.reader(open('evil.csv', newline='')))
n = len(rows[0])
assert all(len(r) == n for r in rows), [len(r) for r in rows]
cells = [c for r in rows[1:] for c in r]
for c in cells:
    if c[:1] in ('=', '+', '-', '@'):
        float(c)
assert \"'=HYPERLINK(\\\"http://x\\\")\" in cells and \"'+1+2\" in cells and \"'@SUM(A1)\" in cells, cells
"
check "... and its chart draws" "$rdmaio" report evil.json --plot evil.svg
check "... with no marker" no_marker

# Hosts are hosts: an option, a blank or shell syntax is refused before
# anything starts (exit 2), whichever option takes it.
check_fails "--client '-oProxyCommand=...' is refused, exit 2" 2 \
	"run: --client '-oProxyCommand=touch $tmp/pwned-ssh' begins with '-', so ssh and fio would read it as an option" \
	"$rdmaio" run -o h.json --remote-env 'ssh -- %h rdmaio env' \
	--client "-oProxyCommand=touch $tmp/pwned-ssh" pair.fio
check_fails "--server-host with a blank" 2 "run: --server-host 'a b' holds a blank" \
	"$rdmaio" run -o h.json --server-host 'a b' --client-host local pair.fio
check_fails "--client-host with shell syntax" 2 "run: --client-host 'h\\\$\\(touch x\\)' holds '\\\$'" \
	"$rdmaio" run -o h.json --server-host local --client-host 'h$(touch x)' pair.fio
check_fails "--client sock: a path that is an option" 2 "run: --client 'sock:-x' begins with '-'" \
	"$rdmaio" run -o h.json --client sock:-x pair.fio
check "... nothing ran, no result" bash -c "no_marker() { ! ls $tmp/pwned* 2>/dev/null; }; no_marker && [ ! -e h.json ] && [ ! -e x ]"

# Files as root: -o never costs the user a file.
write_pair_fio 200ms
echo "my notes" >notes.txt
check_fails "-o an existing file that is not a result: refused" 1 \
	"output notes.txt: exists and is not JSON, not an rdmaio result: rdmaio will not replace it \(pass another -o, or --force to replace it\)" \
	"$rdmaio" run -o notes.txt pair.fio
check "... it is as it was" grep -qx "my notes" notes.txt
echo '{"schema": "something-else/1"}' >other.json
check_fails "-o another program's JSON: refused" 1 "output other.json: exists and is a JSON document of another kind" \
	"$rdmaio" run -o other.json pair.fio
check_fails "-o the job file itself: refused, even with --force" 1 \
	"output pair.fio: is a job file of this run: writing the result there would lose it" \
	"$rdmaio" run -o pair.fio --force pair.fio
check "... the job file is intact" grep -q '^\[seq-read-rdma\]' pair.fio
ln -s notes.txt link.json
check_fails "-o a symbolic link: refused" 1 "output link.json: is a symbolic link" \
	"$rdmaio" run -o link.json pair.fio
check_fails "-o a device, even with --force" 1 "output /dev/null: exists and is not a regular file" \
	"$rdmaio" run -o /dev/null --force pair.fio
check "-o an existing result is replaced" bash -c \
	"'$rdmaio' run -o again.json pair.fio >/dev/null && '$rdmaio' run -o again.json pair.fio >/dev/null"
check "--force replaces a file that is not a result" bash -c \
	"'$rdmaio' run -o notes.txt --force pair.fio >/dev/null && grep -q rdmaio-result notes.txt"
check "... the file a replaced link pointed to is untouched" bash -c \
	"echo kept >kept.txt && ln -sf kept.txt l2.json && '$rdmaio' run -o l2.json --force pair.fio >/dev/null && [ ! -L l2.json ] && grep -qx kept kept.txt"
echo "my notes" >envnotes.txt
check_fails "env -o: the same rule" 1 "output envnotes.txt: exists and is not JSON, not an \`rdmaio env\` document" \
	"$rdmaio" env -o envnotes.txt
check "... env -o over an env document works" bash -c "'$rdmaio' env -o e.json && '$rdmaio' env -o e.json && grep -qx 'my notes' envnotes.txt"

# The chart never writes through a link at its path or leaves a file there
# on failure.
echo "precious" >precious.txt
ln -s precious.txt chart.svg
check "--plot onto a symbolic link replaces the link, not its target" bash -c \
	"'$rdmaio' report again.json --plot chart.svg >/dev/null && [ ! -L chart.svg ] && grep -qx precious precious.txt && grep -q '<svg' chart.svg"

# Temporary files only under a TMPDIR that other users cannot swap files in.
mkdir -m 0777 open
check_fails "a TMPDIR every user may write to without the sticky bit: run refused" 1 \
	"TMPDIR $tmp/open: every user may write there and it has no sticky bit" \
	env TMPDIR="$tmp/open" "$rdmaio" run -o t.json pair.fio
check_fails "... and so is the local fio --server's socket folder" 1 \
	"local fio server: TMPDIR $tmp/open: every user may write there" \
	env TMPDIR="$tmp/open" "$rdmaio" run -o t.json --server-host local --client-host local pair.fio
check_fails "... and the chart's" 1 "plot c.svg: TMPDIR $tmp/open: every user may write there" \
	env TMPDIR="$tmp/open" "$rdmaio" report again.json --plot c.svg
check "... nothing was made there, no result, no chart" bash -c "[ -z \"\$(ls -A open)\" ] && [ ! -e t.json ] && [ ! -e c.svg ]"
mkdir -m 1777 sticky
check "a sticky TMPDIR (as /tmp) is used, and left as it was" bash -c \
	"TMPDIR=$tmp/sticky '$rdmaio' report again.json --plot c2.svg >/dev/null && [ -z \"\$(ls -A sticky)\" ]"

# A job file in this folder never silently stands in for an installed one.
mkdir -p dd/jobs/verbs
printf '[global]\nioengine=psync\nfilename=%s/data\nsize=1m\n[installed-job]\nrw=read\n' "$tmp" >dd/jobs/verbs/bw.fio
mkdir -p verbs
printf '[global]\nexec_prerun=touch %s/pwned-job\nioengine=psync\nfilename=%s/data\nsize=1m\n[local-job]\nrw=read\n' "$tmp" "$tmp" >verbs/bw.fio
check_fails "a name that is both a file here and an installed job: refused, both named" 2 \
	"job file verbs/bw.fio: both ./verbs/bw.fio here and the installed $tmp/dd/jobs/verbs/bw.fio have that name.*say ./verbs/bw.fio for the one here" \
	env RDMAIO_DATADIR="$tmp/dd" "$rdmaio" run -o j.json verbs/bw.fio
check "... nothing ran" no_marker
check "... ./NAME picks the one here" bash -c \
	"RDMAIO_DATADIR=$tmp/dd '$rdmaio' run -o j.json ./verbs/bw.fio >/dev/null && [ -e $tmp/pwned-job ] && rm $tmp/pwned-job"
check "... and a name found only among the installed ones is that one" bash -c \
	"cd dd && RDMAIO_DATADIR=$tmp/dd '$rdmaio' run -o ../j2.json verbs/bw.fio >/dev/null && grep -q installed-job ../j2.json"

# What another process prints has a bound.
check_fails "a --remote-env command that never stops printing is stopped at 16 MiB" 1 \
	"--remote-env for client 127.0.0.1: 'yes' printed more than 16 MiB" \
	timeout 60 "$rdmaio" run -o y.json --remote-env yes --client 127.0.0.1 pair.fio

done_testing
