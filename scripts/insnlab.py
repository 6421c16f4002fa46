"""Instruction counts per function, from lab/run --insn-count (lab/README.md,
"Counting instructions").

In the guest, Windows marks the start and end of each measured run (the
insncount plugin writes the counts of each window) and keeps the memory maps
of the processes the run started. On this host, report() names each counted
block's function (kernel symbols from the guest's /proc/kallsyms, user code
from the maps and the ELF files' symbols) and prints, per message, where the
instructions of the difference of two run lengths go: start-up and set-up are
in both lengths, so they cancel."""
import bisect
import collections
import json
import os
import struct
import subprocess
import threading

USER_TOP = 0x0000800000000000
VDSO = "vdso.so"  # the guest's vDSO image, in the counts' folder
KERNEL = "vmlinux"  # the kernel's own code; a module's is NAME.ko


class Windows:
    """The guest's side: marks around each run, the run's processes' maps."""

    def __init__(self):
        self.dir = os.environ.get("RDMAIO_INSN_DIR")
        self.mark_bin = os.environ.get("RDMAIO_INSN_MARK")
        self.runs = []
        self.maps = {}
        self.stop = None
        self.poller = None

    def enabled(self):
        return bool(self.dir)

    def mark(self):
        """Closes a window; its number, as the plugin wrote it (it writes
        before the mark instruction returns)."""
        subprocess.run([self.mark_bin], check=True)
        done = [int(n[7:11]) for n in os.listdir(self.dir)
                if n.startswith("window-") and n.endswith(".txt")]
        if not done:
            raise RuntimeError(f"{self.mark_bin} ran, but the counter wrote no window into "
                               f"{self.dir}: is this guest under lab/run --insn-count?")
        return max(done)

    def begin(self):
        """Closes the window before the run and starts keeping its maps."""
        if not self.enabled():
            return
        if not self.runs and os.path.exists(os.path.join(self.dir, "windows.json")):
            raise RuntimeError(f"{self.dir}/windows.json exists: another Windows wrote "
                               "there; one per lab/run --insn-count folder")
        self.mark()
        self.maps = {}
        self.stop = threading.Event()
        self.poller = threading.Thread(target=self._poll, daemon=True)
        self.poller.start()

    def end(self, name, messages):
        """Closes the run's window: its counts, maps, name and message count."""
        if not self.enabled():
            return
        self.stop.set()
        self.poller.join()
        window = self.mark()
        path = os.path.join(self.dir, f"maps-{window:04d}.txt")
        with open(path, "w") as f:
            for pid, lines in sorted(self.maps.items()):
                f.write(f"# pid {pid}\n" + "".join(sorted(lines)))
        self.runs.append({"window": window, "name": name, "messages": messages})
        self._write_json("windows.json", self.runs)

    def finish(self):
        """The kernel's symbols and its vDSO (one image for every process),
        for the host to name kernel and vDSO blocks."""
        if not self.enabled():
            return
        with open("/proc/kallsyms") as f, open(os.path.join(self.dir, "kallsyms"), "w") as out:
            out.write(f.read())
        with open("/proc/self/maps") as f:
            vdso = [line.split()[0] for line in f if line.rstrip().endswith("[vdso]")]
        if vdso:
            lo, hi = (int(x, 16) for x in vdso[0].split("-"))
            with open("/proc/self/mem", "rb") as f, open(os.path.join(self.dir, VDSO), "wb") as out:
                f.seek(lo)
                out.write(f.read(hi - lo))

    def _write_json(self, name, doc):
        tmp = os.path.join(self.dir, name + ".tmp")
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, os.path.join(self.dir, name))

    def _poll(self):
        # The run's processes' maps, read every 0.25 s until none has
        # appeared and none has mapped new code for a second, then no more:
        # reading /proc costs instructions too, counted in the window, and
        # a run's start-up is the same at both lengths, so the reads cost
        # the same in a short run and a long one. A fixed first second left
        # a client that connects late (a fio job forked after its target
        # listened) unnamed. A process that starts after the reads stop,
        # or lives between two, goes unnamed ("user, unmapped").
        self._read_maps(os.getpid())
        still = 0
        while still < 4:
            grew = sum(self._read_maps(pid) for pid in descendants(os.getpid()))
            still = 0 if grew else still + 1
            if self.stop.wait(0.25):
                return

    def _read_maps(self, pid):
        """How many executable mappings of pid are new."""
        try:
            with open(f"/proc/{pid}/maps") as f:
                lines = [line for line in f if line.split(None, 2)[1][2] == "x"]
        except (OSError, IndexError):
            return 0  # it has exited: what was read stands
        seen = self.maps.setdefault(pid, set())
        before = len(seen)
        seen.update(lines)
        return len(seen) - before


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    kids = [int(x) for x in f.read().split()]
                out += kids
                todo += kids
        except OSError:
            continue
    return out


def read_window(path):
    """{guest address: instructions} of one window file."""
    counts = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            a, n = line.split()
            if a == "lost":
                raise ValueError(f"{path}: the counter ran out of memory and left "
                                 f"blocks uncounted ({n} times); measure a shorter run")
            counts[int(a, 16)] = int(n)
    return counts


def read_maps(path):
    """Executable mappings of every process of a window, as sorted
    (start, end, offset, object) tuples."""
    maps = set()
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.split(None, 5)
            if len(parts) < 5 or "x" not in parts[1]:
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            obj = parts[5].strip() if len(parts) == 6 else "[anonymous]"
            maps.add((lo, hi, int(parts[2], 16), obj))
    return sorted(maps)


