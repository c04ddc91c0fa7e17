#!/usr/bin/python3
"""Issue 35's speed goals, met or missed, from one bench/peers.sh run.

    /usr/bin/python3 bench/goals.py RUN_DIR [--before RUN_DIR] [--check-floors]

Standard library only (any Python 3.7+; peers.sh runs it with Debian's
/usr/bin/python3). RUN_DIR is what one peers.sh run wrote:
  meta.txt          'key: value' lines: the machine, date, git, versions
  f32-ISA.csv       actk_ratio --csv: actk's tiers and the peers, ns/element
  types-ISA.csv     actk_ratio --types --csv: the 16-bit tiers beside f32
  mlas-ISA.csv      bench/mlas/run.py --csv: MLAS per node, actk beside it
  gated-ISA.csv     actk_gated_bench --csv-out: packed, 2-pass, ggml fused
Prints one markdown table per ISA and size: per op, each goal's ratio and
met / missed, then the control rows (memcpy, an op no change touches) and,
with --before, the same controls from an earlier run beside them. Each
missed cell names the floor that explains it: the ids bench/floors/CPU.tsv maps
it to, each a row or paragraph of docs/performance.md (grep the id there);
the summary ends with the misses that have none. --check-floors exits 1 when
a missed goal has no floor id, or when an id of the map is not in the doc.

Every ratio is of two medians timed interleaved in the same process: the f32
ratios in actk_ratio's, the MLAS ratios in run.py's (actk's tiers timed there
too, through ctypes), the 16-bit ratios in actk_ratio --types', the gated
ones in actk_gated_bench's. "fastest peer" is the worst of actk's ratios to
each peer (so MLAS counts as a peer through its own same-process ratio).
"""
import argparse
import csv
import fnmatch
import glob
import math
import os
import re
import statistics
import sys

# The goals (issue 35): name -> (bar, what it compares)
FAST, ACC_MLAS, ACC_PEER, BF16, F16, GATED_2P, GATED_GGML = (
    "fast / fastest peer", "acc / MLAS", "acc / fastest peer", "bf16 fast / f32 fast",
    "f16 fast / f32 fast", "packed / 2-pass", "packed / ggml fused")
BAR = {FAST: 1.0, ACC_MLAS: 1.0, ACC_PEER: 1.5, BF16: 0.8, F16: 0.8, GATED_2P: 0.6, GATED_GGML: 1.0}
CONTROL_OP = "hardsigmoid"  # an op no kernel change of issue 35 touches
NOT_PEERS = {"acc", "fast", "libm", "copy", "spread", "status"}
SIZES = {65536: "64 Ki", 4194304: "4 Mi"}
FLOORS = "docs/performance.md, 'Where a goal is missed: the floors'"
HERE = os.path.dirname(os.path.abspath(__file__))
# goal -> its name in bench/floors/CPU.tsv
GOAL_KEY = {FAST: "fast", ACC_MLAS: "acc-mlas", ACC_PEER: "acc-peer", BF16: "bf16", F16: "f16",
            GATED_2P: "gated-2p", GATED_GGML: "gated-ggml"}


def cpu_of(run):
    """The run's CPU as the floor maps name it (bench/floors/CPU.tsv), from its
    meta.txt's 'cpu:' line (peers.sh writes lscpu's name, family and model);
    None when not recognized. A floor's evidence is the CPU's: Zen 3 runs AVX2
    on 256-bit pipes with another divider and shuffle unit than Zen 4's."""
    try:
        with open(os.path.join(run, "meta.txt")) as f:
            line = next((l for l in f if l.startswith("cpu:")), "")
    except OSError:
        return None
    m = re.search(r"family (\d+) model (\d+)", line)
    if not m:
        return None
    family, model = int(m.group(1)), int(m.group(2))
    if "Intel" in line:
        return "intel-f%dm%d" % (family, model)
    # the model ranges Linux's arch/x86/kernel/cpu/amd.c gives each generation
    inr = lambda *rs: any(lo <= model <= hi for lo, hi in rs)
    if family == 23:
        if inr((0x00, 0x2f), (0x50, 0x5f)):
            return "zen1"
        if inr((0x30, 0x4f), (0x60, 0x7f), (0x90, 0x91), (0xa0, 0xaf)):
            return "zen2"
    if family == 25:
        if inr((0x10, 0x1f), (0x60, 0xaf)):
            return "zen4"
        if inr((0x00, 0x0f), (0x20, 0x5f)):
            return "zen3"
    if family == 26 and inr((0x00, 0x0f), (0x20, 0x2f), (0x40, 0x4f), (0x70, 0x7f)):
        return "zen5"
    return None


