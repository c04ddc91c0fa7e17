#!/usr/bin/env python3
"""README.md's code, and docs/*.md's, taken in as a user would take it (CI:
.ci/run embed).

Every fenced block of README.md, then of docs/*.md (sorted), is handled by its
language, in order ("README" below means any of these pages):
  sh     with `cmake --install`: run as written (the prefix /opt/actk and the
         build directory moved under WORK); this installs the actk the other
         blocks use.
  c, cpp with a main(): compiled with -Wall -Wextra -Werror -pedantic against
         the installed header and shared library, and run: it must exit 0,
         and print what README's text says it prints (a sentence of the form
         "`expr` prints `value`" after the block).
  c, cpp without one (a fragment): compiled with -fsyntax-only inside a
         function, after a prelude declaring the variables fragments use.
  cmake  find_package and target_link_libraries for `my_engine`: a project
         around it builds README's first C program as my_engine and runs it.
  sh     with `pkg-config`: each command run as written (app.c is README's
         first C program, <libdir> the installed one), then the program:
         the --static one must not need libactk.so.
  rust   in README.md only: run as doctests by CI's rust stage
         (rust/actk/src/lib.rs includes README.md under cfg(doctest)): checked
         here that it still does; a rust block elsewhere fails the run.
  sh     with `cargo`: the rust stage runs it; with `pip install`: the
         python stage runs it.
  python run by python/tests/test_readme.py (the python stage, against the
         installed package; it reads README.md and docs/*.md): checked here
         that it is still there.
  sh     with tools/setup-debian.sh: the quick start and the AArch64 cross
         test, which CI's gcc and aarch64 stages run: skipped here. A block with no language, or text, is text.
A block of any other kind fails the run, so that a new one gets a rule.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

# what README's fragments use, declared for their syntax check
FRAGMENT_PRELUDE = """#include <actk.h>
#include <stdint.h>
extern actk_pool *pool;
extern float cos_cache[], sin_cache[], q[];
extern const int64_t *position_ids;
"""


def say(msg):
    print(f"readme: {msg}", flush=True)


def fail(msg):
    say(f"FAILED: {msg}")
    sys.exit(1)


def blocks(text, name):
    """(line, language, body, text up to the next block) of each fenced block."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        if j == len(lines):
            fail(f"{name}:{i + 1}: a code block that never ends")
        k = j + 1
        while k < len(lines) and not lines[k].startswith("```"):
            k += 1
        found.append((i + 1, m.group(1), "\n".join(lines[i + 1 : j]) + "\n",
                      "\n".join(lines[j + 1 : k])))
        i = j + 1
    return found


def commands(body):
    """The shell commands of a block: continuations joined, comment lines dropped."""
    out, cur = [], ""
    for line in body.split("\n"):
        s = line.rstrip()
        if not cur and (not s.strip() or s.lstrip().startswith("#")):
            continue
        if s.endswith("\\"):
            cur += s[:-1] + " "
            continue
        out.append((cur + s).strip())
        cur = ""
    return out


