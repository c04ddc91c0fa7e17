#!/usr/bin/env python3
"""Static estimates of every kernel's hot loop on the AVX2, AVX-512 and NEON
arms, read from Release builds' object files: instructions per vector, loads
of constants and spills inside the loop, calls, and llvm-mca's predicted
cycles per element. No hardware needed (issue 22: actk has no AArch64 machine
and qemu timings mean nothing). Estimates, not measurements: see
docs/aarch64-estimates.md.

    python3 tools/hotloop.py BUILD... [--markdown] [--check RATIO] [--only REGEX] [--show]

BUILD...    Release build directories (x86 and/or AArch64, cross or native),
            searched for impl_avx2.c.o, impl_avx512.c.o and impl_neon.c.o.
--markdown  one table for docs instead of the plain listing.
--check R   exit 1, naming them, if any kernel's NEON instructions per vector
            exceed R times AVX2's.
--only RE   the kernels whose name (erf/f32/accurate, rope/bf16) RE matches.
--show      print each hot loop as it was given to llvm-mca.
--objdump, --mca   the tools (default llvm-objdump-19, llvm-mca-19; GNU
            objdump of the right target works too).

Kernels: k_<op>_<type>_<tier> (unary and swish), the bias ops' row kernel
(the k_bias_* wrapper's loop only calls it; the NaN-bias row is left out) and
rope_rows_kernel_<type> (its split-half loop). The hot loop is the kernel's
vector main loop taken the fast way (index_loops below): the loop whose
index advances by the vectors per iteration the headers give (VLEN, and
ACTK_STEP2_<type>: f16 everywhere and bf16 on AVX2 and AVX-512 run two
vectors a step; RoPE's
split-half loop rotates two, a and b), so never the masked tail, which runs
once; a loop cell marked '?' means no loop's increment confirmed that count.
Cycles per element: llvm-mca's Total Cycles / Iterations over
--iterations=200 of the loop, divided by the elements per iteration.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# arm -> object file, vector header, llvm-mca triple, CPUs to model. znver3 is
# there to calibrate on Zen 3 machines (see the doc); znver4/5 are the targets.
ARMS = {
    "neon": ("impl_neon.c.o", "src/arm/vec_neon.h", "aarch64", ["neoverse-n1", "neoverse-v1"]),
    "avx2": ("impl_avx2.c.o", "src/x86/vec_avx2.h", "x86_64", ["znver3", "znver4", "znver5"]),
    "avx512": ("impl_avx512.c.o", "src/x86/vec_avx512.h", "x86_64", ["znver4", "znver5"]),
}
TYPES = {"f32": 4, "f16": 2, "bf16": 2}  # element sizes, also the sort order
TIERS = ["accurate", "fast", "-"]

# k_<op>_<type>_<tier>; bias ops are timed in their row kernel (k_<op>_row_..,
# the bias without NaNs): the k_bias_* wrapper's loop only calls a row kernel.
KERNEL_RE = re.compile(r"^k_(?P<op>\w+?)(?P<row>_row|_nanrow)?_(?P<type>f32|f16|bf16)"
                       r"_(?P<tier>accurate|fast)$")
ROPE_RE = re.compile(r"^rope_rows_kernel_(?P<type>f32|f16|bf16)$")
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)(?:\s+(.*?))?\s*$")
FUNC_RE = re.compile(r"^([0-9a-f]+) <(\S+)>:$")
TARGET_RE = re.compile(r"(?:0x)?([0-9a-f]+) <[^>]*>")  # "0x1234 <sym+0x10>" (GNU: no 0x)


def kernel_key(sym):
    m = KERNEL_RE.match(sym)
    if m:
        if m["row"] == "_nanrow" or (m["op"].startswith("bias_") and not m["row"]):
            return None
        return (m["op"], m["type"], m["tier"])
    m = ROPE_RE.match(sym)
    return ("rope", m["type"], "-") if m else None


def header_facts(path):
    """VLEN and the types whose loops take two vectors per step: ACTK_STEP2_<type> of
    src/kernels/instantiate.h, 1 or the arm's ACTK_PAIR_<type> (its vector header). Read
    from ACTK_PAIR alone, f16's two-vector loops matched no loop and the longest cycle, one
    through a rare-lane call and its spills, was taken for the hot loop."""
    text = open(os.path.join(ROOT, path)).read()
    vlen = int(re.search(r"^#define VLEN (\d+)", text, re.M)[1])
    pairs = set(re.findall(r"^#define ACTK_PAIR_(\w+) 1\b", text, re.M))
    inst = open(os.path.join(ROOT, "src/kernels/instantiate.h")).read()
    step2 = {t for t, v in re.findall(r"^#define ACTK_STEP2_(\w+) (\w+)$", inst, re.M)
             if v == "1" or (v == "ACTK_PAIR_" + t and t in pairs)}
    return vlen, step2


def disassemble(objdump, obj, triple):
    """{symbol: [(addr, mnemonic, operands)]} for every function of obj."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", obj], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    comment = "//" if triple == "aarch64" else "#"  # '#' starts immediates on AArch64
    funcs, cur = {}, None
    for line in out.splitlines():
        m = FUNC_RE.match(line)
        if m:
            cur = funcs.setdefault(m[2], [])
            continue
        m = INSN_RE.match(line)
        if m and cur is not None:
            ops = (m[3] or "").split(comment)[0].strip()
            cur.append((int(m[1], 16), m[2], ops))
    return funcs