class Floors:
    """bench/floors/CPU.tsv: (goal, isa, size, op, who) patterns -> floor ids
    (path None: no map, no ids)."""

    def __init__(self, path):
        self.path, self.rules = path, []
        if path is None:
            return
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                cols = line.split("#", 1)[0].split()
                if not cols:
                    continue
                if len(cols) != 6:
                    sys.exit("goals.py: %s:%d: 6 columns wanted (goal isa size op who floor), got %d"
                             % (path, lineno, len(cols)))
                pats = [c.split(",") for c in cols[:5]]
                bad = [g for g in pats[0] if g != "*" and g not in GOAL_KEY.values()]
                if bad:
                    sys.exit("goals.py: %s:%d: no goal %s (goals: %s)"
                             % (path, lineno, ", ".join(bad), ", ".join(GOAL_KEY.values())))
                self.rules.append((lineno, pats, cols[5].split(",")))

    def ids(self, goal, isa, size, op, who):
        """Every id of every line that matches the cell, in the file's order."""
        key = (GOAL_KEY[goal], isa, size.replace(" ", ""), op, who or "-")
        out = []
        for _, pats, ids in self.rules:
            if all(any(fnmatch.fnmatchcase(k, p) for p in ps) for k, ps in zip(key, pats)):
                out += [i for i in ids if i not in out]
        return out

    def missing_from(self, doc):
        """(id, line) of each id that the text doc does not define: `id` first in
        a table row or a list item, or (`id`) in a paragraph. Where the id is
        only cited (a goals table pasted into the doc names it in its cells),
        its row is gone."""
        with open(doc) as f:
            text = f.read()
        defined = lambda i: re.search(r"(?m)^(\|\s*|\s*[-*]\s+)`%s`|\(`%s`\)" % (re.escape(i), re.escape(i)), text)
        return [(i, n) for n, _, ids in self.rules for i in ids if not defined(i)]


def floor_note(ids):
    return " " + " + ".join("`%s`" % i for i in ids) if ids else " (no floor)"


def missed_note(ratio, goal, ids):
    """A missed cell's floor ids (or that it has none); nothing for a met one."""
    return floor_note(ids) if ratio is not None and ratio > BAR[goal] else ""


def number(v):
    try:
        f = float(v)
    except ValueError:
        return None
    return f if math.isfinite(f) else None


def read_cells(path):
    """table,isa,n,op,column,value lines -> ({(n, op): {column: value}}, notes)."""
    cells, notes = {}, []
    if not os.path.exists(path):
        return cells, notes
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                notes.append(line[1:].strip())
            elif line:
                _table, _isa, n, op, col, val = line.split(",", 5)
                cells.setdefault((int(n), op), {})[col] = val
    return cells, notes


def read_gated(path):
    """The gated rows, from either writer, as dicts: where (the shape), op,
    type, packed (the fast tier's packed call), two (the fastest two-pass
    way) and two_name, ggml (ggml's fused GLU, if measured), copy; ns/element.
      actk_ratio --gated --csv: 'isa,n,rows,d,op,type,acc,fast,...' rows
      actk_gated_bench --csv-out: 'gated,op,type,packed,plain,2-pass,...'"""
    rows, notes, head = [], [], None
    if not os.path.exists(path):
        return rows, notes
    with open(path) as f:
        lines = f.read().splitlines()
    notes = [l[1:].strip() for l in lines if l.startswith("#")]
    shape = "; ".join(", ".join(n.split(", ")[:2]) for n in notes if n.startswith("rows "))
    for rec in csv.reader(l for l in lines if l and not l.startswith("#")):
        if head is None or rec[:1] == ["isa"] or rec[1:3] == ["op", "type"]:
            head = rec
            continue
        r = dict(zip(head, rec))
        if "fast_over_2pass" in r:  # actk_ratio --gated
            n = int(r["n"])
            rows.append({"where": "%s (rows %s x d %s)" % (SIZES.get(n, n), r["rows"], r["d"]),
                         "size": SIZES.get(n, str(n)),
                         "op": r["op"], "type": r["type"], "packed": number(r["fast"]),
                         "two": number(r["two_pass"]), "two_name": r.get("best_2pass") or "-",
                         "ggml": number(r["ggml_fused"]), "copy": number(r["copy"]),
                         "source": "actk_ratio --gated: no ggml value (ggml not built, or no ggml form of the op and type)"})
        else:  # actk_gated_bench (the fast tier unless told otherwise)
            rows.append({"where": shape or "its default shape", "size": shape or "-",
                         "op": r["op"], "type": r["type"],
                         "packed": number(r["packed"]), "two": number(r["2-pass"]),
                         "two_name": "actk 2-pass", "ggml": None, "copy": number(r["copy"]),
                         "source": "actk_gated_bench: no ggml column"})
    return rows, notes


