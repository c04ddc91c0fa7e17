#!/usr/bin/env python3
"""Measures the rows of docs/accuracy.tsv that read "-" (a new op's, from
tools/gen_ops.py) and writes them in place: each with tools/actk_sweep over
every input of its table (2^32 floats, or all 65536 of a 16-bit type).

    python3 tools/readme_rows.py [--sweep build/tools/actk_sweep] [--all] [--op NAME]

--all measures every row again (the f32 tables take about 10 minutes per op
and tier on 2 cores); --op limits it to one op. --sample fills only the f32
rows' sample_correct (test_accuracy's every-4099th-pattern sample, counted
exactly; seconds per row) where it is empty, or in every row with --all: the
full sweep counts the same subset, so both give the same number. The tests (test_accuracy,
test_types) read the rows; then python3 tools/gen_ops.py writes
docs/accuracy.md's tables and README's summary from them.
"""
import argparse
import os
import re
import subprocess
import sys

import accuracy_tables as acc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sweep_line(sweep, op, tier, args, pattern, what):
    """The one match of pattern in the output of actk_sweep OP [--tier fast] args."""
    cmd = [sweep, op] + args + (["--tier", "fast"] if tier == "fast" else [])
    print("readme_rows: " + " ".join(cmd), flush=True)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True).stdout
    found = re.findall(pattern, out, re.M)
    if len(found) != 1:
        sys.exit("readme_rows: %s printed %d %s:\n%s" % (" ".join(cmd), len(found), what, out))
    return found[0]


def sweep_row(sweep, op, ty, tier):
    """The cells after op of the sweep's --readme row for one table."""
    args = ["--readme", "1"] + (["--type", ty] if ty != "f32" else ["--mono", "1"])
    row = sweep_line(sweep, op, tier, args, r"^\s*readme: (\|.*\|)\s*$", "readme rows")
    cells = [c.strip().strip("`") for c in row.strip().strip("|").split("|")]
    if cells[0] != op:
        sys.exit("readme_rows: the sweep of %s printed a row for %r" % (op, cells[0]))
    return cells[1:]


def sample_count(sweep, op, tier):
    """test_accuracy's sample correctly rounded, from a sweep over just it."""
    return sweep_line(sweep, op, tier, ["--stride", "4099"],
                      r"^\s*test_accuracy's sample \(every 4099th pattern\): (\d+) of",
                      "sample counts")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sweep", default=os.path.join(ROOT, "build/tools/actk_sweep"))
    ap.add_argument("--all", action="store_true", help="measure every row, not only the '-' ones")
    ap.add_argument("--op", help="only this op's rows")
    ap.add_argument("--sample", action="store_true", help="only the f32 rows' sample_correct")
    a = ap.parse_args()
    path = os.path.join(ROOT, acc.DATA)
    head, rows = acc.parse(open(path, encoding="utf-8").read())
    changed = 0
    for r in rows:
        cols = acc.data_columns(r["type"], r["tier"])
        if a.op and r["op"] != a.op:
            continue
        if a.sample:
            if "sample_correct" not in cols or (r["sample_correct"] not in ("", "-") and not a.all):
                continue
            r["sample_correct"] = sample_count(a.sweep, r["op"], r["tier"])
            changed += 1
            with open(path, "w", encoding="utf-8") as f:
                f.write(acc.format_rows(head, rows))
            continue
        if not (a.all or all(r[c] == "-" for c in cols)):
            continue
        cells = sweep_row(a.sweep, r["op"], r["type"], r["tier"])
        if len(cells) != len(cols):
            sys.exit("readme_rows: %s %s %s: the sweep printed %d cells, the table has %d (%s)"
                     % (r["type"], r["tier"], r["op"], len(cells), len(cols), ", ".join(cols)))
        r.update(zip(cols, cells))
        changed += 1
        # written after every row: a long run that stops keeps what it measured
        with open(path, "w", encoding="utf-8") as f:
            f.write(acc.format_rows(head, rows))
    print("readme_rows: %d row(s) measured into %s%s" % (
        changed, acc.DATA, "; now run python3 tools/gen_ops.py" if changed else ""))


if __name__ == "__main__":
    main()
