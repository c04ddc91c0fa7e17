#!/usr/bin/env python3
"""Measures README.md's accuracy rows that read "-" (a new op's, from
tools/gen_ops.py) and writes them in place: each with tools/actk_sweep over
every input of its table (2^32 floats, or all 65536 of a 16-bit type).

    python3 tools/readme_rows.py [--sweep build/tools/actk_sweep] [--all]

--all measures every row again (the f32 tables take about 10 minutes per op
and tier on 2 cores). The tests (test_accuracy, test_types) read the rows.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sweep_row(sweep, op, ty, tier):
    cmd = [sweep, op, "--readme", "1"]
    if ty != "f32":
        cmd += ["--type", ty]
    if tier == "fast":
        cmd += ["--tier", "fast"]
    if ty == "f32":
        cmd += ["--mono", "1"]
    print("readme_rows: " + " ".join(cmd), flush=True)
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True).stdout
    rows = re.findall(r"^\s*readme: (\|.*\|)\s*$", out, re.M)
    if len(rows) != 1:
        sys.exit("readme_rows: %s printed %d readme rows:\n%s" % (" ".join(cmd), len(rows), out))
    return rows[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sweep", default=os.path.join(ROOT, "build/tools/actk_sweep"))
    ap.add_argument("--all", action="store_true", help="measure every row, not only the '-' ones")
    a = ap.parse_args()
    path = os.path.join(ROOT, "README.md")
    lines = open(path, encoding="utf-8").read().split("\n")
    table, changed = None, 0
    for i, line in enumerate(lines):
        m = re.match(r"<!-- accuracy: (\w+) (\w+) -->", line)
        if m:
            table = m.groups()
            continue
        if not line.startswith("|"):
            if line.strip():
                table = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if table is None or cells[0] in ("op", "") or set(cells[0]) <= set("-"):
            continue
        if a.all or all(c == "-" for c in cells[1:]):
            row = sweep_row(a.sweep, cells[0].strip("`"), table[0], table[1])
            if row.count("|") != line.count("|"):
                sys.exit("readme_rows: %r does not fit the table of line %d" % (row, i + 1))
            lines[i] = row
            changed += 1
    if changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    print("readme_rows: %d row(s) measured" % changed)


if __name__ == "__main__":
    main()
