#!/usr/bin/env python3
"""Where each message's instructions go, from a lab/run --insn-count folder
whose runs come in two lengths (scripts/cpu-split.py writes such runs):

    scripts/insn-report.py DIR [--top N]

Prints, for every run, its instructions per message by shared object (the
kernel and each module apart), then each object's and each function's
difference against the first run, largest first. In the exact lab one
instruction is one nanosecond of guest time. A benchmark's report, not a
test: it asserts nothing."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import insnlab  # noqa: E402


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, ["-" * w for w in widths], *rows]:
        print("| " + " | ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                                for i, (c, w) in enumerate(zip(r, widths))) + " |")
    print()


def fmt(v):
    return f"{v:,.0f}"


def split(per):
    user = sum(v for (obj, _), v in per.items() if not insnlab.is_kernel(obj))
    return user, sum(per.values()) - user


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="the folder lab/run --insn-count wrote")
    ap.add_argument("--top", type=int, default=15, help="functions to list (15)")
    args = ap.parse_args()
    for need in ("windows.json", "kallsyms"):
        if not os.path.exists(os.path.join(args.dir, need)):
            sys.exit(f"insn-report: {args.dir} has no {need}: the guest's side (insnlab.Windows) "
                     "writes windows.json after each run and kallsyms at its end; was the "
                     "folder written by lab/run --insn-count, and did the command finish?")
    try:
        vdso = os.path.join(os.path.abspath(args.dir), insnlab.VDSO)
        namer = insnlab.Namer(insnlab.Kallsyms(os.path.join(args.dir, "kallsyms")),
                              vdso if os.path.exists(vdso) else None)
        runs = [(name, insnlab.per_message(args.dir, namer, s, l))
                for name, s, l in insnlab.pairs(args.dir)]
    except (OSError, ValueError) as e:
        sys.exit(f"insn-report: {e}")
    if not runs:
        sys.exit(f"insn-report: {args.dir}/windows.json lists no runs")
    print("Instructions per message, the difference of two run lengths "
          "(exact lab: one instruction, one ns):\n")
    objs = {}
    for _, per in runs:
        for obj, v in insnlab.by_object(per).items():
            objs[obj] = max(objs.get(obj, 0), abs(v))
    order = sorted(objs, key=lambda o: -objs[o])
    header = ["object", *[name for name, _ in runs]]
    rows = [[o, *[fmt(insnlab.by_object(per).get(o, 0)) for _, per in runs]]
            for o in order if objs[o] >= 0.5]
    rows.append(["user space", *[fmt(split(per)[0]) for _, per in runs]])
    rows.append(["kernel", *[fmt(split(per)[1]) for _, per in runs]])
    rows.append(["all", *[fmt(sum(per.values())) for _, per in runs]])
    table(header, rows)
    base_name, base = runs[0]
    for name, per in runs[1:]:
        diff = {k: per.get(k, 0) - base.get(k, 0) for k in set(per) | set(base)}
        top = sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:args.top]
        print(f"{name} against {base_name}: {fmt(sum(diff.values()))} more per message; "
              f"the {len(top)} largest differences by function:\n")
        table(["object", "function", name, base_name, "difference"],
              [[o, f, fmt(per.get((o, f), 0)), fmt(base.get((o, f), 0)), fmt(d)]
               for (o, f), d in top])


if __name__ == "__main__":
    main()