def verdict(ratio, goal):
    if ratio is None:
        return "-"
    met = ratio <= BAR[goal]
    # a third decimal where two would round onto the bar from the other side
    text = "%.2f" % ratio if (float("%.2f" % ratio) <= BAR[goal]) == met else "%.3f" % ratio
    return "%s %s" % (text, "met" if met else "**missed**")


class Tally:
    """Per goal: how many rows met it, and the misses grouped by where (the
    ISA and size) as 'op ratio floor-ids'."""

    def __init__(self):
        self.goals = {}  # goal -> [met, rows, {where: [op ratio, ...]}]
        self.unmeasured = {}  # goal -> [where, ...]: rows that had no denominator
        self.no_floor = []  # 'where op goal ratio' of each miss with no floor id
        self.floored = 0  # misses with a floor id

    def not_measured(self, goal, where):
        w = self.unmeasured.setdefault(goal, [])
        if where not in w:
            w.append(where)

    def add(self, ratio, goal, where, op, floor=(), who=None):
        if ratio is None:
            return
        g = self.goals.setdefault(goal, [0, 0, {}])
        g[1] += 1
        if ratio <= BAR[goal]:
            g[0] += 1
        else:
            r = verdict(ratio, goal).split()[0]
            g[2].setdefault(where, []).append("%s %s%s" % (op, r, floor_note(floor)))
            if floor:
                self.floored += 1
            else:
                self.no_floor.append("%s %s, %s %s%s" % (where, op, goal, r, " (%s)" % who if who else ""))

    def summary(self):
        met = sum(g[0] for g in self.goals.values())
        rows = sum(g[1] for g in self.goals.values())
        out = ["\n**Goals met: %d of %d.** Where one is missed, the op's floor and its evidence: %s "
               "(each miss names the id of its row there).\n" % (met, rows, FLOORS), "| goal | met | missed (ratio) |", "|---|---|---|"]
        for goal, (m, n, miss) in self.goals.items():
            out.append("| %s <= %g | %d of %d | %s |" % (
                goal, BAR[goal], m, n, "; ".join("%s: %s" % (w, ", ".join(v)) for w, v in miss.items()) or "-"))
        for goal, where in self.unmeasured.items():
            out.append("| %s <= %g | not measured: %s | |" % (goal, BAR[goal], "; ".join(where)))
        out.append("\n**Floors named: %d of %d missed goals** (each id a row or paragraph of "
                   "docs/performance.md; bench/floors/CPU.tsv maps the cells to them). Without one (%d): %s."
                   % (self.floored, self.floored + len(self.no_floor), len(self.no_floor),
                      "; ".join(self.no_floor) or "none"))
        return out


def worst_over_peers(t, f32row):
    """actk time t over each peer's (same process each): the worst, and whose."""
    worst = None
    for col, v in f32row.items():
        p = number(v)
        if col in NOT_PEERS or p is None or p <= 0 or t is None:
            continue
        if worst is None or t / p > worst[0]:
            worst = (t / p, col)
    return worst


def mlas_ratio(mlasrow, tier):
    t, m = number(mlasrow.get(tier, "")), number(mlasrow.get("mlas", ""))
    return t / m if t is not None and m else None