def is_branch(mn, triple):
    if triple == "aarch64":
        return mn in ("b", "br", "cbz", "cbnz", "tbz", "tbnz") or mn.startswith("b.")
    return mn.startswith("j")


def is_call(mn, triple):
    return mn in ("bl", "blr") if triple == "aarch64" else mn.startswith("call")


def successors(insns, index, i, triple):
    """Where instruction i can go next, inside the function."""
    addr, mn, ops = insns[i]
    if mn.startswith("ret"):
        return []
    nxt = [i + 1] if i + 1 < len(insns) else []
    if not is_branch(mn, triple):
        return nxt
    t = TARGET_RE.search(ops)
    to = [index[int(t[1], 16)]] if t and int(t[1], 16) in index else []
    return to if mn in ("b", "br", "jmp", "jmpq") else nxt + to  # unconditional, or both ways


def shortest_cycle(insns, index, start, triple):
    """The fewest instructions from start back to start, as a list of indices
    (breadth first: every instruction weighs one)."""
    parent, todo = {}, [start]
    while todo:
        nxt = []
        for i in todo:
            for j in successors(insns, index, i, triple):
                if j == start:
                    path = [i]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return path[::-1]
                if j not in parent:
                    parent[j] = i
                    nxt.append(j)
        todo = nxt
    return None


def increment(mn, ops, triple):
    """(register, immediate) of an add of a constant to a register, else None."""
    if triple == "aarch64":
        m = re.match(r"(x\d+), (x\d+), #(0x[0-9a-f]+|\d+)$", ops)
        return (m[1], int(m[3], 0)) if mn == "add" and m and m[1] == m[2] else None
    m = re.match(r"\$(-?0x[0-9a-f]+|-?\d+),\s*(%r\w+)$", ops)  # GNU: no space, no suffix
    if m and mn in ("add", "addq", "sub", "subq"):
        return m[2], int(m[1], 0) * (1 if mn.startswith("add") else -1)
    return None


def index_loops(insns, triple):
    """Every loop that advances a register by a constant, as the instructions
    one iteration runs, in order: the shortest cycle through the add.

    The math's branches (`if (vm_all(fast)) return y;`, the rare NaN and tie
    fix-ups) put slow paths inside the loop, laid out anywhere, so a loop is
    not an address range; the shortest way round takes every such branch the
    fast way (a slow path only adds work). An outer loop's cycle (RoPE's rows)
    has no index that steps through the row."""
    index = {a: i for i, (a, _, _) in enumerate(insns)}
    cycles = {}
    for i, (_, mn, ops) in enumerate(insns):
        c = increment(mn, ops, triple) and shortest_cycle(insns, index, i, triple)
        if c:
            cycles.setdefault(frozenset(c), c)  # an add and its twin in one loop: one cycle
    return list(cycles.values())


