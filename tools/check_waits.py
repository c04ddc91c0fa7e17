#!/usr/bin/env python3
"""No wait loop that only yields (docs/pool-memory-order.md, "Parking").

A loop that waits by yielding the CPU (sched_yield, SwitchToThread) and never
sleeps burns a core for as long as it waits: actk's old off-Linux futex
fallback did that for every idle worker. This check reads every C file under
the given directory (src/) and fails when:

  1. a yield primitive (sched_yield, pthread_yield, thrd_yield, SwitchToThread,
     Sleep(0)) appears outside actk_park_yield in src/platform/: the library
     yields only through the park interface;
  2. actk_park_yield in src/platform/ contains a loop;
  3. a loop yields (calls actk_park_yield, or a function of the same file that
     yields) and neither parks in its body nor is followed by a park later in
     the same function (actk_park_wait, or a function of the same file that
     parks): a spin that yields must be bounded and then park.

It is a lint, not a proof: it reads loops and calls, not their bounds.
Usage: check_waits.py SRC_DIR   (exit status 1 and the findings on a failure)
"""
import os
import re
import sys

PRIMITIVES = re.compile(r"\b(sched_yield|pthread_yield|thrd_yield|SwitchToThread)\s*\(|\bSleep\s*\(\s*0\s*\)")
FUNC = re.compile(r"^[A-Za-z_][^;{}()]*?\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{", re.M)
LOOP = re.compile(r"\b(while|for|do)\b")


def strip(text):
    """Comments and string/char literals blanked, offsets kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def match_close(s, i, open_c, close_c):
    """Index just past the bracket that closes the one at s[i]."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_c:
            depth += 1
        elif s[j] == close_c:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(s)


def functions(s):
    """(name, body_start, body_end) of each function definition."""
    for m in FUNC.finditer(s):
        name = m.group(1)
        if name in ("if", "while", "for", "switch", "return", "sizeof"):
            continue
        start = m.end() - 1
        yield name, start, match_close(s, start, "{", "}")


def statement_end(s, i):
    """End of the statement starting at s[i] (a block, or up to its ';')."""
    while i < len(s) and s[i].isspace():
        i += 1
    if i < len(s) and s[i] == "{":
        return match_close(s, i, "{", "}")
    m = LOOP.match(s, i)
    if m and m.group(1) != "do":  # a nested loop as the body
        j = s.index("(", m.end())
        return statement_end(s, match_close(s, j, "(", ")"))
    depth = 0
    for j in range(i, len(s)):
        if s[j] in "({":
            depth += 1
        elif s[j] in ")}":
            depth -= 1
        elif s[j] == ";" and depth == 0:
            return j + 1
    return len(s)


def loops(s, start, end):
    """(loop_start, loop_end) of every loop in s[start:end]."""
    for m in LOOP.finditer(s, start, end):
        kind = m.group(1)
        if kind == "do":
            body_end = statement_end(s, m.end())
            w = re.compile(r"\s*while\s*\(").match(s, body_end)
            loop_end = match_close(s, s.index("(", body_end), "(", ")") if w else body_end
        else:
            j = m.end()
            while s[j].isspace():
                j += 1
            if s[j] != "(":
                continue
            cond_end = match_close(s, j, "(", ")")
            if kind == "while" and s[cond_end:].lstrip().startswith(";"):
                continue  # the tail of a do-while, seen with its do
            loop_end = statement_end(s, cond_end)
        yield m.start(), min(loop_end, end)


def calls(text, names):
    return any(re.search(r"\b%s\s*\(" % re.escape(n), text) for n in names)


def closure(funcs, s, seeds):
    """Names of the functions that call a seed, directly or through each other."""
    found = set(seeds)
    changed = True
    while changed:
        changed = False
        for name, a, b in funcs:
            if name not in found and calls(s[a:b], found):
                found.add(name)
                changed = True
    return found


def check_file(path, rel, findings):
    with open(path, encoding="utf-8") as f:
        s = strip(f.read())
    funcs = list(functions(s))
    in_platform = rel.startswith("platform" + os.sep) or rel.startswith("platform/")
    line = lambda i: s.count("\n", 0, i) + 1
    for m in PRIMITIVES.finditer(s):
        owner = [n for n, a, b in funcs if a <= m.start() < b]
        if not (in_platform and owner == ["actk_park_yield"]):
            findings.append("%s:%d: %s outside actk_park_yield in src/platform/: yield through "
                            "the park interface" % (rel, line(m.start()), m.group(0).strip()))
    for name, a, b in funcs:
        if in_platform and name == "actk_park_yield" and any(True for _ in loops(s, a, b)):
            findings.append("%s:%d: actk_park_yield loops" % (rel, line(a)))
    yielders = closure(funcs, s, {"actk_park_yield", "sched_yield", "pthread_yield", "thrd_yield",
                                  "SwitchToThread", "Sleep"})
    parkers = closure(funcs, s, {"actk_park_wait"})
    for name, a, b in funcs:
        if in_platform and name.startswith("actk_park_"):
            continue
        for la, lb in loops(s, a, b):
            if calls(s[la:lb], yielders) and not calls(s[la:b], parkers):
                findings.append("%s:%d: a loop in %s yields and never parks (after the spin, "
                                "actk_park_wait): it burns a core while it waits"
                                % (rel, line(la), name))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    findings, files = [], 0
    for d, _, names in sorted(os.walk(root)):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                files += 1
                check_file(os.path.join(d, n), os.path.relpath(os.path.join(d, n), root), findings)
    for f in findings:
        print("check_waits: " + f)
    if findings:
        print("check_waits: FAILED (%d findings in %d files)" % (len(findings), files))
        sys.exit(1)
    print("check_waits: ok (%d files, no wait loop that only yields)" % files)


if __name__ == "__main__":
    main()