def isa_tables(d, isa, tally, floors, out):
    f32, f32_notes = read_cells(os.path.join(d, "f32-%s.csv" % isa))
    types, _ = read_cells(os.path.join(d, "types-%s.csv" % isa))
    mlas, mlas_notes = read_cells(os.path.join(d, "mlas-%s.csv" % isa))
    for note in f32_notes[:1] + [n for n in f32_notes if n.startswith("peer ")] + mlas_notes[:1]:
        out.append("- " + note.split("; impl:")[0])  # oneDNN's per-op implementation list: long
    ops = []
    for (_, op) in f32:
        if op not in ops:
            ops.append(op)
    for n, size in SIZES.items():
        if not any((n, op) in f32 for op in ops):
            continue
        out.append("\n**%s, n = %s** (ns/element: actk_ratio's medians; each cell: ratio, goal "
                   "met or missed, the peer that sets it)\n" % (isa, size))
        out.append("| op | acc | fast | %s <= 1.0 | %s <= 1.0 | %s <= 1.5 | %s <= 0.8 | %s <= 0.8 | spread |"
                   % (FAST, ACC_MLAS, ACC_PEER, BF16, F16))
        out.append("|---|---|---|---|---|---|---|---|---|")
        for op in ops:
            row, mrow, trow = f32.get((n, op), {}), mlas.get((n, op), {}), types.get((n, op), {})
            if not row:
                continue
            if row.get("status") == "failed":
                out.append("| %s | actk failed | | | | | | | |" % op)
                continue
            acc, fast = number(row.get("acc", "")), number(row.get("fast", ""))
            cells = []
            for tier, t in (("fast", fast), ("acc", acc)):
                w = worst_over_peers(t, row)
                m = mlas_ratio(mrow, tier)
                if m is not None and (w is None or m > w[0]):
                    w = (m, "MLAS")
                goal = FAST if tier == "fast" else ACC_PEER
                fl = floors.ids(goal, isa, size, op, w and w[1])
                tally.add(w and w[0], goal, "%s %s" % (isa, size), op, fl, w and w[1])
                cells.append("-" if w is None else "%s (%s)%s" % (
                    verdict(w[0], goal), w[1], missed_note(w[0], goal, fl)))
            am = mlas_ratio(mrow, "acc")
            fl = {ACC_MLAS: floors.ids(ACC_MLAS, isa, size, op, "MLAS")}
            tally.add(am, ACC_MLAS, "%s %s" % (isa, size), op, fl[ACC_MLAS])
            r16 = {}
            for goal, col in ((BF16, "bf16f"), (F16, "f16f")):
                a, b = number(trow.get(col, "")), number(trow.get("f32f", ""))
                r16[goal] = a / b if a is not None and b else None
                fl[goal] = floors.ids(goal, isa, size, op, None)
                tally.add(r16[goal], goal, "%s %s" % (isa, size), op, fl[goal])
            note = lambda r, goal: verdict(r, goal) + missed_note(r, goal, fl[goal])
            out.append("| %s | %.3f | %s | %s | %s | %s | %s | %s | %s |" % (
                op, acc, "-" if fast is None else "%.3f" % fast, cells[0], note(am, ACC_MLAS),
                cells[1], note(r16[BF16], BF16), note(r16[F16], F16),
                "%.0f%%" % (100 * number(row["spread"])) if number(row.get("spread", "")) is not None else "-"))
    return f32, types, mlas


def spanned(vals):
    vals = sorted(v for v in vals if v is not None)
    if not vals:
        return None
    return (vals[0], statistics.median(vals), vals[-1])


def controls(d, isa):
    """name -> (min, median, max) ns/element of the control cells of one ISA's run."""
    f32, _ = read_cells(os.path.join(d, "f32-%s.csv" % isa))
    types, _ = read_cells(os.path.join(d, "types-%s.csv" % isa))
    gated, _ = read_gated(os.path.join(d, "gated-%s.csv" % isa))
    c = {}
    for n, size in SIZES.items():
        c["memcpy f32 (every row of the f32 table), %s" % size] = spanned(
            number(r.get("copy", "")) for (m, _), r in f32.items() if m == n)
        for col in ("cp32", "cp16"):
            c["memcpy %s (--types rows), %s" % (col[2:] + "-bit", size)] = spanned(
                number(r.get(col, "")) for (m, _), r in types.items() if m == n)
        for tier in ("acc", "fast"):
            c["%s %s, %s" % (CONTROL_OP, tier, size)] = spanned(
                [number(f32.get((n, CONTROL_OP), {}).get(tier, ""))])
    copies = {}
    for r in gated:
        copies.setdefault("memcpy of y, gated rows, %s, %s" % (r["where"], r["type"]), []).append(r["copy"])
    for k, v in copies.items():
        c[k] = spanned(v)
    return {k: v for k, v in c.items() if v}


