#!/usr/bin/env python3
"""bench/goals.py names the floor of every missed goal: on a checked-in run
(bench/testdata/floors-run: lines of the 2026-12-07 peers.sh run at 28f7e59,
trimmed to a few ops), with the real map (bench/floors/zen4.tsv) and the real doc
(docs/performance.md), each missed cell carries its floor ids and
--check-floors passes; a map with a line removed leaves a miss without a
floor, and a doc with an id removed leaves an id nowhere: --check-floors
must fail on each and say which. Standard library only; the ctest test
bench_goals_floors runs it.

    python3 tests/test_floors.py
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOALS = os.path.join(ROOT, "bench", "goals.py")
RUN = os.path.join(ROOT, "bench", "testdata", "floors-run")
MAP = os.path.join(ROOT, "bench", "floors", "zen4.tsv")
DOC = os.path.join(ROOT, "docs", "performance.md")

# The fixture's misses and the floor ids the map must give them (a table
# cell, as goals.py prints it). Each id is a row of docs/performance.md that
# explains that op, tier, arm and peer.
CELLS = [
    ("| gelu |", "1.13 **missed** (eigen512) `F-gelu-fast-avx512`"),
    ("| gelu |", "1.06 **missed** `F-gelu-acc`"),
    ("| gelu |", "2.03 **missed** (eigen512) `F-gelu-acc`"),
    ("| hardswish |", "1.005 **missed** (xnnpack) `F-hardswish-acc`"),
    ("| hardswish |", "1.25 **missed** `F16-hardswish` | 1.26 **missed** `F16-hardswish`"),
    ("| hardsigmoid |", "1.02 **missed** `F16-hardsigmoid` | 1.07 **missed** `F16-hardsigmoid`"),
    ("| tanh |", "1.15 **missed** (MLAS) `F-tanh-fast` + `F-avx2-mlas`"),
    ("| tanh |", "1.71 **missed** `F-tanh-acc` + `F-avx2-mlas`"),
    ("| 64 Ki (rows 16 x d 4096) | swiglu | f32 |", "0.72 **missed** `F-gated-2p-64k` | 0.265 | 0.76 met |"),
    ("| 4 Mi (rows 1024 x d 4096) | geglu | f16 |", "0.76 **missed** `F-gated-2p-geglu-f16` + `F-gated-2p-4m`"),
]


def goals(*args):
    return subprocess.run([sys.executable, GOALS, RUN, "--check-floors"] + list(args),
                          capture_output=True, text=True)


def fail(why, r):
    sys.exit("test_floors: %s\n--- goals.py exit %d, stderr:\n%s--- stdout:\n%s"
             % (why, r.returncode, r.stderr, r.stdout))


def main():
    r = goals()
    if r.returncode:
        fail("the checked-in run's misses should all have a floor id that docs/performance.md "
             "holds (a line of bench/floors/zen4.tsv removed, or a floor id renamed in the doc?)", r)
    for row, cell in CELLS:
        line = next((l for l in r.stdout.splitlines() if l.startswith(row)), "")
        if cell not in line:
            fail("%s: wanted %r in the row, got %r" % (row, cell, line), r)
    met = next(l for l in r.stdout.splitlines() if l.startswith("| hardsigmoid |"))
    if "met (onednn) |" not in met or "met (onednn) `" in met:
        fail("a met cell names no floor: %r" % met, r)
    if "**Floors named: 14 of 14 missed goals**" not in r.stdout or "Without one (0): none." not in r.stdout:
        fail("the summary's count of misses with a floor", r)
    if "hardswish 1.005 `F-hardswish-acc`" not in r.stdout:
        fail("the summary's missed (ratio) list carries the floor ids", r)

    with open(MAP) as f:
        lines = f.read().splitlines(True)
    with open(DOC) as f:
        doc = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        # a map without the line for AVX-512 fast gelu against Eigen
        gone = [l for l in lines if not (l.split()[:1] == ["fast"] and l.split()[-1:] == ["F-gelu-fast-avx512"])]
        if len(gone) != len(lines) - 1:
            sys.exit("test_floors: bench/floors/zen4.tsv has no single 'fast ... F-gelu-fast-avx512' line to remove")
        m = os.path.join(tmp, "floors.tsv")
        with open(m, "w") as f:
            f.writelines(gone)
        r = goals("--floors", m)
        want = "avx512 64 Ki gelu, fast / fastest peer 1.13 (eigen512)"
        if r.returncode != 1 or "1 missed goals have no floor id" not in r.stderr or want not in r.stderr:
            fail("a miss with no floor: --check-floors should exit 1 and name %r" % want, r)
        if "1.13 **missed** (eigen512) (no floor)" not in r.stdout or "Without one (1): " + want not in r.stdout:
            fail("a miss with no floor is marked in its cell and listed in the summary", r)

        # a doc without the row of the accurate tanh, which a pasted goals
        # table still cites: a citation does not define the id
        if doc.count("| `F-tanh-acc` ") != 1:
            sys.exit("test_floors: docs/performance.md should hold one row '| `F-tanh-acc` ...'")
        d = os.path.join(tmp, "performance.md")
        with open(d, "w") as f:
            f.write(doc.replace("| `F-tanh-acc` ", "| ") + "\n| tanh | 1.16 **missed** `F-tanh-acc` |\n")
        r = goals("--doc", d)
        if r.returncode != 1 or "floor id F-tanh-acc" not in r.stderr or "is not defined in " + d not in r.stderr:
            fail("an id of the map that the doc does not define: --check-floors should exit 1 and name it", r)
        # an id that only prefixes another does not count as there
        with open(d, "w") as f:
            f.write(doc.replace("`F-tanh-acc`", "`F-tanh-acc-x`"))
        if goals("--doc", d).returncode != 1:
            fail("F-tanh-acc-x should not count as F-tanh-acc", r)

        # the map is the run's CPU's: the same run on a Zen 3 (family 25
        # model 1) takes bench/floors/zen3.tsv, and on a CPU with no map
        # every miss is without a floor
        for model, cpu in ((1, "zen3"), (17, "zen4")):
            run = os.path.join(tmp, "run-%d" % model)
            shutil.copytree(RUN, run)
            with open(os.path.join(run, "meta.txt")) as f:
                meta = f.read().replace("family 25 model 17", "family 25 model %d" % model)
            with open(os.path.join(run, "meta.txt"), "w") as f:
                f.write(meta)
            r = subprocess.run([sys.executable, GOALS, run], capture_output=True, text=True)
            if "- floors map: bench/floors/%s.tsv (this run's CPU: %s)" % (cpu, cpu) not in r.stdout:
                fail("a run on family 25 model %d should take bench/floors/%s.tsv" % (model, cpu), r)
        run = os.path.join(tmp, "run-26")
        shutil.copytree(RUN, run)
        with open(os.path.join(run, "meta.txt"), "w") as f:
            f.write(meta.replace("family 25 model 17", "family 99 model 1"))
        r = subprocess.run([sys.executable, GOALS, run, "--check-floors"], capture_output=True, text=True)
        if r.returncode != 1 or "none for this CPU" not in r.stdout or "have no floor id" not in r.stderr:
            fail("a run on a CPU with no floors map: --check-floors should exit 1", r)
    print("test_floors: ok")


if __name__ == "__main__":
    main()