def run(cmd, cwd, env=None, shell=False):
    shown = cmd if shell else " ".join(cmd)
    say(f"  $ {shown}")
    r = subprocess.run(cmd, cwd=cwd, env=env, shell=shell, executable="/bin/bash" if shell else None,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        fail(f"exit {r.returncode}: {shown}")
    return r.stdout


def needs_libactk_so(exe):
    out = subprocess.run(["readelf", "-d", exe], stdout=subprocess.PIPE, text=True, check=True)
    return "libactk.so" in out.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--readme", nargs="*", help="the pages (default: README.md, then docs/*.md)")
    ap.add_argument("--work", required=True, help="an empty directory for builds and the prefix")
    a = ap.parse_args()
    root = os.getcwd()
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    prefix = os.path.join(work, "prefix")
    pages = a.readme or ["README.md"] + sorted(glob.glob("docs/*.md"))
    found = []  # (where, language, body, text after), where = "page:line"
    for page in pages:
        with open(page, encoding="utf-8") as f:
            found += [(f"{page}:{line}", lang, body, after) for line, lang, body, after in blocks(f.read(), page)]

    def where(w):
        return w

    # the install block first: the others need what it installs
    installs = [b for b in found if b[1] == "sh" and "cmake --install" in b[2]]
    if len(installs) != 1:
        fail(f"expected one sh block with `cmake --install`, found {len(installs)}")
    line, _, body, _ = installs[0]
    say(f"{where(line)}: the install block")
    for c in commands(body):
        c = c.replace("/opt/actk", prefix).replace("build-install", os.path.join(work, "build"))
        run(c, cwd=root, shell=True)
    libs = glob.glob(os.path.join(prefix, "**", "libactk.so"), recursive=True)
    if len(libs) != 1:
        fail(f"the install block installed {len(libs)} libactk.so under {prefix}")
    libdir = os.path.dirname(libs[0])
    include = os.path.join(prefix, "include")

    programs = [b for b in found if b[1] in ("c", "cpp") and re.search(r"\bint main\s*\(", b[2])]
    if not programs or programs[0][1] != "c":
        fail("README's first program is not C: the cmake and pkg-config blocks build it")
    app_c = os.path.join(work, "app.c")
    with open(app_c, "w", encoding="utf-8") as f:
        f.write(programs[0][2])

    counts = {}
    for line, lang, body, after in found:
        kind = None
        if lang in ("c", "cpp"):
            ext = "c" if lang == "c" else "cpp"
            src = os.path.join(work, "readme_%s.%s" % (re.sub(r"\W", "_", line), ext))
            compiler = ["cc", "-std=c99"] if lang == "c" else ["c++", "-std=c++11"]
            flags = ["-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{include}"]
            if re.search(r"\bint main\s*\(", body):
                kind = f"{lang} program"
                with open(src, "w", encoding="utf-8") as f:
                    f.write(body)
                exe = src.rsplit(".", 1)[0]
                say(f"{where(line)}: {kind}")
                run(compiler + flags + [src, "-o", exe, f"-L{libdir}", "-lactk",
                                        f"-Wl,-rpath,{libdir}"], cwd=work)
                out = run([exe], cwd=work)
                sys.stdout.write("".join(f"    {l}\n" for l in out.splitlines()))
                # the text after the block: "`gelu(-1)` prints `-0.158655256`"
                for expr, value in re.findall(r"`([^`]+)` prints `([^`]+)`", after):
                    if f"{expr} = {value}\n" not in out:
                        fail(f"{where(line)}: README says `{expr}` prints `{value}`; the program "
                             f"printed:\n{out}")
                    say(f"  {expr} prints {value}, as README says")
            else:
                kind = f"{lang} fragment"
                with open(src, "w", encoding="utf-8") as f:
                    f.write(FRAGMENT_PRELUDE + "void readme_fragment(void) {\n" + body + "}\n")
                say(f"{where(line)}: {kind}")
                run(compiler + flags + ["-fsyntax-only", src], cwd=work)
        elif lang == "cmake":
            kind = "cmake"
            say(f"{where(line)}: cmake, around README's first C program")
            proj = os.path.join(work, "cmake_" + re.sub(r"\W", "_", line))
            os.makedirs(proj)
            shutil.copy(app_c, os.path.join(proj, "main.c"))
            with open(os.path.join(proj, "CMakeLists.txt"), "w", encoding="utf-8") as f:
                f.write("cmake_minimum_required(VERSION 3.16)\nproject(readme_cmake C)\n"
                        "add_executable(my_engine main.c)\n" + body)
            run(["cmake", "-S", proj, "-B", os.path.join(proj, "build"),
                 f"-DCMAKE_PREFIX_PATH={prefix}"], cwd=work)
            run(["cmake", "--build", os.path.join(proj, "build")], cwd=work)
            run([os.path.join(proj, "build", "my_engine")], cwd=work)
        elif lang == "sh" and "pkg-config" in body:
            kind = "pkg-config"
            say(f"{where(line)}: pkg-config, on README's first C program")
            env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
            d = os.path.join(work, "pkgconfig_" + re.sub(r"\W", "_", line))
            os.makedirs(d)
            shutil.copy(app_c, os.path.join(d, "app.c"))
            for c in commands(body):
                if os.path.exists(os.path.join(d, "a.out")):
                    os.remove(os.path.join(d, "a.out"))
                run(c.replace("<libdir>", libdir), cwd=d, env=env, shell=True)
                exe = os.path.join(d, "a.out")
                static = "--static" in c
                if needs_libactk_so(exe) == static:
                    fail(f"{where(line)}: `{c}` built a program that "
                         f"{'needs' if static else 'does not need'} libactk.so")
                # a private prefix: README says to set LD_LIBRARY_PATH (or an rpath)
                run([exe], cwd=d, env=dict(env, LD_LIBRARY_PATH=libdir))
        elif lang == "sh" and "setup-debian.sh" in body:
            kind = "setup and test"
            say(f"{where(line)}: set-up and tests: CI's gcc (README's test command) and "
                "aarch64 stages run them")
        elif lang == "sh" and "cmake --install" in body:
            kind = "install"
        elif lang == "rust":
            # run as doctests by the rust stage: the crate includes README.md for them
            kind = "rust (doctests of .ci/run rust)"
            if not line.startswith("README.md:"):
                fail(f"{where(line)}: a ```rust block outside README.md: no doctest runs it "
                     "(rust/actk/src/lib.rs includes README.md only)")
            lib_rs = os.path.join(root, "rust/actk/src/lib.rs")
            with open(lib_rs, encoding="utf-8") as f:
                if 'include_str!("../../../README.md")' not in f.read():
                    fail(f"{where(line)}: a ```rust block, but rust/actk/src/lib.rs no longer "
                         "runs README.md's blocks as doctests")
        elif lang == "sh" and "cargo" in body:
            kind = "cargo (the rust stage runs it)"
        elif lang == "sh" and "pip install" in body:
            kind = "pip (the python stage runs it: a fresh venv, pip install ./python)"
        elif lang == "python":
            kind = "python (run by python/tests/test_readme.py in the python stage)"
            if not os.path.exists(os.path.join(root, "python/tests/test_readme.py")):
                fail(f"{where(line)}: a ```python block, but python/tests/test_readme.py is gone")
        elif lang in ("", "text"):
            kind = "plain text"
        else:
            fail(f"{where(line)}: a ```{lang} block with no rule in .ci/readme_snippets.py")
        counts[kind] = counts.get(kind, 0) + 1
    say("ok: " + ", ".join(f"{n} {k}" for k, n in counts.items()))


if __name__ == "__main__":
    main()
