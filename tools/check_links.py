#!/usr/bin/env python3
"""Fails on a broken relative link in actk's Markdown: a file that is not
there, or a #anchor that no heading of the target file makes.

    python3 tools/check_links.py [FILE.md ...]   # default: README.md, docs/*.md,
                                                 # python/README.md, rust/README.md

Anchors are GitHub's heading slugs: the heading's text without its Markdown,
lower-cased, every character that is not a letter, digit, space, '-' or '_'
dropped, spaces turned into '-'; a repeated slug gets -1, -2, ... Explicit
<a name="..."> and id="..." anchors count too. Links inside code blocks and
code spans are not links. Web links (http:, https:, mailto:) are not checked.
The ctest test docs_links runs it.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT = ["README.md", "docs/*.md", "python/README.md", "rust/README.md"]


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with code spans blanked;
    (line number, None) for a code block that never ends."""
    fence, opened = None, 0
    for i, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence, opened = m.group(1)[0] * 3, i
            elif line.strip().startswith(fence):
                fence = None
            continue
        if fence is None:
            yield i, re.sub(r"`+[^`]*`+", lambda s: " " * len(s.group(0)), line)
    if fence is not None:
        yield opened, None


def slug(heading):
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    t = re.sub(r"<[^>]+>", "", t)  # html tags
    t = t.replace("`", "").replace("*", "").lower()
    t = "".join(c for c in t if c.isalnum() or c in " -_")
    return t.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        text = open(path, encoding="utf-8").read()
        found, seen = set(), {}
        fence = None
        for line in text.split("\n"):
            m = re.match(r"^\s*(```+|~~~+)", line)
            if m:
                fence = None if fence and line.strip().startswith(fence) else (fence or m.group(1)[0] * 3)
                continue
            if fence:
                continue
            h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if h:
                s = slug(h.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                found.add(s if n == 0 else "%s-%d" % (s, n))
            for a in re.findall(r"""<a\s+(?:name|id)=["']([^"']+)["']""", line):
                found.add(a)
        cache[path] = found
    return cache[path]


LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")


def check(path):
    errors = []
    text = open(path, encoding="utf-8").read()
    rel = os.path.relpath(path, ROOT)
    for n, line in prose_lines(text):
        if line is None:
            errors.append("%s:%d: a code block that never ends (the rest of the file is code)" % (rel, n))
            continue
        targets = LINK.findall(line) + REF.findall(line)
        for t in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I):  # http:, https:, mailto:
                continue
            file_part, _, anchor = t.partition("#")
            target = path if not file_part else os.path.normpath(os.path.join(os.path.dirname(path), file_part))
            if not os.path.exists(target):
                errors.append("%s:%d: link to %s: no such file (%s)" % (rel, n, t, os.path.relpath(target, ROOT)))
                continue
            if anchor and target.endswith(".md") and anchor not in anchors(target):
                errors.append("%s:%d: link to %s: %s has no heading with the anchor #%s"
                              % (rel, n, t, os.path.relpath(target, ROOT), anchor))
    return errors


def main(argv):
    files = argv[1:] or [f for pat in DEFAULT for f in sorted(glob.glob(os.path.join(ROOT, pat)))]
    errors, links = [], 0
    for f in files:
        errors += check(os.path.abspath(f))
    for e in errors:
        print(e)
    if errors:
        print("check_links: %d broken link(s) in %d file(s)" % (len(errors), len(files)))
        return 1
    print("check_links: %d file(s), every relative link resolves" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