def reloads(insns, path, triple):
    """(constant loads, stack loads) in the loop. Constant: rip-relative
    operands on x86 (folded into arithmetic or not); on AArch64 literal loads
    and loads from a register an adrp set (gcc's constant tables). Stack:
    spilled values read back (rsp/rbp, sp/x29 or a register set from them)."""
    if triple != "aarch64":
        ops = [insns[i][2] for i in path if not insns[i][1].startswith("lea")]
        return (sum("(%rip)" in o for o in ops),
                sum(bool(re.search(r"\(%r[sb]p[,)]", o)) for o in ops))
    # the last writer of each register: the code before the loop in program
    # order, then the loop twice (the second time sees the first's writes)
    writer, ro, sp = {"sp": "sp", "x29": "sp"}, 0, 0
    for rep, i in [(0, i) for i in range(min(path))] + [(r, i) for r in (1, 2) for i in path]:
        _, mn, ops = insns[i]
        regs = ["x" + r[1:] if r != "sp" else r for r in re.findall(r"\b(?:[xw]\d+|sp)\b", ops)]
        if rep == 2 and mn.startswith("ld"):
            base = re.search(r"\[(x\d+|sp)", ops)
            ro += not base or writer.get(base[1]) == "adrp"
            sp += bool(base) and writer.get(base[1]) == "sp"
        if regs and regs[0] != "sp" and not re.match(r"(st|cmp|cmn|tst|b\b|b\.|cb|tb)", mn):
            src = writer.get(regs[1]) if mn in ("add", "mov") and len(regs) > 1 else None
            writer[regs[0]] = "adrp" if mn == "adrp" else src if src in ("adrp", "sp") else mn
    return ro, sp


def stack_kinds(insns, path, triple):
    """x86: the loop's stack accesses split three ways: folded (a memory operand of
    arithmetic: a loop-invariant constant gcc keeps in a stack slot costs one load uop and
    no instruction, as a rip-relative one does), loads (a move from the stack: an
    instruction) and stores (a value spilled inside the loop). None on AArch64."""
    if triple == "aarch64":
        return None
    folded = loads = stores = 0
    for i in path:
        mn, ops = insns[i][1], insns[i][2]
        if mn.startswith("lea") or not re.search(r"\(%r[sb]p[,)]", ops):
            continue
        if "mov" not in mn:
            folded += 1
        elif re.search(r"\(%r[sb]p[^)]*\)$", ops):
            stores += 1  # AT&T: the destination is last
        else:
            loads += 1
    return folded, loads, stores


def reg_moves(insns, path, triple):
    """Whole-register vector copies: on NEON mostly FMLA's addend, which the
    instruction overwrites, saved for a later use (AVX2's FMA forms 132/213/231
    let the compiler pick which operand dies)."""
    if triple == "aarch64":
        pat, mns = r"v\d+\.16b, v\d+\.16b$", ("mov",)
    else:
        pat, mns = r"%[xyz]mm\d+,\s*%[xyz]mm\d+$", ("vmovaps", "vmovups", "vmovdqa", "vmovdqu")
    return sum(insns[i][1] in mns and bool(re.match(pat, insns[i][2])) for i in path)


def step_bytes(insns, path, triple):
    """Bytes the loop advances its narrowest stream per iteration, from the
    constant adds to registers its memory operands use (None if unclear)."""
    body = [insns[i] for i in path]
    incs = dict(filter(None, (increment(mn, ops, triple) for _, mn, ops in body)))
    steps = []
    for _, mn, ops in body:
        if triple == "aarch64":
            for base, idx, sh in re.findall(r"\[(x\d+)(?:, (x\d+)(?:, lsl #(\d))?)?\]", ops):
                if idx in incs:
                    steps.append(incs[idx] << int(sh or 0))
                elif base in incs:
                    steps.append(incs[base])
            post = re.search(r"\[(x\d+)\], #(0x[0-9a-f]+|\d+)", ops)
            if post:
                steps.append(int(post[2], 0))
        else:
            for base, idx, scale in re.findall(r"\((%r\w+)?(?:,(%r\w+)(?:,(\d))?)?\)", ops):
                if idx in incs:
                    steps.append(incs[idx] * int(scale or 1))
                elif base in incs:
                    steps.append(incs[base])
    steps = [s for s in steps if s > 0]
    return min(steps) if steps else None


def mca_source(insns, path):
    """The loop as assembly llvm-mca takes: its instructions in the order one
    iteration runs them (addresses, raw bytes and comments gone), every
    address operand ('0x1234 <sym+0x10>': branch targets, adrp pages) a
    label, .Lhot the first instruction's."""
    head = insns[path[0]][0]

    def label(m):
        return ".Lhot" if int(m[1], 16) == head else ".L%s" % m[1]

    lines = ["\t%s\t%s" % (insns[i][1], TARGET_RE.sub(label, insns[i][2])) for i in path]
    return ".Lhot:\n" + "\n".join(lines) + "\n"