class Kallsyms:
    """Kernel text symbols; a module's carry its name, as /proc/kallsyms has it."""

    def __init__(self, path):
        syms = []
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[1] in "tTwW":
                    mod = parts[3].strip("[]") + ".ko" if len(parts) > 3 else KERNEL
                    syms.append((int(parts[0], 16), parts[2], mod))
        syms.sort()
        if not syms or syms[-1][0] == 0:
            raise ValueError(f"{path}: no kernel addresses (read as non-root, or "
                             "kptr_restrict is set); read it as root in the guest")
        self.addrs = [s[0] for s in syms]
        self.syms = syms

    def name(self, a):
        i = bisect.bisect_right(self.addrs, a) - 1
        if i < 0:
            return KERNEL, "?"
        return self.syms[i][2], self.syms[i][1]


class Elf:
    """An ELF file's function symbols, looked up by file offset."""

    def __init__(self, path):
        self.loads = self._loads(path)
        syms = self._nm(path, []) or self._nm(path, ["-D"])
        syms.sort()
        self.addrs = [s[0] for s in syms]
        self.syms = syms

    @staticmethod
    def _loads(path):
        with open(path, "rb") as f:
            head = f.read(64)
            if head[:4] != b"\x7fELF" or head[4] != 2:
                raise ValueError(f"{path}: not a 64-bit ELF file")
            phoff, = struct.unpack_from("<Q", head, 0x20)
            phentsize, phnum = struct.unpack_from("<HH", head, 0x36)
            f.seek(phoff)
            table = f.read(phentsize * phnum)
        loads = []
        for i in range(phnum):
            ptype, _, off, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", table, i * phentsize)
            if ptype == 1:  # PT_LOAD
                loads.append((off, off + filesz, vaddr))
        return loads

    @staticmethod
    def _nm(path, extra):
        p = subprocess.run(["nm", "-S", "-n", "--defined-only", *extra, path],
                           capture_output=True, text=True)
        syms = []
        for line in p.stdout.splitlines():
            parts = line.split()
            if len(parts) == 4 and parts[2] in "tTwWi":
                syms.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
        return syms

    def name(self, off):
        vaddr = next((off - lo + v for lo, hi, v in self.loads if lo <= off < hi), None)
        if vaddr is None:
            return "?"
        i = bisect.bisect_right(self.addrs, vaddr) - 1
        if i >= 0 and vaddr < self.syms[i][0] + max(self.syms[i][1], 1):
            return self.syms[i][2]
        return "(no symbol)"


class Namer:
    """Names guest addresses: (object, function)."""

    def __init__(self, kallsyms, vdso=None):
        self.kernel = kallsyms
        self.elves = {}
        self.vdso = vdso

    def names(self, counts, maps):
        """{(object, function): instructions} of one window."""
        starts = [m[0] for m in maps]
        reach, top = [], 0  # the furthest end of maps[0..i]
        for m in maps:
            top = max(top, m[1])
            reach.append(top)
        out = collections.Counter()
        for a, n in counts.items():
            out[self.name(a, maps, starts, reach)] += n
        return out

    def name(self, a, maps, starts, reach):
        if a >= USER_TOP:
            return self.kernel.name(a)
        # Counts are keyed by address alone: where two processes map
        # different code at one address, it cannot be told whose it is.
        i = bisect.bisect_right(starts, a) - 1
        hits = set()
        while i >= 0 and reach[i] > a:
            lo, hi, off, obj = maps[i]
            if a < hi:
                hits.add((lo - off, obj))
                found = maps[i]
            i -= 1
        if not hits:
            return "user, unmapped", "?"
        if len(hits) > 1:
            return "user, ambiguous", "?"
        lo, _, off, obj = found
        path = self.vdso if obj == "[vdso]" else obj
        if not path or not path.startswith("/"):
            return obj, "?"
        elf = self.elves.get(path)
        if elf is None:
            try:
                elf = self.elves[path] = Elf(path)
            except (OSError, ValueError):
                elf = self.elves[path] = False
        return os.path.basename(obj), elf.name(a - lo + off) if elf else "?"


def per_message(windir, namer, short, long_):
    """{(object, function): instructions per message}, long minus short."""
    out = collections.Counter()
    for run, sign in ((long_, 1), (short, -1)):
        w = run["window"]
        counts = read_window(os.path.join(windir, f"window-{w:04d}.txt"))
        maps = read_maps(os.path.join(windir, f"maps-{w:04d}.txt"))
        for k, n in namer.names(counts, maps).items():
            out[k] += sign * n
    dn = long_["messages"] - short["messages"]
    if dn <= 0:
        raise ValueError(f"{short['name']}: the long run moved {long_['messages']} "
                         f"messages, the short {short['messages']}: no difference to divide by")
    return {k: v / dn for k, v in out.items()}


def is_kernel(obj):
    return obj == KERNEL or obj.endswith(".ko")


def by_object(per):
    out = collections.Counter()
    for (obj, _), v in per.items():
        out[obj] += v
    return out


def pairs(windir):
    """The runs of windows.json, paired by name: (name, short, long)."""
    with open(os.path.join(windir, "windows.json")) as f:
        runs = json.load(f)
    byname = collections.OrderedDict()
    for r in runs:
        byname.setdefault(r["name"], []).append(r)
    out = []
    for name, rs in byname.items():
        if len(rs) != 2:
            raise ValueError(f"{windir}/windows.json: '{name}' has {len(rs)} runs, not two lengths")
        out.append((name, *sorted(rs, key=lambda r: r["messages"])))
    return out