def gated_table(d, isa, tally, floors, out):
    rows, _ = read_gated(os.path.join(d, "gated-%s.csv" % isa))
    if not rows:
        return
    out.append("\n**%s, gated ops, fast tier** (ns per element of y; the two-pass way: the "
               "activation into scratch, then a multiply pass; the fastest such way measured)\n" % isa)
    out.append("| shape | op | type | packed | 2-pass (which) | %s <= 0.6 | ggml fused | %s <= 1.0 |"
               % (GATED_2P, GATED_GGML))
    out.append("|---|---|---|---|---|---|---|---|")
    for r in rows:
        pk, tp, gg = r["packed"], r["two"], r["ggml"]
        r2 = pk / tp if pk is not None and tp else None
        rg = pk / gg if pk is not None and gg else None
        where, op = "%s %s" % (isa, r["where"].split(" (")[0]), "%s %s" % (r["op"], r["type"])
        f2 = floors.ids(GATED_2P, isa, r["size"], r["op"], r["type"])
        fg = floors.ids(GATED_GGML, isa, r["size"], r["op"], r["type"])
        tally.add(r2, GATED_2P, where, op, f2)
        tally.add(rg, GATED_GGML, where, op, fg)
        if gg is None:
            tally.not_measured(GATED_GGML, "%s (%s)" % (where, r["source"]))
        fmt = lambda v: "-" if v is None else "%.3f" % v
        out.append("| %s | %s | %s | %s | %s (%s) | %s | %s | %s |" % (
            r["where"], r["op"], r["type"], fmt(pk), fmt(tp), r["two_name"],
            verdict(r2, GATED_2P) + missed_note(r2, GATED_2P, f2),
            fmt(gg) if gg is not None else "not measured", verdict(rg, GATED_GGML) + missed_note(rg, GATED_GGML, fg)))