def mca_cycles(mca, triple, cpu, source):
    """Total Cycles / Iterations of llvm-mca's run (None if it fails)."""
    r = subprocess.run([mca, "-mtriple=" + triple, "-mcpu=" + cpu, "--iterations=200"],
                       input=source, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    it = re.search(r"^Iterations:\s+(\d+)", r.stdout, re.M)
    cyc = re.search(r"^Total Cycles:\s+(\d+)", r.stdout, re.M)
    if r.returncode or not it or not cyc:
        sys.stderr.write("hotloop: llvm-mca %s failed: %s\n" % (cpu, r.stderr.strip()[:300]))
        return None
    return int(cyc[1]) / int(it[1])


def name(k):
    return "%s/%s/%s" % k if k[2] != "-" else "%s/%s" % k[:2]


def analyse_arm(arm, obj, objdump, mca, pool, only):
    """{(op, type, tier): facts} for one arm's object (kernels matching only)."""
    _, header, triple, cpus = ARMS[arm]
    vlen, pairs = header_facts(header)
    result, jobs = {}, []
    for sym, insns in disassemble(objdump, obj, triple).items():
        key = kernel_key(sym)
        loops = key and re.search(only, name(key)) and index_loops(insns, triple)
        if not loops:
            continue
        op, ty, _ = key
        vecs = 2 if op == "rope" or ty in pairs else 1  # rope: a and b, the two halves

        def inc_vecs(path):  # vectors per iteration by the index increment
            step = step_bytes(insns, path, triple)
            return step and step / (TYPES[ty] * vlen) * (2 if op == "rope" else 1)

        # The vector main loop: the loop that advances by the headers' count
        # of vectors (f16's and x86 bf16's two-vector loop, not the single-vector loop after
        # it; RoPE's split-half loop, not NEON's one-pair interleaved loop), its
        # fast path if the add has twins on slow paths; failing that the
        # longest loop, marked '?'.
        match = [c for c in loops if inc_vecs(c) == vecs]
        path = min(match, key=len) if match else max(loops, key=len)
        mns = [insns[i][1] for i in path]
        f = dict(sym=sym, insns=len(path), vecs=vecs, inc_vecs=inc_vecs(path), vlen=vlen,
                 reloads=reloads(insns, path, triple), adrp=mns.count("adrp"),
                 stack=stack_kinds(insns, path, triple),
                 moves=reg_moves(insns, path, triple),
                 call=any(is_call(mn, triple) for mn in mns), cyc={})
        f["ipv"] = f["insns"] / vecs
        f["src"] = src = mca_source(insns, path)
        for cpu in cpus:
            jobs.append((f, cpu, pool.submit(mca_cycles, mca, triple, cpu, src)))
        result[key] = f
    for f, cpu, fut in jobs:
        c = fut.result()
        f["cyc"][cpu] = c and c / (f["vecs"] * f["vlen"])
    return result


def find_object(dirs, name):
    for d in dirs:
        for dirpath, _, files in os.walk(d):
            if name in files:
                return os.path.join(dirpath, name)
    return None


def fmt(v, spec="%.2f"):
    return "-" if v is None else spec % v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("builds", nargs="+", help="Release build directories (x86, aarch64)")
    ap.add_argument("--markdown", action="store_true", help="print one markdown table")
    ap.add_argument("--check", type=float, metavar="RATIO",
                    help="fail if NEON instructions/vector > RATIO x AVX2's")
    ap.add_argument("--objdump", default="llvm-objdump-19")
    ap.add_argument("--mca", default="llvm-mca-19")
    ap.add_argument("--jobs", type=int, default=2, help="llvm-mca processes at once")
    ap.add_argument("--only", default="", metavar="REGEX", help="kernels whose name matches")
    ap.add_argument("--show", action="store_true", help="print each hot loop as llvm-mca got it")
    a = ap.parse_args()

    data = {}
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for arm, (objname, _, _, _) in ARMS.items():
            obj = find_object(a.builds, objname)
            if obj:
                data[arm] = analyse_arm(arm, obj, a.objdump, a.mca, pool, a.only)
            else:
                sys.stderr.write("hotloop: no %s under %s\n" % (objname, " ".join(a.builds)))
    if not data:
        sys.exit("hotloop: no implementation objects found")

    keys = sorted({k for d in data.values() for k in d},
                  key=lambda k: (k[0], list(TYPES).index(k[1]), TIERS.index(k[2])))
    neon, avx2, avx512 = (data.get(arm, {}) for arm in ("neon", "avx2", "avx512"))

    def ratio(k):
        return neon[k]["ipv"] / avx2[k]["ipv"] if k in neon and k in avx2 else None

    def get(arm, k, field, spec="%.2f"):
        f = data.get(arm, {}).get(k)
        return fmt(f and f[field], spec)

    def cyc(arm, k, cpu):
        f = data.get(arm, {}).get(k)
        return fmt(f and f["cyc"].get(cpu), "%.3f")

    def loop(arm, k):  # "instructions/vectors"; "call" when the math was not inlined
        f = data.get(arm, {}).get(k)
        if not f:
            return "-"
        s = "%d/%d" % (f["insns"], f["vecs"])
        if f["inc_vecs"] != f["vecs"]:
            s += "?"  # no loop's increment confirmed the headers' count
        return s + (" call" if f["call"] else "")

    def reloaded(arm, k):  # constant+stack loads, and the adrp that address the constants
        f = data.get(arm, {}).get(k)
        if not f:
            return "-"
        return "%d+%d" % f["reloads"] + (" (%d adrp)" % f["adrp"] if f["adrp"] else "")

    columns = [
        ("kernel", name),
        ("NEON loop", lambda k: loop("neon", k)),
        ("AVX2 loop", lambda k: loop("avx2", k)),
        ("NEON insn/vec", lambda k: get("neon", k, "ipv")),
        ("AVX2 insn/vec", lambda k: get("avx2", k, "ipv")),
        ("ratio", lambda k: fmt(ratio(k))),
        ("NEON reloads const+stack", lambda k: reloaded("neon", k)),
        ("AVX2 reloads const+stack", lambda k: reloaded("avx2", k)),
        ("moves NEON/AVX2", lambda k: "%s/%s" % (get("neon", k, "moves", "%d"),
                                                 get("avx2", k, "moves", "%d"))),
        ("N1 c/elem", lambda k: cyc("neon", k, "neoverse-n1")),
        ("V1 c/elem", lambda k: cyc("neon", k, "neoverse-v1")),
        ("AVX2 zen4 c/elem", lambda k: cyc("avx2", k, "znver4")),
        ("AVX2 zen5 c/elem", lambda k: cyc("avx2", k, "znver5")),
        ("AVX-512 insn/vec", lambda k: get("avx512", k, "ipv")),
        ("AVX-512 zen4 c/elem", lambda k: cyc("avx512", k, "znver4")),
    ]
    if a.markdown:
        print("| " + " | ".join(c[0] for c in columns) + " |")
        print("|---|" + "---:|" * (len(columns) - 1))
        for k in keys:
            print("| " + " | ".join(c[1](k) for c in columns) + " |")
    else:
        for k in keys:
            print("%s  ratio %s" % (name(k), fmt(ratio(k))))
            for arm in data:
                f = data[arm].get(k)
                if not f:
                    continue
                mca = "  ".join("%s %s c/elem" % (c, cyc(arm, k, c)) for c in ARMS[arm][3])
                st = f["stack"]
                st = " (stack %d folded, %d loads, %d stores)" % st if st and sum(st) else ""
                print("  %-6s %-26s loop %-9s %6.2f insn/vec  reloads const+stack %-14s "
                      "moves %-2d %s%s" % (arm, f["sym"], loop(arm, k), f["ipv"],
                                           reloaded(arm, k), f["moves"], mca, st))
                if a.show:
                    print(f["src"])
    calls = ["%s %s" % (arm, f["sym"]) for arm in data for f in data[arm].values() if f["call"]]
    if calls:
        sys.stderr.write("hotloop: a call in the hot loop (the math not inlined): %s\n"
                         % ", ".join(calls))
    unconfirmed = ["%s %s" % (arm, f["sym"]) for arm in data for f in data[arm].values()
                   if f["inc_vecs"] != f["vecs"]]
    if unconfirmed:
        sys.stderr.write("hotloop: no loop advanced by the headers' vectors per step, the "
                         "longest loop (a slow path, calls and spills included) was taken: %s\n"
                         % ", ".join(unconfirmed))
    if a.check is not None:
        if not neon or not avx2:
            sys.exit("hotloop: --check needs both the NEON and the AVX2 objects")
        bad = [(k, ratio(k)) for k in keys if ratio(k) is not None and ratio(k) > a.check]
        for k, r in bad:
            sys.stderr.write("hotloop: %s: NEON %.2f insn/vec = %.2f x AVX2's %.2f (> %.2f)\n" % (
                name(k), neon[k]["ipv"], r, avx2[k]["ipv"], a.check))
        if bad:
            sys.exit(1)


if __name__ == "__main__":
    main()
