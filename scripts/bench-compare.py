#!/usr/bin/env python3
"""bench-compare OLD NEW [--within PCT]: two make bench results, figure by
figure and tool by tool, as "faster by X %", "slower by X %" or "same" — so
an engine change shows its effect before it lands (make bench-exact on the
old build, then on the new one).

A figure is a tool's median over its rounds; "faster" means a higher rate or
a lower latency. Two exact-lab results (emulation "exact": the guest's clock
counts instructions) repeat to about 1 %, so a change within SAME_PCT (1 %)
is "same". A real-time lab result swings 1.4-2x between identical runs: such
pairs get their changes printed but no word, and their rows say why.

--within PCT: exit 1 when any figure both files have differs by more than
PCT percent (two runs of one build: make bench's repeatability).
Exit status 2 for a file that is not a bench result, or two of different
kinds (their rows would not be the same figures).
"""
import json
import sys

SAME_PCT = 1.0
TOOLS = ("perftest", "fio_rdma", "librdmaio")
KIND = "rdmaio-bench/3"


def die(msg):
    print(f"bench-compare: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        die(f"{path}: cannot read it as JSON ({e}); give a results/bench-*.json "
            "that make bench wrote")
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        die(f"{path}: not a {KIND} result (kind {doc.get('kind') if isinstance(doc, dict) else '?'!r}); "
            "compare two results of this make bench")
    return doc


def lower_is_better(rid):
    return rid.endswith("-lat") or rid.endswith("-lat-total")


def change(rid, old, new):
    """Percent by which new is faster than old (negative: slower)."""
    pct = (new - old) / old * 100
    return -pct if lower_is_better(rid) else pct


def word(pct, judged):
    if not judged:
        return f"{pct:+.1f} % (real time: not judged)"
    if abs(pct) <= SAME_PCT:
        return "same"
    return f"{'faster' if pct > 0 else 'slower'} by {abs(pct):.1f} %"


def compare(old, new, within):
    """Prints the table; returns the figures that differ by more than
    within percent (None: no bound)."""
    judged = old.get("emulation") == "exact" and new.get("emulation") == "exact"
    new_rows = {r["id"]: r for r in new["rows"]}
    worst = []
    print(f"{'figure':<26} {'tool':<10} {'old':>10} {'new':>10}  change")
    for r in old["rows"]:
        n = new_rows.get(r["id"])
        if not n:
            continue
        for t in TOOLS:
            a, b = r.get(t), n.get(t)
            if not a or not b:
                continue
            pct = change(r["id"], a, b)
            print(f"{r['id']:<26} {t:<10} {a:>10.4g} {b:>10.4g}  {word(pct, judged)}")
            if within is not None and abs(pct) > within:
                worst.append(f"{r['id']} {t} {pct:+.1f} %")
    only = sorted(set(new_rows) ^ {r["id"] for r in old["rows"]})
    if only:
        print(f"(in one file only: {' '.join(only)})")
    if not judged:
        print("(one of them ran in real time, where identical runs swing 1.4-2x: the changes "
              "are printed, not judged; make bench-exact runs in the exact lab)")
    else:
        print(f"(exact lab: 'same' is within {SAME_PCT:g} %, what identical runs repeat to)")
    return worst


def main(argv):
    args, within = [], None
    it = iter(argv)
    for a in it:
        if a == "--within":
            v = next(it, "")
            try:
                within = float(v)
            except ValueError:
                die(f"--within {v!r}: give a percentage, such as --within 2")
        else:
            args.append(a)
    if len(args) != 2:
        die("usage: bench-compare OLD.json NEW.json [--within PCT]")
    worst = compare(load(args[0]), load(args[1]), within)
    if worst:
        print(f"bench-compare: {len(worst)} figure(s) differ by more than {within:g} %: "
              + "; ".join(worst), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
