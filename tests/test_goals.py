#!/usr/bin/env python3
"""bench/goals.py's verdicts on a made-up run: each goal's ratio is the worst
of actk's same-process ratios (MLAS included), compared with its bar, and
read from every part's CSV format. Standard library only; the ctest test
bench_goals runs it (no peer and no timing needed).

    python3 tests/test_goals.py
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOALS = os.path.join(ROOT, "bench", "goals.py")

# f32: gelu fast 0.4 against eigen512 0.5 (0.80) and torch 0.36 (1.11: the
# worst, so the one that counts); libm and an "off" peer never count
F32 = """# actk 0.1.0, isa avx512; cpu: test
# peer eigen512: Eigen 3.4
f32,avx512,65536,gelu,acc,0.6000
f32,avx512,65536,gelu,fast,0.4000
f32,avx512,65536,gelu,eigen512,0.5000
f32,avx512,65536,gelu,torch,0.3600
f32,avx512,65536,gelu,onednn,off
f32,avx512,65536,gelu,libm,0.0100
f32,avx512,65536,gelu,copy,0.1000
f32,avx512,65536,gelu,spread,0.0200
f32,avx512,65536,tanh,acc,0.3000
f32,avx512,65536,tanh,fast,0.2000
f32,avx512,65536,tanh,eigen512,0.2500
f32,avx512,65536,tanh,copy,0.1200
f32,avx512,65536,tanh,spread,0.0100
"""
# MLAS (its own process): tanh fast 0.20 / mlas 0.16 = 1.25 beats eigen512's
# 0.80 as the worst; acc / MLAS 0.9 (gelu, met) and 1.2 (tanh, missed)
MLAS = """# onnxruntime 1.31.1 (PyPI)
mlas,avx512,65536,gelu,mlas,1.0000
mlas,avx512,65536,gelu,acc,0.9000
mlas,avx512,65536,gelu,fast,0.5000
mlas,avx512,65536,tanh,mlas,0.1600
mlas,avx512,65536,tanh,acc,0.1920
mlas,avx512,65536,tanh,fast,0.2000
"""
TYPES = """types,avx512,65536,gelu,f32f,0.4000
types,avx512,65536,gelu,bf16f,0.3000
types,avx512,65536,gelu,f16f,0.3400
types,avx512,65536,gelu,cp32,0.1000
types,avx512,65536,gelu,cp16,0.0500
"""
# actk_ratio --gated's format: packed 0.4 / ggml 0.5 (met), / 2-pass 0.6 (0.67, missed)
GATED = """# actk_ratio --gated: test
isa,n,rows,d,op,type,acc,fast,actk_2p,ggml,torch,copy,ggml_fused,two_pass,best_2pass,fast_over_ggml,fast_over_2pass,spread
avx512,65536,16,4096,swiglu,bf16,0.5,0.4,0.6,0.5,0.9,0.05,0.5,0.6,actk_2p,0.800,0.667,0.05
"""
# actk_gated_bench's format (the other arm): packed 0.3 / 2-pass 0.6 (met)
GATED_BENCH = """# rows 128, d 14336, tier fast, one thread
gated,op,type,packed,plain,2-pass,act,copy,pk/2pass,pk/act,plain/2p
gated,swiglu,f32,0.300,0.3,0.600,0.2,0.13,0.50,1.5,0.5
gated,geglu,f32,0.302,0.3,0.500,0.2,0.13,0.60,1.5,0.6
"""


def write(d, files):
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)


def goals(*args):
    # an empty floor map: the floor naming is tests/test_floors.py's
    r = subprocess.run([sys.executable, GOALS, "--floors", os.devnull] + list(args),
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("goals.py failed (%d): %s" % (r.returncode, r.stderr))
    return r.stdout


def expect(text, needle, why):
    if needle not in text:
        sys.exit("test_goals: %s: no %r in goals.py's table:\n%s" % (why, needle, text))


def main():
    with tempfile.TemporaryDirectory() as run, tempfile.TemporaryDirectory() as before:
        write(run, {"meta.txt": "cpu: test\n", "f32-avx512.csv": F32, "mlas-avx512.csv": MLAS,
                    "types-avx512.csv": TYPES, "gated-avx512.csv": GATED,
                    "f32-avx2.csv": F32.replace("avx512", "avx2"),
                    "gated-avx2.csv": GATED_BENCH})
        write(before, {"f32-avx512.csv": F32.replace("gelu,copy,0.1000", "gelu,copy,0.0800")
                       .replace("tanh,copy,0.1200", "tanh,copy,0.0800")})
        t = goals(run, "--before", before)
        gelu = next(l for l in t.splitlines() if l.startswith("| gelu |"))
        tanh = next(l for l in t.splitlines() if l.startswith("| tanh |"))
        expect(gelu, "1.11 **missed** (torch)", "fast / fastest peer: the worst ratio, libm and 'off' left out")
        expect(gelu, "0.90 met", "acc / MLAS under its bar")
        expect(gelu, "1.67 **missed** (torch)", "acc / fastest peer over 1.5")
        expect(gelu, "0.75 met", "bf16 fast / f32 fast under 0.8")
        expect(gelu, "0.85 **missed**", "f16 fast / f32 fast over 0.8")
        expect(tanh, "1.25 **missed** (MLAS)", "MLAS counts as a peer through its own process")
        expect(tanh, "1.20 **missed**", "acc / MLAS over its bar")
        expect(t, "0.67 **missed** (no floor) | 0.500 | 0.80 met", "actk_ratio --gated's row: 2-pass and ggml fused")
        expect(t, "0.50 met | not measured", "actk_gated_bench's row: no ggml column")
        expect(t, "0.604 **missed**", "a ratio just over its bar shows the decimal that misses")
        expect(t, "| 0.100 / 0.110 / 0.120 | 0.080 / 0.080 / 0.080 | +37.5% |",
               "--before: the memcpy control's median beside the earlier run's")
        # met: avx512 gelu acc / MLAS and bf16, tanh acc / peer, gated ggml (4 of 10); avx2
        # tanh fast and acc, the gated bench's swiglu 2-pass (3 of 6)
        expect(t, "Goals met: 7 of 16.", "the tally")
        expect(t, "| packed / ggml fused <= 1 | 1 of 1 | - |", "the ggml goal's row in the tally")
        expect(t, "not measured: avx2 rows 128, d 14336 (actk_gated_bench: no ggml column)",
               "a goal the run could not measure is said, not counted as met")
        expect(t, "| fast / fastest peer <= 1 | 1 of 4 | avx512 64 Ki: gelu 1.11 (no floor), tanh 1.25 (no floor); "
               "avx2 64 Ki: gelu 1.11 (no floor) |",
               "the misses of a goal, by ISA and size")
    print("test_goals: ok")


if __name__ == "__main__":
    main()