def detail(d, isa, out):
    """--detail: every column of the f32 table, ns/element, and MLAS's (from
    its own process: compare within a row only through the ratios above)."""
    f32, notes = read_cells(os.path.join(d, "f32-%s.csv" % isa))
    mlas, _ = read_cells(os.path.join(d, "mlas-%s.csv" % isa))
    peers = [n[5:].split(":")[0] for n in notes if n.startswith("peer ")]  # actk_ratio's order
    seen = {c for row in f32.values() for c in row}
    cols = [c for c in ["acc", "fast"] + peers + ["libm", "copy"] if c in seen]
    for n, size in SIZES.items():
        ops = [op for (m, op) in f32 if m == n]
        if not ops:
            continue
        out.append("\n**%s, n = %s, every column** (ns/element; MLAS: per node in run.py's process)\n"
                   % (isa, size))
        out.append("| op | %s | MLAS |" % " | ".join(cols))
        out.append("|---|%s---|" % ("---|" * len(cols)))
        for op in ops:
            row, m = f32[(n, op)], mlas.get((n, op), {}).get("mlas")
            cells = [row.get(c, "-") for c in cols] + [m or "-"]
            out.append("| %s | %s |" % (op, " | ".join(
                "%.3f" % number(v) if number(v) is not None else v for v in cells)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="the directory one bench/peers.sh run wrote")
    ap.add_argument("--before", help="an earlier run's directory: its control rows beside these")
    ap.add_argument("--detail", action="store_true", help="also every f32 column (each peer) in ns/element")
    ap.add_argument("--floors", help="the map of missed cells to floor ids (default: "
                    "bench/floors/CPU.tsv, CPU from the run's meta.txt: zen3, zen4, ...)")
    ap.add_argument("--doc", default=os.path.normpath(os.path.join(HERE, "..", "docs", "performance.md")),
                    help="where the floor ids must occur (default: docs/performance.md)")
    ap.add_argument("--check-floors", action="store_true",
                    help="exit 1 when a missed goal has no floor id, or an id of the map is not in --doc")
    a = ap.parse_args()
    cpu = cpu_of(a.run)
    if not a.floors:
        a.floors = os.path.join(HERE, "floors", "%s.tsv" % (cpu or "unknown"))
    floors = Floors(a.floors) if os.path.exists(a.floors) else Floors(None)
    isas = sorted({os.path.basename(p)[4:-4] for p in glob.glob(os.path.join(a.run, "f32-*.csv"))},
                  key=lambda s: -len(s))
    if not isas:
        sys.exit("goals.py: no f32-ISA.csv in %s (run bench/peers.sh)" % a.run)
    out = ["## Issue 35's goals, one run", ""]
    meta = os.path.join(a.run, "meta.txt")
    if os.path.exists(meta):
        with open(meta) as f:
            out += ["- " + l.strip() for l in f if l.strip()]
    out.append("- floors map: %s (this run's CPU: %s)%s" % (
        os.path.relpath(a.floors, os.path.join(HERE, "..")), cpu or "not recognized",
        "" if floors.path else ": none for this CPU, so no miss names a floor yet"))
    tally = Tally()
    for isa in isas:
        out.append("\n### %s arm\n" % isa)
        isa_tables(a.run, isa, tally, floors, out)
        gated_table(a.run, isa, tally, floors, out)
        if a.detail:
            detail(a.run, isa, out)
        now = controls(a.run, isa)
        before = controls(a.before, isa) if a.before else {}
        out.append("\n**%s, control rows** (ns/element, min / median / max over the rows: they "
                   "must stay flat between the before and after runs of a change)\n" % isa)
        out.append("| control | this run |%s" % (" before | change (median) |" if a.before else ""))
        out.append("|---|---|%s" % ("---|---|" if a.before else ""))
        for k, v in now.items():
            line = "| %s | %.3f / %.3f / %.3f |" % ((k,) + v)
            if a.before:
                b = before.get(k)
                line += (" %.3f / %.3f / %.3f | %+.1f%% |" % (b + (100 * (v[1] / b[1] - 1),))
                         if b else " - | - |")
            out.append(line)
    out += tally.summary()
    out.append("\nNotes: every ratio divides two medians timed interleaved in one process. "
               "fast / fastest peer and acc / fastest peer are the worst of actk's ratios to each "
               "peer of any accuracy, MLAS included through bench/mlas/run.py's own process (actk's "
               "tiers timed there beside it through ctypes): the ONNX Runtime wheel exports only "
               "its C API table (OrtGetApiBase) and ships no header for it, so MLAS is not timed "
               "inside actk_ratio. MLAS and XNNPACK pick their code from the CPU with no setting to hold "
               "them to AVX2: on a CPU with AVX-512 peers.sh leaves XNNPACK out of the avx2 arm's "
               "peers, while MLAS stays in (its goal names it), so there the avx2 arm's MLAS ratios "
               "are against MLAS's code for that CPU; on a CPU without AVX-512 both run their AVX2 "
               "code and both are in. Peers with a fixed cost per call (oneDNN, ggml, torch) have it "
               "subtracted (actk_ratio's notes). spread: the largest (p75 - p25) / median of acc, "
               "fast and the fastest peer in actk_ratio.")
    print("\n".join(out))
    if a.check_floors:
        problems = ["%d missed goals have no floor id in %s: %s" % (len(tally.no_floor), a.floors,
                                                                   "; ".join(tally.no_floor))] if tally.no_floor else []
        if not os.path.exists(a.doc):
            problems.append("no %s to find the floor ids in" % a.doc)
        else:
            problems += ["floor id %s (%s line %d) is not defined in %s (`%s` first in a table row or a list "
                         "item, or (`%s`)): a floor row deleted or renamed?"
                         % (i, a.floors, n, a.doc, i, i) for i, n in floors.missing_from(a.doc)]
        for p in problems:
            print("goals.py --check-floors: " + p, file=sys.stderr)
        if problems:
            sys.exit(1)


if __name__ == "__main__":
    main()
